"""The model-backed agent: render the prompt, call the model, read the answer, record it all.

Per decision (see docs/llm.md for the table):

* one call (``ask``; ``card_retry`` when the engine rejected cards and asks again, with the
  error in the prompt);
* transport failures (timeout, connection, 429, 5xx) are retried with exponential backoff,
  honouring Retry-After, up to ``attempts`` tries; every try is an `LLMCall` event;
* a truncated answer gets one short JSON-only call (``truncation_retry``, 512 tokens, no
  reasoning);
* an answer that yields no action (after the json / last_object / key_value stages) gets one
  ``format_retry`` showing the error;
* if nothing usable came, the documented default action is played and `ActionDefaulted`
  recorded.
"""

from __future__ import annotations

import asyncio
from typing import Any

from agents.base import Agent
from agents.llm.spec import SeatOptions, SpecError
from agents.llm.transport import Reply, Request, ResumingTransport, Transport
from events import catalog
from events.agent import ActionDefaulted, ChatMessage, LLMCall, ScratchpadUpdated
from events.lazy import get_logger

log = get_logger("cattle.llm")

SHORT_RETRY_TOKENS = 512
"""Token limit of the JSON-only call after a truncated answer."""
MAX_WAIT = 120.0
"""Longest single wait between attempts, in seconds."""


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
        self.prompter: catalog.Prompter = prompter
        try:
            self.system = prompter.system_prompt(config, options.character, self.seat)
        except KeyError as exc:
            raise SpecError(str(exc.args[0])) from None
        self._notes_seen = 0

    def resume(self, log: list[Any]) -> None:
        calls = [e for e in log if isinstance(e, LLMCall) and e.seat == self.seat]
        self.transport = ResumingTransport(calls, self.transport)

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
            reasoning_effort=request.reasoning_effort,
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
        )

    def _request(self, messages: tuple[ChatMessage, ...], *, short: bool = False) -> Request:
        o = self.options
        return Request(
            model=o.model,
            messages=messages,
            temperature=o.temperature,
            max_tokens=min(SHORT_RETRY_TOKENS, o.max_tokens) if short else o.max_tokens,
            reasoning_effort=None if short else o.reasoning_effort,
        )

    async def _send(self, decision: str, stage: str, request: Request) -> tuple[Reply, int] | None:
        """Send with retries; failed attempts are recorded here, the answer by the caller."""
        attempts = self.options.attempts
        for attempt in range(1, attempts + 1):
            reply = await self.transport.send(request)
            if reply.error is None:
                return reply, attempt
            self.record(self._event(decision, stage, attempt, request, reply))
            log.info(
                "llm.retry", seat=self.seat, decision=decision, attempt=attempt, error=reply.error
            )
            if attempt < attempts and not self.transport.replaying:
                wait = self.backoff * 2 ** (attempt - 1)
                if reply.retry_after is not None:
                    wait = max(wait, reply.retry_after)
                await asyncio.sleep(min(wait, MAX_WAIT))
        return None

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
        log.warning("llm.default", seat=self.seat, decision=decision.kind, reason=reason)
        return action

    # ---- decisions -------------------------------------------------------------------------

    async def aact(self, view: Any, decision: Any) -> Any:
        kind = decision.kind
        prompter = self.prompter
        rejection = prompter.rejection(view, self.seat, kind)
        stage = "card_retry" if rejection is not None else "ask"
        prompt = prompter.decision_prompt(view, decision, self.options.memory, rejection)
        system = ChatMessage(role="system", content=self.system)
        user = ChatMessage(role="user", content=prompt)
        request = self._request((system, user))
        sent = await self._send(kind, stage, request)
        if sent is None:
            return self._default(decision, "model unavailable: every attempt failed")
        reply, attempt = sent
        if reply.truncated:
            self.record(self._event(kind, stage, attempt, request, reply, "truncated"))
            stage = "truncation_retry"
            note = ChatMessage(
                role="user", content=prompt + "\n\n" + prompter.truncation_retry_prompt(kind)
            )
            request = self._request((system, note), short=True)
            sent = await self._send(kind, stage, request)
            if sent is None:
                return self._default(decision, "model unavailable after a truncated answer")
            reply, attempt = sent
        action, parse_stage, error = prompter.parse(reply.text, decision, self.seat)
        self.record(self._event(kind, stage, attempt, request, reply, parse_stage, error))
        if action is not None:
            return action
        assert error is not None
        retry = (
            system,
            user,
            ChatMessage(role="assistant", content=reply.text or "(empty answer)"),
            ChatMessage(role="user", content=prompter.format_retry_prompt(kind, error)),
        )
        request = self._request(retry, short=True)
        sent = await self._send(kind, "format_retry", request)
        if sent is None:
            return self._default(decision, f"unreadable answer ({error}); retry failed")
        reply, attempt = sent
        action, parse_stage, error2 = prompter.parse(reply.text, decision, self.seat)
        self.record(self._event(kind, "format_retry", attempt, request, reply, parse_stage, error2))
        if action is not None:
            return action
        return self._default(decision, f"unreadable answer after a retry ({error2})")

    def act(self, view: Any, decision: Any) -> Any:
        raise RuntimeError("model agents are asynchronous: use aact")

    # ---- memory ----------------------------------------------------------------------------

    async def after_turn(self, view: Any) -> None:
        if self.options.memory != "full" or view.ended:
            return
        new = view.history[self._notes_seen :]
        self._notes_seen = len(view.history)
        lines = self.prompter.notes_lines(new, self.seat)
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
        await self.transport.close()
