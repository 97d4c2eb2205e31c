"""One shared encoder for every event of every game (deterministic, byte-identical JSON).

Decoding needs the game: its definition's `decoder` (events.catalog) reads its own events and
the agents' events."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

_ENCODER = msgspec.json.Encoder(order="deterministic")


def encode(event: Any) -> bytes:
    """Encode an event (or any msgspec value) to deterministic JSON bytes."""
    return _ENCODER.encode(event)


def encode_each(events: Sequence[Any]) -> list[str]:
    """The encodings of `events` as text, one per event (the same bytes `encode` gives)."""
    if not events:
        return []
    # One call for the whole batch: JSON escapes newlines inside strings, so each line is
    # exactly one event's encoding.
    return _ENCODER.encode_lines(events).decode().split("\n")[:-1]


def encode_log(events: Sequence[Any]) -> bytes:
    """The encodings of `events` in one bytes value, each followed by a newline (two logs are
    the same bytes event by event exactly when these are equal)."""
    return _ENCODER.encode_lines(events)


def to_builtins(event: Any) -> Any:
    """The event as plain dicts and lists (with its "type" tag), for JSON views and snapshots."""
    return msgspec.to_builtins(event, order="deterministic")
