"""SetRaceAgent, first version (`setrace-v1`): races to complete sets, pays for progress.
Kept unchanged so that games played with it replay; `setrace` is the paper-calibrated one."""

from __future__ import annotations

from agents.cattle.code import CodeAgent, cards_for, round_down
from engine.cattle import actions as act
from engine.cattle import decisions as dec
from projections.cattle.observation import SeatView


class SetRaceAgentV1(CodeAgent):
    """Values each card by how much it advances its own sets and goes hard for near-complete ones.

    It ignores a type when it holds none of it while an opponent already holds two or more
    (no realistic path to the set), bids up to its valuation (with a premium once a set is
    one or two cards away), keeps a card with the buy-right whenever that card is worth more
    to it than the price, and trades for the type that it is closest to completing, paying
    what the progress is worth rather than what the opponent can afford.
    """

    spec = "setrace-v1"
    CONVEXITY = 0.3
    VALUE_SCALE = 1.3
    """Coins it will pay per point of set value gained."""
    NEAR_PREMIUM = 2.0
    """Valuation multiplier when a card leaves the set at most one card short."""
    OFFER_SHARE = 0.7
    """Share of a trade's value it puts down as an offer."""
    TRADE_FROM = 2
    """During the deal, it trades only for types of which it holds at least this many."""

    def value(self, view: SeatView, animal: str, n: int = 1) -> float:
        """Coins that `n` more cards of `animal` are worth to it (0 for a hopeless type)."""
        me = self.seat
        have = view.animals[me][animal]
        k = self.ledger.set_size
        if have == 0 and any(
            view.animals[p][animal] >= 2 for p in range(self.ledger.players) if p != me
        ):
            return 0.0
        gain = self.progress_gain(view, me, animal, n)
        if have + n >= k - 1:
            gain *= self.NEAR_PREMIUM
        return self.VALUE_SCALE * gain

    def trade_value(self, view: SeatView, other: int, animal: str) -> float:
        """Coins a won trade is worth (own progress plus the animals kept)."""
        n = self.trade_count(view, other, animal)
        return self.value(view, animal, n) + self.VALUE_SCALE * self.loss(
            view, self.seat, animal, n
        )

    def _best_trade(self, view: SeatView, targets: tuple[tuple[int, str], ...]) -> tuple[int, str]:
        def key(t: tuple[int, str]) -> tuple[int, float, int]:
            other, animal = t
            have = view.animals[self.seat][animal]
            return (have, self.trade_value(view, other, animal), -other)

        return max(targets, key=key)

    def choose_turn(self, view: SeatView, d: dec.TurnDecision) -> act.AnyAction:
        _, animal = self._best_trade(view, d.targets)
        have = view.animals[self.seat][animal]
        trade = have >= self.TRADE_FROM and view.wealth >= 10
        return act.ChooseTurn(seat=self.seat, choice="trade" if trade else "auction")

    def bid(self, view: SeatView, d: dec.BidDecision) -> act.AnyAction:
        if d.leader == self.seat and d.mode != "fast":
            return act.Pass(seat=self.seat)
        limit = self.value(view, d.animal)
        return self.bid_up_to(d, limit)

    def sale(self, view: SeatView, d: dec.SaleDecision) -> act.AnyAction:
        keep = self.value(view, d.animal) >= d.price and d.price <= view.wealth
        return act.ChooseSale(seat=self.seat, decision="buy_right" if keep else "sell")

    def initiate(self, view: SeatView, d: dec.TradeDecision) -> act.AnyAction:
        other, animal = self._best_trade(view, d.targets)
        offer = round_down(self.OFFER_SHARE * self.trade_value(view, other, animal))
        cards = cards_for(view.money, min(offer, view.wealth))
        return act.InitiateTrade(seat=self.seat, target=other, animal=animal, cards=cards)

    def respond(self, view: SeatView, d: dec.ResponseDecision) -> act.AnyAction:
        worth = self.trade_value(view, d.initiator, d.animal)
        # It does not track money: it reads an offer's size from the public average card.
        ledger = self.ledger
        cards_out = max(1, sum(ledger.cards))
        guess = round_down(d.n_cards * ledger.total / cards_out) + 10
        if view.animals[self.seat][d.animal] >= self.TRADE_FROM:
            guess = max(guess, round_down(min(worth, view.wealth)))
        if guess <= view.wealth and guess <= worth:
            return act.CounterTrade(seat=self.seat, cards=cards_for(view.money, guess))
        return act.AcceptTrade(seat=self.seat)

    def tie(self, view: SeatView, d: dec.TieDecision) -> act.AnyAction:
        other = d.target if d.role == "initiator" else d.initiator
        worth = self.trade_value(view, other, d.animal)
        offer = min(d.previous + 10, round_down(worth), view.wealth)
        return act.OfferAgain(seat=self.seat, cards=cards_for(view.money, offer))
