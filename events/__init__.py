"""Events: the immutable facts of a game, the only source of truth.

The top level holds what every game shares: the event base and audiences (`events.base`),
seat specs and configuration errors (`events.config`), the agents' own events
(`events.agent`), the codec, the catalogue of games and the store. Each game family keeps its
events in a subpackage of its own (`events.cattle`, `events.pact`, `events.openspiel`).
"""

from events.codec import encode, to_builtins

__all__ = ["encode", "to_builtins"]
