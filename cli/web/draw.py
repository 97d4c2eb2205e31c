"""Drawings of a game's frames: one per family, shared by every page that shows a game.

A frame (see `cli.web.frames`) is plain data made from the events a viewer may see; a
family's drawing turns it into inline SVG or HTML, so a drawing can hold no more than its
frame. A game names its drawing module in its definition (`extras["drawing"]`, a module path
with a `draw(frame, meta)` function); a frame that module does not draw, or a game without
one, is shown as its text in monospace (the viewer's fallback).

Every string of a drawing that comes from a frame is escaped here, on the server: a drawing
is markup, but never markup a stored string can make. Each drawing carries its text
alternative (an `aria-label` and a `<title>` on the figure and on each cell it draws), so
screen readers and tests read what it shows.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from markupsafe import Markup, escape

from events import catalog

Draw = Callable[[dict[str, Any], Mapping[str, Any]], Markup | None]
"""A family's drawing: the markup of one frame (None: not drawn, the text is shown)."""


def drawer(game: str, key: str = "drawing") -> Draw | None:
    """The drawing function of the game named `game` (`key`: "seat_drawing" for the one a
    person's seat page uses where the game has its own), or None (no drawing, or the game
    or its drawing module cannot be loaded here)."""
    try:
        gdef = catalog.get(game)
    except catalog.UnknownGame:
        return None
    path = gdef.extras.get(key)
    if not isinstance(path, str):
        return None
    try:
        module = importlib.import_module(path)
    except ImportError:
        return None
    fn = getattr(module, "draw", None)
    return fn if callable(fn) else None


def drawings(payload: Mapping[str, Any]) -> dict[int, Markup]:
    """The drawing of each frame of a game's viewer data (`cli.web.data.game_data`) that its
    family draws, by frame number."""
    head = payload.get("game") or {}
    fn = drawer(str(head.get("game", "")))
    if fn is None:
        return {}
    # What holds for every frame, the growing lists frames count into (PACT's messages and
    # quotes) and whose view it is.
    meta = {**(payload.get("meta") or {}), "logs": payload.get("logs") or {}}
    meta["viewer"] = payload.get("viewer")
    out: dict[int, Markup] = {}
    for i, frame in enumerate(payload.get("frames") or []):
        try:
            got = fn(frame, meta)
        except Exception:  # a frame of a shape the drawing does not know: its text is shown
            got = None
        if got is not None:
            out[i] = got
    return out


def seat_drawing(game: Any, frame: Any) -> Markup | None:
    """The drawing of a person's seat page: its game's seat drawing (`extras["seat_drawing"]`,
    else its drawing) of the frame the seat's question carries (None when there is none to
    draw)."""
    if not isinstance(game, str) or not isinstance(frame, dict):
        return None
    fn = drawer(game, "seat_drawing") or drawer(game)
    if fn is None:
        return None
    try:
        meta = catalog.get(game).extras.get("frame_meta") or {}
        return fn(frame, dict(meta))
    except Exception:  # a frame of a shape the drawing does not know: the prompt is shown
        return None


# ---- building blocks every family's drawing uses ---------------------------------------------


def attrs(**values: Any) -> Markup:
    """Attributes, escaped (`class_` for class, `aria_label` for aria-label; None is left
    out)."""
    # Plain string joins of escaped parts: `Markup.format` costs ten times as much, and a
    # long game draws tens of thousands of elements.
    parts = []
    for key, value in values.items():
        if value is None:
            continue
        name = key.rstrip("_").replace("_", "-")
        parts.append(f' {name}="{escape(value)}"')
    return Markup("".join(parts))


def tag(name: str, body: Iterable[Markup | str] | Markup | str = (), **values: Any) -> Markup:
    """An element with escaped attributes and body (strings in the body are escaped)."""
    if isinstance(body, str):
        body = [body]
    inner = "".join([escape(b) for b in body])
    return Markup(f"<{name}{attrs(**values)}>{inner}</{name}>")


def labelled(name: str, label: str, body: Iterable[Markup | str] = (), **values: Any) -> Markup:
    """An SVG element read as `label`: its `aria-label` and a `<title>` (the tooltip)."""
    return tag(name, [tag("title", label), *body], aria_label=label, **values)


def figure(
    label: str,
    width: float,
    height: float,
    body: Sequence[Markup],
    *,
    family: str,
    caption: Sequence[str] = (),
    text: str | None = None,
    extra: Sequence[Markup] = (),
) -> Markup:
    """A drawing as a figure: the SVG (named by `label`), lines of caption under it, any
    `extra` parts (a conversation), and the text the seat's prompt shows (`text`) folded
    away beneath."""
    svg = tag(
        "svg",
        [tag("title", label), *body],
        class_="drawing-svg",
        viewBox=f"0 0 {width:g} {height:g}",
        width=f"{width:g}",
        height=f"{height:g}",
        role="group",
        aria_label=label,
        xmlns="http://www.w3.org/2000/svg",
    )
    parts = [svg]
    for line in caption:
        parts.append(tag("p", line, class_="drawing-caption"))
    parts.extend(extra)
    if text is not None:
        parts.append(
            tag(
                "details",
                [tag("summary", "As the seat's prompt shows it"), tag("pre", text)],
                class_="drawing-text",
            )
        )
    return tag("figure", parts, class_=f"drawing drawing-{family}", data_family=family)


def chat_log(
    messages: Sequence[Mapping[str, Any]], me: str | None, *, earlier: int = 0, label: str
) -> Markup:
    """A conversation as a list: the game's lines (`who` "GAME") as banners, a phase
    opening (`phase`) standing out, each player's words as a bubble with its name (and
    `to`, `where` when given), the viewer's own (`who` equal to `me`) on the right. A
    message whose `text` is None is a player keeping quiet."""
    items: list[Markup] = []
    if earlier:
        items.append(
            tag("li", f"{earlier} earlier messages (in the text below)", class_="msg more")
        )
    for m in messages:
        who = str(m.get("who", ""))
        said = "(keeps quiet)" if m.get("text") is None else str(m["text"])
        if who == "GAME":
            cls = "msg from-game" + (" phase" if m.get("phase") else "")
            name = "game"
        else:
            mine = me is not None and who == me
            cls = "msg from-player" + (" mine" if mine else "")
            name = "you" if mine else who
            if m.get("to"):
                name += f" to {m['to']}"
            if m.get("where"):
                name += f" ({m['where']})"
        items.append(
            tag(
                "li",
                [tag("span", name, class_="who"), tag("span", said, class_="said")],
                class_=cls,
                aria_label=f"{name}: {said}",
                data_who=who,
            )
        )
    return tag("ol", items, class_="chat-log", aria_label=label)


CARD_W, CARD_H, CARD_GAP = 118, 52, 6
"""A Codenames card's size and the gap between cards, in SVG units."""


def word_cards(
    words: Sequence[str],
    key: Sequence[str | None] | None,
    shown: Sequence[str | None],
    margin: float,
) -> tuple[list[Markup], float, float]:
    """Codenames' cards five to a row (GameBench's and TextArena's): each coloured as the
    viewer may know it (`shown`: the colour of a revealed card; `key`: every card's, for a
    spymaster; a colour is "red", "blue", "neutral" or "assassin") and named by its text
    alternative; with the width and height of the whole."""
    cols = 5
    rows = -(-len(words) // cols)
    body: list[Markup] = []
    for i, word in enumerate(words):
        r, c = divmod(i, cols)
        x, y = margin + c * (CARD_W + CARD_GAP), margin + r * (CARD_H + CARD_GAP)
        revealed = shown[i] if i < len(shown) else None
        known = revealed or (key[i] if key is not None else None)
        kind = known or "unknown"
        state = f"revealed {revealed}" if revealed else (f"hidden, {known}" if known else "hidden")
        shapes = [
            tag(
                "rect",
                x=x,
                y=y,
                width=CARD_W,
                height=CARD_H,
                rx=5,
                class_=f"card card-{kind}" + (" revealed" if revealed else " covered"),
            ),
            tag("text", word, x=x + CARD_W / 2, y=y + CARD_H / 2 + 5, class_="word"),
        ]
        if revealed:
            shapes.append(tag("text", "\u2713", x=x + CARD_W - 10, y=y + 14, class_="tick"))
        body.append(
            labelled(
                "g",
                f"{i + 1}. {word}: {state}",
                shapes,
                role="img",
                class_="board-cell",
                data_cell=str(i + 1),
                data_word=word,
                data_card=kind,
                data_revealed="yes" if revealed else "no",
            )
        )
    width = margin * 2 + cols * CARD_W + (cols - 1) * CARD_GAP
    height = margin * 2 + rows * CARD_H + (rows - 1) * CARD_GAP
    return body, width, height
