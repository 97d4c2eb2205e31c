"""Facts recorded by agents rather than the rules: notes and model exchanges.

The engine's fold ignores them; they exist so that replays and analyses see every input an
agent had, and so that a replay never has to call a model again.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import msgspec
from msgspec import UNSET, UnsetType

from events.base import ENGINE, Event, Seat, SeatPrivate


class ScratchpadUpdated(SeatPrivate, frozen=True, kw_only=True, tag="scratchpad_updated"):
    """A seat rewrote its private notes."""

    ACTOR = "seat"
    seat: Seat
    notes: str


class AgentNote(Event, frozen=True, kw_only=True, tag="agent_note"):
    """A free-form, engine-only remark an agent attached to the log (diagnostics)."""

    ACTOR = "seat"
    seat: Seat
    note: str

    def audience(self) -> tuple[int, ...] | None:
        return ENGINE


class ChatMessage(msgspec.Struct, frozen=True, kw_only=True):
    """One message of a model request: its role (system, user, assistant) and text."""

    role: str
    content: str


OPENAI_FINISH = ("stop", "length", "content_filter", "tool_calls", "function_call", "refusal")
ANTHROPIC_FINISH = (
    "end_turn",
    "max_tokens",
    "stop_sequence",
    "tool_use",
    "pause_turn",
    "refusal",
    "model_context_window_exceeded",
)
"""The finish reasons each provider's own API gives (`refusal` on OpenAI is the name the
transport gives a structured-output refusal). A compatible server at another address may
name others, but never one that only the other protocol uses."""


def finish_reason_fits(provider: str, finish: str, base_url: str | None) -> bool:
    """Whether `finish` can be a finish reason of `provider`'s protocol: one of its own, or,
    from a compatible server at another address, any word the other protocol does not use."""
    own, other = (
        (ANTHROPIC_FINISH, OPENAI_FINISH)
        if provider == "anthropic"
        else (OPENAI_FINISH, ANTHROPIC_FINISH)
    )
    return finish in own or (base_url is not None and finish not in other)


class LLMCall(Event, frozen=True, kw_only=True, tag="llm_call"):
    """One exchange with a language model, engine-only: the request, the answer and its cost.

    `stage` says why the call was made (ask, card_retry, format_retry, truncation_retry,
    scratchpad); `attempt` counts transport attempts of that stage (1 = first try).
    `parse_stage` says how the answer was read (json, last_object, key_value, failed), or is
    None when the call produced no answer or needs no parsing.
    """

    ACTOR = "seat"
    seat: Seat
    decision: str
    stage: str
    attempt: int
    provider: str
    model: str
    base_url: str | None = None
    temperature: float | None = None
    max_tokens: int = 0
    reasoning_effort: str | None = None
    messages: tuple[ChatMessage, ...] = ()
    response: str = ""
    finish_reason: str | None = None
    input_tokens: int = 0
    output_tokens: int = 0
    reasoning_tokens: int = 0
    latency_ms: float = 0.0
    status: int | None = None
    """HTTP status of a failed call, if the server answered."""
    retry_after: float | None = None
    """Seconds the server asked to wait (Retry-After), if any."""
    error: str | None = None
    """Transport error (timeout, connection, rate_limited, server_error, ...), if any."""
    parse_stage: str | None = None
    parse_error: str | None = None
    usage_estimated: bool | UnsetType = UNSET
    """True when the provider reported no usable token counts (missing, negative) and
    `input_tokens` and `output_tokens` are estimates from the text; left out otherwise (so
    exchanges with reported counts keep their stored form)."""

    def audience(self) -> tuple[int, ...] | None:
        return ENGINE


class ActionDefaulted(SeatPrivate, frozen=True, kw_only=True, tag="action_defaulted"):
    """An agent could not obtain a usable answer and played its documented default action."""

    ACTOR = "seat"
    seat: Seat
    decision: str
    action: str
    """The default action, as JSON."""
    reason: str


OUTCOMES = (
    "ok",
    "repaired",
    "unparsable",
    "illegal",
    "truncated",
    "refused",
    "timeout",
    "error",
    "budget",
)
"""Outcome classes of a model decision (docs/llm.md, "Outcome of a decision"):

* ``ok``: the first answer was read by a strict stage and its move played;
* ``repaired``: the model's move was played, but only after a lenient parse stage
  (last_object, key_value, lenient) or a retry (format or truncation retry);
* ``unparsable``: no move could be read from the answers, the default was played;
* ``illegal``: the answer named a move the decision does not allow (the game's parser says
  so, or the rules rejected it: the views mark those from the rules' own events);
* ``truncated``: the provider stopped on the token limit and no usable move followed;
* ``refused``: the provider refused to answer (a refusal or content filter);
* ``timeout`` / ``error``: every attempt failed in transport (the last by a timeout / by
  another error: HTTP 5xx, 429, connection);
* ``budget``: the seat's budget (per game or per tournament) was spent, no call was made.
"""


VERDICT_SUFFIXES = ("_rejected", "_refused", "_invalid")
"""How the tags of a game's verdicts on a seat's action end (a rules' rejection, a refused
request, an environment's invalid-move verdict): each such event names the seat as its actor
and says why in `reason` (docs/architecture.md). The views (`verdicts`, `llm_decisions`)
match the same suffixes."""


def verdict_of(event: Event) -> tuple[int, str] | None:
    """(the seat, the reason) when `event` is a game's verdict on a seat's action, else None."""
    tag = type(event).__struct_config__.tag
    if not isinstance(tag, str) or not tag.endswith(VERDICT_SUFFIXES):
        return None
    seat = event.actor()
    if seat is None:
        return None
    return seat, str(getattr(event, "reason", ""))


class ModelDecision(Event, frozen=True, kw_only=True, tag="model_decision"):
    """How one decision of a model seat went, engine-only: its outcome class (`OUTCOMES`),
    the model calls and tokens it took, and the action played instead of the model's
    (`fallback`, as JSON) when its answer was not used.

    Recorded after the decision's `llm_call` events. Games stored before this event existed
    have none: their decisions count as outcome ``unrecorded`` in the views (their calls
    and defaults are still in `llm_call` and `action_defaulted`).
    """

    ACTOR = "seat"
    seat: Seat
    decision: str
    outcome: str
    calls: int = 0
    tokens: int = 0
    fallback: str | None = None

    def audience(self) -> tuple[int, ...] | None:
        return ENGINE


CUT_REASON = "the rules cut it to their length limit"
"""The reason given for a decision whose action the rules took cut (`cut_of`)."""


def cut_of(event: Event) -> int | None:
    """The seat whose action the rules took only cut (an event with a field `cut` that is
    true, as PACT's message cut to the word limit), else None."""
    if getattr(event, "cut", None) is not True:
        return None
    return event.actor()


def judged(events: Sequence[object]) -> list[tuple[ModelDecision, str, str | None]]:
    """Every `ModelDecision` of a log with the class the game's verdicts give it, as the
    `llm_decisions` view does: a decision recorded `ok` or `repaired` whose move the game
    refused or judged invalid before the seat's next decision is `illegal`; the reason is the
    first such verdict's (None when the game took the move as given). A decision recorded
    `ok` whose action the rules took only cut (`cut_of`) is `repaired`, for `CUT_REASON`; one
    recorded `illegal` (the game's parser found the move not allowed) has the parser's
    reason, the first parse error of its answered calls, unless a verdict gives one."""
    out: list[tuple[ModelDecision, str, str | None]] = []
    open_: dict[int, int] = {}
    """The index in `out` of each seat's latest decision."""
    said: dict[int, str] = {}
    """Each seat's first parse error of an answered call since its latest decision."""
    parsed: dict[int, str] = {}
    """The parser's reason of each decision recorded `illegal` (by index in `out`)."""
    start = events[0] if events else None
    arena = getattr(start, "game", None) == "textarena"
    told = arena and getattr(start, "engine_version", None) == "1.0.0"
    ended = arena and getattr(start, "engine_version", None) in ("1.0.0", "1.1.0")
    last: int | None = None
    """The player of the latest TextArena action (a game stored before rules 1.2.0)."""
    for e in events:
        if isinstance(e, ModelDecision):
            open_[e.seat] = len(out)
            if e.outcome == "illegal" and e.seat in said:
                parsed[len(out)] = said[e.seat]
            said.pop(e.seat, None)
            out.append((e, e.outcome, None))
            continue
        if isinstance(e, LLMCall):
            if e.stage != "scratchpad" and e.error is None and e.parse_error is not None:
                said.setdefault(e.seat, e.parse_error)
            continue
        cut = cut_of(e) if isinstance(e, Event) else None
        if cut is not None and cut in open_:
            i = open_[cut]
            decision, outcome, reason = out[i]
            if reason is None and outcome == "ok":
                out[i] = (decision, "repaired", CUT_REASON)
            continue
        verdict = verdict_of(e) if isinstance(e, Event) else None
        if verdict is None and told and isinstance(e, Event):
            verdict = _told_verdict(e)
        if verdict is None and ended and isinstance(e, Event):
            tag = type(e).__struct_config__.tag
            if tag == "textarena_action":
                last = int(getattr(e, "player", 0))
            reason = str(getattr(e, "reason", ""))
            if tag == "game_ended" and last is not None and _ENDED_BY in reason:
                verdict = (last, reason)
        if verdict is None or verdict[0] not in open_:
            continue
        i = open_[verdict[0]]
        decision, outcome, reason = out[i]
        if reason is None or reason == CUT_REASON:
            played = decision.outcome in ("ok", "repaired")
            out[i] = (decision, "illegal" if played else outcome, verdict[1])
    for i, reason in parsed.items():
        if out[i][2] is None:
            out[i] = (out[i][0], out[i][1], reason)
    return out


_ENDED_BY = "mentioned a clue that is a subset/ exact match of words"
"""How Codenames' end reason tells a clue its rules forbid (engine.textarena.rules,
END_VERDICTS); a game stored before TextArena rules 1.2.0 has no verdict event for it."""


def _told_verdict(event: Event) -> tuple[int, str] | None:
    """The refusal a TextArena observation of rules 1.0.0 tells its own seat in a message
    (Codenames' unreadable clue or guess), as the `verdicts` view reads it."""
    if type(event).__struct_config__.tag != "textarena_observed":
        return None
    seat, text = getattr(event, "seat", None), str(getattr(event, "text", ""))
    found = re.search(rf"[^\n\[\]]*Player {seat}, did not provide a valid [^\n]*", text)
    return None if seat is None or found is None else (int(seat), found.group())


class HumanAnswer(Event, frozen=True, kw_only=True, tag="human_answer"):
    """One line a person typed for a decision, engine-only: what they typed, how the game's
    answer parser read it, and how long they took.

    The time is the agent's own record (the rules never read it); replays copy the event
    from the log. `stage` is ``ask`` for the first line of a decision and ``retry`` for a
    line typed after a refusal; `error` says why a line was refused (None: it was played).
    """

    ACTOR = "seat"
    seat: Seat
    decision: str
    stage: str
    text: str
    parse_stage: str | None = None
    error: str | None = None
    elapsed_ms: float = 0.0

    def audience(self) -> tuple[int, ...] | None:
        return ENGINE


class SeatAbandoned(Event, frozen=True, kw_only=True, tag="seat_abandoned"):
    """The person at a seat left (end of input or an interrupt); from here on the seat plays
    its recorded default action (`ActionDefaulted`) at every decision."""

    ACTOR = "seat"
    seat: Seat
    decision: str
    reason: str
    elapsed_ms: float = 0.0

    def audience(self) -> tuple[int, ...] | None:
        return ENGINE


AgentEvent = (
    ScratchpadUpdated
    | AgentNote
    | LLMCall
    | ActionDefaulted
    | ModelDecision
    | HumanAnswer
    | SeatAbandoned
)
"""Every event an agent may add to a game's log."""
