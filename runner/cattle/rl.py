"""Cattle Trade as numbers for learning: a fixed discrete action space with a mask, and the
seat's view as a flat vector (`runner.rl` builds the environments on top).

Action ids, for a game of P players and A animal types (docs/rl.md has the table):

* 0 auction, 1 trade (turn choice);
* 2 pass; 3 .. 3+BIDS-1 bid 10, 20, ..., `BID_CAP` coins (multiples of 10);
* then sell, buy-right (auctioneer after an auction); then accept (trade target);
* then `len(OFFERS)` offer ids (a counter-offer or a new offer after a tie);
* then P x A x `len(OFFERS)` trade ids: challenge seat p for animal a with offer o.

An offer id is a pair (amount level, zero cards): the money cards paid are those the
payment rule picks for the level's amount (the smallest sum reaching it, the fewest cards;
`engine.cattle.money.payment`), and the zero cards (0 to 2) are added on top, so a bluff is
one id. An offer is legal when the seat's money reaches its amount and it holds the zeros.
A bid is legal from the decision's minimum up to the cap (an overbid beyond the seat's money
is legal in the canonical and legacy modes, where the rules deal with it; capped seats are
masked at their cap).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from agents.cattle.parse import default_action
from engine.cattle import actions as act
from engine.cattle import decisions as dec
from engine.cattle.money import payment
from events.cattle.domain import DENOMINATIONS, GameConfig
from projections.cattle.observation import SeatView
from runner.rl.codec import action_id

BID_CAP = 2000
"""The highest bid an action id names, in coins (bids above it cannot be made)."""
BIDS = BID_CAP // 10

LEVELS = (0, 10, 20, 30, 40, 50, 60, 80, 100, 150, 200, 300, 400, 500, 700, 1000)
"""The amounts an offer id can name, in coins."""
ZEROS = (0, 1, 2)
"""How many 0-value cards an offer id adds."""
OFFERS = tuple((level, zeros) for zeros in ZEROS for level in LEVELS)
"""Every offer an id names: (amount, zero cards), amount first."""

KINDS = ("turn", "bid", "sale", "initiate_trade", "respond_trade", "tie_offer")
_KIND = {kind: i for i, kind in enumerate(KINDS)}
_DENOMINATION = {v: len(KINDS) + i for i, v in enumerate(DENOMINATIONS)}
"""Where each money card is counted in an observation."""

AUCTION, TRADE, PASS, BID0 = 0, 1, 2, 3
SELL = BID0 + BIDS
BUY_RIGHT = SELL + 1
ACCEPT = BUY_RIGHT + 1
OFFER0 = ACCEPT + 1
TRADE0 = OFFER0 + len(OFFERS)


def offer_cards(money: tuple[int, ...], offer: int) -> tuple[int, ...] | None:
    """The cards offer id `offer` (0 .. len(OFFERS)-1) takes from `money`, or None when the
    seat cannot make it."""
    amount, zeros = OFFERS[offer]
    if sum(money) < amount or money.count(0) < zeros:
        return None
    return (0,) * zeros + payment(money, amount)


@lru_cache(maxsize=4096)
def _offers(money: tuple[int, ...]) -> np.ndarray:
    """The offer ids a seat holding `money` can make (hands repeat within and across games,
    so each is worked out once)."""
    # `offer_cards` without working out the cards: the payment rule pays any amount the hand
    # reaches, so an offer can be made exactly when the hand reaches it and holds the zeros.
    total, zeros = sum(money), money.count(0)
    found = [o for o, (amount, z) in enumerate(OFFERS) if total >= amount and zeros >= z]
    ids = np.array(found, dtype=np.intp)
    ids.flags.writeable = False
    return ids


def _cards(money: tuple[int, ...], offer: int) -> tuple[int, ...]:
    """The cards of offer id `offer`; for an offer the seat cannot make, the cards that
    would make it (highest denominations first), which the rules refuse as not held."""
    found = offer_cards(money, offer)
    if found is not None:
        return found
    amount, zeros = OFFERS[offer]
    cards = [0] * zeros
    for v in sorted(DENOMINATIONS, reverse=True):
        while v and amount >= v:
            cards.append(v)
            amount -= v
    return tuple(cards)


class CattleCodec:
    """Action ids and observation vectors of one configuration."""

    discrete = True

    def __init__(self, config: GameConfig) -> None:
        self.config = config
        self.players = config.players
        self.animals = config.animals
        self._column = {name: 1 + j for j, name in enumerate(self.animals)}
        """An animal's place in a player's block of an observation (after the card count)."""
        self._deck = len(KINDS) + len(DENOMINATIONS) + 1 + self.players * (3 + len(self.animals))
        """Where the deck's count is in an observation (what follows is not kept)."""
        self._held: dict[int, tuple[SeatView, int, np.ndarray]] = {}
        """Per seat: the view and its `holdings` count the kept array was built from."""
        self.n_actions = TRADE0 + self.players * len(self.animals) * len(OFFERS)
        p, a = self.players, len(self.animals)
        # kind, own money counts, wealth, seat, per player (cards, animals, sets), deck,
        # auction (animal, price, leader, auctioneer), trade (animal, initiator, target,
        # cards, own offer, their offer, ties), turn
        self.obs_size = (
            len(KINDS) + len(DENOMINATIONS) + 1 + p + p * (1 + a + 1) + 1
            + (a + 1 + p + p) + (a + p + p + 1 + 1 + 1 + 1) + 1
        )  # fmt: skip

    def _index(self, seat: int, animal: str, offer: int) -> int:
        return (
            TRADE0 + (seat * len(self.animals) + self.animals.index(animal)) * len(OFFERS) + offer
        )

    # ---- actions -----------------------------------------------------------------------------

    def mask(self, view: SeatView, decision: Any, seat: int) -> np.ndarray:
        """1 for every action id the seat may take now (all 0 when it is not asked)."""
        m = np.zeros(self.n_actions, dtype=np.int8)
        if decision is None or seat not in decision.seats:
            return m
        money = view.money
        if isinstance(decision, dec.BidDecision):
            m[PASS] = 1
            top = BID_CAP
            if decision.mode == "fast":
                top = min(top, view.wealth // 10 * 10)
            cap = decision.cap(seat)
            if cap is not None:
                top = min(top, cap)
            low = decision.min_bid
            if low <= top:
                m[BID0 + low // 10 - 1 : BID0 + top // 10] = 1
        elif isinstance(decision, dec.TurnDecision):
            m[AUCTION] = 1
            m[TRADE] = 1 if decision.targets else 0
        elif isinstance(decision, dec.SaleDecision):
            m[SELL] = 1
            m[BUY_RIGHT] = 1 if view.wealth >= decision.price else 0
        elif isinstance(decision, dec.TradeDecision):
            offers = _offers(money)
            for target, animal in decision.targets:
                m[offers + self._index(target, animal, 0)] = 1
        elif isinstance(decision, dec.ResponseDecision | dec.TieDecision):
            if isinstance(decision, dec.ResponseDecision):
                m[ACCEPT] = 1
            m[_offers(money) + OFFER0] = 1
        return m

    def fits(self, decision: Any, i: int) -> bool:
        """True when id `i` is an answer of the kind `decision` asks for (legal or not)."""
        if isinstance(decision, dec.BidDecision):
            return PASS <= i < SELL
        if isinstance(decision, dec.TurnDecision):
            return i in (AUCTION, TRADE)
        if isinstance(decision, dec.SaleDecision):
            return i in (SELL, BUY_RIGHT)
        if isinstance(decision, dec.TradeDecision):
            return TRADE0 <= i < self.n_actions
        if isinstance(decision, dec.ResponseDecision):
            return ACCEPT <= i < TRADE0
        return OFFER0 <= i < TRADE0

    def action(self, view: SeatView, decision: Any, seat: int, choice: Any) -> act.AnyAction:
        """The action an id names. An id of the kind asked that the mask refuses (a bid
        below the price, an offer the seat cannot make) still becomes that action, which the
        rules record as rejected and answer by their fallback; an id of another kind of
        decision becomes the decision's documented default action (the one a model seat
        plays when its answer is unusable: auction, pass, sell, the first target with an
        empty offer, accept, an empty offer). A value that is not an id of the space (a
        float, a string, an id out of range) raises."""
        i = action_id(choice, self.n_actions)
        if not self.fits(decision, i):
            return default_action(decision, seat)
        if i in (AUCTION, TRADE):
            return act.ChooseTurn(seat=seat, choice="trade" if i == TRADE else "auction")
        if i == PASS:
            return act.Pass(seat=seat)
        if BID0 <= i < SELL:
            return act.PlaceBid(seat=seat, amount=(i - BID0 + 1) * 10)
        if i in (SELL, BUY_RIGHT):
            return act.ChooseSale(seat=seat, decision="buy_right" if i == BUY_RIGHT else "sell")
        if i == ACCEPT:
            return act.AcceptTrade(seat=seat)
        if OFFER0 <= i < TRADE0:
            cards = _cards(view.money, i - OFFER0)
            if isinstance(decision, dec.ResponseDecision):
                return act.CounterTrade(seat=seat, cards=cards)
            return act.OfferAgain(seat=seat, cards=cards)
        if TRADE0 <= i < self.n_actions:
            rest, offer = divmod(i - TRADE0, len(OFFERS))
            target, a = divmod(rest, len(self.animals))
            return act.InitiateTrade(
                seat=seat, target=target, animal=self.animals[a], cards=_cards(view.money, offer)
            )
        raise ValueError(f"action id {i} is not in 0..{self.n_actions - 1}")

    # ---- observations ------------------------------------------------------------------------

    def observe(self, view: SeatView, decision: Any, seat: int, state: Any = None) -> np.ndarray:
        """The seat's view as a vector (amounts in hundreds of coins, animals as fractions of
        a set). It reads the seat's view only, and the decision when it is asked."""
        if view.config is None:
            return np.zeros(self.obs_size, dtype=np.float32)
        # What the players hold changes at a few events only (`SeatView.holdings` counts
        # them): that part is built once per change and copied; the rest is set on the copy.
        kept = self._held.get(seat)
        if kept is None or kept[0] is not view or kept[1] != view.holdings:
            base = self._holdings(view, seat)
            self._held[seat] = (view, view.holdings, base)
        else:
            base = kept[2]
        out = base.copy()
        if decision is not None and seat in decision.seats:
            out[_KIND[decision.kind]] = 1.0
        p, a = self.players, len(self.animals)
        column = self._column
        i = self._deck
        out[i] = view.deck_left
        i += 1
        auction = view.auction
        if auction is not None:
            out[i + column[auction.animal] - 1] = 1.0
            out[i + a] = view.price / 100.0
            if view.leader is not None:
                out[i + a + 1 + view.leader] = 1.0
            out[i + a + 1 + p + auction.auctioneer] = 1.0
        i += a + 1 + 2 * p
        t = view.trade
        if t is not None:
            out[i + column[t.animal] - 1] = 1.0
            out[i + a + t.initiator] = 1.0
            out[i + a + p + t.target] = 1.0
            j = i + a + 2 * p
            out[j] = t.n_cards
            out[j + 1] = sum(view.my_offer) / 100.0
            out[j + 2] = sum(view.their_offer) / 100.0 if view.their_offer is not None else -1.0
            out[j + 3] = view.ties
        i += a + 2 * p + 4
        out[i] = view.turn / 100.0
        return out

    def _holdings(self, view: SeatView, seat: int) -> np.ndarray:
        """An observation holding only the seat's money, the seat's place and what every
        player holds (filled as a list and converted once: a list item is set several times
        faster than an array item, and each value is rounded to float32 once either way)."""
        out: list[float] = [0.0] * self.obs_size
        for v in view.money:
            out[_DENOMINATION[v]] += 1.0
        p, a = self.players, len(self.animals)
        i = len(KINDS) + len(DENOMINATIONS)
        out[i] = view.wealth / 100.0
        out[i + 1 + seat] = 1.0
        i += 1 + p
        k = float(self.config.set_size)
        column = self._column
        cards, sets = view.money_cards, view.sets
        for q, held in enumerate(view.animals[:p]):
            out[i] = cards[q]
            for name, n in held.items():
                out[i + column[name]] = n / k
            out[i + 1 + a] = len(sets[q])
            i += 2 + a
        return np.array(out, dtype=np.float32)


def codec(config: GameConfig) -> CattleCodec:
    """The codec `runner.rl` asks this game for."""
    return CattleCodec(config)
