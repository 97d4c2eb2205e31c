"""Shared rules of the third versions of the code agents (`tracker-v3`, `setrace-v3`,
`economy-v3`), kept unchanged so that games played with them replay.

The paper (§3.3) describes three deterministic heuristics and reports how they play (Table 3,
the bid ramps of §4). Three traits it reports for all of them are shared here:

* **Prices follow the money supply.** Every seat's money grows from the starting 90 coins to
  several hundred as the donkey payouts arrive, and the code agents' bids grow with it (the
  paper's early/late ramps). A card's worth in set points is turned into coins at a rate
  proportional to the mean money per player, which every seat knows exactly (the starting
  hands and payouts are public, and payments only move money between players).
* **Raising while leading.** In canonical call rounds an auction ends only when every bidder
  passes in the same round, and the paper's code agents often raise their own standing bid
  ("self-bids", 58-67% of their bids). Here an agent that leads raises again while a rival
  could still afford to outbid it, up to its own limit.
* **No overbids.** A bid never exceeds the agent's money (the base class's safety net).
"""

from __future__ import annotations

from collections.abc import Callable

from agents.cattle.code import CodeAgent, cards_for, round_down
from engine.cattle import actions as act
from engine.cattle import decisions as dec
from events.cattle import game as ev
from events.cattle.domain import GameConfig
from projections.cattle.observation import SeatView


class CalibratedAgentV3(CodeAgent):
    """Base of the third versions: money-supply pricing and call-round raising."""

    PRICE_BASE = 400.0
    """Mean money per player at which one set point is worth one coin."""
    RATE_POWER = 1.0
    """How steeply the coin rate grows with the money supply (1: in proportion)."""
    SOLO_SHARE = 0.5
    """While it leads and nobody else bid in the last round, it raises up to this share of its
    limit."""
    NEAR_SOLO_SHARE = 0.5
    """The same, for a card that leaves one of its sets at most one card short."""

    def __init__(self, seat: int, seed: int, config: GameConfig) -> None:
        super().__init__(seat, seed, config)
        self._worth_key: tuple[int, int] | None = None
        self._worth = 0.0

    def auction_worth(self, d: dec.BidDecision, compute: Callable[[], float]) -> float:
        """`compute()`, once per auction: while an auction runs no animal moves and no money
        enters the game, so what a card is worth stays the same from bid to bid."""
        key = (d.auction, self.ledger.total)
        if key != self._worth_key:
            self._worth_key, self._worth = key, compute()
        return self._worth

    def coin_rate(self) -> float:
        """Coins per set point now: the mean money per player over `PRICE_BASE`."""
        ledger = self.ledger
        players = max(1, ledger.players)
        return float((ledger.total / players / self.PRICE_BASE) ** self.RATE_POWER)

    def rival_budget(self, view: SeatView, d: dec.BidDecision, *, holders: bool = False) -> int:
        """The most that a competing bidder can pay, by the ledger's estimate (`holders`: only
        rivals that hold the animal, so that the card brings them closer to a set)."""
        rivals = [
            p
            for p in range(self.ledger.players)
            if p not in (self.seat, d.auctioneer)
            and (d.cap(p) is None or (d.cap(p) or 0) > d.price)
            and (not holders or view.animals[p][d.animal] > 0)
        ]
        return max((self.ledger.est(p) for p in rivals), default=0)

    def contested(self, view: SeatView, d: dec.BidDecision) -> bool:
        """True if a rival bid in the previous call round of this auction."""
        want = d.round - 1
        for e in reversed(view.history):
            t = type(e)
            if t is ev.BidPlaced:
                assert isinstance(e, ev.BidPlaced)
                if e.auction == d.auction and e.round == want and e.seat != self.seat:
                    return True
                if e.round < want:
                    return False
            elif t is ev.AuctionOpened or t is ev.AuctionRestarted:
                return False
        return False

    def raise_to(
        self, view: SeatView, d: dec.BidDecision, limit: float, *, near: bool = False
    ) -> act.AnyAction:
        """Bid toward `limit`: the whole of it in a sealed round, else the minimum raise.

        While this seat leads it raises again up to `limit` if a rival bid in the last round
        (the contest is alive and the rival is likely to raise), and only up to
        `SOLO_SHARE` of `limit` when nobody else bid (`NEAR_SOLO_SHARE` when the card leaves
        one of its sets at most one card short, `near`).
        """
        seat = self.seat
        if d.mode == "fast":
            amount = round_down(limit)
            if amount >= d.min_bid:
                return act.PlaceBid(seat=seat, amount=amount)
            return act.Pass(seat=seat)
        top = limit
        if d.leader == seat and not self.contested(view, d):
            top = (self.NEAR_SOLO_SHARE if near else self.SOLO_SHARE) * limit
        if d.min_bid <= top:
            return act.PlaceBid(seat=seat, amount=d.min_bid)
        return act.Pass(seat=seat)

    def offer(self, view: SeatView, amount: int, pad: int = 0) -> tuple[int, ...]:
        """Money cards reaching `amount` (least overshoot), plus up to `pad` zero cards that
        hide the offer's size."""
        hand = view.money
        cards = cards_for(hand, amount)
        zeros = min(pad, hand.count(0) - cards.count(0))
        return cards + (0,) * max(0, zeros)

    def bluff(self, view: SeatView, n: int) -> tuple[int, ...]:
        """A bluff: only zero-value cards (at least one if the hand has any)."""
        return (0,) * min(max(1, n), view.money.count(0))
