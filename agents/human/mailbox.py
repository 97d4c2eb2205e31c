"""A seat a person plays from the browser (`human?via=web`): questions and answers as files.

The game's process writes one question file per decision waiting on the person
(``<dir>/<token>.json``: the prompt text, the answer schema, the numbered choices, the
refusals so far); `cattle serve` lists them, draws a form from the schema and writes the
answer (``<dir>/<token>.answer``, JSON ``{"line": ...}``) by an atomic rename. The seat reads
it as it reads a terminal line, so everything else (parsing, refusals, time limit, events)
is the human seat's. The directory is ``$CATTLE_SEATS`` or `DEFAULT_SEATS`; the viewer and
the game must name the same one.

Each seat also has a desk file (``<dir>/<desk>.desk``: the question now waiting, if any, and
whether the game is over) under a random name fixed for the seat in this process, so that a
browser page can follow the seat from one decision to the next. Both files name the process
that wrote them: the viewer removes those a stopped process left behind (`sweep`).

A page closing sends a last word (``<dir>/<desk>.left``, the time it went); any later look of a
page at that desk (a reload) takes it back. A mark standing `LEAVE_GRACE` seconds while the
seat waits on a question means nobody is there: the seat is abandoned ("page closed").
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import time
import uuid
from pathlib import Path
from typing import Any

from agents.human.agent import POLL, Question
from events.process import pid_running

SEATS_ENV = "CATTLE_SEATS"
DEFAULT_SEATS = Path("data/seats")
"""Where questions wait for the browser unless $CATTLE_SEATS says otherwise."""
OVER_KEPT = 60.0
"""Seconds the desk of a finished game is kept after its process stopped (so that its page
can still say the game is over); then `sweep` removes it."""
LEAVE_GRACE = 5.0
"""Seconds a page's "closed" mark must stand, not taken back by a look of another page at the
desk, before the seat counts as left: a reload closes the page and opens it again within a
second or two, and must keep the seat."""
TOKEN = re.compile(r"^[0-9a-f]{32}$")
"""A question's name: 32 hex digits (a fresh random id per decision)."""


def seats_dir() -> Path:
    """The question directory ($CATTLE_SEATS or `DEFAULT_SEATS`)."""
    text = os.environ.get(SEATS_ENV, "").strip()
    return Path(text) if text else DEFAULT_SEATS


def write_json(path: Path, value: Any) -> None:
    """Write `value` to `path` atomically (a reader sees the old file or the new one)."""
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex}.tmp")
    tmp.write_text(json.dumps(value), encoding="utf-8")
    os.replace(tmp, path)


class Mailbox:
    """A person's desk made of files: the `Desk` a web seat asks through."""

    def __init__(self, root: Path) -> None:
        root.mkdir(parents=True, exist_ok=True)
        self.root = root
        self.left: str | None = None
        self.rules_shown: set[tuple[str, int]] = set()
        self.busy = False
        self._token: str | None = None
        self._question: dict[str, Any] = {}
        self._desks: dict[int, str] = {}

    def _desk(self, seat: int, token: str | None, *, over: bool = False) -> str:
        desk = self._desks.setdefault(seat, uuid.uuid4().hex)
        state = {"desk": desk, "seat": seat, "token": token, "over": over, "pid": os.getpid()}
        write_json(self.root / f"{desk}.desk", state)
        return desk

    def _path(self, suffix: str) -> Path:
        assert self._token is not None
        return self.root / f"{self._token}{suffix}"

    def show(self, q: Question) -> None:
        self._token = uuid.uuid4().hex
        self._question = {
            "token": self._token,
            "desk": self._desks.setdefault(q.seat, uuid.uuid4().hex),
            "pid": os.getpid(),
            "game": q.game,
            "seat": q.seat,
            "agent": q.agent,
            "decision": q.decision,
            "prompt": q.prompt,
            "rules": q.rules,
            "schema": q.schema,
            "choices": q.choices,
            "fields": q.fields,
            "timeout": q.timeout,
            "name": q.name,
            "frame": q.frame,
            "question": q.question,
            "asked_at": time.time(),  # shown in the browser only; never part of the game
            "notes": [],
        }
        write_json(self._path(".json"), self._question)
        self._desk(q.seat, self._token)

    def say(self, text: str) -> None:
        if self._token is None:
            return
        self._question["notes"].append(text)
        write_json(self._path(".json"), self._question)

    def done(self) -> None:
        if self._token is None:
            return
        self._desk(self._question["seat"], None)
        for suffix in (".json", ".answer"):
            with contextlib.suppress(FileNotFoundError):
                self._path(suffix).unlink()
        self._token = None

    def over(self, seat: int) -> None:
        if seat in self._desks:
            self._desk(seat, None, over=True)

    def release(self) -> None:
        self.busy = False

    async def take(self) -> None:
        while self.busy:
            await asyncio.sleep(POLL)
        self.busy = True

    async def line(self, seconds: float) -> str | None:
        """The answer; None after `seconds`; `EOFError` ("page closed") once the seat's page
        has been closed for `LEAVE_GRACE` s and not opened again."""
        deadline = time.monotonic() + seconds
        answer = self._path(".answer")
        mark = self.root / f"{self._question['desk']}.left"
        while True:
            try:
                text = answer.read_text(encoding="utf-8")
            except FileNotFoundError:
                if left_for(mark) >= LEAVE_GRACE:
                    with contextlib.suppress(FileNotFoundError):
                        mark.unlink()
                    raise EOFError("page closed") from None
                if time.monotonic() >= deadline:
                    return None
                await asyncio.sleep(POLL)
                continue
            answer.unlink()
            try:
                got = json.loads(text)["line"]
            except (ValueError, KeyError, TypeError):
                return ""  # an unreadable answer file is an empty line: refused
            return str(got)


def left_for(mark: Path) -> float:
    """Seconds since the page of a desk was closed (its `mark`); 0 when it was not, or was
    opened again since."""
    try:
        at = float(json.loads(mark.read_text(encoding="utf-8"))["at"])
    except (OSError, ValueError, KeyError, TypeError):
        return 0.0
    return max(0.0, time.time() - at)


def page_left(root: Path, desk: str, page: str | None = None) -> bool:
    """Mark that `page` (a page's own random name), showing seat `desk`, was closed now;
    False if no game waits at that desk."""
    state = desk_state(root, desk)
    if state["gone"] or state["over"]:
        return False
    write_json(root / f"{desk}.left", {"at": time.time(), "page": page})
    return True


def page_back(root: Path, desk: str, page: str | None = None) -> None:
    """A page looks at seat `desk` (a reload, or another tab): take back its closed mark.
    A look of the very page that closed (sent just before it went, arriving after its last
    word) takes nothing back."""
    if not TOKEN.match(desk):
        return
    mark = root / f"{desk}.left"
    if page is not None:
        with contextlib.suppress(OSError, ValueError, AttributeError):
            if json.loads(mark.read_text(encoding="utf-8")).get("page") == page:
                return
    with contextlib.suppress(FileNotFoundError):
        mark.unlink()


_BOXES: dict[Path, Mailbox] = {}


def mailbox(root: Path | None = None) -> Mailbox:
    """The process's mailbox for `root` (default: `seats_dir()`), made on first use."""
    root = (root or seats_dir()).resolve()
    box = _BOXES.get(root)
    if box is None:
        box = _BOXES[root] = Mailbox(root)
    return box


def alive(pid: Any) -> bool:
    """Whether process `pid` of this machine is still running (not a number: assumed so)."""
    if not isinstance(pid, int) or pid <= 0:
        return True
    return pid_running(pid)


def sweep(root: Path) -> int:
    """Remove the questions and desks whose process has stopped (killed mid-game: nobody will
    read an answer to them); how many files went."""
    gone = 0
    if not root.is_dir():
        return gone
    for path in [*root.glob("*.json"), *root.glob("*.desk")]:
        if not TOKEN.match(path.stem):
            continue
        try:
            found = json.loads(path.read_text(encoding="utf-8"))
            pid = found.get("pid")
            ended = bool(found.get("over")) and time.time() - path.stat().st_mtime < OVER_KEPT
        except (OSError, ValueError, AttributeError):
            continue
        if not ended and not alive(pid):
            for name in (path.name, f"{path.stem}.answer", f"{path.stem}.left"):
                with contextlib.suppress(FileNotFoundError):
                    (root / name).unlink()
                    gone += 1
    return gone


def desk_state(root: Path, desk: str) -> dict[str, Any]:
    """Where seat `desk` stands: ``{"token": the question waiting or None, "over": the game
    ended, "gone": the desk is unknown or its process stopped}``."""
    none: dict[str, Any] = {"token": None, "over": False, "gone": True}
    if not TOKEN.match(desk):
        return none
    path = root / f"{desk}.desk"
    try:
        state = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return none
    if not isinstance(state, dict):
        return none
    token = state.get("token")
    if not state.get("over") and not alive(state.get("pid")):
        sweep(root)
        return none
    if token is not None and question(root, str(token)) is None:
        token = None  # answered just now; the desk file follows in a moment
    return {"token": token, "over": bool(state.get("over")), "gone": False}


def waiting(root: Path) -> list[dict[str, Any]]:
    """The questions waiting in `root`, oldest first (unreadable files, and those whose
    process has stopped, left out; the latter removed)."""
    out: list[dict[str, Any]] = []
    if not root.is_dir():
        return out
    sweep(root)
    for path in root.glob("*.json"):
        if not TOKEN.match(path.stem):
            continue
        with contextlib.suppress(OSError, ValueError):
            out.append(json.loads(path.read_text(encoding="utf-8")))
    return sorted(out, key=lambda q: (q.get("asked_at", 0), q.get("token", "")))


def question(root: Path, token: str) -> dict[str, Any] | None:
    """The question `token`, or None when it is not waiting (answered, timed out, unknown)."""
    if not TOKEN.match(token):
        return None
    try:
        value: dict[str, Any] = json.loads((root / f"{token}.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return value


def answer_line(schema: dict[str, Any] | None, form: dict[str, str]) -> str:
    """The line an answer form stands for: its free `line` if filled, else the JSON object of
    its fields (a list field's words split; empty fields left out)."""
    free = form.get("line", "").strip()
    if free or not schema:
        return free
    out: dict[str, Any] = {}
    props: dict[str, Any] = schema.get("properties", {})
    if "reasoning" in props:
        out["reasoning"] = ""
    for key, prop in props.items():
        if key == "reasoning":
            continue
        value = form.get(f"f_{key}", "").strip()
        if not value:
            continue
        if prop.get("type") == "array":
            item = prop.get("items", {})
            out[key] = [_coerce(item, w) for w in value.replace(",", " ").split()]
        else:
            out[key] = _coerce(prop, value)
    return json.dumps(out)


def _coerce(prop: dict[str, Any], word: str) -> Any:
    if prop.get("type") == "integer":
        with contextlib.suppress(ValueError):
            return int(word)
    if prop.get("type") == "number":
        with contextlib.suppress(ValueError):
            return float(word)
    return word


def post_answer(root: Path, token: str, line: str) -> bool:
    """Leave `line` as the answer to question `token`; False if it is not waiting, or an
    answer to it is already there unread (that first answer stands)."""
    if question(root, token) is None:
        return False
    path = root / f"{token}.answer"
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex}.tmp")
    tmp.write_text(json.dumps({"line": line}), encoding="utf-8")
    try:
        os.link(tmp, path)  # whole, and only where no answer is: a second post cannot replace it
    except FileExistsError:
        return False
    finally:
        tmp.unlink()
    return True
