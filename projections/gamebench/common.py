"""What the seat views and model prompts of every GameBench game share: progressive rules,
the reasoning modes, reading an answer, the seat view's fold and the prompter's common parts.

Progressive rules: every decision prompt opens with the game's title and summary, the rules
the seat has asked for and the headings it has not asked for yet; a seat reads the rules
under a heading by answering `Explain(heading)` (the rules record the request as a
seat-private event, so a replay shows the same prompts). Reasoning modes: `prompt` names the
action at once, `cot` (and `sc-cot`, sampled several times) reasons about its best action
first (GameBench's CoT scaffold). An answer is read from its JSON `action`, its last
`Action:` line or its last line; each game reads its own actions from that text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Self

from engine.gamebench.common import Explain, raw_text
from events.gamebench.common import RuleExplainedBase
from projections import editions
from projections.answers import json_bounds_error, load_json

MODES = ("prompt", "cot", "sc-cot")
"""Reasoning modes a seat may take (`mode=` in its spec): answer at once, reason first, or
reason first in each of several samples (the harness's self-consistency)."""

INSTRUCTIONS: dict[str, str] = {
    "prompt": "Reply with exactly one line, nothing else:\nAction: <your action>",
    "cot": (
        "First think out loud, step by step, about which action gives you the best chance of"
        " winning. Then end your reply with one line:\nAction: <your action>"
    ),
}
"""How to answer, by reasoning mode (sc-cot answers as cot)."""


def mode_of(options: Any) -> str:
    """A seat's reasoning mode from its options (`prompt` unless it asks for another)."""
    mode = getattr(options, "mode", None) or "prompt"
    return mode if mode in MODES else "cot"


def instruction(mode: str) -> str:
    """The closing instruction of a decision prompt in `mode`."""
    return INSTRUCTIONS["prompt" if mode == "prompt" else "cot"]


RETRY_CUT = (
    "Your previous answer was cut off by the length limit. Do not explain this time: reply "
    "with one line, Action: <your action>"
)
"""Appended after an answer cut by the token limit."""


def retry_format(error: str) -> str:
    """The follow-up after an answer that gave no usable action."""
    return (
        f"Your answer could not be used: {error}.\n"
        "Reply with one line and nothing else: Action: <your action>"
    )


def key(text: str) -> str:
    """A label as compared: lower case, letters and digits only."""
    return re.sub(r"[^0-9a-z]", "", text.casefold())


def system_text(playing: str) -> str:
    """The standing instructions: what kind of game this is and how a turn is asked (the
    rules themselves are part of each decision's prompt)."""
    return (
        f"You are playing {playing}. Each turn you are shown the game's rules, what you can see"
        " of the game, and what you may do; you answer with one action."
    )


@dataclass(frozen=True)
class RuleBook:
    """A game's rules as shown to a model: a title, a summary and the withheld sections."""

    title: str
    summary: str
    sections: tuple[tuple[str, str], ...]
    """(heading, text) in the order they are listed."""

    @property
    def headings(self) -> tuple[str, ...]:
        """The headings a seat may ask about."""
        return tuple(h for h, _ in self.sections)

    def text(self, heading: str) -> str:
        """The rules under `heading`."""
        return dict(self.sections)[heading]


def rules_lines(book: RuleBook, explained: Sequence[str]) -> list[str]:
    """The rules part of a prompt: the summary, the rules explained so far, the headings left."""
    lines = [f"GAME: {book.title}", book.summary]
    if explained:
        lines += ["", "RULES YOU ASKED ABOUT:"]
        lines += [f"* {h}: {book.text(h)}" for h in explained]
    left = [h for h in book.headings if h not in explained]
    if left:
        lines += [
            "",
            "More rules are written under these headings; to read one instead of acting now,"
            " answer with the action Explain(<heading>), e.g. Explain(" + left[0] + "):",
            ", ".join(left),
        ]
    return lines


_ACTION_LINE = re.compile(r"^\W*action\W*[:=]\s*(.+?)\s*$", re.IGNORECASE | re.MULTILINE)
_EXPLAIN = re.compile(r"^\W*explain\s*\(\s*(.*?)\s*\)\W*$", re.IGNORECASE | re.DOTALL)


def answer_line(text: str) -> tuple[str | None, str]:
    """(the action text of an answer, how it was found): the `action` of an answer that is
    one JSON object (structured output), else its last `Action:` line, else its last
    non-empty line; None for an empty answer."""
    body = (text or "").strip()
    if body.startswith("{") and body.endswith("}"):
        try:
            data = load_json(body)
        except ValueError:
            data = None
        if isinstance(data, dict) and isinstance(data.get("action"), str):
            return _strip(data["action"]), "json"
    found = _ACTION_LINE.findall(text or "")
    if found:
        return _strip(found[-1]), "action_line"
    lines = [ln for ln in (text or "").splitlines() if ln.strip()]
    if not lines:
        return None, "failed"
    return _strip(lines[-1]), "last_line"


def _strip(text: str) -> str:
    return text.strip().strip("`*\"'").strip()


def explain_heading(action: str) -> str | None:
    """The heading an `Explain(heading)` action names (as written), or None."""
    m = _EXPLAIN.match(action.strip())
    return m.group(1).strip("\"'` ") if m else None


def read_line(text: str) -> tuple[str | Explain | None, str, str | None]:
    """(the action text, an `Explain`, or None; how it was read; error or None): the first
    step of reading any GameBench answer, the game's own reader taking the text from there."""
    body = (text or "").strip()
    why = json_bounds_error(body) if body.startswith("{") and body.endswith("}") else None
    if why is not None:
        return None, "failed", f"the answer cannot be read: {why}"
    candidate, stage = answer_line(text)
    if candidate is None:
        return None, "failed", "empty answer"
    heading = explain_heading(candidate)
    if heading is not None:
        return Explain(heading=heading), stage, None
    return candidate, stage, None


def read_answer(text: str, options: Sequence[tuple[str, Any]]) -> tuple[Any, str, str | None]:
    """(action or None, how it was read, error or None) from an answer, given the legal
    actions' (label, action) pairs: an `Explain(heading)`, or the label the answer names
    (case, spaces and punctuation aside)."""
    candidate, stage, error = read_line(text)
    if not isinstance(candidate, str):
        return candidate, stage, error
    wanted = key(candidate)
    for label, action in options:
        if key(label) == wanted:
            return action, stage, None
    return None, "failed", f"{candidate[:60]!r} is not one of the legal actions"


def answer_schema(mode: str, action: dict[str, Any]) -> dict[str, Any]:
    """The JSON schema of an answer (structured output): the action as `action` describes it,
    after a reasoning field in the modes that think first."""
    props: dict[str, Any] = {}
    if mode != "prompt":
        props["reasoning"] = {"type": "string"}
    props["action"] = action
    return {
        "type": "object",
        "properties": props,
        "required": list(props),
        "additionalProperties": False,
    }


def explain_pattern(headings: Sequence[str]) -> str:
    """A regular expression of `Explain(<heading>)` for the headings given."""
    return r"Explain\((" + "|".join(re.escape(h) for h in headings) + r")\)"


def timeline(
    describe: Callable[[Any, int | None], str | None],
    events: Sequence[Any],
    seat: int | None = None,
) -> list[str]:
    """Every event `seat` may see (all when None) that `describe` words, one line each."""
    out = []
    for e in events:
        aud = e.audience()
        if seat is None or aud is None or seat in aud:
            line = describe(e, seat)
            if line is not None:
                out.append(line)
    return out


class ViewBase:
    """What every GameBench seat view shares: the fold of exactly the events the seat may
    see (each game's `fold` takes one), the history it saw, the headings explained to it and
    whether the game is over."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.seen = 0
        self.history: list[Any] = []
        self.ended = False
        self.explained: list[str] = []
        """Headings explained to this seat, in the order it asked."""

    def sync(self, log: Sequence[Any], audiences: Sequence[Any] | None = None) -> Self:
        """Fold the visible events of `log` not seen yet."""
        for i in range(self.seen, len(log)):
            e = log[i]
            aud = audiences[i] if audiences is not None else e.audience()
            if aud is not None and self.seat not in aud:
                continue
            self.history.append(e)
            if isinstance(e, RuleExplainedBase):
                self.explained.append(e.heading)
            self.fold(e)
        self.seen = len(log)
        return self

    def fold(self, e: Any) -> None:
        """Take one visible event into the view (each game's own)."""
        raise NotImplementedError


def player_name(seat: int, first: int = 0, viewer: int | None = None) -> str:
    """A seat as the GameBench games name it in every text: `Player <seat>`, counted from 0
    as everywhere in the harness (from `first`: 1 in prompts of edition 1), with "(you)" for
    the seat that reads it (docs/gamebench.md, Seat numbers)."""
    you = " (you)" if first == 0 and viewer is not None and seat == viewer else ""
    return f"Player {seat + first}{you}"


@dataclass(frozen=True)
class PrompterBase:
    """What every GameBench prompter shares: the reasoning mode, the standing instructions,
    no second question after a refused answer, the retry texts, actions as JSON and no
    scratchpad."""

    mode: str = "prompt"
    title: str = ""
    playing: str = "a game against other players"
    """What the standing instructions call the game (its kind and opponents)."""
    edition: int = editions.CURRENT
    """The edition of the prompts (projections.editions)."""

    def for_seat(self, options: Any) -> Self:
        """The prompter of a seat with these options (its reasoning mode and edition)."""
        return replace(self, mode=mode_of(options), edition=editions.of(options))

    @property
    def first(self) -> int:
        """The number of the first seat in this edition's prompts (1 in edition 1, whose
        games named seats as GameBench does; 0 from edition 2, as the harness does)."""
        return 1 if self.edition < 2 else 0

    def system_prompt(self, config: Any, character: str | None, seat: int | None = None) -> str:
        """The standing instructions (one character only: the default, `optimal`)."""
        if character not in (None, "optimal"):
            raise KeyError(f"{self.title} has no character {character!r}; known: optimal")
        return system_text(self.playing)

    def rejection(self, view: Any, seat: int, kind: str) -> Any:
        """The rules never ask again after an unusable answer: its fallback plays."""
        return None

    def action_json(self, action: Any) -> str:
        """An action as JSON."""
        return raw_text(action)

    def truncation_retry_prompt(self, kind: str) -> str:
        """Appended after an answer cut by the token limit."""
        return RETRY_CUT

    def format_retry_prompt(self, kind: str, error: str) -> str:
        """The follow-up after an answer that gave no usable action."""
        return retry_format(error)

    def notes_lines(self, events: Sequence[Any], seat: int) -> list[str]:
        """No scratchpad: each prompt shows the whole situation."""
        return []

    def notes_prompt(self, notes: str, lines: list[str]) -> str:
        """Unused (no scratchpad)."""
        return ""

    def cap_notes(self, text: str) -> str:
        """Unused (no scratchpad)."""
        return ""


@dataclass(frozen=True)
class GameBenchPrompter(PrompterBase):
    """The prompter of a GameBench game whose decisions list their legal actions; a game's
    subclass brings its title, summary, rule sections, the text of a decision and the legal
    actions' labels."""

    book: RuleBook = RuleBook(title="", summary="", sections=())

    # hooks a game supplies --------------------------------------------------------------

    def situation(self, view: Any, decision: Any) -> str:
        """What the seat sees and what it is asked (without the legal actions)."""
        raise NotImplementedError

    def options(self, decision: Any) -> Sequence[tuple[str, Any]]:
        """The legal actions of a decision as (label, action) pairs."""
        raise NotImplementedError

    def default_action(self, decision: Any, seat: int) -> Any:
        """The action played when no usable answer came."""
        raise NotImplementedError

    # shared ----------------------------------------------------------------------------

    def decision_prompt(self, view: Any, decision: Any, memory: str, rejection: Any) -> str:
        """The rules (progressive), the situation, the legal actions and how to answer."""
        labels = [label for label, _ in self.options(decision)]
        parts = [
            "\n".join(rules_lines(self.book, view.explained)),
            self.situation(view, decision),
            "Legal actions:\n" + "\n".join(labels),
            instruction(self.mode),
        ]
        return "\n\n".join(parts)

    def answer_schema(self, view: Any, decision: Any) -> dict[str, Any]:
        """The JSON schema of an answer (seats with ``output=json_schema``): one of the legal
        actions' labels or an `Explain(heading)`, after a reasoning field in `cot` mode."""
        labels = [label for label, _ in self.options(decision)]
        labels += [f"Explain({h})" for h in self.book.headings if h not in view.explained]
        return answer_schema(self.mode, {"type": "string", "enum": labels})

    def parse(self, text: str, decision: Any, seat: int) -> tuple[Any, str, str | None]:
        """The legal action (or the `Explain`) an answer names."""
        return read_answer(text, self.options(decision))
