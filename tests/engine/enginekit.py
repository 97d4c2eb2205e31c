"""Building blocks for rule tests: hand-made positions folded from events, and small drivers.

A position is a list of events that `engine.cattle.state.fold` turns into a state. The helpers write
those events the way the engine would (deck, dealt hands, money transfers, turn start, an
auction opened with a chosen priority order), so a test can reach a precise situation and
then send actions through `engine.cattle.rules.step`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from engine.cattle import actions as act
from engine.cattle import decisions as dec
from engine.cattle.rules import pending, step
from engine.cattle.state import GameState, fold
from events.cattle import game as ev
from events.cattle.domain import START_MONEY, GameConfig
from events.config import SeatSpec

START = tuple(sorted(START_MONEY, reverse=True))


def seats(n: int) -> tuple[SeatSpec, ...]:
    """n seats of random agents (the rule tests never ask the agents)."""
    return tuple(SeatSpec(agent="random") for _ in range(n))


def config(**kw: Any) -> GameConfig:
    """A small valid configuration: 3 players, sets of 4, cat/dog/donkey/cow."""
    base: dict[str, Any] = {
        "players": 3,
        "set_size": 4,
        "animals": ("cat", "dog", "donkey", "cow"),
        "max_turns": 100,
    }
    base.update(kw)
    return GameConfig(**base).validate()


def transfers(
    players: int, start: Sequence[int], money: dict[int, Sequence[int]], sink: int | None
) -> list[ev.PaymentCards]:
    """PaymentCards events moving cards between seats (all starting with `start`) so that
    each seat of `money` ends with exactly those cards; `sink` takes whatever is left over."""
    have = [Counter(start) for _ in range(players)]
    want: dict[int, Counter[int]] = {s: Counter(c) for s, c in money.items()}
    free = [s for s in range(players) if s not in money]
    if sink is None and free:
        sink = free[-1]
    out: list[ev.PaymentCards] = []
    # Give: every constrained seat hands its surplus card by card to a seat that needs it
    # (or to the sink); then seats that still need cards take them from the sink or others.
    for s in list(money):
        surplus = have[s] - want[s]
        for card in sorted(surplus.elements(), reverse=True):
            to = next((o for o in money if o != s and want[o][card] > have[o][card]), sink)
            assert to is not None, "no seat can take the surplus cards"
            out.append(ev.PaymentCards(payer=s, payee=to, cards=(card,)))
            have[s][card] -= 1
            have[to][card] += 1
    for s in money:
        need = want[s] - have[s]
        for card in sorted(need.elements(), reverse=True):
            frm = next(
                (o for o in range(players) if o not in money and have[o][card] > 0),
                None,
            )
            assert frm is not None, f"no seat holds a spare {card} for seat {s}"
            out.append(ev.PaymentCards(payer=frm, payee=s, cards=(card,)))
            have[frm][card] -= 1
            have[s][card] += 1
    for s, cards in money.items():
        assert have[s] == Counter(cards), (s, have[s], cards)
    return out


def position(
    cfg: GameConfig,
    *,
    animals: dict[int, Sequence[str]] | None = None,
    deck: Sequence[str] = (),
    money: dict[int, Sequence[int]] | None = None,
    start: Sequence[int] = START,
    sink: int | None = None,
    sets: dict[int, Sequence[str]] | None = None,
    active: int = 0,
    turn: int = 1,
    seed: int = 7,
    version: str = "test",
) -> list[Any]:
    """Events up to the start of `active`'s turn (phase "choose").

    `animals` are the hands dealt, `deck` the cards left (top first), `money` the exact money
    cards of some seats (the others share the remainder), `sets` complete sets already held,
    `version` the rules version the game names (a name the engine does not know plays the
    current rules).
    """
    animals = animals or {}
    dealt = tuple(tuple(animals.get(s, ())) for s in range(cfg.players))
    order = tuple(a for hand in dealt for a in hand) + tuple(deck)
    events: list[Any] = [
        ev.GameStarted(seed=seed, config=cfg, seats=seats(cfg.players), engine_version=version),
        ev.DeckShuffled(order=order),
        ev.HandsDealt(money=tuple(start), animals=dealt, deck_left=len(deck)),
    ]
    events += transfers(cfg.players, start, money or {}, sink)
    for s, names in (sets or {}).items():
        events += [ev.SetCompleted(seat=s, animal=a) for a in names]
    events.append(ev.TurnStarted(turn=turn, seat=active, deck_left=len(deck)))
    return events


def auction_position(
    cfg: GameConfig,
    *,
    animal: str,
    priority: Sequence[int] | None = None,
    deck: Sequence[str] = (),
    **kw: Any,
) -> list[Any]:
    """Events up to the first bid round of an auction of `animal` (drawn from the top of the
    deck, followed by `deck`), run by `active` (default seat 0)."""
    active = kw.get("active", 0)
    events = position(cfg, deck=(animal, *deck), **kw)
    others = [p for p in range(cfg.players) if p != active]
    prio = tuple(priority) if priority is not None else tuple(others)
    events += [
        ev.TurnChosen(seat=active, choice="auction"),
        ev.CardDrawn(seat=active, animal=animal, deck_left=len(deck)),
    ]
    if animal == "donkey":
        events.append(ev.DonkeyPayout(donkey=1, amount=cfg.payouts[0]))
    events.append(ev.AuctionOpened(auction=1, auctioneer=active, animal=animal, priority=prio))
    if cfg.auction_mode == "legacy":
        first = (active + 1) % cfg.players
        bidders: tuple[int, ...] = (first,)
    else:
        bidders = tuple(others)
    events.append(
        ev.BidRoundOpened(
            auction=1, round=0, price=0, leader=None, bidders=bidders, confirmation=False
        )
    )
    return events


def state_of(events: Sequence[Any]) -> GameState:
    """Fold a position."""
    return fold(events)


def run(state: GameState, *commands: act.Command) -> tuple[GameState, list[Any]]:
    """Apply commands in order; return the final state and every event they caused."""
    out: list[Any] = []
    for c in commands:
        state, events = step(state, c)
        out += events
    return state, out


def bids(*actions: act.PlaceBid | act.Pass) -> act.Simultaneous:
    """One sealed bid round."""
    return act.Simultaneous(actions=tuple(actions))


def passes(state: GameState) -> act.Command:
    """Every asked bidder passes."""
    d = pending(state)
    assert isinstance(d, dec.BidDecision), d
    if len(d.seats) == 1:
        return act.Pass(seat=d.seats[0])
    return bids(*(act.Pass(seat=s) for s in d.seats))


Policy = Callable[[GameState, dec.AnyDecision], act.Command]


def quiet(state: GameState, d: dec.AnyDecision) -> act.Command:
    """A passive policy: auction when possible, never bid, sell, offer nothing, accept."""
    match d:
        case dec.TurnDecision():
            return act.ChooseTurn(seat=d.seats[0], choice="auction")
        case dec.BidDecision():
            return passes(state)
        case dec.SaleDecision():
            return act.ChooseSale(seat=d.seats[0], decision="sell")
        case dec.TradeDecision():
            target, animal = d.targets[0]
            return act.InitiateTrade(seat=d.seats[0], target=target, animal=animal, cards=())
        case dec.ResponseDecision():
            return act.AcceptTrade(seat=d.seats[0])
        case dec.TieDecision():
            return act.OfferAgain(seat=d.seats[0], cards=())
    raise AssertionError(d)


def drive(
    state: GameState, policy: Policy = quiet, limit: int = 10_000
) -> tuple[GameState, list[Any]]:
    """Play from `state` with `policy` until the game ends; return the state and events."""
    out: list[Any] = []
    for _ in range(limit):
        d = pending(state)
        if d is None:
            return state, out
        state, events = step(state, policy(state, d))
        out += events
    raise AssertionError("the game did not end")


def start(cfg: GameConfig, seed: int = 1) -> tuple[GameState, list[Any]]:
    """A new game from a seed, up to the first decision."""
    return step(fold([], cfg), act.StartGame(seed=seed, seats=seats(cfg.players), config=cfg))


def of_type(events: Sequence[Any], *types: type) -> list[Any]:
    """The events of the given types, in order."""
    return [e for e in events if isinstance(e, types)]
