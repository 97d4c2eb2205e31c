// The replay viewer: steps through the events embedded in the page and draws the table.
// Every string from the log (agent names, model prompts and answers, chat) is put into the
// page as text (textContent), never as markup.
"use strict";

(function () {
  const data = JSON.parse(document.getElementById("game-data").textContent);
  const events = data.events;
  const n = events.length;
  const tableEl = document.getElementById("table");
  const timelineEl = document.getElementById("timeline");
  const decisionEl = document.getElementById("decision");
  const scrub = document.getElementById("scrub");
  const positionEl = document.getElementById("position");
  const playBtn = document.getElementById("btn-play");
  let pos = 0;
  let timer = null;
  let rows = [];
  let openDecision = -1;

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  function seatName(i) {
    const agents = data.game.agents;
    return "Seat " + i + (agents && i >= 0 && i < agents.length && agents[i] ? " (" + agents[i] + ")" : "");
  }

  // ---- timeline ------------------------------------------------------------------------------

  function buildTimeline() {
    const frag = document.createDocumentFragment();
    rows = new Array(n);
    for (let i = 0; i < n; i++) {
      const ev = events[i];
      const li = el("li", "ev ev-" + ev.type);
      li.dataset.pos = String(i);
      li.appendChild(el("span", "seq", "#" + ev.seq));
      let text = ev.text;
      if (ev.type === "llm_call") {
        const f = ev.fields;
        li.classList.add("llm");
        text = "model " + seatName(f.seat) + ": " + f.decision + " (" + f.stage +
          (f.attempt > 1 ? " try " + f.attempt : "") + ", read: " + (f.parse_stage || "-") + ")";
      }
      li.appendChild(el("span", "text", text));
      frag.appendChild(li);
      rows[i] = li;
    }
    timelineEl.appendChild(frag);
    timelineEl.addEventListener("click", function (e) {
      const li = e.target.closest("li.ev");
      if (!li) return;
      const i = Number(li.dataset.pos);
      go(i);
      if (events[i].type === "llm_call") showDecision(i);
    });
  }

  // ---- the table -------------------------------------------------------------------------------

  function chip(text, cls) {
    return el("span", "chip" + (cls ? " " + cls : ""), text);
  }

  function drawCattle(f) {
    const wrap = el("div", "cattle");
    const status = el("div", "status");
    status.appendChild(el("span", "turn", "Turn " + f.turn));
    if (f.active >= 0) status.appendChild(el("span", "active", "to play: " + seatName(f.active)));
    status.appendChild(el("span", "deck", "deck: " + f.deck_left + " cards"));
    if (f.drawn) status.appendChild(el("span", "drawn", "drawn: " + f.drawn));
    if (f.ended) status.appendChild(el("span", "ended", "game over"));
    wrap.appendChild(status);
    if (f.auction) {
      const a = f.auction;
      const box = el("div", "box auction");
      box.appendChild(el("h3", null, "Auction: " + a.animal + " (value " + ((data.meta.values || {})[a.animal] || "?") + ")"));
      box.appendChild(el("p", null, "auctioneer " + seatName(a.auctioneer)));
      box.appendChild(el("p", "price", "price " + a.price + (a.leader !== null && a.leader !== undefined ? ", leader " + seatName(a.leader) : ", no bid yet")));
      if (a.bidders) box.appendChild(el("p", null, "bidding: " + a.bidders.map(seatName).join(", ")));
      wrap.appendChild(box);
    }
    if (f.trade) {
      const t = f.trade;
      const box = el("div", "box trade");
      box.appendChild(el("h3", null, "Trade: " + t.animal));
      box.appendChild(el("p", null, seatName(t.initiator) + " challenges " + seatName(t.target)));
      box.appendChild(el("p", null, "offer: " + t.offer + " card" + (t.offer === 1 ? "" : "s") +
        (t.offer_money ? " [" + t.offer_money.join(", ") + "]" : "")));
      if (t.counter || t.counter_money) {
        box.appendChild(el("p", null, "counter: " + t.counter + " card" + (t.counter === 1 ? "" : "s") +
          (t.counter_money ? " [" + t.counter_money.join(", ") + "]" : "")));
      }
      if (t.ties) box.appendChild(el("p", null, "ties so far: " + t.ties));
      wrap.appendChild(box);
    }
    const seats = el("div", "seats");
    for (const s of f.seats) {
      const card = el("div", "seat" + (s.seat === f.active ? " is-active" : "") +
        (data.viewer === s.seat ? " is-me" : ""));
      card.dataset.seat = String(s.seat);
      card.appendChild(el("h3", null, seatName(s.seat) + (data.viewer === s.seat ? " (you)" : "")));
      const animals = el("div", "animals");
      const names = Object.keys(s.animals);
      if (!names.length) animals.appendChild(el("span", "none", "no animals"));
      for (const a of names) animals.appendChild(chip(a + " ×" + s.animals[a], s.sets.indexOf(a) >= 0 ? "set" : ""));
      card.appendChild(animals);
      if (s.sets.length) card.appendChild(el("p", "sets", "sets: " + s.sets.join(", ")));
      const money = el("p", "money");
      money.appendChild(el("span", "count", s.cards + " money card" + (s.cards === 1 ? "" : "s")));
      if (s.money) {
        money.appendChild(el("span", "values", ": " + (s.money.length ? s.money.join(", ") : "none") +
          " (total " + s.money.reduce(function (x, y) { return x + y; }, 0) + ")"));
      } else {
        money.appendChild(el("span", "hidden-values", " (values hidden)"));
      }
      card.appendChild(money);
      if (s.revealed) card.appendChild(el("p", "revealed", "shown at an overbid: " + s.revealed.join(", ")));
      if (f.scores) card.appendChild(el("p", "score", "score " + f.scores[s.seat]));
      seats.appendChild(card);
    }
    wrap.appendChild(seats);
    if (f.notes) {
      const box = el("div", "box notes");
      box.appendChild(el("h3", null, "Your scratchpad"));
      box.appendChild(el("pre", null, f.notes));
      wrap.appendChild(box);
    }
    return wrap;
  }

  function drawPact(f) {
    const wrap = el("div", "pact");
    const status = el("div", "status");
    status.appendChild(el("span", "turn", "Round " + f.round));
    if (f.ended) status.appendChild(el("span", "ended", "game over"));
    wrap.appendChild(status);
    const seats = el("div", "seats");
    for (const s of f.seats) {
      const card = el("div", "seat" + (data.viewer === s.seat ? " is-me" : ""));
      card.dataset.seat = String(s.seat);
      card.appendChild(el("h3", null, seatName(s.seat) + ": " + s.role));
      card.appendChild(el("p", "value", (s.role === "buyer" ? "value " : "cost ") +
        (s.value === null || s.value === undefined ? "hidden" : s.value)));
      if (s.value !== null && s.value !== undefined) card.appendChild(el("p", "profit", "profit so far " + s.profit));
      if (f.scores) card.appendChild(el("p", "score", "score " + f.scores[s.seat]));
      seats.appendChild(card);
    }
    wrap.appendChild(seats);
    const cols = el("div", "pact-cols");
    const chat = el("div", "box chat");
    chat.appendChild(el("h3", null, "Chat"));
    const msgs = data.logs.messages.slice(0, f.messages);
    if (!msgs.length) chat.appendChild(el("p", "none", "no message yet"));
    for (const m of msgs) {
      const line = el("div", "msg seat-" + m[1]);
      line.appendChild(el("span", "who", "r" + m[0] + " " + seatName(m[1]) + ": "));
      line.appendChild(el("span", "said", m[2] + (m[3] ? " [cut]" : "")));
      chat.appendChild(line);
    }
    cols.appendChild(chat);
    const ladder = el("div", "box ladder");
    ladder.appendChild(el("h3", null, "Quote ladder"));
    const table = el("table", "quotes");
    const head = el("tr");
    for (const h of ["round", "bid", "ask", "", "price"]) head.appendChild(el("th", null, h));
    table.appendChild(head);
    const rowsL = data.logs.ladder.slice(0, f.ladder);
    for (const r of rowsL) {
      const tr = el("tr", r[3] ? "traded" : "");
      tr.appendChild(el("td", "num", r[0]));
      tr.appendChild(el("td", "num", r[1]));
      tr.appendChild(el("td", "num", r[2]));
      const bar = el("td", "bar");
      const lo = Math.min(r[1], r[2]), hi = Math.max(r[1], r[2]);
      const span = el("span", r[1] >= r[2] ? "gap cross" : "gap");
      span.style.marginLeft = lo + "%";
      span.style.width = Math.max(1, hi - lo) + "%";
      bar.appendChild(span);
      tr.appendChild(bar);
      tr.appendChild(el("td", "num", r[3] ? r[4] : "no trade"));
      table.appendChild(tr);
    }
    ladder.appendChild(table);
    cols.appendChild(ladder);
    wrap.appendChild(cols);
    return wrap;
  }

  function drawText(f) {
    const box = el("div", "box state-text");
    box.appendChild(el("h3", null, "State"));
    box.appendChild(el("pre", null, f.text));
    return box;
  }

  function drawTable() {
    tableEl.textContent = "";
    if (!n) {
      tableEl.appendChild(el("p", "none", "This view holds no event."));
      return;
    }
    const f = data.frames[data.index[pos]];
    // A drawing the server made for this frame (its strings escaped there) is shown as a
    // copy of its hidden original in the page; nothing is parsed as markup here.
    const drawn = document.querySelector('#drawings > [data-frame="' + data.index[pos] + '"]');
    let node;
    if (drawn && drawn.firstElementChild) node = drawn.firstElementChild.cloneNode(true);
    else if (f.kind === "cattle") node = drawCattle(f);
    else if (f.kind === "pact") node = drawPact(f);
    else node = drawText(f);
    tableEl.appendChild(node);
    // A conversation opens at its latest message: the one of the position shown.
    for (const chat of tableEl.querySelectorAll(".chat, .chat-log")) chat.scrollTop = chat.scrollHeight;
  }

  // ---- model decisions ---------------------------------------------------------------------

  function sameDecision(a, b) {
    return a.type === "llm_call" && b.type === "llm_call" && a.fields.seat === b.fields.seat &&
      a.fields.decision === b.fields.decision;
  }

  function kv(dl, k, v) {
    if (v === null || v === undefined || v === "") return;
    dl.appendChild(el("dt", null, k));
    dl.appendChild(el("dd", null, v));
  }

  function showDecision(i) {
    const first = events[i];
    if (first.type !== "llm_call") return;
    let lo = i, hi = i;
    while (lo > 0 && sameDecision(events[lo - 1], first)) lo--;
    while (hi + 1 < n && sameDecision(events[hi + 1], first)) hi++;
    decisionEl.textContent = "";
    const head = el("div", "decision-head");
    head.appendChild(el("h2", null, "Model decision: " + seatName(first.fields.seat) + ", " + first.fields.decision));
    const close = el("button", "close", "close");
    close.type = "button";
    close.id = "decision-close";
    close.addEventListener("click", hideDecision);
    head.appendChild(close);
    decisionEl.appendChild(head);
    const calls = events.slice(lo, hi + 1);
    decisionEl.appendChild(el("p", "summary", calls.length + " call" + (calls.length === 1 ? "" : "s") +
      " (" + calls.map(function (c) { return c.fields.stage + (c.fields.attempt > 1 ? " try " + c.fields.attempt : ""); }).join(", ") + ")"));
    for (let j = hi + 1; j < n && j < hi + 6; j++) {
      const e = events[j];
      if ((e.type === "action_defaulted" || e.type === "fallback_applied" || e.type === "action_rejected") &&
          e.fields.seat === first.fields.seat) {
        decisionEl.appendChild(el("p", "fallback", e.text));
      }
    }
    for (const c of calls) {
      const f = c.fields;
      const x = c.llm || {};
      const box = el("details", "call" + (c === first ? " current" : ""));
      box.open = c === first || calls.length === 1;
      box.appendChild(el("summary", null, "#" + c.seq + " " + f.stage + " try " + f.attempt + ": " +
        f.provider + "/" + f.model + (f.error ? " (error: " + f.error + ")" : "")));
      const dl = el("dl", "facts");
      kv(dl, "read as", f.parse_stage || "-");
      kv(dl, "parse error", f.parse_error);
      kv(dl, "finish", f.finish_reason);
      kv(dl, "tokens", f.input_tokens + " in, " + f.output_tokens + " out" +
        (f.reasoning_tokens ? ", " + f.reasoning_tokens + " reasoning" : ""));
      kv(dl, "latency", Math.round(f.latency_ms) + " ms");
      kv(dl, "cost", x.cost === null || x.cost === undefined ? "no price known" : "$" + x.cost.toFixed(6));
      kv(dl, "status", f.status);
      kv(dl, "temperature", f.temperature);
      kv(dl, "reasoning effort", f.reasoning_effort);
      box.appendChild(dl);
      if (x.reasoning) {
        box.appendChild(el("h4", null, "Reasoning"));
        box.appendChild(el("pre", "reasoning", x.reasoning));
      }
      box.appendChild(el("h4", null, "Answer"));
      box.appendChild(el("pre", "response", f.response || "(no answer)"));
      box.appendChild(el("h4", null, "Prompt"));
      for (const m of f.messages || []) {
        const msg = el("div", "message role-" + m.role);
        msg.appendChild(el("span", "role", m.role));
        msg.appendChild(el("pre", null, m.content));
        box.appendChild(msg);
      }
      box.appendChild(el("h4", null, "Scratchpad as it stood"));
      box.appendChild(el("pre", "scratchpad", x.scratchpad || "(empty)"));
      decisionEl.appendChild(box);
    }
    decisionEl.hidden = false;
    openDecision = lo;
  }

  function hideDecision() {
    decisionEl.hidden = true;
    decisionEl.textContent = "";
    openDecision = -1;
  }

  // ---- moving --------------------------------------------------------------------------------

  function setUrl() {
    if (!n) return;
    const seq = String(events[pos].seq);
    try {
      const url = new URL(window.location.href);
      if (url.protocol === "file:") {
        url.hash = "at=" + seq;
      } else {
        url.searchParams.set("at", seq);
      }
      window.history.replaceState(null, "", url.toString());
    } catch (err) {
      // A page opened from disk may refuse a changed address: the position is then not kept.
    }
  }

  function go(i) {
    if (!n) return;
    i = Math.max(0, Math.min(n - 1, i));
    if (rows[pos]) rows[pos].classList.remove("current");
    pos = i;
    rows[pos].classList.add("current");
    rows[pos].scrollIntoView({ block: "nearest" });
    scrub.value = String(pos);
    positionEl.textContent = "event " + (pos + 1) + " of " + n + " (#" + events[pos].seq + ", turn " + events[pos].turn + ")";
    drawTable();
    if (openDecision >= 0 && events[pos].type !== "llm_call") hideDecision();
    setUrl();
  }

  function play() {
    if (timer !== null) {
      window.clearInterval(timer);
      timer = null;
      playBtn.textContent = "play";
      playBtn.classList.remove("playing");
      return;
    }
    if (pos >= n - 1) go(0);
    playBtn.textContent = "pause";
    playBtn.classList.add("playing");
    timer = window.setInterval(function () {
      if (pos >= n - 1) { play(); return; }
      go(pos + 1);
    }, 350);
  }

  function startAt() {
    let at = data.at;
    const hash = window.location.hash.match(/at=(\d+)/);
    if ((at === undefined || at === null || at < 0) && hash) at = Number(hash[1]);
    if (at === undefined || at === null || at < 0) return 0;
    let found = 0;
    for (let i = 0; i < n; i++) {
      if (events[i].seq <= at) found = i; else break;
    }
    return found;
  }

  document.getElementById("btn-first").addEventListener("click", function () { go(0); });
  document.getElementById("btn-prev").addEventListener("click", function () { go(pos - 1); });
  document.getElementById("btn-next").addEventListener("click", function () { go(pos + 1); });
  document.getElementById("btn-last").addEventListener("click", function () { go(n - 1); });
  playBtn.addEventListener("click", play);
  scrub.addEventListener("input", function () { go(Number(scrub.value)); });
  document.addEventListener("keydown", function (e) {
    const tag = e.target && e.target.tagName;
    if (tag === "INPUT" && e.target !== scrub) return;
    if (tag === "TEXTAREA" || tag === "SELECT") return;
    let handled = true;
    if (e.key === "ArrowRight") go(pos + 1);
    else if (e.key === "ArrowLeft") go(pos - 1);
    else if (e.key === "Home") go(0);
    else if (e.key === "End") go(n - 1);
    else if (e.key === " " || e.key === "Spacebar") play();
    else if (e.key === "Escape") hideDecision();
    else handled = false;
    if (handled) e.preventDefault();
  });

  scrub.max = String(Math.max(0, n - 1));
  buildTimeline();
  if (n) {
    pos = startAt();
    go(pos);
  } else {
    drawTable();
    positionEl.textContent = "no event";
  }
  // Ready once the first table has been drawn on screen (tests and the benchmark wait for it).
  window.requestAnimationFrame(function () {
    window.setTimeout(function () {
      document.body.dataset.readyAt = String(performance.now());
      document.body.dataset.ready = "yes";
    }, 0);
  });
})();
