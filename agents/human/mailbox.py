"""A seat a person plays from the browser (`human?via=web`): questions and answers as files.

The game's process writes one question file per decision waiting on the person
(``<dir>/<token>.json``: the prompt text, the answer schema, the numbered choices, the
refusals so far); `cattle serve` lists them, draws a form from the schema and writes the
answer (``<dir>/<token>.answer``, JSON ``{"line": ...}``) by an atomic rename. The seat reads
it as it reads a terminal line, so everything else (parsing, refusals, time limit, events)
is the human seat's. The directory is ``$CATTLE_SEATS`` or `DEFAULT_SEATS`; the viewer and
the game must name the same one.
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

SEATS_ENV = "CATTLE_SEATS"
DEFAULT_SEATS = Path("data/seats")
"""Where questions wait for the browser unless $CATTLE_SEATS says otherwise."""
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

    def _path(self, suffix: str) -> Path:
        assert self._token is not None
        return self.root / f"{self._token}{suffix}"

    def show(self, q: Question) -> None:
        self._token = uuid.uuid4().hex
        self._question = {
            "token": self._token,
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
            "asked_at": time.time(),  # shown in the browser only; never part of the game
            "notes": [],
        }
        write_json(self._path(".json"), self._question)

    def say(self, text: str) -> None:
        if self._token is None:
            return
        self._question["notes"].append(text)
        write_json(self._path(".json"), self._question)

    def done(self) -> None:
        if self._token is None:
            return
        for suffix in (".json", ".answer"):
            with contextlib.suppress(FileNotFoundError):
                self._path(suffix).unlink()
        self._token = None

    def release(self) -> None:
        self.busy = False

    async def take(self) -> None:
        while self.busy:
            await asyncio.sleep(POLL)
        self.busy = True

    async def line(self, seconds: float) -> str | None:
        deadline = time.monotonic() + seconds
        answer = self._path(".answer")
        while True:
            try:
                text = answer.read_text(encoding="utf-8")
            except FileNotFoundError:
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


_BOXES: dict[Path, Mailbox] = {}


def mailbox(root: Path | None = None) -> Mailbox:
    """The process's mailbox for `root` (default: `seats_dir()`), made on first use."""
    root = (root or seats_dir()).resolve()
    box = _BOXES.get(root)
    if box is None:
        box = _BOXES[root] = Mailbox(root)
    return box


def waiting(root: Path) -> list[dict[str, Any]]:
    """The questions waiting in `root`, oldest first (unreadable files left out)."""
    out: list[dict[str, Any]] = []
    if not root.is_dir():
        return out
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
    """Leave `line` as the answer to question `token`; False if it is not waiting."""
    if question(root, token) is None:
        return False
    write_json(root / f"{token}.answer", {"line": line})
    return True
