"""EconomyAgent, first version (`economy-v1`): budgets money, exploits cash-poor opponents.
Kept unchanged so that games played with it replay; `economy` is the paper-calibrated one."""

from __future__ import annotations

from agents.cattle.code import CodeAgent, cards_for, round_down, zeros
from engine.cattle import actions as act
from engine.cattle import decisions as dec
from events.cattle.domain import ANIMAL_VALUES
from projections.cattle.observation import SeatView


class EconomyAgentV1(CodeAgent):
    """Treats the game as a money economy.

    It follows the money flow (payouts still to come, who is cash-poor), spends at most a
    fixed share of its wealth in any one turn, refuses the buy-right when paying the bidder
    would enrich the opponent who is ahead, challenges cash-poor opponents, and bluffs with
    zero-value cards only against opponents that rarely counter.
    """

    spec = "economy-v1"
    VALUE_SCALE = 0.7
    """Coins it will pay per point of set value gained."""
    TURN_BUDGET = 0.6
    """Share of its wealth it may commit in one turn."""
    PAYOUT_DISCOUNT = 0.5
    """Share of the donkey payouts still to come that it counts as money when budgeting."""
    BLUFF_BELOW = 0.35
    """It bluffs only against opponents that counter less often than this."""
    POOR = 0.5
    """An opponent is cash-poor below this share of its own wealth."""

    def value(self, view: SeatView, animal: str, n: int = 1) -> float:
        """Coins that `n` more cards of `animal` are worth to it: an even share of the set."""
        k = self.ledger.set_size
        have = view.animals[self.seat][animal]
        if have >= k:
            return 0.0
        return self.VALUE_SCALE * ANIMAL_VALUES[animal] * (min(k, have + n) - have) / k

    def budget(self, view: SeatView) -> int:
        """Coins it may still commit this turn."""
        future = self.PAYOUT_DISCOUNT * self.ledger.payouts_left()
        return round_down(min(view.wealth, self.TURN_BUDGET * (view.wealth + future)))

    def _poor_targets(
        self, view: SeatView, targets: tuple[tuple[int, str], ...]
    ) -> list[tuple[int, str]]:
        line = self.POOR * view.wealth
        return [t for t in targets if self.ledger.est(t[0]) < line]

    def choose_turn(self, view: SeatView, d: dec.TurnDecision) -> act.AnyAction:
        poor = self._poor_targets(view, d.targets)
        trade = bool(poor) and view.wealth >= 20
        return act.ChooseTurn(seat=self.seat, choice="trade" if trade else "auction")

    def bid(self, view: SeatView, d: dec.BidDecision) -> act.AnyAction:
        if d.leader == self.seat and d.mode != "fast":
            return act.Pass(seat=self.seat)
        limit = min(self.value(view, d.animal), self.budget(view))
        return self.bid_up_to(d, limit)

    def sale(self, view: SeatView, d: dec.SaleDecision) -> act.AnyAction:
        leader = self.ledger.leader(view)
        keep = (
            self.value(view, d.animal) >= d.price
            and d.price <= self.budget(view)
            and not (d.winner == leader and leader != self.seat)
        )
        return act.ChooseSale(seat=self.seat, decision="buy_right" if keep else "sell")

    def initiate(self, view: SeatView, d: dec.TradeDecision) -> act.AnyAction:
        ledger = self.ledger
        poor = self._poor_targets(view, d.targets) or list(d.targets)
        other, animal = min(poor, key=lambda t: (ledger.est(t[0]), -self.value(view, t[1]), t[0]))
        hand = view.money
        if ledger.counter_rate(other) < self.BLUFF_BELOW and hand.count(0):
            cards = zeros(hand, 2)
        else:
            offer = min(ledger.est(other) + 10, self.budget(view))
            cards = cards_for(hand, offer)
        return act.InitiateTrade(seat=self.seat, target=other, animal=animal, cards=cards)

    def respond(self, view: SeatView, d: dec.ResponseDecision) -> act.AnyAction:
        ledger = self.ledger
        keep = self.value(view, d.animal, d.count) + self.VALUE_SCALE * self.loss(
            view, self.seat, d.animal, d.count
        )
        guess = min(
            ledger.est(d.initiator), round_down(d.n_cards * ledger.average_card(d.initiator))
        )
        offer = guess + 10
        if offer <= self.budget(view) and offer <= keep:
            return act.CounterTrade(seat=self.seat, cards=cards_for(view.money, offer))
        return act.AcceptTrade(seat=self.seat)

    def tie(self, view: SeatView, d: dec.TieDecision) -> act.AnyAction:
        offer = min(d.previous + 10, self.budget(view))
        return act.OfferAgain(seat=self.seat, cards=cards_for(view.money, offer))
