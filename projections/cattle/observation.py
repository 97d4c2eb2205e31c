"""Per-seat observations: a fold over exactly the events a seat may see.

`SeatView` folds incrementally (the game driver keeps one per seat and feeds it new events);
`observe(events, seat)` is the same fold over a whole log. Hidden information cannot leak: an
event outside the seat's audience is never applied.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterable, Sequence
from typing import Any, ClassVar

import msgspec

from engine.cattle.decisions import AnyDecision
from engine.cattle.money import add, normalize, remove
from events import agent as ae
from events.base import PUBLIC, visible
from events.cattle import game as ev
from events.cattle.domain import GameConfig
from events.config import SeatSpec

RECENT = 10
"""How many recent visible events an observation keeps."""


class PlayerView(msgspec.Struct, frozen=True, kw_only=True):
    """What a seat knows about one player."""

    seat: int
    animals: dict[str, int]
    """Animal counts (public), only types held."""
    money_cards: int
    """Number of money cards held (public)."""
    sets: tuple[str, ...]
    """Complete sets."""
    revealed_money: tuple[int, ...] | None = None
    """Money cards shown by the player's last overbid, if any (may be stale)."""
    revealed_turn: int | None = None


class Observation(msgspec.Struct, frozen=True, kw_only=True):
    """Everything one seat knows at one point of a game."""

    seat: int
    turn: int
    active: int
    deck_left: int
    money: tuple[int, ...]
    """The seat's own money cards, highest first."""
    animals: dict[str, int]
    players: tuple[PlayerView, ...]
    targets: tuple[tuple[int, str], ...]
    """Valid trade targets of this seat: (opponent, animal)."""
    recent: tuple[Any, ...]
    """The most recent events this seat saw (oldest first)."""
    notes: str = ""
    pending: AnyDecision | None = None
    """The decision this seat is asked for, if any."""
    ended: bool = False
    scores: tuple[int, ...] | None = None


class SeatView:
    """Incremental fold of the events visible to one seat."""

    FOLDS: ClassVar[frozenset[type]]
    """Event types that change what a view keeps (set below, from the handlers)."""

    def __init__(self, seat: int, *, recent: int = RECENT) -> None:
        self.seat = seat
        self.config: GameConfig | None = None
        self.seats: tuple[SeatSpec, ...] = ()
        self.money: tuple[int, ...] = ()
        self.wealth = 0
        """Total value of this seat's money cards: `sum(money)`, kept with it (the handlers
        that change `money` set both)."""
        self.animals: list[dict[str, int]] = []
        self.money_cards: list[int] = []
        self.sets: list[list[str]] = []
        self.revealed: list[tuple[tuple[int, ...], int] | None] = []
        self.deck_left = 0
        self.turn = 0
        self.active = -1
        self.notes = ""
        self.ended = False
        self.scores: tuple[int, ...] | None = None
        self.keep_recent = recent
        self._history: list[Any] = []
        self._history_upto = 0
        """How many events of `_log` were looked at for `history` (it is built when read)."""
        self._log: Sequence[Any] = ()
        self._audiences: Sequence[Any] | None = None
        self.seen = 0
        """How many events of the log this view has consumed (visible or not)."""
        self._mark = -1
        """With `marks`: how many marks were consumed (-1: not known for this log yet)."""
        # context of the auction / trade in progress, as this seat knows it
        self.auction: ev.AuctionOpened | None = None
        self.price = 0
        self.leader: int | None = None
        self.trade: ev.TradeInitiated | None = None
        self.my_offer: tuple[int, ...] = ()
        self.their_offer: tuple[int, ...] | None = None
        self.payouts_seen = 0
        self.ties = 0
        self.holdings = 0
        """Grows by one with every event folded that changes a seat's money, money-card count,
        animals or sets (a reader may keep what it built from those until it grows)."""

    # ---- feeding ---------------------------------------------------------------------------

    def sync(
        self,
        log: Sequence[Any],
        audiences: Sequence[Any] | None = None,
        marks: Sequence[int] | None = None,
    ) -> SeatView:
        """Consume the events of `log` not seen yet (the log only ever grows).

        `audiences`, when given, holds each event's `audience()` (the driver computes them
        once for all seats); `marks`, when given with them, the positions in `log` of the
        events whose type is in `FOLDS`, in order (the driver finds them once for all seats,
        so a view passes over the rest without looking at them).
        """
        if log is not self._log:
            self._catch_up()  # the history so far comes from the log it was synced with
            self._log, self._history_upto = log, self.seen
            self._mark = -1
        self._audiences = audiences
        if marks is not None and audiences is not None:
            j = self._mark
            if j < 0:
                j = bisect_left(marks, self.seen)
            n = len(marks)
            if j < n:  # at most decisions, no event this view folds came since the last
                seat = self.seat
                handlers = _HANDLERS
                while j < n:
                    i = marks[j]
                    aud = audiences[i]
                    if aud is None or seat in aud:
                        e = log[i]
                        handlers[e.__class__](self, e)
                    j += 1
            self._mark = n
            self.seen = len(log)
            return self
        seat = self.seat
        handlers = _HANDLERS
        start, end = self.seen, len(log)
        # Most events (bids, passes, rounds opened) change nothing a view keeps: they are
        # passed over before their audience is looked at; `history` is filled from the log
        # when someone reads it.
        for i in range(start, end):
            e = log[i]
            handler = handlers.get(e.__class__)
            if handler is None:
                continue
            aud = audiences[i] if audiences is not None else e.audience()
            if aud is None or seat in aud:
                handler(self, e)
        self.seen = end
        return self

    def apply(self, e: Any) -> None:
        """Fold one event that this seat may see."""
        self._catch_up()
        handler = _HANDLERS.get(type(e))
        if handler is not None:
            handler(self, e)
        self._history.append(e)

    @property
    def history(self) -> list[Any]:
        """Every event this seat saw, in order (agents that track the game read it; the list
        only grows, so a reader may remember how far it read)."""
        if self._history_upto < self.seen:
            self._catch_up()
        return self._history

    def _catch_up(self) -> None:
        """Add the visible events synced since `history` was last built."""
        log, audiences, seat = self._log, self._audiences, self.seat
        lo, hi = self._history_upto, min(self.seen, len(log))
        if lo < hi:
            if audiences is None:
                audiences = [e.audience() for e in log[lo:hi]]
            else:
                audiences = audiences[lo:hi]
            if audiences.count(PUBLIC) == hi - lo:  # every event public: all of them, at once
                self._history.extend(log[lo:hi])
            else:
                self._history.extend(
                    [
                        e
                        for e, aud in zip(log[lo:hi], audiences, strict=True)
                        if aud is PUBLIC or seat in aud
                    ]
                )
        self._history_upto = self.seen

    # ---- queries ---------------------------------------------------------------------------

    @property
    def recent(self) -> list[Any]:
        """The last few events this seat saw (oldest first)."""
        n = self.keep_recent
        return self.history[-n:] if n > 0 else []

    @property
    def players(self) -> int:
        """Number of seats in the game."""
        return len(self.animals)

    def count(self, seat: int, animal: str) -> int:
        """How many cards of `animal` a seat holds (public)."""
        return self.animals[seat].get(animal, 0)

    def targets(self, seat: int | None = None) -> tuple[tuple[int, str], ...]:
        """Valid trade targets of a seat (default: this one), by seat then animal order."""
        seat = self.seat if seat is None else seat
        assert self.config is not None
        mine = self.animals[seat]
        out = []
        for other in range(self.players):
            if other == seat:
                continue
            theirs = self.animals[other]
            for a in self.config.animals:
                if mine.get(a) and theirs.get(a):
                    out.append((other, a))
        return tuple(out)

    def snapshot(self, pending: AnyDecision | None = None) -> Observation:
        """The observation as an immutable value."""
        players = tuple(
            PlayerView(
                seat=p,
                animals={a: n for a, n in self.animals[p].items() if n},
                money_cards=self.money_cards[p],
                sets=tuple(self.sets[p]),
                revealed_money=((r := self.revealed[p]) and r[0]) or None,
                revealed_turn=r[1] if r else None,
            )
            for p in range(self.players)
        )
        return Observation(
            seat=self.seat,
            turn=self.turn,
            active=self.active,
            deck_left=self.deck_left,
            money=self.money,
            animals={a: n for a, n in self.animals[self.seat].items() if n} if self.animals else {},
            players=players,
            targets=self.targets() if self.animals else (),
            recent=tuple(self.recent),
            notes=self.notes,
            pending=pending if pending is not None and self.seat in pending.seats else None,
            ended=self.ended,
            scores=self.scores,
        )

    # ---- handlers --------------------------------------------------------------------------

    def _game_started(self, e: ev.GameStarted) -> None:
        self.holdings += 1
        self.config = e.config
        self.seats = e.seats
        n = e.config.players
        self.animals = [dict.fromkeys(e.config.animals, 0) for _ in range(n)]
        self.money_cards = [0] * n
        self.sets = [[] for _ in range(n)]
        self.revealed = [None] * n

    def _hands_dealt(self, e: ev.HandsDealt) -> None:
        self.holdings += 1
        self.money = normalize(e.money)
        self.wealth = sum(self.money)
        self.money_cards = [len(e.money)] * len(self.animals)
        for seat, hand in enumerate(e.animals):
            for a in hand:
                self.animals[seat][a] += 1
        self.deck_left = e.deck_left

    def _turn_started(self, e: ev.TurnStarted) -> None:
        self.turn = e.turn
        self.active = e.seat
        self.deck_left = e.deck_left

    def _card_drawn(self, e: ev.CardDrawn) -> None:
        self.deck_left = e.deck_left

    def _donkey_payout(self, e: ev.DonkeyPayout) -> None:
        self.holdings += 1
        self.money = add(self.money, (e.amount,))
        self.wealth += e.amount
        self.money_cards = [n + 1 for n in self.money_cards]

    def _auction_opened(self, e: ev.AuctionOpened) -> None:
        self.auction = e
        self.price = 0
        self.leader = None

    def _round_closed(self, e: ev.BidRoundClosed) -> None:
        self.price = e.price
        self.leader = e.leader

    def _overbid(self, e: ev.OverbidRevealed) -> None:
        self.revealed[e.seat] = (e.money, self.turn)

    def _restarted(self, e: ev.AuctionRestarted) -> None:
        self.price = 0
        self.leader = None

    def _payment_made(self, e: ev.PaymentMade) -> None:
        self.holdings += 1
        self.money_cards[e.payer] -= e.n_cards
        self.money_cards[e.payee] += e.n_cards

    def _payment_cards(self, e: ev.PaymentCards) -> None:
        self.holdings += 1
        if e.payer == self.seat:
            self.money = remove(self.money, e.cards)
            self.wealth = sum(self.money)
        if e.payee == self.seat:
            self.money = add(self.money, e.cards)
            self.wealth = sum(self.money)

    def _animal_moved(self, e: ev.AnimalMoved) -> None:
        self.holdings += 1
        if e.giver is not None:
            self.animals[e.giver][e.animal] -= e.count
        self.animals[e.receiver][e.animal] += e.count
        self.auction = None
        self.trade = None
        self.my_offer = ()
        self.their_offer = None
        self.ties = 0

    def _set_completed(self, e: ev.SetCompleted) -> None:
        self.holdings += 1
        self.sets[e.seat].append(e.animal)

    def _trade_initiated(self, e: ev.TradeInitiated) -> None:
        self.trade = e
        self.ties = 0

    def _offer_cards(self, e: ev.OfferCards) -> None:
        self.my_offer = e.cards

    def _offers_revealed(self, e: ev.OffersRevealed) -> None:
        if self.seat == e.initiator:
            self.their_offer = e.target_cards
        else:
            self.their_offer = e.initiator_cards

    def _trade_tied(self, e: ev.TradeTied) -> None:
        self.ties = e.ties

    def _offers_exchanged(self, e: ev.OffersExchanged) -> None:
        self.holdings += 1
        i, t = e.initiator, e.target
        self.money_cards[i] += e.target_n - e.initiator_n
        self.money_cards[t] += e.initiator_n - e.target_n
        if self.seat in (i, t) and self.their_offer is not None:
            self.money = add(remove(self.money, self.my_offer), self.their_offer)
            self.wealth = sum(self.money)

    def _game_ended(self, e: ev.GameEnded) -> None:
        self.ended = True
        self.scores = e.scores

    def _scratchpad(self, e: ae.ScratchpadUpdated) -> None:
        self.notes = e.notes


_HANDLERS: dict[type, Callable[[SeatView, Any], None]] = {
    ev.GameStarted: SeatView._game_started,
    ev.HandsDealt: SeatView._hands_dealt,
    ev.TurnStarted: SeatView._turn_started,
    ev.CardDrawn: SeatView._card_drawn,
    ev.DonkeyPayout: SeatView._donkey_payout,
    ev.AuctionOpened: SeatView._auction_opened,
    ev.BidRoundClosed: SeatView._round_closed,
    ev.OverbidRevealed: SeatView._overbid,
    ev.AuctionRestarted: SeatView._restarted,
    ev.PaymentMade: SeatView._payment_made,
    ev.PaymentCards: SeatView._payment_cards,
    ev.AnimalMoved: SeatView._animal_moved,
    ev.SetCompleted: SeatView._set_completed,
    ev.TradeInitiated: SeatView._trade_initiated,
    ev.OfferCards: SeatView._offer_cards,
    ev.OffersRevealed: SeatView._offers_revealed,
    ev.TradeTied: SeatView._trade_tied,
    ev.OffersExchanged: SeatView._offers_exchanged,
    ev.GameEnded: SeatView._game_ended,
    ae.ScratchpadUpdated: SeatView._scratchpad,
}
SeatView.FOLDS = frozenset(_HANDLERS)


def observe(
    events: Iterable[Any], seat: int, pending: AnyDecision | None = None, *, recent: int = RECENT
) -> Observation:
    """The observation of `seat` after `events` (a whole or partial game log)."""
    view = SeatView(seat, recent=recent)
    for e in events:
        if visible(e, seat):
            view.apply(e)
    return view.snapshot(pending)
