"""GameBench's boards drawn as SVG from the board data of a frame (made in each game's
projection from the seat's own view): Santorini's towers and pawns, Codenames' cards as
the seat may know them. A frame with no board is shown as its text."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

from markupsafe import Markup

from cli.web.draw import chat_log, figure, labelled, tag, word_cards
from projections.metrics.tables import plural

CELL = 64
"""The side of a Santorini square, in SVG units."""
MARGIN = 22


def draw(frame: dict[str, Any], meta: Mapping[str, Any]) -> Markup | None:
    """The drawing of a GameBench frame, or None when the frame holds no board."""
    board = frame.get("board")
    if not isinstance(board, dict):
        return None
    fn = DRAWINGS.get(str(board.get("game")))
    return fn(board, str(frame.get("text", ""))) if fn is not None else None


# ---- Santorini -------------------------------------------------------------------------------

OWNER = {"A": "player 0", "B": "player 0", "X": "player 1", "Y": "player 1"}
"""Santorini's pawns: A and B are the first player's (seat 0), X and Y the second's."""


def _santorini(board: dict[str, Any], text: str) -> Markup:
    heights: list[list[int]] = board["heights"]
    at = {tuple(rc): p for p, rc in board["pawns"].items() if rc is not None}
    body: list[Markup] = []
    size = len(heights)
    for r in range(size):
        for c in range(size):
            h = heights[r][c]
            x, y = MARGIN + c * CELL, MARGIN + r * CELL
            shapes = [
                tag("rect", x=x, y=y, width=CELL, height=CELL, class_="cell"),
            ]
            # One nested square a level, a dome (level 4) as a blue disc on top.
            for level in range(min(h, 3)):
                inset = 6 + level * 7
                shapes.append(
                    tag(
                        "rect",
                        x=x + inset,
                        y=y + inset,
                        width=CELL - 2 * inset,
                        height=CELL - 2 * inset,
                        class_=f"level level-{level + 1}",
                    )
                )
            if h >= 4:
                shapes.append(tag("circle", cx=x + CELL / 2, cy=y + CELL / 2, r=14, class_="dome"))
            pawn = at.get((r, c))
            what = f"level {h}" + (" (domed)" if h >= 4 else "")
            if pawn is not None:
                side = "p0" if OWNER.get(pawn) == "player 0" else "p1"
                shapes.append(
                    tag("circle", cx=x + CELL / 2, cy=y + CELL / 2, r=13, class_=f"piece {side}")
                )
                shapes.append(
                    tag("text", pawn, x=x + CELL / 2, y=y + CELL / 2 + 5, class_=f"pawn {side}")
                )
                what += f", pawn {pawn} ({OWNER.get(pawn, '?')})"
            shapes.append(tag("text", str(h), x=x + 5, y=y + 13, class_="height"))
            body.append(
                labelled(
                    "g",
                    f"({r}, {c}): {what}",
                    shapes,
                    role="img",
                    class_="board-cell",
                    data_cell=f"{r},{c}",
                    data_height=h,
                    data_pawn=pawn or "",
                )
            )
    for i in range(size):
        body.append(
            tag("text", str(i), x=MARGIN / 2, y=MARGIN + i * CELL + CELL / 2 + 4, class_="axis")
        )
        body.append(
            tag("text", str(i), x=MARGIN + i * CELL + CELL / 2, y=MARGIN - 6, class_="axis")
        )
    placed = [f"{p} at ({rc[0]}, {rc[1]})" for p, rc in board["pawns"].items() if rc is not None]
    towers = sum(1 for row in heights for h in row if h)
    label = f"Santorini board, {size} by {size}: {towers} squares built on; pawns " + (
        ", ".join(placed) if placed else "not placed yet"
    )
    caption = [str(board.get("status") or "")]
    if board.get("last"):
        caption.append(f"Last: {board['last']}.")
    extent = MARGIN * 2 + size * CELL
    return figure(label, extent, extent, body, family="gamebench", caption=caption, text=text)


# ---- Codenames -------------------------------------------------------------------------------


def _codenames(board: dict[str, Any], text: str) -> Markup:
    words: list[str] = board["words"]
    shown: list[str | None] = board["shown"]
    body, width, height = word_cards(words, board.get("key"), shown, MARGIN)
    found = sum(1 for s in shown if s)
    who = ""
    if board.get("role"):
        who = f" as the {board['team']} {board['role']} sees it"
    label = f"Codenames board{who}: {len(words)} cards, {found} revealed"
    caption = []
    if board.get("clue"):
        team, word, number = board["clue"]
        caption.append(f"Last clue ({team}): {word}, {'unlimited' if number == 0 else number}")
    if board.get("winner"):
        caption.append(f"The {board['winner']} team won.")
    return figure(label, width, height, body, family="gamebench", caption=caption, text=text)


# ---- Sea Battle ------------------------------------------------------------------------------

SEA = 30
"""The side of a square of the sea chart."""

_ARROW = {"north": 0, "east": 90, "south": 180, "west": 270}


def _sea_battle(board: dict[str, Any], text: str) -> Markup:
    n = int(board["size"])
    up = bool(board.get("y_up"))

    def row(y: int) -> int:
        """The drawn row of a square's y (GameBench's y grows northwards, up the page)."""
        return n - 1 - y if up else y

    body: list[Markup] = [
        tag("rect", x=MARGIN, y=MARGIN, width=n * SEA, height=n * SEA, class_="water")
    ]
    rocks = {(x, y) for x, y in board["rocks"]}
    edge = {(x, y) for x in range(n) for y in range(n) if x in (0, n - 1) or y in (0, n - 1)}
    for x, y in sorted(rocks | edge):
        body.append(
            tag(
                "rect",
                x=MARGIN + x * SEA,
                y=MARGIN + row(y) * SEA,
                width=SEA,
                height=SEA,
                class_="rock",
            )
        )
    inner = sorted(rocks - edge)
    body.append(
        labelled(
            "g",
            "rocks at " + (", ".join(f"({x}, {y})" for x, y in inner) or "no square inside"),
            [],
            class_="sea-rocks",
        )
    )
    afloat = []
    for s in board["ships"]:
        if s["x"] is None:
            afloat.append(f"{s['ship']} sunk")
            body.append(
                labelled("g", f"ship {s['ship']} (team {s['team']}): sunk", [], class_="sea-ship")
            )
            continue
        cx, cy = MARGIN + s["x"] * SEA + SEA / 2, MARGIN + row(s["y"]) * SEA + SEA / 2
        hurt = f", damage {s['damage']} of {board['hull']}" if s.get("damage") is not None else ""
        label = f"ship {s['ship']} (team {s['team']}) at ({s['x']}, {s['y']}) heading {s['heading']}{hurt}"
        afloat.append(f"{s['ship']} at ({s['x']}, {s['y']}) {s['heading']}")
        mine = " mine" if s["ship"] == board.get("me") else ""
        hull = tag(
            "polygon",
            points="0,-12 9,10 0,5 -9,10",
            transform=f"translate({cx:g} {cy:g}) rotate({_ARROW.get(s['heading'], 0)})",
            class_=f"ship team-{s['team']}{mine}",
        )
        name = tag("text", s["ship"], x=f"{cx + 9:g}", y=f"{cy - 7:g}", class_="ship-name")
        body.append(
            labelled(
                "g",
                label,
                [hull, name],
                role="img",
                class_="sea-ship",
                data_ship=s["ship"],
                data_x=s["x"],
                data_y=s["y"],
                data_heading=s["heading"],
            )
        )
    for i in range(n):
        body.append(
            tag(
                "text",
                str(row(i)),
                x=MARGIN / 2,
                y=MARGIN + i * SEA + SEA / 2 + 4,
                class_="axis",
            )
        )
        body.append(tag("text", str(i), x=MARGIN + i * SEA + SEA / 2, y=MARGIN - 6, class_="axis"))
    label = f"Sea chart, {n} by {n}, edge of rock: " + "; ".join(afloat)
    caption = [
        f"Turn {board['turn']} of at most {board['max_turns']}"
        + (" (over)" if board.get("ended") else "")
    ]
    if board.get("me"):
        caption.append(f"You sail ship {board['me']} (outlined).")
    extent = MARGIN * 2 + n * SEA
    return figure(label, extent, extent, body, family="gamebench", caption=caption, text=text)


# ---- Hive ------------------------------------------------------------------------------------

HEX = 26
"""The radius of a Hive cell."""


def _hex_points(x: float, y: float, r: float) -> str:
    pts = []
    for k in range(6):
        a = math.pi / 180 * (60 * k - 30)
        pts.append(f"{x + r * math.cos(a):.1f},{y + r * math.sin(a):.1f}")
    return " ".join(pts)


def _hive(board: dict[str, Any], text: str) -> Markup:
    cells = board["cells"]
    where = [
        (HEX * math.sqrt(3) * (q + r / 2), HEX * 1.5 * r, q, r, s, p, bug)
        for q, r, s, p, bug in cells
    ]
    xs = [w[0] for w in where] or [0.0]
    ys = [w[1] for w in where] or [0.0]
    ox, oy = MARGIN + HEX - min(xs), MARGIN + HEX - min(ys)
    body: list[Markup] = []
    for x, y, q, r, s, p, bug in where:
        cx, cy = x + ox, y + oy
        label = f"({q}, {r}): player {s} {bug} {p}"
        body.append(
            labelled(
                "g",
                label,
                [
                    tag("polygon", points=_hex_points(cx, cy, HEX - 1), class_=f"hive p{s}"),
                    tag("text", p, x=f"{cx:.1f}", y=f"{cy + 5:.1f}", class_=f"hive-piece p{s}"),
                ],
                role="img",
                class_="board-cell",
                data_cell=f"{q},{r}",
                data_piece=p,
                data_owner=s,
            )
        )
    width = max(xs) - min(xs) + 2 * (MARGIN + HEX)
    height = max(ys) - min(ys) + 2 * (MARGIN + HEX)
    label = f"Hive board: {len(cells)} pieces placed" + (
        ": " + ", ".join(f"{p} of player {s} at ({q}, {r})" for q, r, s, p, _ in cells)
        if cells
        else ""
    )
    caption = [f"Player {i} hand: {', '.join(h) or 'empty'}" for i, h in enumerate(board["hands"])]
    caption.append(str(board.get("status") or ""))
    if board.get("last"):
        caption.append(f"Last: {board['last']}.")
    return figure(label, width, height, body, family="gamebench", caption=caption, text=text)


# ---- Pit -------------------------------------------------------------------------------------


def _pit(board: dict[str, Any], text: str) -> Markup:
    body: list[Markup] = []
    y = MARGIN
    width = 420.0
    offer = board.get("offer")
    if offer is not None:
        line = f"Standing offer: player {offer[0]} trades {plural(offer[1], 'card')}"
    else:
        line = "No standing offer"
    body.append(
        labelled(
            "g", line, [tag("text", line, x=MARGIN, y=y, class_="label-left")], class_="pit-offer"
        )
    )
    y += 14
    for seat, held in board["hands"]:
        me = " (you)" if seat == board.get("me") else ""
        cards = [k for k, n in held.items() for _ in range(n)]
        label = f"player {seat}{me} holds " + (
            ", ".join(f"{n} {k}" for k, n in held.items()) or "nothing"
        )
        shapes = [tag("text", f"Player {seat}{me}", x=MARGIN, y=y + 30, class_="label-left")]
        for i, kind in enumerate(cards):
            x = MARGIN + 110 + i * 30
            shapes.append(
                tag("rect", x=x, y=y + 6, width=28, height=40, rx=3, class_=f"pit-card kind-{kind}")
            )
            shapes.append(tag("text", kind[:2], x=x + 14, y=y + 31, class_="pit-kind"))
            width = max(width, x + 28 + MARGIN)
        body.append(labelled("g", label, shapes, role="img", class_="pit-hand", data_seat=seat))
        y += 50
    points = ", ".join(f"player {i} {p}" for i, p in enumerate(board["points"]))
    label = f"Pit table: {board['status']}; points {points}; {line.lower()}"
    return figure(
        label,
        width,
        y + MARGIN,
        body,
        family="gamebench",
        caption=[board["status"], "Points: " + points],
        text=text,
    )


# ---- Air, Land and Sea -----------------------------------------------------------------------

COL_W, ROW_H = 210, 22


def _als(board: dict[str, Any], text: str) -> Markup:
    body: list[Markup] = []
    theatres = board["theatres"]
    tallest = max([1] + [len(t["cards"][s]) for t in theatres for s in (0, 1)])
    height = MARGIN * 2 + 40 + 2 * (tallest * ROW_H + 30)
    for i, t in enumerate(theatres):
        x = MARGIN + i * (COL_W + 10)
        parts = [
            tag(
                "rect",
                x=x,
                y=MARGIN,
                width=COL_W,
                height=height - 2 * MARGIN,
                rx=6,
                class_=f"theatre held-{t['control']}",
            ),
            tag(
                "text",
                f"{t['name']} (player {t['control']} holds)",
                x=x + 8,
                y=MARGIN + 18,
                class_="theatre-name",
            ),
        ]
        said = []
        for s in (0, 1):
            top = MARGIN + 30 + s * (tallest * ROW_H + 30)
            parts.append(
                tag(
                    "text",
                    f"Player {s}: strength {t['strength'][s]}",
                    x=x + 8,
                    y=top + 14,
                    class_="label-left",
                )
            )
            for k, card in enumerate(t["cards"][s]):
                y = top + 20 + k * ROW_H
                down = card.startswith("face-down")
                parts.append(
                    tag(
                        "rect",
                        x=x + 8,
                        y=y,
                        width=COL_W - 16,
                        height=ROW_H - 3,
                        rx=3,
                        class_="als-card down" if down else f"als-card p{s}",
                    )
                )
                parts.append(tag("text", card, x=x + 14, y=y + 14, class_="als-text"))
            said.append(
                f"player {s} strength {t['strength'][s]} ({', '.join(t['cards'][s]) or 'no cards'})"
            )
        label = f"{t['name']}: {'; '.join(said)}; held by player {t['control']}"
        body.append(
            labelled("g", label, parts, role="img", class_="als-theatre", data_theatre=t["name"])
        )
    caption = [f"{board['status']}; points {board['points'][0]}-{board['points'][1]}"]
    for s, hand in board["hands"]:
        me = " (you)" if s == board.get("me") else ""
        caption.append(f"Player {s}{me} hand: {', '.join(hand) or 'empty'}")
    label = "Air, Land and Sea: " + "; ".join(
        f"{t['name']} held by player {t['control']}" for t in theatres
    )
    width = MARGIN * 2 + len(theatres) * (COL_W + 10)
    return figure(label, width, height, body, family="gamebench", caption=caption, text=text)


# ---- Arctic Scavengers -----------------------------------------------------------------------


def _arctic(board: dict[str, Any], text: str) -> Markup:
    body: list[Markup] = []
    y = MARGIN
    width = 460.0
    for s, people in enumerate(board["tribes"]):
        me = " (you)" if s == board.get("me") else ""
        hand = board["hands"].get(str(s))
        pile = board["skirmish"][s] if s < len(board["skirmish"]) else []
        parts = [
            tag(
                "text",
                f"Player {s}{me}: tribe of {people}",
                x=MARGIN,
                y=y + 14,
                class_="theatre-name",
            )
        ]
        said = [f"player {s}{me}: tribe of {people}"]
        rows = [("hand", hand)] if hand is not None else []
        rows.append(("skirmish", pile))
        for k, (what, cards) in enumerate(rows):
            top = y + 22 + k * 26
            parts.append(tag("text", what, x=MARGIN, y=top + 15, class_="label-left"))
            for i, card in enumerate(cards):
                x = MARGIN + 70 + i * 84
                parts.append(
                    tag("rect", x=x, y=top, width=80, height=22, rx=3, class_=f"als-card p{s % 2}")
                )
                parts.append(tag("text", card[:13], x=x + 4, y=top + 15, class_="als-text"))
                width = max(width, x + 80 + MARGIN)
            said.append(f"{what} {', '.join(cards) or 'empty'}")
        body.append(
            labelled("g", "; ".join(said), parts, role="img", class_="arctic-tribe", data_seat=s)
        )
        y += 30 + 26 * len(rows)
    label = "Arctic Scavengers: " + ", ".join(
        f"player {s} tribe of {p}" for s, p in enumerate(board["tribes"])
    )
    return figure(
        label, width, y + MARGIN, body, family="gamebench", caption=[board["status"]], text=text
    )


# ---- Are You the Traitor? -------------------------------------------------------------------

_GOOD_ROLES = ("good wizard", "key holder", "guard")


def _traitor(board: dict[str, Any], text: str) -> Markup:
    body: list[Markup] = [tag("circle", cx=210, cy=170, r=66, class_="round-table")]
    note = str(board["status"]).split(":")[0].split(" of ")[0]
    body.append(tag("text", note, x=210, y=174, class_="table-note"))
    players = board["players"]
    said = []
    for i, p in enumerate(players):
        a = math.pi * (-0.5 + 2 * i / len(players))
        cx, cy = 210 + 128 * math.cos(a), 170 + 128 * math.sin(a)
        role = p["role"]
        if role:
            team = "good" if role in _GOOD_ROLES else "evil"
        else:
            team = "unknown"
        what = role or ("a wizard, good or evil" if p["wizard"] else "role unknown")
        if role and p["wizard"] and "wizard" not in role:
            what += " (a wizard)"
        who = f"Player {p['name']}" + (" (you)" if p["you"] else "")
        if p.get("seat") is not None:
            who += f", seat {p['seat']}"
        shapes = [
            tag(
                "circle",
                cx=f"{cx:.1f}",
                cy=f"{cy:.1f}",
                r=26,
                class_=f"player team-{team}" + (" mine" if p["you"] else ""),
            ),
            tag("text", p["name"], x=f"{cx:.1f}", y=f"{cy + 6:.1f}", class_="player-name"),
            tag("text", what, x=f"{cx:.1f}", y=f"{cy + 42:.1f}", class_="player-role"),
        ]
        if p["wizard"]:
            shapes.append(
                tag("text", "\u2605 wizard", x=f"{cx:.1f}", y=f"{cy - 32:.1f}", class_="wizard")
            )
        said.append(f"{who}: {what}")
        body.append(
            labelled(
                "g",
                f"{who}: {what}",
                shapes,
                role="img",
                class_="board-cell traitor-player",
                data_name=p["name"],
                data_role=role or "",
            )
        )
    label = "The table, as the round names stand: " + "; ".join(said)
    caption = [str(board["status"])]
    if board.get("me"):
        caption.append(
            f"You are Player {board['me']}, the {board['my_role']} ({board['team']} team)."
        )
    for h in board["treasure"]:
        who = "Your" if h["you"] else f"Seat {h['seat']}'s"
        cards = ", ".join(h["cards"]) or "none"
        caption.append(f"{who} treasure: {cards} ({h['points']} points)")
    chat = chat_log(
        board["messages"],
        board.get("me"),
        earlier=int(board.get("earlier") or 0),
        label="The talk, round by round",
    )
    return figure(
        label, 420, 360, body, family="gamebench", caption=caption, text=text, extra=[chat]
    )


# ---- Two Rooms and a Boom --------------------------------------------------------------------

ROOM_W, TOKEN = 250, 58


def _two_rooms(board: dict[str, Any], text: str) -> Markup:
    rooms = board["rooms"]
    per_row = 4
    rows = max([1] + [-(-len(r) // per_row) for r in rooms])
    height = MARGIN * 2 + 30 + rows * (TOKEN + 24)
    body: list[Markup] = []
    said_rooms = []
    for k, people in enumerate(rooms):
        x0 = MARGIN + k * (ROOM_W + 16)
        parts = [
            tag(
                "rect",
                x=x0,
                y=MARGIN,
                width=ROOM_W,
                height=height - 2 * MARGIN,
                rx=8,
                class_="room",
            ),
            tag("text", f"Room {k}", x=x0 + 10, y=MARGIN + 18, class_="theatre-name"),
        ]
        said = []
        for i, p in enumerate(people):
            r, c = divmod(i, per_row)
            cx = x0 + 10 + TOKEN / 2 + c * TOKEN
            cy = MARGIN + 30 + TOKEN / 2 + r * (TOKEN + 24)
            colour = p.get("colour")
            role = p.get("role")
            card = "card unknown"
            if colour:
                card = f"{colour} card" + (f", the {role}" if role else "")
            who = p["name"] + (" (you)" if p["you"] else "") + (" (leader)" if p["leader"] else "")
            if p.get("seat") is not None:
                who += f", seat {p['seat']}"
            shapes = [
                tag(
                    "circle",
                    cx=cx,
                    cy=cy,
                    r=20,
                    class_=f"player colour-{colour or 'unknown'}" + (" mine" if p["you"] else ""),
                ),
                tag("text", p["name"], x=cx, y=cy + 6, class_="player-name"),
            ]
            if p["leader"]:
                shapes.append(tag("text", "\u265b", x=cx + 16, y=cy - 14, class_="leader"))
            if role:
                shapes.append(tag("text", role, x=cx, y=cy + 34, class_="player-role"))
            said.append(f"{who}: {card}")
            body_parts = labelled(
                "g",
                f"{who}: {card}",
                shapes,
                role="img",
                class_="board-cell room-player",
                data_name=p["name"],
                data_room=k,
                data_colour=colour or "",
            )
            parts.append(body_parts)
        said_rooms.append(f"room {k}: " + ("; ".join(said) or "nobody"))
        body.append(
            labelled("g", f"Room {k}: {len(people)} players", parts, class_="room-box", data_room=k)
        )
    label = "Two Rooms and a Boom: " + " | ".join(said_rooms)
    caption = [board["status"]]
    if board.get("me"):
        caption.append(f"You are player {board['me']} (outlined).")
    chat = chat_log(
        [
            {**m, "where": f"round {m['round']}, room {m['room']}"} if m["who"] != "GAME" else m
            for m in board["messages"]
        ],
        board.get("me"),
        earlier=int(board.get("earlier") or 0),
        label="What was said in the rooms the viewer heard",
    )
    width = MARGIN * 2 + 2 * ROOM_W + 16
    return figure(
        label, width, height, body, family="gamebench", caption=caption, text=text, extra=[chat]
    )


DRAWINGS: dict[str, Callable[[dict[str, Any], str], Markup]] = {
    "traitor": _traitor,
    "two_rooms": _two_rooms,
    "arctic_scavengers": _arctic,
    "air_land_sea": _als,
    "pit": _pit,
    "hive": _hive,
    "santorini": _santorini,
    "codenames": _codenames,
    "sea_battle": _sea_battle,
}
"""The drawing of each GameBench game that has one, by the name its frames give."""
