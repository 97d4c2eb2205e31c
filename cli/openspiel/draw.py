"""OpenSpiel boards drawn as SVG from the board a frame read out of the seat's own string
(`projections.openspiel.board`); a frame with no board is shown as its text."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from markupsafe import Markup

from cli.web.draw import figure, labelled, tag

CELL = 40
"""The side of a square, in SVG units."""
MARGIN = 22
"""Room for the row and column names."""

TITLES = {
    "tic_tac_toe": "Tic-tac-toe",
    "connect_four": "Connect Four",
    "breakthrough": "Breakthrough",
    "checkers": "Checkers",
    "othello": "Othello",
    "go": "Go",
    "hex": "Hex",
    "chess": "Chess",
}

FIRST = {
    "connect_four": "x",
    "hex": "x",
    "othello": "x",
    "breakthrough": "b",
    "go": "X",
    "checkers": "o8",
}
"""The marks of player 0's pieces, by game (the others are player 1's)."""

_CHESS_GLYPHS = {
    "K": "\u2654",
    "Q": "\u2655",
    "R": "\u2656",
    "B": "\u2657",
    "N": "\u2658",
    "P": "\u2659",
    "k": "\u265a",
    "q": "\u265b",
    "r": "\u265c",
    "b": "\u265d",
    "n": "\u265e",
    "p": "\u265f",
}


def cell_name(board: Mapping[str, Any], r: int, c: int) -> str:
    """The name the game's moves give the cell at row `r`, column `c` (counted from the top
    left of the drawing)."""
    rows, cols = board["row_names"], board["col_names"]
    if board.get("cell_name") == "(row,column)":
        return f"({rows[r]},{cols[c]})"
    if board.get("cell_name") == "column":
        return f"column {cols[c]}, row {rows[r]} from the bottom"
    return f"{cols[c]}{rows[r]}"


def _piece(game: str, mark: str, x: float, y: float) -> list[Markup]:
    """The shapes of one piece centred at (x, y)."""
    if game == "chess":
        glyph = _CHESS_GLYPHS.get(mark, mark)
        return [tag("text", glyph, x=f"{x:g}", y=f"{y + 11:g}", class_="piece glyph")]
    if game == "tic_tac_toe":
        return [tag("text", mark.upper(), x=f"{x:g}", y=f"{y + 9:g}", class_=f"piece mark-{mark}")]
    side = "p0" if mark in FIRST.get(game, "") else "p1"
    out = [tag("circle", cx=f"{x:g}", cy=f"{y:g}", r=f"{CELL * 0.36:g}", class_=f"piece {side}")]
    if game == "checkers" and mark in ("8", "*"):
        out.append(tag("text", "K", x=f"{x:g}", y=f"{y + 5:g}", class_=f"king {side}"))
    return out


def _hexagon(x: float, y: float, r: float) -> str:
    pts = []
    for k in range(6):
        a = math.pi / 180 * (60 * k - 30)
        pts.append(f"{x + r * math.cos(a):.1f},{y + r * math.sin(a):.1f}")
    return " ".join(pts)


POKER = {"kuhn_poker": "Kuhn poker", "leduc_poker": "Leduc poker", "universal_poker": "Poker"}

_SUITS = {"s": "\u2660", "h": "\u2665", "d": "\u2666", "c": "\u2663"}


def _card(x: float, y: float, card: str, cls: str) -> list[Markup]:
    face = card[0] + _SUITS.get(card[1:], card[1:]) if len(card) > 1 else card
    red = " red" if card[1:] in ("h", "d") else ""
    return [
        tag("rect", x=x, y=y, width=44, height=62, rx=5, class_=f"playing-card {cls}"),
        tag("text", face, x=x + 22, y=y + 38, class_=f"card-face{red}"),
    ]


def _cards(board: dict[str, Any], text: str) -> Markup:
    """A poker seat's table: its cards, the public cards, the pot and the chips."""
    body: list[Markup] = []
    hand, public = list(board["hand"]), list(board["public"])
    shapes: list[Markup] = []
    for i, card in enumerate(hand):
        shapes += _card(16 + i * 50, 30, card, "hand")
    body.append(tag("text", "Your cards", x=16, y=20, class_="label-left"))
    body.append(
        labelled(
            "g",
            "your cards: " + (", ".join(hand) or "none"),
            shapes,
            role="img",
            class_="poker-hand",
        )
    )
    x0 = 40 + max(1, len(hand)) * 50
    shapes = []
    for i, card in enumerate(public):
        shapes += _card(x0 + i * 50, 30, card, "public")
    body.append(tag("text", "On the table", x=x0, y=20, class_="label-left"))
    body.append(
        labelled(
            "g",
            "public cards: " + (", ".join(public) or "none"),
            shapes,
            role="img",
            class_="poker-public",
        )
    )
    x1 = x0 + max(1, len(public)) * 50 + 30
    pot = board.get("pot")
    chips = [
        tag("circle", cx=x1 + 22, cy=78 - 7 * k, r=18, class_="chip-disc")
        for k in range(min(5, max(1, int(pot or 0) // 2 + 1)))
    ]
    chips.append(tag("text", f"pot {pot}", x=x1 + 22, y=112, class_="pot"))
    body.append(labelled("g", f"pot: {pot} chips", chips, role="img", class_="poker-pot"))
    money = board.get("money")
    if money:
        label = "chips: " + ", ".join(f"player {i} {m}" for i, m in enumerate(money))
        body.append(
            labelled(
                "g",
                label,
                [tag("text", label, x=16, y=130, class_="label-left")],
                class_="poker-money",
            )
        )
    game = str(board.get("game", ""))
    actions = list(board.get("actions") or [])
    title = f"{POKER.get(game, game)} table: your cards " + (", ".join(hand) or "none")
    title += f"; public {', '.join(public) or 'none'}; pot {pot}"
    caption = ["Actions: " + ("; ".join(actions) if actions else "none yet")]
    return figure(title, x1 + 80, 140, body, family="openspiel", caption=caption, text=text)


def draw(frame: dict[str, Any], meta: Mapping[str, Any]) -> Markup | None:
    """The board of an OpenSpiel frame, or None when the frame holds no board."""
    board = frame.get("board")
    if not isinstance(board, dict):
        return None
    if board.get("shape") == "cards":
        return _cards(board, str(frame.get("text", "")))
    game = str(board["game"])
    rows: list[list[str]] = board["rows"]
    n_rows, n_cols = len(rows), len(rows[0])
    pieces: Mapping[str, str] = board["pieces"]
    hexes = board.get("shape") == "hex"
    body: list[Markup] = []
    taken: list[str] = []
    step_x = CELL
    step_y = CELL * (0.87 if hexes else 1)
    for r, row in enumerate(rows):
        shift = r * CELL / 2 if hexes else 0
        for c, mark in enumerate(row):
            x = MARGIN + shift + c * step_x + CELL / 2
            y = MARGIN + r * step_y + CELL / 2
            name = cell_name(board, r, c)
            what = pieces.get(mark, mark) if mark != "." else "empty"
            if mark != ".":
                taken.append(f"{name}: {what}")
            dark = (r + c) % 2 == 1 and game in ("chess", "checkers", "breakthrough")
            shapes: list[Markup] = []
            if hexes:
                shapes.append(tag("polygon", points=_hexagon(x, y, CELL / 1.75), class_="cell"))
            else:
                shapes.append(
                    tag(
                        "rect",
                        x=f"{x - CELL / 2:g}",
                        y=f"{y - CELL / 2:g}",
                        width=f"{CELL}",
                        height=f"{CELL}",
                        class_="cell dark" if dark else "cell",
                    )
                )
            if mark != ".":
                shapes.extend(_piece(game, mark, x, y))
            body.append(
                labelled(
                    "g",
                    f"{name}: {what}",
                    shapes,
                    role="img",
                    class_="board-cell",
                    data_cell=name,
                    data_mark=mark,
                )
            )
    for r, name in enumerate(board["row_names"]):
        x = MARGIN / 2 + (r * CELL / 2 if hexes else 0)
        y = MARGIN + r * step_y + CELL / 2 + 4
        body.append(tag("text", name, x=f"{x:g}", y=f"{y:g}", class_="axis", aria_hidden="true"))
    for c, name in enumerate(board["col_names"]):
        x = MARGIN + c * CELL + CELL / 2
        body.append(
            tag("text", name, x=f"{x:g}", y=f"{MARGIN - 6:g}", class_="axis", aria_hidden="true")
        )
    width = MARGIN * 2 + n_cols * CELL + (n_rows * CELL / 2 if hexes else 0)
    height = MARGIN * 2 + n_rows * step_y
    title = TITLES.get(game, game)
    label = f"{title} board, {n_rows} rows by {n_cols} columns: " + (
        "; ".join(taken) if taken else "empty"
    )
    caption = [str(board["to_play"])] if board.get("to_play") else []
    return figure(
        label,
        width,
        height,
        body,
        family="openspiel",
        caption=caption,
        text=str(frame.get("text", "")),
    )
