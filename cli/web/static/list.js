// The games list: a changed filter applies at once; in a published archive, the search box
// filters the rows shown (there is no server to ask).
"use strict";
(function () {
  const form = document.getElementById("filters");
  if (!form) return;
  const staticList = document.body.dataset.static === "yes";
  if (!staticList) {
    for (const sel of form.querySelectorAll("select")) {
      sel.addEventListener("change", function () { form.submit(); });
    }
    return;
  }
  form.addEventListener("submit", function (e) { e.preventDefault(); filter(); });
  for (const input of form.querySelectorAll("input, select")) {
    input.addEventListener("input", filter);
    input.addEventListener("change", filter);
  }
  const rows = Array.from(document.querySelectorAll("#games tbody tr"));
  const count = document.getElementById("count");
  function filter() {
    const q = (form.elements.q.value || "").toLowerCase();
    const game = form.elements.game.value;
    const tournament = form.elements.tournament.value;
    const agent = form.elements.agent.value;
    const status = form.elements.status.value;
    let shown = 0;
    for (const tr of rows) {
      const d = tr.dataset;
      const agents = JSON.parse(d.agents);
      const ok = (!q || d.id.toLowerCase().startsWith(q) || agents.join(" ").toLowerCase().indexOf(q) >= 0) &&
        (!game || d.game === game) && (!tournament || d.tournament === tournament) &&
        (!agent || agents.indexOf(agent) >= 0) && (!status || d.status === status);
      tr.hidden = !ok;
      if (ok) shown++;
    }
    count.textContent = shown + " game" + (shown === 1 ? "" : "s");
  }
})();
