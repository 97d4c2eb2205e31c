"""People dropping in to a league: a queue of files beside the seats' question files.

The viewer (`cattle serve`) writes one file per person waiting, `lobby/NAME.json`, with the
game they asked for and the SHA-256 of a secret their browser made and keeps; the league
(`cattle league`) reads the queue before each round, records who waits, seats each person in
one match, and takes their file away. The person's browser then finds its seat by name and
secret (`seat_of`), and plays through the seat's own page.

What the secret protects: the name. Once a name has been used with a secret, the viewer
gives that name's seat link, and takes a new queue entry under that name, only with the same
secret (its hash is stored with the league's facts). What it does not: whoever copies the
secret out of the browser (or its storage) is that person; there is no account, no
recovery of a lost secret (pick another name), and the secret is sent to the viewer with each
request, so a viewer reached over plain HTTP on a network shows it to that network.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import re
from pathlib import Path
from typing import Any

from agents.human.mailbox import waiting, write_json

NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,23}$")
"""A person's name on the table: a letter, then up to 23 letters, digits, _ or -."""
SECRET = re.compile(r"^[A-Za-z0-9_-]{16,128}$")
"""A browser's secret: 16 to 128 URL-safe characters."""
DIGEST = re.compile(r"^[0-9a-f]{64}$")
"""A secret's SHA-256 as stored (hex)."""


def lobby(root: Path) -> Path:
    """The folder of the queue, inside the seats folder `root`."""
    return root / "lobby"


def secret_hash(secret: str) -> str:
    """The SHA-256 of a secret, as hex (what is stored)."""
    return hashlib.sha256(secret.encode()).hexdigest()


def _path(root: Path, name: str) -> Path:
    return lobby(root) / f"{name.lower()}.json"


def join(
    root: Path, league: str, name: str, game: str, secret: str, known: str | None = None
) -> str | None:
    """Queue `name` for a game of `game` in `league`; the reason it is refused, or None.
    `known` is the secret hash the league already holds for this name (None: a new name)."""
    if not NAME.match(name):
        return "a name is a letter, then up to 23 letters, digits, _ or -"
    if not SECRET.match(secret):
        return "the browser's secret is not one this page makes"
    digest = secret_hash(secret)
    if known is not None and not hmac.compare_digest(known, digest):
        return "this name is taken (by another browser's secret)"
    path = _path(root, name)
    with contextlib.suppress(OSError, ValueError):
        there = json.loads(path.read_text(encoding="utf-8"))
        if not hmac.compare_digest(str(there.get("secret_sha256", "")), digest):
            return "this name is waiting already (from another browser)"
    lobby(root).mkdir(parents=True, exist_ok=True)
    write_json(path, {"league": league, "name": name, "game": game, "secret_sha256": digest})
    return None


def queued(root: Path) -> list[dict[str, Any]]:
    """The people waiting, by name (unreadable or incomplete files left out)."""
    out: list[dict[str, Any]] = []
    folder = lobby(root)
    if not folder.is_dir():
        return out
    for path in sorted(folder.glob("*.json")):
        with contextlib.suppress(OSError, ValueError):
            doc = json.loads(path.read_text(encoding="utf-8"))
            if (
                isinstance(doc, dict)
                and NAME.match(str(doc.get("name", "")))
                and isinstance(doc.get("league"), str)
                and isinstance(doc.get("game"), str)
                and DIGEST.match(str(doc.get("secret_sha256", "")))
            ):
                out.append(doc)
    return sorted(out, key=lambda d: str(d["name"]))


def taken(root: Path, name: str) -> None:
    """`name` was seated (or refused): its queue entry goes."""
    with contextlib.suppress(FileNotFoundError):
        _path(root, name).unlink()


def waits(root: Path, name: str) -> bool:
    """Whether `name` is in the queue."""
    return _path(root, name).exists()


def spec_name(name: str) -> str:
    """The stored agent of `name`'s seats."""
    return f"human:{name}"


def holds(known: str | None, secret: str) -> bool:
    """Whether `secret` is the one whose hash is `known`."""
    return known is not None and hmac.compare_digest(known, secret_hash(secret))


def seat_of(root: Path, name: str) -> str | None:
    """The desk of a question waiting on `name` now (the person's seat link), or None."""
    for q in waiting(root):
        if q.get("agent") == spec_name(name):
            return str(q.get("desk"))
    return None
