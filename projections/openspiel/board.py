"""The board of an OpenSpiel position, read from the very string a seat's prompt shows.

OpenSpiel draws most boards as text; a drawing made from that text shows a seat exactly what
its prompt tells it and nothing more. Each reader below knows one game's layout and gives the
cells row by row, top row first, with the names the game's moves use for rows and columns.
A string a reader does not recognise gives None (the viewer then shows the string itself).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

Board = dict[str, Any]
"""`{"game", "shape" ("square" | "hex"), "rows": [[cell, ...], ...], "row_names",
"col_names", "pieces": {mark: meaning}, "to_play"}`; an empty square is ".", a cell a
one-character mark of the game's own string (chess: the FEN letter)."""


def short_name(game_string: str) -> str:
    """The game's name without its parameters (`breakthrough(rows=6)` -> `breakthrough`)."""
    return game_string.partition("(")[0].strip()


def _plain(text: str, rows: int, cols: int) -> list[list[str]] | None:
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if len(lines) != rows or any(len(ln) != cols for ln in lines):
        return None
    return [list(ln) for ln in lines]


def _tic_tac_toe(text: str) -> Board | None:
    grid = _plain(text, 3, 3)
    if grid is None:
        return None
    return {
        "rows": grid,
        "row_names": [str(r) for r in range(3)],
        "col_names": [str(c) for c in range(3)],
        "pieces": {"x": "x (player 0)", "o": "o (player 1)"},
        "cell_name": "(row,column)",
    }


def _connect_four(text: str) -> Board | None:
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if not lines or len({len(ln) for ln in lines}) != 1:
        return None
    grid = [list(ln) for ln in lines]
    if any(ch not in ".xo" for row in grid for ch in row):
        return None
    return {
        "rows": grid,
        "row_names": [str(len(grid) - r) for r in range(len(grid))],
        "col_names": [str(c) for c in range(len(grid[0]))],
        "pieces": {"x": "x (player 0)", "o": "o (player 1)"},
        "cell_name": "column",
    }


_LABELLED = re.compile(r"^\s*(\d+)\s?(.+?)\s*$")


def _labelled(text: str, pieces: dict[str, str], spaced: bool) -> Board | None:
    """Rows led by their number (and, for othello, closed by it), then a line of column
    letters: breakthrough, checkers, othello."""
    lines = [ln for ln in text.splitlines() if ln.strip()]
    cols: list[str] | None = None
    for ln in lines:
        letters = ln.split() if spaced else list(ln.strip())
        if letters and all(len(x) == 1 and x.isalpha() and x.islower() for x in letters):
            cols = letters
    if cols is None:
        return None
    rows: list[list[str]] = []
    names: list[str] = []
    for ln in lines:
        if spaced:
            m = _LABELLED.match(ln)
            if m is None:
                continue
            cells = m.group(2).split()
            if cells and cells[-1] == m.group(1):
                cells = cells[:-1]
            cells = ["." if c == "-" else c for c in cells]
            label = m.group(1)
        else:
            # The row's number, then one character a column (a king in checkers is a digit).
            label, body = ln[: len(ln) - len(cols)].strip(), ln[len(ln) - len(cols) :]
            if not label.isdigit():
                continue
            cells = list(body)
        rows.append(cells)
        names.append(label)
    if not rows or any(len(r) != len(cols) for r in rows):
        return None
    if any(c != "." and c not in pieces for r in rows for c in r):
        return None
    return {"rows": rows, "row_names": names, "col_names": cols, "pieces": pieces}


def _breakthrough(text: str) -> Board | None:
    return _labelled(text, {"b": "black (player 0)", "w": "white (player 1)"}, spaced=False)


def _checkers(text: str) -> Board | None:
    return _labelled(
        text,
        {
            "o": "black man (player 0)",
            "+": "white man (player 1)",
            "8": "black king (player 0)",
            "*": "white king (player 1)",
        },
        spaced=False,
    )


def _othello(text: str) -> Board | None:
    board = _labelled(text, {"x": "black (player 0)", "o": "white (player 1)"}, spaced=True)
    first = text.strip().splitlines()[0] if text.strip() else ""
    if board is not None and "to play" in first:
        board["to_play"] = first.rstrip(":")
    return board


_GO_ROW = re.compile(r"^\s*(\d+) ([+XO]+)\s*$")


def _go(text: str) -> Board | None:
    rows: list[list[str]] = []
    names: list[str] = []
    cols: list[str] = []
    for ln in text.splitlines():
        m = _GO_ROW.match(ln)
        if m is not None:
            rows.append(["." if c == "+" else c for c in m.group(2)])
            names.append(m.group(1))
        elif ln.strip().isalpha() and ln.strip().isupper() and rows:
            cols = list(ln.strip())
    if not rows or len(cols) != len(rows[0]) or any(len(r) != len(cols) for r in rows):
        return None
    return {
        "rows": rows,
        "row_names": names,
        "col_names": cols,
        "pieces": {"X": "black (player 0)", "O": "white (player 1)"},
    }


def _hex(text: str) -> Board | None:
    lines = [ln for ln in text.splitlines() if ln.strip()]
    rows = [ln.split() for ln in lines]
    if not rows or any(len(r) != len(rows[0]) for r in rows):
        return None
    # OpenSpiel marks stones joined to an edge with other letters; the owner is what counts.
    owner = {"x": "x", "X": "x", "y": "x", "z": "x", "o": "o", "O": "o", "p": "o", "q": "o"}
    grid = [[owner.get(c, ".") if c != "." else "." for c in r] for r in rows]
    return {
        "rows": grid,
        "row_names": [str(r + 1) for r in range(len(grid))],
        "col_names": [chr(ord("a") + c) for c in range(len(grid[0]))],
        "pieces": {"x": "x (player 0)", "o": "o (player 1)"},
        "shape": "hex",
    }


_FEN_PIECES = {
    "K": "white king",
    "Q": "white queen",
    "R": "white rook",
    "B": "white bishop",
    "N": "white knight",
    "P": "white pawn",
    "k": "black king",
    "q": "black queen",
    "r": "black rook",
    "b": "black bishop",
    "n": "black knight",
    "p": "black pawn",
}


def _chess(text: str) -> Board | None:
    fields = text.strip().split()
    if not fields:
        return None
    ranks = fields[0].split("/")
    if len(ranks) != 8:
        return None
    rows: list[list[str]] = []
    for rank in ranks:
        row: list[str] = []
        for ch in rank:
            if ch.isdigit():
                row.extend("." * int(ch))
            elif ch in _FEN_PIECES:
                row.append(ch)
            else:
                return None
        if len(row) != 8:
            return None
        rows.append(row)
    board: Board = {
        "rows": rows,
        "row_names": [str(8 - r) for r in range(8)],
        "col_names": list("abcdefgh"),
        "pieces": dict(_FEN_PIECES),
    }
    if len(fields) > 1:
        board["to_play"] = "white to play" if fields[1] == "w" else "black to play"
    return board


# ---- the poker family: cards and chips -------------------------------------------------------

_KUHN = "JQK"
_LEDUC = ("J", "J", "Q", "Q", "K", "K")
_FIELD = re.compile(r"\[([A-Za-z0-9 ]+): ?([^\]]*)\]")


def _kuhn(text: str) -> Board | None:
    """Kuhn poker's string: the seat's card (0 jack, 1 queen, 2 king), then p and b."""
    text = text.strip()
    if not text or not text[0].isdigit() or int(text[0]) > 2 or set(text[1:]) - set("pb"):
        return None
    history = text[1:]
    words = {"p": "pass", "b": "bet"}
    return {
        "shape": "cards",
        "hand": [_KUHN[int(text[0])]],
        "public": [],
        "pot": 2 + history.count("b"),
        "money": None,
        "actions": [f"player {i % 2}: {words[a]}" for i, a in enumerate(history)],
    }


def _fields(text: str) -> dict[str, str]:
    return {k.strip(): v.strip() for k, v in _FIELD.findall(text)}


def _leduc(text: str) -> Board | None:
    f = _fields(text)
    if "Private" not in f or "Pot" not in f:
        return None
    words = {"0": "fold", "1": "call", "2": "raise"}
    actions = []
    for rnd in ("Round1", "Round2"):
        for a in f.get(rnd, "").split():
            actions.append(f"round {rnd[-1]}: {words.get(a, a)}")
    public = f.get("Public", "")
    return {
        "shape": "cards",
        "hand": [_LEDUC[int(f["Private"])]] if f["Private"].isdigit() else [],
        "public": [_LEDUC[int(public)]] if public.isdigit() else [],
        "pot": int(f["Pot"]) if f["Pot"].isdigit() else None,
        "money": [int(m) for m in f.get("Money", "").split() if m.lstrip("-").isdigit()],
        "actions": actions,
    }


def _cards(text: str) -> list[str]:
    return [text[i : i + 2] for i in range(0, len(text.replace(" ", "")), 2)]


def _universal(text: str) -> Board | None:
    f = _fields(text)
    if "Private" not in f or "Pot" not in f:
        return None
    return {
        "shape": "cards",
        "hand": _cards(f["Private"].replace(" ", "")),
        "public": _cards(f.get("Public", "").replace(" ", "")),
        "pot": int(f["Pot"]) if f["Pot"].isdigit() else None,
        "money": [int(m) for m in f.get("Money", "").split() if m.lstrip("-").isdigit()],
        "actions": [a for a in re.split(r"[|]", f.get("Sequences", "")) if a],
    }


READERS: dict[str, Callable[[str], Board | None]] = {
    "kuhn_poker": _kuhn,
    "leduc_poker": _leduc,
    "universal_poker": _universal,
    "tic_tac_toe": _tic_tac_toe,
    "connect_four": _connect_four,
    "breakthrough": _breakthrough,
    "checkers": _checkers,
    "othello": _othello,
    "go": _go,
    "hex": _hex,
    "chess": _chess,
}
"""The games whose string is a board this module can read, by OpenSpiel's short name."""


def board_of(game_string: str, text: str) -> Board | None:
    """The board the string `text` of a game shows, or None if it shows none this module
    reads (a game of hidden information, a string of an unexpected shape)."""
    game = short_name(game_string)
    reader = READERS.get(game)
    if reader is None:
        return None
    board = reader(text)
    if board is None:
        return None
    board.setdefault("shape", "square")
    board.setdefault("to_play", None)
    board.setdefault("cell_name", "algebraic")
    board["game"] = game
    return board
