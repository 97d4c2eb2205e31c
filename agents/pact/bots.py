"""PACT's code agents, and the reading of a model seat's answers into PACT actions.

Each code agent is a small class: `message` says something, `quote` names a whole number;
`PactAgent.act` wraps them into actions. They read only their seat's `PactView` (their own
number, every revealed round, the messages) and keep any randomness in a generator of their
own, derived from the game seed and the seat.
"""

from __future__ import annotations

import math
import random
import re
from typing import Any, cast

from agents.base import Agent
from agents.llm.parse import extract, is_placeholder
from engine.pact.rules import (
    AnyPactAction,
    AnyPactDecision,
    MessageDecision,
    QuoteDecision,
    SendMessage,
    SubmitQuote,
)
from events.pact.game import BUYER, PactConfig
from projections.pact.view import PactView

STAGE_KEYS = (
    "action",
    "amount",
    "decision",
    "target_player",
    "target",
    "animal",
    "offer_cards",
    "counter_cards",
    "cards",
)
"""Keys looked for in an answer that holds no JSON. PACT acts on JSON answers only, but the
stage stored with each model call (key_value or failed) has been decided by these keys since
the first PACT games, so stored games read back the same."""


class PactAgent(Agent):
    """Base of PACT's code agents: dispatches a decision to `message` or `quote`."""

    spec = "pact"

    def __init__(self, seat: int, seed: int, config: PactConfig) -> None:
        super().__init__(seat, seed, cast(Any, config))
        self.pact = config
        self.buyer = seat == BUYER
        self.span = config.value_high - config.value_low

    def act(self, view: Any, decision: Any) -> Any:
        """Answer a message or a quote decision from this seat's view."""
        if isinstance(decision, MessageDecision):
            return SendMessage(seat=self.seat, text=self.message(view, decision))
        assert isinstance(decision, QuoteDecision)
        return SubmitQuote(seat=self.seat, price=self.quote(view, decision))

    def message(self, view: PactView, d: MessageDecision) -> str:
        """The public message of this round."""
        raise NotImplementedError

    def quote(self, view: PactView, d: QuoteDecision) -> int:
        """The sealed quote of this round (a bid for the buyer, an ask for the seller)."""
        raise NotImplementedError

    # ---- helpers ---------------------------------------------------------------------------

    def own(self, view: PactView) -> int:
        """This seat's private number (value or cost)."""
        assert view.value is not None
        return view.value

    def shaded(self, view: PactView, margin: float) -> int:
        """The quote `margin` value units on the safe side of its own number (below the value
        for a buyer, above the cost for a seller), whole and inside the quote range."""
        # Rounded first, so that float noise (2.0000000000000018) cannot tip floor or ceil.
        target = round(self.own(view) + (-margin if self.buyer else margin), 6)
        q = math.floor(target) if self.buyer else math.ceil(target)
        return max(self.pact.quote_low, min(self.pact.quote_high, q))

    def my_quotes(self, view: PactView) -> list[int]:
        """This seat's quotes in the finished rounds (as they counted)."""
        return [e.bid if self.buyer else e.ask for e in view.reveals]

    def their_quotes(self, view: PactView) -> list[int]:
        """The other side's quotes in the finished rounds."""
        return [e.ask if self.buyer else e.bid for e in view.reveals]

    @property
    def verb(self) -> str:
        """What its quote does: bid or ask."""
        return "bid" if self.buyer else "ask"


class TruthfulAgent(PactAgent):
    """Quotes its own number every round, and says so."""

    spec = "truthful"

    def message(self, view: PactView, d: MessageDecision) -> str:
        number = "value" if self.buyer else "cost"
        return f"My {number} is {self.own(view)}. I {self.verb} exactly that every round."

    def quote(self, view: PactView, d: QuoteDecision) -> int:
        return self.own(view)


class AnchorAgent(PactAgent):
    """Anchors far from its own number, then concedes toward it on a fixed schedule.

    It opens `OPENING` of the value range away from its number (below its value as buyer,
    above its cost as seller) and closes the gap evenly until `FLOOR` remains, reached in
    round `CONCEDE_ROUNDS`. After a round that traded it holds its quote instead of conceding.
    """

    spec = "anchor"
    OPENING = 0.40
    """Opening distance from its own number, as a share of the value range."""
    FLOOR = 0.02
    """The closest it comes to its own number, as a share of the value range."""
    CONCEDE_ROUNDS = 12
    """The round by which it has conceded down to the floor."""

    def target(self, round: int) -> float:
        """Its distance from its own number in `round`, on the schedule."""
        progress = min(1.0, (round - 1) / max(1, self.CONCEDE_ROUNDS - 1))
        return self.span * (self.OPENING - (self.OPENING - self.FLOOR) * progress)

    def quote(self, view: PactView, d: QuoteDecision) -> int:
        if view.reveals and view.reveals[-1].traded:
            return self.my_quotes(view)[-1]
        return self.shaded(view, self.target(d.round))

    def message(self, view: PactView, d: MessageDecision) -> str:
        if view.reveals and view.reveals[-1].traded:
            return f"That worked. I {self.verb} the same again: {self.my_quotes(view)[-1]}."
        q = self.shaded(view, self.target(d.round))
        if self.buyer:
            return f"I can pay {q} this round, not more."
        return f"I need at least {q} this round."


class MirrorAgent(PactAgent):
    """Reciprocates: each round it concedes as much as the other side conceded last round.

    It opens `OPENING` of the value range away from its number, offers one small step
    (`STEP`) in round 2 to start the exchange, then copies the other side's last move: a
    concession is matched, a retreat answered with an equal retreat (never past the opening,
    never past its own number). After a round that traded it holds its quote.
    """

    spec = "mirror"
    OPENING = 0.25
    """Opening distance from its own number, as a share of the value range."""
    STEP = 0.03
    """The first concession (round 2), as a share of the value range."""

    def move(self, view: PactView) -> float:
        """How far the other side moved its quote toward this seat in the last round."""
        theirs = self.their_quotes(view)
        if len(theirs) < 2:
            return self.STEP * self.span
        change = theirs[-1] - theirs[-2]
        return -change if self.buyer else change

    def quote(self, view: PactView, d: QuoteDecision) -> int:
        mine = self.my_quotes(view)
        if not mine:
            return self.shaded(view, self.OPENING * self.span)
        if view.reveals[-1].traded:
            return mine[-1]
        step = self.move(view)
        q = mine[-1] + step if self.buyer else mine[-1] - step
        # Stay between the opening and its own number.
        near, far = self.own(view), self.shaded(view, self.OPENING * self.span)
        low, high = (far, near) if self.buyer else (near, far)
        return round(max(low, min(high, q)))

    def message(self, view: PactView, d: MessageDecision) -> str:
        if not view.reveals:
            return "I match every step you take toward me, and every step away."
        if view.reveals[-1].traded:
            return f"We have a deal. I keep my {self.verb} at {self.my_quotes(view)[-1]}."
        if len(view.reveals) < 2:
            return "I move first this round. Match my step and we meet in the middle."
        move = round(self.move(view))
        if move > 0:
            return f"You moved {move} my way; I move up to {move} yours."
        if move < 0:
            return f"You moved {-move} away; so do I."
        return "You held still, so I hold too."


class RandomAgent(PactAgent):
    """Quotes a uniformly random whole number of the quote range and says a random line."""

    spec = "random"
    LINES = (
        "Let us make a deal.",
        "That is too far from what I had in mind.",
        "I could move a little.",
        "Take it or leave it.",
        "Meet me halfway?",
        "",
    )
    """What it may say."""

    def __init__(self, seat: int, seed: int, config: PactConfig) -> None:
        super().__init__(seat, seed, config)
        self.rng = random.Random(f"{seed}:{seat}:pact:random")

    def message(self, view: PactView, d: MessageDecision) -> str:
        return self.rng.choice(self.LINES)

    def quote(self, view: PactView, d: QuoteDecision) -> int:
        return self.rng.randint(d.low, d.high)


CODE_AGENTS: dict[str, type[PactAgent]] = {
    cls.spec: cls for cls in (TruthfulAgent, AnchorAgent, MirrorAgent, RandomAgent)
}
"""PACT's code agents by name."""


# --------------------------------------------------------------------------- model answers

MESSAGE_KEYS = ("message", "text", "msg", "say", "chat")
"""Keys a message may come under (first found wins)."""
QUOTE_KEYS = ("quote", "bid", "ask", "price", "amount", "offer")
"""Keys a quote may come under (first found wins)."""

_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:,\d{3})*(?:\.\d+)?(?:[eE][+-]?\d+)?")
"""A number as written: its minus sign only where no word or digit comes just before (the
hyphen of `30-40` is no minus), digit groups (`1,000`) and an exponent kept in the token so
that `_as_number` refuses them whole rather than read a part of them."""
_ECHOES = re.compile(
    r"<[^<>]{0,80}>"  # a template placeholder
    r"|\bplayer\s*\d+"  # a seat's name, as the prompt writes it
    r"|\bround\s*(?:of\s*)?\d+(?:\s*of\s*\d+)?|\bR\d+\b"  # a round's number
    r"|\(\s*bid\s*\+\s*ask\s*\)\s*/\s*2"  # the price rule
    r"|\bwhole\s+number\s+from\s+-?\d+\s+to\s+-?\d+",  # the quote's range
    re.IGNORECASE,
)
"""Prompt text an answer may repeat whose numbers are not a quote: a number is read from
prose (the lenient `number` stage) only outside these."""
_BARE = re.compile(r"\s*-?\d+(?:\.\d+)?\s*")
"""A JSON string that holds a number and nothing else (`"50"`): read as strictly as a number."""
_HUGE = 10**18
"""Numbers with more digits than this are read as this (the rules clamp them anyway)."""


def _pick(data: dict[str, Any], keys: tuple[str, ...]) -> Any:
    lowered = {str(k).strip().lower(): v for k, v in data.items()}
    for k in keys:
        if lowered.get(k) is not None:
            return lowered[k]
    return None


def _as_number(token: str) -> int | float | None:
    """A matched number token as an int (when whole) or a float; None for a number with an
    exponent (`1e2`) or digit groups (`1,000`): the prompt asks for a whole number written
    out in digits."""
    if "e" in token or "E" in token or "," in token:
        return None
    digits = token.lstrip("-").split(".")[0]
    if len(digits) > 18:
        return -_HUGE if token.startswith("-") else _HUGE
    if "." in token:
        x = float(token)
        return int(x) if x.is_integer() else x
    return int(token)


def _number(value: Any) -> int | float | None:
    """A quote from a JSON value: a number, or the first number written in a string."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            return None
        return int(value) if value.is_integer() else value
    if isinstance(value, str):
        m = _NUMBER.search(_ECHOES.sub(" ", value))
        return _as_number(m.group()) if m else None
    return None


def _plain(text: str) -> str:
    """An answer given as plain text, without code fences or wrapping quotes."""
    t = text.strip()
    if t.startswith("```"):
        t = t.split("\n", 1)[1] if "\n" in t else ""
        t = t.rsplit("```", 1)[0]
    t = t.strip()
    if len(t) >= 2 and t[0] == t[-1] and t[0] in "\"'":
        t = t[1:-1].strip()
    return t


def parse_answer(
    text: str, decision: AnyPactDecision, seat: int
) -> tuple[AnyPactAction | None, str, str | None]:
    """(action or None, how it was read, error) for a model's answer.

    A JSON object comes first (the whole answer, or the last object in it). Without one, a
    message is the answer's plain text and a quote the last number written in it. A quote
    read out of words inside a JSON string is a prose reading too (stage `number`).
    """
    data, stage = extract(text, STAGE_KEYS)
    found = data is not None and stage in ("json", "last_object")
    if isinstance(decision, MessageDecision):
        if found:
            assert data is not None
            value = _pick(data, MESSAGE_KEYS)
            if value is None:
                return None, stage, '"message" is missing'
            if isinstance(value, str) and is_placeholder(value):
                return None, stage, f'"message" repeats the template ({value[:40]!r})'
            return (
                SendMessage(seat=seat, text=value if isinstance(value, str) else str(value)),
                stage,
                None,
            )
        plain = _plain(text)
        if not plain:
            return None, "failed", "the answer is empty"
        if is_placeholder(plain):
            return None, "failed", f"the answer repeats the template ({plain[:40]!r})"
        return SendMessage(seat=seat, text=plain), "text", None
    if found:
        assert data is not None
        value = _pick(data, QUOTE_KEYS)
        if value is None:
            return None, stage, '"quote" is missing'
        n = _number(value)
        if n is None:
            return (
                None,
                stage,
                f'"quote" must be a number written out in digits, got {value!r}'[:120],
            )
        if isinstance(value, str) and not _BARE.fullmatch(value):
            # A number picked out of words inside the string is a prose reading, not the
            # number the answer's form asked for.
            return SubmitQuote(seat=seat, price=n), "number", None
        return SubmitQuote(seat=seat, price=n), stage, None
    numbers = _NUMBER.findall(_ECHOES.sub(" ", text))
    if not numbers:
        return None, "failed", "no number found in the answer (outside the prompt's own words)"
    last = _as_number(numbers[-1])
    if last is None:
        return None, "failed", f"{numbers[-1][:30]!r} is not a whole number written out"
    return SubmitQuote(seat=seat, price=last), "number", None


def default_action(decision: AnyPactDecision, seat: int) -> AnyPactAction:
    """The documented default when no usable answer came: say nothing, or quote cautiously
    (the buyer bids the lowest quote, the seller asks the highest: no trade at a loss)."""
    if isinstance(decision, MessageDecision):
        return SendMessage(seat=seat, text="")
    return SubmitQuote(seat=seat, price=decision.low if seat == BUYER else decision.high)
