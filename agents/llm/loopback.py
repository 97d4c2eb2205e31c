"""A loopback model server for tests, benchmarks and trying the harness without a key.

It speaks the OpenAI chat-completions protocol (``POST {url}/v1/chat/completions``) and the
Anthropic messages protocol (``POST {url}/v1/messages``) on 127.0.0.1 and answers from a
scriptable *policy*: a function from the incoming request to an `Answer` (text, finish
reason, HTTP status, headers, delay). `LegalPolicy` reads the prompt and plays legal moves
in every built-in game through each family's ``standin`` module (`STANDINS`).
`FaultPolicy` wraps a policy and injects scripted faults.

Run it alone: ``python -m agents.llm.loopback --port 8765 --delay 0.2``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import re
import threading
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

# ---------------------------------------------------------------------------- requests / answers


@dataclass
class Incoming:
    """One request as the policy sees it."""

    protocol: str
    """openai or anthropic."""
    body: dict[str, Any]
    n: int
    """0-based index of the request on this server."""

    @property
    def messages(self) -> list[dict[str, Any]]:
        """The chat messages, system prompt first (both protocols)."""
        msgs = list(self.body.get("messages", []))
        if self.protocol == "anthropic" and self.body.get("system"):
            msgs.insert(0, {"role": "system", "content": self.body["system"]})
        return msgs

    def _users(self) -> list[str]:
        return [str(m.get("content", "")) for m in self.messages if m.get("role") == "user"]

    @property
    def prompt(self) -> str:
        """The first user message (the decision prompt)."""
        users = self._users()
        return users[0] if users else ""

    @property
    def last(self) -> str:
        """The last user message."""
        users = self._users()
        return users[-1] if users else ""

    @property
    def kind(self) -> str:
        """The decision asked for, read from the prompt."""
        return prompt_kind(self.prompt)

    @property
    def stage(self) -> str:
        """ask, format_retry or truncation_retry, read from the messages."""
        if self.last.startswith("Your answer could not be used"):
            return "format_retry"
        if "cut off by the length limit" in self.last:
            return "truncation_retry"
        return "ask"


@dataclass
class Answer:
    """What the server sends back."""

    text: str = ""
    finish: str = "stop"
    """stop, length, content_filter or refusal (Anthropic: end_turn, max_tokens, refusal,
    refusal). An OpenAI refusal carries the text in the message's `refusal` field."""
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    """Seconds to wait before answering (a hang when longer than the client's timeout)."""
    raw: str | None = None
    """A body sent as it is, with `status` and `content_type`, instead of the protocol's
    answer (a broken provider or proxy)."""
    content_type: str = "application/json"
    usage: dict[str, Any] | None = None
    """Token counts to report instead of the counted ones (keys of the protocol's `usage`;
    an empty dict reports no `usage` at all)."""


Policy = Callable[[Incoming], Answer]

_KINDS = (
    # TextArena games (first: their observation text may hold any other marker)
    ("\nWHAT THE GAME SHOWS YOU\n", "textarena"),
    # GameBench's own protocol (style=gamebench) and its planner's questions
    ("\n# Observation\n", "gamebench"),
    ("\nWhat you see of the game, between <state> and </state>:\n", "gamebench"),
    ("Update your private game notes", "scratchpad"),
    # Cattle Trade
    ("It's your turn. Choose ONE action", "turn"),
    ("BUY-RIGHT DECISION", "sale"),
    ("KUHHANDEL - choose a target", "initiate_trade"),
    ("KUHHANDEL - you are being challenged", "respond_trade"),
    ("KUHHANDEL TIE", "tie_offer"),
    ("Minimum bid:", "bid"),
    # PACT
    ("YOUR MESSAGE FOR ROUND", "message"),
    ("YOUR QUOTE:", "quote"),
    # OpenSpiel games
    ("\nLEGAL ACTIONS\n", "openspiel"),
)


STANDINS: dict[str, str] = {
    **dict.fromkeys(
        ("turn", "sale", "initiate_trade", "respond_trade", "tie_offer", "bid"),
        "agents.cattle.standin",
    ),
    "message": "agents.pact.standin",
    "quote": "agents.pact.standin",
    "openspiel": "agents.openspiel.standin",
    "textarena": "agents.textarena.standin",
    "gamebench": "agents.gamebench.standin",
}
"""Prompt kind -> the family module whose ``answer(request, rng, policy)`` plays that kind.
A family's module is imported the first time one of its prompts arrives: this shared module
names the families only as strings (as the catalogue does), never imports one. The markers
above stay here, as plain strings, so that reading a prompt's kind imports no family."""


def prompt_kind(prompt: str) -> str:
    """The decision kind a prompt asks for (scratchpad for note updates, unknown otherwise)."""
    if prompt.startswith("GAME: "):
        return "gamebench"  # GameBench prompts open with their title
    for marker, kind in _KINDS:
        if marker in prompt:
            return kind
    return "unknown"


# ---------------------------------------------------------------------------- reading prompts


def prompt_number(rx: str, text: str, default: int = 0) -> int:
    """The number the first group of `rx` matches in `text` (`default` when none does)."""
    m = re.search(rx, text)
    return int(m.group(1)) if m else default


class LegalPolicy:
    """Plays legal, varied moves read from the prompt; deterministic given the prompts.

    `trade_bias` is the chance of choosing a trade challenge on a turn when one is possible.
    """

    def __init__(self, seed: int = 0, *, trade_bias: float = 0.3, notes: bool = True) -> None:
        self.seed = seed
        self.trade_bias = trade_bias
        self.notes = notes

    def rng(self, req: Incoming) -> random.Random:
        """A generator keyed on the prompt's numbers only, so rewording keeps games stable."""
        digits = ",".join(re.findall(r"\d+", req.prompt))
        return random.Random(zlib.crc32(digits.encode()) ^ self.seed)

    def decide(self, req: Incoming) -> dict[str, Any] | str:
        """The answer's fields for the request (a string for note updates and for the
        families that answer in text)."""
        p = req.prompt
        rng = self.rng(req)
        kind = req.kind
        if kind == "scratchpad":
            return f"Seen {p.count(chr(10))} lines so far; keep bidding low."
        if kind in STANDINS:
            return importlib.import_module(STANDINS[kind]).answer(req, rng, self)
        return {"reasoning": "unknown prompt", "action": "pass"}

    def __call__(self, req: Incoming) -> Answer:
        fields = self.decide(req)
        return Answer(text=fields if isinstance(fields, str) else json.dumps(fields))


# ---------------------------------------------------------------------------- faults


def _prose(text: str) -> str:
    return f"Let me think about the position.\nMy move:\n{text}\nGood luck to everyone."


def _fence(text: str) -> str:
    return f"Here is my answer:\n```json\n{text}\n```"


def _broken(text: str) -> str:
    return text.rstrip("}").rstrip() + ","  # unterminated object


def _wrong_types(fields: dict[str, Any]) -> str:
    out = {}
    for k, v in fields.items():
        if isinstance(v, int) and not isinstance(v, bool):
            out[k] = f"{v} coins"
        elif isinstance(v, list):
            out[k] = ", ".join(map(str, v))
        else:
            out[k] = v
    if "target_player" in fields:
        out["target_player"] = f"Player {fields['target_player']}"
    return json.dumps(out)


FAULTS = (
    "prose",
    "fence",
    "broken",
    "missing_keys",
    "wrong_types",
    "truncated",
    "cards_not_in_hand",
    "invalid_target",
    "rate_limit",
    "server_error",
    "hang",
    "garbage",
    "empty",
    "refusal",
    "content_filter",
    "illegal_move",
)
"""Faults `FaultPolicy` can inject."""


class FaultPolicy:
    """Wraps a policy; each scripted (kind, fault) spoils the next matching request.

    A kind of "any" matches every request except note updates; ``KIND/STAGE`` (``turn/ask``,
    ``bid/format_retry``) matches only requests of that stage. `hang` waits `hang_for`
    seconds before answering; `rate_limit` answers 429 with Retry-After `retry_after`.
    """

    def __init__(
        self,
        base: LegalPolicy,
        script: list[tuple[str, str]],
        *,
        hang_for: float = 2.0,
        retry_after: float = 0.01,
    ) -> None:
        self.base = base
        self.script = list(script)
        self.hang_for = hang_for
        self.retry_after = retry_after
        self.applied: list[tuple[int, str, str]] = []
        """(request index, kind, fault) for every fault injected."""

    def _take(self, req: Incoming) -> str | None:
        kind = req.kind
        for i, (k, fault) in enumerate(self.script):
            k, _, stage = k.partition("/")
            if stage and stage != req.stage:
                continue
            if k == kind or (k == "any" and kind != "scratchpad"):
                del self.script[i]
                self.applied.append((req.n, kind, fault))
                return fault
        return None

    def __call__(self, req: Incoming) -> Answer:
        fault = self._take(req)
        if fault is None:
            return self.base(req)
        fields = self.base.decide(req)
        if isinstance(fields, str):
            fields = {"notes": fields}
        text = json.dumps(fields)
        match fault:
            case "prose":
                return Answer(text=_prose(text))
            case "fence":
                return Answer(text=_fence(text))
            case "broken":
                return Answer(text=_broken(text))
            case "missing_keys":
                return Answer(text=json.dumps({"reasoning": "I forgot the rest"}))
            case "wrong_types":
                return Answer(text=_wrong_types(fields))
            case "truncated":
                return Answer(text='{"reasoning": "First I will consider every', finish="length")
            case "cards_not_in_hand":
                key = "counter_cards" if req.kind == "respond_trade" else "offer_cards"
                return Answer(text=json.dumps({**fields, "action": "counter", key: [500, 500]}))
            case "invalid_target":
                return Answer(text=json.dumps({**fields, "target_player": 99}))
            case "rate_limit":
                return Answer(
                    status=429,
                    headers={"retry-after": str(self.retry_after)},
                    text=json.dumps({"error": {"message": "slow down", "type": "rate_limit"}}),
                )
            case "server_error":
                return Answer(
                    status=500, text=json.dumps({"error": {"message": "boom", "type": "server"}})
                )
            case "hang":
                return Answer(text=text, delay=self.hang_for)
            case "garbage":
                return Answer(text="I would rather not say.")
            case "empty":
                return Answer(text="")
            case "refusal":
                return Answer(text="I can't help with that.", finish="refusal")
            case "content_filter":
                return Answer(text="", finish="content_filter")
            case "illegal_move":
                return Answer(text="Action: a move no game has")
        raise ValueError(f"unknown fault {fault!r}")


# ---------------------------------------------------------------------------- server


def _tokens(text: str) -> int:
    return max(1, len(text) // 4)


def openai_body(req: Incoming, ans: Answer) -> dict[str, Any]:
    """A chat-completions response."""
    prompt = sum(_tokens(str(m.get("content", ""))) for m in req.messages)
    out = _tokens(ans.text)
    message: dict[str, Any] = {"role": "assistant", "content": ans.text}
    if ans.finish == "refusal":
        message = {"role": "assistant", "content": None, "refusal": ans.text}
    return {
        "id": f"chatcmpl-{req.n}",
        "object": "chat.completion",
        "created": 0,
        "model": req.body.get("model", "loopback"),
        "choices": [
            {
                "index": 0,
                "message": message,
                "finish_reason": "stop" if ans.finish == "refusal" else ans.finish,
            }
        ],
        "usage": {
            "prompt_tokens": prompt,
            "completion_tokens": out,
            "total_tokens": prompt + out,
            "completion_tokens_details": {"reasoning_tokens": 0},
        },
    }


def openai_stream(payload: dict[str, Any]) -> bytes:
    """A chat-completions response as the server-sent events of a streamed answer (a request
    with `"stream": true`): one chunk with the whole message, one with the finish reason and
    the usage, then the end marker."""
    choice = payload["choices"][0]
    head = {k: payload[k] for k in ("id", "created", "model")}
    head["object"] = "chat.completion.chunk"
    delta = {k: v for k, v in choice["message"].items() if v is not None}
    chunks = [
        {**head, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]},
        {**head, "choices": [{"index": 0, "delta": {}, "finish_reason": choice["finish_reason"]}]},
    ]
    if "usage" in payload:
        chunks[-1]["usage"] = payload["usage"]
    lines = [f"data: {json.dumps(c)}\n\n" for c in chunks] + ["data: [DONE]\n\n"]
    return "".join(lines).encode()


def _tool_input(req: Incoming, ans: Answer) -> tuple[str, dict[str, Any]] | None:
    """(tool name, input) when the request offers a tool and the answer is a JSON object."""
    tools = req.body.get("tools") or []
    if not tools or ans.finish != "stop":
        return None
    try:
        data = json.loads(ans.text)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    choice = req.body.get("tool_choice") or {}
    return str(choice.get("name") or tools[0].get("name", "answer")), data


def anthropic_body(req: Incoming, ans: Answer) -> dict[str, Any]:
    """A messages response (a tool call when the request offers a tool, as structured
    output does, and the answer is a JSON object)."""
    prompt = sum(_tokens(str(m.get("content", ""))) for m in req.messages)
    tool = _tool_input(req, ans)
    content: list[dict[str, Any]] = [{"type": "text", "text": ans.text}]
    stop = {"length": "max_tokens", "content_filter": "refusal", "refusal": "refusal"}.get(
        ans.finish, "end_turn"
    )
    if tool is not None:
        content = [{"type": "tool_use", "id": f"toolu_{req.n}", "name": tool[0], "input": tool[1]}]
        stop = "tool_use"
    return {
        "id": f"msg_{req.n}",
        "type": "message",
        "role": "assistant",
        "model": req.body.get("model", "loopback"),
        "content": content,
        "stop_reason": stop,
        "stop_sequence": None,
        "usage": {"input_tokens": prompt, "output_tokens": _tokens(ans.text)},
    }


MAX_REQUEST = 64 * 1024 * 1024
"""The largest request body the server reads, in bytes."""


def _error(message: str) -> dict[str, Any]:
    """An error body both SDKs read (OpenAI's `error.message`, Anthropic's typed error)."""
    return {"type": "error", "error": {"type": "invalid_request_error", "message": message}}


def _length(header: str | None) -> tuple[int, str | None]:
    """(the body's length, why it cannot be read or None) from a content-length header."""
    text = (header or "0").strip()
    if not text.isdigit():
        return -1, f"content-length must be a whole number of bytes, got {text[:40]!r}"
    length = int(text)
    if length > MAX_REQUEST:
        return length, f"content-length {length:,} is over {MAX_REQUEST:,} bytes"
    return length, None


def _request_body(raw: bytes) -> tuple[dict[str, Any], str | None]:
    """(the request's JSON object, why it is not a request the protocols allow or None)."""
    try:
        body = json.loads(raw or b"{}")
    except (ValueError, RecursionError) as exc:
        return {}, f"the body is not JSON: {type(exc).__name__}"
    if not isinstance(body, dict):
        return {}, f"the body is a JSON {type(body).__name__}, not an object"
    messages = body.get("messages", [])
    if not isinstance(messages, list):
        return {}, "messages must be a list"
    for i, m in enumerate(messages):
        if not isinstance(m, dict) or not isinstance(m.get("role"), str):
            return {}, f"messages[{i}] must be an object with a role"
    if not isinstance(body.get("system", ""), str | list):
        return {}, "system must be text or a list of blocks"
    return body, None


class LoopbackServer:
    """A threaded HTTP server on 127.0.0.1 answering both protocols from a policy; a request
    it cannot read is answered 400 (413 when too long) with a JSON error."""

    def __init__(self, policy: Policy | None = None, *, port: int = 0, delay: float = 0.0) -> None:
        self.policy: Policy = policy or LegalPolicy()
        self.delay = delay
        self.requests: list[Incoming] = []
        """Every request received, in arrival order."""
        self.headers: list[dict[str, str]] = []
        """Headers of every request (as received)."""
        self._lock = threading.Lock()
        self.inflight = 0
        self.max_inflight = 0
        """Most requests ever being answered at the same time."""
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True

            def log_message(self, format: str, *args: Any) -> None:
                return None

            def do_POST(self) -> None:
                length, problem = _length(self.headers.get("content-length"))
                if problem is not None:
                    self.close_connection = True  # the body, if any, is left unread
                    self._send(400 if length <= MAX_REQUEST else 413, _error(problem), {})
                    return
                raw = self.rfile.read(length)
                path = self.path.split("?", 1)[0]
                if path.endswith("/chat/completions"):
                    protocol = "openai"
                elif path.endswith("/messages"):
                    protocol = "anthropic"
                else:
                    self._send(404, {"error": {"message": f"no route {path}"}}, {})
                    return
                body, problem = _request_body(raw)
                if problem is not None:
                    self._send(400, _error(problem), {})
                    return
                with server._lock:
                    req = Incoming(protocol=protocol, body=body, n=len(server.requests))
                    server.requests.append(req)
                    server.headers.append(dict(self.headers.items()))
                    ans = server.policy(req)
                    server.inflight += 1
                    server.max_inflight = max(server.max_inflight, server.inflight)
                try:
                    wait = server.delay + ans.delay
                    if wait > 0:
                        time.sleep(wait)
                    self._answer(req, ans, protocol)
                finally:
                    with server._lock:
                        server.inflight -= 1

            def _answer(self, req: Incoming, ans: Answer, protocol: str) -> None:
                if ans.raw is not None:
                    self._write(ans.status, ans.raw.encode(), ans.content_type, ans.headers)
                    return
                if ans.status != 200:
                    self._send(ans.status, json.loads(ans.text or "{}"), ans.headers)
                    return
                payload = (
                    openai_body(req, ans) if protocol == "openai" else anthropic_body(req, ans)
                )
                if ans.usage is not None:
                    if ans.usage:
                        payload["usage"] = ans.usage
                    else:
                        del payload["usage"]
                if protocol == "openai" and req.body.get("stream") is True:
                    self._write(200, openai_stream(payload), "text/event-stream", ans.headers)
                    return
                self._send(200, payload, ans.headers)

            def _send(self, status: int, payload: Any, headers: dict[str, str]) -> None:
                self._write(status, json.dumps(payload).encode(), "application/json", headers)

            def _write(
                self, status: int, data: bytes, content_type: str, headers: dict[str, str]
            ) -> None:
                try:
                    self.send_response(status)
                    self.send_header("content-type", content_type)
                    self.send_header("content-length", str(len(data)))
                    for k, v in headers.items():
                        self.send_header(k, v)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout): nothing to answer

        class Server(ThreadingHTTPServer):
            daemon_threads = True
            request_queue_size = 256

            def handle_error(self, request: Any, client_address: Any) -> None:
                return None  # dropped connections are expected (timeouts)

        self._server = Server(("127.0.0.1", port), Handler)
        self.port = self._server.server_address[1]
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        """Base URL for the Anthropic SDK (it appends /v1/messages)."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def openai_url(self) -> str:
        """Base URL for the OpenAI SDK (it appends /chat/completions)."""
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> LoopbackServer:
        """Serve in a background thread."""
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and close the listening socket."""
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> LoopbackServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def main() -> None:
    """Serve until interrupted."""
    ap = argparse.ArgumentParser(description="Loopback model server (OpenAI and Anthropic).")
    ap.add_argument("--port", type=int, default=8765)
    ap.add_argument("--delay", type=float, default=0.0, help="seconds before every answer")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    server = LoopbackServer(LegalPolicy(args.seed), port=args.port, delay=args.delay)
    print(f"openai: {server.openai_url}  anthropic: {server.url}", flush=True)
    try:
        server._server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server._server.server_close()


if __name__ == "__main__":
    main()
