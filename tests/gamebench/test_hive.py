"""Hive (GameBench, no beetles): a golden playthrough, the rules' refusals and explanations,
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
from engine.gamebench.hive import (
    HEADINGS,
    RULES,
    HiveRules,
    HiveState,
    Move,
    Pass,
    Pick,
    Place,
    connected,
    neighbours,
)
from events import catalog
from events.codec import encode, encode_each
from events.config import SeatSpec
from events.gamebench.hive import (
    PIECES,
    HiveConfig,
    HiveEnded,
    HiveMoved,
    HivePassed,
    HivePicked,
    HivePlaced,
    HiveRejected,
    HiveRuleExplained,
)
from events.gamebench.hive import settings as hive_settings
from events.store import DuckStore
from projections.gamebench.hive import HivePrompter, HiveView
from runner.replay import verify
from runner.session import play_and_store, play_game

GAME = catalog.get("gamebench:hive")
CONFIG = HiveConfig(steps="one", both_lose=False, max_plies=250, movement="gates")
"""Most tests below play rules 1.0.0's game (one step a turn, 250 turns, both queens
surrounded 0.5 each); `DEFAULT` is GameBench's (two steps, 499 turns, 0 each)."""
DEFAULT = HiveConfig()
# Scripted logs: the seats are named random, but the moves are the script's, so replays
# answer them from the log (`rerun=False`) instead of playing the random agent again.
SEATS = [SeatSpec(agent="random"), SeatSpec(agent="random")]


def run(
    actions: list[Any], seed: int = 0, rules: HiveRules = RULES, config: HiveConfig = CONFIG
) -> tuple[HiveState, list[Any]]:
    """Feed actions to the rules, one per decision; the state and the whole log."""
    state, log = rules.start(config, seed, SEATS)
    for a in actions:
        d = rules.pending(state)
        assert d is not None, "the game ended before the actions did"
        assert a in d.legal or isinstance(a, Explain), (a, d.ply)
        state, events = rules.step(state, d, [a])
        log.extend(events)
    return state, log


def P(bug: str, q: int, r: int) -> Place:
    return Place(bug=bug, q=q, r=r)


def M(piece: str, q: int, r: int) -> Move:
    return Move(piece=piece, q=q, r=r)


def moves_of(state: HiveState, piece: str) -> list[tuple[int, int]]:
    d = RULES.pending(state)
    assert d is not None
    return [(a.q, a.r) for a in d.legal if isinstance(a, Move) and a.piece == piece]


# A game written by hand. Both players lay a line along r = 0 (player 2 keeps its queen back
# to its fourth turn), player 1's grasshopper jumps the whole line, its spider crawls
# exactly three cells, and player 1 closes in on player 2's queen at (4, 0): an ant fills
# (4, -1); (4, 1) is gated for crawlers, and a grasshopper jumps into it to win.
GOLDEN: list[Any] = [
    P("Q", 0, 0),  # 0: the first piece goes on (0, 0)
    P("G", 1, 0),  # 1
    P("S", -1, 0),  # 2
    P("A", 2, 0),  # 3
    P("A", -2, 0),  # 4
    P("S", 3, 0),  # 5
    P("G", -3, 0),  # 6
    P("Q", 4, 0),  # 7: player 2's fourth turn: the queen, nothing else
    M("G1", 5, 0),  # 8: jumps east over seven pieces
    P("A", 3, 1),  # 9
    M("A1", 5, -1),  # 10: the ant crawls round the hive
    P("S", 2, -1),  # 11
    M("S1", 1, 1),  # 12: the spider, exactly three cells
    P("G", 3, 2),  # 13
    P("G", 6, -1),  # 14
    P("A", 4, 2),  # 15: closes the gate into (4, 1)
    P("A", 7, -1),  # 16
    P("G", 2, 2),  # 17
    M("A2", 4, -1),  # 18
    M("S2", -1, 0),  # 19
    M("G2", 4, 1),  # 20: jumps over (5, 0) into the gated cell: queen surrounded
]


def test_golden_playthrough() -> None:
    # placements: the first on (0, 0), the second next to it, then only next to one's own
    state, _ = run(GOLDEN[:1])
    d = RULES.pending(state)
    assert d is not None
    assert sorted({(a.q, a.r) for a in d.legal}) == sorted(neighbours((0, 0)))
    state, _ = run(GOLDEN[:2])
    d = RULES.pending(state)
    assert d is not None and P("S", 1, -1) not in d.legal  # touches player 2's G1
    assert P("S", -1, 0) in d.legal and P("S", 0, -1) in d.legal
    assert any(isinstance(a, Move) for a in d.legal)  # player 1's queen is down: it may move
    state, _ = run(GOLDEN[:3])
    d = RULES.pending(state)
    assert d is not None and not any(isinstance(a, Move) for a in d.legal)  # no queen yet
    # player 2's fourth turn without its queen: only queen placements
    state, _ = run(GOLDEN[:7])
    d = RULES.pending(state)
    assert d is not None and {a.bug for a in d.legal if isinstance(a, Place)} == {"Q"}
    assert all(isinstance(a, Place) for a in d.legal)
    # the grasshopper at (-3, 0) jumps the whole line; interior pieces are pinned
    state, _ = run(GOLDEN[:8])
    assert moves_of(state, "G1") == [(5, 0)]
    assert moves_of(state, "S1") == [] and moves_of(state, "Q") == []
    # the spider goes exactly three cells: not one or two, as the ant may
    state, _ = run(GOLDEN[:12])
    assert moves_of(state, "S1") == [(1, 1), (2, -2)]
    assert (0, 1) in moves_of(state, "A1") and (-1, 1) in moves_of(state, "A1")
    # (4, 1) is a gate: (5, 0) and (4, 2) border both it and (5, 1), its only way in
    state, _ = run(GOLDEN[:16])
    assert (4, 1) not in moves_of(state, "A1") and (4, -1) in moves_of(state, "A1")
    assert (4, 1) in moves_of(state, "G2")  # a jump ignores the gate
    state, log = run(GOLDEN)
    assert log[-1] == HiveEnded(
        reason="surrounded", winner=0, plies=21, scores=(1.0, 0.0), ranks=(1, 2)
    )
    assert RULES.pending(state) is None
    moved = [(e.piece, e.from_q, e.from_r, e.q, e.r) for e in log if isinstance(e, HiveMoved)]
    assert moved[0] == ("G1", -3, 0, 5, 0) and moved[-1] == ("G2", 6, -1, 4, 1)
    view = HiveView(1).sync(log)
    assert view.board == state.board
    assert "(4, 0): Player 1 queen Q (0 free neighbours)" in view.text()
    assert GAME.describe(log[-2], None) == "Player 0 moved grasshopper G2 from (6, -1) to (4, 1)"
    assert GAME.describe(log[-1], None) == "Player 0 wins: the other queen is surrounded"
    assert verify(log, rerun=False).ok
    folded = RULES.fold(log)
    assert (folded.board, folded.winner) == (state.board, 0)
    data = json.loads(json.dumps(GAME.extras["state_data"](folded)))  # what `cattle replay` prints
    assert {"q": 4, "r": 0, "seat": 1, "piece": "Q"} in data["board"]


def test_both_queens_surrounded_or_the_turn_cap_is_a_draw() -> None:
    config = HiveConfig(max_plies=6, name="t", steps="one", both_lose=False, movement="gates")
    state, log = RULES.start(config, 0, SEATS)
    for a in GOLDEN[:6]:
        d = RULES.pending(state)
        assert d is not None
        state, events = RULES.step(state, d, [a])
        log.extend(events)
    assert log[-1] == HiveEnded(
        reason="turn_cap", winner=None, plies=6, scores=(0.5, 0.5), ranks=(1, 1)
    )
    assert RULES.max_decisions(config) == 6 + 2 * len(HEADINGS)
    # both queens closed in by one move: a draw
    state, _ = RULES.start(CONFIG, 0, SEATS)
    state.board = {
        (0, 0): (0, "Q"),
        (1, 0): (1, "Q"),
        (0, -1): (0, "S1"),
        (-1, 0): (0, "S2"),
        (-1, 1): (0, "G1"),
        (0, 1): (0, "G2"),
        (2, 0): (1, "S1"),
        (2, -1): (1, "S2"),
        (1, 1): (1, "G1"),
        (3, -1): (0, "A3"),
    }
    state.ply = 20
    d = RULES.pending(state)
    assert d is not None and M("A3", 1, -1) in d.legal
    state, events = RULES.step(state, d, [M("A3", 1, -1)])
    assert events[-1] == HiveEnded(
        reason="both_surrounded", winner=None, plies=21, scores=(0.5, 0.5), ranks=(1, 1)
    )


def test_a_player_who_can_do_nothing_passes() -> None:
    # player 2's queen is pinned between two pieces of player 1, and every empty cell next
    # to it touches player 1: no placement and no move
    state, _ = RULES.start(CONFIG, 0, SEATS)
    state.board = {(0, 0): (0, "A1"), (1, 0): (1, "Q"), (2, 0): (0, "A2"), (-1, 0): (0, "Q")}
    state.ply = 9
    d = RULES.pending(state)
    assert d is not None and d.legal == (Pass(),)
    state, events = RULES.step(state, d, [Pass()])
    assert events == [HivePassed(ply=9, seat=1)] and state.ply == 10


def test_explain_then_the_same_decision_again() -> None:
    state, log = run([Explain(heading=" bugs ")])
    assert log[-1] == HiveRuleExplained(seat=0, heading="Bugs")
    assert log[-1].audience() == (0,)
    d = RULES.pending(state)
    assert d is not None and d.ply == 0
    state, events = RULES.step(state, d, [Explain(heading="Bugs")])
    assert isinstance(events[0], HiveRejected) and "already explained" in events[0].reason
    for heading in ("Nowhere", "Moving pieces"):
        state, events = RULES.step(state, d, [Explain(heading=heading)])
    assert isinstance(events[0], HiveRuleExplained)  # the fourth of four requests
    state, events = RULES.step(state, d, [Explain(heading="End of the game")])
    assert "no explanation requests left" in events[0].reason
    assert isinstance(events[1], HivePlaced)  # none left: the seeded fallback


@pytest.mark.parametrize(
    ("action", "reason"),
    [(P("Q", 5, 5), "not a legal action here"), ("queen", "not an action")],
)
def test_unusable_answers_are_recorded_and_replaced(action: Any, reason: str) -> None:
    state, log = RULES.start(CONFIG, 5, SEATS)
    d = RULES.pending(state)
    assert d is not None
    state, events = RULES.step(state, d, [action])
    log.extend(events)
    assert [e.reason for e in events if isinstance(e, HiveRejected)] == [reason]
    assert isinstance(log[-1], HivePlaced) and (log[-1].q, log[-1].r) == (0, 0)
    assert verify(log, rerun=False, prefix=True).ok
    again = RULES.step(RULES.start(CONFIG, 5, SEATS)[0], d, [action])[1]
    assert [encode(e) for e in again] == [encode(e) for e in events]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**63 - 1),
    picks=st.one_of(
        st.lists(st.integers(0, 10**6), max_size=60),
        st.integers(0, 2**32).map(
            lambda k: [random.Random(k).randrange(10**6) for _ in range(260)]
        ),
    ),
)
def test_any_legal_play_keeps_the_invariants(seed: int, picks: list[int]) -> None:
    """Short prefixes from hypothesis, and whole games (260 picks outlast the turn cap)."""
    state, log = RULES.start(CONFIG, seed, SEATS)
    views = [HiveView(0), HiveView(1)]
    for pick in picks:
        d = RULES.pending(state)
        if d is None:
            break
        # every legal move keeps the hive in one piece and lands on an empty cell
        for a in d.legal:
            if isinstance(a, Move):
                frm = next(c for c, sp in state.board.items() if sp == (d.seats[0], a.piece))
                after = set(state.board) - {frm}
                assert (a.q, a.r) not in after
                assert connected(after | {(a.q, a.r)})
            elif isinstance(a, Place):
                assert (a.q, a.r) not in state.board
        state, events = RULES.step(state, d, [d.legal[pick % len(d.legal)]])
        log.extend(events)
        assert connected(state.board)
        pieces = list(state.board.values())
        assert len(pieces) == len(set(pieces)) <= 2 * len(PIECES)
        for s in (0, 1):  # the queen is down by each player's fourth turn
            if state.ply >= 2 * 4 - 1 + s:
                assert (s, "Q") in pieces
        for v in views:
            v.sync(log)
            assert v.board == state.board
    if state.over:
        end = log[-1]
        assert isinstance(end, HiveEnded) and sum(end.scores) == 1.0
        assert (end.reason == "turn_cap") == (end.plies == CONFIG.max_plies) or end.winner is None
    assert sum(isinstance(e, HivePlaced | HiveMoved | HivePassed) for e in log) <= 250
    assert verify(log, rerun=False, prefix=not state.over).ok


PROMPTER = HivePrompter()


def test_answers_are_read_from_labels_and_short_forms() -> None:
    state, _ = run(GOLDEN[:12])
    d = RULES.pending(state)
    assert d is not None
    want = M("S1", 2, -2)
    for text in ("Action: Move S1 to (2, -2)", "Hmm.\nAction: s1 (2,-2)", "move S1 2 -2"):
        action, _, error = PROMPTER.parse(text, d, 0)
        assert (action, error) == (want, None), text
    assert PROMPTER.parse("Action: Move S1 to (2, 2)", d, 0)[0] is None  # not (2, -2)
    assert PROMPTER.parse("Action: place ant at (-2, 0)", d, 0)[0] == P("A", -2, 0)
    assert PROMPTER.parse("Action: spider (-2, 0)", d, 0)[0] == P("S", -2, 0)
    action, stage, _ = PROMPTER.parse("Reasoning...\nAction: Explain(Bugs)", d, 0)
    assert action == Explain(heading="Bugs") and stage == "action_line"
    action, stage, error = PROMPTER.parse("Action: fly away", d, 0)
    assert action is None and stage == "failed" and error is not None
    assert PROMPTER.default_action(d, 0) in d.legal


def test_prompts(snapshot: SnapshotAssertion) -> None:
    """The prompts of a game of rules 1.0.0, as its model seats were shown them."""
    old = HiveRules("1.0.0")
    state, log = run([*GOLDEN[:5], Explain(heading="End of the game")], rules=old)
    d = RULES.pending(state)
    assert d is not None and d.seats == (1,)
    view = HiveView(1).sync(log)
    cot = PROMPTER.for_seat(type("Options", (), {"mode": "cot"})())
    system = PROMPTER.system_prompt(CONFIG, None, 1)
    prompt = PROMPTER.decision_prompt(view, d, "", None)
    asked, left = prompt.split("More rules are written under these headings")
    assert "End of the game: A player whose queen" in asked
    assert all(h in left for h in HEADINGS[:3]) and "End of the game" not in left
    assert (system, prompt, cot.decision_prompt(view, d, "", None)) == snapshot


def test_the_sql_view_lists_every_turn(tmp_path: Path) -> None:
    with DuckStore(tmp_path / "s.duckdb") as store:
        gid, record = play_and_store(store, CONFIG, 7, ["stinger", "random"])
        _, rows = store.query(
            "SELECT ply, seat, kind, piece, from_q, from_r, to_q, to_r FROM hive_moves"
            " WHERE game_id = ? ORDER BY ply",
            [gid],
        )
    expected = []
    for e in record.events:
        if isinstance(e, HivePlaced):
            expected.append((e.ply, e.seat, "place", e.piece, None, None, e.q, e.r))
        elif isinstance(e, HiveMoved):
            expected.append((e.ply, e.seat, "move", e.piece, e.from_q, e.from_r, e.q, e.r))
        elif isinstance(e, HivePassed):
            expected.append((e.ply, e.seat, "pass", None, None, None, None, None))
    assert [tuple(r) for r in rows] == expected
    assert "move" in {r[2] for r in rows}
    assert record.result is not None and record.result.scores == (1.0, 0.0)


def test_structured_answers_name_a_label_or_a_heading() -> None:
    state, log = run([*GOLDEN[:4], Explain(heading="Bugs")])
    d = RULES.pending(state)
    assert d is not None
    view = HiveView(0).sync(log)
    schema = PROMPTER.for_seat(type("Options", (), {"mode": "cot"})()).answer_schema(view, d)
    assert schema["required"] == ["reasoning", "action"]
    enum = schema["properties"]["action"]["enum"]
    assert len(enum) == len(d.legal) + len(HEADINGS) - 1 and "Explain(Bugs)" not in enum
    text = json.dumps({"reasoning": "close", "action": enum[0]})
    assert PROMPTER.parse(text, d, 0)[:2] == (d.legal[0], "json")


# --------------------------------------------------------------------------- GameBench's game


def test_a_turn_asks_for_the_piece_then_the_cell() -> None:
    """GameBench's two steps: a bug to place or a piece to move, then its cell."""
    state, log = RULES.start(DEFAULT, 0, SEATS)
    d = RULES.pending(state)
    assert d is not None and d.step == 1
    assert d.legal == tuple(Pick(kind="place", piece=b) for b in "QSGA")
    state, events = RULES.step(state, d, [Pick(kind="place", piece="S")])
    assert events == [HivePicked(ply=0, seat=0, kind="place", piece="S")]
    d = RULES.pending(state)
    assert d is not None and d.step == 2 and d.legal == (P("S", 0, 0),) and d.ply == 0
    prompt = PROMPTER.decision_prompt(HiveView(0).sync([*log, *events]), d, "", None)
    assert "You chose: Place spider. Now choose the cell." in prompt
    state, events = RULES.step(state, d, [P("S", 0, 0)])
    assert isinstance(events[0], HivePlaced) and events[0].piece == "S1" and state.ply == 1
    d = RULES.pending(state)
    assert d is not None and d.step == 1 and d.seats == (1,)
    # An answer that is no listed piece is replaced by a random listed one.
    state, events = RULES.step(state, d, ["fly"])
    assert isinstance(events[0], HiveRejected) and isinstance(events[1], HivePicked)
    assert RULES.max_decisions(DEFAULT) == 2 * 499 + 2 * len(HEADINGS)


def test_the_cap_is_250_turns_of_each_player() -> None:
    """GameBench stops once a player has had 250 turns: the first player's 250th is the
    499th turn of the game; a turn cap is a draw."""
    assert DEFAULT.max_plies == 499 and GAME.preset("standard") == DEFAULT
    assert GAME.preset("rules").max_plies == 250 and GAME.preset("one_step").steps == "one"
    for seed in range(3):
        log = play_game(DEFAULT, seed, ["random", "random"]).events
        end = log[-1]
        assert isinstance(end, HiveEnded)
        if end.reason == "turn_cap":
            break
    assert end.reason == "turn_cap" and end.plies == 499 and end.scores == (0.5, 0.5)
    turns = [e.seat for e in log if isinstance(e, HivePlaced | HiveMoved | HivePassed)]
    assert turns.count(0) == 250 and turns.count(1) == 249
    picks = [e for e in log if isinstance(e, HivePicked)]
    assert len(picks) == 499 - sum(isinstance(e, HivePassed) for e in log)
    assert verify(log).ok


def test_both_queens_surrounded_score_nothing() -> None:
    """A grasshopper fills the last cell beside both queens (a jump is free of the crawling
    rule): 0 to each, as GameBench's code scores it."""
    state, _ = RULES.start(DEFAULT, 0, SEATS)
    state.board = {
        (0, 0): (0, "Q"),
        (1, 0): (1, "Q"),
        (0, -1): (0, "S1"),
        (-1, 0): (0, "S2"),
        (-1, 1): (0, "G1"),
        (0, 1): (0, "G2"),
        (2, 0): (1, "S1"),
        (2, -1): (1, "S2"),
        (1, 1): (1, "G1"),
        (1, -2): (1, "G2"),
        (1, -3): (0, "G3"),
    }
    state.ply = 20
    d = RULES.pending(state)
    assert d is not None and Pick(kind="move", piece="G3") in d.legal
    state, _ = RULES.step(state, d, [Pick(kind="move", piece="G3")])
    d = RULES.pending(state)
    assert d is not None and M("G3", 1, -1) in d.legal
    state, events = RULES.step(state, d, [M("G3", 1, -1)])
    assert events[-1] == HiveEnded(
        reason="both_surrounded", winner=None, plies=21, scores=(0.0, 0.0), ranks=(1, 1)
    )


def test_gamebenchs_crawl_never_enters_or_leaves_a_cell_with_one_open_side() -> None:
    """GameBench's `has_freedom_to_move`: an ant may not crawl into the last gap beside the
    queens (one empty neighbour), though the gates of standard Hive let it."""
    board = {
        (0, 0): (0, "Q"),
        (1, 0): (1, "Q"),
        (0, -1): (0, "S1"),
        (-1, 0): (0, "S2"),
        (-1, 1): (0, "G1"),
        (0, 1): (0, "G2"),
        (2, 0): (1, "S1"),
        (2, -1): (1, "S2"),
        (1, 1): (1, "G1"),
        (3, -1): (0, "A3"),
    }
    moves = {}
    for movement in ("gamebench", "gates"):
        state, _ = RULES.start(HiveConfig(steps="one", movement=movement), 0, SEATS)
        state.board = dict(board)
        state.ply = 20
        d = RULES.pending(state)
        assert d is not None
        moves[movement] = {(a.q, a.r) for a in d.legal if isinstance(a, Move) and a.piece == "A3"}
    assert (1, -1) in moves["gates"] and (1, -1) not in moves["gamebench"]
    assert moves["gamebench"] and moves["gamebench"] < moves["gates"]
    assert hive_settings(GAME.preset("rules"))[2] == "gates"
    assert hive_settings(DEFAULT)[2] == "gamebench"


def test_games_of_rules_1_0_0_still_verify() -> None:
    """A log stored by rules 1.0.0 (one step, its own cap and draw) re-runs by those rules."""
    path = Path(__file__).parent / "data" / "hive-1.0.0.jsonl"
    lines = path.read_text().splitlines()
    log = [GAME.decoder.decode(line) for line in lines]
    assert encode_each(log) == lines  # the stored bytes, as verification checks them
    assert log[0].engine_version == "1.0.0" and log[0].config.max_plies == 250
    state = RULES.fold(log)
    assert (state.steps, state.both_lose) == ("one", False) and state.over
    assert not any(isinstance(e, HivePicked) for e in log)
    assert verify(log).ok


def test_golden_playthrough_of_the_default(snapshot: SnapshotAssertion) -> None:
    """A short default game, every turn in two steps (regenerate: --snapshot-update)."""
    from projections.timeline import timeline

    record = play_game(HiveConfig(max_plies=16, name="t"), 4, ["stinger", "random"])
    assert verify(record.events).ok
    assert timeline(record.events, None) == snapshot
