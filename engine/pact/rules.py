"""The rules of PACT as a decider: `start`, `pending`, `step`, `evolve` over a small state.

A game is `rounds` rounds between a buyer (seat 0) and a seller (seat 1). In each round both
send one public message, one after the other, then both quote at once: a bid and an ask,
sealed until both are in. When the bid reaches the ask, one unit trades at the midpoint; the
buyer earns value - price, the seller price - cost. The private values are drawn once per game
from the seed alone, so a game replayed with the seats swapped deals the same numbers.

Bad input never raises: a message is always accepted (cleaned, and cut when too long; the text
as submitted is kept in an engine-only event), and a quote that is not a whole number inside
the quote range becomes a `PactQuoteRejected` event naming the quote used instead. Only an
action that answers no pending decision (wrong seat, wrong kind) raises `IllegalAction`: that
is a bug in the caller, not a move.
"""

from __future__ import annotations

import json
import math
import random
import re
from collections.abc import Sequence
from functools import reduce
from typing import Any, Literal, assert_never

import msgspec
from msgspec.structs import replace

from engine.chat import one_line
from events import agent as ae
from events.config import SeatSpec
from events.pact import game as pe
from events.pact.game import BUYER, DISTRIBUTIONS, ROLES, SELLER, PactConfig, ValueMix

ENGINE_VERSION = "1.1.0"
"""Stored with every game; bump when a rule change alters logs. 1.1.0: a message loses every
character that is not printable (a bidirectional override, a zero-width mark), as chat does
in every game (`engine.chat`); 1.0.0 replaced control characters only."""
VERSIONS = ("1.0.0", ENGINE_VERSION)
"""Every rules version these rules replay (a log names the one it was played by)."""


class IllegalAction(ValueError):
    """An action that answers no pending decision (wrong seat, kind or timing)."""


# --------------------------------------------------------------------------- decisions


class PactDecision(msgspec.Struct, frozen=True, kw_only=True, tag_field="kind"):
    """Base of PACT's pending decisions; `seats` are the seats asked."""

    seats: tuple[int, ...]
    round: int
    rounds: int

    @property
    def kind(self) -> str:
        """The decision's tag: "message" or "quote"."""
        return str(type(self).__struct_config__.tag)


class MessageDecision(PactDecision, frozen=True, kw_only=True, tag="message"):
    """One seat writes its public message of the round."""

    max_words: int
    first: bool
    """True when this seat speaks first in the round."""


class QuoteDecision(PactDecision, frozen=True, kw_only=True, tag="quote"):
    """Both seats quote at once (seat 0 a bid, seat 1 an ask), whole numbers in low..high."""

    low: int
    high: int


AnyPactDecision = MessageDecision | QuoteDecision
"""Every PACT decision."""


# --------------------------------------------------------------------------- actions


class PactAction(msgspec.Struct, frozen=True, kw_only=True, tag_field="kind"):
    """Base of PACT's actions; `seat` is the seat that acts."""

    seat: int

    @property
    def kind(self) -> str:
        """The action's tag."""
        return str(type(self).__struct_config__.tag)


class SendMessage(PactAction, frozen=True, kw_only=True, tag="message"):
    """Say this to the other side (public; cut to the word limit)."""

    text: str


class SubmitQuote(PactAction, frozen=True, kw_only=True, tag="quote"):
    """Quote this price: the buyer's bid (the most it pays) or the seller's ask (the least it
    takes). A whole number within the quote range."""

    price: int | float


AnyPactAction = SendMessage | SubmitQuote
"""Every PACT action."""

_ACTION_ENCODER = msgspec.json.Encoder(order="deterministic")
_ACTION_DECODER: msgspec.json.Decoder[AnyPactAction] = msgspec.json.Decoder(AnyPactAction)


def action_json(action: Any) -> str:
    """An action as compact, deterministic JSON text."""
    return _ACTION_ENCODER.encode(action).decode()


def action_from_json(text: str | bytes) -> AnyPactAction:
    """Decode an action written by `action_json`."""
    return _ACTION_DECODER.decode(text)


# --------------------------------------------------------------------------- state

Phase = Literal["new", "setup", "message", "quote", "over", "ended"]


class PactState(msgspec.Struct, frozen=True, kw_only=True):
    """Everything the rules need, folded from the events (the private values included)."""

    config: PactConfig
    seed: int = 0
    seats: tuple[SeatSpec, ...] = ()
    distribution: str = ""
    value: int = 0
    """The buyer's value."""
    cost: int = 0
    """The seller's cost."""
    round: int = 0
    """The round in progress (1-based); 0 before the values are drawn."""
    spoken: int = 0
    """Messages sent in the round in progress."""
    phase: Phase = "new"
    profits: tuple[float, float] = (0.0, 0.0)
    """Cumulative profit of the buyer and of the seller."""
    trades: int = 0

    def speaker(self) -> int:
        """The seat whose message is due (in the message phase)."""
        first = self.config.first(self.round)
        return first if self.spoken == 0 else 1 - first


# --------------------------------------------------------------------------- chance


def _normal(rng: random.Random) -> float:
    """A standard normal, approximated by the Irwin-Hall sum of twelve uniforms.

    It uses additions only, which IEEE arithmetic rounds the same on every platform (unlike
    the logarithms and cosines behind `random.gauss`), so a seed draws the same values
    everywhere. Its tails stop at 6 standard deviations, far beyond any value range here.
    """
    r = rng.random
    return (r() + r() + r() + r() + r() + r() + r() + r() + r() + r() + r() + r()) - 6.0


def _student2(rng: random.Random) -> float:
    """A Student t with 2 degrees of freedom: a normal over the root mean square of two more
    (only +, *, / and sqrt, all exactly rounded)."""
    z = _normal(rng)
    a, b = _normal(rng), _normal(rng)
    return z / math.sqrt(max((a * a + b * b) / 2.0, 1e-12))


def _scale(x: float, low: int, high: int) -> int:
    """A position in [0, 1] (clipped when outside) as a whole value of low..high."""
    x = min(1.0, max(0.0, x))
    return low + math.floor(x * (high - low) + 0.5)


def _sample(kind: int, rng: random.Random, m: ValueMix) -> tuple[float, float]:
    """(buyer, seller) positions in the value range from mixture component `kind`."""
    if kind == 1:  # correlated: both near one shared centre
        centre = m.centre_low + (m.centre_high - m.centre_low) * rng.random()
        return (
            centre + m.correlated_spread * _normal(rng),
            centre + m.correlated_spread * _normal(rng),
        )
    if kind == 2:  # semi-bimodal: each side from one of two overlapping humps
        out = []
        for _ in range(2):
            mode = m.modes[0] if rng.random() < 0.5 else m.modes[1]
            out.append(mode + m.mode_spread * _normal(rng))
        return out[0], out[1]
    if kind == 3:  # heavy-tailed: near the middle, with rare extremes
        return 0.5 + m.tail_scale * _student2(rng), 0.5 + m.tail_scale * _student2(rng)
    raise AssertionError(f"no sampler for component {kind}")


def _added(weights: tuple[float, ...]) -> float:
    """The weights added left to right, as Python 3.11's `sum` does. From 3.12 `sum`
    compensates float rounding, which can move the total by an ulp and so, rarely, the value
    drawn: the same seed must deal the same game on every Python."""
    total = 0.0
    for w in weights:
        total += w
    return total


def draw_values(config: PactConfig, seed: int) -> tuple[str, int, int]:
    """(mixture component, buyer value, seller cost), from the game seed alone.

    The generator is derived from the seed and a label (no seat), so swapping who sits where
    deals the same values to the same roles.
    """
    rng = random.Random(f"{seed}:pact:values")
    weights = config.values.weights()
    total = _added(weights)
    if not math.isfinite(total):
        # Each weight is finite, but their sum overflows: the same mix, scaled down. (Sums
        # that do not overflow are used as they are, so stored games draw what they drew.)
        top = max(weights)
        weights = (weights[0] / top, weights[1] / top, weights[2] / top, weights[3] / top)
        total = _added(weights)
    u = rng.random() * total
    kind = max(i for i, w in enumerate(weights) if w > 0)
    acc = 0.0
    for i, w in enumerate(weights):
        acc += w
        if w > 0 and u < acc:
            kind = i
            break
    low, high = config.value_low, config.value_high
    if kind == 0:  # uniform: independent whole values over the range
        return DISTRIBUTIONS[0], rng.randint(low, high), rng.randint(low, high)
    x, y = _sample(kind, rng, config.values)
    return DISTRIBUTIONS[kind], _scale(x, low, high), _scale(y, low, high)


# --------------------------------------------------------------------------- input checks

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def clean_message(
    text: str, max_words: int, max_chars: int, version: str = ENGINE_VERSION
) -> tuple[str, int, bool]:
    """(text as shown, words submitted, cut?) for a submitted message.

    A character that is not printable becomes a space (under rules 1.0.0: a control
    character) and runs of whitespace one space, so a message is one line of plain text;
    then it is cut to `max_words` words and `max_chars` characters.
    """
    if version == "1.0.0":
        # Printable text holds no control characters: skip the substitution.
        words = (text if text.isprintable() else _CONTROL.sub(" ", text)).split()
    else:
        words = one_line(text).split()
    n = len(words)
    cut = n > max_words
    shown = " ".join(words[:max_words] if cut else words)
    if len(shown) > max_chars:
        shown = shown[:max_chars].rstrip()
        cut = True
    return shown, n, cut


def message_text(value: Any) -> str:
    """Submitted message content as text that can be stored: non-text is written out with
    `str`, and lone surrogates (unencodable) become '?'."""
    text = value if isinstance(value, str) else str(value)
    if text.isascii():
        return text
    return text.encode("utf-8", "replace").decode("utf-8")


def quote_raw(value: Any) -> str:
    """A submitted quote written out exactly (`quote_from_raw` reads it back).

    Integers and floats as Python writes them ('nan' and 'inf' included), anything else as
    JSON (other objects as the JSON string of their repr).
    """
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value)
    return json.dumps(repr(value))


def quote_from_raw(text: str) -> Any:
    """The quote value written by `quote_raw`."""
    if text[:1] not in ('"', "t", "f", "n"):
        try:
            return int(text)
        except ValueError:
            pass
    try:
        return float(text)
    except ValueError:
        return json.loads(text)


def read_quote(value: Any, seat: int, low: int, high: int) -> tuple[int, str | None]:
    """(quote used, why the quote as given could not stand, or None).

    The fallbacks lean toward the seat's own safety: a quote that is not a number becomes the
    cautious quote (the buyer bids `low`, the seller asks `high`: neither can then trade at a
    loss), a fraction is rounded down for a bid and up for an ask, and a number outside the
    range is clamped into it.
    """
    if isinstance(value, int) and not isinstance(value, bool):
        if low <= value <= high:
            return value, None
        q = value
        reasons: list[str] = []
    elif isinstance(value, float) and math.isfinite(value):
        if value.is_integer():
            q = int(value)
            reasons = []
        else:
            q = math.floor(value) if seat == BUYER else math.ceil(value)
            how = "down" if seat == BUYER else "up"
            reasons = [f"not a whole number: rounded {how} to {q}"]
    else:
        cautious = low if seat == BUYER else high
        return cautious, f"not a number: the cautious quote {cautious} is used"
    if q < low:
        q = low
        reasons.append(f"below the lowest quote: raised to {low}")
    elif q > high:
        q = high
        reasons.append(f"above the highest quote: lowered to {high}")
    return q, "; ".join(reasons) or None


def midpoint(bid: int, ask: int) -> float:
    """The trade price of crossed quotes: halfway between bid and ask (a whole or half unit)."""
    return (bid + ask) / 2


def ranks_of(scores: Sequence[float]) -> tuple[int, ...]:
    """Competition ranks (1 = best; equal scores share a rank)."""
    return tuple(1 + sum(o > x for o in scores) for x in scores)


# --------------------------------------------------------------------------- the decider

_ROUND_EVENTS = (
    pe.PactMessageSent,
    pe.PactMessageReceived,
    pe.PactQuoteRejected,
    pe.PactQuotesRevealed,
)


class PactRules:
    """The rules of PACT (the `events.catalog.Rules` protocol); `version` picks the rules the
    games are recorded by (the current ones, or an earlier one of `VERSIONS` to replay its
    games)."""

    def __init__(self, version: str = ENGINE_VERSION) -> None:
        if version not in VERSIONS:
            raise ValueError(f"no PACT rules {version!r} (known: {', '.join(VERSIONS)})")
        self.version = version

    def for_version(self, version: str) -> PactRules | None:
        """The rules that recorded games stamped with `version` (None: no such rules)."""
        if version == self.version:
            return self
        return PactRules(version) if version in VERSIONS else None

    @staticmethod
    def max_decisions(config: PactConfig) -> int:
        """The hard bound on decisions per game: every round asks exactly three (the two
        messages and one sealed round of quotes), and every answer moves the game on."""
        return 3 * config.rounds

    # ---- set-up ----------------------------------------------------------------------------

    def initial_state(self, config: PactConfig) -> PactState:
        """The state before the first event of a game with this configuration."""
        return PactState(config=config.validate())

    def start(
        self, config: PactConfig, seed: int, seats: Sequence[SeatSpec]
    ) -> tuple[PactState, list[Any]]:
        """Validate the set-up, draw the private values and deal them; the first round waits."""
        config.validate()
        if len(seats) != 2:
            raise IllegalAction(f"PACT seats 2 players (buyer, seller), got {len(seats)}")
        distribution, value, cost = draw_values(config, seed)
        events: list[Any] = [
            pe.PactGameStarted(
                seed=seed, config=config, seats=tuple(seats), engine_version=self.version
            ),
            pe.PactValuesDrawn(distribution=distribution, value=value, cost=cost),
            pe.PactValueDealt(seat=BUYER, role="buyer", amount=value),
            pe.PactValueDealt(seat=SELLER, role="seller", amount=cost),
        ]
        state = reduce(self.evolve, events, PactState(config=config))
        return state, events

    # ---- what is asked ---------------------------------------------------------------------

    def pending(self, state: PactState) -> AnyPactDecision | None:
        """The decision the game waits for, or None when it is over (or not started)."""
        phase = state.phase
        c = state.config
        if phase == "message":
            return MessageDecision(
                seats=(state.speaker(),),
                round=state.round,
                rounds=c.rounds,
                max_words=c.max_words,
                first=state.spoken == 0,
            )
        if phase == "quote":
            return QuoteDecision(
                seats=(BUYER, SELLER),
                round=state.round,
                rounds=c.rounds,
                low=c.quote_low,
                high=c.quote_high,
            )
        return None

    def active(self, state: PactState) -> int | None:
        """PACT has no turns that belong to one seat."""
        return None

    def turn_of(self, event: Any, turn: int) -> int:
        """The store's turn column: the round an event belongs to (0 during set-up)."""
        if isinstance(event, _ROUND_EVENTS):
            return event.round
        return turn

    # ---- actions ---------------------------------------------------------------------------

    def step(
        self, state: PactState, decision: Any, actions: Sequence[Any]
    ) -> tuple[PactState, list[Any]]:
        """Apply the actions answering the pending decision: the state after and the events."""
        phase = state.phase
        if phase == "message":
            seat = state.speaker()
            if len(actions) != 1:
                raise IllegalAction(f"a message comes from seat {seat} alone, got {len(actions)}")
            a = actions[0]
            if not isinstance(a, SendMessage) or a.seat != seat:
                raise IllegalAction(f"expected a message from seat {seat}, got {a!r}")
            events = self._message(state, seat, a.text)
        elif phase == "quote":
            if len(actions) != 2:
                raise IllegalAction(f"a quote round needs two quotes, got {len(actions)}")
            for seat, a in enumerate(actions):
                if not isinstance(a, SubmitQuote) or a.seat != seat:
                    raise IllegalAction(f"expected a quote from seat {seat}, got {a!r}")
            events = self._quotes(state, actions[0].price, actions[1].price)
        else:
            raise IllegalAction(f"the game is not waiting for a decision (phase {phase})")
        evolve = self.evolve
        for e in events:
            state = evolve(state, e)
        if state.phase == "over":
            b, s = state.profits
            end = pe.PactGameEnded(
                reason="complete",
                rounds=state.config.rounds,
                trades=state.trades,
                scores=(b, s),
                ranks=ranks_of((b, s)),
            )
            events.append(end)
            state = evolve(state, end)
        return state, events

    def _message(self, s: PactState, seat: int, value: Any) -> list[Any]:
        c = s.config
        raw = message_text(value)
        text, words, cut = clean_message(raw, c.max_words, c.max_chars, self.version)
        sent = pe.PactMessageSent(round=s.round, seat=seat, text=text, words=words, cut=cut)
        if text == raw:
            return [sent]
        return [pe.PactMessageReceived(round=s.round, seat=seat, raw=raw), sent]

    def _quotes(self, s: PactState, bid_in: Any, ask_in: Any) -> list[Any]:
        c = s.config
        events: list[Any] = []
        bid, why = read_quote(bid_in, BUYER, c.quote_low, c.quote_high)
        if why is not None:
            events.append(
                pe.PactQuoteRejected(
                    round=s.round, seat=BUYER, raw=quote_raw(bid_in), reason=why, used=bid
                )
            )
        ask, why = read_quote(ask_in, SELLER, c.quote_low, c.quote_high)
        if why is not None:
            events.append(
                pe.PactQuoteRejected(
                    round=s.round, seat=SELLER, raw=quote_raw(ask_in), reason=why, used=ask
                )
            )
        traded = bid >= ask
        events.append(
            pe.PactQuotesRevealed(
                round=s.round,
                bid=bid,
                ask=ask,
                traded=traded,
                price=midpoint(bid, ask) if traded else None,
            )
        )
        return events

    # ---- the fold --------------------------------------------------------------------------

    def evolve(self, s: PactState, e: pe.PactEvent | ae.AgentEvent) -> PactState:
        """Apply one event to the state. Pure; trusts that the rules produced the event."""
        # Cases run in order of frequency.
        match e:
            case pe.PactMessageSent():
                if s.spoken == 1:
                    return replace(s, spoken=2, phase="quote")
                return replace(s, spoken=s.spoken + 1)
            case pe.PactQuotesRevealed():
                profits = s.profits
                trades = s.trades
                if e.traded:
                    assert e.price is not None
                    profits = (profits[0] + s.value - e.price, profits[1] + e.price - s.cost)
                    trades += 1
                if s.round >= s.config.rounds:
                    return replace(s, profits=profits, trades=trades, phase="over")
                return replace(
                    s, profits=profits, trades=trades, round=s.round + 1, spoken=0, phase="message"
                )
            case pe.PactMessageReceived() | pe.PactQuoteRejected() | pe.PactValueDealt():
                return s
            case pe.PactGameStarted():
                return replace(s, config=e.config, seed=e.seed, seats=e.seats, phase="setup")
            case pe.PactValuesDrawn():
                return replace(
                    s,
                    distribution=e.distribution,
                    value=e.value,
                    cost=e.cost,
                    round=1,
                    spoken=0,
                    phase="message",
                )
            case pe.PactGameEnded():
                return replace(s, phase="ended")
            case (
                ae.LLMCall()
                | ae.ActionDefaulted()
                | ae.ScratchpadUpdated()
                | ae.AgentNote()
                | ae.ModelDecision()
                | ae.HumanAnswer()
                | ae.SeatAbandoned()
            ):
                # Agent-side facts (model exchanges, notes) lie outside the rules.
                return s
            case _:
                assert_never(e)

    def fold(self, events: Sequence[Any]) -> PactState:
        """The state after a whole log or a prefix of one (the first event starts the game)."""
        if not events or not isinstance(events[0], pe.PactGameStarted):
            raise ValueError("a PACT log starts with its game_started event")
        return reduce(self.evolve, events, PactState(config=events[0].config))

    # ---- replays ---------------------------------------------------------------------------

    def recorded_action(
        self, log: Sequence[Any], pos: int, seat: int, decision: Any
    ) -> AnyPactAction:
        """The action `seat` took for `decision`, read from `log[pos:]`: the submitted text or
        quote exactly (a cut message or a rejected quote comes back as it was given)."""
        rnd = decision.round
        if isinstance(decision, MessageDecision):
            for i in range(pos, len(log)):
                e = log[i]
                if isinstance(e, pe.PactMessageReceived) and e.seat == seat and e.round == rnd:
                    return SendMessage(seat=seat, text=e.raw)
                if isinstance(e, pe.PactMessageSent) and e.seat == seat and e.round == rnd:
                    return SendMessage(seat=seat, text=e.text)
        elif isinstance(decision, QuoteDecision):
            for i in range(pos, len(log)):
                e = log[i]
                if isinstance(e, pe.PactQuoteRejected) and e.seat == seat and e.round == rnd:
                    return SubmitQuote(seat=seat, price=quote_from_raw(e.raw))
                if isinstance(e, pe.PactQuotesRevealed) and e.round == rnd:
                    return SubmitQuote(seat=seat, price=e.bid if seat == BUYER else e.ask)
        raise LookupError(f"no action of seat {seat} for {decision!r} after event {pos}")


RULES = PactRules()
"""The rules object a game definition names."""


def role_of(seat: int) -> str:
    """The role of a seat: buyer (seat 0) or seller (seat 1)."""
    return ROLES[seat]
