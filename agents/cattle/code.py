"""Shared machinery of the code agents: decision dispatch, valuation helpers, a safety net.

A code agent answers each decision from its `SeatView` and its `Ledger` (what it inferred
from the events its seat saw). Subclasses implement the six decisions; `CodeAgent.act`
brings the ledger up to date, asks the subclass, and passes the answer through `legal`, which
turns anything the engine would reject into the closest legal action (so a code agent never
causes an `ActionRejected` event) and never lets a bid exceed the agent's money.
"""

from __future__ import annotations

from agents.base import Agent
from agents.cattle.ledger import Ledger, score_sets
from engine.cattle import actions as ax
from engine.cattle import decisions as dec
from engine.cattle.money import holds, intersect, normalize, payment
from events.cattle.domain import ANIMAL_VALUES, GameConfig
from projections.cattle.observation import SeatView

Cards = tuple[int, ...]


class CodeAgent(Agent):
    """Base of the deterministic code agents."""

    CONVEXITY = 0.0
    """How progress towards a set is valued: 0 = every card an equal share, 1 = quadratic
    (early cards cheap, the last ones dear)."""

    def __init__(self, seat: int, seed: int, config: GameConfig) -> None:
        super().__init__(seat, seed, config)
        self.ledger = Ledger(seat)
        self.spent_turn = -1
        self.spent = 0
        """Coins committed to bids during the turn `spent_turn`."""

    # ---- dispatch --------------------------------------------------------------------------

    def act(self, view: SeatView, decision: dec.AnyDecision) -> ax.AnyAction:
        self.ledger.update(view)
        match decision:
            case dec.TurnDecision():
                action: ax.AnyAction = self.choose_turn(view, decision)
            case dec.BidDecision():
                action = self.bid(view, decision)
            case dec.SaleDecision():
                action = self.sale(view, decision)
            case dec.TradeDecision():
                action = self.initiate(view, decision)
            case dec.ResponseDecision():
                action = self.respond(view, decision)
            case dec.TieDecision():
                action = self.tie(view, decision)
        return self.legal(view, decision, action)

    def choose_turn(self, view: SeatView, d: dec.TurnDecision) -> ax.AnyAction:
        """Auction or trade."""
        raise NotImplementedError

    def bid(self, view: SeatView, d: dec.BidDecision) -> ax.AnyAction:
        """Bid or pass."""
        raise NotImplementedError

    def bid_up_to(self, d: dec.BidDecision, limit: float) -> ax.AnyAction:
        """Bid toward `limit`: all of it in a sealed (fast) round, else the minimum raise while
        the minimum stays within it; pass otherwise."""
        if d.mode == "fast":
            return ax.PlaceBid(seat=self.seat, amount=round_down(limit))
        if d.min_bid <= limit:
            return ax.PlaceBid(seat=self.seat, amount=d.min_bid)
        return ax.Pass(seat=self.seat)

    def sale(self, view: SeatView, d: dec.SaleDecision) -> ax.AnyAction:
        """Sell or use the buy-right."""
        raise NotImplementedError

    def initiate(self, view: SeatView, d: dec.TradeDecision) -> ax.AnyAction:
        """Pick a target, an animal and an offer."""
        raise NotImplementedError

    def respond(self, view: SeatView, d: dec.ResponseDecision) -> ax.AnyAction:
        """Accept a challenge or counter it."""
        raise NotImplementedError

    def tie(self, view: SeatView, d: dec.TieDecision) -> ax.AnyAction:
        """A new offer after a tie."""
        raise NotImplementedError

    # ---- safety net ------------------------------------------------------------------------

    def legal(self, view: SeatView, d: dec.AnyDecision, action: ax.AnyAction) -> ax.AnyAction:
        """The closest action the engine accepts as it is (no rejection, no overbid)."""
        seat = self.seat
        hand = view.money
        match action:
            case ax.PlaceBid(amount=amount):
                assert isinstance(d, dec.BidDecision)
                top = view.wealth
                cap = d.cap(seat)
                if cap is not None:
                    top = min(top, cap)
                top -= top % 10
                amount = min(amount - amount % 10, top)
                if amount < d.min_bid:
                    return ax.Pass(seat=seat)
                return ax.PlaceBid(seat=seat, amount=amount)
            case ax.InitiateTrade(target=target, animal=animal, cards=cards):
                assert isinstance(d, dec.TradeDecision)
                if (target, animal) not in d.targets:
                    target, animal = d.targets[0]
                return ax.InitiateTrade(
                    seat=seat, target=target, animal=animal, cards=_held(hand, cards)
                )
            case ax.CounterTrade(cards=cards):
                return ax.CounterTrade(seat=seat, cards=_held(hand, cards))
            case ax.OfferAgain(cards=cards):
                return ax.OfferAgain(seat=seat, cards=_held(hand, cards))
        return action

    # ---- helpers ---------------------------------------------------------------------------

    def progress_gain(self, view: SeatView, seat: int, animal: str, n: int = 1) -> float:
        """Value (in set points) of `seat` gaining `n` cards of `animal`.

        Progress towards a set is a blend (`CONVEXITY`) of an even share per card and a
        quadratic share (the last card is worth most); finishing a set adds what it does to
        the multiplicative score: the value of the sets already held plus the new set's value
        once more per set held.
        """
        k = self.ledger.set_size
        have = view.animals[seat][animal]
        if have >= k:
            return 0.0
        after = min(k, have + n)
        v = ANIMAL_VALUES[animal]
        c = self.CONVEXITY
        gain = v * ((1 - c) * (after - have) / k + c * (after * after - have * have) / (k * k))
        if after == k:
            sets = view.sets[seat]
            gain += sum(ANIMAL_VALUES[a] for a in sets) + v * len(sets)
        return gain

    def loss(self, view: SeatView, seat: int, animal: str, n: int) -> float:
        """Value (in set points) that `seat` loses by giving up `n` cards of `animal`."""
        have = view.animals[seat][animal]
        k = self.ledger.set_size
        v = ANIMAL_VALUES[animal]
        left = max(0, have - n)
        c = self.CONVEXITY
        return v * ((1 - c) * (have - left) / k + c * (have * have - left * left) / (k * k))

    def trade_count(self, view: SeatView, other: int, animal: str) -> int:
        """Cards that move in a trade with `other` for `animal` (the engine's rule)."""
        mine, theirs = view.animals[self.seat][animal], view.animals[other][animal]
        return 2 if mine >= 2 and theirs >= 2 else 1

    def my_score(self, view: SeatView) -> int:
        """This seat's current score."""
        return score_sets(view.sets[self.seat])

    def note_spend(self, view: SeatView, amount: int) -> None:
        """Remember coins committed during the current turn."""
        if self.spent_turn != view.turn:
            self.spent_turn, self.spent = view.turn, 0
        self.spent = max(self.spent, amount)

    def spent_this_turn(self, view: SeatView) -> int:
        """Coins committed during the current turn."""
        return self.spent if self.spent_turn == view.turn else 0


def cards_for(hand: Cards, amount: int) -> Cards:
    """The cards of `hand` that reach `amount` with the least overshoot (all of them if short)."""
    if amount <= 0:
        return ()
    if sum(hand) < amount:
        return tuple(v for v in hand if v > 0)
    return payment(hand, amount)


def zeros(hand: Cards, n: int) -> Cards:
    """Up to `n` zero-value cards from `hand` (a bluff, or padding that hides an offer's size)."""
    return tuple([0] * min(n, hand.count(0)))


def round_down(amount: float) -> int:
    """An amount as a multiple of 10, rounded down, never negative."""
    v = max(0, int(amount))
    return v - v % 10


def _held(hand: Cards, cards: Cards) -> Cards:
    cards = normalize(cards)
    return cards if holds(hand, cards) else intersect(hand, cards)
