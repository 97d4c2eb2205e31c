"""Budgets shared by the model seats of a whole tournament (docs/bounds.md, Budgets).

A `SharedBudget` is asked before every model call (`spent`), told when one starts (`begin`)
and what it used once answered (`settle`). The live one, `TournamentBudget`, counts the calls,
tokens and cost of every game of a tournament played in this process; once one of its limits
is reached every model seat plays its recorded default for the rest of the tournament, with
the reason in `ActionDefaulted`.

Where a seat stops depends on how its game raced the others, so a replay cannot ask the
budget again: it reads the stop from the log (`RecordedCut`): the decision of the seat's first
default whose reason names the tournament budget. Once the seat has made every call its log
recorded, the budget is spent, except within a decision before that one (whose default was
told "go on": the only question answered "go on" that no call follows, but a note update
that had nothing to write); the stop is sticky.
"""

from __future__ import annotations

import contextvars
from collections.abc import Sequence
from typing import Any, Protocol

from events.agent import ActionDefaulted, LLMCall, ModelDecision

PREFIX = "budget spent: tournament"
"""How the reason of a default played because a tournament budget was spent begins."""


class SharedBudget(Protocol):
    """A budget the seats of many games draw on."""

    def spent(self, agent: Any) -> str | None:
        """Why `agent` may make no more calls, or None."""
        ...

    def begin(self, agent: Any) -> None:
        """A call of `agent` starts (counted at once, so calls never overshoot)."""
        ...

    def settle(self, agent: Any, input_tokens: int, output_tokens: int) -> None:
        """What the call used."""
        ...


class TournamentBudget:
    """Calls, tokens (in and out) and cost (in the price table's currency) a tournament's
    model seats may use together; None for no limit. `used` starts from what the stored
    games of the tournament already spent (a resumed tournament keeps counting)."""

    def __init__(
        self,
        name: str,
        *,
        calls: int | None = None,
        tokens: int | None = None,
        cost: float | None = None,
        prices: dict[str, tuple[float, float]] | None = None,
        used: tuple[int, int, float] = (0, 0, 0.0),
    ) -> None:
        self.name = name
        self.max_calls, self.max_tokens, self.max_cost = calls, tokens, cost
        self.prices = prices or {}
        self.calls, self.tokens, self.cost = used
        self.stopped: str | None = None

    def spent(self, agent: Any) -> str | None:
        if agent.transport.replaying:
            return None  # the recorded part of a continued game: it was paid for already
        if self.stopped is None:
            for what, used, limit, flag in (
                ("model calls", self.calls, self.max_calls, "max_calls"),
                ("tokens", self.tokens, self.max_tokens, "max_tokens"),
                ("cost", self.cost, self.max_cost, "max_cost"),
            ):
                if limit is not None and used >= limit:
                    shown = f"{used:.4f}" if isinstance(used, float) else f"{used}"
                    self.stopped = f"{PREFIX} {self.name} used {shown} {what} ({flag}={limit:g})"
                    break
        return self.stopped

    def begin(self, agent: Any) -> None:
        if not agent.transport.replaying:
            self.calls += 1

    def settle(self, agent: Any, input_tokens: int, output_tokens: int) -> None:
        if agent.transport.replaying:
            return
        self.tokens += input_tokens + output_tokens
        from projections.costs import cost, price_for

        o = agent.options
        self.cost += (
            cost(input_tokens, output_tokens, price_for(o.provider, o.model, self.prices)) or 0.0
        )


class RecordedCut:
    """The stop a stored game's log records for one seat, for replays: after its `calls`
    model calls, from its decision number `decision` (0-based) on."""

    def __init__(self, calls: int, decision: int, reason: str) -> None:
        self.calls = calls
        self.decision = decision
        self.reason = reason

    def spent(self, agent: Any) -> str | None:
        if agent.calls_made < self.calls:
            return None
        if agent.deciding and agent.decisions_asked <= self.decision:
            return None  # an earlier decision's default, told "go on" with no call after
        return self.reason

    def begin(self, agent: Any) -> None:
        return None

    def settle(self, agent: Any, input_tokens: int, output_tokens: int) -> None:
        return None


def recorded_cut(log: Sequence[Any], seat: int) -> RecordedCut | None:
    """The tournament budget's stop of `seat` that `log` records, if any."""
    calls = 0
    decisions = 0
    at = 0
    reason = None
    for e in log:
        if isinstance(e, LLMCall) and e.seat == seat:
            calls += 1
        elif isinstance(e, ModelDecision) and e.seat == seat:
            decisions += 1
        elif (
            isinstance(e, ActionDefaulted)
            and e.seat == seat
            and reason is None
            and e.reason.startswith(PREFIX)
        ):
            reason = e.reason
            at = decisions  # its decision's `model_decision` follows it
    return None if reason is None else RecordedCut(calls, at, reason)


CURRENT: contextvars.ContextVar[SharedBudget | None] = contextvars.ContextVar(
    "tournament_budget", default=None
)
"""The budget of the tournament whose games run in this context (set by the runner)."""
