"""Events: the immutable facts of a game, the only source of truth."""

from events.agent import AgentEvent, AgentNote, ScratchpadUpdated
from events.codec import AnyEvent, decode, encode, to_builtins
from events.domain import (
    ANIMAL_VALUES,
    ANIMALS,
    DENOMINATIONS,
    ConfigError,
    GameConfig,
    SeatSpec,
    score_of,
)
from events.game import *  # noqa: F403
from events.game import ENGINE, GAME_EVENT_TYPES, PUBLIC, Event, GameEvent

__all__ = [
    "ANIMALS",
    "ANIMAL_VALUES",
    "DENOMINATIONS",
    "ENGINE",
    "GAME_EVENT_TYPES",
    "PUBLIC",
    "AgentEvent",
    "AgentNote",
    "AnyEvent",
    "ConfigError",
    "Event",
    "GameConfig",
    "GameEvent",
    "ScratchpadUpdated",
    "SeatSpec",
    "decode",
    "encode",
    "score_of",
    "to_builtins",
]
