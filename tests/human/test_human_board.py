"""The terminal seat's drawing of a Cattle Trade view holds nothing another seat hides: it
stays the same, at every point of a game, when the money cards other seats keep private from
it (offers, payments between two others) are swapped for other values."""

from __future__ import annotations

from typing import Any

import msgspec
from rich.console import Console

from agents import make_agents
from agents.human.board import cattle
from engine.cattle.presets import load_preset
from projections.cattle.observation import SeatView
from runner.driver import Game


def _drawn(log: list[Any], seat: int) -> str:
    console = Console(width=120, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(cattle(SeatView(seat).sync(log)))
    return console.export_text()


def _swapped(log: list[Any], seat: int) -> list[Any]:
    """`log` with the card values of every event `seat` may not see changed."""
    out = []
    for e in log:
        audience = e.audience()
        if audience is not None and seat not in audience and hasattr(e, "cards"):
            e = msgspec.structs.replace(e, cards=tuple(c + 5 for c in e.cards))
        out.append(e)
    return out


def test_a_seat_drawing_never_changes_with_another_seat_hidden_cards() -> None:
    config = load_preset("standard")
    agents = ["random", "tracker", "random", "tracker"][: config.players]
    log = list(Game(config, 3, make_agents(agents, 3, config)).run().events)
    hidden = [e for e in log if e.audience() is not None and 0 not in e.audience()]
    assert any(hasattr(e, "cards") for e in hidden)  # the game has secrets to swap
    drawings = set()
    for end in range(10, len(log), max(1, len(log) // 25)):
        prefix = log[:end]
        drawn = _drawn(prefix, 0)
        assert drawn == _drawn(_swapped(prefix, 0), 0)
        view = SeatView(0).sync(prefix)
        assert f"Your money    {view.wealth} coins" in drawn
        drawings.add(drawn)
    assert len(drawings) > 10  # the drawing follows the game
