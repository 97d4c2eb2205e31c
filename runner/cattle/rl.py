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
            offers = [o for o in range(len(OFFERS)) if offer_cards(money, o) is not None]
            for target, animal in decision.targets:
                for o in offers:
                    m[self._index(target, animal, o)] = 1
        elif isinstance(decision, dec.ResponseDecision | dec.TieDecision):
            if isinstance(decision, dec.ResponseDecision):
                m[ACCEPT] = 1
            for o in range(len(OFFERS)):
                if offer_cards(money, o) is not None:
                    m[OFFER0 + o] = 1
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
        out = np.zeros(self.obs_size, dtype=np.float32)
        if view.config is None:
            return out
        p, animals = self.players, self.animals
        k = float(self.config.set_size)
        i = 0
        if decision is not None and seat in decision.seats:
            out[KINDS.index(decision.kind)] = 1.0
        i += len(KINDS)
        for v in view.money:
            out[i + DENOMINATIONS.index(v)] += 1.0
        i += len(DENOMINATIONS)
        out[i] = view.wealth / 100.0
        i += 1
        out[i + seat] = 1.0
        i += p
        for q in range(p):
            out[i] = view.money_cards[q]
            held = view.animals[q]
            for j, a in enumerate(animals):
                out[i + 1 + j] = held.get(a, 0) / k
            out[i + 1 + len(animals)] = len(view.sets[q])
            i += 2 + len(animals)
        out[i] = view.deck_left
        i += 1
        if view.auction is not None:
            out[i + animals.index(view.auction.animal)] = 1.0
            out[i + len(animals)] = view.price / 100.0
            if view.leader is not None:
                out[i + len(animals) + 1 + view.leader] = 1.0
            out[i + len(animals) + 1 + p + view.auction.auctioneer] = 1.0
        i += len(animals) + 1 + 2 * p
        if view.trade is not None:
            t = view.trade
            out[i + animals.index(t.animal)] = 1.0
            out[i + len(animals) + t.initiator] = 1.0
            out[i + len(animals) + p + t.target] = 1.0
            j = i + len(animals) + 2 * p
            out[j] = t.n_cards
            out[j + 1] = sum(view.my_offer) / 100.0
            out[j + 2] = sum(view.their_offer) / 100.0 if view.their_offer is not None else -1.0
            out[j + 3] = view.ties
        i += len(animals) + 2 * p + 4
        out[i] = view.turn / 100.0
        return out


def codec(config: GameConfig) -> CattleCodec:
    """The codec `runner.rl` asks this game for."""
    return CattleCodec(config)
