"""Decoding Cattle Trade events: the union of its events and the agents' events."""

from __future__ import annotations

from typing import Any, TypeAlias

import msgspec

from events.agent import AgentEvent
from events.cattle.game import GameEvent

AnyEvent: TypeAlias = GameEvent | AgentEvent
"""Every event a Cattle Trade log may hold."""

_DECODER: msgspec.json.Decoder[Any] = msgspec.json.Decoder(AnyEvent)


def decode(data: bytes | str) -> Any:
    """Decode one Cattle Trade event from JSON produced by `events.codec.encode`."""
    return _DECODER.decode(data)
