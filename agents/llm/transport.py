"""Talking to models: the official async SDKs live, or recorded answers during a replay.

A transport sends one request and returns one `Reply`, never raising for a failure the
agent can retry (timeouts, connection errors, 429, 5xx): those come back as a reply with
`error` set. Requests the provider refuses outright (bad key, unknown model, malformed
request) raise `ModelRefused`, since retrying cannot help. The SDKs' own retries are off so
that every attempt is the agent's, and is recorded.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import re
import time
import weakref
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any, Protocol

from agents.llm.spec import ProviderSettings, SeatOptions
from events.agent import ChatMessage, LLMCall
from events.config import ConfigError
from events.lazy import get_logger

log = get_logger("cattle.llm")

TRUNCATED = ("length", "max_tokens")
"""Finish reasons that mean the answer was cut off by the token limit."""
THINKING_BUDGET = {"minimal": 1024, "low": 1024, "medium": 4096, "high": 16384}
"""Anthropic extended-thinking budget per reasoning effort."""
ANSWER_TOOL = "answer"
"""Name of the schema (OpenAI) or tool (Anthropic) that carries a structured answer."""


class ModelRefused(ConfigError):
    """The provider refused the request itself (key, model, parameters): retrying cannot help."""


@dataclass(frozen=True)
class Request:
    """One request to a model."""

    model: str
    messages: tuple[ChatMessage, ...]
    temperature: float | None
    max_tokens: int
    reasoning_effort: str | None
    schema: dict[str, Any] | None = None
    """JSON schema the answer must follow (structured output), or None for free text."""


@dataclass(frozen=True)
class Reply:
    """What came back from one attempt (an answer, or an error the agent may retry)."""

    text: str = ""
    finish_reason: str | None = None
    input_tokens: int = 0
    output_tokens: int = 0
    reasoning_tokens: int = 0
    latency_ms: float = 0.0
    status: int | None = None
    retry_after: float | None = None
    error: str | None = None
    effort_dropped: bool = False
    """True when the request went out without its reasoning effort (the model refused it)."""

    @property
    def truncated(self) -> bool:
        """True when the answer was cut off by the token limit."""
        return self.finish_reason in TRUNCATED


class Transport(Protocol):
    """Sends requests for one seat."""

    @property
    def replaying(self) -> bool:
        """True when answers come from a stored log (no waiting between retries)."""
        ...

    async def send(self, request: Request) -> Reply:
        """One attempt."""
        ...

    async def close(self) -> None:
        """Release connections."""
        ...


_SECRET = re.compile(r"(sk-[A-Za-z0-9_\-\*]{3,}|Bearer\s+\S+|key[=:]\s*\S+)", re.IGNORECASE)


def redact(text: str, *secrets: str | None) -> str:
    """`text` without any key: the given secrets and anything shaped like one."""
    for s in secrets:
        if s:
            text = text.replace(s, "***")
    return _SECRET.sub("***", text)


# ---------------------------------------------------------------------------- concurrency

WINDOW = 60.0
"""Seconds over which a tokens-per-minute limit counts tokens."""
CHARS_PER_TOKEN = 4
"""How a prompt's size in tokens is guessed before the provider counts it."""


class ProviderGate:
    """One worker's limits on one provider, shared by every game the worker plays at once.

    A call waits for a free slot (`calls` in flight at most), for the end of a pause that a
    rate-limited answer asked for (its Retry-After holds back every call of the worker, not only
    the one that got it), and, with a tokens-per-minute limit, until the tokens of the calls
    of the last minute leave room for it: those answered count with the tokens the provider
    reported, those in flight with their prompt's estimate.
    """

    def __init__(
        self, calls: int, tokens_per_minute: int | None = None, *, window: float = WINDOW
    ) -> None:
        self.slots = asyncio.Semaphore(max(1, calls))
        self.tokens_per_minute = tokens_per_minute
        self.window = window
        """Seconds over which tokens count (a minute; shorter in tests)."""
        self.clock = time.monotonic
        self.spent: collections.deque[tuple[float, int]] = collections.deque()
        """(when, tokens) of the calls answered within the last minute."""
        self.reserved = 0
        """Estimated tokens of the calls in flight."""
        self.paused_until = 0.0
        self.pauses = 0
        """Pauses taken because a provider answered 429 with Retry-After."""

    def used(self) -> int:
        """Tokens counted against the limit now."""
        cutoff = self.clock() - self.window
        while self.spent and self.spent[0][0] <= cutoff:
            self.spent.popleft()
        return self.reserved + sum(n for _, n in self.spent)

    def _wait(self, estimate: int) -> float:
        """Seconds to wait before a call of `estimate` tokens may start (0: now)."""
        now = self.clock()
        if now < self.paused_until:
            return self.paused_until - now
        limit = self.tokens_per_minute
        if limit is None:
            return 0.0
        used = self.used()
        if used + estimate <= limit or (used == 0 and not self.spent):
            return 0.0  # (a call larger than the whole limit goes alone)
        if self.spent:
            return max(0.01, self.spent[0][0] + self.window - now)
        return 0.05  # only calls in flight hold the budget: look again when they end

    @contextlib.asynccontextmanager
    async def call(self, estimate: int) -> AsyncIterator[Callable[[Reply], None]]:
        """Hold one slot and `estimate` tokens for a call; the caller reports the reply."""
        async with self.slots:
            while (wait := self._wait(estimate)) > 0:
                await asyncio.sleep(wait)
            self.reserved += estimate
            done = False

            def settle(reply: Reply) -> None:
                nonlocal done
                if done:
                    return
                done = True
                self.reserved -= estimate
                tokens = reply.input_tokens + reply.output_tokens
                if reply.error is None and self.tokens_per_minute is not None:
                    self.spent.append((self.clock(), tokens or estimate))
                if reply.status == 429 and reply.retry_after:
                    self.pause(reply.retry_after)

            try:
                yield settle
            finally:
                if not done:
                    done = True
                    self.reserved -= estimate

    def pause(self, seconds: float) -> None:
        """Hold back every call of this worker to the provider for `seconds`."""
        until = self.clock() + min(seconds, 120.0)
        if until > self.paused_until:
            self.paused_until = until
            self.pauses += 1


_GATES: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, ProviderGate]] = (
    weakref.WeakKeyDictionary()
)


def gate(provider: str, calls: int, tokens_per_minute: int | None = None) -> ProviderGate:
    """The running loop's limits on `provider`, made with these sizes by the first caller
    (all games a worker plays at once run in its one event loop, so they share them)."""
    loop = asyncio.get_running_loop()
    per_loop = _GATES.setdefault(loop, {})
    g = per_loop.get(provider)
    if g is None:
        g = per_loop[provider] = ProviderGate(calls, tokens_per_minute)
    return g


def estimate_tokens(request: Request) -> int:
    """A guess at the prompt's tokens before the provider counts them."""
    chars = sum(len(m.content) for m in request.messages)
    return max(1, chars // CHARS_PER_TOKEN)


def _retry_after(headers: Any) -> float | None:
    if headers is None:
        return None
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        raw = headers.get(name)
        if raw is None:
            continue
        try:
            return round(max(0.0, float(raw) * scale), 3)
        except ValueError:
            continue  # an HTTP date: fall back to the backoff
    return None


def _status_reply(status: int, headers: Any, latency: float, message: str) -> Reply:
    kind = "rate_limited" if status == 429 else "server_error"
    return Reply(
        status=status,
        retry_after=_retry_after(headers),
        latency_ms=latency,
        error=f"{kind} ({status})",
    )


def _ms(t0: float) -> float:
    return round((time.perf_counter() - t0) * 1000, 1)


class _SDKTransport:
    """Shared parts of the live transports: client per event loop, limit, error mapping."""

    replaying = False
    provider = ""

    def __init__(self, settings: ProviderSettings, options: SeatOptions) -> None:
        self.settings = settings
        self.options = options
        self.base_url = options.base_url or settings.base_url
        self.api_key = settings.api_key or ("EMPTY" if self.base_url else None)
        if not self.api_key:
            env = self.provider.upper()
            raise ConfigError(
                f"no API key for {self.provider}: set {env}_API_KEY (or {env}_BASE_URL / a "
                f"per-seat @URL for a server without keys), or use the config file"
            )
        self._client: Any = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self.no_effort = False
        """Set once the model refused a reasoning effort: later requests leave it out."""
        self.schema_form = "json_schema"
        """How a schema is asked for: OpenAI's `json_schema`, or `json_object` with a schema
        (llama-cpp-python's server and other older compatible servers)."""

    def _make_client(self) -> Any:
        raise NotImplementedError

    def client(self) -> Any:
        loop = asyncio.get_running_loop()
        if self._client is None or self._loop is not loop:
            self._client = self._make_client()
            self._loop = loop
        return self._client

    async def _call(self, request: Request) -> Reply:
        raise NotImplementedError

    async def send(self, request: Request) -> Reply:
        while True:
            sent = _without_effort(request) if self.no_effort else request
            try:
                reply = await self._send(sent)
            except ModelRefused as exc:
                if not self._adapt(request, str(exc)):
                    raise
                continue
            if sent is not request and request.reasoning_effort is not None:
                reply = Reply(**{**reply.__dict__, "effort_dropped": True})
            return reply

    def _adapt(self, request: Request, refusal: str) -> bool:
        """Whether a refusal names a setting this seat can do without (then it is left out
        of this and every later request, said once): the reasoning effort, which the paper
        sets "where supported", or the form of the structured-output request."""
        if (
            request.reasoning_effort is not None
            and not self.no_effort
            and _EFFORT_REFUSED.search(refusal)
        ):
            self.no_effort = True
            log.info(
                "llm.effort_unsupported",
                provider=self.provider,
                model=request.model,
                effort=request.reasoning_effort,
            )
            return True
        return False

    async def _send(self, request: Request) -> Reply:
        sdk = self._sdk()
        self.client()  # built outside the timed call
        limits = gate(self.provider, self.settings.concurrency, self.settings.tokens_per_minute)
        async with limits.call(estimate_tokens(request)) as settle:
            reply = await self._attempt(sdk, request)
            settle(reply)
            return reply

    async def _attempt(self, sdk: Any, request: Request) -> Reply:
        """One call through the SDK, its failures turned into replies or `ModelRefused`."""
        t0 = time.perf_counter()
        try:
            return await asyncio.wait_for(self._call(request), self.options.timeout + 5.0)
        except (sdk.APITimeoutError, TimeoutError):
            return Reply(latency_ms=_ms(t0), error="timeout")
        except sdk.APIConnectionError as exc:
            return Reply(latency_ms=_ms(t0), error=f"connection: {type(exc).__name__}")
        except sdk.APIStatusError as exc:
            status = exc.status_code
            said = str(exc)
            body = getattr(exc, "body", None)
            if body is not None and str(body) not in said:
                said += f" - {body}"  # a body without "error" (validation details)
            refusal = (
                f"{self.provider} refused the request ({status}): "
                + redact(said, self.api_key)[:300]
            )
            # llama-cpp-python's server answers a request it cannot validate with 500.
            settles = request.schema is not None and _FORMAT_REFUSED.search(refusal)
            if (status in (408, 409, 429) or status >= 500) and not settles:
                return _status_reply(status, exc.response.headers, _ms(t0), str(exc))
            raise ModelRefused(refusal) from None

    def _sdk(self) -> Any:
        raise NotImplementedError

    async def close(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            # RuntimeError: its event loop is gone, and the connections went with it.
            with contextlib.suppress(RuntimeError):
                await client.close()


_EFFORT_REFUSED = re.compile(r"\(400\).*(reasoning|thinking)", re.IGNORECASE | re.DOTALL)
"""A refusal that names the reasoning parameters (a model without reasoning settings)."""


def _without_effort(request: Request) -> Request:
    return Request(
        model=request.model,
        messages=request.messages,
        temperature=request.temperature,
        max_tokens=request.max_tokens,
        reasoning_effort=None,
        schema=request.schema,
    )


_FORMAT_REFUSED = re.compile(r"\((400|422|500)\).*response_format.*json_schema", re.DOTALL)
"""A refusal of OpenAI's structured-output form (servers that know only JSON mode)."""


class OpenAITransport(_SDKTransport):
    """Chat completions through `openai.AsyncOpenAI` (OpenAI or any compatible server)."""

    provider = "openai"

    def _sdk(self) -> Any:
        import openai

        return openai

    def _make_client(self) -> Any:
        import openai

        return openai.AsyncOpenAI(
            api_key=self.api_key,
            base_url=self.base_url,
            max_retries=0,
            timeout=self.options.timeout,
        )

    def payload(self, request: Request) -> dict[str, Any]:
        """The keyword arguments of `chat.completions.create`."""
        body: dict[str, Any] = {
            "model": request.model,
            "messages": [{"role": m.role, "content": m.content} for m in request.messages],
        }
        official = self.base_url is None or "api.openai.com" in self.base_url
        # The official API wants max_completion_tokens (reasoning models refuse max_tokens);
        # compatible servers widely accept only max_tokens.
        body["max_completion_tokens" if official else "max_tokens"] = request.max_tokens
        if request.temperature is not None:
            body["temperature"] = request.temperature
        if request.reasoning_effort is not None:
            body["reasoning_effort"] = request.reasoning_effort
        if request.schema is not None:
            # OpenAI's structured outputs; vLLM, llama.cpp's server and SGLang read the same
            # field. Servers that refuse it get JSON mode with the schema beside it.
            if self.schema_form == "json_schema":
                body["response_format"] = {
                    "type": "json_schema",
                    "json_schema": {"name": ANSWER_TOOL, "strict": True, "schema": request.schema},
                }
            else:
                body["response_format"] = {"type": "json_object", "schema": request.schema}
        return body

    def _adapt(self, request: Request, refusal: str) -> bool:
        if super()._adapt(request, refusal):
            return True
        if (
            request.schema is not None
            and self.schema_form == "json_schema"
            and _FORMAT_REFUSED.search(refusal)
        ):
            self.schema_form = "json_object"
            log.info(
                "llm.schema_form", provider=self.provider, model=request.model, form="json_object"
            )
            return True
        return False

    async def _call(self, request: Request) -> Reply:
        t0 = time.perf_counter()
        resp = await self.client().chat.completions.create(**self.payload(request))
        latency = _ms(t0)
        choice = resp.choices[0] if resp.choices else None
        usage = resp.usage
        details = getattr(usage, "completion_tokens_details", None) if usage else None
        finish = choice.finish_reason if choice else None
        if choice and choice.message and getattr(choice.message, "refusal", None):
            # Structured output's refusal: no content, the reason in `refusal`.
            finish = "refusal"
        return Reply(
            text=(choice.message.content or "") if choice and choice.message else "",
            finish_reason=finish,
            input_tokens=(usage.prompt_tokens or 0) if usage else 0,
            output_tokens=(usage.completion_tokens or 0) if usage else 0,
            reasoning_tokens=(getattr(details, "reasoning_tokens", 0) or 0) if details else 0,
            latency_ms=latency,
        )


class AnthropicTransport(_SDKTransport):
    """Messages through `anthropic.AsyncAnthropic`."""

    provider = "anthropic"

    def _sdk(self) -> Any:
        import anthropic

        return anthropic

    def _make_client(self) -> Any:
        import anthropic

        return anthropic.AsyncAnthropic(
            api_key=self.api_key,
            base_url=self.base_url,
            max_retries=0,
            timeout=self.options.timeout,
        )

    def payload(self, request: Request) -> dict[str, Any]:
        """The keyword arguments of `messages.create`."""
        system = "\n\n".join(m.content for m in request.messages if m.role == "system")
        body: dict[str, Any] = {
            "model": request.model,
            "max_tokens": request.max_tokens,
            "messages": [
                {"role": m.role, "content": m.content}
                for m in request.messages
                if m.role != "system"
            ],
        }
        if system:
            body["system"] = system
        budget = THINKING_BUDGET.get(request.reasoning_effort or "")
        thinking = budget is not None and request.max_tokens > budget + 256
        if thinking:
            # Extended thinking requires the default temperature.
            body["thinking"] = {"type": "enabled", "budget_tokens": budget}
        elif request.temperature is not None:
            body["temperature"] = request.temperature
        if request.schema is not None:
            # Structured output through a tool whose input is the answer. Forcing the tool
            # is refused together with extended thinking, which then leaves the choice open.
            body["tools"] = [
                {
                    "name": ANSWER_TOOL,
                    "description": "Give your answer to the decision.",
                    "input_schema": request.schema,
                }
            ]
            body["tool_choice"] = (
                {"type": "auto"} if thinking else {"type": "tool", "name": ANSWER_TOOL}
            )
        return body

    async def _call(self, request: Request) -> Reply:
        t0 = time.perf_counter()
        body = self.payload(request)
        # This SDK release has no `temperature` argument; the API still takes the field.
        if "temperature" in body:
            body["extra_body"] = {"temperature": body.pop("temperature")}
        resp = await self.client().messages.create(**body)
        latency = _ms(t0)
        text = "".join(
            getattr(b, "text", "") for b in resp.content if getattr(b, "type", "") == "text"
        )
        for b in resp.content:
            if getattr(b, "type", "") == "tool_use" and getattr(b, "name", "") == ANSWER_TOOL:
                text = json.dumps(getattr(b, "input", None))  # the structured answer
        usage = resp.usage
        return Reply(
            text=text,
            finish_reason=resp.stop_reason,
            input_tokens=(usage.input_tokens or 0) if usage else 0,
            output_tokens=(usage.output_tokens or 0) if usage else 0,
            latency_ms=latency,
        )


def live_transport(options: SeatOptions, settings: ProviderSettings) -> Transport:
    """The SDK transport of a seat's provider."""
    if options.provider == "anthropic":
        return AnthropicTransport(settings, options)
    return OpenAITransport(settings, options)


class ReplayExhausted(LookupError):
    """A replayed seat asked for more model calls than its game recorded."""


class RecordedTransport:
    """Answers with the replies a stored game recorded for one seat, in order; no network."""

    replaying = True

    def __init__(self, calls: list[LLMCall]) -> None:
        self.calls = calls
        self.pos = 0

    async def send(self, request: Request) -> Reply:
        if self.pos >= len(self.calls):
            raise ReplayExhausted(f"the log holds only {len(self.calls)} model call(s)")
        c = self.calls[self.pos]
        self.pos += 1
        return Reply(
            text=c.response,
            finish_reason=c.finish_reason,
            input_tokens=c.input_tokens,
            output_tokens=c.output_tokens,
            reasoning_tokens=c.reasoning_tokens,
            latency_ms=c.latency_ms,
            status=c.status,
            retry_after=c.retry_after,
            error=c.error,
            effort_dropped=c.reasoning_effort is None and request.reasoning_effort is not None,
        )

    async def close(self) -> None:
        return None


class ResumingTransport:
    """Answers with a seat's recorded replies while they last, then asks the live model.

    Used to continue an interrupted game: the decisions its log already holds are answered
    from the log (no request is sent, nothing is paid twice), the rest go to `live`.
    """

    def __init__(self, calls: list[LLMCall], live: Transport) -> None:
        self.recorded = RecordedTransport(calls)
        self.live = live

    @property
    def replaying(self) -> bool:
        """True while recorded replies remain (no backoff waits between recorded retries)."""
        return self.recorded.pos < len(self.recorded.calls)

    async def send(self, request: Request) -> Reply:
        if self.replaying:
            return await self.recorded.send(request)
        return await self.live.send(request)

    async def close(self) -> None:
        await self.live.close()
