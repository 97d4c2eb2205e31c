"""Cattle Trade's rules as the catalogue's `Rules`: the decider of engine.cattle.rules behind the
interface every game offers (start, pending, step, evolve, ...), and reading actions back
from a log for replays."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.cattle import actions as act
from engine.cattle import decisions as dec
from engine.cattle import rules
from engine.cattle.state import VERSIONS, GameState, evolve, fold, initial_state
from events.cattle import game as ev
from events.cattle.domain import GameConfig
from events.config import SeatSpec

_GAME_TYPES = frozenset(ev.GAME_EVENT_TYPES)
_TURN_STARTED = ev.TurnStarted
_BID_TYPES = frozenset({act.PlaceBid, act.Pass})


class CattleRules:
    """The rules of Cattle Trade (see engine.cattle.rules) for the generic driver."""

    version = rules.ENGINE_VERSION
    versions = VERSIONS
    """Every rules version these rules replay (a log names the one it was played by)."""

    def start(
        self, config: GameConfig, seed: int, seats: Sequence[SeatSpec], version: str | None = None
    ) -> tuple[GameState, list[Any]]:
        """Deal, shuffle and open the first turn (by the rules of `version`, default the
        current one)."""
        start = act.StartGame(seed=seed, seats=tuple(seats), config=config, version=version)
        return rules.step(initial_state(config), start)

    @staticmethod
    def max_decisions(config: GameConfig) -> int:
        """The hard bound on decision points per game (docs/bounds.md)."""
        return rules.max_decisions(config)

    # The driver calls these once per decision or event: bound straight to the functions,
    # without a wrapper call in between.
    pending = staticmethod(rules.pending)
    """The decision the game waits for."""

    @staticmethod
    def step(
        state: GameState, decision: dec.AnyDecision, actions: Sequence[Any]
    ) -> tuple[GameState, list[Any]]:
        """One action, or the sealed bids of a simultaneous round."""
        if len(actions) == 1:
            return rules.step(state, actions[0], decision)
        if type(decision) is dec.BidDecision and _BID_TYPES.issuperset(map(type, actions)):
            # The usual sealed round: straight to the bids, without the command's checks.
            return rules.step_bids(state, decision, tuple(actions))
        return rules.step(state, act.Simultaneous(actions=tuple(actions)), decision)

    evolve = staticmethod(evolve)
    """Fold one event."""

    def fold(self, events: Sequence[Any]) -> GameState:
        """The state after `events`."""
        return fold(list(events))

    TURN_TYPES = frozenset({_TURN_STARTED})
    """The only event type `turn_of` gives a new turn for (the driver asks only for it)."""

    @staticmethod
    def turn_of(event: Any, turn: int) -> int:
        """Turns are numbered by `turn_started`."""
        return event.turn if type(event) is _TURN_STARTED else turn

    def active(self, state: GameState) -> int | None:
        """The seat whose turn it is."""
        return state.active

    def recorded_action(
        self, log: Sequence[Any], pos: int, seat: int, decision: dec.AnyDecision
    ) -> act.AnyAction:
        """The action `seat` took for `decision`, read from the events from `pos` on."""
        return recorded_action(log, pos, seat, decision)


RULES = CattleRules()


def is_game_event(e: Any) -> bool:
    """True for the rules' own events (not those agents add)."""
    # Event classes are leaves of the union, so a set lookup does what isinstance would,
    # faster: replays ask this for every event they pass.
    return type(e) in _GAME_TYPES


class RecordMissing(LookupError):
    """A stored log does not contain the action a replay needs."""


def recorded_action(log: Sequence[Any], pos: int, seat: int, d: dec.AnyDecision) -> act.AnyAction:
    """The action `seat` took for decision `d`, read from the events that start at `pos`."""
    # Replays ask this once per decision and pass every bid of a round: the decision's kind
    # is settled once, and each event is told apart by its exact type (event types are
    # leaves of the union).
    game_types = _GAME_TYPES
    rejected = ev.ActionRejected
    bid = isinstance(d, dec.BidDecision)
    for i in range(pos, len(log)):
        e = log[i]
        t = type(e)
        if t not in game_types:
            continue
        if t is rejected:
            if e.seat == seat:
                return act.action_from_json(e.raw)
            continue
        if bid:
            if t is ev.BidPlaced and e.seat == seat:
                return act.PlaceBid(seat=seat, amount=e.amount)
            if t is ev.BidPassed and e.seat == seat:
                return act.Pass(seat=seat)
            if t is ev.BidRoundClosed:
                break
            continue
        match d:
            case dec.TurnDecision() if t is ev.TurnChosen:
                return act.ChooseTurn(seat=seat, choice=e.choice)
            case dec.SaleDecision() if t is ev.AuctioneerDecided:
                return act.ChooseSale(seat=seat, decision=e.decision)
            case dec.TradeDecision() if t is ev.OfferCards:
                initiated = log[i - 1]
                return act.InitiateTrade(
                    seat=seat, target=initiated.target, animal=initiated.animal, cards=e.cards
                )
            case dec.ResponseDecision() if t is ev.TradeAccepted:
                return act.AcceptTrade(seat=seat)
            case dec.ResponseDecision() if t is ev.OfferCards:
                return act.CounterTrade(seat=seat, cards=e.cards)
            case dec.TieDecision() if t is ev.OfferCards:
                return act.OfferAgain(seat=seat, cards=e.cards)
    raise RecordMissing(f"no recorded {d.kind} action for seat {seat} after event {pos}")
