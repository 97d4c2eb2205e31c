// A tournament page reloads itself every few seconds while the tournament runs.
"use strict";
(function () {
  const box = document.getElementById("tournament");
  if (!box || box.dataset.running !== "yes") return;
  window.setTimeout(function () { window.location.reload(); }, 5000);
})();
