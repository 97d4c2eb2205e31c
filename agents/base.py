"""The agent interface: map a seat's view and the pending decision to an action."""

from __future__ import annotations

from typing import Any


class Agent:
    """Base of every agent.

    Code agents override `act`; agents that wait on I/O (LLMs) override `aact` and set
    `is_async`. The driver asks the seats of a simultaneous decision concurrently.
    """

    spec: str = "agent"
    is_async: bool = False
    reads_view: bool = True
    """False for agents that never look into the seat's view beyond `view.seen` (how many
    events of the log came before the decision): the driver then skips folding the view."""

    def __init__(self, seat: int, seed: int, config: Any) -> None:
        self.seat = seat
        self.seed = seed
        self.config = config
        self._records: list[Any] = []

    def act(self, view: Any, decision: Any) -> Any:
        """Choose an action for `decision` from what this seat may see."""
        raise NotImplementedError

    async def aact(self, view: Any, decision: Any) -> Any:
        """Asynchronous `act`; by default calls `act`."""
        return self.act(view, decision)

    def record(self, event: Any) -> None:
        """Queue an agent-side event (e.g. a model exchange) to be stored with the game."""
        self._records.append(event)

    def drain(self) -> list[Any]:
        """Events queued since the last call, in order (a list the caller must not change)."""
        out = self._records
        if out:  # the driver asks after every decision; most find nothing queued
            self._records = []
        return out

    def resume(self, log: list[Any]) -> None:
        """Prepare to play a game again from its start up to the end of `log` (its stored
        events) without side effects, then go on live. Code agents are deterministic and need
        nothing; agents with side effects (model calls) answer from `log` first."""
        return None

    async def after_turn(self, view: Any) -> None:
        """Called after this seat's own turn ends (scratchpad updates hook in here)."""
        return None

    async def close(self) -> None:
        """Release resources (network clients)."""
        return None
