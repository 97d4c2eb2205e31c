"""TrackerAgent, first version (`tracker-v1`): card counting and money tracking, greedy on what it
sees. Kept unchanged so that games played with it replay; `tracker` is the paper-calibrated one."""

from __future__ import annotations

from agents.cattle.code import CodeAgent, cards_for, round_down, zeros
from engine.cattle import actions as act
from engine.cattle import decisions as dec
from projections.cattle.observation import SeatView


class TrackerAgentV1(CodeAgent):
    """Keeps exact track of everything observable and prices every decision from it.

    It values a card by how far it moves its own set (and how much it denies an opponent),
    bids just above what the strongest competing bidder can afford (never past its own
    valuation), uses the buy-right only for a card that completes one of its sets, and sizes
    trade offers to the target's estimated money so that the target cannot out-counter it.
    """

    spec = "tracker-v1"
    CONVEXITY = 0.0
    VALUE_SCALE = 1.0
    """Coins it will pay per point of set value gained."""
    DENIAL = 0.6
    """Share of an opponent's gain it will pay to keep a card away from that opponent."""
    TRADE_EDGE = 1.2
    """During the deal, trade only when the trade's value exceeds its cost by this factor."""
    PAD = 2
    """Zero-value cards added to an offer to hide its size."""

    # ---- valuation -------------------------------------------------------------------------

    def card_value(self, view: SeatView, animal: str, rivals: tuple[int, ...]) -> float:
        """Coins this card is worth: own progress, or denial of the rival that gains most."""
        mine = self.progress_gain(view, self.seat, animal)
        deny = max((self.progress_gain(view, r, animal) for r in rivals), default=0.0)
        return self.VALUE_SCALE * max(mine, self.DENIAL * deny)

    def trade_value(self, view: SeatView, other: int, animal: str) -> float:
        """Coins that winning a trade is worth against losing it (both sides' animals move)."""
        n = self.trade_count(view, other, animal)
        win = self.progress_gain(view, self.seat, animal, n) + self.DENIAL * self.loss(
            view, other, animal, n
        )
        lose = self.loss(view, self.seat, animal, n) + self.DENIAL * self.progress_gain(
            view, other, animal, n
        )
        return self.VALUE_SCALE * (win + lose)

    def beat(self, seat: int) -> int:
        """An offer that beats anything `seat` can put down, by the ledger's estimate."""
        return self.ledger.est(seat) + 10

    # ---- decisions -------------------------------------------------------------------------

    def _best_trade(
        self, view: SeatView, targets: tuple[tuple[int, str], ...]
    ) -> tuple[float, int, str]:
        wealth = view.wealth
        best = (float("-inf"), targets[0][0], targets[0][1])
        for other, animal in targets:
            worth = self.trade_value(view, other, animal)
            cost = min(self.beat(other), wealth)
            best = max(best, (worth - cost, other, animal))
        return best

    def choose_turn(self, view: SeatView, d: dec.TurnDecision) -> act.AnyAction:
        _, other, animal = self._best_trade(view, d.targets)
        cost = min(self.beat(other), view.wealth)
        worth = self.trade_value(view, other, animal)
        trade = self.beat(other) <= view.wealth and worth > self.TRADE_EDGE * cost + 10
        return act.ChooseTurn(seat=self.seat, choice="trade" if trade else "auction")

    def bid(self, view: SeatView, d: dec.BidDecision) -> act.AnyAction:
        if d.leader == self.seat and d.mode != "fast":
            return act.Pass(seat=self.seat)
        rivals = tuple(p for p in range(self.ledger.players) if p != self.seat)
        limit = self.card_value(view, d.animal, rivals)
        bidders = [p for p in rivals if p != d.auctioneer]
        ceiling = max((self.beat(p) for p in bidders), default=10)
        limit = min(limit, ceiling)
        return self.bid_up_to(d, limit)

    def sale(self, view: SeatView, d: dec.SaleDecision) -> act.AnyAction:
        completes = view.animals[self.seat][d.animal] == self.ledger.set_size - 1
        keep = completes and d.price <= view.wealth
        return act.ChooseSale(seat=self.seat, decision="buy_right" if keep else "sell")

    def initiate(self, view: SeatView, d: dec.TradeDecision) -> act.AnyAction:
        _, other, animal = self._best_trade(view, d.targets)
        hand = view.money
        worth = self.trade_value(view, other, animal)
        need = self.beat(other)
        if self.ledger.est(other) < 10:
            cards = zeros(hand, self.PAD)  # the target cannot counter: a bluff wins
        elif need <= view.wealth and need <= worth:
            cards = cards_for(hand, need) + zeros(hand, self.PAD)
        else:
            cards = cards_for(hand, round_down(min(view.wealth, worth))) + zeros(hand, self.PAD)
        return act.InitiateTrade(seat=self.seat, target=other, animal=animal, cards=cards)

    def respond(self, view: SeatView, d: dec.ResponseDecision) -> act.AnyAction:
        ledger = self.ledger
        worth = self.trade_value(view, d.initiator, d.animal)
        hand = view.money
        if d.n_cards == 0:
            return act.CounterTrade(seat=self.seat, cards=cards_for(hand, 10))
        most = min(ledger.est(d.initiator), 500 * d.n_cards)
        guess = min(most, round_down(d.n_cards * ledger.average_card(d.initiator)))
        for offer in (most + 10, guess + 10):
            if offer <= view.wealth and offer <= worth:
                return act.CounterTrade(seat=self.seat, cards=cards_for(hand, offer))
        return act.AcceptTrade(seat=self.seat)

    def tie(self, view: SeatView, d: dec.TieDecision) -> act.AnyAction:
        other = d.target if d.role == "initiator" else d.initiator
        worth = self.trade_value(view, other, d.animal)
        step = 10 if d.role == "initiator" else 20
        offer = min(d.previous + step, round_down(worth), view.wealth)
        if d.role == "target" and offer <= d.previous:
            offer = d.previous  # one more tie is better than giving the animals away cheaply
        return act.OfferAgain(seat=self.seat, cards=cards_for(view.money, offer))
