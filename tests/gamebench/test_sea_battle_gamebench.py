"""Sea Battle under the gamebench rules (the default): the two claim phases, the volley,
unusable answers, the model prompt's shape and games that replay."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from engine.gamebench.common import Explain
from engine.gamebench.sea_battle import CHOICES, RULES, SbState, SetPlan, listed_rocks, ring
from events import catalog
from events.config import SeatSpec
from events.gamebench import sea_battle as se
from events.gamebench.sea_battle import SeaBattleConfig, Ship
from projections.gamebench.sea_battle import SeaBattlePrompter, SeaBattleView, parse_choice
from runner.replay import verify
from runner.session import play_game

GAME = catalog.get("gamebench:sea_battle")
SMALL = SeaBattleConfig(size=12, rocks=0, cannonballs=1, max_turns=5, name="small")
SEATS = tuple(SeatSpec(agent="test") for _ in range(6))
N, E, S, W = range(4)
FAR = [(1, 1, E), (3, 1, E), (5, 1, E), (1, 10, E), (3, 10, E), (5, 10, E)]
"""Berths along the bottom and top rows, facing east, out of each other's way."""
STAY = "Wl"


def idle(seat: int) -> str:
    """A berthed ship stays and fires into the border (south from row 1, north from row 10)."""
    return "Wr" if FAR[seat][1] == 1 else "Wl"


def sea(
    ships: dict[int, tuple[int, int, int]],
    rocks: tuple[tuple[int, int], ...] = (),
    damage: dict[int, int] | None = None,
    config: SeaBattleConfig = SMALL,
) -> tuple[SbState, list[Any]]:
    """A game at its first turn: the ships given by seat, the others in their berths."""
    placed = [ships.get(i, FAR[i]) for i in range(6)]
    events: list[Any] = [
        se.SbStarted(seed=0, config=config, seats=SEATS, engine_version=RULES.version),
        se.SbCharted(rocks=rocks, ships=tuple(Ship(x=x, y=y, heading=h) for x, y, h in placed)),
    ]
    state = RULES.fold(events)
    if damage:
        state = replace(state, damage=tuple(damage.get(i, 0) for i in range(6)))
    return state, events


def turn(state: SbState, log: list[Any], plans: dict[int, str]) -> SbState:
    """Every pending seat plays its plan from `plans` (`idle` when not given)."""
    d = RULES.pending(state)
    assert d is not None and d.rules == "gamebench"
    state, evs = RULES.step(
        state, d, [SetPlan(seat=s, plan=plans.get(s, idle(s))) for s in d.seats]
    )
    log.extend(evs)
    return state


def at(state: SbState, seat: int) -> tuple[int, int, int] | None:
    s = state.ships[seat]
    return None if s is None else (s.x, s.y, s.heading)


@pytest.mark.parametrize(
    ("plan", "where"),
    [("Fl", (5, 4, E)), ("Ll", (5, 5, N)), ("Rr", (5, 3, S)), ("Wr", (4, 4, E))],
)
def test_moves_follow_gamebenchs_compass(plan: str, where: tuple[int, int, int]) -> None:
    """y grows northwards: a left turn from east heads north, up the y axis."""
    s, log = sea({0: (4, 4, E)})
    s = turn(s, log, {0: plan})
    assert at(s, 0) == where and s.damage[0] == 0


def test_a_shared_claim_rams_both_and_the_turn_still_happens() -> None:
    s, log = sea({0: (4, 5, E), 1: (6, 5, W)})
    s = turn(s, log, {0: "Ll", 1: "Fr"})
    assert at(s, 0) == (4, 6, N) and at(s, 1) == (6, 5, W)  # turned and took its second step
    assert s.damage[:2] == (1, 1)


def test_a_ship_that_stays_is_rammed_too() -> None:
    s, log = sea({0: (4, 5, E), 1: (5, 5, N)})
    s = turn(s, log, {0: "Fl", 1: "Wr"})
    assert at(s, 0) == (4, 5, E) and s.damage[:2] == (1, 1)


def test_ships_facing_each_other_pass_through() -> None:
    """GameBench compares claims only, so two ships swapping squares both move."""
    s, log = sea({0: (4, 5, E), 1: (5, 5, W)})
    s = turn(s, log, {0: "Fr", 1: "Fr"})
    assert at(s, 0) == (5, 5, E) and at(s, 1) == (4, 5, W) and s.damage[:2] == (0, 0)


def test_a_clash_in_the_second_step_costs_nothing() -> None:
    s, log = sea({0: (4, 5, N), 1: (6, 5, N)})
    s = turn(s, log, {0: "Rr", 1: "Ll"})
    assert at(s, 0) == (4, 6, E) and at(s, 1) == (6, 6, W) and s.damage[:2] == (0, 0)


def test_a_rock_costs_damage_and_the_ship_stays() -> None:
    s, log = sea({0: (4, 5, E)}, rocks=((5, 5),))
    s = turn(s, log, {0: "Fl"})
    assert at(s, 0) == (4, 5, E) and s.damage[0] == 1
    s, log = sea({0: (1, 5, W)})
    s = turn(s, log, {0: "Fl"})
    assert at(s, 0) == (1, 5, W) and s.damage[0] == 1  # the border is rock


def test_every_ship_fires_one_cannonball_a_rock_stops_it() -> None:
    s, log = sea({0: (4, 5, E), 3: (4, 8, W), 4: (4, 3, E)}, rocks=((4, 7),))
    s = turn(s, log, {0: "Wl", 3: "Wr", 4: "Wl"})
    shots = [
        sh for e in log if isinstance(e, se.SbTurnPlayed) for ph in e.phases for sh in ph.shots
    ]
    assert len(shots) == 6
    assert {(sh.seat, sh.hit) for sh in shots if sh.seat in (0, 3, 4)} == {
        (0, None),
        (3, None),
        (4, 0),
    }
    assert s.damage[0] == 2


def test_a_ship_sunk_in_the_volley_still_fires() -> None:
    s, log = sea({0: (4, 5, N), 3: (5, 5, S)}, damage={0: 9, 3: 9})
    s = turn(s, log, {0: "Wr", 3: "Wr"})  # east of 0 is 3; west of 3 (facing south) is 0
    assert s.ships[0] is None and s.ships[3] is None
    fire = next(e for e in log if isinstance(e, se.SbTurnPlayed)).phases[-1]
    assert {(sh.seat, sh.hit) for sh in fire.shots} >= {(0, 3), (3, 0)}
    assert fire.sunk == (3, 0)


def test_an_unusable_plan_is_a_seeded_draw_and_a_refusal() -> None:
    s, _ = sea({})
    d = RULES.pending(s)
    assert d is not None
    acts: list[Any] = [SetPlan(seat=0, plan="sail away")]
    acts += [SetPlan(seat=i, plan=STAY) for i in d.seats[1:]]
    _, evs = RULES.step(s, d, acts)
    refused = [e for e in evs if isinstance(e, se.SbRequestRefused)]
    sealed = next(e for e in evs if isinstance(e, se.SbPlanSealed) and e.seat == 0)
    assert len(refused) == 1 and refused[0].seat == 0 and sealed.plan in CHOICES
    assert RULES.step(s, d, acts)[1] == evs


def test_explain_offers_gamebenchs_six_headings() -> None:
    s, _ = sea({})
    d = RULES.pending(s)
    assert d is not None
    acts: list[Any] = [Explain(heading="Movement")]
    acts += [SetPlan(seat=i, plan=STAY) for i in d.seats[1:]]
    _, evs = RULES.step(s, d, acts)
    assert any(isinstance(e, se.SbRequestRefused) and e.explain for e in evs)
    acts[0] = Explain(heading="sinking")
    _, evs = RULES.step(s, d, acts)
    assert [e.heading for e in evs if isinstance(e, se.SbRuleExplained)] == ["Sinking"]


@pytest.mark.parametrize(
    ("text", "plan"),
    [
        ("Action: move left then shoot right", "Lr"),
        ("Action: Don't move, then shoot left.", "Wl"),
        ('{"action": "move forward then shoot right"}', "Fr"),
        ("Action: Rl", "Rl"),
        ("Action: fire everything", None),
    ],
)
def test_answers_name_one_of_the_eight(text: str, plan: str | None) -> None:
    action, _, error = parse_choice(text, 2)
    assert (action.plan if action else None) == plan and (error is None) == (plan is not None)


def test_the_observation_lists_gamebenchs_last_twenty_rocks() -> None:
    rocks = ((5, 5), (2, 9))
    listed = listed_rocks(12, rocks)
    assert len(listed) == 20 and listed[-2:] == list(rocks)
    assert listed[:18] == ring(12)[-18:] and listed[6:18] == [(i, 0) for i in range(12)]


def test_the_model_prompt_shape(snapshot: Any) -> None:
    """A seat's first prompt, and the one after it read a heading (regenerate:
    --snapshot-update)."""
    config = GAME.preset("standard")
    state, log = RULES.start(config, 7, list(SEATS))
    d = RULES.pending(state)
    assert d is not None
    prompter = SeaBattlePrompter()
    first = prompter.decision_prompt(SeaBattleView(4).sync(log), d, "", None)
    acts: list[Any] = [SetPlan(seat=i, plan=STAY) for i in d.seats]
    acts[4] = Explain(heading="Damage")
    state, evs = RULES.step(state, d, acts)
    log += evs
    again = prompter.decision_prompt(SeaBattleView(4).sync(log), RULES.pending(state), "", None)
    schema = SeaBattlePrompter(mode="cot").answer_schema(SeaBattleView(4).sync(log), d)
    assert {"first": first, "after_explain": again, "schema": schema} == snapshot


@settings(max_examples=15, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    agents=st.lists(st.sampled_from(["random", "broadside"]), min_size=6, max_size=6),
)
def test_games_end_with_consistent_damage_and_replay(seed: int, agents: list[str]) -> None:
    record = play_game(GAME.preset("quick"), seed, agents)
    end = record.events[-1]
    assert isinstance(end, se.SbEnded)
    state = RULES.fold(record.events)
    afloat = [i for i, s in enumerate(state.ships) if s is not None]
    assert all(state.damage[i] < 6 for i in afloat)
    assert all(state.damage[i] >= 6 for i in range(6) if i not in afloat)
    squares = [(s.x, s.y) for s in state.ships if s is not None]
    assert all(0 < x < 11 and 0 < y < 11 for x, y in squares)
    if end.reason == "sunk":
        assert {i // 3 for i in afloat} == {end.winner}
    assert verify(record.events).ok


def test_the_chart_draws_north_up() -> None:
    """GameBench's y grows northwards, so a ship on a high row is drawn near the top."""
    from cli.gamebench.draw import MARGIN, SEA, _sea_battle

    ship = {"ship": "A", "team": 0, "x": 3, "y": 10, "heading": "north", "damage": None}
    board = {"size": 12, "rocks": [], "ships": [ship], "hull": 10, "turn": 1, "max_turns": 9}
    up = str(_sea_battle({**board, "y_up": True}, ""))
    down = str(_sea_battle(board, ""))
    x = MARGIN + 3 * SEA + SEA / 2
    assert f"translate({x:g} {MARGIN + 1 * SEA + SEA / 2:g})" in up
    assert f"translate({x:g} {MARGIN + 10 * SEA + SEA / 2:g})" in down


def test_the_turn_cap_is_counted_when_it_binds() -> None:
    """GameBench's Sea Battle has no turn limit; the harness's `max_turns` bounds every game.
    The random statistics count the games a cap ended and the longest game, so the claim that
    the cap never binds at the default (docs/gamebench.md, Sea Battle) is a measurement: with
    a cap of 3 turns every game ends on it, at exactly 3 turns, as a draw."""
    from bench.gamebench.random_stats import stats

    config = replace(catalog.get("gamebench:sea_battle").preset("standard"), max_turns=3)
    row = stats("gamebench:sea_battle", 4, config)
    assert row["capped"] == 4
    assert row["longest"] == 3
    assert row["draw_rate"] == 1.0
    free = stats("gamebench:sea_battle", 2)
    assert free["capped"] == 0 < free["longest"] <= 1000
