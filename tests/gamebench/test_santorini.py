"""Santorini (GameBench): a golden playthrough, the rules' refusals and explanations,
invariants of any legal play (hypothesis), answers read from model text, and the SQL view."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from syrupy.assertion import SnapshotAssertion

from engine.gamebench.common import Explain
from engine.gamebench.santorini import (
    HEADINGS,
    RULES,
    Place,
    Play,
    SantoriniState,
    legal_actions,
)
from events import catalog
from events.codec import encode
from events.config import SeatSpec
from events.gamebench.santorini import (
    PAWNS,
    SIZE,
    TOP,
    SantoriniConfig,
    SantoriniEnded,
    SantoriniPlaced,
    SantoriniPlayed,
    SantoriniRejected,
    SantoriniRuleExplained,
)
from events.store import DuckStore
from projections.gamebench.santorini import SantoriniPrompter, SantoriniView
from runner.replay import verify
from runner.session import play_and_store

GAME = catalog.get("gamebench:santorini")
CONFIG = SantoriniConfig()
# Scripted logs: the seats are named random, but the moves are the script's, so replays
# answer them from the log (`rerun=False`) instead of playing the random agent again.
SEATS = [SeatSpec(agent="random"), SeatSpec(agent="random")]


def run(actions: list[Any], seed: int = 0) -> tuple[SantoriniState, list[Any]]:
    """Feed actions to the rules, one per decision; the state and the whole log."""
    state, log = RULES.start(CONFIG, seed, SEATS)
    for a in actions:
        d = RULES.pending(state)
        assert d is not None, "the game ended before the actions did"
        state, events = RULES.step(state, d, [a])
        log.extend(events)
    return state, log


def P(r: int, c: int, br: int, bc: int) -> Play:
    return Play(row=r, col=c, build_row=br, build_col=bc)


# A short game written by hand: A and B (player 1) build a staircase; player 2 tops one step
# to level 3 next to B on level 2, and B climbs it.
GOLDEN: list[Any] = [
    Place(row=2, col=2),
    Place(row=3, col=0),
    Place(row=2, col=1),
    Place(row=4, col=2),
    P(3, 3, 2, 3),  # A
    P(4, 1, 3, 1),  # X
    P(3, 1, 2, 2),  # B climbs to level 1
    P(3, 2, 2, 2),  # Y builds (2, 2) to level 2
    P(2, 3, 1, 3),  # A to level 1
    P(3, 0, 4, 0),  # X
    P(2, 2, 1, 3),  # B to level 2
    P(4, 1, 3, 1),  # Y builds (3, 1) to level 2
    P(1, 3, 2, 4),  # A to level 2
    P(2, 1, 3, 1),  # X builds (3, 1) to level 3: a mistake
    P(3, 1, 3, 0),  # B climbs onto level 3 and wins; its build is not made
]


def test_golden_playthrough() -> None:
    state, log = run(GOLDEN)
    placed = [(e.pawn, e.row, e.col) for e in log if isinstance(e, SantoriniPlaced)]
    assert placed == [("A", 2, 2), ("X", 3, 0), ("B", 2, 1), ("Y", 4, 2)]
    played = [e for e in log if isinstance(e, SantoriniPlayed)]
    assert [e.pawn for e in played] == ["A", "X", "B", "Y"] * 2 + ["A", "X", "B"]
    assert [e.level for e in played] == [0, 0, 1, 0, 1, 0, 2, 0, 2, 0, 3]
    assert [e.height for e in played] == [1, 1, 1, 2, 1, 1, 2, 2, 1, 3, None]
    assert log[-1] == SantoriniEnded(
        reason="level3", winner=0, plies=15, scores=(1.0, 0.0), ranks=(1, 2)
    )
    assert RULES.pending(state) is None
    view = SantoriniView(1).sync(log)
    assert view.board() == (
        "0. 0. 0. 0. 0.\n0. 0. 0. 2A 0.\n0. 0X 2. 1. 1.\n0. 3B 0. 0. 0.\n1. 0Y 0. 0. 0."
    )
    assert GAME.describe(played[-1], None) == (
        "Player 0 moved pawn B from (2, 2) to (3, 1) at level 3"
    )
    assert verify(log, rerun=False).ok
    folded = RULES.fold(log)
    assert (folded.heights, folded.pos, folded.winner) == (state.heights, state.pos, 0)
    data = json.loads(json.dumps(GAME.extras["state_data"](folded)))  # what `cattle replay` prints
    assert data["pawns"]["B"] == [3, 1] and data["heights"][3] == [0, 3, 0, 0, 0]


def test_a_pawn_with_no_move_and_build_loses_its_owner() -> None:
    # Box X in a corner with domes: player 2 has no play for X and loses at once.
    state, _ = run(GOLDEN[:4])
    state.pos = [12, 0, 13, 24]  # A (2,2), X (0,0), B (2,3), Y (4,4)
    for cell in (1, 5, 6):
        state.heights[cell] = TOP
    d = RULES.pending(state)
    assert d is not None and d.pawn == "A"
    state, events = RULES.step(state, d, [d.legal[0]])
    assert isinstance(events[-1], SantoriniEnded)
    assert (events[-1].reason, events[-1].winner) == ("no_move", 0)


def test_explain_then_the_same_decision_again() -> None:
    state, log = run([Explain(heading=" moving ")])
    assert log[-1] == SantoriniRuleExplained(seat=0, heading="Moving")
    assert log[-1].audience() == (0,)
    d = RULES.pending(state)
    assert d is not None and d.ply == 0 and d.kind == "place"
    state, events = RULES.step(state, d, [Explain(heading="Moving")])
    assert len(events) == 1 and isinstance(events[0], SantoriniRejected)
    assert "already explained" in events[0].reason and events[0].explain
    d = RULES.pending(state)
    assert d is not None and d.ply == 0  # asked again: a refused request uses one request
    for heading in ("Nowhere", "Building"):
        state, events = RULES.step(state, d, [Explain(heading=heading)])
    assert isinstance(events[0], SantoriniRuleExplained)  # the fourth of four requests
    state, events = RULES.step(state, d, [Explain(heading="Winning and losing")])
    assert "no explanation requests left" in events[0].reason
    assert isinstance(events[1], SantoriniPlaced)  # none left: the seeded fallback


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        (Place(row=9, col=9), "not a legal action here"),
        ("north", "not an action"),
    ],
)
def test_unusable_answers_are_recorded_and_replaced(action: Any, reason: str) -> None:
    _, log = run([action], seed=5)
    rejected = [e for e in log if isinstance(e, SantoriniRejected)]
    assert [e.reason for e in rejected] == [reason]
    assert isinstance(log[-1], SantoriniPlaced)
    _, log2 = run([action], seed=5)
    assert [encode(e) for e in log] == [encode(e) for e in log2]
    assert verify(log, rerun=False, prefix=True).ok


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**63 - 1),
    picks=st.one_of(
        st.lists(st.integers(0, 10**6), max_size=120),
        st.integers(0, 2**32).map(
            lambda k: [random.Random(k).randrange(10**6) for _ in range(120)]
        ),
    ),
)
def test_any_legal_play_keeps_the_invariants(seed: int, picks: list[int]) -> None:
    """Short prefixes from hypothesis, and whole games (120 picks outlast any game)."""
    state, log = RULES.start(CONFIG, seed, SEATS)
    views = [SantoriniView(0), SantoriniView(1)]
    builds = 0
    for pick in picks:
        d = RULES.pending(state)
        if d is None:
            break
        before = list(state.heights)
        here = state.pos[d.ply % 4]
        state, events = RULES.step(state, d, [d.legal[pick % len(d.legal)]])
        log.extend(events)
        for e in events:
            if isinstance(e, SantoriniPlayed):
                assert here is not None
                assert max(abs(e.row - here // SIZE), abs(e.col - here % SIZE)) == 1
                assert before[e.row * SIZE + e.col] <= before[here] + 1
                builds += e.build_row is not None
        assert all(0 <= h <= TOP for h in state.heights)
        placed = [p for p in state.pos if p is not None]
        assert len(placed) == len(set(placed))
        assert all(state.heights[p] < TOP for p in placed)
        assert sum(state.heights) == builds
        for v in views:
            v.sync(log)
            assert v.heights == state.heights
            assert [v.pawns[p] for p in PAWNS] == [
                None if p is None else divmod(p, SIZE) for p in state.pos
            ]
    if state.over:
        end = log[-1]
        assert isinstance(end, SantoriniEnded) and sorted(end.scores) == [0.0, 1.0]
        if end.reason == "no_move":
            assert legal_actions(state) == ()
    assert len(log) - 1 <= RULES.max_decisions(CONFIG) + 2
    assert verify(log, rerun=False, prefix=not state.over).ok


PROMPTER = SantoriniPrompter()


def test_answers_are_read_from_labels_and_short_forms() -> None:
    state, _ = run(GOLDEN[:4])
    d = RULES.pending(state)
    assert d is not None and d.at == (2, 2)
    want = P(3, 3, 2, 3)
    for text in (
        "Action: Move southeast to (3, 3), build north at (2, 3)",
        "I think so.\nAction: move southeast, build north",
        "(3, 3) (2, 3)",
    ):
        action, _, error = PROMPTER.parse(text, d, 0)
        assert (action, error) == (want, None), text
    action, stage, _ = PROMPTER.parse("Reasoning...\nAction: Explain(Building)", d, 0)
    assert action == Explain(heading="Building") and stage == "action_line"
    action, stage, error = PROMPTER.parse("Action: fly away", d, 0)
    assert action is None and stage == "failed" and error is not None
    assert PROMPTER.default_action(d, 0) in d.legal


def test_prompts(snapshot: SnapshotAssertion) -> None:
    state, log = run([*GOLDEN[:5], Explain(heading="Winning and losing")])
    d = RULES.pending(state)
    assert d is not None and d.seats == (1,)
    view = SantoriniView(1).sync(log)
    cot = PROMPTER.for_seat(type("Options", (), {"mode": "cot"})())
    system = PROMPTER.system_prompt(CONFIG, None, 1)
    prompt = PROMPTER.decision_prompt(view, d, "", None)
    asked, left = prompt.split("More rules are written under these headings")
    assert "Winning and losing: Moving a pawn onto a level 3" in asked
    assert all(h in left for h in HEADINGS[:3]) and "Winning and losing" not in left
    assert (
        system,
        prompt,
        cot.decision_prompt(view, d, "", None),
    ) == snapshot
    with pytest.raises(KeyError):
        PROMPTER.system_prompt(CONFIG, "pirate", 0)


def test_the_sql_view_lists_every_placement_and_turn(tmp_path: Path) -> None:
    with DuckStore(tmp_path / "s.duckdb") as store:
        gid, record = play_and_store(store, CONFIG, 262, ["climber", "random"])
        _, rows = store.query(
            "SELECT ply, seat, kind, row, col, build_row, build_col FROM santorini_actions"
            " WHERE game_id = ? ORDER BY ply",
            [gid],
        )
    expected = [
        (e.ply, e.seat, "place", e.row, e.col, None, None)
        if isinstance(e, SantoriniPlaced)
        else (e.ply, e.seat, "play", e.row, e.col, e.build_row, e.build_col)
        for e in record.events
        if isinstance(e, SantoriniPlaced | SantoriniPlayed)
    ]
    assert [tuple(r) for r in rows] == expected
    assert [r[2] for r in rows[:4]] == ["place"] * 4 and len(rows) > 4


def test_structured_answers_name_a_label_or_a_heading() -> None:
    state, log = run([*GOLDEN[:4], Explain(heading="Moving")])
    d = RULES.pending(state)
    assert d is not None
    view = SantoriniView(0).sync(log)
    schema = PROMPTER.for_seat(type("Options", (), {"mode": "cot"})()).answer_schema(view, d)
    assert schema["required"] == ["reasoning", "action"]
    enum = schema["properties"]["action"]["enum"]
    assert len(enum) == len(d.legal) + len(HEADINGS) - 1 and "Explain(Moving)" not in enum
    text = json.dumps({"reasoning": "up", "action": enum[0]})
    assert PROMPTER.parse(text, d, 0)[:2] == (d.legal[0], "json")
    text = json.dumps({"action": "Explain(Building)"})
    assert PROMPTER.parse(text, d, 0)[0] == Explain(heading="Building")
