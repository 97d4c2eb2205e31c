"""Talking to models: the official async SDKs live, or recorded answers during a replay.

A transport sends one request and returns one `Reply`, never raising for an answer of the
provider: failures the agent can retry (timeouts, connection errors, 429, 5xx, a body that is
no answer) come back as a reply with `error` set; a request the provider refuses outright
(any other 4xx: a bad key, an unknown model, a prompt beyond the context) comes back as a
`final` reply, since asking again cannot help. The SDKs' own retries are off so that every
attempt is the agent's, and is recorded.
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
from events.agent import ChatMessage, LLMCall, finish_reason_fits
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

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


class BadBody(ValueError):
    """An answer with a success status whose body is not a model answer of the protocol."""


ADAPTED = "unsupported setting"
"""How the error of a request begins that the provider refused for a setting the seat then
left out (recorded, then sent again without it; a replay reads the same from the log)."""
REFUSED = "refused"
"""How the error of a request the provider refused with a 4xx begins (not retried)."""
AUTH_REFUSED = "auth_refused"
"""How the error of a request refused with 401 or 403 begins (a key or permission problem)."""
AUTH_STATUSES = (401, 403)
BAD_BODY = "bad_response"
"""How the error of an answer begins whose body could not be read as a model answer."""
MAX_ANSWER_CHARS = 65_536
"""Longest answer kept and read: a longer one is stored cut to this many characters, with a
marker giving its true length, and is not parsed (an honest answer within `max_tokens` is far
shorter: 4,096 tokens are about 16,000 characters)."""
_CUT = "\n[answer cut here: it held {n:,} characters; the first {kept:,} are kept]"
_CUT_RX = re.compile(
    r"\n\[answer cut here: it held ([0-9,]+) characters; the first [0-9,]+ are kept\]\Z"
)


def bound_answer(text: str) -> str:
    """`text` as stored: whole up to `MAX_ANSWER_CHARS`, else its start and a marker."""
    if len(text) <= MAX_ANSWER_CHARS:
        return text
    return text[:MAX_ANSWER_CHARS] + _CUT.format(n=len(text), kept=MAX_ANSWER_CHARS)


def cut_length(text: str) -> int | None:
    """The true length of an answer stored cut by `bound_answer` (None: stored whole)."""
    m = _CUT_RX.search(text)
    return None if m is None else int(m.group(1).replace(",", ""))


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
    usage_estimated: bool = False
    """True when the provider reported no usable token counts and these are estimates."""
    adapted: bool = False
    """True when the provider refused a setting the seat can do without: the same request
    goes out again at once without it (not a failed attempt)."""

    @property
    def truncated(self) -> bool:
        """True when the answer was cut off by the token limit."""
        return self.finish_reason in TRUNCATED

    @property
    def final(self) -> bool:
        """True when the provider refused this request outright (a 4xx other than 408, 409
        and 429): sending it again cannot help, so the decision ends at once."""
        return final_status(self.status, self.error) and not self.adapted

    @property
    def auth_refused(self) -> bool:
        """True when the provider refused the seat's key or its permissions (401, 403)."""
        return self.final and self.status in AUTH_STATUSES


def final_status(status: int | None, error: str | None) -> bool:
    """True for a failed exchange whose status says asking again cannot help."""
    return (
        error is not None
        and status is not None
        and 400 <= status < 500
        and status not in (408, 409, 429)
    )


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
        sent = _without_effort(request) if self.no_effort else request
        try:
            reply = await self._send(sent)
        except ModelRefused as exc:
            dropped = self._adapt(request, str(exc))
            if dropped is None:
                # Stored as a failed exchange (no tokens, no cost); the decision plays its
                # default and the game goes on.
                kind = AUTH_REFUSED if exc.status in AUTH_STATUSES else REFUSED
                return Reply(status=exc.status, error=f"{kind}: {exc}"[:400])
            # Recorded like any exchange; the agent sends the request again at once, which
            # goes out without what was refused.
            error = f"{ADAPTED} {dropped}: {exc}"
            return Reply(status=exc.status, error=error[:400], adapted=True)
        if sent is not request and request.reasoning_effort is not None:
            reply = Reply(**{**reply.__dict__, "effort_dropped": True})
        return reply

    def _adapt(self, request: Request, refusal: str) -> str | None:
        """The setting a refusal names that this seat can do without (then it is left out
        of every later request, said once), or None: the reasoning effort, which the paper
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
            return "reasoning_effort"
        return None

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
        except BadBody as exc:
            error = f"{BAD_BODY}: {redact(str(exc), self.api_key)}"
            return Reply(latency_ms=_ms(t0), status=200, error=error[:300])
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
            raise ModelRefused(refusal, status) from None
        except sdk.APIError as exc:
            # Any other failure the SDK names (a body it could not read, for one).
            error = f"{BAD_BODY}: {type(exc).__name__}: {redact(str(exc), self.api_key)}"
            return Reply(latency_ms=_ms(t0), error=error[:300])

    def _sdk(self) -> Any:
        raise NotImplementedError

    def _finish(self, value: Any) -> str | None:
        """A finish reason as the body gives it, or none where it cannot be one of this
        protocol's (the other protocol's word, or a word of no compatible server from the
        provider's own address): verification holds a stored call to the same rule."""
        finish = _text_or_none(value)
        if finish is None or finish_reason_fits(self.provider, finish, self.options.base_url):
            return finish
        return None

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

    def _adapt(self, request: Request, refusal: str) -> str | None:
        dropped = super()._adapt(request, refusal)
        if dropped is not None:
            return dropped
        if (
            request.schema is not None
            and self.schema_form == "json_schema"
            and _FORMAT_REFUSED.search(refusal)
        ):
            self.schema_form = "json_object"
            log.info(
                "llm.schema_form", provider=self.provider, model=request.model, form="json_object"
            )
            return "response_format json_schema"
        return None

    async def _call(self, request: Request) -> Reply:
        t0 = time.perf_counter()
        # The raw body, read here: the SDK builds its objects without checking their shape.
        raw = await self.client().chat.completions.with_raw_response.create(**self.payload(request))
        latency = _ms(t0)
        data = _json_body(raw.http_response.content)
        if not isinstance(data, dict) or not isinstance(data.get("choices"), list):
            raise BadBody(f"no list of choices in {_show(data)}")
        choice = data["choices"][0] if data["choices"] else {}
        if not isinstance(choice, dict):
            raise BadBody(f"a choice is not an object: {_show(choice)}")
        message = choice.get("message") or {}
        if not isinstance(message, dict):
            raise BadBody(f"a message is not an object: {_show(message)}")
        text = message.get("content") or ""
        if not isinstance(text, str):
            raise BadBody(f"the message's content is not text: {_show(text)}")
        finish = self._finish(choice.get("finish_reason"))
        if message.get("refusal"):
            # Structured output's refusal: no content, the reason in `refusal`.
            finish = "refusal"
        usage: dict[str, Any] = u if isinstance(u := data.get("usage"), dict) else {}
        details = usage.get("completion_tokens_details")
        reasoning = _count(details.get("reasoning_tokens")) if isinstance(details, dict) else 0
        return _reply(
            request,
            text,
            finish,
            (_count(usage.get("prompt_tokens")), _count(usage.get("completion_tokens"))),
            reasoning or 0,
            latency,
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
        raw = await self.client().messages.with_raw_response.create(**body)
        latency = _ms(t0)
        data = _json_body(raw.http_response.content)
        if not isinstance(data, dict) or not isinstance(data.get("content"), list):
            raise BadBody(f"no list of content blocks in {_show(data)}")
        blocks = [b for b in data["content"] if isinstance(b, dict)]
        if len(blocks) != len(data["content"]):
            raise BadBody(f"a content block is not an object: {_show(data['content'])}")
        text = ""
        for b in blocks:
            if b.get("type") == "text":
                if not isinstance(b.get("text"), str):
                    raise BadBody(f"a text block holds no text: {_show(b)}")
                text += b["text"]
        for b in blocks:
            if b.get("type") == "tool_use" and b.get("name") == ANSWER_TOOL:
                try:
                    text = json.dumps(b.get("input"))  # the structured answer
                except (ValueError, RecursionError):
                    raise BadBody("a tool call's input nests too deep") from None
        usage: dict[str, Any] = u if isinstance(u := data.get("usage"), dict) else {}
        return _reply(
            request,
            text,
            self._finish(data.get("stop_reason")),
            (_count(usage.get("input_tokens")), _count(usage.get("output_tokens"))),
            0,
            latency,
        )


def _json_body(raw: bytes) -> Any:
    """The JSON value of an answer's body, or `BadBody`."""
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):
        raise BadBody(f"the body is not JSON: {_show(raw.decode('utf-8', 'replace'))}") from None


def _show(value: Any) -> str:
    """The start of a value from a body, for an error message."""
    try:
        text = value if isinstance(value, str) else json.dumps(value)[:200]
    except (ValueError, RecursionError):
        text = f"a {type(value).__name__} nested too deep to show"
    return ascii(text[:60] + ("..." if len(text) > 60 else ""))


def _text_or_none(value: Any) -> str | None:
    """A finish reason as text (anything else a body puts there reads as none)."""
    if not isinstance(value, str):
        return None
    return value[:40].encode("utf-8", "replace").decode("utf-8")


MAX_REPORTED_TOKENS = 100_000_000
"""Largest token count of one call taken as reported (far beyond any context window); a
larger one is no count."""


def _count(value: Any) -> int | None:
    """A token count a body reports, or None when it is not one (missing, negative, not a
    whole number, beyond `MAX_REPORTED_TOKENS`): then it is estimated."""
    counted = isinstance(value, int) and not isinstance(value, bool)
    return value if counted and 0 <= value <= MAX_REPORTED_TOKENS else None


FLOOR_CHARS_PER_TOKEN = 12
"""The most characters one token is taken to hold when a reported count is checked: a count
below a text's characters (runs of one repeated character counted once) over this ratio
cannot be true, and the floor is counted instead. English prose runs at about 4 characters a
token and Chinese, Japanese or Korean text at 1 or 2; only long runs of one character (spaces,
dashes) pack more into one token, hence the runs counted once."""
_RUNS = re.compile(r"(.)\1+", re.DOTALL)


def floor_tokens(text: str) -> int:
    """The fewest tokens `text` can be (`FLOOR_CHARS_PER_TOKEN`)."""
    return len(_RUNS.sub(r"\1", text)) // FLOOR_CHARS_PER_TOKEN


def _reply(
    request: Request,
    text: str,
    finish: str | None,
    reported: tuple[int | None, int | None],
    reasoning: int,
    latency: float,
) -> Reply:
    """A reply from what a body held: the answer bounded (`bound_answer`), and the token counts
    as reported, or estimated from the text where a count cannot be true (missing, negative,
    none for a prompt, none for a written answer), as the rate limit estimates a prompt; a
    count below the text's `floor_tokens` is raised to that floor."""
    inp, out = reported
    estimated = False
    if not inp:
        inp, estimated = estimate_tokens(request), True
    if out is None or (out == 0 and text):
        out, estimated = (max(1, len(text) // CHARS_PER_TOKEN) if text else 0), True
    least = floor_tokens("".join(m.content for m in request.messages))
    if inp < least:
        inp, estimated = least, True
    if out < (least := floor_tokens(text)):
        out, estimated = least, True
    if reasoning > out:
        # Reasoning is part of the output: a count above it cannot be true, and the larger
        # one is what the call may have cost.
        out, estimated = reasoning, True
    # (a lone surrogate, which JSON can spell, cannot be stored as UTF-8: it becomes "?")
    text = text.encode("utf-8", "replace").decode("utf-8")
    return Reply(
        text=bound_answer(text),
        finish_reason=finish,
        input_tokens=inp,
        output_tokens=out,
        reasoning_tokens=reasoning,
        latency_ms=latency,
        usage_estimated=estimated,
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
            usage_estimated=c.usage_estimated is True,
            adapted=(c.error or "").startswith(ADAPTED),
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
