"""Boards for a person at the terminal, as rich renderables made from the same board data
the viewer draws (the `board` of a frame from `extras["frames"]`, built from the events the
seat has seen and nothing else): GameBench's Santorini and Sea Battle grids, Codenames' cards
as the seat may know them, Hive's pieces, the hands of Pit, Air, Land and Sea and Arctic
Scavengers, the tables of Are You the Traitor? and Two Rooms with their talk; TextArena's
conversations (and Colonel Blotto's allocations, the prisoner's dilemma's payoffs,
TextArena Codenames' board); OpenSpiel's boards as text grids and its
poker tables (`projections.openspiel.board`, read from the seat's own string); PACT's
bargaining (the two parties, the conversation round by round with each round's sealed quotes)
from its frame and the lists the seat's frame carries (`agents.human.agent.seat_frame`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from projections.metrics.tables import plural

TALK = 12
"""The latest messages of a conversation shown at the terminal (the prompt, `?`, has all)."""


def drawing(frame: Any) -> RenderableType | None:
    """The renderable of a frame's board (or of the frame itself, for a family drawn from
    its frame: PACT), or None when there is none to draw."""
    fn: Callable[[dict[str, Any]], RenderableType | None] | None
    if isinstance(frame, dict) and "board" not in frame and frame.get("kind") in FRAMES:
        board: Any = frame
        fn = FRAMES[str(frame["kind"])]
    else:
        board = frame.get("board") if isinstance(frame, dict) else None
        if not isinstance(board, dict):
            return None
        fn = DRAWN.get(str(board.get("game")))
    if fn is None:
        return None
    try:
        return fn(board)
    except (KeyError, IndexError, TypeError, ValueError):  # a board of another shape
        return None


def _row(table: Table, *cells: str | Text, style: str = "") -> None:
    """A table row of plain text: a string from a frame is never read as rich markup."""
    table.add_row(*(c if isinstance(c, Text) else Text(c) for c in cells), style=style)


def _grid(title: str, size: int) -> Table:
    table = Table(title=title, title_justify="left", show_lines=True, padding=(0, 1))
    table.add_column("")
    for c in range(size):
        table.add_column(str(c), justify="center")
    return table


def _santorini(b: dict[str, Any]) -> RenderableType:
    heights = b["heights"]
    at = {tuple(rc): p for p, rc in b["pawns"].items() if rc is not None}
    table = _grid("Santorini (level 0-3, 4 domed; pawns A B against X Y)", len(heights))
    for r, row in enumerate(heights):
        cells = []
        for c, h in enumerate(row):
            pawn = at.get((r, c))
            style = "bold blue" if pawn in ("A", "B") else "bold red"
            cell = Text(str(h) if h < 4 else "4 dome")
            if pawn:
                cell.append(f" {pawn}", style=style)
            cells.append(cell)
        _row(table, str(r), *cells)
    lines = [Text(str(b.get("status") or ""))]
    if b.get("last"):
        lines.append(Text(f"Last: {b['last']}."))
    return Group(table, *lines)


_COLOUR = {"red": "red", "blue": "blue", "neutral": "yellow", "assassin": "reverse"}


def _codenames(b: dict[str, Any]) -> RenderableType:
    table = _word_cards(b["words"], b.get("key"), b["shown"])
    lines = []
    if b.get("role"):
        lines.append(Text(f"You are the {b['team']} {b['role']}."))
    if b.get("clue"):
        team, word, number = b["clue"]
        lines.append(Text(f"Last clue ({team}): {word}, {'unlimited' if number == 0 else number}"))
    return Group(table, *lines)


def _word_cards(words: list[str], key: list[str] | None, shown: list[str | None]) -> Table:
    """Codenames' cards five to a row, each coloured as the seat may know it: a revealed
    card's colour in brackets, a colour of the key (a spymaster's) in parentheses."""
    table = Table(show_header=False, show_lines=True, padding=(0, 1))
    for _ in range(5):
        table.add_column()
    row: list[Text] = []
    for i, word in enumerate(words):
        revealed = shown[i] if i < len(shown) else None
        known = revealed or (key[i] if key is not None else None)
        cell = Text(f"{i + 1}. {word}", style=_COLOUR.get(known or "", ""))
        if revealed:
            cell.append(f" [{revealed}]", style="bold")
        elif known:
            cell.append(f" ({known})")
        row.append(cell)
        if len(row) == 5:
            table.add_row(*row)
            row = []
    if row:
        table.add_row(*row, *[Text("")] * (5 - len(row)))
    return table


_ARROW = {"north": "^", "east": ">", "south": "v", "west": "<"}


def _sea_battle(b: dict[str, Any]) -> RenderableType:
    n = int(b["size"])
    rocks = {(x, y) for x, y in b["rocks"]}
    ships = {(s["x"], s["y"]): s for s in b["ships"] if s["x"] is not None}
    lines = [Text("    " + " ".join(f"{x:>2}" for x in range(n)))]
    for y in range(n):
        line = Text(f"{y:>3} ")
        for x in range(n):
            s = ships.get((x, y))
            if s is not None:
                style = (
                    "bold yellow"
                    if s["ship"] == b.get("me")
                    else f"bold {'red' if s['team'] == 0 else 'white'}"
                )
                line.append(f"{s['ship']}{_ARROW.get(s['heading'], '?')} ", style=style)
            elif (x, y) in rocks or x in (0, n - 1) or y in (0, n - 1):
                line.append("## ", style="dim")
            else:
                line.append(" . ", style="blue")
        lines.append(line)
    said = []
    for s in b["ships"]:
        if s["x"] is None:
            said.append(f"{s['ship']} (team {s['team']}) sunk")
            continue
        hurt = f", damage {s['damage']} of {b['hull']}" if s.get("damage") is not None else ""
        said.append(f"{s['ship']} (team {s['team']}) at ({s['x']}, {s['y']}) {s['heading']}{hurt}")
    lines.append(Text("Ships: " + "; ".join(said)))
    lines.append(Text(f"Turn {b['turn']} of at most {b['max_turns']}"))
    if b.get("me"):
        lines.append(Text(f"You sail ship {b['me']}."))
    return Group(*lines)


def _hive(b: dict[str, Any]) -> RenderableType:
    table = Table(title="Hive: pieces on the board", title_justify="left", padding=(0, 1))
    for h in ("cell (q, r)", "player", "piece", "bug"):
        table.add_column(h)
    for q, r, s, p, bug in b["cells"]:
        _row(table, f"({q}, {r})", f"player {s}", p, bug, style="bold" if s == 0 else "")
    hands = [Text(f"Player {i} hand: {', '.join(h) or 'empty'}") for i, h in enumerate(b["hands"])]
    lines = [Text(str(b.get("status") or ""))]
    if b.get("last"):
        lines.append(Text(f"Last: {b['last']}."))
    return Group(table, *hands, *lines)


def _pit(b: dict[str, Any]) -> RenderableType:
    table = Table(title="Pit: the hands you may see", title_justify="left", padding=(0, 1))
    table.add_column("player")
    table.add_column("cards")
    for seat, held in b["hands"]:
        me = " (you)" if seat == b.get("me") else ""
        _row(table, f"Player {seat}{me}", ", ".join(f"{n} {k}" for k, n in held.items()))
    offer = b.get("offer")
    line = (
        f"Standing offer: player {offer[0]} trades {plural(offer[1], 'card')}"
        if offer is not None
        else "No standing offer"
    )
    points = ", ".join(f"player {i} {p}" for i, p in enumerate(b["points"]))
    return Group(table, Text(line), Text(f"{b['status']}; points: {points}"))


def _als(b: dict[str, Any]) -> RenderableType:
    table = Table(title="Air, Land and Sea: the theatres", title_justify="left", padding=(0, 1))
    table.add_column("theatre")
    table.add_column("player 0")
    table.add_column("player 1")
    table.add_column("held by")
    for t in b["theatres"]:
        _row(
            table,
            t["name"],
            f"{t['strength'][0]}: " + (", ".join(t["cards"][0]) or "-"),
            f"{t['strength'][1]}: " + (", ".join(t["cards"][1]) or "-"),
            f"player {t['control']}",
        )
    lines = [Text(f"{b['status']}; points {b['points'][0]}-{b['points'][1]}")]
    for s, hand in b["hands"]:
        me = " (you)" if s == b.get("me") else ""
        lines.append(Text(f"Player {s}{me} hand: {', '.join(hand) or 'empty'}"))
    return Group(table, *lines)


def _arctic(b: dict[str, Any]) -> RenderableType:
    table = Table(title="Arctic Scavengers: the tribes", title_justify="left", padding=(0, 1))
    for h in ("player", "tribe", "hand", "skirmish pile"):
        table.add_column(h)
    for s, people in enumerate(b["tribes"]):
        me = " (you)" if s == b.get("me") else ""
        hand = b["hands"].get(str(s))
        pile = b["skirmish"][s] if s < len(b["skirmish"]) else []
        _row(
            table,
            f"Player {s}{me}",
            str(people),
            "(hidden)" if hand is None else (", ".join(hand) or "empty"),
            ", ".join(pile) or "-",
        )
    return Group(table, Text(str(b["status"])))


def _talk(messages: list[dict[str, Any]], me: str | None, where: bool = False) -> list[Text]:
    out = []
    for m in messages[-TALK:]:
        if m["who"] == "GAME":
            out.append(Text(f"-- {m['text']}", style="bold" if m.get("phase") else "dim"))
            continue
        name = "you" if me is not None and m["who"] == me else m["who"]
        if m.get("to"):
            name += f" to {m['to']}"
        if where and m.get("room") is not None:
            name += f" (round {m['round']}, room {m['room']})"
        said = "(keeps quiet)" if m.get("text") is None else m["text"]
        line = Text(f"{name}: ", style="bold green" if name.startswith("you") else "bold")
        line.append(str(said))
        out.append(line)
    return out


def _traitor(b: dict[str, Any]) -> RenderableType:
    table = Table(title="The table (round names)", title_justify="left", padding=(0, 1))
    table.add_column("player")
    table.add_column("what you know")
    for p in b["players"]:
        what = p["role"] or ("a wizard, good or evil" if p["wizard"] else "unknown")
        if p["role"] and p["wizard"] and "wizard" not in p["role"]:
            what += " (a wizard)"
        name = f"Player {p['name']}" + (" (you)" if p["you"] else "")
        _row(table, name, what, style="bold" if p["you"] else "")
    lines = [Text(str(b["status"]))]
    if b.get("me"):
        lines.append(Text(f"You are Player {b['me']}, the {b['my_role']} ({b['team']} team)."))
    for h in b["treasure"]:
        if h["you"]:
            lines.append(
                Text(f"Your treasure: {', '.join(h['cards']) or 'none'} ({h['points']} points)")
            )
    return Group(table, *lines, Text("Talk (latest):"), *_talk(b["messages"], b.get("me")))


def _two_rooms(b: dict[str, Any]) -> RenderableType:
    table = Table(title="The rooms", title_justify="left", padding=(0, 1))
    table.add_column("room")
    table.add_column("players (card as you know it)")
    for k, people in enumerate(b["rooms"]):
        said = []
        for p in people:
            card = "?"
            if p.get("colour"):
                card = p["colour"] + (f", {p['role']}" if p.get("role") else "")
            said.append(
                p["name"]
                + (" (you)" if p["you"] else "")
                + (" (leader)" if p["leader"] else "")
                + f" [{card}]"
            )
        _row(table, str(k), ", ".join(said) or "nobody")
    return Group(
        table,
        Text(str(b["status"])),
        Text("What you heard (latest):"),
        *_talk(b["messages"], b.get("me"), where=True),
    )


def _chat(b: dict[str, Any]) -> RenderableType:
    """TextArena's conversation as the seat was shown it (`projections.textarena.chat`), and
    Colonel Blotto's allocations when the text holds them."""
    me = f"Player {b['seat']}" if b.get("seat") is not None else None
    parts: list[RenderableType] = []
    if b.get("role"):
        parts.append(Text(f"You are {me}, role {b['role']}."))
    rounds = b.get("allocations") or []
    if rounds:
        fields = sorted({f for r in rounds for _name, units in r["armies"] for f in units})
        table = Table(title="Allocations", title_justify="left", padding=(0, 1))
        for h in ["round", "commander", *fields, "outcome"]:
            table.add_column(h)
        for r in rounds:
            for k, (name, units) in enumerate(r["armies"]):
                _row(
                    table,
                    str(r["round"]) if k == 0 else "",
                    str(name),
                    *(str(units.get(f, "")) for f in fields),
                    str(r["result"]) if k == 0 else "",
                )
        parts.append(table)
    if b.get("payoffs"):
        parts.append(_payoffs(b["payoffs"], b.get("seat")))
    cards = b.get("cards")
    if cards:
        parts.append(_word_cards(cards["words"], cards.get("key"), cards["shown"]))
        if cards.get("role"):
            parts.append(Text(f"You are the {cards['team']} {cards['role']}."))
        if cards.get("clue"):
            team, word, number = cards["clue"]
            parts.append(Text(f"Last clue ({team}): {word} {number}"))
    earlier = int(b.get("earlier") or 0) + max(0, len(b["messages"]) - TALK)
    if earlier:
        parts.append(Text(f"({earlier} earlier messages: ? shows them)", style="dim"))
    parts += _talk(b["messages"], me)
    return Group(*parts)


_CHOICE = {"cooperate": "C", "defect": "D"}


def _payoffs(rounds: list[dict[str, Any]], seat: int | None) -> Table:
    """The prisoner's dilemma as the seat was told it: a row per round, for each pair both
    choices (C cooperate, D defect) with the points each took, for each player the points
    of the round and the total after it."""
    pairs: list[tuple[int, int]] = []
    for r in rounds:
        for a, b, *_rest in r["pairs"]:
            if (a, b) not in pairs:
                pairs.append((a, b))
    players = sorted({p for ab in pairs for p in ab})
    table = Table(
        title="Payoffs (C cooperate, D defect: points each took)",
        title_justify="left",
        padding=(0, 1),
    )
    table.add_column("round", justify="right")
    for a, b in pairs:
        table.add_column(f"{a} and {b}", justify="center")
    for p in players:
        table.add_column("you" if p == seat else f"P{p}", justify="right")
    for r in rounds:
        cells: dict[tuple[int, int], str] = {}
        gained = dict.fromkeys(players, 0)
        for a, b, ca, cb, pa, pb in r["pairs"]:
            cells[(a, b)] = f"{_CHOICE.get(ca, '?')}{pa} {_CHOICE.get(cb, '?')}{pb}"
            gained[a] += pa
            gained[b] += pb
        totals = {p: t for p, t in r.get("totals") or []}
        _row(
            table,
            str(r["round"]),
            *(cells.get(ab, "") for ab in pairs),
            *(f"+{gained[p]}" + (f"={totals[p]}" if p in totals else "") for p in players),
        )
    return table


_OPENSPIEL = {
    "tic_tac_toe": "Tic-tac-toe",
    "connect_four": "Connect Four",
    "breakthrough": "Breakthrough",
    "checkers": "Checkers",
    "othello": "Othello",
    "go": "Go",
    "hex": "Hex",
    "chess": "Chess",
    "kuhn_poker": "Kuhn poker",
    "leduc_poker": "Leduc poker",
    "universal_poker": "Poker",
}


def _openspiel(b: dict[str, Any]) -> RenderableType:
    """An OpenSpiel board as a text grid (rows top first, named as the game's moves name them;
    a hex board's rows shifted right), or a poker table: the seat's cards, the public cards,
    the pot and the chips."""
    title = _OPENSPIEL.get(str(b["game"]), str(b["game"]))
    if b.get("shape") == "cards":
        return _poker(title, b)
    rows: list[list[str]] = b["rows"]
    pieces: dict[str, str] = b["pieces"]
    width = max(len(str(c)) for c in b["col_names"])
    edge = max(len(str(r)) for r in b["row_names"])
    hexes = b.get("shape") == "hex"
    lines = [Text(title + " board", style="bold")]
    lines.append(Text(" " * (edge + 1) + " ".join(f"{c:^{width}}" for c in b["col_names"])))
    for r, row in enumerate(rows):
        line = Text(f"{b['row_names'][r]:>{edge}} " + (" " * r if hexes else ""))
        for c, mark in enumerate(row):
            if c:
                line.append(" ")
            style = "bold" if mark != "." else "dim"
            line.append(f"{mark:^{width}}", style=style)
        lines.append(line)
    marks = sorted({m for row in rows for m in row if m != "."})
    if marks:
        lines.append(Text("Marks: " + ", ".join(f"{m} {pieces.get(m, m)}" for m in marks)))
    if b.get("to_play"):
        lines.append(Text(str(b["to_play"])))
    return Group(*lines)


def _poker(title: str, b: dict[str, Any]) -> RenderableType:
    table = Table(title=f"{title} table", title_justify="left", show_header=False)
    table.add_column(style="bold")
    table.add_column()
    _row(table, "Your cards", ", ".join(b["hand"]) or "none")
    _row(table, "On the table", ", ".join(b["public"]) or "none")
    _row(table, "Pot", "unknown" if b.get("pot") is None else f"{b['pot']} chips")
    if b.get("money"):
        _row(table, "Chips", ", ".join(f"player {i} {m}" for i, m in enumerate(b["money"])))
    _row(table, "Actions", "; ".join(b.get("actions") or []) or "none yet")
    return table


def _pact(f: dict[str, Any]) -> RenderableType | None:
    """PACT's bargaining as the seat saw it: each party with its value or cost where the
    seat knows it ("hidden" where not), the latest of the conversation round by round with
    each round's sealed quotes and outcome, and every round's quotes as a table."""
    logs = f.get("logs") or {}
    messages = list(logs.get("messages") or [])[: int(f.get("messages") or 0)]
    ladder = list(logs.get("ladder") or [])[: int(f.get("ladder") or 0)]
    if len(messages) < int(f.get("messages") or 0) or len(ladder) < int(f.get("ladder") or 0):
        return None  # a frame without its lists: the question is shown as text
    viewer = f.get("viewer")
    seats = f.get("seats") or []
    roles = {int(s["seat"]): str(s["role"]) for s in seats}

    def name(seat: int) -> str:
        return f"{roles.get(seat, 'seat')} (seat {seat})"

    status = f"Round {f.get('round')}" + (" (over)" if f.get("ended") else "")
    parties = Table(title=f"PACT: {status}", title_justify="left", padding=(0, 1))
    for h in ("party", "value or cost", "profit so far"):
        parties.add_column(h)
    for s in seats:
        what = "value" if s["role"] == "buyer" else "cost"
        known = s.get("value") is not None
        you = viewer == s["seat"]
        _row(
            parties,
            name(int(s["seat"])) + (" (you)" if you else ""),
            f"{what} {s['value'] if known else 'hidden'}",
            f"{s['profit']:g}" if known else "-",
            style="bold" if you else "",
        )
    quotes = {int(q[0]): q for q in ladder}
    talk: list[dict[str, Any]] = []
    table = Table(title="Sealed quotes", title_justify="left", padding=(0, 1))
    for h in ("round", "bid", "ask", "outcome"):
        table.add_column(h)
    for r in sorted({int(m[0]) for m in messages} | set(quotes)):
        talk.append({"who": "GAME", "text": f"Round {r}", "phase": True})
        for m in messages:
            if int(m[0]) == r:
                talk.append(
                    {"who": name(int(m[1])), "text": str(m[2]) + (" [cut]" if m[3] else "")}
                )
        q = quotes.get(r)
        if q is not None:
            _, bid, ask, traded, price = q
            outcome = f"accepted: trade at {price:g}" if traded else "declined: no trade"
            talk.append({"who": "GAME", "text": f"Sealed quotes: bid {bid}, ask {ask}; {outcome}"})
            _row(table, str(r), str(bid), str(ask), outcome)
    me = name(viewer) if isinstance(viewer, int) else None
    parts: list[RenderableType] = [parties]
    if ladder:
        parts.append(table)
    parts.append(Text("The bargaining (latest):"))
    if len(talk) > TALK:
        parts.append(Text(f"({len(talk) - TALK} earlier lines: ? shows them)", style="dim"))
    parts += _talk(talk, me) if talk else [Text("Nothing said yet.")]
    return Group(*parts)


FRAMES: dict[str, Callable[[dict[str, Any]], RenderableType | None]] = {"pact": _pact}
"""The terminal drawing of each family drawn from its frame itself, by the frame's kind."""


DRAWN: dict[str, Callable[[dict[str, Any]], RenderableType]] = {
    # The boards projections.openspiel.board reads (a test keeps the two lists equal).
    **{game: _openspiel for game in _OPENSPIEL},
    "chat": _chat,
    "santorini": _santorini,
    "codenames": _codenames,
    "sea_battle": _sea_battle,
    "hive": _hive,
    "pit": _pit,
    "air_land_sea": _als,
    "arctic_scavengers": _arctic,
    "traitor": _traitor,
    "two_rooms": _two_rooms,
}
"""The terminal drawing of each board, by the name its frames give."""
