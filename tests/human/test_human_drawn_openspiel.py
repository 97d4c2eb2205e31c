"""OpenSpiel's boards at a person's terminal seat (`agents.human.drawn`): drawn from the
viewer's frame of the seat's own string, above the question; a poker seat's table never
shows the other seat's card."""

from __future__ import annotations

import asyncio
import io
import re
from typing import Any

import msgspec
from rich.console import Console

from agents import make_agents
from agents.human.agent import HumanAgent, Terminal, seat_frame
from agents.human.drawn import drawing
from events import catalog
from events.openspiel.game import ChanceSampled, MovePlayed, Observed
from runner.driver import Game

GAME = catalog.get("openspiel")


def scripted(preset: str, seed: int) -> tuple[str, list[Any]]:
    """A game with seat 0 played at a terminal that answers `1` to every question: what the
    terminal printed, and the log."""
    config = GAME.preset(preset)
    agents = make_agents(["random"] * 2, seed, config)
    out = io.StringIO()
    desk = Terminal(io.StringIO("1\n" * 9), Console(file=out, width=100))
    agents[0] = HumanAgent(0, seed, config, spec="human", timeout=60, terminal=desk)
    run = Game(config, seed, agents)
    asyncio.run(run.run_async())
    return out.getvalue(), list(run.log)


def test_tic_tac_toe_terminal_grid_is_the_board_before_each_move() -> None:
    text, log = scripted("tic_tac_toe", 5)
    # Each panel's grid: the three lines under the column names.
    lines = [line.strip("│ ").rstrip("│ ") for line in text.splitlines()]
    grids = [
        [lines[i + k][2:].split() for k in (1, 2, 3)]
        for i, line in enumerate(lines)
        if line == "0 1 2" and lines[i - 1] == "Tic-tac-toe board"
    ]
    want, board = [], [["."] * 3 for _ in range(3)]
    for e in log:
        if isinstance(e, MovePlayed):
            if e.player == 0:
                want.append([row[:] for row in board])
            board[e.action // 3][e.action % 3] = "xo"[e.player]
    assert len(want) >= 3 and grids == want
    # The question follows the drawing in the same panel.
    assert text.index("Tic-tac-toe board") < text.index("LEGAL ACTIONS")


def shown(log: list[Any], seat: int) -> str:
    """The terminal drawing of `seat`'s view after `log`, as plain text."""
    view = GAME.new_view(seat).sync(log)
    drawn = drawing(seat_frame(GAME, seat, view))
    assert drawn is not None
    console = Console(width=100, record=True, file=io.StringIO())
    console.print(drawn)
    return console.export_text()


def _swapped(log: list[Any]) -> list[Any]:
    """`log` with seat 1's Kuhn card dealt as the card nobody holds, and its strings to match:
    a change only to events seat 0 may not see."""
    deals = [e for e in log if isinstance(e, ChanceSampled)]
    mine, theirs = deals[0].action, deals[1].action
    other = 3 - mine - theirs
    out = []
    for e in log:
        if isinstance(e, ChanceSampled) and e.seen_by == (1,):
            e = msgspec.structs.replace(e, action=other)
        elif isinstance(e, Observed) and e.seat == 1:
            e = msgspec.structs.replace(e, text=str(other) + e.text[1:])
        audience = e.audience()
        assert e is log[len(out)] or (audience is not None and 0 not in audience)
        out.append(e)
    return out


def test_kuhn_poker_terminal_table_never_shows_the_other_card() -> None:
    text, log = scripted("kuhn_poker", 4)
    assert "Kuhn poker table" in text and text.index("Your cards") < text.index("LEGAL ACTIONS")
    other = _swapped(log)
    names = "JQK"
    for cut in range(3, len(log) + 1):
        if not any(isinstance(e, Observed) and e.seat == 0 for e in log[:cut]):
            continue
        mine = shown(log[:cut], 0)
        assert mine == shown(other[:cut], 0)
        card = names[next(e for e in log if isinstance(e, ChanceSampled)).action]
        assert re.search(rf"Your cards\s+│ {card}\s+│", mine), mine
    # The swap is seen where it may be: seat 1's own table.
    assert shown(log, 1) != shown(other, 1)


def test_every_board_the_viewer_reads_is_drawn_at_the_terminal() -> None:
    from agents.human.drawn import DRAWN
    from projections.openspiel.board import READERS

    assert set(READERS) <= set(DRAWN)
