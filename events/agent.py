"""Facts recorded by agents rather than the rules: notes and model exchanges.

The engine's fold ignores them; they exist so that replays and analyses see every input an
agent had, and so that a replay never has to call a model again.
"""

from __future__ import annotations

from events.game import ENGINE, Event, Seat


class ScratchpadUpdated(Event, frozen=True, kw_only=True, tag="scratchpad_updated"):
    """A seat rewrote its private notes."""

    ACTOR = "seat"
    seat: Seat
    notes: str

    def audience(self) -> tuple[int, ...] | None:
        return (self.seat,)


class AgentNote(Event, frozen=True, kw_only=True, tag="agent_note"):
    """A free-form, engine-only remark an agent attached to the log (diagnostics)."""

    ACTOR = "seat"
    seat: Seat
    note: str

    def audience(self) -> tuple[int, ...] | None:
        return ENGINE


AgentEvent = ScratchpadUpdated | AgentNote
"""Every event an agent may add to a game's log."""
