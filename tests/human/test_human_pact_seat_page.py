"""PACT at a person's browser seat page: the bargaining so far drawn above the question, as
that party saw it (its own value or cost, never the other's)."""

from __future__ import annotations

import re
from typing import Any

import msgspec
from markupsafe import escape

from agents import make_agents
from agents.human.agent import seat_frame
from cli.web import draw
from events import catalog
from events.pact import game as pe
from runner.driver import Game

GAME = catalog.get("pact")


def played(seed: int) -> list[Any]:
    config = GAME.preset("quick")
    return list(Game(config, seed, make_agents(["random", "random"], seed, config)).run().events)


def page_drawing(log: list[Any], seat: int) -> str:
    """The drawing a person's seat page shows for `seat` after `log`."""
    view = GAME.new_view(seat).sync(log)
    drawn = draw.seat_drawing(GAME.name, seat_frame(GAME, seat, view))
    assert drawn is not None
    return str(drawn)


def _swapped(log: list[Any], seat: int) -> list[Any]:
    """`log` with the other party's value (and the engine's draw) moved by 37: a change only
    to events `seat` may not see."""
    out = []
    for e in log:
        if isinstance(e, pe.PactValueDealt) and e.seat != seat:
            e = msgspec.structs.replace(e, amount=e.amount + 37)
        elif isinstance(e, pe.PactValuesDrawn):
            e = msgspec.structs.replace(e, value=e.value + 37, cost=e.cost + 37)
        audience = e.audience()
        assert e is log[len(out)] or (audience is not None and seat not in audience)
        out.append(e)
    return out


def test_pact_seat_page_draws_the_talk_and_quotes_the_seat_saw() -> None:
    log = played(3)
    for seat in (0, 1):
        html = page_drawing(log, seat)
        (mine,) = [e.amount for e in log if isinstance(e, pe.PactValueDealt) and e.seat == seat]
        what = "value" if seat == 0 else "cost"
        assert f'<p class="value">{what} {mine}</p>' in html
        assert html.count("hidden") >= 1 and f"(seat {seat}) (you)" in html
        said = [e for e in log if isinstance(e, pe.PactMessageSent)]
        quotes = [e for e in log if isinstance(e, pe.PactQuotesRevealed)]
        assert said and quotes
        assert all(str(escape(e.text)) in html for e in said)
        rounds = re.findall(r'aria-label="round (\d+): bid (\d+), ask (\d+)', html)
        assert rounds == [(str(q.round), str(q.bid), str(q.ask)) for q in quotes]


def test_pact_seat_page_never_holds_the_other_party_value() -> None:
    log = played(4)
    for seat in (0, 1):
        other = _swapped(log, seat)
        for cut in range(2, len(log) + 1, 3):
            assert page_drawing(log[:cut], seat) == page_drawing(other[:cut], seat), (seat, cut)
        # The other seat's own page does change: the swap touched what it knows.
        assert page_drawing(log, 1 - seat) != page_drawing(other, 1 - seat)
