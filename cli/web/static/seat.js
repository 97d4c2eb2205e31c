// A seat page follows its seat: it asks the server every second where the seat stands and
// opens the next decision (or says the game is over) without a manual reload.
(function () {
  "use strict";
  var box = document.getElementById("seat");
  if (!box) { return; }
  var desk = box.getAttribute("data-desk");
  var token = box.getAttribute("data-token") || null;
  var notes = Number(box.getAttribute("data-notes") || "0");
  var form = document.getElementById("answer");
  var left = document.getElementById("left");
  var status = document.getElementById("status");
  var here = "/seats/desk/" + desk;

  if (form) {
    // Enter plays from any field but the text box (a select would not submit by itself).
    form.addEventListener("keydown", function (e) {
      if (e.key === "Enter" && e.target.tagName !== "TEXTAREA" && !e.isComposing) {
        e.preventDefault();
        if (form.requestSubmit) { form.requestSubmit(); } else { form.submit(); }
      }
    });
    var first = form.querySelector("select, input, textarea");
    if (first && document.activeElement !== first) { first.focus(); }
  }
  if (!desk) { return; }
  var ended = document.getElementById("seat-over") || document.getElementById("seat-gone");
  if (ended) { return; }

  function look() {
    fetch("/api/seats/" + desk, { cache: "no-store" })
      .then(function (r) { return r.json(); })
      .then(function (s) {
        if (s.token !== token || s.over || s.gone ||
            (s.token && s.notes !== undefined && s.notes !== notes)) {
          window.location.replace(here);
          return;
        }
        if (left && s.left !== undefined) { left.textContent = " (" + Math.round(s.left) + " s left)"; }
        window.setTimeout(look, 1000);
      })
      .catch(function () {
        if (status) { status.textContent = "The viewer does not answer; trying again."; }
        window.setTimeout(look, 2000);
      });
  }
  window.setTimeout(look, 1000);
})();
