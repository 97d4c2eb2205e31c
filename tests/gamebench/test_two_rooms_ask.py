"""Two Rooms and a Boom with GameBench's talk (the default, `talk = "ask"`): who asks whom,
who hears, the fallbacks, the random player's empty strings, the prompts and replays."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.gamebench.two_rooms import RandomAgent
from bench.gamebench.random_stats import _decisions
from engine.gamebench.two_rooms import (
    NO_ANSWER,
    RULES,
    AnswerTurn,
    Ask,
    AskWhomTurn,
    HostageTurn,
    KeepQuiet,
    QuestionTurn,
    Say,
    TrState,
    TwoRoomsRules,
)
from events import catalog
from events.config import SeatSpec
from events.gamebench import two_rooms as te
from events.gamebench.two_rooms import TwoRoomsConfig
from projections.gamebench.two_rooms import TwoRoomsPrompter, TwoRoomsView, parse_answer
from runner.replay import verify
from runner.session import play_game

GAME = catalog.get("gamebench:two_rooms_and_a_boom")
ASK = TwoRoomsConfig()
SEATS = tuple(SeatSpec(agent="test") for _ in range(6))
NAMES = ("C", "A", "E", "F", "D", "B")
ROOMS = (0, 0, 1, 1, 0, 1)
"""Room 0: seats 0 (C), 1 (A), 4 (D); room 1: seats 2 (E), 3 (F), 5 (B)."""
LEADERS = (0, 3)
CARDS = (("blue", ""), ("blue", "president"), ("blue", ""), ("red", ""), ("red", "bomber"))
CARDS += (("red", ""),)


def table() -> tuple[TrState, list[Any]]:
    """A game at its first decision with a chosen set-up."""
    events: list[Any] = [
        te.TrStarted(seed=0, config=ASK, seats=SEATS, engine_version=RULES.version),
        te.TrSetUp(names=NAMES, rooms=ROOMS, leaders=LEADERS),
    ]
    events += [
        te.TrCardDealt(seat=s, colour=c, role="")  # type: ignore[arg-type]
        for s, (c, _) in enumerate(CARDS)
    ]
    events.append(te.TrRolesDrawn(president=1, bomber=4))
    return RULES.fold(events), events


def play(state: TrState, log: list[Any], *actions: Any) -> TrState:
    for a in actions:
        d = RULES.pending(state)
        assert d is not None
        state, evs = RULES.step(state, d, [a])
        log.extend(evs)
    return state


def test_each_player_asks_once_a_round_in_name_order_then_the_leaders_choose() -> None:
    s, log = table()
    askers = []
    while not isinstance(d := RULES.pending(s), HostageTurn):
        assert isinstance(d, AskWhomTurn)
        askers.append(d.seats[0])
        mate = d.legal[0].to
        s = play(s, log, d.legal[0])
        q = RULES.pending(s)
        assert isinstance(q, QuestionTurn) and q.seats == d.seats and q.to == mate
        s = play(s, log, Say(seat=d.seats[0], text="Which team?"))
        a = RULES.pending(s)
        assert isinstance(a, AnswerTurn) and a.seats == (mate,) and a.question == "Which team?"
        s = play(s, log, Say(seat=mate, text="Blue."))
    assert [NAMES[i] for i in askers] == ["A", "C", "D", "B", "E", "F"]
    assert d.seats == (0,)


def test_the_two_hear_the_exchange_and_a_leader_of_the_askers_colour_too() -> None:
    s, log = table()
    # A (seat 1, blue) asks D (seat 4, red); room 0's leader C (seat 0) is blue: told.
    s = play(s, log, Ask(seat=1, to=4), Say(seat=1, text="Colour?"), Say(seat=4, text="Blue"))
    asked = next(e for e in log if isinstance(e, te.TrAsked))
    answered = next(e for e in log if isinstance(e, te.TrAnswered))
    picked = next(e for e in log if isinstance(e, te.TrAskedWhom))
    assert picked.audience() == (1,) and asked.audience() == (1, 4)
    assert answered.leader == 0 and answered.audience() == (1, 4, 0)
    # C (the leader) asks A: nobody else is told; D (red) asks A: the blue leader is not told.
    s = play(s, log, Ask(seat=0, to=1), Say(seat=0, text="?"), Say(seat=1, text="!"))
    s = play(s, log, Ask(seat=4, to=1), Say(seat=4, text="?"), Say(seat=1, text="!"))
    told = [e.leader for e in log if isinstance(e, te.TrAnswered)]
    assert told == [0, -1, -1]
    view = TwoRoomsView(2).sync(log)  # E, in the other room, heard nothing of it
    assert view.exchanges == []
    assert TwoRoomsView(0).sync(log).exchanges[0] == (1, 0, 1, 4, "Colour?", "Blue")


def test_unusable_answers_fall_back_as_gamebench_does() -> None:
    s, log = table()
    s = play(s, log, KeepQuiet(seat=1))  # not a pick: one drawn from the seed, refused
    picked = [e for e in log if isinstance(e, te.TrAskedWhom)]
    assert len(picked) == 1 and picked[0].to in (0, 4)
    assert any(isinstance(e, te.TrRequestRefused) for e in log)
    s = play(s, log, KeepQuiet(seat=1))  # not a question: the exchange ends unasked
    assert isinstance(log[-1], te.TrAskSkipped)
    d = RULES.pending(s)
    assert isinstance(d, AskWhomTurn) and d.seats == (0,)  # C's turn
    s = play(s, log, Ask(seat=0, to=4), Say(seat=0, text="x" * 500), KeepQuiet(seat=4))
    asked = next(e for e in log if isinstance(e, te.TrAsked))
    answered = next(e for e in log if isinstance(e, te.TrAnswered))
    assert len(asked.text) == ASK.max_message and answered.text == NO_ANSWER


def test_the_random_player_says_empty_strings_and_a_game_takes_60_decisions() -> None:
    record = play_game(ASK, 5, ["random"] * 6)
    questions = [e.text for e in record.events if isinstance(e, te.TrAsked)]
    answers = [e.text for e in record.events if isinstance(e, te.TrAnswered)]
    assert len(questions) == len(answers) == 18 and set(questions) == set(answers) == {""}
    assert _decisions(record.events) == 60
    s, _ = table()
    d = RULES.pending(s)
    assert RandomAgent(1, 3, ASK).act(None, d) in d.legal


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    agents=st.lists(st.sampled_from(["random", "sleuth"]), min_size=6, max_size=6),
)
def test_games_replay_and_a_seat_hears_only_its_own_exchanges(seed: int, agents: list[str]) -> None:
    record = play_game(ASK, seed, agents)
    assert verify(record.events).ok
    for e in record.events:
        if isinstance(e, te.TrAnswered):
            heard = set(e.audience() or ())
            assert {e.seat, e.asker} <= heard and len(heard) <= 3


def test_games_of_rules_1_1_0_talk_openly() -> None:
    old = TwoRoomsRules("1.1.0")
    s, log = old.start(TwoRoomsConfig(), 3, SEATS)
    assert s.talk == "open" and te.talk_of(log[0]) == "open"
    d = old.pending(s)
    assert d is not None and d.kind == "talk"
    while (d := old.pending(s)) is not None:
        a = KeepQuiet(seat=d.seats[0]) if d.kind == "talk" else d.legal[0]
        s, evs = old.step(s, d, [a])
        log += evs
    assert isinstance(log[-1], te.TrEnded) and verify(log).ok  # replayed by rules 1.1.0


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Action: Say: Which team are you on?", "Which team are you on?"),
        ("Action: I am blue", "I am blue"),
        ('{"action": "Say: red"}', "red"),
    ],
)
def test_questions_and_answers_are_read_as_said(text: str, expected: str) -> None:
    s, log = table()
    s = play(s, log, Ask(seat=1, to=4))
    action, _, error = parse_answer(text, RULES.pending(s), 1)
    assert error is None and action == Say(seat=1, text=expected)


def test_the_three_prompts_of_an_exchange(snapshot: Any) -> None:
    """The pick, the question and the answer as model seats read them (regenerate:
    --snapshot-update)."""
    s, log = table()
    prompter = TwoRoomsPrompter()
    seen = {}
    for step, a in (
        ("pick", Ask(seat=1, to=4)),
        ("question", Say(seat=1, text="Which team?")),
        ("answer", Say(seat=4, text="Blue.")),
    ):
        d = RULES.pending(s)
        assert d is not None
        seat = d.seats[0]
        seen[step] = prompter.decision_prompt(TwoRoomsView(seat).sync(log), d, "", None)
        s = play(s, log, a)
    d = RULES.pending(s)
    assert d is not None
    seen["next"] = prompter.decision_prompt(TwoRoomsView(0).sync(log), d, "", None)
    assert seen == snapshot
