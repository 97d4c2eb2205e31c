"""Code agents: legal play everywhere, no overbids, determinism, and information hiding."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from agents import Agent, make_agent
from engine.cattle.presets import load_preset
from engine.cattle.state import evolve, initial_state
from events.cattle import game as ev
from events.codec import encode
from events.config import SeatSpec
from projections.cattle.observation import SeatView
from runner.driver import Game
from runner.session import play_game

CODE = ("tracker", "setrace", "economy")


def _check_clean(events: list[Any], seats: list[str]) -> int:
    """Assert no rejected action and no overbid by a code agent; return the bids checked."""
    state = None
    bids = 0
    for e in events:
        if isinstance(e, ev.GameStarted):
            state = initial_state(e.config)
        assert state is not None
        code = seats[getattr(e, "seat", 0)] in CODE
        if code and isinstance(e, ev.ActionRejected | ev.FallbackApplied | ev.BidderRemoved):
            raise AssertionError(f"{seats[e.seat]} caused {e}")
        if code and isinstance(e, ev.OverbidRevealed):
            raise AssertionError(f"{seats[e.seat]} overbid: {e}")
        if code and isinstance(e, ev.BidPlaced):
            assert e.amount <= state.wealth(e.seat), f"{seats[e.seat]} bid above its money"
            bids += 1
        state = evolve(state, e)
    return bids


@pytest.mark.parametrize("mode", ["canonical", "fast", "legacy"])
def test_micro_duel_many_games(mode: str) -> None:
    config = load_preset("micro-duel", auction_mode=mode)
    bids = 0
    for g in range(90):
        seats = [CODE[g % 3], CODE[(g // 3) % 3]]
        record = play_game(config, g, seats)
        assert record.result is not None
        bids += _check_clean(record.events, seats)
    assert bids > 0


@pytest.mark.parametrize(
    ("preset", "mode", "games"),
    [
        ("standard", "canonical", 12),
        ("standard", "fast", 6),
        ("standard", "legacy", 6),
        ("marathon", "canonical", 3),
        ("marathon", "fast", 3),
    ],
)
def test_larger_tables(preset: str, mode: str, games: int) -> None:
    config = load_preset(preset, auction_mode=mode)
    for g in range(games):
        seats = [CODE[(g + i) % 3] for i in range(config.players - 1)] + ["random"]
        record = play_game(config, 100 + g, seats)
        assert record.result is not None
        _check_clean(record.events, seats)


def test_same_seed_same_game() -> None:
    config = load_preset("standard")
    seats = ["tracker", "setrace", "economy", "tracker"]
    a = play_game(config, 5, seats)
    b = play_game(config, 5, seats)
    assert [encode(e) for e in a.events] == [encode(e) for e in b.events]


class Spy(Agent):
    """Plays as `inner` and remembers where in the log each decision was asked."""

    def __init__(self, inner: Agent) -> None:
        super().__init__(inner.seat, inner.seed, inner.config)
        self.inner = inner
        self.points: list[tuple[int, Any]] = []

    def act(self, view: SeatView, decision: Any) -> Any:
        self.points.append((view.seen, decision))
        return self.inner.act(view, decision)


def _decisions(points: list[tuple[int, Any]], seat: int, name: str, log: list[Any]) -> list[bytes]:
    """A fresh agent's answers at the recorded decision points when its view folds `log`."""
    start = log[0]
    agent = make_agent(name, seat, start.seed, start.config)
    view = SeatView(seat)
    return [encode(agent.act(view.sync(log[:seen]), d)) for seen, d in points]


def _hide_from(events: list[Any], seat: int) -> list[Any]:
    """The log with every fact `seat` may not see changed (deck order, others' cards)."""
    out = []
    for e in events:
        aud = e.audience()
        if aud is not None and seat not in aud:
            if isinstance(e, ev.DeckShuffled):
                e = msgspec.structs.replace(e, order=tuple(reversed(e.order)))
            elif isinstance(e, ev.PaymentCards):
                e = msgspec.structs.replace(e, cards=tuple(c + 500 for c in e.cards))
            elif isinstance(e, ev.OfferCards):
                e = msgspec.structs.replace(e, cards=(*e.cards, 500, 500))
            elif isinstance(e, ev.OffersRevealed):
                e = msgspec.structs.replace(e, initiator_cards=(200,) * 5, target_cards=(0,) * 3)
        out.append(e)
    return out


@pytest.mark.parametrize("agent", CODE)
def test_hidden_information_does_not_change_decisions(agent: str) -> None:
    config = load_preset("standard")
    seats = [agent, "tracker", "setrace", "economy"]
    spy = Spy(make_agent(agent, 0, 77, config))
    others = [make_agent(s, i, 77, config) for i, s in enumerate(seats) if i]
    events = Game(config, 77, [spy, *others], [SeatSpec(agent=s) for s in seats]).run().events
    altered = _hide_from(events, 0)
    changed = sum(encode(a) != encode(b) for a, b in zip(events, altered, strict=True))
    assert changed > 10  # the game really had hidden facts to change
    original = _decisions(spy.points, 0, agent, events)
    assert len(original) > 50
    assert _decisions(spy.points, 0, agent, altered) == original
    # and the check can fail: changing a fact the seat does see changes its decisions
    visible = [
        msgspec.structs.replace(e, money=(500, *e.money)) if isinstance(e, ev.HandsDealt) else e
        for e in events
    ]
    assert _decisions(spy.points, 0, agent, visible) != original
