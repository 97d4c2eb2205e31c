"""The base of every event of every game, and who may see it.

Each event class says who may see it through `audience()`: `PUBLIC` (every seat), `ENGINE`
(no seat: engine-only facts such as a deck order or a drawn value) or a tuple of seats. A
seat's observation folds exactly the events it may see; the store keeps the audience in the
`visible_to` column.
"""

from __future__ import annotations

from typing import Any, ClassVar

import msgspec

Seat = int

#: Audience of an event every seat may see.
PUBLIC: None = None
#: Audience of an event no seat may see.
ENGINE: tuple[int, ...] = ()


class Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", gc=False):
    """Base of every game event."""

    #: Name of the field holding the seat that acted or is concerned, for the store's actor column.
    ACTOR: ClassVar[str | None] = None

    def audience(self) -> tuple[int, ...] | None:
        """Seats that may see this event; None means every seat, () means none."""
        return PUBLIC

    def actor(self) -> int | None:
        """The seat this event is about, if any."""
        return getattr(self, self.ACTOR) if self.ACTOR else None


class SeatPrivate(Event, frozen=True, kw_only=True):
    """Base of events that only the seat they concern may see (its `actor`)."""

    def audience(self) -> tuple[int, ...] | None:
        seat = self.actor()
        assert seat is not None, "a seat-private event names its seat"
        return (seat,)


def visible(event: Any, seat: int | None) -> bool:
    """True if `seat` may see `event` (seat None: the omniscient viewer sees everything)."""
    if seat is None:
        return True
    aud = event.audience()
    return aud is None or seat in aud
