"""GameBench Two Rooms and a Boom: the rules played by hand, any play against the
invariants, cards and the other room's talk kept from a seat (view, prompt, timeline and
viewer page), the prompts, answers read, and the code agents."""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents.gamebench.two_rooms import RandomAgent, SleuthAgent
from cli.web.app import _views
from cli.web.data import api_events, game_data
from engine.gamebench.common import Explain
from engine.gamebench.two_rooms import (
    RULES,
    HostageTurn,
    KeepQuiet,
    Say,
    Send,
    Show,
    TalkTurn,
    TrState,
    set_up,
)
from events import agent as ae
from events import catalog
from events.codec import encode, encode_each
from events.config import SeatSpec
from events.gamebench import two_rooms as te
from events.gamebench.two_rooms import HEADINGS, TwoRoomsConfig
from events.store import DuckStore
from projections.gamebench.two_rooms import (
    TwoRoomsPrompter,
    TwoRoomsView,
    parse_answer,
    seat_lens,
    timeline,
)
from projections.replay import observation_at
from projections.timeline import timeline as show_timeline
from runner.replay import verify
from runner.session import game_row, play_game

GAME = catalog.get("gamebench:two_rooms_and_a_boom")
CONFIG = TwoRoomsConfig(roles="dealt", talk="open", name="dealt")
"""The tests below play open talk (the `open` preset; test_two_rooms_ask.py plays GameBench's
questions and answers, the default) with cards that tell roles; `HIDDEN` tells only colours."""
HIDDEN = TwoRoomsConfig(talk="open")
SEATS = tuple(SeatSpec(agent="test") for _ in range(6))
NAMES = ("C", "A", "E", "F", "D", "B")
ROOMS = (0, 0, 1, 1, 0, 1)
"""Room 0: seats 0 (C), 1 (A), 4 (D); room 1: seats 2 (E), 3 (F), 5 (B)."""
LEADERS = (0, 3)
CARDS = (("blue", ""), ("blue", "president"), ("blue", ""), ("red", ""), ("red", "bomber"))
CARDS += (("red", ""),)


def table(
    cards: tuple[tuple[str, str], ...] = CARDS, config: TwoRoomsConfig = CONFIG
) -> tuple[TrState, list[Any]]:
    """A game at its first turn to talk with a chosen set-up."""
    events: list[Any] = [
        te.TrStarted(seed=0, config=config, seats=SEATS, engine_version=RULES.version),
        te.TrSetUp(names=NAMES, rooms=ROOMS, leaders=LEADERS),
    ]
    events += [
        te.TrCardDealt(seat=s, colour=c, role=r)  # type: ignore[arg-type]
        for s, (c, r) in enumerate(cards)
    ]
    return RULES.fold(events), events


def play(state: TrState, log: list[Any], *actions: Any) -> TrState:
    """Apply actions one decision at a time, appending their events to `log`."""
    for a in actions:
        d = RULES.pending(state)
        assert d is not None, "the game is over"
        state, evs = RULES.step(state, d, [a])
        log.extend(evs)
    return state


def quiet_until(state: TrState, log: list[Any], stop: Callable[[Any], bool]) -> TrState:
    """Every seat keeps quiet and every leader sends its first choice until `stop`."""
    while (d := RULES.pending(state)) is not None and not stop(d):
        a = KeepQuiet(seat=d.seats[0]) if isinstance(d, TalkTurn) else d.legal[0]
        state = play(state, log, a)
    return state


def test_the_set_up_comes_from_the_seed() -> None:
    names, rooms, leaders, cards = set_up(CONFIG, 5)
    assert sorted(names) == list("ABCDEF") and sorted(rooms) == [0, 0, 0, 1, 1, 1]
    assert [rooms[leaders[0]], rooms[leaders[1]]] == [0, 1]
    assert [c for c, _ in cards] == ["blue"] * 3 + ["red"] * 3
    assert [r for _, r in cards[:3]].count("president") == 1
    assert [r for _, r in cards[3:]].count("bomber") == 1
    assert set_up(CONFIG, 5) == (names, rooms, leaders, cards)
    assert len({set_up(CONFIG, s) for s in range(20)}) > 15


def test_a_round_talks_in_name_order_then_the_hostages_cross() -> None:
    s, log = table()
    order = []
    while isinstance(d := RULES.pending(s), TalkTurn):
        order.append((NAMES[d.seats[0]], d.room, d.turn))
        s = play(s, log, KeepQuiet(seat=d.seats[0]))
    # Room 0 (A, C, D) twice round, then room 1 (B, E, F) twice round.
    assert order == [(n, r, t) for r, names in ((0, "ACD"), (1, "BEF")) for t in (1, 2)
                     for n in names]  # fmt: skip
    d = RULES.pending(s)
    assert isinstance(d, HostageTurn) and d.seats == (0,) and d.room == 0
    assert [a.hostages for a in d.legal] == [(1,), (4,)]  # never the leader itself
    s = play(s, log, Send(seat=0, hostages=(4,)))
    assert log[-1] == te.TrHostagesChosen(seat=0, round=1, room=0, hostages=(4,))
    assert log[-1].audience() == (0,)
    d = RULES.pending(s)
    assert isinstance(d, HostageTurn) and d.seats == (3,) and d.room == 1
    s = play(s, log, Send(seat=3, hostages=(2,)))
    assert log[-2:] == [
        te.TrHostagesChosen(seat=3, round=1, room=1, hostages=(2,)),
        te.TrHostagesSwapped(round=1, sent=((4,), (2,))),
    ]
    assert log[-1].audience() is None
    assert s.rooms == (0, 0, 0, 1, 1, 1) and s.round == 2 and s.pos == 0


def test_talk_is_heard_in_the_room_and_a_shown_card_by_two() -> None:
    s, log = table()
    s = play(s, log, Say(seat=1, text="  I am\n blue  "), Show(seat=0, to=4, what="colour"))
    s = play(s, log, Show(seat=4, to=1, what="card"))
    said, shown, card = log[-3:]
    assert said == te.TrSaid(seat=1, round=1, room=0, text="I am blue", hearers=(1, 0, 4))
    assert shown == te.TrShown(seat=0, to=4, round=1, room=0, what="colour", colour="blue", role="")
    assert card.role == "bomber" and card.audience() == (4, 1)
    assert TwoRoomsView(2).sync(log).talk == []
    seen = TwoRoomsView(1).sync(log)
    assert seen.known[4].role == "bomber" and seen.talk == [(1, 0, 1, "I am blue")]


def test_red_wins_with_the_bomber_in_the_presidents_room() -> None:
    s, log = table()
    # Round 1: D (the Bomber) leaves room 0, E comes; round 2: E goes back, B comes;
    # round 3: B goes back and D returns to the President's room.
    plan = {1: ((4,), (2,)), 2: ((2,), (5,)), 3: ((5,), (4,))}
    for rnd in (1, 2, 3):
        s = quiet_until(s, log, lambda d: isinstance(d, HostageTurn))
        s = play(s, log, Send(seat=0, hostages=plan[rnd][0]), Send(seat=3, hostages=plan[rnd][1]))
    end = log[-1]
    assert isinstance(end, te.TrEnded) and RULES.pending(s) is None
    assert end.winner == "red" and end.president_room == end.bomber_room == 0
    assert end.scores == (0.0, 0.0, 0.0, 1.0, 1.0, 1.0) and end.ranks == (4, 4, 4, 1, 1, 1)
    assert end.cards == CARDS


def test_blue_wins_with_the_two_apart() -> None:
    s, log = table()
    s = quiet_until(s, log, lambda d: False)
    end = log[-1]
    assert isinstance(end, te.TrEnded) and end.winner == "blue"
    assert end.scores == (1.0, 1.0, 1.0, 0.0, 0.0, 0.0)
    assert sum(isinstance(e, te.TrKeptQuiet) for e in log) == 3 * 12
    assert len([e for e in log if isinstance(e, te.TrHostagesSwapped)]) == 3


def test_a_long_message_is_cut_and_bad_actions_fall_back() -> None:
    s, log = table()
    s = play(s, log, Say(seat=1, text="x" * 500))
    refused, said = log[-2:]
    assert isinstance(refused, te.TrRequestRefused) and "at most 200" in refused.reason
    assert refused.audience() == (1,) and said.text == "x" * 200
    s = play(s, log, Show(seat=0, to=2, what="card"))  # seat 2 is in the other room
    assert isinstance(log[-2], te.TrRequestRefused) and log[-1] == te.TrKeptQuiet(
        seat=0, round=1, room=0, hearers=(1, 0, 4)
    )
    s = play(s, log, "not an action", Say(seat=1, text="   "))
    assert [type(e).__name__ for e in log[-3:]] == [
        "TrRequestRefused",
        "TrKeptQuiet",
        "TrKeptQuiet",
    ]
    s = quiet_until(s, log, lambda d: isinstance(d, HostageTurn))
    s = play(s, log, Send(seat=0, hostages=(0,)))  # a leader never sends itself
    assert isinstance(log[-2], te.TrRequestRefused) and log[-2].audience() == (0,)
    assert isinstance(log[-1], te.TrHostagesChosen) and log[-1].hostages in ((1,), (4,))
    s = play(s, log, Send(seat=3, hostages=5))  # type: ignore[arg-type]
    assert isinstance(log[-3], te.TrRequestRefused) and log[-3].seat == 3
    assert isinstance(log[-1], te.TrHostagesSwapped) and s.round == 2


def test_a_message_is_one_printable_line_and_a_text_that_is_no_text_is_refused() -> None:
    """Control characters (terminal escapes, bidi overrides, NUL) never reach the room; a
    `text` that is not a string is refused in one line, not kept quiet in silence."""
    s, log = table()
    s = play(s, log, Say(seat=1, text="a\x1b[31mb\u202ec\x00d\u200be\r\nf"))
    assert log[-1] == te.TrSaid(seat=1, round=1, room=0, text="a [31mb c d e f", hearers=(1, 0, 4))
    s = play(s, log, Say(seat=0, text=12345))  # type: ignore[arg-type]
    refused, quiet = log[-2:]
    assert isinstance(refused, te.TrRequestRefused) and refused.reason == "a message is text"
    assert isinstance(quiet, te.TrKeptQuiet) and quiet.seat == 0


def test_explain_shows_a_heading_once_and_asks_again_within_an_allowance() -> None:
    s, log = table()
    s = play(s, log, Explain(heading="hostages"))
    assert log[-1] == te.TrRuleExplained(seat=1, heading="Hostages", round=1)
    assert log[-1].audience() == (1,)
    s = play(s, log, Explain(heading="Hostages"), Explain(heading="Nope"))
    assert [e.reason[:20] for e in log[-2:]] == ["the rules under 'Hos", "no rules under the h"]
    s = play(s, log, Explain(heading="Winning"), Explain(heading="Teams and cards"))
    assert RULES.pending(s).seats == (1,)  # type: ignore[union-attr]
    s = play(s, log, Explain(heading="Rooms and leaders"))
    assert "no explanation requests left" in log[-2].reason
    assert log[-1] == te.TrKeptQuiet(seat=1, round=1, room=0, hearers=(1, 0, 4))


# --------------------------------------------------------------------------- any play


def _action(data: st.DataObject, d: Any) -> Any:
    seat = d.seats[0]
    pick = data.draw(st.integers(0, 12))
    if pick == 0:
        return Explain(heading=data.draw(st.sampled_from([*HEADINGS, "x"])))
    if pick == 1:
        return Send(seat=seat, hostages=(data.draw(st.integers(-1, 6)),))
    if pick == 2:
        return Show(seat=seat, to=data.draw(st.integers(0, 5)), what="card")
    if isinstance(d, TalkTurn) and pick < 7:
        return Say(seat=seat, text=data.draw(st.text(max_size=260)))
    return data.draw(st.sampled_from(d.legal))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**63 - 1), data=st.data())
def test_any_play_keeps_the_invariants(seed: int, data: st.DataObject) -> None:
    s, log = RULES.start(CONFIG, seed, SEATS)
    leaders = s.leaders
    decisions = 0
    while (d := RULES.pending(s)) is not None:
        s, evs = RULES.step(s, d, [_action(data, d)])
        log.extend(evs)
        decisions += 1
        assert decisions <= RULES.max_decisions(CONFIG)
        assert sorted(s.rooms) == [0, 0, 0, 1, 1, 1]
        assert [s.rooms[leaders[0]], s.rooms[leaders[1]]] == [0, 1]
    end = log[-1]
    assert isinstance(end, te.TrEnded) and sorted(end.scores) == [0, 0, 0, 1, 1, 1]
    assert len(set(end.scores[:3])) == len(set(end.scores[3:])) == 1
    assert RULES.fold(log) == s
    assert [GAME.decoder.decode(encode(e)) for e in log] == log
    rooms = list(log[1].rooms)
    for e in log:
        if isinstance(e, te.TrRequestRefused | te.TrRuleExplained | te.TrCardDealt):
            assert e.audience() == (e.seat,)
        if isinstance(e, te.TrSaid | te.TrKeptQuiet):
            assert set(e.hearers) == {p for p, r in enumerate(rooms) if r == e.room}
            assert rooms[e.seat] == e.room
        if isinstance(e, te.TrSaid):
            assert 0 < len(e.text) <= CONFIG.max_message and "\n" not in e.text
        if isinstance(e, te.TrShown):
            assert rooms[e.seat] == rooms[e.to] == e.room and e.seat != e.to
        if isinstance(e, te.TrHostagesSwapped):
            for room, sent in enumerate(e.sent):
                for p in sent:
                    rooms[p] = 1 - room


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**63 - 1))
def test_code_agents_games_replay_and_verify(seed: int) -> None:
    record = play_game(CONFIG, seed, ["sleuth", "random", "sleuth", "random", "sleuth", "random"])
    assert verify(record.events).ok


def test_sleuths_beat_random_players_on_either_team() -> None:
    blue = red = 0.0
    for seed in range(30):
        a = play_game(CONFIG, seed, ["sleuth"] * 3 + ["random"] * 3).result
        b = play_game(CONFIG, seed, ["random"] * 3 + ["sleuth"] * 3).result
        assert a is not None and b is not None
        blue += a.scores[0]
        red += b.scores[3]
    assert blue / 30 > 0.6 and red / 30 > 0.45


def test_the_code_agents_act_on_their_decisions() -> None:
    s, log = table()
    d = RULES.pending(s)
    assert isinstance(d, TalkTurn)
    # A (seat 1, the President) first shows its colour to its leader C (seat 0).
    assert SleuthAgent(1, 1, CONFIG).act(TwoRoomsView(1).sync(log), d) == Show(
        seat=1, to=0, what="colour"
    )
    assert isinstance(
        RandomAgent(1, 1, CONFIG).act(TwoRoomsView(1).sync(log), d), Say | KeepQuiet | Show
    )
    s = play(s, log, Show(seat=1, to=0, what="card"), Show(seat=0, to=4, what="colour"))
    s = play(s, log, Show(seat=4, to=0, what="card"))
    s = quiet_until(s, log, lambda d: isinstance(d, HostageTurn))
    # C leads room 0 with the President A: it sends the Bomber D away.
    assert SleuthAgent(0, 1, CONFIG).act(TwoRoomsView(0).sync(log), RULES.pending(s)) == Send(
        seat=0, hostages=(4,)
    )


def test_golden_playthrough(snapshot: Any) -> None:
    """A whole game of code agents as every seat reads it (regenerate: --snapshot-update)."""
    record = play_game(CONFIG, 3, ["sleuth"] * 3 + ["random"] * 3)
    seen = {str(seat): timeline(record.events, seat) for seat in (None, 0, 4)}
    assert seen == snapshot


# --------------------------------------------------------------------------- what a seat sees

_IDS = itertools.count()


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DuckStore]:
    """One real DuckDB store for the module's games."""
    path: Path = tmp_path_factory.mktemp("tworooms") / "privacy.duckdb"
    with DuckStore(path) as s:
        yield s


def _page(store: DuckStore, log: list[Any], seat: int) -> bytes:
    """The viewer's data for `seat` (less the game's id and date) and its events API."""
    game_id = f"tr{next(_IDS):06d}"
    turns, turn = [], 0
    for e in log:
        turn = RULES.turn_of(e, turn)
        turns.append(turn)
    store.save_game(game_row(game_id, CONFIG, 0, SEATS, None), log, turns)
    data = game_data(store.con, game_id, seat)
    data.pop("game")
    data["api"] = api_events(store.con, game_id, seat)
    return msgspec.json.encode(data, order="deterministic")


def _seen(store: DuckStore, log: list[Any], seat: int) -> dict[str, Any]:
    d = RULES.pending(RULES.fold(log))
    assert d is not None and d.seats == (seat,)
    view = TwoRoomsView(seat).sync(log)
    return {
        "snapshot": encode(view.snapshot(d)),
        "prompts": [
            TwoRoomsPrompter(mode=m).decision_prompt(view, d, "", None) for m in ("prompt", "cot")
        ],
        "timeline": timeline(log, seat),
        "page": _page(store, log, seat),
    }


def _scripted(cards: tuple[tuple[str, str], ...], other_room: str) -> list[Any]:
    """Two rounds up to the second hostage choice of C (seat 0, leader of room 0): room 0
    talks and shows the same every time; room 1's words come from `other_room`; A (seat 1)
    shows C only its colour, D (seat 4) only its colour, so C never sees a role."""
    s, log = table(cards)
    said = itertools.count()
    while (d := RULES.pending(s)) is not None:
        seat = d.seats[0]
        if d.round == 2 and isinstance(d, HostageTurn) and seat == 0:
            return log
        if isinstance(d, HostageTurn):
            a: Any = d.legal[-1] if d.round == 1 else d.legal[0]
        elif d.room == 1:
            a = Say(seat=seat, text=f"{other_room} {next(said)}")
            if seat == 5 and d.turn == 1:
                a = (
                    Explain(heading="Winning")
                    if other_room == "x"
                    else Show(seat=5, to=3, what="card")
                )
        elif seat in (1, 4) and d.turn == 1 and d.round == 1:
            a = Show(seat=seat, to=0, what="colour")
        else:
            a = Say(seat=seat, text=f"hello from {NAMES[seat]}")
        s = play(s, log, a)
    raise AssertionError("the script ended the game")


def test_a_seat_sees_neither_hidden_cards_nor_the_other_rooms_talk(store: DuckStore) -> None:
    """Swap test: the President and the Bomber moved to other seats C was never shown, and
    everything room 1 said and did replaced (a rule request included): seat 0's view,
    prompts, timeline and viewer page are byte-identical."""
    base = _scripted(CARDS, "y")
    moved = list(CARDS)
    moved[1], moved[2] = moved[2], moved[1]  # the President: A (room 0) -> E (room 1)
    moved[4], moved[5] = moved[5], moved[4]  # the Bomber: D (room 0) -> B (room 1)
    other = _scripted(tuple(moved), "x")
    assert base != other
    assert _seen(store, base, 0) == _seen(store, other, 0)
    # Seat 1 holds the President in one and not in the other, and sees it.
    assert TwoRoomsView(1).sync(base).role != TwoRoomsView(1).sync(other).role


def test_prompts(snapshot: Any) -> None:
    s, log = table()
    s = play(s, log, Explain(heading="Hostages"), Say(seat=1, text="I am blue, who leads?"))
    s = play(s, log, Show(seat=0, to=1, what="card"), Show(seat=4, to=1, what="colour"))
    talk = TwoRoomsPrompter().decision_prompt(TwoRoomsView(1).sync(log), RULES.pending(s), "", None)
    s = quiet_until(s, log, lambda d: isinstance(d, HostageTurn))
    lead = TwoRoomsPrompter(mode="cot").decision_prompt(
        TwoRoomsView(0).sync(log), RULES.pending(s), "", None
    )
    assert "* Hostages:" in talk and "C: blue, no role" in talk and "D: red (colour only)" in talk
    assert "Say: <your message>" in talk and "Send A\nSend D" in lead
    assert "think out loud" in lead and "You are player C. Your card: BLUE" in lead
    assert {"talk": talk, "lead_cot": lead} == snapshot


@pytest.mark.parametrize(
    ("text", "kind", "expected"),
    [
        ("Let me think.\nAction: Say: I am blue", "talk", Say(seat=1, text="I am blue")),
        ('Action: say: "trust me"', "talk", Say(seat=1, text="trust me")),
        ("Action: Keep quiet", "talk", KeepQuiet(seat=1)),
        ("pass", "talk", KeepQuiet(seat=1)),
        ("Action: show card to d", "talk", Show(seat=1, to=4, what="card")),
        ("Action: Show colour to C", "talk", Show(seat=1, to=0, what="colour")),
        ("Action: Explain(Winning)", "talk", Explain(heading="Winning")),
        ("Action: Send D", "lead", Send(seat=0, hostages=(4,))),
        ("Action: d", "lead", Send(seat=0, hostages=(4,))),
        ("Action: Send C", "lead", None),
        ("Action: dance", "talk", None),
        ("", "talk", None),
    ],
)
def test_answers_are_read(text: str, kind: str, expected: Any) -> None:
    s, log = table()
    if kind == "lead":
        s = quiet_until(s, log, lambda d: isinstance(d, HostageTurn))
    d = RULES.pending(s)
    action, _, error = parse_answer(text, d, d.seats[0])  # type: ignore[union-attr]
    assert action == expected and (error is None) == (expected is not None)


@settings(max_examples=60, deadline=None)
@given(text=st.text(max_size=80), lead=st.booleans())
def test_any_answer_is_read_or_refused_in_one_line(text: str, lead: bool) -> None:
    s, log = table()
    if lead:
        s = quiet_until(s, log, lambda d: isinstance(d, HostageTurn))
    d = RULES.pending(s)
    assert d is not None
    action, stage, error = parse_answer(text, d, d.seats[0])
    assert (action is None) == (error is not None) and isinstance(stage, str)
    if error is not None:
        assert "\n" not in error and len(error) < 200
    if action is not None:  # whatever was read, the rules take it without raising
        RULES.step(s, d, [action])


def test_structured_answers_list_the_choices_and_the_headings_left() -> None:
    s, log = table()
    s = play(s, log, Explain(heading="Winning"))
    schema = TwoRoomsPrompter().answer_schema(TwoRoomsView(1).sync(log), RULES.pending(s))
    pattern = schema["properties"]["action"]["pattern"]
    assert pattern.startswith("^(Say: .+|Keep\\ quiet|") and "Explain\\(" in pattern
    assert "Winning" not in pattern.split("Explain")[1]
    s = quiet_until(s, log, lambda d: isinstance(d, HostageTurn))
    schema = TwoRoomsPrompter().answer_schema(TwoRoomsView(0).sync(log), RULES.pending(s))
    assert schema["properties"]["action"]["enum"][:2] == ["Send A", "Send D"]
    action, stage, _ = parse_answer('{"action": "Send A"}', RULES.pending(s), 0)
    assert action == Send(seat=0, hostages=(1,)) and stage == "json"


def _random_game(seed: int, viewer: int) -> tuple[list[Any], int]:
    """The actions of a random game and how many of them come before the viewer's last
    decision."""
    rng = random.Random(seed)
    s, _ = RULES.start(CONFIG, seed, SEATS)
    actions: list[Any] = []
    cut = 0
    while (d := RULES.pending(s)) is not None:
        if d.seats == (viewer,):
            cut = len(actions)
        seat = d.seats[0]
        if isinstance(d, TalkTurn) and rng.random() < 0.4:
            a: Any = Say(seat=seat, text=f"word {rng.randrange(1000)}")
        elif rng.random() < 0.05:
            a = Explain(heading=rng.choice(HEADINGS))
        else:
            a = rng.choice(d.legal)
        actions.append(a)
        s, _ = RULES.step(s, d, [a])
    return actions, cut


def _replay(seed: int, cards: Any, actions: list[Any], viewer: int, other: str) -> list[Any]:
    """The log of `actions` on the seed's set-up with `cards` dealt, each message said out
    of the viewer's room ending with `other`."""
    names, rooms, leaders, _ = set_up(CONFIG, seed)
    log: list[Any] = [
        te.TrStarted(seed=seed, config=CONFIG, seats=SEATS, engine_version=RULES.version),
        te.TrSetUp(names=names, rooms=rooms, leaders=leaders),
    ]
    log += [te.TrCardDealt(seat=i, colour=c, role=r) for i, (c, r) in enumerate(cards)]
    s = RULES.fold(log)
    for a in actions:
        d = RULES.pending(s)
        assert d is not None
        if isinstance(a, Say) and s.rooms[a.seat] != s.rooms[viewer]:
            a = Say(seat=a.seat, text=a.text + other)
        s, evs = RULES.step(s, d, [a])
        log.extend(evs)
    return log


@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(seed=st.integers(0, 2**32 - 1), viewer=st.integers(0, 5))
def test_any_game_hides_what_a_seat_was_not_shown(store: DuckStore, seed: int, viewer: int) -> None:
    """Swap test over random games: at the seat's last decision, the roles of the cards it
    never saw whole are passed round among the seats of the same colour, and everything said
    in the other room is changed; the seat's view, prompts, timeline and page do not move."""
    actions, cut = _random_game(seed, viewer)
    cards = set_up(CONFIG, seed)[3]
    base = _replay(seed, cards, actions[:cut], viewer, "")
    seen_whole = {e.seat for e in base if isinstance(e, te.TrShown) and e.to == viewer
                  and e.what == "card"} | {viewer}  # fmt: skip
    moved = list(cards)
    for colour in ("blue", "red"):
        hidden = [i for i, (c, _) in enumerate(cards) if c == colour and i not in seen_whole]
        roles = [cards[i][1] for i in hidden]
        for i, r in zip(hidden, roles[1:] + roles[:1], strict=True):
            moved[i] = (colour, r)
    other = _replay(seed, tuple(moved), actions[:cut], viewer, " (changed)")
    assert _seen(store, base, viewer) == _seen(store, other, viewer)


# --------------------------------------------------------------------------- seats by letter


def _relabel(log: list[Any], to: dict[int, int], lineup: bool = True) -> list[Any]:
    """The same game with every seat `s` moved to seat `to[s]`: each player keeps its letter,
    card, room, words and (with `lineup`) agent, only the seat numbers behind the letters
    change."""

    def m(seats: Any) -> tuple[int, ...]:
        return tuple(to[s] for s in seats)

    def per_seat(values: Any) -> tuple[Any, ...]:
        out = [None] * len(values)
        for s, v in enumerate(values):
            out[to[s]] = v
        return tuple(out)

    rep = msgspec.structs.replace
    out: list[Any] = []
    for e in log:
        match e:
            case te.TrStarted() if lineup:
                e = rep(e, seats=per_seat(e.seats))
            case te.TrSetUp():
                e = rep(e, names=per_seat(e.names), rooms=per_seat(e.rooms), leaders=m(e.leaders))
            case te.TrSaid() | te.TrKeptQuiet():
                e = rep(e, seat=to[e.seat], hearers=m(e.hearers))
            case te.TrShown():
                e = rep(e, seat=to[e.seat], to=to[e.to])
            case te.TrHostagesChosen():
                e = rep(e, seat=to[e.seat], hostages=tuple(sorted(m(e.hostages))))
            case te.TrHostagesSwapped():
                e = rep(e, sent=tuple(tuple(sorted(m(x))) for x in e.sent))
            case te.TrRolesDrawn():
                e = rep(e, president=to[e.president], bomber=to[e.bomber])
            case te.TrEnded():
                e = rep(
                    e,
                    rooms=per_seat(e.rooms),
                    cards=per_seat(e.cards),
                    scores=per_seat(e.scores),
                    ranks=per_seat(e.ranks),
                )
            case te.TrStarted():
                pass
            case _ if hasattr(e, "seat"):
                e = rep(e, seat=to[e.seat])
        out.append(e)
    return out


MOVE = {0: 0, 1: 4, 4: 1, 2: 3, 3: 5, 5: 2}
"""Seat 0 stays; every other player moves to a seat of the other team."""


def _store(store: DuckStore, log: list[Any]) -> str:
    game_id = f"tr{next(_IDS):06d}"
    turns, turn = [], 0
    for e in log:
        turn = RULES.turn_of(e, turn)
        turns.append(turn)
    assert isinstance(log[0], te.TrStarted)
    store.save_game(game_row(game_id, log[0].config, log[0].seed, log[0].seats, None), log, turns)
    return game_id


def _as_seen(store: DuckStore, log: list[Any], viewer: Any) -> bytes:
    """Everything `viewer` is shown of a stored copy of `log`: the timeline (`cattle show`),
    the replay observation after every event, and the viewer's page data and events API
    (less the game's id and date)."""
    game_id = _store(store, log)
    data = game_data(store.con, game_id, viewer)
    data["game"].pop("game_id")
    data["game"].pop("created_at")
    head = data_head(store, game_id)
    seen: dict[str, Any] = {
        "page": data,
        "api": api_events(store.con, game_id, viewer),
        "views": [v["label"] for v in _views(head, viewer)],
    }
    if isinstance(viewer, int):
        seen["show"] = [text for _, _, text in show_timeline(log, viewer)]
        seen["replay"] = [observation_at(log, viewer, i) for i in range(len(log))]
    return msgspec.json.encode(seen, order="deterministic")


def data_head(store: DuckStore, game_id: str) -> Any:
    from cli.web.data import game_head

    return game_head(store.con, game_id)


@pytest.fixture(scope="module", params=["dealt", "hidden"])
def played(request: pytest.FixtureRequest) -> list[Any]:
    """A whole game of code agents, one agent per team as GameBench seats them (roles
    dealt, and hidden as by default)."""
    config = CONFIG if request.param == "dealt" else HIDDEN
    return list(play_game(config, 11, ["sleuth"] * 3 + ["random"] * 3).events)


@pytest.mark.parametrize("upto", [40, None], ids=["running", "over"])
def test_a_seat_sees_the_others_by_letter_only(
    store: DuckStore, played: list[Any], upto: int | None
) -> None:
    """Swap test: the same game with the other players in other seats (each keeping its
    letter, card, room, words and agent; half of them now on the other team's seats)
    reads byte-identically to seat 0 and to the public, running and over: timeline,
    replay observations, viewer page, events API and "view as" choices. (Once the game is
    over the pages show the lineup, so there the agents stay in their seats.)"""
    base = played[:upto]
    moved = _relabel(base, MOVE, lineup=upto is not None)
    assert show_timeline(base, None) != show_timeline(moved, None)
    assert _as_seen(store, base, 0) == _as_seen(store, moved, 0)
    assert _as_seen(store, base, "public") == _as_seen(store, moved, "public")


def test_a_running_game_keeps_its_lineup_from_the_seats(
    store: DuckStore, played: list[Any]
) -> None:
    """While the game runs a seat's page shows no agent per seat (one agent fills each
    team); everyone's page does, and so does a seat's once the game is over."""
    running = _store(store, played[:40])
    over = _store(store, played)
    for game_id, viewer, shown in ((running, 0, False), (running, None, True), (over, 0, True)):
        data = game_data(store.con, game_id, viewer)
        assert (data["game"]["agents"] == ["sleuth"] * 3 + ["random"] * 3) is shown
        assert ("seats" in data["events"][0]["fields"]) is shown
        head = data_head(store, game_id)
        assert any("sleuth" in v["label"] for v in _views(head, viewer)) is shown
        assert ("sleuth" in data["events"][0]["text"]) is (viewer is None)


SEAT_WORD = re.compile(r"(?i)\b(?:seats?|players?)\W*(\d+)|\b(\d+)=")


def test_no_other_seat_number_in_a_seats_lines(store: DuckStore, played: list[Any]) -> None:
    """No line a seat reads (timeline, viewer page) names a seat number but its own, nor
    maps seats to names or agents."""
    game_id = _store(store, played)
    for seat in range(CONFIG.players):
        lines = [text for _, _, text in show_timeline(played, seat)]
        lines += [e["text"] for e in game_data(store.con, game_id, seat)["events"]]
        lines += timeline(played, seat)
        for text in lines:
            for m in SEAT_WORD.finditer(text):
                assert m.group(1) == str(seat), (seat, text)
    assert any(SEAT_WORD.search(t) for t in timeline(played, None))


def test_a_seats_defaulted_action_and_refusal_name_no_seat() -> None:
    """A seat's own defaulted action is worded by letter, and its refused raw answer (an
    action by seat number) is left out of the fields its pages show."""
    _, log = table()
    lens = seat_lens(0)
    for e in log:
        lens.line(e)
    sent = ae.ActionDefaulted(
        seat=0, decision="hostages", action=encode(Send(seat=0, hostages=(4,))).decode(),
        reason="no usable answer",
    )  # fmt: skip
    assert lens.line(sent) == "! C (you)'s hostages defaulted to sending D (no usable answer)"
    assert lens.fields(sent)["action"] == "sending D"
    refused = te.TrRequestRefused(
        seat=0, turn=1, raw=encode(Show(seat=0, to=5, what="card")).decode(), reason="not legal"
    )
    assert "raw" not in lens.fields(refused)
    assert lens.line(refused) == "! C (you): refused (not legal)"


# --------------------------------------------------------------------------- roles told to nobody


def _move_roles(log: list[Any], president: int, bomber: int) -> list[Any]:
    """The log with the hidden roles drawn for other seats (and the end left off)."""
    out = []
    for e in log:
        if isinstance(e, te.TrRolesDrawn):
            e = te.TrRolesDrawn(president=president, bomber=bomber)
        if isinstance(e, te.TrEnded):
            break
        out.append(e)
    return out


def test_the_default_cards_tell_only_the_colour() -> None:
    """GameBench tells each player its team only: no seat is dealt a role, the roles are an
    engine-only fact, a card can be shown only as a colour, and the end reveals them."""
    record = play_game(HIDDEN, 11, ["random"] * 6)
    log = record.events
    assert log[0].engine_version == RULES.version and RULES.version != "1.0.0"
    dealt = [e for e in log if isinstance(e, te.TrCardDealt)]
    assert [e.role for e in dealt] == [""] * 6
    (drawn,) = [e for e in log if isinstance(e, te.TrRolesDrawn)]
    assert drawn.audience() == () and drawn.president < 3 <= drawn.bomber
    assert not any(isinstance(e, te.TrShown) and e.what == "card" for e in log)
    end = log[-1]
    assert isinstance(end, te.TrEnded)
    assert end.cards[drawn.president][1] == "president" and end.cards[drawn.bomber][1] == "bomber"
    assert verify(log).ok


def test_a_seat_never_learns_its_role_before_the_end() -> None:
    """Moving the hidden President and Bomber to other seats of their colours changes no
    seat's view, prompt or timeline at any decision of the game."""
    log = play_game(HIDDEN, 4, ["sleuth"] * 3 + ["random"] * 3).events
    drawn = next(e for e in log if isinstance(e, te.TrRolesDrawn))
    other = _move_roles(log, (drawn.president + 1) % 3, 3 + (drawn.bomber + 1) % 3)
    base = _move_roles(log, drawn.president, drawn.bomber)
    prompter = TwoRoomsPrompter()
    asked = 0
    for n in range(3, len(base) + 1):
        d = RULES.pending(RULES.fold(base[:n]))
        if d is None or RULES.pending(RULES.fold(other[:n])) != d:
            continue
        seat = d.seats[0]
        a, b = TwoRoomsView(seat).sync(base[:n]), TwoRoomsView(seat).sync(other[:n])
        assert encode(a.snapshot(d)) == encode(b.snapshot(d))
        assert prompter.decision_prompt(a, d, "", None) == prompter.decision_prompt(b, d, "", None)
        assert "president" not in encode(a.snapshot(d)).decode().lower()
        asked += 1
    assert asked > 30
    for seat in range(6):
        assert timeline(base, seat) == timeline(other, seat)
        assert show_timeline(base, seat) == show_timeline(other, seat)


def test_the_default_prompt_states_the_team_and_no_role() -> None:
    log = play_game(HIDDEN, 2, ["random"] * 6).events
    state = RULES.fold(log[:9])
    d = RULES.pending(state)
    assert d is not None
    seat = d.seats[0]
    prompt = TwoRoomsPrompter().decision_prompt(TwoRoomsView(seat).sync(log[:9]), d, "", None)
    assert "team (it does not tell a role)." in prompt and "no special role" not in prompt
    assert "Show card" not in prompt and "Show colour to" in prompt
    explained = play(state, list(log[:9]), Explain(heading="Teams and cards"))
    view = TwoRoomsView(seat).sync(
        [*log[:9], *RULES.step(state, d, [Explain(heading="Teams and cards")])[1]]
    )
    assert "nobody is told who" in TwoRoomsPrompter().decision_prompt(
        view, RULES.pending(explained), "", None
    )


def test_games_of_rules_1_0_0_still_verify() -> None:
    """A log stored by rules 1.0.0 (every role dealt to its holder) folds and re-runs by
    those rules; new games dealing roles with open talk play the same rules today."""
    path = Path(__file__).parent / "data" / "two_rooms-1.0.0.jsonl"
    lines = path.read_text().splitlines()
    log = [GAME.decoder.decode(line) for line in lines]
    assert encode_each(log) == lines  # the stored bytes, as verification checks them
    assert log[0].engine_version == "1.0.0" and log[0].config == TwoRoomsConfig()
    assert sorted(e.role for e in log if isinstance(e, te.TrCardDealt)).count("") == 4
    assert RULES.fold(log).roles == "dealt"
    assert verify(log).ok
    dealt = play_game(CONFIG, 7, ["sleuth"] * 3 + ["random"] * 3).events  # dealt, open talk
    assert [e for e in dealt[1:] if not isinstance(e, te.TrEnded)][:8] == log[1:9]


def test_golden_playthrough_of_the_default(snapshot: Any) -> None:
    """A whole default game as every seat reads it (regenerate: --snapshot-update)."""
    record = play_game(HIDDEN, 3, ["sleuth"] * 3 + ["random"] * 3)
    seen = {str(seat): timeline(record.events, seat) for seat in (None, 0, 4)}
    assert seen == snapshot
