"""What a PACT seat sees, how a PACT event reads, and the prompts of a model seat.

`PactView` folds, incrementally, exactly the events a seat may see: its own role and private
number, every message, every revealed pair of quotes and its trade, and its own rejected
quotes. The other side's number is never dealt to it, and a round's quotes reach it only
together, once both are in. `describe` words one event as one line of text, and
`PactPrompter` renders the system and decision prompts from a view; all of it is pure, so
prompts are snapshot-tested and a replay renders them again exactly.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from engine.pact.rules import AnyPactDecision, MessageDecision, QuoteDecision, action_json
from events import agent as ae
from events.config import SeatSpec
from events.pact import game as pe
from events.pact.game import BUYER, ROLES, PactConfig


def num(x: float | int) -> str:
    """A price, quote or profit as text: whole numbers without a decimal point, halves with
    one digit (prices are whole or half units)."""
    if isinstance(x, int):
        return str(x)
    if x == int(x):
        return str(int(x))
    return f"{x:.1f}"


def signed(x: float | int) -> str:
    """A profit with its sign (+8, -2.5, 0)."""
    return ("+" if x > 0 else "") + num(x)


# --------------------------------------------------------------------------- the view


class PactObservation(msgspec.Struct, frozen=True, kw_only=True):
    """What one PACT seat knows at a point of the game, and what it is asked (if anything)."""

    seat: int
    role: str
    value: int | None
    """This seat's private number (the buyer's value, the seller's cost)."""
    round: int
    messages: tuple[tuple[int, int, str], ...]
    """Every message so far: (round, seat, text)."""
    rounds: tuple[tuple[int, int, int, bool, float | None], ...]
    """Every finished round: (round, bid, ask, traded, price)."""
    profit: float
    trades: int
    ended: bool
    pending: Any = None


class PactView:
    """Incremental fold of the events visible to one PACT seat (the `View` protocol)."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.seen = 0
        """How many log events were consumed (visible or not)."""
        self.history: list[Any] = []
        """Every event this seat saw, in order."""
        self.ended = False
        self.config: PactConfig | None = None
        self.seats: tuple[SeatSpec, ...] = ()
        self.role = ROLES[seat] if seat in (0, 1) else ""
        self.value: int | None = None
        """This seat's private number: the buyer's value or the seller's cost."""
        self.round = 0
        """The round in progress (1-based); 0 before the game starts."""
        self.messages: list[pe.PactMessageSent] = []
        """Every message so far, in order (the current round's last)."""
        self.reveals: list[pe.PactQuotesRevealed] = []
        """Both quotes and the trade of every finished round, in order."""
        self.profits: list[float] = []
        """This seat's profit in each finished round."""
        self.profit: float = 0.0
        """This seat's cumulative profit."""
        self.trades = 0
        self.corrections: dict[int, pe.PactQuoteRejected] = {}
        """This seat's rejected quotes, by round."""
        self.scores: tuple[float, ...] | None = None
        self.ranks: tuple[int, ...] | None = None

    def sync(self, log: Sequence[Any], audiences: Sequence[Any] | None = None) -> PactView:
        """Consume the events of `log` not seen yet (the log only ever grows); `audiences`,
        when given, holds each event's `audience()`, computed once for every seat."""
        seat = self.seat
        handlers = _HANDLERS
        history = self.history.append
        end = len(log)
        for i in range(self.seen, end):
            e = log[i]
            aud = audiences[i] if audiences is not None else e.audience()
            if aud is None or seat in aud:
                handler = handlers.get(e.__class__)
                if handler is not None:
                    handler(self, e)
                history(e)
        self.seen = end
        return self

    # ---- queries ---------------------------------------------------------------------------

    def snapshot(self, pending: Any = None) -> PactObservation:
        """The seat's knowledge as a value, with the decision it is asked (if it is asked)."""
        asked = pending if pending is not None and self.seat in pending.seats else None
        return PactObservation(
            seat=self.seat,
            role=self.role,
            value=self.value,
            round=self.round,
            messages=tuple((m.round, m.seat, m.text) for m in self.messages),
            rounds=tuple((r.round, r.bid, r.ask, r.traded, r.price) for r in self.reveals),
            profit=self.profit,
            trades=self.trades,
            ended=self.ended,
            pending=asked,
        )

    @property
    def other(self) -> int:
        """The other seat."""
        return 1 - self.seat

    def current_messages(self) -> list[pe.PactMessageSent]:
        """The messages of the round in progress."""
        out: list[pe.PactMessageSent] = []
        for m in reversed(self.messages):
            if m.round != self.round:
                break
            out.append(m)
        out.reverse()
        return out

    # ---- handlers --------------------------------------------------------------------------

    def _started(self, e: pe.PactGameStarted) -> None:
        self.config = e.config
        self.seats = e.seats
        self.round = 1

    def _dealt(self, e: pe.PactValueDealt) -> None:
        self.value = e.amount

    def _message(self, e: pe.PactMessageSent) -> None:
        self.messages.append(e)

    def _rejected(self, e: pe.PactQuoteRejected) -> None:
        self.corrections[e.round] = e

    def _revealed(self, e: pe.PactQuotesRevealed) -> None:
        self.reveals.append(e)
        gain = 0.0
        if e.traded and e.price is not None and self.value is not None:
            gain = self.value - e.price if self.seat == BUYER else e.price - self.value
            self.trades += 1
        self.profits.append(gain)
        self.profit += gain
        self.round = e.round + 1

    def _ended(self, e: pe.PactGameEnded) -> None:
        self.ended = True
        self.round = e.rounds
        self.scores = e.scores
        self.ranks = e.ranks


_HANDLERS: dict[type, Callable[[PactView, Any], None]] = {
    pe.PactMessageSent: PactView._message,
    pe.PactQuotesRevealed: PactView._revealed,
    pe.PactQuoteRejected: PactView._rejected,
    pe.PactValueDealt: PactView._dealt,
    pe.PactGameStarted: PactView._started,
    pe.PactGameEnded: PactView._ended,
}


def observe(events: Sequence[Any], seat: int) -> PactView:
    """The view of `seat` after `events` (a whole or partial log)."""
    return PactView(seat).sync(events)


# --------------------------------------------------------------------------- timeline


def _who(seat: int, viewer: int | None) -> str:
    you = " (you)" if viewer is not None and seat == viewer else ""
    return f"Player {seat}{you}, the {ROLES[seat]}" if seat in (0, 1) else f"Player {seat}"


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def _short(text: str, n: int = 120) -> str:
    """Text cut to `n` characters, control characters shown as escapes (one line)."""
    text = _CONTROL.sub(lambda m: repr(m.group())[1:-1], text)
    return text if len(text) <= n else text[: n - 3] + "..."


def describe(e: Any, viewer: int | None = None) -> str | None:
    """One line of text for a PACT event, worded for `viewer` (None: the omniscient view)."""
    match e:
        case pe.PactMessageSent():
            note = f" [cut from {e.words} words]" if e.cut else ""
            return f"Round {e.round}: {_who(e.seat, viewer)}, says: {e.text}{note}"
        case pe.PactQuotesRevealed():
            result = f"trade at {num(e.price)}" if e.price is not None else "no trade"
            return f"Round {e.round}: bid {e.bid}, ask {e.ask} -> {result}"
        case pe.PactQuoteRejected():
            return (
                f"! Round {e.round}: {_who(e.seat, viewer)}, quoted {_short(e.raw, 40)}: "
                f"{e.reason}; {e.used} counts"
            )
        case pe.PactMessageReceived():
            return f"  (as submitted by Player {e.seat}: {_short(e.raw)})"
        case pe.PactGameStarted():
            c = e.config
            agents = ", ".join(f"{ROLES[i]}={s.agent}" for i, s in enumerate(e.seats))
            return (
                f"PACT game started ({c.name}, {c.rounds} rounds, values "
                f"{c.value_low}..{c.value_high}, seed {e.seed}): {agents}"
            )
        case pe.PactValuesDrawn():
            return (
                f"Private values drawn ({e.distribution.replace('_', '-')}): "
                f"buyer value {e.value}, seller cost {e.cost}"
            )
        case pe.PactValueDealt():
            what = "value" if e.seat == BUYER else "cost"
            return f"{_who(e.seat, viewer)}, has a private {what} of {e.amount}"
        case pe.PactGameEnded():
            parts = ", ".join(
                f"{_who(i, viewer)}: {num(s)} (rank {r})"
                for i, (s, r) in enumerate(zip(e.scores, e.ranks, strict=True))
            )
            return f"Game over after {e.rounds} rounds and {e.trades} trade(s): {parts}"
        case ae.LLMCall():
            what = e.error or f"{e.finish_reason}, parsed: {e.parse_stage}"
            return (
                f"  [{e.provider}:{e.model}] Player {e.seat} {e.decision}/{e.stage} "
                f"attempt {e.attempt}: {what} ({e.input_tokens}+{e.output_tokens} tokens)"
            )
        case ae.ActionDefaulted():
            return f"! Player {e.seat}'s {e.decision} defaulted to {e.action} ({e.reason})"
        case ae.ModelDecision():
            played = f", played {e.fallback}" if e.fallback is not None else ""
            return f"  Player {e.seat}'s {e.decision}: {e.outcome} ({e.calls} call(s){played})"
        case ae.ScratchpadUpdated():
            return f"Player {e.seat} updates notes: {_short(e.notes, 100)}"
        case ae.AgentNote():
            return f"Player {e.seat} note: {_short(e.note, 100)}"
    tag = getattr(type(e), "__struct_config__", None)
    return str(tag.tag) if tag is not None else type(e).__name__


def timeline(events: Sequence[Any], seat: int | None = None) -> list[str]:
    """Every event `seat` may see (all when None), one line each."""
    out = []
    for e in events:
        aud = e.audience()
        if seat is None or aud is None or seat in aud:
            line = describe(e, seat)
            if line is not None:
                out.append(line)
    return out


# --------------------------------------------------------------------------- prompts

CHARACTERS: dict[str, str] = {
    "optimal": "Play to make your own total profit over the whole game as large as you can.",
}
"""Closing instruction of the system prompt, by character."""

TEMPLATES: dict[str, str] = {
    "message": '{"reasoning": "...", "message": "<your message>"}',
    "quote": '{"reasoning": "...", "quote": <whole number>}',
}
"""The JSON answer each decision asks for."""


def short_template(kind: str) -> str:
    """The answer template without the reasoning field (retries ask for the bare JSON)."""
    return TEMPLATES[kind].replace('"reasoning": "...", ', "")


def _first_rule(config: PactConfig) -> str:
    if config.first_speaker == "buyer":
        return "The buyer writes first in every round, then the seller."
    if config.first_speaker == "seller":
        return "The seller writes first in every round, then the buyer."
    return "The buyer writes first in odd rounds, the seller in even rounds."


def rules_text(config: PactConfig) -> str:
    """The rules of PACT as the engine implements them, for this configuration."""
    lo, hi = config.value_low, config.value_high
    qlo, qhi = config.quote_low, config.quote_high
    return "\n".join(
        [
            "PACT - RULES OF A REPEATED BARGAINING GAME",
            "",
            f"Two players bargain over one good, once per round, for {config.rounds} rounds:",
            "Player 0 is the BUYER, Player 1 is the SELLER.",
            "",
            "PRIVATE NUMBERS: before the first round the buyer receives a value (what one unit",
            "is worth to it) and the seller a cost (what one unit costs it), whole numbers",
            f"from {lo} to {hi}. Each side knows only its own number, and it stays the same",
            "for the whole game. The numbers come from a mix of random patterns: sometimes",
            "unrelated, sometimes close together. There may be no price that suits both.",
            "",
            "EACH ROUND:",
            "1. Messages: each side sends one public message, one after the other, of at most",
            f"   {config.max_words} words (longer messages are cut).",
            f"   {_first_rule(config)}",
            "2. Quotes: then both quote at the same time, sealed: the buyer a bid (the most it",
            "   will pay), the seller an ask (the least it will accept), each a whole number",
            f"   from {qlo} to {qhi}. Neither sees the other's quote before both are in.",
            "3. Clearing: if bid >= ask, one unit trades at the midpoint (bid + ask) / 2",
            "   (the price may end in .5). Buyer profit = value - price; seller profit =",
            "   price - cost. Without a trade both earn 0 in that round. A trade at a price",
            "   beyond your own number loses money.",
            "",
            "INFORMATION: you see every earlier round's messages, both quotes and the price,",
            "and the messages of the current round sent so far. You never see the other",
            "side's number; what it says about it may be true or not.",
            "",
            "SCORE: your cumulative profit over all rounds. Only your own profit counts.",
            "",
            "Answer every question with one JSON object, as the question asks.",
        ]
    )


def system_text(config: PactConfig, character: str | None = None, seat: int | None = None) -> str:
    """The standing instructions: the rules, the seat's role when known, the objective."""
    key = character or "optimal"
    if key not in CHARACTERS:
        raise KeyError(f"unknown PACT character {key!r}; known: {', '.join(sorted(CHARACTERS))}")
    parts = [rules_text(config), ""]
    if seat is not None:
        number = "value" if seat == BUYER else "cost"
        parts.append(
            f"You are Player {seat}, the {ROLES[seat].upper()}: your private number is your "
            f"{number}."
        )
    parts.append(CHARACTERS[key])
    return "\n".join(parts)


def _history(view: PactView) -> list[str]:
    """Earlier rounds as a compact table: quotes, price and this seat's profit."""
    if not view.reveals:
        return ["EARLIER ROUNDS: none yet."]
    mine = "bid" if view.seat == BUYER else "ask"
    lines = [
        "EARLIER ROUNDS:",
        "round | bid | ask | price    | your profit",
    ]
    for e, gain in zip(view.reveals, view.profits, strict=True):
        price = num(e.price) if e.price is not None else "no trade"
        row = f"{e.round:>5} | {e.bid:>3} | {e.ask:>3} | {price:<8} | {signed(gain)}"
        fix = view.corrections.get(e.round)
        if fix is not None:
            row += f"  (your {mine} {_shorten(fix.raw)} was changed to {fix.used})"
        lines.append(row)
    return lines


def _shorten(raw: str) -> str:
    return raw if len(raw) <= 24 else raw[:21] + "..."


def _messages(view: PactView) -> list[str]:
    """Every message so far, oldest first, this round's marked."""
    if not view.messages:
        return ["MESSAGES: none yet."]
    lines = ["MESSAGES (oldest first):"]
    for m in view.messages:
        who = "you" if m.seat == view.seat else ROLES[m.seat]
        cut = " [cut]" if m.cut else ""
        now = "  <- this round" if m.round == view.round else ""
        lines.append(f"  R{m.round} {who}: {m.text or '(empty)'}{cut}{now}")
    return lines


def observation_text(view: PactView) -> str:
    """The seat's position: role, private number, progress, history of prices and messages."""
    c = view.config
    assert c is not None and view.value is not None
    number = "value" if view.seat == BUYER else "cost"
    other = ROLES[view.other]
    done = len(view.reveals)
    return "\n".join(
        [
            f"=== PACT, ROUND {view.round} OF {c.rounds} "
            f"(you are Player {view.seat}, the {view.role.upper()}) ===",
            f"Your {number}: {view.value} (private: the {other} does not know it)",
            f"Your profit so far: {num(view.profit)} ({view.trades} trade(s) in {done} round(s))",
            "",
            *_history(view),
            "",
            *_messages(view),
        ]
    )


def decision_text(view: PactView, d: AnyPactDecision) -> str:
    """The question of one decision and the JSON it asks for."""
    other = ROLES[view.other]
    if isinstance(d, MessageDecision):
        order = "You write first this round." if d.first else f"The {other} has written."
        lines = [
            f"YOUR MESSAGE FOR ROUND {d.round}: write one public message to the {other}, "
            f"at most {d.max_words} words (longer messages are cut). {order} "
            "After both messages you both quote.",
        ]
        kind = "message"
    else:
        assert isinstance(d, QuoteDecision)
        if view.seat == BUYER:
            what = f"your sealed BID for round {d.round}: the most you will pay"
        else:
            what = f"your sealed ASK for round {d.round}: the least you will accept"
        lines = [
            f"YOUR QUOTE: {what}, a whole number from {d.low} to {d.high}. The {other} quotes "
            "at the same time; if bid >= ask, one unit trades at (bid + ask) / 2.",
        ]
        kind = "quote"
    return "\n".join([*lines, "", "Respond with JSON:", TEMPLATES[kind]])


ParseFn = Callable[[str, Any, int], tuple[Any, str, str | None]]
"""Reads a model's answer: (action or None, how it was read, error or None)."""
DefaultFn = Callable[[Any, int], Any]
"""The action played when no usable answer came."""


class PactPrompter:
    """How a model seat plays PACT (the `Prompter` protocol).

    The prompts are rendered here; reading answers into actions belongs to the agents layer,
    which hands its parser and default action in (`agents.pact.game`).
    """

    def __init__(self, *, parse: ParseFn | None = None, default: DefaultFn | None = None):
        self._parse = parse
        self._default = default

    def system_prompt(
        self, config: PactConfig, character: str | None = None, seat: int | None = None
    ) -> str:
        """The rules and the objective; the seat's role too when `seat` is given."""
        return system_text(config, character, seat)

    def decision_prompt(
        self, view: PactView, decision: Any, memory: str = "full", rejection: Any = None
    ) -> str:
        """Position, history and question. Every memory mode shows the whole history: in
        PACT the earlier rounds are the game itself."""
        parts = [observation_text(view), "", decision_text(view, decision)]
        if rejection is not None:
            parts[1:1] = ["", f"YOUR PREVIOUS ANSWER WAS REJECTED: {rejection.reason}."]
        return "\n".join(parts)

    def answer_schema(self, view: PactView, decision: Any) -> dict[str, Any]:
        """The JSON schema of the answer (seats with ``output=json_schema``)."""
        field: dict[str, Any] = (
            {"message": {"type": "string"}}
            if isinstance(decision, MessageDecision)
            else {"quote": {"type": "integer", "minimum": decision.low, "maximum": decision.high}}
        )
        props = {"reasoning": {"type": "string"}, **field}
        return {
            "type": "object",
            "properties": props,
            "required": list(props),
            "additionalProperties": False,
        }

    def rejection(self, view: PactView, seat: int, kind: str) -> Any:
        """Always None: PACT never asks again (a bad quote gets its fallback at once)."""
        return None

    def parse(self, text: str, decision: Any, seat: int) -> tuple[Any, str, str | None]:
        """A model's answer read into an action (by the parser the agents layer gave)."""
        if self._parse is None:
            raise RuntimeError("this PactPrompter was built without an answer parser")
        return self._parse(text, decision, seat)

    def default_action(self, decision: Any, seat: int) -> Any:
        """The documented action played when no usable answer came."""
        if self._default is None:
            raise RuntimeError("this PactPrompter was built without a default action")
        return self._default(decision, seat)

    def action_json(self, action: Any) -> str:
        """An action as JSON."""
        return action_json(action)

    def truncation_retry_prompt(self, kind: str) -> str:
        """Appended after an answer cut by the token limit."""
        return (
            "Your previous answer was cut off by the length limit. Do not explain your "
            "reasoning this time: reply with ONLY the JSON object:\n" + short_template(kind)
        )

    def format_retry_prompt(self, kind: str, error: str) -> str:
        """The follow-up after an answer that yielded no action."""
        return (
            f"Your answer could not be used: {error}.\n"
            "Reply with ONLY the JSON object, nothing else:\n" + short_template(kind)
        )

    def notes_lines(self, events: Sequence[Any], seat: int) -> list[str]:
        """PACT keeps no scratchpad: the prompt already holds the whole history."""
        return []

    def notes_prompt(self, notes: str, lines: list[str]) -> str:
        """Unused (no scratchpad)."""
        return ""

    def cap_notes(self, text: str) -> str:
        """Unused (no scratchpad): the text, stripped."""
        return text.strip()
