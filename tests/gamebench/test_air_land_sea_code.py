"""Air, Land and Sea by default plays GameBench's program at 1b8b24e (rules 1.1.0): the
Disrupt's owner chooses both flips, Reinforce's card escapes Containment and Blockade,
Escalation and Cover Fire do nothing in the leftmost theatre, the leftmost theatre moves to
the far right after a battle, destroyed cards leave the game, and the match score is each
seat's share of the victory points. Games stored by rules 1.0.0 keep verifying by those
rules; the prompt of the default rules keeps its shape (snapshot)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from syrupy.assertion import SnapshotAssertion

from engine.gamebench.air_land_sea import (
    RULES,
    AlsState,
    Flip,
    Reinforce,
    Task,
    Withdraw,
    strengths,
)
from events import catalog
from events.codec import encode_each
from events.config import SeatSpec
from events.gamebench.air_land_sea import (
    AlsBattleBegan,
    AlsBattleEnded,
    AlsConfig,
    AlsEnded,
    AlsFlipped,
    AlsPlayed,
    settings,
)
from projections.gamebench.air_land_sea import AlsPrompter, AlsView
from runner.replay import verify
from runner.session import play_game
from tests.gamebench.test_air_land_sea import GOLDEN

GAME = catalog.get("gamebench:air_land_sea")
SEATS = [SeatSpec(agent="random")] * 2
CODE = AlsConfig()
CARDS = GAME.preset("cards")


def run(actions: list[Any], config: AlsConfig, seed: int = 0) -> tuple[AlsState, list[Any]]:
    state, log = RULES.start(config, seed, SEATS)
    for a in actions:
        d = RULES.pending(state)
        assert d is not None
        state, events = RULES.step(state, d, [a])
        log.extend(events)
    return state, log


def test_the_default_is_gamebenchs_program() -> None:
    config = GAME.preset(GAME.default_preset)
    assert settings(config) == ("code", "share")
    assert settings(CARDS) == ("cards", "win")
    assert settings(GAME.preset("gamebench_wip")) == ("cards", "win")
    assert GAME.preset("gamebench_wip").inert and not config.inert


def test_the_disrupts_owner_chooses_both_flips() -> None:
    flips: dict[str, list[tuple[int, int]]] = {}
    for name, config in (("code", CODE), ("cards", CARDS)):
        state, log = run(GOLDEN[:11], config)
        d = RULES.pending(state)
        assert d is not None and d.kind == "disrupt"
        # the second Disrupt flip: who decides, whose cards are offered
        flips[name] = [(d.seats[0], a.owner) for a in d.legal]  # type: ignore[union-attr]
        state, log = run(GOLDEN[:12], config)
        assert [e.seat for e in log if isinstance(e, AlsFlipped) and e.ability == "Disrupt"] == [
            1,
            1 if name == "code" else 0,
        ]
    assert set(flips["code"]) == {(1, 0)}  # Player 1 owns Disrupt and flips Player 0's card
    assert set(flips["cards"]) == {(0, 0)}
    view = AlsView(1).sync(run(GOLDEN[:11], CODE)[1])
    d = RULES.pending(run(GOLDEN[:11], CODE)[0])
    assert "uncovered card of the other player's" in AlsPrompter().decision_prompt(
        view, d, "", None
    )


def _reinforce_under_containment(config: AlsConfig) -> AlsPlayed:
    """Seat 0's Reinforce in the middle theatre draws while the other seat's Containment is
    face up; the drawn card goes face down next door."""
    state, _ = RULES.start(config, 0, SEATS)
    left, middle, _right = state.order
    state.lanes[left][1].append(("A5", True))
    state.lanes[middle][0].append(("L1", True))
    for pile in (state.hands[0], state.hands[1], state.deck):
        for card in ("A5", "L1"):
            if card in pile:
                pile.remove(card)
    state.queue = [Task("reinforce", 0, "L1", middle)]
    state.drawn[0] = state.deck.pop(0)
    d = RULES.pending(state)
    assert d is not None and Reinforce(theatre=left) in d.legal
    _, events = RULES.step(state, d, [Reinforce(theatre=left)])
    return next(e for e in events if isinstance(e, AlsPlayed))


def test_reinforces_card_escapes_containment_only_in_gamebenchs_program() -> None:
    assert _reinforce_under_containment(CODE).destroyed is None
    assert _reinforce_under_containment(CARDS).destroyed == "Containment"


@pytest.mark.parametrize("card", ["S2", "L4"])
def test_escalation_and_cover_fire_do_nothing_in_the_leftmost_theatre(card: str) -> None:
    order = ("Air", "Land", "Sea")
    for where in ("Air", "Land"):
        other = "Sea"
        lanes: dict[str, list[list[tuple[str, bool]]]] = {t: [[], []] for t in order}
        lanes[where][0] = [("A6", False), (card, True)]  # a face-down card under it
        lanes[other][0] = [("L6", False)]
        for left_void in (False, True):
            active = not (left_void and where == "Air")
            got = strengths(order, lanes, (), left_void=left_void)
            boosted = 4 if active else 2
            assert got[order.index(where)][0] == boosted + {"S2": 2, "L4": 4}[card]
            assert got[order.index(other)][0] == (boosted if card == "S2" else 2)


def test_the_leftmost_theatre_moves_right_and_scores_are_shares() -> None:
    for config, rotated in ((CODE, ("Land", "Sea", "Air")), (CARDS, ("Sea", "Air", "Land"))):
        _, log = run([Withdraw()], config)
        began = [e.order for e in log if isinstance(e, AlsBattleBegan)]
        assert began == [("Air", "Land", "Sea"), rotated]
    fractional = 0
    for seed in range(8):
        record = play_game(CODE, seed, ["random", "random"])
        end = record.events[-1]
        assert isinstance(end, AlsEnded) and end.winner is not None
        assert end.scores == tuple(v / sum(end.vp) for v in end.vp)
        fractional += min(end.scores) > 0
    assert fractional >= 2
    assert verify(record.events).ok


def test_games_of_rules_1_0_0_still_verify() -> None:
    path = Path(__file__).parent / "data" / "air_land_sea-1.0.0.jsonl"
    lines = path.read_text().splitlines()
    log = [GAME.decoder.decode(line) for line in lines]
    assert log[0].engine_version == "1.0.0"
    assert encode_each(log) == lines
    state = RULES.fold(log)
    assert (state.rules, state.score) == ("cards", "win")
    assert log[-1].scores in ((1.0, 0.0), (0.0, 1.0))
    assert any(isinstance(e, AlsFlipped) and e.ability == "Disrupt" for e in log)
    assert verify(log).ok


def test_the_prompt_of_the_default_rules(snapshot: SnapshotAssertion) -> None:
    state, log = run(GOLDEN[:11], CODE)
    d = RULES.pending(state)
    view = AlsView(1).sync(log)
    prompter = AlsPrompter()
    assert prompter.decision_prompt(view, d, "", None) == snapshot


def test_a_battle_counts_strengths_as_gamebenchs_program_last_set_them() -> None:
    """GameBench refreshes a card's strength only as it builds an observation, so a battle's
    count can miss an Escalation or Cover Fire played or flipped after the last look."""
    stale = 0
    for config in (CODE, CARDS):
        for seed in range(16):
            log = play_game(config, seed, ["random", "random"]).events
            for k, e in enumerate(log):
                if isinstance(e, AlsBattleEnded) and e.reason == "theatres":
                    state = RULES.fold(log[:k])
                    assert e.strengths == tuple(state.counted())
                    if e.strengths != tuple(state.strengths()):
                        assert config is CODE
                        stale += 1
    assert stale >= 1


def _after_a_maneuver_flip(config: AlsConfig) -> list[str]:
    """A Maneuver and an Ambush wait (as after a Disrupt's two flips); the Maneuver turns the
    other seat's face-down Transport face up. The kinds of the abilities waiting then."""
    state, _ = RULES.start(config, 0, SEATS)
    left, middle, right = state.order
    for pile in (*state.hands, state.deck):
        pile[:] = [c for c in pile if c not in ("A3", "L2", "S1", "A6")]
    state.lanes[middle][0].append(("A3", True))
    state.lanes[left][1].append(("S1", False))
    state.lanes[right][1].append(("L2", True))
    state.lanes[right][0].append(("A6", True))
    state.queue = [Task("maneuver", 0, "A3", middle), Task("ambush", 1, "L2", right)]
    d = RULES.pending(state)
    assert d is not None and d.kind == "maneuver"
    state, _ = RULES.step(state, d, [Flip(owner=1, theatre=left)])
    return [t.kind for t in state.queue]


def test_an_ability_set_off_inside_another_acts_first_in_gamebenchs_program() -> None:
    assert _after_a_maneuver_flip(CODE) == ["transport", "ambush"]
    assert _after_a_maneuver_flip(CARDS) == ["ambush", "transport"]
