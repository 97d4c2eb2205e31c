"""Pit (GameBench): a golden playthrough, refusals and explanations, invariants of any legal
play (hypothesis: cards are conserved, every view's hand is the true hand), seat privacy (a
seat's view and prompts do not change when what it cannot see changes), the SQL views."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from syrupy.assertion import SnapshotAssertion

from cli.web.frames import build
from engine.gamebench.common import Explain
from engine.gamebench.pit import RULES, Accept, Give, Offer, OpenTurn, Pass, PitState
from events import catalog
from events.base import visible
from events.codec import encode_each
from events.config import SeatSpec
from events.gamebench.pit import (
    COMMODITIES,
    KINDS,
    PER_COMMODITY,
    PitConfig,
    PitCornered,
    PitDealt,
    PitEnded,
    PitHiddenDealt,
    PitOffered,
    PitOfferKind,
    PitPaid,
    PitPassed,
    PitProposalVoid,
    PitProposed,
    PitRejected,
    PitRuleExplained,
    PitShuffled,
    PitStarted,
    PitSwapped,
    PitTaken,
    PitTraded,
)
from events.gamebench.pit import settings as pit_settings
from events.store import DuckStore
from projections.gamebench.pit import PitPrompter, PitView
from runner.replay import verify
from runner.session import play_and_store, play_game

GAME = catalog.get("gamebench:pit")


def blind(**kw: Any) -> PitConfig:
    """A configuration of blind trading to all 9 cards (the `blind` preset's rules)."""
    return PitConfig(trading="blind", corner=9, **{"max_turns": 100, **kw})


CONFIG = blind()
"""Most tests below play blind trading (rules 1.0.0's game); the default is open trading."""
OPEN = PitConfig()
# Scripted logs: the seats are named random, but the moves are the script's, so replays
# answer them from the log (`rerun=False`) instead of playing the random agent again.
SEATS = [SeatSpec(agent="random")] * 2
DECK_COUNTS = [PER_COMMODITY] * len(COMMODITIES) + [1, 1]


def run(
    actions: list[Any], seed: int = 1, config: PitConfig = CONFIG
) -> tuple[PitState, list[Any]]:
    """Feed actions to the rules, one per decision; the state and the whole log."""
    state, log = RULES.start(config, seed, SEATS * (config.players // 2))
    for a in actions:
        d = RULES.pending(state)
        assert d is not None, "the game ended before the actions did"
        state, events = RULES.step(state, d, [a])
        log.extend(events)
    return state, log


def test_golden_playthrough() -> None:
    # Seed 1 deals Player 1: 3 Wheat, 2 Barley, 5 Corn, 7 Soybeans, the Bull and the Bear;
    # Player 2: 6 Wheat, 7 Barley, 4 Corn, 2 Soybeans.
    state, log = run(
        [
            Offer(kind="Bear", count=1),
            Pass(),
            Offer(kind="Wheat", count=3),  # Player 2 offers three Wheat
            Give(kind="Corn"),  # Player 1 takes them for three Corn
            Offer(kind="Corn", count=2),
            Give(kind="Soybeans"),  # Player 1 now holds all nine Soybeans and the Bull
        ]
    )
    dealt = [e for e in log if isinstance(e, PitDealt) and e.round == 0]
    assert [e.hand for e in dealt] == [(3, 2, 5, 7, 1, 1), (6, 7, 4, 2, 0, 0)]
    assert [e.audience() for e in dealt] == [(0,), (1,)]
    public = [e for e in log if e.audience() is None][1:]
    assert public[:6] == [
        PitOffered(turn=0, seat=0, count=1),
        PitPassed(turn=0, seat=1),
        PitOffered(turn=1, seat=1, count=3),
        PitTraded(turn=1, offerer=1, responder=0, count=3),
        PitOffered(turn=2, seat=0, count=2),
        PitTraded(turn=2, offerer=0, responder=1, count=2),
    ]
    swaps = [e for e in log if isinstance(e, PitSwapped)]
    assert [(e.offered, e.given, e.audience()) for e in swaps] == [
        ("Wheat", "Corn", (1, 0)),
        ("Corn", "Soybeans", (0, 1)),
    ]
    # All nine Soybeans with the Bull score double, less 20 for the Bear: 2 * 55 - 20. Player
    # 2 also completed Corn in the same trade, but only the first corner (the offerer's) counts.
    corner = next(e for e in log if isinstance(e, PitCornered))
    assert corner == PitCornered(
        round=0, seat=0, commodity="Soybeans", held=9, bull=True, bear=True, gained=90,
        points=(90, 0),
    )  # fmt: skip
    assert isinstance(log[-3], PitShuffled) and log[-3].round == 1
    assert state.points == [90, 0] and state.round == 1 and state.turn == 3
    d = RULES.pending(state)
    assert d is not None and d.seats == (1,) and d.kind == "offer"
    assert verify(log, rerun=False, prefix=True).ok
    data = json.loads(json.dumps(GAME.extras["state_data"](RULES.fold(log))))
    assert data["points"] == [90, 0] and data["round"] == 1 and data["offer"] is None
    assert GAME.describe(corner, 1) == (
        "Player 0 corners Soybeans with the Bull holding the Bear: +90 points (points: 90, 0)"
    )


def test_explain_and_refusals() -> None:
    state, log = run([Explain(heading="bull and bear")])
    assert log[-1] == PitRuleExplained(seat=0, heading="Bull and Bear")
    d = RULES.pending(state)
    assert d is not None and d.kind == "offer" and d.turn == 0
    for bad, reason in (
        (Offer(kind="Wheat", count=4), "not a legal action here"),  # only 3 Wheat held
        (Give(kind="Corn"), "not a legal action here"),
        ("sell everything", "not an action"),
    ):
        _, again = run([Explain(heading="Bull and Bear"), bad])
        rejected = [e for e in again if isinstance(e, PitRejected)]
        assert len(rejected) == 1 and reason in rejected[0].reason
        assert rejected[0].audience() == (0,)
        assert isinstance(again[-1], PitOfferKind)  # the seeded fallback offer
        assert verify(again, rerun=False, prefix=True).ok


def test_refused_explain_requests_ask_again_until_none_are_left() -> None:
    asks = [
        Explain(heading="Bull and Bear"),
        Explain(heading="BULL AND BEAR"),  # already shown
        Explain(heading="Cheating"),  # no such heading
        Explain(heading="Corners"),
    ]
    state, log = run(asks)
    refused = [e for e in log if isinstance(e, PitRejected)]
    assert [e.explain for e in refused] == [True, True]
    assert "already explained" in refused[0].reason and "'Cheating'" in refused[1].reason
    d = RULES.pending(state)
    assert d is not None and d.kind == "offer" and d.turn == 0  # still asked, nothing played
    # four headings, four requests: the fifth is refused and the seeded fallback offer plays
    _, log = run([*asks, Explain(heading="Trading")])
    assert isinstance(log[-3], PitRejected) and "no explanation requests left" in log[-3].reason
    assert isinstance(log[-1], PitOfferKind)
    assert verify(log, rerun=False, prefix=True).ok


def test_the_turn_limit_ends_the_game_scored_by_shares() -> None:
    config = blind(max_turns=2)
    state, _ = run(
        [Offer(kind="Bear", count=1), Pass(), Offer(kind="Wheat", count=1)], config=config
    )
    state, events = RULES.step(state, RULES.pending(state), [Pass()])  # type: ignore[arg-type]
    end = events[-1]
    assert isinstance(end, PitEnded) and end.reason == "turn_limit"
    assert end.points == (0, 0) and end.scores == (0.5, 0.5) and end.ranks == (1, 1)
    assert RULES.pending(state) is None


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**63 - 1),
    players=st.integers(2, 4),
    picks=st.one_of(
        st.lists(st.integers(0, 10**6), max_size=150),
        st.integers(0, 2**32).map(
            lambda k: [random.Random(k).randrange(10**6) for _ in range(250)]
        ),
    ),
)
def test_any_legal_play_conserves_the_cards(seed: int, players: int, picks: list[int]) -> None:
    """Short prefixes from hypothesis, and long runs (250 picks: most games end)."""
    config = blind(players=players, max_turns=60, target=300)
    state, log = RULES.start(config, seed, [SeatSpec(agent="random")] * players)
    views = [PitView(s) for s in range(players)]
    last_points = [0] * players
    sizes = [sum(h) for h in state.hands]
    for pick in picks:
        d = RULES.pending(state)
        if d is None:
            break
        state, events = RULES.step(state, d, [d.legal[pick % len(d.legal)]])
        log.extend(events)
        for k in range(len(KINDS)):
            assert sum(h[k] for h in state.hands) == DECK_COUNTS[k]
        assert all(min(h) >= 0 for h in state.hands)
        assert [sum(h) for h in state.hands] == sizes
        assert all(p >= q for p, q in zip(state.points, last_points, strict=True))
        last_points = list(state.points)
        for v in views:
            v.sync(log)
            assert v.hand == state.hands[v.seat]
            assert list(v.points) == state.points
    if state.over:
        end = log[-1]
        assert isinstance(end, PitEnded)
        assert abs(sum(end.scores) - 1.0) < 1e-9 and all(0 <= s <= 1 for s in end.scores)
    assert verify(log, rerun=False, prefix=not state.over).ok


def _hide_from(log: list[Any], seat: int) -> list[Any]:
    """The same log with everything `seat` may not see changed (other deals, the deck, the
    kinds others offered and swapped)."""
    other = {"Wheat": "Corn", "Corn": "Wheat", "Barley": "Soybeans", "Soybeans": "Barley"}
    out = []
    for e in log:
        aud = e.audience()
        if aud is not None and seat not in aud:
            if isinstance(e, PitDealt | PitHiddenDealt):
                e = msgspec.structs.replace(e, hand=tuple(reversed(e.hand)))
            elif isinstance(e, PitPaid | PitProposalVoid):
                e = msgspec.structs.replace(e, kind=other.get(e.kind, e.kind))
            elif isinstance(e, PitShuffled):
                e = msgspec.structs.replace(e, deck=tuple(reversed(e.deck)))
            elif isinstance(e, PitOfferKind):
                e = msgspec.structs.replace(e, kind=other.get(e.kind, e.kind))
            elif isinstance(e, PitSwapped):
                e = msgspec.structs.replace(e, given=other.get(e.given, e.given))
        out.append(e)
    return out


@pytest.mark.parametrize("trading", ["blind", "open"])
@pytest.mark.parametrize("seat", [0, 1, 2])
def test_a_seat_sees_the_same_whatever_it_cannot_see(seat: int, trading: str) -> None:
    config = blind(players=3, max_turns=30)
    if trading == "open":
        config = PitConfig(players=3, max_turns=60)
    record = play_game(config, 9, ["cornerer", "random", "cornerer"])
    log = list(record.events)
    swapped = _hide_from(log, seat)
    assert swapped != log
    prompter = PitPrompter()
    a, b = PitView(seat), PitView(seat)
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
    assert asked > 0


def test_answers_and_prompts(snapshot: SnapshotAssertion) -> None:
    state, log = run([Offer(kind="Bear", count=1), Pass(), Offer(kind="Wheat", count=3)])
    d = RULES.pending(state)
    assert d is not None and d.kind == "respond" and d.seats == (0,)
    prompter = PitPrompter()
    for text, want in (
        ("Action: Give 3 Corn", Give(kind="Corn")),
        ("hmm\nAction: pass", Pass()),
        ("**Action:** Explain(Corners)", Explain(heading="Corners")),
    ):
        assert prompter.parse(text, d, 0)[0] == want
    assert prompter.parse("Action: Give 3 Bull", d, 0)[0] is None  # one Bull only
    view = PitView(0).sync(log)
    assert (
        prompter.system_prompt(CONFIG, None, 0),
        prompter.decision_prompt(view, d, "", None),
    ) == snapshot


def test_the_sql_views(tmp_path: Path) -> None:
    with DuckStore(tmp_path / "p.duckdb") as store:
        gid, record = play_and_store(store, CONFIG, 4, ["cornerer", "random"])
        _, trades = store.query(
            "SELECT turn, offerer, count, offered, responder, given FROM pit_trades"
            " WHERE game_id = ? ORDER BY turn",
            [gid],
        )
        _, corners = store.query(
            "SELECT seat, commodity, gained, points FROM pit_corners WHERE game_id = ?"
            " ORDER BY round",
            [gid],
        )
    offers = [e for e in record.events if isinstance(e, PitOffered)]
    assert [r[0] for r in trades] == [e.turn for e in offers]
    swaps = {e.turn: e for e in record.events if isinstance(e, PitSwapped)}
    for turn, offerer, count, offered, responder, gave in trades:
        s = swaps.get(turn)
        assert (responder, gave) == ((s.responder, s.given) if s else (None, None))
        assert offered in KINDS and 1 <= count <= 4 and 0 <= offerer <= 1
    got = [e for e in record.events if isinstance(e, PitCornered)]
    assert [tuple(r) for r in corners] == [
        (e.seat, e.commodity, e.gained, e.points[e.seat]) for e in got
    ]
    assert corners


def test_the_viewer_frames_show_a_seat_its_own_hand_only() -> None:
    record = play_game(CONFIG, 4, ["cornerer", "random"])
    mine = build(GAME, [e for e in record.events if visible(e, 0)], 0)
    every = build(GAME, record.events, None)
    assert all("Player 1:" not in f["text"] for f in mine.frames)
    assert any("Player 0:" in f["text"] for f in mine.frames)
    assert any("Player 1:" in f["text"] for f in every.frames)


def test_two_cornerers_end_their_games_by_corners() -> None:
    # after a round's first offers a cornerer stops holding back the other's corner, so two
    # of them race as players do instead of trading until the turn limit
    for seed in range(4):
        record = play_game(CONFIG, seed, ["cornerer", "cornerer"])
        end = record.events[-1]
        assert isinstance(end, PitEnded) and end.reason == "target", seed
        assert max(end.points) >= CONFIG.target and end.turns < CONFIG.max_turns


# --------------------------------------------------------------------------- open trading


def _open_table(hands: list[list[int]], hidden: list[list[int]]) -> tuple[PitState, list[Any]]:
    """An open-trading game of two seats at its first turn with chosen hands."""
    log: list[Any] = [
        PitStarted(
            seed=1, config=OPEN, seats=(SeatSpec(agent="test"),) * 2, engine_version=RULES.version
        ),
        *(PitDealt(round=0, seat=s, hand=tuple(h)) for s, h in enumerate(hands)),
        *(PitHiddenDealt(round=0, seat=s, hand=tuple(h)) for s, h in enumerate(hidden)),
    ]
    return RULES.fold(log), log


def _hand(**kinds: int) -> list[int]:
    return [kinds.get(k, 0) for k in KINDS]


def _act(st: PitState, log: list[Any], action: Any) -> list[Any]:
    d = RULES.pending(st)
    assert isinstance(d, OpenTurn)
    _, events = RULES.step(st, d, [action])
    log.extend(events)
    return events


def test_open_offers_name_the_commodity_and_any_cards_pay_for_them() -> None:
    """GameBench's trade: an open offer stands until taken; the taker gives any number of
    one kind; both hands of each trader move (the second hand too)."""
    st, log = _open_table(
        [_hand(Wheat=3, Corn=2), _hand(Barley=4, Soybeans=1)],
        [_hand(Wheat=1), _hand(Corn=2)],
    )
    d = RULES.pending(st)
    assert isinstance(d, OpenTurn) and len(d.legal) == 24 and d.proposals == ()
    (made,) = _act(st, log, Offer(kind="Wheat", count=2))
    assert made == PitProposed(turn=0, seat=0, kind="Wheat", count=2) and made.audience() is None
    d = RULES.pending(st)
    assert isinstance(d, OpenTurn) and d.seats == (1,) and d.proposals == ((0, "Wheat", 2),)
    assert Accept(offerer=0, kind="Barley", count=4) in d.legal
    assert Accept(offerer=0, kind="Barley", count=5) not in d.legal
    taken, paid = _act(st, log, Accept(offerer=0, kind="Barley", count=3))
    assert taken == PitTaken(turn=1, offerer=0, responder=1, kind="Wheat", count=2)
    assert paid == PitPaid(turn=1, offerer=0, responder=1, kind="Barley", count=3)
    assert paid.audience() == (0, 1)
    assert st.hands == [_hand(Wheat=1, Corn=2, Barley=3), _hand(Barley=1, Soybeans=1, Wheat=2)]
    assert st.hidden == [_hand(Wheat=-1, Barley=3), _hand(Corn=2, Wheat=2, Barley=-3)]
    assert st.proposals == [] and st.turn == 2


def test_an_offer_the_hand_cannot_back_does_nothing() -> None:
    st, log = _open_table([_hand(Wheat=1), _hand(Corn=1)], [_hand(), _hand()])
    _act(st, log, Offer(kind="Wheat", count=1))
    _act(st, log, Offer(kind="Corn", count=4))
    (void,) = log[-1:]
    assert void == PitProposalVoid(turn=1, seat=1, kind="Corn", count=4)
    assert void.audience() == (1,) and st.turn == 2
    assert [(s, KINDS[k], c) for s, k, c in st.proposals] == [(0, "Wheat", 1)]


@pytest.mark.parametrize(
    ("hand", "gained"),
    [
        (_hand(Corn=6, Wheat=2), 75),
        (_hand(Corn=5, Bull=1), 75),
        (_hand(Corn=6, Bull=1), 150),
        (_hand(Corn=6, Bear=1), 55),
        (_hand(Corn=5, Bull=1, Bear=1), 55),
        (_hand(Corn=7), None),
        (_hand(Corn=5), None),
        (_hand(Corn=9), None),
    ],
)
def test_a_corner_is_six_or_five_and_the_bull(hand: list[int], gained: int | None) -> None:
    """GameBench's code counts exactly 6 of a commodity (5 with the Bull) as a corner, found
    after the turn in any hand, the second hands included."""
    for which in (0, 1):
        hands = [hand, _hand()] if which == 0 else [_hand(), _hand()]
        hidden = [hand, _hand()] if which == 1 else [_hand(), _hand()]
        st, log = _open_table(hands, hidden)
        events = _act(st, log, Offer(kind="Wheat", count=4))
        corners = [e for e in events if isinstance(e, PitCornered)]
        if gained is None:
            assert corners == []
            continue
        assert [(e.seat, e.commodity, e.gained, e.hand or 0) for e in corners] == [
            (0, "Corn", gained, which)
        ]
        assert st.points == [gained, 0] and st.round == 1
        deals = [e for e in events if isinstance(e, PitDealt | PitHiddenDealt)]
        assert len(deals) == 4 and sum(sum(e.hand) for e in deals) == 38


def test_the_default_is_gamebenchs_game_and_verifies() -> None:
    config = GAME.preset(GAME.default_preset)
    assert (*pit_settings(config), config.players, config.target) == ("open", 6, 2, 500)
    record = play_game(config, 3, ["random", "cornerer"])
    log = record.events
    end = log[-1]
    assert isinstance(end, PitEnded) and end.reason == "target" and max(end.points) >= 500
    assert any(isinstance(e, PitTaken) for e in log)
    deals = [e for e in log if isinstance(e, PitDealt | PitHiddenDealt) and e.round == 0]
    assert sorted(sum(e.hand) for e in deals) == [9, 9, 10, 10]
    assert verify(log).ok


def test_games_of_rules_1_0_0_still_verify() -> None:
    """A log stored by rules 1.0.0 (blind trading to 9, no `trading` or `corner` in its
    configuration) folds and re-runs by those rules."""
    path = Path(__file__).parent / "data" / "pit-1.0.0.jsonl"
    lines = path.read_text().splitlines()
    log = [GAME.decoder.decode(line) for line in lines]
    assert log[0].engine_version == "1.0.0"
    assert encode_each(log) == lines  # the stored bytes, as verification checks them
    st = RULES.fold(log)
    assert (st.trading, st.corner) == ("blind", 9)
    assert any(isinstance(e, PitSwapped) for e in log)
    assert verify(log).ok


def test_the_sql_view_of_open_trading(tmp_path: Path) -> None:
    with DuckStore(tmp_path / "o.duckdb") as store:
        gid, record = play_and_store(store, OPEN, 2, ["random", "random"])
        _, rows = store.query(
            "SELECT turn, action, offerer, offered, count, responder, given, given_count"
            " FROM pit_open_turns WHERE game_id = ? ORDER BY turn",
            [gid],
        )
        _, hands = store.query(
            "SELECT count(*) FROM pit_corners WHERE game_id = ? AND hand = 1", [gid]
        )
    want = []
    paid = {e.turn: e for e in record.events if isinstance(e, PitPaid)}
    for e in record.events:
        if isinstance(e, PitProposed | PitProposalVoid):
            action = "offer" if isinstance(e, PitProposed) else "void"
            want.append((e.turn, action, e.seat, e.kind, e.count, None, None, None))
        elif isinstance(e, PitTaken):
            p = paid[e.turn]
            want.append((e.turn, "take", e.offerer, e.kind, e.count, e.responder, p.kind, p.count))
    assert [tuple(r) for r in rows] == want and len(want) == record.events[-1].turns
    second = [e for e in record.events if isinstance(e, PitCornered) and e.hand == 1]
    assert hands[0][0] == len(second)


def test_the_open_prompt_lists_gamebenchs_actions() -> None:
    st, log = _open_table([_hand(Wheat=3), _hand(Barley=2, Bear=1)], [_hand(), _hand()])
    _act(st, log, Offer(kind="Wheat", count=2))
    d = RULES.pending(st)
    view = PitView(1).sync(log)
    prompt = PitPrompter().decision_prompt(view, d, "", None)
    assert "Player 0 offers 2 Wheat." in prompt and "Your hand: 2 Barley, 1 Bear." in prompt
    assert "Accept Player 0's offer, giving 2 Barley" in prompt and "Offer 4 Bull" in prompt
    explained = PitView(1).sync([*log, PitRuleExplained(seat=1, heading="Corners")])
    text = PitPrompter().decision_prompt(explained, d, "", None)
    assert "Holding exactly 6 cards of one commodity is a corner (5 are enough" in text
    a, _, error = PitPrompter().parse("Action: Accept Player 0's offer, giving 1 Bear", d, 1)
    assert a == Accept(offerer=0, kind="Bear", count=1) and error is None


def test_the_viewer_frames_follow_open_trades() -> None:
    """The omniscient viewer's hands move with every open trade (both sides of it)."""
    from projections.gamebench.pit import frames

    log = play_game(OPEN, 2, ["random", "random"]).events
    cut = next(i for i, e in enumerate(log) if isinstance(e, PitPaid)) + 1
    step, _ = frames(None)
    text = [step(e)["text"] for e in log[:cut]][-1]
    state = RULES.fold(log[:cut])
    for seat in (0, 1):
        held = ", ".join(f"{n} {k}" for k, n in zip(KINDS, state.hands[seat], strict=True) if n)
        assert f"Player {seat}: {held}" in text
