"""One shared encoder and decoder for every event (deterministic, byte-identical JSON)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeAlias

import msgspec

from events.agent import AgentEvent
from events.game import GameEvent

AnyEvent: TypeAlias = GameEvent | AgentEvent
"""Every event a game log may hold."""

_ENCODER = msgspec.json.Encoder(order="deterministic")
_DECODER: msgspec.json.Decoder[Any] = msgspec.json.Decoder(AnyEvent)


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


def decode(data: bytes | str) -> Any:
    """Decode one event from JSON produced by `encode`."""
    return _DECODER.decode(data)


def to_builtins(event: Any) -> Any:
    """The event as plain dicts and lists (with its "type" tag), for JSON views and snapshots."""
    return msgspec.to_builtins(event, order="deterministic")
