"""What a code agent remembers from the events its seat saw: money estimates and the deck.

The ledger reads `SeatView.history` incrementally (it remembers how far it read), so each
decision costs only the events that arrived since the last one. It never sees anything its
seat may not see: every estimate of an opponent's money comes from public events (payments,
donkey payouts, overbid revelations, card counts) and from the offers of trades the seat took
part in.
"""

from __future__ import annotations

from events.cattle import game as ev
from events.cattle.domain import ANIMAL_VALUES
from projections.cattle.observation import SeatView


class Ledger:
    """Incremental bookkeeping over one seat's visible events."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.read = 0
        """How many events of `view.history` were processed."""
        self.players = 0
        self.set_size = 0
        self.animals: tuple[str, ...] = ()
        self.payouts: tuple[int, ...] = ()
        self.money: list[float] = []
        """Estimated money of every seat (exact for this seat)."""
        self.cards: list[int] = []
        """Money cards each seat holds (public and exact)."""
        self.exact: list[bool] = []
        """True while an estimate is known exactly (after an overbid revealed a hand)."""
        self.donkeys = 0
        self.total = 0
        """Total money in the game (exact: starting money plus every payout)."""
        self.trades_won: list[int] = []
        self.trades_lost: list[int] = []
        self.countered: list[int] = []
        """Times each seat countered a trade challenge (public)."""
        self.challenged: list[int] = []
        """Times each seat was the target of a trade challenge (public)."""
        self._price = 0
        self._exchange: ev.OffersExchanged | None = None
        self._revealed: ev.OffersRevealed | None = None

    # ---- reading ---------------------------------------------------------------------------

    def update(self, view: SeatView) -> None:
        """Process the events that reached the seat since the last call."""
        history = view.history
        n = len(history)
        if n > self.read:
            relevant = _RELEVANT
            # Most events (bids, passes, rounds) change nothing here: they are filtered out
            # in one pass before any is applied (`_apply` reads no other event).
            for e in [e for e in history[self.read : n] if e.__class__ in relevant]:
                self._apply(e)
            self.read = n
        if self.money:
            self.money[self.seat] = view.wealth

    def _apply(self, e: object) -> None:
        t = type(e)
        if t is ev.GameStarted:
            assert isinstance(e, ev.GameStarted)
            c = e.config
            n = c.players
            self.players, self.set_size, self.animals, self.payouts = (
                n,
                c.set_size,
                c.animals,
                c.payouts,
            )
            self.money = [0.0] * n
            self.cards = [0] * n
            self.exact = [False] * n
            self.trades_won = [0] * n
            self.trades_lost = [0] * n
            self.countered = [0] * n
            self.challenged = [0] * n
        elif t is ev.HandsDealt:
            assert isinstance(e, ev.HandsDealt)
            start = sum(e.money)
            self.money = [float(start)] * self.players
            self.cards = [len(e.money)] * self.players
            self.total = start * self.players
        elif t is ev.DonkeyPayout:
            assert isinstance(e, ev.DonkeyPayout)
            self.donkeys = e.donkey
            self.total += e.amount * self.players
            for p in range(self.players):
                self.money[p] += e.amount
                self.cards[p] += 1
        elif t is ev.OverbidRevealed:
            assert isinstance(e, ev.OverbidRevealed)
            self.money[e.seat] = float(sum(e.money))
            self.exact[e.seat] = True
        elif t is ev.PaymentMade:
            assert isinstance(e, ev.PaymentMade)
            self._price = e.amount
            self.money[e.payer] -= e.amount
            self.money[e.payee] += e.amount
            self.cards[e.payer] -= e.n_cards
            self.cards[e.payee] += e.n_cards
            if self.seat not in (e.payer, e.payee):
                # The payment may have overshot the price (no change is given): uncertain.
                self.exact[e.payer] = self.exact[e.payee] = False
        elif t is ev.PaymentCards:
            assert isinstance(e, ev.PaymentCards)
            extra = sum(e.cards) - self._price
            self.money[e.payer] -= extra
            self.money[e.payee] += extra
        elif t is ev.TradeInitiated:
            assert isinstance(e, ev.TradeInitiated)
            self.challenged[e.target] += 1
        elif t is ev.TradeCountered:
            assert isinstance(e, ev.TradeCountered)
            self.countered[e.target] += 1
        elif t is ev.OffersRevealed:
            assert isinstance(e, ev.OffersRevealed)
            self._revealed = e
        elif t is ev.OffersExchanged:
            assert isinstance(e, ev.OffersExchanged)
            self._exchange = e
            i, g = e.initiator, e.target
            self.cards[i] += e.target_n - e.initiator_n
            self.cards[g] += e.initiator_n - e.target_n
        elif t is ev.TradeWon:
            assert isinstance(e, ev.TradeWon)
            self.trades_won[e.winner] += 1
            self.trades_lost[e.loser] += 1
            self._settle_trade(e)
        elif t is ev.TradeTied:
            self._revealed = None

    def _settle_trade(self, won: ev.TradeWon) -> None:
        x = self._exchange
        r = self._revealed
        self._exchange = self._revealed = None
        if x is None:
            return
        i, g = x.initiator, x.target
        if r is not None and r.trade == x.trade:
            offer, counter = float(sum(r.initiator_cards)), float(sum(r.target_cards))
        else:
            # A trade between two others: only card counts are public. Guess each offer from
            # the trader's average card, and make the winner's offer the higher one.
            offer = min(self.money[i], x.initiator_n * self.average_card(i))
            counter = min(self.money[g], x.target_n * self.average_card(g))
            if won.reason != "third_tie":
                if won.winner == i and offer <= counter:
                    offer = min(self.money[i], counter + 10)
                elif won.winner == g and counter <= offer:
                    counter = min(self.money[g], offer + 10)
            self.exact[i] = self.exact[g] = False
        self.money[i] += counter - offer
        self.money[g] += offer - counter
        self._renormalise()

    def _renormalise(self) -> None:
        """Keep estimates non-negative and summing to the exact total."""
        me = self.seat
        others = [p for p in range(self.players) if p != me]
        for p in others:
            self.money[p] = max(0.0, self.money[p])
        rest = self.total - self.money[me]
        # Added left to right on every Python: from 3.12 `sum` of floats compensates for
        # rounding, which moves the estimates (and so the agents' choices) by an ulp.
        got = 0.0
        for p in others:
            got += self.money[p]
        if got > 0 and rest >= 0:
            f = rest / got
            for p in others:
                if not self.exact[p]:
                    self.money[p] *= f

    # ---- queries ---------------------------------------------------------------------------

    def average_card(self, seat: int) -> float:
        """Estimated mean value of one of the seat's money cards."""
        n = self.cards[seat]
        return self.money[seat] / n if n > 0 else 0.0

    def est(self, seat: int) -> int:
        """Estimated money of a seat, rounded down to a multiple of 10."""
        v = int(self.money[seat])
        return max(0, v - v % 10)

    def payouts_left(self) -> int:
        """Money every seat will still receive from donkeys not yet drawn."""
        return sum(self.payouts[self.donkeys : self.set_size])

    def in_deck(self, view: SeatView, animal: str) -> int:
        """Cards of `animal` still in the deck (not held, not on the table)."""
        held = sum(view.animals[p][animal] for p in range(self.players))
        on_table = 1 if view.auction is not None and view.auction.animal == animal else 0
        return max(0, self.set_size - held - on_table)

    def leader(self, view: SeatView) -> int:
        """The seat with the highest current score (ties: the lowest seat)."""
        scores = [score_sets(view.sets[p]) for p in range(self.players)]
        return max(range(self.players), key=lambda p: (scores[p], -p))

    def counter_rate(self, seat: int) -> float:
        """How often the seat countered when challenged (0.5 before any evidence)."""
        n = self.challenged[seat]
        return (self.countered[seat] + 1) / (n + 2)


_RELEVANT = frozenset(
    {
        ev.GameStarted,
        ev.HandsDealt,
        ev.DonkeyPayout,
        ev.OverbidRevealed,
        ev.PaymentMade,
        ev.PaymentCards,
        ev.TradeInitiated,
        ev.TradeCountered,
        ev.OffersRevealed,
        ev.OffersExchanged,
        ev.TradeWon,
        ev.TradeTied,
    }
)


def score_sets(sets: list[str]) -> int:
    """Score of a list of complete sets."""
    return sum(ANIMAL_VALUES[a] for a in sets) * len(sets)
