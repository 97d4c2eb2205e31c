// The league's queue: a name, a game, and a secret this browser makes and keeps.
(function () {
  "use strict";
  var form = document.getElementById("join");
  var status = document.getElementById("join-status");
  var link = document.getElementById("join-seat");
  if (!form) return;
  function secret() {
    var key = "cattle-league-secret";
    var s = window.localStorage.getItem(key);
    if (!s) {
      var bytes = new Uint8Array(24);
      window.crypto.getRandomValues(bytes);
      s = Array.from(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
      window.localStorage.setItem(key, s);
    }
    return s;
  }
  function post(url, body) {
    return fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    }).then(function (r) { return r.json().then(function (j) { return [r.status, j]; }); });
  }
  function look(name) {
    post("/api/league/seat", { name: name, secret: secret() }).then(function (got) {
      var j = got[1];
      if (got[0] !== 200) { status.textContent = j.error || "refused"; return; }
      if (j.desk) {
        link.href = "/seats/desk/" + j.desk;
        link.hidden = false;
        status.textContent = "Your game is on: open your seat.";
        window.location.assign(link.href);
        return;
      }
      status.textContent = j.waiting ? "In the queue: your game starts with the league's next round." : "Waiting for your seat.";
      window.setTimeout(function () { look(name); }, 1000);
    });
  }
  form.addEventListener("submit", function (ev) {
    ev.preventDefault();
    var name = document.getElementById("join-name").value;
    var pick = document.getElementById("join-game").value.split("|");
    post("/api/league/join", { name: name, league: pick[0], game: pick[1], secret: secret() })
      .then(function (got) {
        if (got[0] !== 200) { status.textContent = got[1].error || "refused"; return; }
        look(name);
      });
  });
})();
