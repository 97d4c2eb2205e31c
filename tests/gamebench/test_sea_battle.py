"""GameBench Sea Battle: movement, collisions and cannon fire played by hand, random plans
against the invariants, sealed plans and team damage kept private, prompts and agents."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.gamebench.common import Explain
from engine.gamebench.sea_battle import RULES, SbState, SetPlan, chart, is_rock, read_plan
from events import catalog
from events.codec import encode
from events.config import SeatSpec
from events.gamebench import sea_battle as se
from events.gamebench.sea_battle import HEADINGS, SeaBattleConfig, Ship
from projections.gamebench.sea_battle import (
    SeaBattlePrompter,
    SeaBattleView,
    parse_answer,
    timeline,
)
from runner.replay import verify
from runner.session import play_game

GAME = catalog.get("gamebench:sea_battle")
SMALL = SeaBattleConfig(rules="prototype", size=12, rocks=0, max_turns=5, name="small")
SEATS = tuple(SeatSpec(agent="test") for _ in range(6))
N, E, S, W = range(4)
FAR = [(1, 10, E), (2, 10, E), (3, 10, E), (8, 10, E), (9, 10, E), (10, 10, E)]
"""Out-of-the-way berths along the bottom row, facing east (idle ships stay put)."""
IDLE = "WnWnWnWn"


def sea(
    ships: dict[int, tuple[int, int, int]],
    rocks: tuple[tuple[int, int], ...] = (),
    config: SeaBattleConfig = SMALL,
) -> tuple[SbState, list[Any]]:
    """A game at its first turn: the ships given by seat, the others in their far berths."""
    placed = [ships.get(i, FAR[i]) for i in range(6)]
    events: list[Any] = [
        se.SbStarted(seed=0, config=config, seats=SEATS, engine_version=RULES.version),
        se.SbCharted(rocks=rocks, ships=tuple(Ship(x=x, y=y, heading=h) for x, y, h in placed)),
    ]
    return RULES.fold(events), events


def turn(state: SbState, log: list[Any], plans: dict[int, str]) -> SbState:
    """Every pending seat plays its plan from `plans` (idle when not given)."""
    d = RULES.pending(state)
    assert d is not None
    state, evs = RULES.step(state, d, [SetPlan(seat=s, plan=plans.get(s, IDLE)) for s in d.seats])
    log.extend(evs)
    return state


def played(log: list[Any]) -> se.SbTurnPlayed:
    return next(e for e in reversed(log) if isinstance(e, se.SbTurnPlayed))


def at(state: SbState, seat: int) -> tuple[int, int, int] | None:
    s = state.ships[seat]
    return None if s is None else (s.x, s.y, s.heading)


def test_the_chart_comes_from_the_seed_inside_the_ring() -> None:
    c = SeaBattleConfig(rules="prototype")
    rocks, ships = chart(c, 9)
    squares = [*rocks, *((s.x, s.y) for s in ships)]
    assert len(rocks) == 14 and len(ships) == 6 and len(set(squares)) == 20
    assert all(0 < x < 23 and 0 < y < 23 for x, y in squares)
    assert chart(c, 9) == (rocks, ships) and chart(c, 10) != (rocks, ships)


@pytest.mark.parametrize(
    ("plan", "where"),
    [("FnWnWnWn", (5, 4, E)), ("LnWnWnWn", (5, 3, N)), ("RnWnWnWn", (5, 5, S)),
     ("FnFnRnLn", (8, 6, E)), (IDLE, (4, 4, E))],
)  # fmt: skip
def test_moves(plan: str, where: tuple[int, int, int]) -> None:
    s, log = sea({0: (4, 4, E)})
    s = turn(s, log, {0: plan})
    assert at(s, 0) == where and s.damage[0] == 0


def test_sailing_into_a_rock_keeps_the_ship_and_damages_it() -> None:
    s, log = sea({0: (1, 1, N), 1: (4, 4, E)}, rocks=((5, 4),))
    s = turn(s, log, {0: "FnWnWnWn", 1: "FnWnWnWn"})
    assert at(s, 0) == (1, 1, N) and at(s, 1) == (4, 4, E)
    assert s.damage[:2] == (1, 1)
    assert [(h.seat, h.cause) for h in played(log).phases[0].hits] == [(0, "rock"), (1, "rock")]


@pytest.mark.parametrize(
    ("a", "b", "plan_b", "a_after", "b_after"),
    [
        ((3, 5, E), (5, 5, W), "FnWnWnWn", (3, 5, E), (5, 5, W)),  # the same square
        ((3, 5, E), (4, 5, W), "FnWnWnWn", (3, 5, E), (4, 5, W)),  # each other's square
        ((3, 5, E), (4, 5, N), IDLE, (3, 5, E), (4, 5, N)),  # a square a ship keeps
    ],
)
def test_collisions_stop_both_ships_and_damage_both(
    a: tuple[int, int, int],
    b: tuple[int, int, int],
    plan_b: str,
    a_after: tuple[int, int, int],
    b_after: tuple[int, int, int],
) -> None:
    s, log = sea({0: a, 3: b})
    s = turn(s, log, {0: "FnWnWnWn", 3: plan_b})
    assert at(s, 0) == a_after and at(s, 3) == b_after
    assert s.damage[0] == s.damage[3] == 1
    assert {(h.seat, h.cause) for h in played(log).phases[0].hits} == {(0, "ram"), (3, "ram")}


def test_a_ship_may_follow_one_that_moves_away() -> None:
    s, log = sea({0: (3, 5, E), 1: (4, 5, E)})
    s = turn(s, log, {0: "FnWnWnWn", 1: "FnWnWnWn"})
    assert at(s, 0) == (4, 5, E) and at(s, 1) == (5, 5, E) and sum(s.damage) == 0


def test_a_cannonball_hits_the_first_ship_within_reach_and_a_rock_stops_it() -> None:
    # A faces north: its left side is west, its right side east.
    s, log = sea({0: (6, 5, N), 3: (3, 5, E), 4: (9, 3, E), 5: (8, 5, E)}, rocks=((7, 5),))
    s = turn(s, log, {0: "WbWnWnWn"})
    shots = played(log).phases[1].shots
    assert [(x.side, x.hit) for x in shots] == [("l", 3), ("r", None)]
    assert s.damage == (0, 0, 0, 2, 0, 0)
    s, log = sea({0: (6, 5, N), 3: (2, 5, E)})
    s = turn(s, log, {0: "WlWnWnWn"})  # four squares away: out of reach
    assert played(log).phases[1].shots[0].hit is None and sum(s.damage) == 0


def test_friendly_fire_hurts_and_cannonballs_run_out() -> None:
    s, log = sea(
        {0: (6, 5, N), 1: (5, 5, N)},
        config=SeaBattleConfig(rules="prototype", size=12, rocks=0, cannonballs=3),
    )
    s = turn(s, log, {0: "WlWbWlWn"})
    refused = [e for e in log if isinstance(e, se.SbRequestRefused)]
    assert len(refused) == 1 and refused[0].audience() == (0,)
    assert "no cannonball left" in refused[0].reason
    assert played(log).plans[0] == "WlWbWnWn" and s.damage[1] == 4


def test_sinking_every_enemy_wins_and_all_sinking_together_draws() -> None:
    c = SeaBattleConfig(rules="prototype", size=12, rocks=0, hull=1)
    edge = {3: (8, 1, N), 4: (9, 1, N), 5: (10, 1, N)}
    s, log = sea(edge, config=c)
    s = turn(s, log, {3: "FnWnWnWn", 4: "FnWnWnWn", 5: "FnWnWnWn"})
    end = log[-1]
    assert isinstance(end, se.SbEnded) and end.reason == "sunk" and end.winner == 0
    assert end.scores == (1.0, 1.0, 1.0, 0.0, 0.0, 0.0) and end.ranks == (1, 1, 1, 4, 4, 4)
    assert len(played(log).phases) == 1  # the game stopped after the first move
    mine = {0: (1, 1, N), 1: (2, 1, N), 2: (3, 1, N)}
    s, log = sea({**edge, **mine}, config=c)
    s = turn(s, log, dict.fromkeys(range(6), "FnWnWnWn"))
    end = log[-1]
    assert isinstance(end, se.SbEnded) and end.reason == "both_sunk"
    assert end.scores == (0.5,) * 6 and RULES.pending(s) is None


def test_the_turn_limit_is_a_draw() -> None:
    s, log = sea({}, config=SeaBattleConfig(rules="prototype", size=12, rocks=0, max_turns=2))
    s = turn(turn(s, log, {}), log, {})
    end = log[-1]
    assert isinstance(end, se.SbEnded) and end.reason == "turn_limit" and end.turns == 2
    assert end.scores == (0.5,) * 6


@pytest.mark.parametrize(
    ("given_plan", "used", "ok"),
    [("FnLlRrWb", "FnLlRrWb", True), ("f n l l r r w b", "FnLlRrWb", True),
     ("FnLl", "FnLlWnWn", False), ("XnLlRrWb", "WnLlRrWb", False),
     ("FbFbFbFb", "FbFbFbFn", False), ("FnLlRrWbFn", "FnLlRrWb", False), ("", IDLE, False)],
)  # fmt: skip
def test_plans_are_read_token_by_token(given_plan: str, used: str, ok: bool) -> None:
    plan, why = read_plan(given_plan, 6)
    assert plan == used and (why is None) == ok


def test_plans_stay_sealed_and_damage_stays_in_the_team() -> None:
    s, log = sea({0: (6, 5, N), 3: (3, 5, E)})
    d = RULES.pending(s)
    assert d is not None and d.seats == tuple(range(6))
    # Seat 0 asks for a rule; the others seal their plans; only seat 0 is asked again.
    actions: list[Any] = [Explain(heading="cannons")]
    actions += [SetPlan(seat=i, plan=IDLE) for i in range(1, 6)]
    s, evs = RULES.step(s, d, actions)
    log.extend(evs)
    assert [type(e).__name__ for e in evs] == ["SbRuleExplained", *["SbPlanSealed"] * 5]
    d = RULES.pending(s)
    assert d is not None and d.seats == (0,)
    s = turn(s, log, {0: "WlWnWnWn"})
    for seat in range(6):
        view = SeaBattleView(seat).sync(log)
        for e in view.history:
            if isinstance(e, se.SbPlanSealed | se.SbRuleExplained | se.SbRequestRefused):
                assert e.seat == seat
            if isinstance(e, se.SbDamageReport):
                assert e.team == seat // 3
    assert SeaBattleView(3).sync(log).team_damage == (2, 0, 0)
    assert SeaBattleView(0).sync(log).team_damage == (0, 0, 0)
    assert SeaBattleView(0).sync(log).explained == ["Cannons"]


# --------------------------------------------------------------------------- random play

TOKENS = st.text(alphabet="FLRWnlrbx ", min_size=0, max_size=10)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**63 - 1), data=st.data())
def test_any_plans_keep_the_invariants(seed: int, data: st.DataObject) -> None:
    config = SeaBattleConfig(rules="prototype", size=10, rocks=6, hull=6, max_turns=8)
    s, log = RULES.start(config, seed, SEATS)
    decisions = 0
    while (d := RULES.pending(s)) is not None:
        actions: list[Any] = []
        for seat in d.seats:
            if data.draw(st.integers(0, 9)) == 0:
                actions.append(Explain(heading=data.draw(st.sampled_from([*HEADINGS, "?"]))))
            else:
                actions.append(SetPlan(seat=seat, plan=data.draw(TOKENS)))
        before = s.damage
        s, evs = RULES.step(s, d, actions)
        log.extend(evs)
        decisions += 1
        assert decisions <= RULES.max_decisions(config)
        assert all(a >= b for a, b in zip(s.damage, before, strict=True))
        afloat = [x for x in s.ships if x is not None]
        assert len({(x.x, x.y) for x in afloat}) == len(afloat)
        assert not any(is_rock(s.rocks, config.size, x.x, x.y) for x in afloat)
        for i, x in enumerate(s.ships):
            assert (x is None) == (s.damage[i] >= config.hull)
    end = log[-1]
    assert isinstance(end, se.SbEnded) and end.damage == s.damage
    assert end.scores[0] + end.scores[3] == 1 and len(set(end.scores[:3])) == 1
    assert RULES.fold(log) == s
    assert [GAME.decoder.decode(encode(e)) for e in log] == log


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**63 - 1))
def test_code_agents_games_replay_and_verify(seed: int) -> None:
    record = play_game(GAME.preset("prototype_quick"), seed, ["broadside", "random"] * 3)
    assert verify(record.events).ok


def test_broadsides_beat_random_ships() -> None:
    total = 0.0
    for seed in range(4):
        a = play_game(
            GAME.preset("prototype_quick"), seed, ["broadside"] * 3 + ["random"] * 3
        ).result
        b = play_game(
            GAME.preset("prototype_quick"), seed, ["random"] * 3 + ["broadside"] * 3
        ).result
        assert a is not None and b is not None
        total += a.scores[0] + b.scores[3]
    assert total / 8 > 0.6


# --------------------------------------------------------------------------- prompts


def test_prompts(snapshot: Any) -> None:
    s, log = sea({0: (6, 5, N), 3: (3, 5, E)}, rocks=((7, 7),))
    s = turn(s, log, {0: "WlWnWnWn"})
    d = RULES.pending(s)
    first = SeaBattlePrompter().decision_prompt(SeaBattleView(0).sync(log), d, "full", None)
    s, evs = RULES.step(s, d, [Explain(heading="Plan") for i in d.seats])  # type: ignore[union-attr]
    log.extend(evs)
    cot = SeaBattlePrompter(mode="cot").decision_prompt(
        SeaBattleView(3).sync(log), RULES.pending(s), "full", None
    )
    assert "* Plan:" in cot and "X -2" not in first
    assert {"plain": first, "cot_after_explain": cot} == snapshot


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Let me think.\nAction: FnLlRrWb", SetPlan(seat=0, plan="FnLlRrWb")),
        ("Action: F n L l R r W b", SetPlan(seat=0, plan="FnLlRrWb")),
        ("Plan: FnLlRrWb", SetPlan(seat=0, plan="FnLlRrWb")),
        ("Action: Explain(Cannons)", Explain(heading="Cannons")),
        ("Action: FnLl", None),
        ("", None),
    ],
)
def test_answers_are_read(text: str, expected: Any) -> None:
    action, _, error = parse_answer(text, None, 0)
    assert action == expected and (error is None) == (expected is not None)


def test_another_ships_sealed_plan_leaves_a_seats_prompt_unchanged() -> None:
    """Swap test: while a seat explains, the plans its teammates and enemies sealed differ;
    its view and prompt do not."""
    s, log = sea({0: (6, 5, N), 3: (3, 5, E)})
    d = RULES.pending(s)
    assert d is not None
    actions: list[Any] = [Explain(heading="Plan")]
    actions += [SetPlan(seat=i, plan="FnLlRrWb") for i in range(1, 6)]
    s, evs = RULES.step(s, d, actions)
    log.extend(evs)
    other = [
        se.SbPlanSealed(seat=e.seat, turn=e.turn, plan="WbWbWbWn")
        if isinstance(e, se.SbPlanSealed)
        else e
        for e in log
    ]
    d = RULES.pending(s)
    prompts = [
        SeaBattlePrompter().decision_prompt(SeaBattleView(0).sync(x), d, "full", None)
        for x in (log, other)
    ]
    assert prompts[0] == prompts[1]
    assert encode(SeaBattleView(0).sync(log).snapshot()) == encode(
        SeaBattleView(0).sync(other).snapshot()
    )
    assert encode(SeaBattleView(1).sync(log).snapshot()) != encode(
        SeaBattleView(1).sync(other).snapshot()
    )


def test_golden_playthrough(snapshot: Any) -> None:
    """A whole game of code agents as every seat reads it (regenerate: --snapshot-update)."""
    record = play_game(GAME.preset("prototype_quick"), 1, ["broadside"] * 3 + ["random"] * 3)
    seen = {str(seat): timeline(record.events, seat) for seat in (None, 0, 3)}
    assert seen == snapshot


@settings(max_examples=60, deadline=None)
@given(text=st.text(max_size=80))
def test_any_answer_is_read_or_refused_in_one_line(text: str) -> None:
    s, _ = sea({})
    d = RULES.pending(s)
    assert d is not None
    action, stage, error = parse_answer(text, d, 0)
    assert (action is None) == (error is not None) and isinstance(stage, str)
    if error is not None:
        assert "\n" not in error and len(error) < 200
    if action is not None:
        others = [SetPlan(seat=i, plan=IDLE) for i in d.seats[1:]]
        RULES.step(s, d, [action, *others])


def test_structured_answers_match_their_schema_and_are_read() -> None:
    import re

    s, log = sea({})
    view = SeaBattleView(0).sync(log)
    schema = SeaBattlePrompter(mode="cot").answer_schema(view, RULES.pending(s))
    assert schema["required"] == ["reasoning", "action"]
    pattern = re.compile(schema["properties"]["action"]["pattern"])
    assert pattern.match("FnLlRrWb") and pattern.match("Explain(Cannons)")
    assert not pattern.match("FnLl") and not pattern.match("Explain(Nope)")
    action, stage, _ = parse_answer('{"reasoning": "go", "action": "Explain(Cannons)"}', None, 0)
    assert action == Explain(heading="Cannons") and stage == "json"
