"""The human seat: show the seat's view, read a line, parse it like a model's answer.

Per decision:

* the seat's view is drawn in a panel as wide as the terminal (`agents.human.board`: Cattle
  Trade's hand, deal and other players; another game's question without the lines on a
  model's answer format), the game's rules (its system prompt) once at the first decision;
  `?` shows the whole text a model seat would be sent (the prompter's `decision_prompt`, from
  this seat's view only), and is no answer;
* when the decision's answer schema lists the choices (an ``enum``), they are numbered;
* a line that picks a choice but leaves out a field the answer needs (``1`` for a bid) is
  followed by a question for that field (``amount?``), whose answer completes the line;
* a line is read: a number picks that choice, anything else is read by the prompter's own
  parser, first as typed, then as the answer object the schema describes, filled from the
  words of the line in the order of the schema's fields (``bid 30``, ``1 cow 10 10``);
* a line that yields no action is refused with the parser's reason and the seat asks again,
  until the decision's time limit runs out: then the seat plays the prompter's default action
  (recorded as `ActionDefaulted`, exactly like a model seat whose answers failed);
* end of input or Ctrl-C records `SeatAbandoned`, and the seat plays the default action at
  every decision left (see docs/humans.md for why).

Every typed line is recorded as a `HumanAnswer` event with its time; the rules never see it.
"""

from __future__ import annotations

import asyncio
import json
import queue
import re
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import IO, Any, NamedTuple, Protocol

from rich.console import Console
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from agents.base import Agent
from agents.human.board import board, question_of
from events import catalog
from events.agent import ActionDefaulted, HumanAnswer, SeatAbandoned
from events.config import ConfigError, SeatSpec

DEFAULT_TIMEOUT = 300.0
"""Seconds a person has for one decision (refused lines included) before the seat plays its
default action. Five minutes: enough to read a full Cattle Trade prompt and count cards, yet
a seat left alone does not hold a game (or a tournament) for long."""
VIAS = ("terminal", "web")
"""Where a person plays: this process's terminal, or the browser (`cattle serve`)."""
MAX_TIMEOUT = 86_400.0
"""The longest time limit accepted (one day)."""
POLL = 0.05
"""Seconds between looks at the input queue while waiting for a line."""
MAX_LINE = 4_096
"""The longest line read as an answer, in characters (a terminal's own line buffer holds
4,096 bytes); a longer line is refused unread, and only its first `MAX_LINE` characters and
its length are kept."""
SHOWN = 80
"""Characters of a person's own text echoed back in a refusal or a played move."""


@dataclass(frozen=True)
class CutLine:
    """A line longer than `MAX_LINE`: its first characters and its whole length."""

    head: str
    length: int


def excerpt(text: str, limit: int = SHOWN) -> str:
    """`text` cut to `limit` characters, an ellipsis marking the cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


class HumanSpecError(ConfigError):
    """A human seat spec that cannot be read."""


def is_human(spec: SeatSpec | str) -> bool:
    """True if `spec` names a human seat."""
    text = spec.agent if isinstance(spec, SeatSpec) else spec
    return text.split("?", 1)[0].split(":", 1)[0].strip() == "human"


def check_timeout(value: float) -> float:
    """A decision time limit, checked (more than 0, at most `MAX_TIMEOUT` seconds)."""
    if not 0 < value <= MAX_TIMEOUT:
        raise HumanSpecError(
            f"a human seat's timeout must be in (0, {MAX_TIMEOUT:g}] s, got {value:g}"
        )
    return value


def parse_human_spec(text: str) -> SeatSpec:
    """``human``, ``human:NAME`` and ``?timeout=SECONDS``; the name (letters, digits, '-', '_',
    '.') tells people apart in ratings, the time limit is an option (not part of the name)."""
    head, _, query = text.strip().partition("?")
    kind, _, name = head.partition(":")
    if kind != "human":
        raise HumanSpecError(f"not a human seat: {text!r}")
    if name and not all(c.isalnum() or c in "-_." for c in name):
        raise HumanSpecError(
            f"a human seat's name may hold letters, digits, '-', '_', '.': {name!r}"
        )
    timeout = DEFAULT_TIMEOUT
    options: dict[str, str | int | float | bool] = {}
    seen: set[str] = set()
    for part in filter(None, query.split("&")):
        key, _, value = part.partition("=")
        key = key.strip()
        if key in seen:
            raise HumanSpecError(f"option {key!r} is given twice in {text.strip()!r}")
        seen.add(key)
        if key == "via":
            if value not in VIAS:
                raise HumanSpecError(f"via must be one of {', '.join(VIAS)}, got {value!r}")
            if value != "terminal":
                options["via"] = value
            continue
        if key != "timeout":
            raise HumanSpecError(f"unknown option {key!r} of a human seat (known: timeout, via)")
        try:
            timeout = float(value)
        except ValueError:
            raise HumanSpecError(f"timeout must be a number of seconds, got {value!r}") from None
    return SeatSpec(agent=head, options={"timeout": check_timeout(timeout), **options})


def with_timeout(spec: SeatSpec, seconds: float) -> SeatSpec:
    """`spec` with its decision time limit set to `seconds` (human seats; others unchanged)."""
    if not is_human(spec):
        return spec
    return SeatSpec(agent=spec.agent, options={**spec.options, "timeout": check_timeout(seconds)})


def text_with_timeout(text: str, seconds: float) -> str:
    """A spec string with its time limit set to `seconds` (human seats; others unchanged),
    for schedules that store specs as text."""
    if not is_human(text):
        return text
    spec = with_timeout(parse_human_spec(text), seconds)
    via = f"&via={spec.options['via']}" if "via" in spec.options else ""
    return f"{spec.agent}?timeout={spec.options['timeout']:g}{via}"


# ---------------------------------------------------------------------------- the terminal


@dataclass(frozen=True)
class Question:
    """What a person is shown for one decision (all of it from the seat's own view)."""

    game: str
    seat: int
    agent: str
    decision: str
    prompt: str
    """The prompter's text for the decision: what a model seat is sent."""
    rules: str | None
    """The game's standing instructions, the first time the seat is asked (else None)."""
    schema: dict[str, Any] | None
    choices: list[Any]
    fields: list[str]
    timeout: float
    board: Any = None
    """The seat's view drawn for a person (a rich renderable), or None: the prompt."""
    name: str = ""
    """The game's name in the catalogue (its drawing is found by it)."""
    frame: dict[str, Any] | None = None
    """The viewer's frame of what the seat has seen (`seat_frame`): the data its drawing is
    made of, the same as on the seat's page of the viewer."""
    question: str | None = None
    """What the decision asks, without what a drawing of the seat shows (`question_of`)."""


class Terminal:
    """This process's person: lines from an input stream (read by a background thread, so
    that waiting can time out and be interrupted), panels drawn on a console."""

    def __init__(self, stream: IO[str], console: Console) -> None:
        self.console = console
        self._stream = stream
        self._lines: queue.Queue[str | CutLine | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self.left: str | None = None
        """Why the person left ("end of input", "interrupted"), once they did."""
        self.rules_shown: set[tuple[str, int]] = set()
        self.busy = False
        """A seat is asking (panel shown, waiting for its line)."""

    def show(self, q: Question) -> None:
        """Draw the question: the rules once, the seat's view in a panel as wide as the
        terminal, the numbered choices."""
        out = self.console
        if q.rules is not None:
            out.print(Panel(Text(q.rules), title=Text(f"{q.game}: the rules")))
        title = Text(f"Seat {q.seat} ({q.agent}): {q.decision}")
        out.print(Panel(q.board if q.board is not None else Text(q.prompt), title=title))
        if q.choices:
            table = Table(show_header=False, box=None, padding=(0, 1))
            for i, o in enumerate(q.choices, 1):
                table.add_row(Text(f"{i}."), Text(str(o)))
            out.print(table)
        hint = "a number or " if q.choices else ""
        out.print(
            Text(
                f"Answer with {hint}the action in the game's words (time limit {q.timeout:g} s);"
                " ? shows the question as a model seat gets it."
            )
        )
        if len(q.fields) > 1:
            out.print(Text(f"Several fields: type them in this order: {' '.join(q.fields)}."))

    def say(self, text: str) -> None:
        """One line to the person."""
        self.console.print(Text(text))

    def done(self) -> None:
        """The decision is over (nothing to clear at a terminal)."""

    def release(self) -> None:
        """Let the next seat ask."""
        self.busy = False

    def over(self, seat: int) -> None:
        """Nothing to do: the closing words are said (`say`)."""

    async def take(self) -> None:
        """Wait until no other seat is asking at this terminal, then hold it (`busy`)."""
        while self.busy:
            await asyncio.sleep(POLL)
        self.busy = True

    def _read(self) -> None:
        # At most MAX_LINE + 1 characters of a line are held: the rest of a longer line is
        # read in pieces of that size and only counted.
        read = self._stream.readline
        while line := read(MAX_LINE + 1):
            if len(line) <= MAX_LINE or line.endswith("\n"):
                self._lines.put(line)
                continue
            length, last = len(line), line
            while more := read(MAX_LINE + 1):
                length, last = length + len(more), last[-1:] + more
                if more.endswith("\n"):
                    break
            length -= len(last) - len(last.rstrip("\r\n"))
            self._lines.put(line if length <= MAX_LINE else CutLine(line[:MAX_LINE], length))
        self._lines.put(None)

    async def line(self, seconds: float) -> str | CutLine | None:
        """The next line typed (without its newline; a `CutLine` when longer than
        `MAX_LINE`), or None after `seconds`; raises `EOFError` at the end of input."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._read, name="human-input", daemon=True)
            self._thread.start()
        deadline = time.monotonic() + seconds
        while True:
            try:
                got = self._lines.get_nowait()
            except queue.Empty:
                if time.monotonic() >= deadline:
                    return None
                await asyncio.sleep(POLL)
                continue
            if got is None:
                self._lines.put(None)  # every later read sees the end too
                raise EOFError
            return got if isinstance(got, CutLine) else got.rstrip("\r\n")


class Desk(Protocol):
    """Where a person sits: the terminal, or a mailbox the browser viewer answers
    (agents.human.mailbox)."""

    left: str | None
    rules_shown: set[tuple[str, int]]

    def show(self, q: Question) -> None: ...

    def say(self, text: str) -> None: ...

    def done(self) -> None: ...

    def release(self) -> None: ...

    def over(self, seat: int) -> None: ...

    async def take(self) -> None: ...

    async def line(self, seconds: float) -> str | CutLine | None: ...


_TERMINAL: Terminal | None = None


class Departure(NamedTuple):
    """A person who left a seat: `person` is "terminal" for this process's terminal (every
    terminal seat is the one person at it), else the seat's name (``human:NAME``) asked in the
    browser; `reason` is why (end of input, interrupted, page closed)."""

    person: str
    reason: str


_DEPARTURES: list[Departure] = []


def terminal() -> Terminal:
    """The process's terminal (stdin in, stderr out), made on first use."""
    global _TERMINAL
    if _TERMINAL is None:
        _TERMINAL = Terminal(sys.stdin, Console(stderr=True, highlight=False, soft_wrap=False))
    return _TERMINAL


def departures(since: int = 0) -> list[str]:
    """Why human seats of this process were abandoned, in order, from the `since`-th
    departure on (empty: none was)."""
    return [d.reason for d in _DEPARTURES[since:]]


def departed() -> int:
    """How many seats of this process were abandoned so far: a mark for `departures` and
    `gone`, so that a command or a tournament reads only the departures of its own games (a
    long-lived process, such as a league's, seats many people one after another)."""
    return len(_DEPARTURES)


def person_of(seat: str) -> str | None:
    """Who sits at the seat of agent spec `seat`: "terminal", a web seat's name, or None for
    a seat that is no person's."""
    try:
        spec = parse_human_spec(seat)
    except (HumanSpecError, ValueError):
        return None
    return spec.agent if spec.options.get("via") == "web" else "terminal"


def gone(seats: Sequence[str], since: int = 0) -> bool:
    """Whether a person sitting at one of `seats` left a seat since mark `since`."""
    left = {d.person for d in _DEPARTURES[since:]}
    return bool(left) and any(person_of(s) in left for s in seats)


# ---------------------------------------------------------------------------- answers


def choices(schema: dict[str, Any] | None) -> tuple[str | None, list[Any]]:
    """The field whose values the schema lists (the first answer field with an ``enum``) and
    those values: what the person may pick by number."""
    if not schema:
        return None, []
    for key, prop in fields(schema):
        if "enum" in prop:
            return key, list(prop["enum"])
        if prop.get("type") not in ("string", "integer", "number"):
            break
    return None, []


def fields(schema: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The schema's answer fields in order, the free-text reasoning left out."""
    props: dict[str, Any] = schema.get("properties", {})
    return [(k, v) for k, v in props.items() if k != "reasoning"]


def _coerce(prop: dict[str, Any], word: str) -> Any:
    kind = prop.get("type")
    if kind == "integer":
        try:
            return int(word)
        except ValueError:
            return word
    if kind == "number":
        try:
            return float(word)
        except ValueError:
            return word
    return word


def answer_object(schema: dict[str, Any], line: str, first: Any = None) -> str | None:
    """The line's words as the JSON answer the schema describes, or None if it does not fit
    (no schema fields). The last text field takes the rest of the line; a list field takes
    every word left. `first`, if given, is the first field's value (a numbered choice)."""
    items = fields(schema)
    if not items:
        return None
    words = line.split()
    out: dict[str, Any] = {}
    if "reasoning" in schema.get("properties", {}):
        out["reasoning"] = ""
    if first is not None:
        out[items[0][0]] = first
        items = items[1:]
    for i, (key, prop) in enumerate(items):
        if not words:
            break
        last = i == len(items) - 1
        if prop.get("type") == "array":
            item = prop.get("items", {})
            out[key] = [_coerce(item, w) for w in words]
            words = []
        elif last and prop.get("type") == "string" and "enum" not in prop:
            out[key] = " ".join(words)
            words = []
        else:
            out[key] = _coerce(prop, words.pop(0))
    return json.dumps(out)


def read_line(
    prompter: Any, line: str, decision: Any, seat: int, schema: dict[str, Any] | None
) -> tuple[Any, str, str | None]:
    """(action or None, how it was read, why not) for a typed line."""
    text = line.strip()
    if not text:
        return None, "failed", "empty answer"
    key, options = choices(schema)
    head, _, rest = text.partition(" ")
    if head.isdigit() and options and all(isinstance(o, str) for o in options):
        # A number picks a listed choice; words after it fill the fields that follow.
        n = int(head)
        if not 1 <= n <= len(options):
            return None, "failed", f"no choice numbered {n} (1 to {len(options)})"
        assert schema is not None and key is not None
        return _first(prompter, [answer_object(schema, rest, options[n - 1])], decision, seat)
    tries: list[str | None] = [text]
    if schema is not None:
        tries.append(answer_object(schema, text))
    return _first(prompter, tries, decision, seat)


MAX_ERROR = 300
"""The longest refusal reason kept and shown (a parser may quote the answer in it)."""


def too_long(head: str, length: int) -> str:
    """The refusal of a line of `length` characters beginning with `head`."""
    return (
        f"the line is {length:,} characters long ({excerpt(head, 24)!r});"
        f" at most {MAX_LINE:,} are read"
    )


def read_typed(
    prompter: Any,
    typed: str,
    length: int,
    begun: str,
    decision: Any,
    seat: int,
    schema: dict[str, Any] | None,
) -> tuple[str, str, Any, str, str | None]:
    """How a seat reads one typed line (`length`: its whole length when only its head was
    kept, else -1), after `begun`, the start of an answer whose missing field was asked for:
    (the text stored, the whole answer read, the action or None, how it was read, the
    refusal). A live seat and its replay read alike through this."""
    if length > MAX_LINE or len(typed) > MAX_LINE:
        text = typed[:MAX_LINE]
        return text, "", None, "failed", too_long(text, max(length, len(typed)))
    whole = f"{begun} {typed.strip()}" if begun else typed
    action, how, error = read_line(prompter, whole, decision, seat, schema)
    return typed, whole, action, how, None if error is None else excerpt(error, MAX_ERROR)


def stored_length(answer: Any) -> int:
    """The whole length of a stored line that was refused unread for its length (its error
    says it), else -1."""
    if answer.parse_stage != "failed" or len(answer.text) != MAX_LINE or not answer.error:
        return -1
    found = _CUT.match(answer.error)
    return int(found.group(1).replace(",", "")) if found else -1


_CUT = re.compile(r"the line is ([\d,]+) characters long")


def _first(
    prompter: Any, tries: list[str | None], decision: Any, seat: int
) -> tuple[Any, str, str | None]:
    """The first try the parser reads into an action; else the reason of the try whose form
    it understood (it names what was wrong with the content), or of the first try."""
    failures: list[tuple[str, str | None]] = []
    for t in tries:
        if t is None:
            continue
        action, stage, error = prompter.parse(t, decision, seat)
        if action is not None:
            return action, stage, None
        failures.append((stage, error))
    if not failures:
        return None, "failed", "no answer"
    stage, error = next((f for f in failures if f[0] != "failed"), failures[0])
    return None, stage, error


def missing_field(schema: dict[str, Any] | None, line: str) -> str | None:
    """The answer field a line leaves out after picking a listed choice (by its number or
    its word), to ask for next; None when the line picks no choice or fills every field."""
    key, options = choices(schema)
    words = line.split()
    if schema is None or key is None or not words:
        return None
    head = words[0]
    picked = head in [str(o) for o in options] or (
        head.isdigit() and 1 <= int(head) <= len(options)
    )
    items = fields(schema)
    if not picked or items[0][0] != key or len(words) >= len(items):
        return None
    return items[len(words)][0]


def seat_frame(game: catalog.GameDef, seat: int, view: Any) -> dict[str, Any] | None:
    """The viewer's frame (`extras["frames"]`) after the events the seat's view holds, or
    None for a game without frames or a view that keeps no history: a person's seat is drawn
    from exactly what the seat has seen, as its page in the viewer is (with the lists the
    frame counts into, `logs`, where its family keeps any)."""
    maker = game.extras.get("frames")
    history = getattr(view, "history", None)
    if maker is None or not isinstance(history, list):
        return None
    try:
        step, logs = maker(seat)
        frame = None
        for e in history:
            frame = step(e)
    except Exception:  # a drawing is a help to the person, never a reason to stop the game
        return None
    if not isinstance(frame, dict):
        return None
    if logs:
        # The growing lists the frame counts into (PACT's messages and quotes), as the seat
        # saw them, and whose they are: a seat's question carries all its drawing needs.
        return {**frame, "logs": {k: list(v) for k, v in logs.items()}, "viewer": seat}
    return frame


def label(prompter: Any, action: Any, decision: Any, seat: int, schema: Any) -> str:
    """How to tell the person what was played: the listed choice it is, else its JSON."""
    key, options = choices(schema)
    if key is not None and len(fields(schema)) == 1:
        for o in options:
            if read_line(prompter, str(o), decision, seat, schema)[0] == action:
                return str(o)
    return str(prompter.action_json(action))


# ---------------------------------------------------------------------------- the agent


def _uncancel() -> None:
    """Take back the cancellation asyncio made of Ctrl-C, so that the game can go on."""
    task = asyncio.current_task()
    if task is not None:
        task.uncancel()


class HumanAgent(Agent):
    """A seat played by a person through a `Terminal`."""

    is_async = True

    def __init__(
        self,
        seat: int,
        seed: int,
        config: Any,
        *,
        spec: str,
        timeout: float,
        terminal: Desk,
    ) -> None:
        super().__init__(seat, seed, config)
        game = catalog.for_config(config)
        if game.prompter is None:
            raise catalog.UnknownGame(f"{game.name} has no prompts: a person cannot play it")
        self.game = game
        self.prompter: Any = game.prompter
        self.spec = spec
        self.timeout = timeout
        self.terminal = terminal
        self.abandoned = False
        self.prompt = ""
        """The question of the decision being asked, as a model seat gets it (`?`)."""

    def act(self, view: Any, decision: Any) -> Any:
        raise RuntimeError("human seats are asynchronous: use aact")

    def _default(self, decision: Any, reason: str) -> Any:
        action = self.prompter.default_action(decision, self.seat)
        played = self.prompter.action_json(action)
        self.record(
            ActionDefaulted(seat=self.seat, decision=decision.kind, action=played, reason=reason)
        )
        return action

    def _show(self, view: Any, decision: Any, schema: dict[str, Any] | None) -> None:
        key = (self.game.name, self.seat)
        rules = None
        if key not in self.terminal.rules_shown:
            self.terminal.rules_shown.add(key)
            rules = self.prompter.system_prompt(self.config, None, self.seat)
        rejection = self.prompter.rejection(view, self.seat, decision.kind)
        names = [k + (" ..." if p.get("type") == "array" else "") for k, p in fields(schema or {})]
        prompt = self.prompter.decision_prompt(view, decision, "full", rejection)
        self.prompt = prompt
        frame = seat_frame(self.game, self.seat, view)
        self.terminal.show(
            Question(
                game=self.game.title,
                seat=self.seat,
                agent=self.spec,
                decision=decision.kind,
                prompt=prompt,
                rules=rules,
                schema=schema,
                choices=choices(schema)[1],
                fields=names,
                timeout=self.timeout,
                board=board(self.game.name, self.prompter, view, decision, prompt, frame),
                name=self.game.name,
                frame=frame,
                question=question_of(self.prompter, view, prompt),
            )
        )

    async def aact(self, view: Any, decision: Any) -> Any:
        if self.abandoned:
            return self._default(decision, "seat abandoned")
        started = time.monotonic()
        try:
            # Seats of one simultaneous decision (two people at one terminal) ask in turn.
            await self.terminal.take()
        except asyncio.CancelledError:
            _uncancel()
            return self._leave(decision, "interrupted", started)
        try:
            return await self._ask(view, decision)
        finally:
            self.terminal.done()
            self.terminal.release()

    async def _ask(self, view: Any, decision: Any) -> Any:
        make_schema = getattr(self.prompter, "answer_schema", None)
        schema = make_schema(view, decision) if make_schema is not None else None
        out = self.terminal
        self._show(view, decision, schema)
        started = time.monotonic()
        stage = "ask"
        begun = ""  # the start of an answer whose missing field was asked for
        while True:
            asked = time.monotonic()
            left = self.timeout - (asked - started)
            try:
                line = await self.terminal.line(max(left, 0.0))
            except EOFError as exc:
                # A closed terminal, or a browser page closed and not opened again.
                return self._leave(decision, str(exc) or "end of input", started)
            except asyncio.CancelledError:
                # Ctrl-C: asyncio cancels the game's task; the seat leaves, the game goes on.
                _uncancel()
                return self._leave(decision, "interrupted", started)
            if line is None:
                out.say(f"No answer within {self.timeout:g} s: the default is played.")
                return self._default(decision, f"no answer within {self.timeout:g} s")
            if isinstance(line, str) and line.strip() == "?":
                out.say(self.prompt)  # what a model seat is sent: no answer, nothing stored
                continue
            elapsed = (time.monotonic() - asked) * 1000.0
            typed, length = (line.head, line.length) if isinstance(line, CutLine) else (line, -1)
            text, whole, action, how, error = read_typed(
                self.prompter, typed, length, begun, decision, self.seat, schema
            )
            self.record(
                HumanAnswer(
                    seat=self.seat,
                    decision=decision.kind,
                    stage=stage,
                    text=text,
                    parse_stage=how,
                    error=error,
                    elapsed_ms=round(elapsed, 1),
                )
            )
            if action is not None:
                played = label(self.prompter, action, decision, self.seat, schema)
                out.say(f"Played: {excerpt(played)}")
                return action
            wanted = missing_field(schema, whole)
            if wanted is not None:
                # A choice picked without the field it needs: ask for that field.
                begun = whole.strip()
                out.say(f"{wanted}?")
                stage = "follow_up"
                continue
            begun = ""
            out.say(f"Refused: {error}. Try again.")
            stage = "retry"

    def _leave(self, decision: Any, reason: str, started: float) -> Any:
        self.abandoned = True
        self.terminal.left = reason
        who = "terminal" if isinstance(self.terminal, Terminal) else self.spec
        _DEPARTURES.append(Departure(who, reason))
        elapsed = round((time.monotonic() - started) * 1000.0, 1)
        self.record(
            SeatAbandoned(seat=self.seat, decision=decision.kind, reason=reason, elapsed_ms=elapsed)
        )
        self.terminal.say(
            f"Seat {self.seat} abandoned ({reason}): it plays its default from now on."
        )
        return self._default(decision, "seat abandoned")

    async def close(self) -> None:
        if not self.abandoned:
            self.terminal.say(f"Seat {self.seat}: game over.")
        self.terminal.over(self.seat)
