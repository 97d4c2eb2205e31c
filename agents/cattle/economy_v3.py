"""EconomyAgent, third version (`economy-v3`), kept unchanged so that games played with it
replay; `economy` is the current one."""

from __future__ import annotations

from agents.cattle.calibrated_v3 import CalibratedAgentV3
from agents.cattle.code import round_down
from engine.cattle import actions as act
from engine.cattle import decisions as dec
from events.cattle.domain import ANIMAL_VALUES
from projections.cattle.observation import SeatView


class EconomyAgentV3(CalibratedAgentV3):
    """Follows the money: its own wealth and the payouts still to come, who is cash-poor, who
    is ahead. Each trait below comes from one clause of the paper's description.

    * **Money flows and payouts** ("tracking money flows and donkey payouts"): its wealth is
      its money plus a share of the donkey payouts still to come; every rival's money is the
      ledger's estimate from public payments and payouts.
    * **A cap per turn** ("caps spending at a fraction of its total wealth per turn"): it
      commits at most `TURN_CAP` of that wealth in one turn, and values a card at an even share
      of its set's value at the money-supply rate (a card is money's worth, not a step towards
      a set bonus). Within the cap it keeps raising its own standing bid: the cap, not the
      competition, sets its price.
    * **Exploiting cash-poor opponents**: in an auction it never pays more than just above what
      the competing bidders can pay, so a card that only cash-poor rivals contest comes
      cheap; it challenges the opponent poorest against its own money, with an offer just
      above what that opponent can counter with.
    * **Not enriching cash-rich ones**: no buy-right (which pays the bidder) when the bidder is
      the leader or richer than itself ("avoids buy-right when the auctioneer surplus would
      benefit a leading opponent"), and it takes a challenger's money rather than countering
      only when the challenger is not richer than itself (a counter-exchange hands its coins to
      the challenger).
    * **Bluffs against opponents that rarely counter** ("bluffs only against opponents with
      low counter probability"): zero cards only, to a target whose seen counter rate is low.
    """

    spec = "economy-v3"
    PRICE_BASE = 60.0
    RATE_POWER = 1.0
    SOLO_SHARE = 1.0
    TURN_CAP = 0.4
    """Share of its wealth (money plus counted payouts) it may commit in one turn."""
    PAYOUT_SHARE = 0.25
    """Share of the donkey payouts still to come that it counts as wealth."""
    FLOOR = 10
    """Coins any card is worth to it at least."""
    BLUFF_BELOW = 0.5
    """It bluffs only against opponents that counter less often than this."""
    BROKE = 10
    """It also bluffs a target whose estimated money is below this (it can hardly counter)."""
    POOR = 0.8
    """An opponent is cash-poor below this share of its own money."""
    TRADE_CAP = 0.1
    """Share of its turn budget it puts into a challenge or a counter."""
    PICK = 1.0
    """Which shared animal it challenges for: -1 the most valuable, 1 the cheapest."""
    RICH = 2.3
    """A challenger with this many times its money is cash-rich: it takes the offer rather
    than hand that challenger a counter."""
    ACCEPT_FACTOR = 2.0
    """It takes the money when the offer it infers is worth this many times the animals."""

    def value(self, view: SeatView, animal: str, n: int = 1) -> float:
        """Coins that `n` more cards of `animal` are worth to it: an even share of the set."""
        k = self.ledger.set_size
        have = view.animals[self.seat][animal]
        if have >= k:
            return 0.0
        share = (min(k, have + n) - have) / k
        return max(float(self.FLOOR), self.coin_rate() * ANIMAL_VALUES[animal] * share)

    def budget(self, view: SeatView) -> int:
        """Coins it may commit this turn."""
        wealth = view.wealth + self.PAYOUT_SHARE * self.ledger.payouts_left()
        return round_down(min(view.wealth, self.TURN_CAP * wealth))

    def _poor(self, view: SeatView, targets: tuple[tuple[int, str], ...]) -> list[tuple[int, str]]:
        line = self.POOR * view.wealth
        return [t for t in targets if self.ledger.est(t[0]) < line]

    def choose_turn(self, view: SeatView, d: dec.TurnDecision) -> act.AnyAction:
        trade = bool(self._poor(view, d.targets)) and view.wealth >= 20
        return act.ChooseTurn(seat=self.seat, choice="trade" if trade else "auction")

    def bid(self, view: SeatView, d: dec.BidDecision) -> act.AnyAction:
        limit = min(self.auction_worth(d, lambda: self.value(view, d.animal)), self.budget(view))
        return self.raise_to(view, d, limit)

    def sale(self, view: SeatView, d: dec.SaleDecision) -> act.AnyAction:
        leader = self.ledger.leader(view)
        keep = (
            self.value(view, d.animal) >= d.price
            and d.price <= self.budget(view)
            and not (d.winner == leader and leader != self.seat)
            and self.ledger.est(d.winner) < view.wealth
        )
        return act.ChooseSale(seat=self.seat, decision="buy_right" if keep else "sell")

    def initiate(self, view: SeatView, d: dec.TradeDecision) -> act.AnyAction:
        ledger = self.ledger
        pool = self._poor(view, d.targets) or list(d.targets)
        other, animal = min(
            pool, key=lambda t: (ledger.est(t[0]), self.PICK * ANIMAL_VALUES[t[1]], t[0])
        )
        if view.money.count(0) and (
            ledger.counter_rate(other) < self.BLUFF_BELOW or ledger.est(other) < self.BROKE
        ):
            cards = self.bluff(view, 2)
        else:
            cap = round_down(self.TRADE_CAP * self.budget(view))
            cards = self.offer(view, min(ledger.est(other) + 10, cap))
        return act.InitiateTrade(seat=self.seat, target=other, animal=animal, cards=cards)

    def respond(self, view: SeatView, d: dec.ResponseDecision) -> act.AnyAction:
        ledger = self.ledger
        keep = self.value(view, d.animal, d.count) + self.coin_rate() * self.loss(
            view, self.seat, d.animal, d.count
        )
        guess = min(
            ledger.est(d.initiator), round_down(d.n_cards * ledger.average_card(d.initiator))
        )
        # A counter-exchange hands its counter to the challenger: it does not feed a rich one.
        rich = ledger.est(d.initiator) > self.RICH * view.wealth
        if rich or guess > self.ACCEPT_FACTOR * max(keep, 10):
            return act.AcceptTrade(seat=self.seat)
        offer = min(guess + 10, round_down(self.TRADE_CAP * self.budget(view)))
        return act.CounterTrade(seat=self.seat, cards=self.offer(view, offer))

    def tie(self, view: SeatView, d: dec.TieDecision) -> act.AnyAction:
        offer = min(d.previous + 10, self.budget(view))
        return act.OfferAgain(seat=self.seat, cards=self.offer(view, offer))
