"""PACT at a person's terminal seat (`agents.human.drawn`): the bargaining drawn above the
question as that party saw it (its own value or cost, the conversation round by round with
the sealed quotes), and never the other party's number."""

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
from events.pact import game as pe
from runner.driver import Game

GAME = catalog.get("pact")


def scripted(seat: int, seed: int) -> tuple[str, list[Any]]:
    """A quick game with `seat` played at a terminal (a message, then a quote of 50, each
    round) against `truthful`: what the terminal printed, and the log."""
    config = GAME.preset("quick")
    agents = make_agents(["truthful", "truthful"], seed, config)
    out = io.StringIO()
    lines = "".join(f"round talk {i}\n50\n" for i in range(20))
    desk = Terminal(io.StringIO(lines), Console(file=out, width=120))
    agents[seat] = HumanAgent(seat, seed, config, spec="human", timeout=60, terminal=desk)
    run = Game(config, seed, agents)
    asyncio.run(run.run_async())
    return out.getvalue(), list(run.log)


def panels(text: str) -> list[str]:
    """The inside of each question panel the terminal drew."""
    out, inside = [], None
    for line in text.splitlines():
        if line.startswith("╭") and "(human)" in line:
            inside = []
        elif line.startswith("╰") and inside is not None:
            out.append("\n".join(inside))
            inside = None
        elif inside is not None:
            inside.append(line.strip("│").strip())
    return out


def test_each_party_sees_its_number_the_talk_and_the_quotes() -> None:
    for seat in (0, 1):
        text, log = scripted(seat, 3)
        shown = panels(text)
        assert len(shown) == 10  # a message and a quote in each of the five rounds
        (mine,) = [e for e in log if isinstance(e, pe.PactValueDealt) and e.seat == seat]
        role, what = ("buyer", "value") if seat == 0 else ("seller", "cost")
        other = ("seller (seat 1)", "cost") if seat == 0 else ("buyer (seat 0)", "value")
        for panel in shown:
            assert re.search(
                rf"│ {role} \(seat {seat}\) \(you\)\s+│ {what} {mine.amount}\s+│", panel
            )
            assert re.search(rf"│ {re.escape(other[0])}\s+│ {other[1]} hidden\s+│ -", panel)
            # The question follows the drawing; the format a model must answer in does not.
            assert panel.index("The bargaining") < panel.index("YOUR ")
        assert "Respond with" not in "\n".join(shown)
        # The last panel: every message so far in order, each quote with its outcome.
        last = shown[-1]
        said = [e for e in log if isinstance(e, pe.PactMessageSent)]
        quotes = [e for e in log if isinstance(e, pe.PactQuotesRevealed)]
        lines = [
            line
            for line in last.splitlines()
            if re.match(r"(you|buyer \(seat 0\)|seller \(seat 1\)): ", line)
        ]
        assert [ln.split(": ", 1)[1] for ln in lines] == [e.text for e in said][-len(lines) :]
        assert all(
            ln.startswith("you: ") == (e.seat == seat)
            for ln, e in zip(lines, said[-len(lines) :], strict=True)
        )
        rows = re.findall(r"│ (\d) +│ (\d+) +│ (\d+) +│ (accepted|declined)", last)
        assert rows == [
            (str(q.round), str(q.bid), str(q.ask), "accepted" if q.traded else "declined")
            for q in quotes[: len(rows)]
        ]
        assert len(rows) == 4  # the fifth round's quote is the last answer


def shown(log: list[Any], seat: int) -> str:
    """The terminal drawing of `seat`'s view after `log`, as plain text."""
    view = GAME.new_view(seat).sync(log)
    drawn = drawing(seat_frame(GAME, seat, view))
    assert drawn is not None
    console = Console(width=120, record=True, file=io.StringIO())
    console.print(drawn)
    return console.export_text()


def _swapped(log: list[Any], seat: int) -> list[Any]:
    """`log` with the other party's number (and the engine's draw) moved by 37: a change only
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


def test_a_partys_terminal_never_shows_the_other_partys_number() -> None:
    config = GAME.preset("quick")
    log = list(Game(config, 4, make_agents(["random", "random"], 4, config)).run().events)
    for seat in (0, 1):
        other = _swapped(log, seat)
        seen = set()
        for cut in range(2, len(log) + 1):
            mine = shown(log[:cut], seat)
            assert mine == shown(other[:cut], seat), (seat, cut)
            seen.add(mine)
        assert len(seen) > 5  # the drawing follows the game
        # The other party's own terminal does change: the swap touched what it knows.
        assert shown(log, 1 - seat) != shown(other, 1 - seat)
