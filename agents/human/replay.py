"""A person's seat in a replay: the lines they typed are read again, nothing is asked.

What a person typed (and how long it took) cannot be produced again, but everything the seat
derived from it can: each stored `HumanAnswer` line is read again by the same parser a live
seat uses, and the seat writes its records afresh from what that reading gives (the decision
it answered, ask or retry, how the line was read, why it was refused), plays the move the
line gives now, and plays the prompter's default where the log says the time ran out or the
person left. A replay compares these records and the moves with the stored ones, so an edited
line, reading, stage, decision or default shows as a difference. Only the typed text and the
times are taken as stored; verification bounds the times by the seat's time limit.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import Any

from agents.base import Agent
from agents.human.agent import DEFAULT_TIMEOUT, read_line
from events import catalog
from events.agent import ActionDefaulted, HumanAnswer, SeatAbandoned
from events.config import SeatSpec

ABANDONED = "seat abandoned"
"""The reason of every default a seat plays after its person left."""


class RecordsExhausted(LookupError):
    """The log holds no more of the seat's records: the game was stored before it ended."""


class ReplayedHuman(Agent):
    """Reads a person's stored lines again for each decision (see the module docstring)."""

    is_async = True

    def __init__(
        self, spec: SeatSpec, seat: int, seed: int, config: Any, log: Sequence[Any]
    ) -> None:
        super().__init__(seat, seed, config)
        game = catalog.for_config(config)
        if game.prompter is None:
            raise catalog.UnknownGame(f"{game.name} has no prompts: a person cannot play it")
        self.prompter: Any = game.prompter
        self.spec = spec.agent
        self.timeout = float(spec.options.get("timeout", DEFAULT_TIMEOUT))
        kinds = (HumanAnswer, ActionDefaulted, SeatAbandoned)
        self.stored: deque[Any] = deque(e for e in log if isinstance(e, kinds) and e.seat == seat)
        self.abandoned = False

    def _next(self) -> Any:
        if not self.stored:
            raise RecordsExhausted(f"seat {self.seat}: no more stored answers")
        return self.stored.popleft()

    def _default(self, decision: Any, reason: str) -> Any:
        action = self.prompter.default_action(decision, self.seat)
        self.record(
            ActionDefaulted(
                seat=self.seat,
                decision=decision.kind,
                action=self.prompter.action_json(action),
                reason=reason,
            )
        )
        return action

    def act(self, view: Any, decision: Any) -> Any:
        raise RuntimeError("human seats are asynchronous: use aact")

    async def aact(self, view: Any, decision: Any) -> Any:
        if self.abandoned:
            self._next()  # the stored default, made again here
            return self._default(decision, ABANDONED)
        make_schema = getattr(self.prompter, "answer_schema", None)
        schema = make_schema(view, decision) if make_schema is not None else None
        stage = "ask"
        while True:
            got = self._next()
            if isinstance(got, SeatAbandoned):
                self.abandoned = True
                self.record(
                    SeatAbandoned(
                        seat=self.seat,
                        decision=decision.kind,
                        reason=got.reason,
                        elapsed_ms=got.elapsed_ms,
                    )
                )
                self._next()  # the default that follows a departure
                return self._default(decision, ABANDONED)
            if isinstance(got, ActionDefaulted):
                # The only other default of a person's seat: the time limit ran out.
                return self._default(decision, f"no answer within {self.timeout:g} s")
            action, how, error = read_line(self.prompter, got.text, decision, self.seat, schema)
            self.record(
                HumanAnswer(
                    seat=self.seat,
                    decision=decision.kind,
                    stage=stage,
                    text=got.text,
                    parse_stage=how,
                    error=error,
                    elapsed_ms=got.elapsed_ms,
                )
            )
            if action is not None:
                return action
            stage = "retry"


def replay_human_agent(
    spec: SeatSpec, seat: int, seed: int, config: Any, log: Sequence[Any]
) -> ReplayedHuman:
    """A person's seat for a replay: their stored lines read again."""
    return ReplayedHuman(spec, seat, seed, config, log)
