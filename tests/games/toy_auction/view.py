"""What a seat of the toy auction sees, its timeline lines and its SQL view (the projections
layer of a game family)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from games.toy_auction.events import ToyBids, ToyEnded, ToyStarted, ToyValue


class ToyView:
    """What one seat knows: its own values and every revealed sale."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.seen = 0
        self.history: list[Any] = []
        self.ended = False
        self.value: int | None = None
        self.sales: list[ToyBids] = []

    def sync(self, log: Sequence[Any], audiences: Sequence[Any] | None = None) -> ToyView:
        """Fold the visible events not seen yet."""
        for i in range(self.seen, len(log)):
            e = log[i]
            aud = audiences[i] if audiences is not None else e.audience()
            if aud is None or self.seat in aud:
                if isinstance(e, ToyValue):
                    self.value = e.value
                elif isinstance(e, ToyBids):
                    self.sales.append(e)
                elif isinstance(e, ToyEnded):
                    self.ended = True
                self.history.append(e)
        self.seen = len(log)
        return self

    def snapshot(self, pending: Any = None) -> dict[str, Any]:
        """The view as plain data."""
        return {"seat": self.seat, "value": self.value, "sales": len(self.sales)}


def describe(e: Any, viewer: int | None) -> str | None:
    """One line per event."""
    match e:
        case ToyStarted():
            return f"Toy auction of {e.config.items} items for {e.config.players} players"
        case ToyValue():
            return f"Player {e.seat} values item {e.item} at {e.value}"
        case ToyBids():
            return f"Item {e.item}: bids {list(e.bids)}, won by Player {e.winner}"
        case ToyEnded():
            return f"Auction over: scores {list(e.scores)}"
    return None


SQL = Path(__file__).with_name("views.sql")
