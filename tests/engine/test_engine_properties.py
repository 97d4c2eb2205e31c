"""Property tests: event encoding, determinism, and the invariants of random play over
random configurations (with agents that also send bad input)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents.cattle.random_agent import RandomAgent
from engine.cattle import actions as act
from engine.cattle import decisions as dec
from engine.cattle.presets import load_preset
from engine.cattle.state import evolve, initial_state
from engine.chance import chance
from events import agent as ae
from events.base import visible
from events.cattle.codec import AnyEvent, decode
from events.cattle.domain import (
    ANIMALS,
    DEFAULT_PAYOUTS,
    DENOMINATIONS,
    START_MONEY,
    GameConfig,
    score_of,
)
from events.cattle.game import GAME_EVENT_TYPES, GameEnded
from events.codec import encode
from projections.cattle.observation import SeatView, observe
from runner.driver import Game
from runner.replay import verify

AGENT_EVENT_TYPES: tuple[type, ...] = ae.AgentEvent.__args__
ALL_EVENT_TYPES = (*GAME_EVENT_TYPES, *AGENT_EVENT_TYPES)

# ----------------------------------------------------------------------------- round trip


def strategy(t: Any) -> st.SearchStrategy[Any]:
    """A hypothesis strategy for a msgspec type description (msgspec.inspect)."""
    mi = msgspec.inspect
    match t:
        case mi.StructType():
            return st.builds(t.cls, **{f.name: strategy(f.type) for f in t.fields})
        case mi.IntType():
            return st.integers(min_value=-(2**63), max_value=2**63 - 1)
        case mi.StrType():
            return st.text(max_size=12)
        case mi.BoolType():
            return st.booleans()
        case mi.FloatType():
            return st.floats(allow_nan=False, allow_infinity=False)
        case mi.NoneType():
            return st.none()
        case mi.LiteralType():
            return st.sampled_from(t.values)
        case mi.UnionType():
            return st.one_of(*(strategy(u) for u in t.types))
        case mi.VarTupleType():
            return st.lists(strategy(t.item_type), max_size=4).map(tuple)
        case mi.TupleType():
            return st.tuples(*(strategy(u) for u in t.item_types))
        case mi.DictType():
            return st.dictionaries(strategy(t.key_type), strategy(t.value_type), max_size=3)
    raise AssertionError(f"no strategy for {t!r}")


def test_the_codec_union_holds_every_event_type_once() -> None:
    assert set(AnyEvent.__args__) == set(ALL_EVENT_TYPES)
    tags = [cls.__struct_config__.tag for cls in ALL_EVENT_TYPES]
    assert len(tags) == len(set(tags)) == len(ALL_EVENT_TYPES)


@pytest.mark.parametrize("cls", ALL_EVENT_TYPES, ids=lambda c: c.__name__)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_event_round_trips(cls: type, data: st.DataObject) -> None:
    event = data.draw(strategy(msgspec.inspect.type_info(cls)))
    raw = encode(event)
    back = decode(raw)
    assert type(back) is cls
    assert back == event
    assert encode(back) == raw


# ----------------------------------------------------------------------------- agents


class ChaosAgent(RandomAgent):
    """A random agent that now and then sends input the rules must correct or reject."""

    spec = "chaos"
    CHAOS = 0.2

    def __init__(self, seat: int, seed: int, config: GameConfig) -> None:
        super().__init__(seat, seed, config)
        self.chaos = chance(seed, "agent", seat, "chaos")

    def act(self, view: SeatView, decision: dec.AnyDecision) -> act.AnyAction:
        action = super().act(view, decision)
        r = self.chaos
        if r.random() >= self.CHAOS:
            return action
        seat = self.seat
        match action:
            case act.PlaceBid():
                return act.PlaceBid(
                    seat=seat, amount=action.amount + r.choice((-1000, -15, 5, 7, 1000))
                )
            case act.Pass():
                return act.PlaceBid(seat=seat, amount=r.randint(-20, 200))
            case act.InitiateTrade():
                return act.InitiateTrade(
                    seat=seat,
                    target=r.randrange(self.config.players + 1),
                    animal=r.choice(self.config.animals),
                    cards=(*action.cards, r.choice((7, 100, 500))),
                )
            case act.CounterTrade():
                return act.CounterTrade(seat=seat, cards=(*action.cards, 500))
            case act.OfferAgain():
                return act.OfferAgain(seat=seat, cards=(*action.cards, 200, 3))
        return action


def play(config: GameConfig, seed: int, chaos: bool = True) -> list[Any]:
    kind = ChaosAgent if chaos else RandomAgent
    agents = [kind(i, seed, config) for i in range(config.players)]
    return Game(config, seed, agents).run().events


# ----------------------------------------------------------------------------- invariants


def check_invariants(config: GameConfig, events: list[Any]) -> None:
    """Fold the log event by event and check conservation and the seats' views."""
    k = config.set_size
    players = config.players
    start = sum(config.start_money)
    paid_out = 0
    state = initial_state(config)
    views = [SeatView(p) for p in range(players)]
    for i, e in enumerate(events):
        state = evolve(state, e)
        if type(e).__name__ == "DonkeyPayout":
            paid_out += e.amount
        if state.phase == "new" or not state.money:
            continue
        if not state.animals or len(state.deck) == 0:
            continue
        # money conserved: every seat's start money plus the payouts so far
        assert sum(map(sum, state.money)) == players * (start + paid_out), i
        for hand in state.money:
            assert all(v in DENOMINATIONS for v in hand), (i, hand)
        # animal cards conserved: in hands, on the table (drawn, being auctioned) and left
        # in the deck, per type
        left = Counter(state.deck[state.deck_pos :])
        if state.drawn is not None:
            left[state.drawn] += 1
        for j, name in enumerate(config.animals):
            held = [state.animals[p][j] for p in range(players)]
            assert all(0 <= n <= k for n in held), (i, name, held)
            assert sum(held) + left[name] == k, (i, name, held, left[name])
        assert state.deck_left >= 0
        if type(e).__name__ in ("TurnStarted", "GameEnded"):
            if type(e).__name__ == "TurnStarted":
                assert e.deck_left == state.deck_left
            for p in range(players):
                complete = {a for a in config.animals if state.count(p, a) == k}
                assert set(state.sets[p]) == complete, (i, p)
            for view in views:
                view.sync(events[: i + 1])
                s = view.seat
                assert view.money == state.money[s], (i, s)
                assert view.deck_left == state.deck_left
                for p in range(players):
                    assert view.money_cards[p] == len(state.money[p]), (i, s, p)
                    assert [view.count(p, a) for a in config.animals] == list(state.animals[p])
                    assert sorted(view.sets[p]) == sorted(state.sets[p])
    end = events[-1]
    assert isinstance(end, GameEnded)
    assert end.scores == tuple(score_of(s) for s in end.sets)
    assert end.ranks == tuple(1 + sum(o > x for o in end.scores) for x in end.scores)
    if end.reason == "complete":
        assert state.deck_left == 0 and not state.anyone_can_trade()
    else:
        assert end.turns == config.max_turns


def scramble(e: Any) -> Any:
    """The same event with its private content changed (its audience kept)."""
    r = msgspec.structs.replace
    name = type(e).__name__
    if name == "DeckShuffled":
        return r(e, order=tuple(reversed(e.order)))
    if name in ("OfferCards", "PaymentCards"):
        return r(e, cards=(*e.cards, 500))
    if name == "OffersRevealed":
        return r(e, initiator_cards=(200,), target_cards=(100, 100))
    if name == "ActionRejected":
        return r(e, raw="something else", reason="?")
    if name == "FallbackApplied":
        return r(e, action="{}")
    if name == "ScratchpadUpdated":
        return r(e, notes="secret")
    return e


def check_hidden(events: list[Any], players: int) -> None:
    """A seat's observation does not change when events it may not see change or vanish."""
    for seat in range(players):
        mine = observe(events, seat)
        hidden = [i for i, e in enumerate(events) if not visible(e, seat)]
        assert hidden, "every game has engine-only events"
        changed = [scramble(e) if not visible(e, seat) else e for e in events]
        dropped = [e for e in events if visible(e, seat)]
        assert observe(changed, seat) == mine
        assert observe(dropped, seat) == mine
        for i in hidden:
            assert events[i].audience() is not None and seat not in events[i].audience()


# ----------------------------------------------------------------------------- configurations


@st.composite
def configs(draw: st.DrawFn) -> GameConfig:
    players = draw(st.integers(2, 5))
    k = draw(st.integers(2, 5))
    chosen = draw(st.sets(st.sampled_from(ANIMALS), min_size=1, max_size=10))
    animals = tuple(a for a in ANIMALS if a in chosen)
    most = min(k - 1, (k * len(animals)) // players)
    starting = draw(st.integers(0, most))
    if "donkey" in animals:
        payouts = tuple(
            draw(st.lists(st.sampled_from((50, 100, 200, 500)), min_size=k, max_size=k + 1))
        )
    else:
        payouts = DEFAULT_PAYOUTS[4]
    start_money = draw(
        st.one_of(
            st.just(START_MONEY),
            st.lists(st.sampled_from(DENOMINATIONS), max_size=8).map(tuple),
        )
    )
    return GameConfig(
        players=players,
        set_size=k,
        animals=animals,
        starting_animals=starting,
        auction_mode=draw(st.sampled_from(("canonical", "fast", "legacy"))),
        payouts=payouts,
        start_money=start_money,
        max_turns=draw(st.integers(1, 120)),
    ).validate()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=configs(), seed=st.integers(0, 2**32), chaos=st.booleans())
def test_random_play_keeps_the_invariants(config: GameConfig, seed: int, chaos: bool) -> None:
    events = play(config, seed, chaos)
    check_invariants(config, events)
    check_hidden(events, config.players)
    result = verify(events)
    assert result.ok, result


@pytest.mark.parametrize("preset", ["micro-duel", "standard", "marathon"])
@pytest.mark.parametrize("mode", ["canonical", "fast", "legacy"])
def test_full_games_with_bad_input_keep_the_invariants_and_verify(preset: str, mode: str) -> None:
    config = load_preset(preset, auction_mode=mode)
    events = play(config, 2024, chaos=True)
    assert events[-1].reason == "complete"
    kinds = Counter(type(e).__name__ for e in events)
    assert kinds["ActionRejected"] > 0 and kinds["FallbackApplied"] > 0
    check_invariants(config, events)
    assert verify(events).ok


@pytest.mark.parametrize("preset", ["micro-duel", "standard", "marathon"])
@pytest.mark.parametrize("mode", ["canonical", "fast", "legacy"])
def test_same_seed_same_agents_give_a_byte_identical_log(preset: str, mode: str) -> None:
    config = load_preset(preset, auction_mode=mode)
    first = [encode(e) for e in play(config, 77, chaos=True)]
    second = [encode(e) for e in play(config, 77, chaos=True)]
    assert first == second
    assert first != [encode(e) for e in play(config, 78, chaos=True)]
