"""A random agent: picks uniformly among sensible legal actions with its own generator."""

from __future__ import annotations

from agents.base import Agent
from engine.cattle import actions as act
from engine.cattle import decisions as dec
from engine.cattle.actions import AnyAction
from engine.chance import chance
from events.cattle.domain import GameConfig
from projections.cattle.observation import SeatView


class RandomAgent(Agent):
    """Random play from a generator derived from the game seed and the seat.

    It overbids rarely (so the overbid rules get exercised) and otherwise stays within its
    money; re-running a game from its seed reproduces every choice.
    """

    spec = "random"
    BID_CHANCE = 0.45
    """Probability of bidding when the minimum bid is affordable."""
    OVERBID_CHANCE = 0.02
    """Probability of bidding the minimum even when it cannot be paid."""
    ACCEPT_CHANCE = 0.35
    """Probability of accepting a trade offer rather than countering."""

    def __init__(self, seat: int, seed: int, config: GameConfig) -> None:
        super().__init__(seat, seed, config)
        self.rng = chance(seed, "agent", seat, "random")

    def _subset(self, money: tuple[int, ...]) -> tuple[int, ...]:
        draw = self.rng.random
        return tuple([v for v in money if draw() < 0.5])

    def act(self, view: SeatView, decision: dec.AnyDecision) -> act.AnyAction:
        if decision.__class__ is _BID:  # most decisions are bids: no pattern matching
            return self._bid(view, decision)
        rng = self.rng
        seat = self.seat
        match decision:
            case dec.BidDecision():
                return self._bid(view, decision)
            case dec.TurnDecision():
                return act.ChooseTurn(seat=seat, choice=rng.choice(("auction", "trade")))
            case dec.SaleDecision():
                return act.ChooseSale(seat=seat, decision=rng.choice(("sell", "buy_right")))
            case dec.TradeDecision():
                target, animal = rng.choice(decision.targets)
                return act.InitiateTrade(
                    seat=seat, target=target, animal=animal, cards=self._subset(view.money)
                )
            case dec.ResponseDecision():
                if rng.random() < self.ACCEPT_CHANCE:
                    return act.AcceptTrade(seat=seat)
                return act.CounterTrade(seat=seat, cards=self._subset(view.money))
            case dec.TieDecision():
                return act.OfferAgain(seat=seat, cards=self._subset(view.money))
        raise AssertionError(f"unknown decision {decision!r}")

    def _bid(self, view: SeatView, decision: dec.BidDecision) -> AnyAction:
        rng = self.rng
        seat = self.seat
        money = view.wealth
        low = decision.min_bid
        cap = decision.cap(seat) if decision.caps else None
        top = money if cap is None else min(money, cap)
        if decision.mode == "fast":
            if top >= low and rng.random() < 0.6:
                return act.PlaceBid(seat=seat, amount=low + 10 * rng.randint(0, (top - low) // 10))
            return act.Pass(seat=seat)
        if low <= top and rng.random() < self.BID_CHANCE:
            steps = min(3, (top - low) // 10)
            return act.PlaceBid(seat=seat, amount=low + 10 * rng.randint(0, steps))
        if cap is None and low > money and rng.random() < self.OVERBID_CHANCE:
            return act.PlaceBid(seat=seat, amount=low)
        return act.Pass(seat=seat)


_BID = dec.BidDecision
