// A seat page follows its seat: it asks the server where the seat stands (the server holds
// the question a few seconds until something changes) and opens the next decision, or says
// the game is over, without a manual reload. Closing the page tells the server (a beacon);
// the seat is left only if no page looks at it again within a few seconds (a reload does).
(function () {
  "use strict";
  var box = document.getElementById("seat");
  if (!box) { return; }
  var desk = box.getAttribute("data-desk");
  var token = box.getAttribute("data-token") || "";
  var notes = box.getAttribute("data-notes") || "0";
  var form = document.getElementById("answer");
  var left = document.getElementById("left");
  var status = document.getElementById("status");
  var here = "/seats/desk/" + desk;
  var until = null;
  var moving = false;  // going to this seat's next page, not leaving it
  // This page's own name: its looks, arriving after its closing word, do not take it back.
  function fresh() { return Math.random().toString(36).slice(2) + Date.now().toString(36); }
  var page = fresh();

  if (form) {
    // Enter plays from any field but the text box (a select would not submit by itself).
    form.addEventListener("keydown", function (e) {
      if (e.key === "Enter" && e.target.tagName !== "TEXTAREA" && !e.isComposing) {
        e.preventDefault();
        moving = true;
        if (form.requestSubmit) { form.requestSubmit(); } else { form.submit(); }
      }
    });
    // One answer per look: a second submit (a double click) is not sent; the server would
    // refuse it anyway (409), the first answer standing.
    var sent = false;
    form.addEventListener("submit", function (e) {
      if (sent) { e.preventDefault(); return; }
      sent = true;
      moving = true;
    });
    var first = form.querySelector("select, input, textarea");
    if (first && document.activeElement !== first) { first.focus(); }
  }
  // The keys work from here on (the autofocus may come before this script has run).
  document.body.setAttribute("data-ready", "yes");
  if (!desk) { return; }
  if (document.getElementById("seat-over") || document.getElementById("seat-gone")) { return; }

  window.addEventListener("pagehide", function () {
    if (!moving && navigator.sendBeacon) {
      navigator.sendBeacon("/api/seats/" + desk + "/leave?page=" + page, "");
    }
    moving = false;
  });
  // Back from the browser's page cache: look again at once (that takes the closed mark back).
  window.addEventListener("pageshow", function (e) {
    if (!e.persisted) { return; }
    page = fresh();
    fetch("/api/seats/" + desk + "?page=" + page, { cache: "no-store" }).catch(function () {});
  });

  function tick() {
    if (left && until !== null) {
      var s = Math.max(0, Math.round((until - Date.now()) / 1000));
      left.textContent = " (" + s + " s left)";
    }
  }
  window.setInterval(tick, 1000);

  function look(held) {
    // The first question is answered at once (for the time left); the next ones are held.
    var url = "/api/seats/" + desk + "?page=" + page +
      (held ? "&token=" + token + "&notes=" + notes : "");
    fetch(url, { cache: "no-store" })
      .then(function (r) { return r.json(); })
      .then(function (s) {
        if ((s.token || "") !== token || s.over || s.gone ||
            (s.token && String(s.notes) !== notes)) {
          moving = true;
          window.location.replace(here);
          return;
        }
        if (s.left !== undefined) { until = Date.now() + s.left * 1000; tick(); }
        if (status) { status.textContent = ""; }
        window.setTimeout(function () { look(true); }, 200);
      })
      .catch(function () {
        if (status) { status.textContent = "The viewer does not answer; trying again."; }
        window.setTimeout(function () { look(true); }, 2000);
      });
  }
  look(false);
})();
