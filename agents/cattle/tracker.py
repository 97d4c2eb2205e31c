"""TrackerAgent (`tracker`): card counting and money tracking, as the paper describes it."""

from __future__ import annotations

from agents.cattle.calibrated import CalibratedAgent
from agents.cattle.code import round_down
from engine.cattle import actions as act
from engine.cattle import decisions as dec
from events.cattle.domain import ANIMAL_VALUES
from projections.cattle.observation import SeatView


class TrackerAgent(CalibratedAgent):
    """Tracks every observable fact (cards held, money paid and paid out) and acts greedily on it.

    * Auctions: a card is worth its progress towards one of its sets, or the progress it
      denies the rival who gains most, priced at the money-supply rate. It bids up to just above
      the richest competing bidder's estimated money ("bids just above an opponent's estimated
      budget"), never past that worth nor past `CARD_CAP` times the value of the card's set,
      and a step above the rival's expected raise while one is live.
    * Buy-right: only for a card that completes a set, its own or the winning bidder's.
    * Trades: it picks the challenge worth most against what it costs; it offers just above
      the target's estimated money when it can, and bluffs (zero cards only) when it cannot,
      since no honest offer it can afford would survive a counter. Challenged, it always
      counters, just above the offer it infers from the challenger's money and card count.
    """

    spec = "tracker"
    CONVEXITY = 0.0
    PRICE_BASE = 150.0
    RATE_POWER = 0.7
    SOLO_SHARE = 0.85
    STEP_AHEAD = 20
    DENIAL = 0.6
    """Share of a rival's gain it will pay to keep a card away from that rival."""
    TRADE_EDGE = 1.0
    """It trades when the trade is worth this many times its cost."""
    PAD = 2
    """Zero cards added to an offer to hide its size."""
    KEEP_FROM = 1
    """It also keeps a card with the buy-right when it already holds this many of its type."""
    KEEP_VALUE = 1.5
    """It also keeps a card worth this many times the price to it."""
    POOR = 50
    """It bluffs a target whose estimated money is below this."""
    DEFEND = 0.0
    """Share of the animals' worth it may put into a counter beyond the inferred offer."""
    CASH_SHARE = 1.0
    """Share of the target's estimated money its offer must beat."""
    CARD_CAP = 40.0
    """Most it bids for one card, in multiples of the value of the card's set."""
    HOLDERS = False
    """It prices a card against the rivals that hold its type only (they are the ones that
    compete for it)."""

    # ---- valuation -------------------------------------------------------------------------

    def _rivals(self) -> tuple[int, ...]:
        return tuple(p for p in range(self.ledger.players) if p != self.seat)

    def card_value(self, view: SeatView, animal: str) -> float:
        """Coins this card is worth to it: own progress or denial, at the money-supply rate."""
        mine = self.progress_gain(view, self.seat, animal)
        deny = max((self.progress_gain(view, r, animal) for r in self._rivals()), default=0.0)
        return self.coin_rate() * max(mine, self.DENIAL * deny)

    def trade_value(self, view: SeatView, other: int, animal: str) -> float:
        """Coins that winning a trade is worth against losing it (both sides' animals move)."""
        n = self.trade_count(view, other, animal)
        win = self.progress_gain(view, self.seat, animal, n) + self.DENIAL * self.loss(
            view, other, animal, n
        )
        lose = self.loss(view, self.seat, animal, n) + self.DENIAL * self.progress_gain(
            view, other, animal, n
        )
        return self.coin_rate() * (win + lose)

    def beat(self, seat: int) -> int:
        """An offer that beats anything `seat` can put down, by the ledger's estimate."""
        return round_down(self.CASH_SHARE * self.ledger.est(seat)) + 10

    def _best_trade(self, view: SeatView, targets: tuple[tuple[int, str], ...]) -> tuple[int, str]:
        wealth = view.wealth

        def key(t: tuple[int, str]) -> tuple[float, int]:
            other, animal = t
            return (self.trade_value(view, other, animal) - min(self.beat(other), wealth), -other)

        return max(targets, key=key)

    # ---- decisions -------------------------------------------------------------------------

    def choose_turn(self, view: SeatView, d: dec.TurnDecision) -> act.AnyAction:
        other, animal = self._best_trade(view, d.targets)
        cost = min(self.beat(other), view.wealth)
        worth = self.trade_value(view, other, animal)
        trade = worth > self.TRADE_EDGE * cost
        return act.ChooseTurn(seat=self.seat, choice="trade" if trade else "auction")

    def bid(self, view: SeatView, d: dec.BidDecision) -> act.AnyAction:
        ceiling = self.rival_budget(view, d, holders=self.HOLDERS) + 10
        cap = self.CARD_CAP * ANIMAL_VALUES[d.animal]
        limit = min(self.auction_worth(d, lambda: self.card_value(view, d.animal)), ceiling, cap)
        return self.raise_to(view, d, limit)

    def sale(self, view: SeatView, d: dec.SaleDecision) -> act.AnyAction:
        k = self.ledger.set_size
        completes = view.animals[self.seat][d.animal] == k - 1
        denies = view.animals[d.winner][d.animal] == k - 1
        near = view.animals[self.seat][d.animal] >= self.KEEP_FROM
        cheap = self.card_value(view, d.animal) >= self.KEEP_VALUE * d.price
        keep = (completes or denies or near or cheap) and d.price <= view.wealth
        return act.ChooseSale(seat=self.seat, decision="buy_right" if keep else "sell")

    def initiate(self, view: SeatView, d: dec.TradeDecision) -> act.AnyAction:
        other, animal = self._best_trade(view, d.targets)
        need = self.beat(other)
        worth = self.trade_value(view, other, animal)
        if self.ledger.est(other) >= self.POOR and need <= view.wealth and need <= max(worth, 10):
            cards = self.offer(view, need, self.PAD)
        else:
            cards = self.bluff(view, self.PAD + 1)
        return act.InitiateTrade(seat=self.seat, target=other, animal=animal, cards=cards)

    def respond(self, view: SeatView, d: dec.ResponseDecision) -> act.AnyAction:
        ledger = self.ledger
        most = min(ledger.est(d.initiator), 500 * d.n_cards)
        guess = min(most, round_down(d.n_cards * ledger.average_card(d.initiator)))
        worth = self.trade_value(view, d.initiator, d.animal)
        # Just above the offer it infers; up to the most the challenger could have put down
        # when the animals are worth that much to it.
        offer = max(guess + 10, min(most + 10, round_down(self.DEFEND * worth)))
        offer = min(offer, round_down(view.wealth))
        return act.CounterTrade(seat=self.seat, cards=self.offer(view, offer))

    def tie(self, view: SeatView, d: dec.TieDecision) -> act.AnyAction:
        other = d.target if d.role == "initiator" else d.initiator
        worth = self.trade_value(view, other, d.animal)
        offer = min(d.previous + 10, max(round_down(worth), d.previous), view.wealth)
        return act.OfferAgain(seat=self.seat, cards=self.offer(view, offer))
