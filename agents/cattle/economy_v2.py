"""EconomyAgent, second version (`economy-v2`), kept unchanged so that games played with it
replay; `economy` is the current one."""

from __future__ import annotations

from agents.cattle.calibrated_v2 import CalibratedAgentV2
from agents.cattle.code import round_down
from engine.cattle import actions as act
from engine.cattle import decisions as dec
from events.cattle.domain import ANIMAL_VALUES
from projections.cattle.observation import SeatView


class EconomyAgentV2(CalibratedAgentV2):
    """Follows the money: payouts still to come, who is cash-poor, who is ahead.

    * It spends at most a fixed share of its wealth (counting part of the payouts still to
      come) in any one turn, and values a card at an even share of its set at the
      money-supply rate.
    * Auctions: it bids up to the lower of that value and its turn budget, raising its own
      standing bid within the budget.
    * Buy-right: only when the card is worth the price, the price fits the budget, and paying
      the bidder would not enrich the opponent who is ahead.
    * Trades: it challenges cash-poor opponents; it bluffs only against opponents that
      rarely counter (the counter rate it has seen), and otherwise offers just above the
      target's estimated money within its budget. Challenged, it counters just above the offer
      it infers, unless that would break its budget or exceed what the animals are worth.
    """

    spec = "economy-v2"
    PRICE_BASE = 330.0
    SOLO_SHARE = 1.0
    FLOOR = 30
    """Coins any card is worth to it at least: a card it holds can be sold in a trade."""
    TURN_BUDGET = 0.05
    """Share of its wealth it may commit in one turn."""
    PAYOUT_DISCOUNT = 0.0
    """Share of the donkey payouts still to come that it counts as money when budgeting."""
    BLUFF_BELOW = 0.6
    """It bluffs only against opponents that counter less often than this."""
    POOR = 0.6
    """An opponent is cash-poor below this share of its own wealth."""
    KEEP_FACTOR = 3.0
    """It accepts an offer it infers to be worth more than this many times the animals."""
    RICH = 1.0
    """It will not pay a bidder (buy-right) whose estimated money is this share of its own."""

    def value(self, view: SeatView, animal: str, n: int = 1) -> float:
        """Coins that `n` more cards of `animal` are worth to it: an even share of the set."""
        k = self.ledger.set_size
        have = view.animals[self.seat][animal]
        if have >= k:
            return 0.0
        share = (min(k, have + n) - have) / k
        return max(self.FLOOR, self.coin_rate() * ANIMAL_VALUES[animal] * share)

    def budget(self, view: SeatView) -> int:
        """Coins it may commit this turn."""
        future = self.PAYOUT_DISCOUNT * self.ledger.payouts_left()
        return round_down(min(view.wealth, self.TURN_BUDGET * (view.wealth + future)))

    def _poor_targets(
        self, view: SeatView, targets: tuple[tuple[int, str], ...]
    ) -> list[tuple[int, str]]:
        line = self.POOR * view.wealth
        return [t for t in targets if self.ledger.est(t[0]) < line]

    def choose_turn(self, view: SeatView, d: dec.TurnDecision) -> act.AnyAction:
        trade = bool(self._poor_targets(view, d.targets)) and view.wealth >= 20
        return act.ChooseTurn(seat=self.seat, choice="trade" if trade else "auction")

    def bid(self, view: SeatView, d: dec.BidDecision) -> act.AnyAction:
        budget = self.budget(view)
        limit = min(self.value(view, d.animal), budget)
        return self.raise_to(view, d, limit)

    def sale(self, view: SeatView, d: dec.SaleDecision) -> act.AnyAction:
        leader = self.ledger.leader(view)
        keep = (
            self.value(view, d.animal) >= d.price
            and d.price <= self.budget(view)
            and not (d.winner == leader and leader != self.seat)
            and self.ledger.est(d.winner) < self.RICH * view.wealth
        )
        return act.ChooseSale(seat=self.seat, decision="buy_right" if keep else "sell")

    def initiate(self, view: SeatView, d: dec.TradeDecision) -> act.AnyAction:
        ledger = self.ledger
        poor = self._poor_targets(view, d.targets) or list(d.targets)
        other, animal = min(poor, key=lambda t: (ledger.est(t[0]), -self.value(view, t[1]), t[0]))
        if ledger.counter_rate(other) < self.BLUFF_BELOW and view.money.count(0):
            cards = self.bluff(view, 2)
        else:
            cards = self.offer(view, min(ledger.est(other) + 10, self.budget(view)))
        return act.InitiateTrade(seat=self.seat, target=other, animal=animal, cards=cards)

    def respond(self, view: SeatView, d: dec.ResponseDecision) -> act.AnyAction:
        ledger = self.ledger
        keep = self.value(view, d.animal, d.count) + self.coin_rate() * self.loss(
            view, self.seat, d.animal, d.count
        )
        guess = min(
            ledger.est(d.initiator), round_down(d.n_cards * ledger.average_card(d.initiator))
        )
        if guess > self.KEEP_FACTOR * max(keep, 10):
            return act.AcceptTrade(seat=self.seat)  # the money is worth more than the animals
        offer = min(guess + 10, self.budget(view))
        return act.CounterTrade(seat=self.seat, cards=self.offer(view, offer))

    def tie(self, view: SeatView, d: dec.TieDecision) -> act.AnyAction:
        offer = min(d.previous + 10, self.budget(view))
        return act.OfferAgain(seat=self.seat, cards=self.offer(view, offer))
