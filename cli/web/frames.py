"""The table drawn at each point of a game, as plain data the viewer's script renders.

A frame is computed from the events a viewer may see and nothing else: the caller passes the
already filtered log, so a seat's frames cannot hold what that seat was not shown. Frames are
deduplicated (consecutive equal frames are stored once) and growing lists (PACT's chat and
quote ladder) are sent once, each frame giving only how much of them it shows.

A game draws its own table when its definition has `extras["frames"]` (Cattle Trade's and
PACT's, in their projections); any other game gets a text dump of its view or state.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from events.catalog import GameDef

Viewer = int | str | None
"""A seat number, "public" (what every seat sees) or None (everything)."""

MAX_TEXT = 20_000
"""Longest state text of a generic game's frame; a longer dump is cut."""


class Frames(msgspec.Struct, kw_only=True):
    """The frames of one game for one viewer: `index[i]` is the frame after event i."""

    frames: list[dict[str, Any]]
    index: list[int]
    logs: dict[str, list[Any]] = msgspec.field(default_factory=dict)
    meta: dict[str, Any] = msgspec.field(default_factory=dict)
    """Facts that hold for every frame (Cattle Trade: the value of each animal's set)."""


def build(
    game: GameDef | None, events: Sequence[Any], viewer: Viewer, secret: int | None = None
) -> Frames:
    """The frames after each of `events` (already filtered for `viewer`); `secret` is the
    game's seed while it is withheld (`projections.seeds`): a state text leaves it out."""
    maker = game.extras.get("frames") if game is not None else None
    if maker is None:
        step: Callable[[Any], dict[str, Any]] = _text_builder(game, viewer, len(events), secret)
        logs: dict[str, list[Any]] = {}
    else:
        step, logs = maker(viewer)
    frames: list[dict[str, Any]] = []
    index: list[int] = []
    last: bytes = b""
    for e in events:
        frame = step(e)
        key = msgspec.json.encode(frame)
        if key != last:
            frames.append(frame)
            last = key
        index.append(len(frames) - 1)
    meta = dict(game.extras.get("frame_meta", {})) if game is not None else {}
    return Frames(frames=frames, index=index, logs=logs, meta=meta)


# ---- any other game ---------------------------------------------------------------------------


MAX_FOLDS = 1000
"""Most states a generic game's omniscient view folds (the rules fold whole prefixes)."""


def _text_builder(
    game: GameDef | None, viewer: Viewer, n: int, secret: int | None = None
) -> Callable[[Any], dict[str, Any]]:
    """A text dump of the seat's view (a seat) or of the rules' state (everyone)."""
    if game is None:
        return lambda e: {"kind": "text", "text": "(this game's module is not loaded)"}
    if viewer is None:
        # `Rules.fold` is what every game defines for a prefix of its log (its `evolve` may
        # ignore events that `step` applies); on long logs only every k-th prefix is folded.
        every = max(1, -(-n // MAX_FOLDS))
        log: list[Any] = []
        last: list[dict[str, Any]] = []

        def fold(e: Any) -> dict[str, Any]:
            log.append(e)
            if last and len(log) % every and len(log) != n:
                return last[0]
            try:
                text = _dump(game.rules.fold(log), secret)
            except Exception as exc:  # a game's fold may refuse a log it did not expect
                text = f"(no state text: {type(exc).__name__})"
            last[:] = [{"kind": "text", "text": text}]
            return last[0]

        return fold
    view = game.new_view(viewer if isinstance(viewer, int) else -1)
    seen: list[Any] = []

    def seat_step(e: Any) -> dict[str, Any]:
        seen.append(e)
        view.sync(seen)
        try:
            return {"kind": "text", "text": _dump(view.snapshot(), secret)}
        except Exception as exc:  # a game's view may not support a public (-1) seat
            return {"kind": "text", "text": f"(no state text: {type(exc).__name__})"}

    return seat_step


def _dump(value: Any, secret: int | None = None) -> str:
    """A state or view as plain lines of `name: value` (its repr if it has no fields), without
    its `seed` while that is withheld (a state that keeps the seed would tell every draw to
    come). Plain text, not JSON: the viewer shows it to people in monospace."""
    try:
        data = msgspec.to_builtins(value)
        if secret is not None and isinstance(data, dict) and data.get("seed") == secret:
            data["seed"] = None
        text = "\n".join(_lines(data, 0))
    except (TypeError, msgspec.EncodeError):
        text = repr(value)
        if secret is not None:
            text = re.sub(rf"\bseed=-?{secret}\b", "seed=None", text)
    return text if len(text) <= MAX_TEXT else text[:MAX_TEXT] + "\n..."


def _scalar(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _flat(value: Any) -> bool:
    return not isinstance(value, dict | list) or (
        isinstance(value, list) and all(not isinstance(v, dict | list) for v in value)
    )


def _lines(value: Any, depth: int) -> list[str]:
    """`value` (plain data) as indented lines: a mapping as `name: value`, a list of plain
    values on one line, a list of lists (a grid) one row a line."""
    pad = "  " * depth
    if isinstance(value, dict):
        out: list[str] = []
        for key, item in value.items():
            if _flat(item):
                shown = ", ".join(map(_scalar, item)) if isinstance(item, list) else _scalar(item)
                out.append(f"{pad}{key}: {shown if shown else '(none)'}")
            else:
                out.append(f"{pad}{key}:")
                out.extend(_lines(item, depth + 1))
        return out
    if isinstance(value, list):
        if _flat(value):
            return [pad + (", ".join(map(_scalar, value)) or "(none)")]
        out = []
        for item in value:
            if _flat(item):
                out.append(
                    pad
                    + (" ".join(map(_scalar, item)) if isinstance(item, list) else _scalar(item))
                )
            else:
                out.append(f"{pad}-")
                out.extend(_lines(item, depth + 1))
        return out
    return [pad + _scalar(value)]
