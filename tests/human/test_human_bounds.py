"""A person's hostile lines: nested without end, or megabytes long, at the terminal (real
`cattle play` subprocesses) and through the browser's answer files. Each is refused with a
reason, kept only in part, and the game goes on and verifies."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from agents import make_agents
from agents.human.agent import MAX_LINE, HumanAgent, Terminal
from agents.human.mailbox import Mailbox, answer_line, post_answer, waiting
from events import catalog
from projections.timeline import timeline
from runner.driver import Game
from tests.human.test_human_cli import play, replays, stored, tags, verified

DEEP_LINE = '{"action":' + "[" * 2000 + "]" * 2000 + "}"
"""A line within the length bound, nested twice as deep as Python's decoders go."""


@pytest.mark.parametrize(
    ("game", "preset"),
    [
        ("gamebench:santorini", "standard"),
        ("gamebench:hive", "short"),
        ("openspiel", "tic_tac_toe"),
    ],
)
def test_a_deeply_nested_line_is_refused_and_the_game_goes_on(
    tmp_path: Path, game: str, preset: str
) -> None:
    db = tmp_path / "g.duckdb"
    done = play(db, game, preset, "human,random", 3, DEEP_LINE + "\n")
    assert len(DEEP_LINE) <= MAX_LINE
    assert "RecursionError" not in done.stderr
    assert done.returncode == 4, done.stderr[-2000:]  # the seat left at the end of input
    assert "Refused: the answer cannot be read: its JSON is nested more than" in done.stderr
    game_id, events = stored(db)
    (answer,) = [e for e in events if tags([e]) == ["human_answer"]]
    assert answer.text == DEEP_LINE and answer.parse_stage == "failed"
    assert tags(events)[-1] == "game_ended"
    replays(events)
    verified(db, game_id)


def test_a_two_megabyte_line_is_kept_in_part_and_echoed_in_brief(tmp_path: Path) -> None:
    db = tmp_path / "g.duckdb"
    huge = "x(1,1) " * 300_000  # 2.1 MB naming a legal move many times
    done = play(db, "openspiel", "tic_tac_toe", "human,random", 3, huge + "\n" + "1\n" * 9)
    assert done.returncode == 0, done.stderr[-2000:]
    assert f"Refused: the line is {len(huge):,} characters long" in done.stderr
    assert len(done.stderr) < 20_000  # the panels and a short excerpt, not the line
    game_id, events = stored(db)
    first, second = [e for e in events if tags([e]) == ["human_answer"]][:2]
    assert first.text == huge[:MAX_LINE] and first.parse_stage == "failed"
    assert first.error is not None and f"{len(huge):,} characters" in first.error
    assert len(first.error) < 200
    assert second.stage == "retry" and second.error is None  # the next line was read whole
    verified(db, game_id)


async def _answer_by_browser(root: Path, forms: list[dict[str, str]]) -> None:
    """Answer the question waiting in `root` with each form in turn, as `cattle serve` does
    (the form's line written as the question's answer file), each once the seat took the
    one before."""
    while not waiting(root):
        await asyncio.sleep(0.02)
    (q,) = waiting(root)
    for form in forms:
        assert post_answer(root, q["token"], answer_line(q["schema"], form))
        while (root / f"{q['token']}.answer").exists():
            await asyncio.sleep(0.02)


def test_browser_forms_nested_deep_or_48_kb_long_are_refused(tmp_path: Path) -> None:
    game = catalog.get("gamebench:santorini")
    config = game.preset("standard")
    run = Game(config, 1, make_agents(["random"] * config.players, 1, config))
    run._start()
    decision = run.rules.pending(run.state)
    seat = decision.seats[0]
    box = Mailbox(tmp_path / "seats")
    agent = HumanAgent(seat, 1, config, spec="human", timeout=60, terminal=box)
    forms = [{"line": DEEP_LINE}, {"line": "[" * 24_000 + "]" * 24_000}, {"line": "1"}]

    async def both() -> Any:
        answering = asyncio.create_task(_answer_by_browser(box.root, forms))
        action = await agent.aact(run.view(seat), decision)
        await answering
        return action

    action = asyncio.run(both())
    assert action is not None
    answers = [e for e in agent.drain() if tags([e]) == ["human_answer"]]
    assert [a.parse_stage for a in answers] == ["failed", "failed", answers[2].parse_stage]
    assert answers[0].error is not None and "nested more than" in answers[0].error
    assert answers[1].error is not None and "48,000 characters long" in answers[1].error
    assert len(answers[1].text) == MAX_LINE
    assert answers[2].error is None


def test_the_timeline_names_a_person_as_the_game_does() -> None:
    """Pit numbers its players as the harness does (seat 0 is Player 0) in every line: the
    game's own lines and those of a person's answers and defaults."""
    game = catalog.get("gamebench:pit")
    config = game.preset("quick")
    agents = make_agents(["random"] * config.players, 2, config)
    lines = io.StringIO("1\n" * 3)  # three answers, then the person leaves (end of input)
    desk = Terminal(lines, Console(file=io.StringIO()))
    agents[0] = HumanAgent(0, 2, config, spec="human", timeout=60, terminal=desk)
    run = Game(config, 2, agents)
    asyncio.run(run.run_async())
    text = [line for _, _, line in timeline(run.log)]
    person = [t for t in text if "[human]" in t or "left the game" in t or "defaulted" in t]
    assert person and all("Player 0" in t for t in person), person
    assert any("Player 0 is dealt" in t for t in text), text[:5]
    # No line counts from 1: no seat is named past the last one.
    assert not [t for t in text if f"Player {config.players}" in t]
