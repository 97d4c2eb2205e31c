"""A person's Cattle Trade seat in the browser: the page draws the seat's own hand and the
deal in progress from what the seat has seen, asks the decision's question beside it, and
keeps the whole prompt a model would get folded away."""

from __future__ import annotations

import html
import re
from pathlib import Path

from starlette.testclient import TestClient

from agents.human.agent import HumanAgent
from agents.human.mailbox import Mailbox
from cli.web.app import create_app
from events import catalog
from events.store import DuckStore
from runner.session import play_and_store


def test_cattle_seat_page_draws_the_seats_hand_and_asks_the_question(tmp_path: Path) -> None:
    gdef = catalog.get("cattle-trade")
    db = tmp_path / "c.duckdb"
    with DuckStore(db) as store:
        gid, _ = play_and_store(store, gdef.preset("micro-duel"), 1, ["random", "random"])
        events = store.load_events(gid)
    # The first bid asked of seat 0 after it won or paid something (its hand has changed).
    cut = next(
        i
        for i in range(3, len(events))
        if (d := gdef.rules.pending(gdef.rules.fold(events[:i]))) is not None
        and d.kind == "bid"
        and 0 in d.seats
    )
    prefix = events[:cut]
    decision = gdef.rules.pending(gdef.rules.fold(prefix))
    view = gdef.new_view(0).sync(prefix)
    seats = tmp_path / "seats"
    start = events[0]
    agent = HumanAgent(
        0, start.seed, start.config, spec="human", timeout=60, terminal=Mailbox(seats)
    )
    agent._show(view, decision, gdef.prompter.answer_schema(view, decision))
    (question,) = seats.glob("*.json")
    with TestClient(create_app(db, seats=seats), base_url="http://127.0.0.1") as client:
        page = client.get(f"/seats/{question.stem}").text
    drawn = page[page.index('id="seat-drawing"') : page.index('id="question"')]
    money = [int(m) for m in re.findall(r'aria-label="money card (\d+)"', drawn)]
    assert money == list(view.money) and money
    others = re.findall(r'<tr aria-label="Player (\d+): ', drawn)
    assert others == ["1"]
    auction = view.auction
    assert auction is not None
    assert f"Auction: a {auction.animal} " in drawn and f"price {view.price}," in drawn
    # The question is the decision's, without the situation the drawing shows, and without
    # the lines telling a model how to format its answer; the whole prompt is one click away.
    asked = html.unescape(page[page.index('id="question"') : page.index('id="prompt"')])
    assert "Current price" in asked and "YOUR HAND" not in asked
    assert "Respond" not in asked and '{"reasoning"' not in asked
    whole = html.unescape(page[page.index('id="prompt"') :])
    assert "YOUR HAND" in whole and "Current price" in whole
