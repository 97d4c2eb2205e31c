"""SetRaceAgent, third version (`setrace-v3`), kept unchanged so that games played with it
replay; `setrace` is the current one."""

from __future__ import annotations

from agents.cattle.calibrated_v3 import CalibratedAgentV3
from agents.cattle.code import round_down
from engine.cattle import actions as act
from engine.cattle import decisions as dec
from events.cattle.domain import ANIMAL_VALUES
from projections.cattle.observation import SeatView


class SetRaceAgentV3(CalibratedAgentV3):
    """Values each card by its marginal gain towards a set and goes hard for near-complete ones.

    * It ignores a type it holds none of while a rival already holds two or more (no path to
      the set). A card is worth its marginal gain towards that set's own value, shared
      convexly (the last cards of a set are dearest), with a premium once the card leaves the
      set at most one card short, at the money-supply rate.
    * Auctions: it bids up to that value; it raises its own standing bid only on a
      near-complete set.
    * Buy-right: whenever the card is worth the price to it.
    * Trades: it challenges for the type it is closest to completing as soon as it holds two
      of it, offering a share of what the progress is worth whatever the target may hold
      (zero cards only when that share is worth less than the smallest coin). Challenged, it
      counters for a type it is building (two or more held) and accepts otherwise.
    """

    spec = "setrace-v3"
    CONVEXITY = 0.2
    PRICE_BASE = 120.0
    RATE_POWER = 0.7
    SOLO_SHARE = 1.0
    NEAR_SOLO_SHARE = 1.0
    BONUS_CAP = 4.0
    """Most that finishing a set adds through the other sets, in multiples of its value."""
    NEAR_PREMIUM = 2.0
    """Valuation multiplier when a card leaves the set at most one card short."""
    OFFER_SHARE = 0.3
    """Share of a trade's worth it puts down as an offer."""
    TRADE_FROM = 2
    """It challenges for types of which it holds at least this many."""
    DEFEND_FROM = 2
    """It counters challenges for types of which it holds at least this many."""
    ACCEPT_FACTOR = 5.0
    """For a type it is not building, it takes the money when the animals are worth less than
    this many times the offer it infers."""

    def value(self, view: SeatView, animal: str, n: int = 1) -> float:
        """Coins that `n` more cards of `animal` are worth to it (0 for a hopeless type)."""
        me = self.seat
        have = view.animals[me][animal]
        k = self.ledger.set_size
        if have == 0 and any(
            view.animals[p][animal] >= 2 for p in range(self.ledger.players) if p != me
        ):
            return 0.0
        gain = self.quartet_gain(view, animal, n)
        # Finishing the set also lifts the other sets (multiplicative score); that part counts
        # up to BONUS_CAP times the set's own value.
        bonus = self.progress_gain(view, me, animal, n) - gain
        gain += min(bonus, self.BONUS_CAP * ANIMAL_VALUES[animal])
        if have + n >= k - 1:
            gain *= self.NEAR_PREMIUM
        return self.coin_rate() * gain

    def quartet_gain(self, view: SeatView, animal: str, n: int = 1) -> float:
        """Set points that `n` more cards bring towards the set of `animal` itself (its value,
        shared convexly over its cards), leaving aside what finishing it adds to the other
        sets through the multiplicative score."""
        k = self.ledger.set_size
        have = view.animals[self.seat][animal]
        after = min(k, have + n)
        c = self.CONVEXITY
        share = (1 - c) * (after - have) / k + c * (after * after - have * have) / (k * k)
        return ANIMAL_VALUES[animal] * share

    def near(self, view: SeatView, animal: str) -> bool:
        """True when one more card leaves the set at most one card short."""
        return view.animals[self.seat][animal] + 1 >= self.ledger.set_size - 1

    def trade_value(self, view: SeatView, other: int, animal: str) -> float:
        """Coins a won trade is worth (own progress plus the animals kept)."""
        n = self.trade_count(view, other, animal)
        return self.value(view, animal, n) + self.coin_rate() * self.loss(
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
        trade = view.animals[self.seat][animal] >= self.TRADE_FROM
        return act.ChooseTurn(seat=self.seat, choice="trade" if trade else "auction")

    def bid(self, view: SeatView, d: dec.BidDecision) -> act.AnyAction:
        worth = self.auction_worth(d, lambda: self.value(view, d.animal))
        return self.raise_to(view, d, worth, near=self.near(view, d.animal))

    def sale(self, view: SeatView, d: dec.SaleDecision) -> act.AnyAction:
        keep = self.value(view, d.animal) >= d.price and d.price <= view.wealth
        return act.ChooseSale(seat=self.seat, decision="buy_right" if keep else "sell")

    def initiate(self, view: SeatView, d: dec.TradeDecision) -> act.AnyAction:
        other, animal = self._best_trade(view, d.targets)
        offer = round_down(
            min(self.OFFER_SHARE * self.trade_value(view, other, animal), view.wealth)
        )
        cards = self.offer(view, offer) if offer >= 10 else self.bluff(view, 2)
        return act.InitiateTrade(seat=self.seat, target=other, animal=animal, cards=cards)

    def respond(self, view: SeatView, d: dec.ResponseDecision) -> act.AnyAction:
        worth = self.trade_value(view, d.initiator, d.animal)
        ledger = self.ledger
        guess = round_down(d.n_cards * ledger.average_card(d.initiator)) + 10
        building = view.animals[self.seat][d.animal] >= self.DEFEND_FROM
        if not building and worth < self.ACCEPT_FACTOR * guess:
            return act.AcceptTrade(seat=self.seat)  # the money is worth more than the animals
        offer = round_down(min(max(guess, worth), view.wealth))
        return act.CounterTrade(seat=self.seat, cards=self.offer(view, offer))

    def tie(self, view: SeatView, d: dec.TieDecision) -> act.AnyAction:
        other = d.target if d.role == "initiator" else d.initiator
        worth = self.trade_value(view, other, d.animal)
        offer = min(d.previous + 10, max(round_down(worth), d.previous), view.wealth)
        return act.OfferAgain(seat=self.seat, cards=self.offer(view, offer))
