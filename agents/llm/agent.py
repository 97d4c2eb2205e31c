"""The model-backed agent: render the prompt, call the model, read the answer, record it all.

Per decision (see docs/llm.md for the table):

* one call (``ask``; ``card_retry`` when the engine rejected cards and asks again, with the
  error in the prompt);
* transport failures (timeout, connection, 429, 5xx) are retried with exponential backoff,
  honouring Retry-After, up to ``attempts`` tries; every try is an `LLMCall` event; a request
  the provider refuses (another 4xx) is not tried again: the decision plays its default, and
  after ``AUTH_LIMIT`` refusals of the seat's key in a row (401, 403) the game stops before
  its next call (`AuthRefused`);
* a truncated answer gets one short JSON-only call (``truncation_retry``, 512 tokens, no
  reasoning);
* an answer that yields no action (after the json / last_object / key_value stages) gets one
  ``format_retry`` showing the error;
* if nothing usable came, the documented default action is played and `ActionDefaulted`
  recorded;
* every decision ends with a `ModelDecision`: its outcome class (agents.llm.outcome), the
  calls and tokens it took, and the action played instead of the model's, if any.

A seat of another prompt style (`style=gamebench`: GameBench's own protocol) hands each
decision's conversation to that style's module (`STYLES`), which sends, records and falls
back through the same methods.
"""

from __future__ import annotations

import asyncio
import contextvars
import importlib
from collections.abc import Sequence
from typing import Any

from msgspec import UNSET

from agents.base import Agent
from agents.llm.budget import CURRENT, SharedBudget, recorded_cut
from agents.llm.outcome import classify
from agents.llm.spec import SeatOptions, SpecError
from agents.llm.transport import (
    MAX_ANSWER_CHARS,
    ModelRefused,
    Reply,
    Request,
    ResumingTransport,
    Transport,
    cut_length,
)
from events import catalog
from events.agent import (
    ActionDefaulted,
    ChatMessage,
    LLMCall,
    ModelDecision,
    ScratchpadUpdated,
)
from events.lazy import get_logger

log = get_logger("cattle.llm")

SHORT_RETRY_TOKENS = 512
"""Token limit of the JSON-only call after a truncated answer."""
MAX_WAIT = 120.0
"""Longest single wait between attempts, in seconds."""
AUTH_LIMIT = 3
"""Live refusals of a seat's key or permissions (401, 403) in a row, counted over every game
of a tournament played in this process, after which its game stops (`AuthRefused`)."""


STYLES: dict[str, str] = {"gamebench": "agents.gamebench.protocol"}
"""Prompt style -> the family module whose ``decide(agent, view, decision)`` holds a decision's
conversation in that style (named as strings, as the catalogue names families; the default
style, ``cattle``, is this module's own `_decide`). A style module may offer
``check(agent)``, run when the seat is built, which refuses a game or mode it cannot play."""


class AuthRefused(ModelRefused):
    """A provider refused a seat's key or permissions `AUTH_LIMIT` times in a row."""


AUTH_STREAKS: contextvars.ContextVar[dict[str, tuple[int, int | None]] | None] = (
    contextvars.ContextVar("auth_streaks", default=None)
)
"""Live 401/403 refusals in a row per seat agent, shared by the games of a tournament (the
runner sets a fresh dictionary; without one each game counts for itself)."""


class LLMAgent(Agent):
    """A seat played by a chat model through a transport (live SDK or recorded replies).

    What is particular to the game (prompts, reading answers, the default action) comes from
    the game's `Prompter`; calls, retries and recording are the same for every game.
    """

    is_async = True

    def __init__(
        self,
        seat: int,
        seed: int,
        config: Any,
        options: SeatOptions,
        transport: Transport,
        *,
        backoff: float = 1.0,
        spec: str | None = None,
    ) -> None:
        super().__init__(seat, seed, config)
        self.options = options
        self.transport = transport
        self.backoff = backoff
        self.spec = spec or f"{options.provider}:{options.model}"
        prompter = catalog.for_config(config).prompter
        if prompter is None:
            raise catalog.UnknownGame(f"{catalog.for_config(config).name} has no model seats")
        # A game's prompter may depend on the seat's options (its reasoning mode).
        for_seat = getattr(prompter, "for_seat", None)
        if for_seat is not None:
            prompter = for_seat(options)
        self.prompter: catalog.Prompter = prompter
        if options.output == "json_schema" and getattr(prompter, "answer_schema", None) is None:
            # Never dropped silently: the option is part of the seat's name, so a seat that
            # played without it would be rated as another agent.
            name = catalog.for_config(config).name
            raise SpecError(f"{name} has no answer schema: its model seats take output=text only")
        try:
            self.system = prompter.system_prompt(config, options.character, self.seat)
        except KeyError as exc:
            raise SpecError(str(exc.args[0])) from None
        self.style: Any = None
        """The module of the seat's prompt style (None: the project's own protocol)."""
        if options.style != "cattle":
            self.style = importlib.import_module(STYLES[options.style])
            check = getattr(self.style, "check", None)
            if check is not None:
                check(self)
        elif options.mode == "rap":
            raise SpecError("mode=rap is GameBench's planner: it needs style=gamebench")
        self._notes_seen = 0
        self._calls = 0
        """Model calls made in this game (every transport attempt), for the budgets."""
        self._tokens = 0
        """Tokens (input and output) the calls used, for the budgets."""
        self._input = 0
        self._output = 0
        self.deciding = False
        """True while a decision is being answered (not a note update)."""
        self.decisions_asked = 0
        """Decisions this seat was asked in this game (the one being answered included)."""
        self.shared: SharedBudget | None = CURRENT.get()
        """The tournament's budget (or, in a replay, the stop its log records)."""
        self._decisions = 0
        self._format_errors = 0
        self._defaults = 0
        self.outcomes: dict[str, int] = {}
        """Decisions of this game per outcome class."""
        streaks = AUTH_STREAKS.get()
        self.auth_streaks: dict[str, tuple[int, int | None]] = {} if streaks is None else streaks
        """Live 401/403 refusals in a row and the last status, per seat agent."""
        self.refusal: str | None = None
        """The error of the last request the provider refused outright (4xx), if any."""
        self.record_outcomes = True
        """False while re-creating a game stored before decisions recorded their outcome
        (`ModelDecision`), so that its replay gives back its log byte for byte."""

    def resume(self, log: list[Any]) -> None:
        calls = [e for e in log if isinstance(e, LLMCall) and e.seat == self.seat]
        self.transport = ResumingTransport(calls, self.transport)
        self.record_outcomes = records_outcomes(log, self.seat)
        self.shared = recorded_cut(log, self.seat) or self.shared

    @property
    def calls_made(self) -> int:
        """Model calls made in this game so far (every transport attempt)."""
        return self._calls

    # ---- calls -----------------------------------------------------------------------------

    def _event(
        self,
        decision: str,
        stage: str,
        attempt: int,
        request: Request,
        reply: Reply,
        parse_stage: str | None = None,
        parse_error: str | None = None,
    ) -> LLMCall:
        o = self.options
        return LLMCall(
            seat=self.seat,
            decision=decision,
            stage=stage,
            attempt=attempt,
            provider=o.provider,
            model=o.model,
            base_url=o.base_url,
            temperature=request.temperature,
            max_tokens=request.max_tokens,
            reasoning_effort=None if reply.effort_dropped else request.reasoning_effort,
            messages=request.messages,
            response=reply.text,
            finish_reason=reply.finish_reason,
            input_tokens=reply.input_tokens,
            output_tokens=reply.output_tokens,
            reasoning_tokens=reply.reasoning_tokens,
            latency_ms=reply.latency_ms,
            status=reply.status,
            retry_after=reply.retry_after,
            error=reply.error,
            parse_stage=parse_stage,
            parse_error=parse_error,
            usage_estimated=True if reply.usage_estimated else UNSET,
        )

    def _request(
        self,
        messages: tuple[ChatMessage, ...],
        *,
        short: bool = False,
        schema: dict[str, Any] | None = None,
    ) -> Request:
        o = self.options
        return Request(
            model=o.model,
            messages=messages,
            temperature=o.temperature,
            max_tokens=min(SHORT_RETRY_TOKENS, o.max_tokens) if short else o.max_tokens,
            reasoning_effort=None if short else o.reasoning_effort,
            schema=schema,
        )

    def _schema(self, view: Any, decision: Any) -> dict[str, Any] | None:
        """The answer's JSON schema when the seat asks for structured output (and the game
        has one: `answer_schema` is an optional part of a prompter)."""
        if self.options.output != "json_schema":
            return None
        make = self.prompter.answer_schema  # type: ignore[attr-defined]  # checked in __init__
        schema: dict[str, Any] = make(view, decision)
        return schema

    def over_budget(self) -> str | None:
        """Why this seat may make no more model calls in this game, or None."""
        o = self.options
        if o.max_calls is not None and self._calls >= o.max_calls:
            return f"budget spent: {self._calls} model calls (max_calls={o.max_calls})"
        if o.max_game_tokens is not None and self._tokens >= o.max_game_tokens:
            return f"budget spent: {self._tokens} tokens (max_game_tokens={o.max_game_tokens})"
        if o.max_game_cost is not None and o.price is not None:
            spent = (self._input * o.price[0] + self._output * o.price[1]) / 1_000_000
            if spent >= o.max_game_cost:
                return f"budget spent: cost {spent:.6f} (max_game_cost={o.max_game_cost:g})"
        if self.shared is not None:
            return self.shared.spent(self)
        return None

    async def _send(self, decision: str, stage: str, request: Request) -> tuple[Reply, int] | None:
        """Send with retries; failed attempts are recorded here, the answer by the caller.
        None when every attempt failed or the seat's budget is spent (`over_budget`)."""
        attempts = self.options.attempts
        attempt = 0
        while attempt < attempts:
            if self.over_budget() is not None:
                return None
            shared = self.shared
            if shared is not None:
                shared.begin(self)
            live = not self.transport.replaying
            if live:
                self._check_key()
            reply = await self.transport.send(request)
            # Counted from the reply as recorded, so a replay spends the budget identically.
            self._calls += 1
            self._input += reply.input_tokens or 0
            self._output += reply.output_tokens or 0
            self._tokens += (reply.input_tokens or 0) + (reply.output_tokens or 0)
            if shared is not None:
                shared.settle(self, reply.input_tokens or 0, reply.output_tokens or 0)
            if reply.adapted:
                # Refused for a setting the seat does without from now on: stored as attempt
                # 0 of the stage (no attempt spent), and sent again at once.
                self.record(self._event(decision, stage, 0, request, reply))
                continue
            attempt += 1
            if live:
                count = self.auth_streaks.get(self.spec, (0, None))[0] + 1
                streak = (count, reply.status) if reply.auth_refused else (0, None)
                self.auth_streaks[self.spec] = streak
            if reply.error is None:
                return reply, attempt
            self.record(self._event(decision, stage, attempt, request, reply))
            if reply.final:
                self._refused(reply)
                return None
            self._note(
                "llm.retry", decision=decision, stage=stage, attempt=attempt, error=reply.error
            )
            if attempt < attempts and not self.transport.replaying:
                wait = self.backoff * 2 ** (attempt - 1)
                if reply.retry_after is not None:
                    wait = max(wait, reply.retry_after)
                await asyncio.sleep(min(wait, MAX_WAIT))
        return None

    def _refused(self, reply: Reply) -> None:
        """Note a request the provider refused outright (the decision plays its default)."""
        self.refusal = f"model refused the request ({reply.status})"
        self._note("llm.refused", warn=True, status=reply.status, error=reply.error)

    def _check_key(self) -> None:
        """Stop the game before a live call once the seat's key was refused `AUTH_LIMIT`
        times in a row (only live calls count: a replay or a continued game reads the same
        refusals from its log without stopping; every refused call is stored before)."""
        count, status = self.auth_streaks.get(self.spec, (0, None))
        if count >= AUTH_LIMIT:
            raise AuthRefused(
                f"seat {self.seat} ({self.spec}): {self.options.provider} refused its key"
                f" or permissions {count} times in a row (status {status}); the game stops"
                " here, everything played so far is kept: fix the key or the model's"
                " access, then continue (cattle tournament --resume NAME for a tournament)",
                status,
            )

    def _parse(self, text: str, decision: Any) -> tuple[Any, str, str | None]:
        """The action an answer names (the prompter's parser), except for an answer stored
        cut for its size, which is not read."""
        length = cut_length(text)
        if length is not None:
            too_long = f"answer too long: {length:,} characters"
            return None, "failed", f"{too_long} (at most {MAX_ANSWER_CHARS:,} are read)"
        action, stage, error = self.prompter.parse(text, decision, self.seat)
        return action, stage, error

    def _default(self, decision: Any, reason: str) -> Any:
        spent = self.over_budget()
        if spent is not None:
            reason = spent
        action = self.prompter.default_action(decision, self.seat)
        self.record(
            ActionDefaulted(
                seat=self.seat,
                decision=decision.kind,
                action=self.prompter.action_json(action),
                reason=reason,
            )
        )
        self._defaults += 1
        # The first default of a seat is a warning; the rest are details (a small local
        # model may miss most answers), and `close` sums them up at the end of the game.
        self._note(
            "llm.default",
            warn=self._defaults == 1,
            decision=decision.kind,
            played=self.prompter.action_json(action),
            reason=reason,
        )
        return action

    def _note(self, event: str, *, warn: bool = False, **fields: Any) -> None:
        """Log a retry or fallback of a live game; a replay re-runs them silently (they are
        recorded events, already told when the game was played)."""
        if self.transport.replaying:
            return
        emit = log.warning if warn else log.info
        emit(event, seat=self.seat, model=self.spec, **fields)

    # ---- decisions -------------------------------------------------------------------------

    async def aact(self, view: Any, decision: Any) -> Any:
        self.decisions_asked += 1
        start, calls, tokens = len(self._records), self._calls, self._tokens
        self.deciding = True
        try:
            action = await self._decide(view, decision)
        finally:
            self.deciding = False
        made = self._records[start:]
        defaulted = next((e for e in reversed(made) if isinstance(e, ActionDefaulted)), None)
        illegal = getattr(self.prompter, "illegal_answer", None)
        outcome = classify(
            [e for e in made if isinstance(e, LLMCall)], defaulted, *([illegal] if illegal else [])
        )
        self.outcomes[outcome] = self.outcomes.get(outcome, 0) + 1
        if self.record_outcomes:
            self.record(
                ModelDecision(
                    seat=self.seat,
                    decision=decision.kind,
                    outcome=outcome,
                    calls=self._calls - calls,
                    tokens=self._tokens - tokens,
                    fallback=None if defaulted is None else defaulted.action,
                )
            )
        return action

    async def _decide(self, view: Any, decision: Any) -> Any:
        if self.style is not None:
            return await self.style.decide(self, view, decision)
        kind = decision.kind
        prompter = self.prompter
        rejection = prompter.rejection(view, self.seat, kind)
        stage = "card_retry" if rejection is not None else "ask"
        spent = self.over_budget()
        if spent is not None:
            self._decisions += 1
            return self._default(decision, spent)
        prompt = prompter.decision_prompt(view, decision, self.options.memory, rejection)
        system = ChatMessage(role="system", content=self.system)
        user = ChatMessage(role="user", content=prompt)
        schema = self._schema(view, decision)
        request = self._request((system, user), schema=schema)
        if self.options.samples > 1 and rejection is None:
            return await self._vote(decision, system, user, request, schema)
        self.refusal = None
        sent = await self._send(kind, stage, request)
        if sent is None:
            return self._default(
                decision, self.refusal or "model unavailable: every attempt failed"
            )
        reply, attempt = sent
        if reply.truncated:
            self.record(self._event(kind, stage, attempt, request, reply, "truncated"))
            stage = "truncation_retry"
            note = ChatMessage(
                role="user", content=prompt + "\n\n" + prompter.truncation_retry_prompt(kind)
            )
            request = self._request((system, note), short=True, schema=schema)
            sent = await self._send(kind, stage, request)
            if sent is None:
                return self._default(decision, "model unavailable after a truncated answer")
            reply, attempt = sent
        self._decisions += 1
        action, parse_stage, error = self._parse(reply.text, decision)
        self.record(self._event(kind, stage, attempt, request, reply, parse_stage, error))
        if action is not None:
            return action
        assert error is not None
        return await self._retry(decision, system, user, reply.text, error, schema)

    async def _vote(
        self,
        decision: Any,
        system: ChatMessage,
        user: ChatMessage,
        request: Request,
        schema: dict[str, Any] | None,
    ) -> Any:
        """Self-consistency: ask `samples` times (stage ``sample``) and play the action most
        answers chose (the earliest of equals); with no usable sample, the format retry."""
        kind = decision.kind
        self._decisions += 1
        votes: dict[Any, int] = {}
        last_text, last_error = "", "no answer"
        for _ in range(self.options.samples):
            sent = await self._send(kind, "sample", request)
            if sent is None:
                continue
            reply, attempt = sent
            action, parse_stage, error = self._parse(reply.text, decision)
            self.record(self._event(kind, "sample", attempt, request, reply, parse_stage, error))
            if action is not None:
                votes[action] = votes.get(action, 0) + 1
            else:
                last_text, last_error = reply.text, error or "unreadable answer"
        if votes:
            return max(votes, key=lambda a: votes[a])  # first maximum: the earliest of equals
        return await self._retry(decision, system, user, last_text, last_error, schema)

    async def _retry(
        self,
        decision: Any,
        system: ChatMessage,
        user: ChatMessage,
        text: str,
        error: str,
        schema: dict[str, Any] | None,
    ) -> Any:
        """One format retry after an answer that yielded no action, then the default."""
        kind = decision.kind
        prompter = self.prompter
        self._format_errors += 1
        self._note("llm.format_retry", decision=kind, error=error, answer=_snippet(text))
        retry = (
            system,
            user,
            ChatMessage(role="assistant", content=_echo(text)),
            ChatMessage(role="user", content=prompter.format_retry_prompt(kind, error)),
        )
        request = self._request(retry, short=True, schema=schema)
        sent = await self._send(kind, "format_retry", request)
        if sent is None:
            return self._default(decision, f"unreadable answer ({error}); retry failed")
        reply, attempt = sent
        action, parse_stage, error2 = self._parse(reply.text, decision)
        self.record(self._event(kind, "format_retry", attempt, request, reply, parse_stage, error2))
        if action is not None:
            return action
        return self._default(
            decision, f"unreadable answer after a retry ({error2}): {_snippet(reply.text)}"
        )

    def act(self, view: Any, decision: Any) -> Any:
        raise RuntimeError("model agents are asynchronous: use aact")

    # ---- memory ----------------------------------------------------------------------------

    async def after_turn(self, view: Any) -> None:
        if self.options.memory != "full" or view.ended or self.over_budget() is not None:
            return
        if self.style is not None:
            return  # a style keeps no notes between decisions (GameBench's agents do not)
        new = view.history[self._notes_seen :]
        # A game may leave the events of a turn just begun for the next update, so that
        # every update sees whole turns (the prompter's optional `notes_ready`).
        ready = getattr(self.prompter, "notes_ready", None)
        done = len(new) if ready is None else ready(new)
        self._notes_seen += done
        lines = self.prompter.notes_lines(new[:done], self.seat)
        if not lines:
            return
        request = Request(
            model=self.options.model,
            messages=(
                ChatMessage(role="system", content=self.system),
                ChatMessage(role="user", content=self.prompter.notes_prompt(view.notes, lines)),
            ),
            temperature=self.options.temperature,
            max_tokens=self.options.max_tokens,
            reasoning_effort=self.options.reasoning_effort,
        )
        sent = await self._send("scratchpad", "scratchpad", request)
        if sent is None:
            return
        reply, attempt = sent
        self.record(self._event("scratchpad", "scratchpad", attempt, request, reply))
        notes = self.prompter.cap_notes(reply.text)
        if notes and notes != view.notes:
            self.record(ScratchpadUpdated(seat=self.seat, notes=notes))

    async def close(self) -> None:
        if self._defaults or self._format_errors:
            self._note(
                "llm.summary",
                warn=self._defaults > 0,
                decisions=self._decisions,
                format_errors=self._format_errors,
                defaults=self._defaults,
                # the classes read from the answers alone (`llm_decisions.recorded`): the
                # game's verdicts, which may make a move read `ok` illegal, come after
                recorded=dict(sorted(self.outcomes.items())),
            )
        await self.transport.close()


def records_outcomes(log: Sequence[Any], seat: int) -> bool:
    """Whether a stored game records the outcome of `seat`'s decisions: yes unless the seat
    made model calls or played defaults and no `ModelDecision` names it (a game stored
    before the event existed)."""
    acted = False
    for e in log:
        if isinstance(e, ModelDecision) and e.seat == seat:
            return True
        if isinstance(e, LLMCall | ActionDefaulted) and e.seat == seat:
            acted = True
    return not acted


ECHO_CHARS = 2_000
"""Characters of an answer stored cut for its size that the format retry shows the model."""


def _echo(text: str) -> str:
    """The previous answer as the format retry shows it: whole, or the start of one stored
    cut for its size (the retry prompt stays small whatever the model sent)."""
    if not text:
        return "(empty answer)"
    length = cut_length(text)
    if length is None:
        return text
    return text[:ECHO_CHARS] + f"\n[... {length - ECHO_CHARS:,} more characters not shown]"


def _snippet(text: str, limit: int = 80) -> str:
    """The start of a model's answer, quoted with control characters escaped (safe in logs)."""
    cut = text.strip()
    return repr(cut[:limit] + ("..." if len(cut) > limit else ""))
