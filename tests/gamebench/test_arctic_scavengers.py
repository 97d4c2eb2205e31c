"""Arctic Scavengers (GameBench): a golden round, refusals and explanations, the skirmish's
ties and the end's scores, invariants of any legal play (hypothesis: cards are conserved,
every view matches the true state), seat privacy (a seat's view and prompts do not change
when what it cannot see changes), the SQL views and the viewer's frames."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from syrupy.assertion import SnapshotAssertion

from cli.web.frames import build
from engine.gamebench.arctic_scavengers import (
    RULES,
    ArcState,
    Gather,
    Hire,
    Keep,
    Stop,
    Strike,
    tribe,
)
from engine.gamebench.common import Explain
from events import catalog
from events.agent import ActionDefaulted
from events.base import visible
from events.config import SeatSpec
from events.gamebench.arctic_scavengers import (
    CONTESTED,
    JUNKYARD,
    MERCENARIES,
    START,
    ArcDealt,
    ArcDrew,
    ArcDug,
    ArcEnded,
    ArcHeld,
    ArcJunked,
    ArcKept,
    ArcPlayed,
    ArcRejected,
    ArcRevealed,
    ArcRoundStarted,
    ArcRuleExplained,
    ArcShuffled,
    ArcSkirmished,
    ArcStopped,
    ArcStruck,
    ArcSupplied,
    ArcticConfig,
)
from events.store import DuckStore
from projections.gamebench.arctic_scavengers import ArcPrompter, ArcView, describe
from runner.replay import verify
from runner.session import play_and_store, play_game

GAME = catalog.get("gamebench:arctic_scavengers")
CONFIG = ArcticConfig()
# Scripted logs: the seats are named random, but the moves are the script's, so replays
# answer them from the log (`rerun=False`) instead of playing the random agent again.
SEATS = [SeatSpec(agent="random")] * 2


def run(
    actions: list[Any], seed: int = 1, config: ArcticConfig = CONFIG
) -> tuple[ArcState, list[Any]]:
    """Feed actions to the rules, one per decision; the state and the whole log."""
    state, log = RULES.start(config, seed, [SeatSpec(agent="random")] * config.players)
    for a in actions:
        d = RULES.pending(state)
        assert d is not None, "the game ended before the actions did"
        state, events = RULES.step(state, d, [a])
        log.extend(events)
    return state, log


ROUND_ONE: list[Any] = [
    Gather(kind="draw", cards=("Scavenger",)),  # draws the Refugee on top of the deck
    Gather(kind="hunt", cards=("Scavenger", "Spear")),  # 1 + 1 food
    Hire(mercenary="Brawler", cards=()),  # 2 food
    Gather(kind="dig", cards=("Refugee", "Shovel")),  # 0 + 2: two cards
    Keep(card="Pills"),
    Stop(),  # Player 1 fights with a lone Scavenger
    Gather(kind="trash", cards=("Refugee",)),
    Stop(),  # Player 2 fights with Scavenger x2, Spear, Shovel
]


def test_golden_round() -> None:
    # Seed 1: the junkyard starts Pills, Pills, Pickaxe...; the contested pile Tribe Family,
    # Wolf Pack, ...; Player 1 is dealt Scavenger x3, Spear, Shovel over a deck whose top is
    # a Refugee; Player 2 Refugee, Scavenger x2, Spear, Shovel.
    state, log = run(ROUND_ONE)
    supplied = log[1]
    assert isinstance(supplied, ArcSupplied) and supplied.audience() == ()
    assert supplied.junkyard[:3] == ("Pills", "Pills", "Pickaxe")
    assert supplied.contested[0] == "Tribe Family"
    dealt = [e for e in log if isinstance(e, ArcDealt) and e.round == 0]
    assert [(sorted(e.hand), e.audience()) for e in dealt] == [
        (["Scavenger", "Scavenger", "Scavenger", "Shovel", "Spear"], (0,)),
        (["Refugee", "Scavenger", "Scavenger", "Shovel", "Spear"], (1,)),
    ]
    assert isinstance(log[2], ArcRoundStarted) and log[2].first == 0 and log[2].dealt == (5, 5)
    public = [e for e in log[3:] if e.audience() is None]
    assert public == [
        ArcPlayed(round=0, seat=0, action="draw", cards=("Scavenger",), value=1, drawn=1),
        ArcPlayed(round=0, seat=0, action="hunt", cards=("Scavenger", "Spear"), value=2, food=2),
        ArcPlayed(round=0, seat=0, action="hire", cards=(), hired="Brawler", food=0),
        ArcPlayed(round=0, seat=0, action="dig", cards=("Refugee", "Shovel"), value=2, drawn=2),
        ArcKept(round=0, seat=0, card="Pills", returned=1),
        ArcStopped(round=0, seat=0, committed=1),
        ArcPlayed(round=0, seat=1, action="trash", cards=("Refugee",)),
        ArcStopped(round=0, seat=1, committed=4),
        ArcRevealed(round=0, piles=(("Scavenger",), ("Scavenger", "Scavenger", "Spear", "Shovel"))),
        ArcSkirmished(round=0, fight=(1, 5), people=(1, 2), winner=1, card="Tribe Family"),
        ArcRoundStarted(round=1, first=1, dealt=(5, 5), contested_left=4),
    ]
    private = [e for e in log[3:] if e.audience() not in (None, ())]
    assert all(e.audience() == (e.seat,) for e in private)
    private = [e for e in private if not isinstance(e, ArcDealt)]
    assert private == [
        ArcDrew(round=0, seat=0, cards=("Refugee",)),
        ArcDug(round=0, seat=0, cards=("Pills", "Pills")),
    ]
    junked = next(e for e in log if isinstance(e, ArcJunked))
    assert junked.audience() == () and junked.cards == ("Refugee",)
    # The kept Pills and the hired Brawler joined Player 1's tribe; the other Pills went under
    # the junkyard; Player 2 lost a Refugee and won the Tribe Family.
    assert Counter(state.owned(0)) == Counter({**dict(START), "Brawler": 2, "Pills": 1})
    assert tribe(state.owned(0)) == 9 and tribe(state.owned(1)) == 7 - 0 + 5
    assert state.mercs["Brawler"] == 7 and state.contested == list(supplied.contested[1:])
    assert len(state.junkyard) == sum(n for _, n in JUNKYARD) - 1 + 1
    d = RULES.pending(state)
    assert d is not None and d.seats == (1,) and d.kind == "gather" and d.round == 1
    assert verify(log, rerun=False, prefix=True).ok
    data = GAME.extras["state_data"](RULES.fold(log))
    assert data["round"] == 1 and data["players"][1]["tribe"] == 12


def test_strikes_remove_cards_from_the_skirmish() -> None:
    state, _ = run(ROUND_ONE[:5])
    state.pile[1] = ["Brawler", "Spear"]
    state.pile[0] = ["Sniper Team", "Saboteur"]
    state.hand[0] = []
    state.stopped = 2
    events: list[Any] = []
    RULES._advance(state, events)
    assert isinstance(events[0], ArcRevealed)
    d = RULES.pending(state)
    assert d is not None and d.kind == "skirmish" and d.seats == (0,)
    assert d.legal == (
        Strike(kind="snipe", target=1, card="Brawler"),
        Strike(kind="sabotage", target=1, card="Spear"),
        Stop(),
    )
    state, got = RULES.step(state, d, [Strike(kind="snipe", target=1, card="Brawler")])
    assert got == [ArcStruck(round=0, seat=0, kind="snipe", target=1, card="Brawler")]
    d = RULES.pending(state)
    assert d is not None and d.legal == (Strike(kind="sabotage", target=1, card="Spear"), Stop())
    state, got = RULES.step(state, d, [Stop()])
    assert got[0] == ArcHeld(round=0, seat=0)
    # Fight 1 (the Saboteur) against 2 (the Spear): Player 2 takes the resource.
    assert isinstance(got[1], ArcSkirmished) and got[1].fight == (1, 2) and got[1].winner == 1


def test_a_tie_sends_the_resource_under_the_junkyard_and_tied_tribes_share() -> None:
    # The `tribe` rule (the `tribe` preset, rules 1.0.0): every card counts, ties share.
    state, _ = run([], config=ArcticConfig(winner="tribe", name="tribe"))
    state.contested = ["Grenade"]
    state.hand = [[], []]
    state.pile = [["Brawler"], ["Brawler"]]
    state.phase = "skirmish"
    events: list[Any] = []
    RULES._advance(state, events)
    skirmish, end = events
    assert skirmish == ArcSkirmished(
        round=0, fight=(2, 2), people=(1, 1), winner=None, card="Grenade"
    )
    assert state.junkyard[-1] == "Grenade"
    # each tribe: its eight starting people less the dealt hand this test dropped, plus a Brawler
    assert end == ArcEnded(
        reason="contested_gone", tribes=(6, 6), winner=None, scores=(0.5, 0.5), ranks=(1, 1)
    )
    assert RULES.pending(state) is None


def test_a_defaulted_answer_names_the_seat_as_the_game_does() -> None:
    # Seat 0 is "Player 0" in every line, the default line included ("(you)" for itself).
    e = ActionDefaulted(seat=0, decision="gather", action='{"type":"stop"}', reason="unreadable")
    assert describe(e, 1) == '! Player 0\'s gather defaulted to {"type":"stop"} (unreadable)'
    assert describe(e, 0) == '! Player 0 (you)\'s gather defaulted to {"type":"stop"} (unreadable)'


def test_explain_and_refusals() -> None:
    state, log = run([Explain(heading="digging AND hiring")])
    assert log[-1] == ArcRuleExplained(seat=0, heading="Digging and hiring")
    d = RULES.pending(state)
    assert d is not None and d.kind == "gather" and d.seats == (0,)
    for bad, reason in (
        (Hire(mercenary="Thug", cards=()), "not a legal action here"),  # no food yet
        (Gather(kind="dig", cards=("Shovel",)), "not a legal action here"),  # a tool alone
        ("dig everything", "not an action"),
        (Explain(heading="Digging and hiring"), "already explained"),
    ):
        _, again = run([Explain(heading="Digging and hiring"), bad, Stop()])
        rejected = [e for e in again if isinstance(e, ArcRejected)]
        assert len(rejected) == 1 and reason in rejected[0].reason
        assert rejected[0].audience() == (0,)
        assert verify(again, rerun=False, prefix=True).ok
    # Five headings, five requests: the sixth is refused and the seeded fallback plays.
    asks = [Explain(heading=h) for h in ("Cards", "Gathering", "Skirmish", "End", "Nope")]
    state, log = run(asks)
    assert RULES.pending(state).round == 0  # type: ignore[union-attr]
    _, log = run([*asks, Explain(heading="Cards")])
    last = [e for e in log if isinstance(e, ArcRejected)][-1]
    assert "no explanation requests left" in last.reason
    assert isinstance(log[-1], ArcPlayed | ArcStopped | ArcDug | ArcDrew | ArcJunked)
    assert verify(log, rerun=False, prefix=True).ok


def _all_cards(state: ArcState) -> Counter[str]:
    total: Counter[str] = Counter()
    for s in range(state.config.players):
        total.update(state.owned(s))
    total.update(state.junkyard)
    total.update(state.contested)
    total.update(state.dig or [])
    for merc, left in state.mercs.items():
        total[merc] += left
    return total


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**63 - 1),
    players=st.integers(2, 4),
    picks=st.one_of(
        st.lists(st.integers(0, 10**6), max_size=60),
        st.integers(0, 2**32).map(
            lambda k: [random.Random(k).randrange(10**6) for _ in range(400)]
        ),
    ),
)
def test_any_legal_play_keeps_the_invariants(seed: int, players: int, picks: list[int]) -> None:
    config = ArcticConfig(players=players)
    state, log = RULES.start(config, seed, [SeatSpec(agent="random")] * players)
    views = [ArcView(s) for s in range(players)]
    supply = _all_cards(state)
    decisions = 0
    for pick in picks:
        d = RULES.pending(state)
        if d is None:
            break
        state, events = RULES.step(state, d, [d.legal[pick % len(d.legal)]])
        decisions += 1
        log.extend(events)
        assert _all_cards(state) == supply
        assert all(len(state.used[s]) == len(set(state.used[s])) for s in range(players))
        for v in views:
            v.sync(log)
            s = v.seat
            assert sorted(v.hand) == sorted(state.hand[s])
            assert sorted(v.deck()) == sorted(state.reserve[s])
            assert v.people == [tribe(state.owned(o)) for o in range(players)]
            assert v.cards == [len(state.owned(o)) for o in range(players)]
            assert v.junkyard == len(state.junkyard)  # the cards a dig turned up are not in it
            assert v.mercs == state.mercs
    assert decisions <= RULES.max_decisions(config)
    if state.over:
        end = log[-1]
        assert isinstance(end, ArcEnded)
        assert end.tribes == tuple(tribe(state.owned(s)) for s in range(players))
        assert sum(end.scores) == pytest.approx(1.0)
        assert sum(isinstance(e, ArcSkirmished) for e in log) == len(CONTESTED)
    assert verify(log, rerun=False, prefix=not state.over).ok


def _hide_from(log: list[Any], seat: int) -> list[Any]:
    """The same log with what `seat` may not see changed: other hands, draws and digs, the
    order of every deck, the junkyard and the contested pile."""
    swap = {"Scavenger": "Refugee", "Refugee": "Scavenger", "Pills": "Junk", "Junk": "Pills"}

    def other(cards: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(swap.get(t, t) for t in cards)

    out = []
    for e in log:
        aud = e.audience()
        if aud is not None and seat not in aud:
            if isinstance(e, ArcDealt | ArcDrew | ArcDug):
                field = "hand" if isinstance(e, ArcDealt) else "cards"
                e = msgspec.structs.replace(e, **{field: other(getattr(e, field))})
            elif isinstance(e, ArcShuffled):
                e = msgspec.structs.replace(e, order=tuple(reversed(e.order)))
            elif isinstance(e, ArcSupplied):
                e = msgspec.structs.replace(
                    e, junkyard=tuple(reversed(e.junkyard)), contested=e.contested[::-1]
                )
            elif isinstance(e, ArcJunked):
                e = msgspec.structs.replace(e, positions=tuple(0 for _ in e.positions))
        out.append(e)
    return out


@pytest.mark.parametrize("seat", [0, 1])
def test_a_seat_sees_the_same_whatever_it_cannot_see(seat: int) -> None:
    record = play_game(CONFIG, 14, ["warlord", "warlord"])  # both dig and draw; 3 strikes
    log = list(record.events)
    assert sum(isinstance(e, ArcStruck) for e in log) == 3
    swapped = _hide_from(log, seat)
    assert swapped != log
    prompter = ArcPrompter()
    a, b = ArcView(seat), ArcView(seat)
    asked = 0
    for i in range(1, len(log) + 1):
        a.sync(log[:i])
        b.sync(swapped[:i])
        assert msgspec.json.encode(a.snapshot()) == msgspec.json.encode(b.snapshot())
        d = RULES.pending(RULES.fold(log[:i]))
        if d is not None and d.seats == (seat,) and i < len(log) and log[i].audience() != ():
            assert prompter.decision_prompt(a, d, "", None) == prompter.decision_prompt(
                b, d, "", None
            )
            asked += 1
    assert asked > 5


def test_answers_and_prompts(snapshot: SnapshotAssertion) -> None:
    state, log = run(ROUND_ONE[:4])
    d = RULES.pending(state)
    assert d is not None and d.kind == "keep" and d.seats == (0,)
    prompter = ArcPrompter()
    for text, want in (
        ("Action: Keep Pills", Keep(card="Pills")),
        ("I will pass on these.\nAction: keep nothing", Keep(card=None)),
        ("**Action:** Explain(Skirmish)", Explain(heading="Skirmish")),
    ):
        assert prompter.parse(text, d, 0)[0] == want
    assert prompter.parse("Action: Keep Pickaxe", d, 0)[0] is None  # not turned up
    view = ArcView(0).sync(log)
    state, log = run(ROUND_ONE[:7])
    d2 = RULES.pending(state)
    assert d2 is not None and d2.kind == "gather" and d2.seats == (1,)
    assert prompter.parse("Action: Stop", d2, 1)[0] == Stop()
    view2 = ArcView(1).sync(log)
    assert (
        prompter.system_prompt(CONFIG, None, 0),
        prompter.decision_prompt(view, d, "", None),
        prompter.for_seat(SimpleNamespace(mode="cot")).decision_prompt(view2, d2, "", None),
    ) == snapshot


def test_the_sql_views(tmp_path: Path) -> None:
    with DuckStore(tmp_path / "a.duckdb") as store:
        gid, record = play_and_store(store, CONFIG, 4, ["warlord", "random"])
        _, actions = store.query(
            "SELECT seat, action, value, hired FROM arc_actions WHERE game_id = ? ORDER BY seq",
            [gid],
        )
        _, fights = store.query(
            "SELECT round, winner, card FROM arc_skirmishes WHERE game_id = ? ORDER BY round",
            [gid],
        )
    played = [e for e in record.events if isinstance(e, ArcPlayed)]
    assert [tuple(r) for r in actions] == [(e.seat, e.action, e.value, e.hired) for e in played]
    assert any(r[1] == "hire" for r in actions)
    got = [e for e in record.events if isinstance(e, ArcSkirmished)]
    assert [tuple(r) for r in fights] == [(e.round, e.winner, e.card) for e in got]
    assert len(fights) == len(CONTESTED)


def test_the_viewer_frames_show_a_seat_its_own_hand_only() -> None:
    record = play_game(CONFIG, 4, ["warlord", "random"])
    mine = build(GAME, [e for e in record.events if visible(e, 0)], 0)
    every = build(GAME, record.events, None)
    assert all("Player 1 hand:" not in f["text"] for f in mine.frames)
    assert any("Player 0 hand:" in f["text"] for f in mine.frames)
    assert any("Player 1 hand:" in f["text"] for f in every.frames)


def test_the_warlord_beats_random() -> None:
    wins = 0.0
    for seed in range(6):
        for seats, me in ((["warlord", "random"], 0), (["random", "warlord"], 1)):
            end = play_game(CONFIG, seed, seats).events[-1]
            assert isinstance(end, ArcEnded)
            wins += end.scores[me]
    assert wins >= 10
    assert sum(n for _, n in MERCENARIES) == 61


def test_structured_answers_name_a_label_or_a_heading() -> None:
    state, log = run([Explain(heading="Cards"), *ROUND_ONE[:4]])
    d = RULES.pending(state)
    assert d is not None and d.kind == "keep"
    prompter = ArcPrompter().for_seat(SimpleNamespace(mode="cot"))
    schema = prompter.answer_schema(ArcView(0).sync(log), d)
    assert schema["required"] == ["reasoning", "action"]
    enum = schema["properties"]["action"]["enum"]
    assert enum[:2] == ["Keep Pills", "Keep nothing"]
    assert "Explain(Cards)" not in enum and "Explain(Skirmish)" in enum
    assert prompter.parse('{"reasoning": "medicine hires", "action": "Keep Pills"}', d, 0)[0] == (
        Keep(card="Pills")
    )
