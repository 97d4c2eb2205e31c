"""The viewer's frames of Two Rooms and a Boom (`extras["frames"]`): the two rooms with
their players, leaders and the cards the viewer knows, and the talk the viewer heard as a
conversation.

A frame is made from the events the viewer sees and names every player by letter (seat
numbers fix the teams; only the omniscient view adds them). The conversation is read from
the events themselves: any event with a speaking seat and a `text` is a player's words, in
the room it names, with whom they are said to where the event names one (a question's `to`,
an answer's `asker`; a leader told an answer between two others is shown the question too);
every other event the seat lens words (`SeatLens`) is a line of the game's. So a kind of
talk the rules add later shows up in the conversation as it is.
"""

from __future__ import annotations

from typing import Any

from events.gamebench import two_rooms as te
from projections.gamebench.two_rooms import SeatLens, TwoRoomsView

MAX_MESSAGES = 60
"""The latest messages a frame holds (the text holds every line)."""

_QUIET = {te.TrStarted, te.TrCardDealt, te.TrRuleExplained}
"""Events the conversation leaves out (the set-up and the cards are drawn in the rooms)."""


def _speech(e: Any) -> tuple[int, str] | None:
    """(seat, words) of an event that is a player speaking, else None."""
    seat, text = getattr(e, "seat", None), getattr(e, "text", None)
    if isinstance(seat, int) and isinstance(text, str) and not isinstance(e, te.TrRequestRefused):
        return seat, text
    return None


def frames(viewer: int | str | None) -> tuple[Any, dict[str, list[Any]]]:
    """The frames for `viewer`: a seat number, "public" or None (everything)."""
    seat = viewer if isinstance(viewer, int) else None
    view = TwoRoomsView(seat if seat is not None else -1)
    lens = SeatLens(seat)
    seen: list[Any] = []
    cards: dict[int, tuple[str, str | None]] = {}
    """(colour, role or None) of each card the viewer knows, by seat."""
    messages: list[dict[str, Any]] = []
    rnd = [0]

    def name(s: int) -> str:
        return view.name(s) or "?"

    def step(e: Any) -> dict[str, Any]:
        seen.append(e)
        view.sync(seen)
        r = getattr(e, "round", None)
        if isinstance(r, int):
            rnd[0] = r
        if isinstance(e, te.TrCardDealt):
            cards[e.seat] = (e.colour, e.role)
        elif isinstance(e, te.TrShown) and e.to == seat:
            old = cards.get(e.seat)
            role = e.role if e.what == "card" else (old[1] if old else None)
            cards[e.seat] = (e.colour, role)
        elif isinstance(e, te.TrEnded):
            for s, (colour, role) in enumerate(e.cards):
                cards[s] = (colour, role)
        line = lens.line(e) if type(e) in te.EVENT_TYPES else None
        said = _speech(e)
        if isinstance(e, te.TrAnswered) and seat is not None and seat not in (e.seat, e.asker):
            # A leader told an answer between two others: the question it answers comes too.
            messages.append(
                {
                    "who": name(e.asker),
                    "to": name(e.seat),
                    "text": e.question,
                    "round": e.round,
                    "room": e.room,
                }
            )
        if said is not None:
            message = {
                "who": name(said[0]),
                "text": said[1],
                "round": getattr(e, "round", None),
                "room": getattr(e, "room", None),
            }
            # Whom a question is put to, and whose question an answer answers.
            to = e.to if isinstance(e, te.TrAsked) else getattr(e, "asker", None)
            if isinstance(to, int):
                message["to"] = name(to)
            messages.append(message)
        elif isinstance(e, te.TrKeptQuiet):
            messages.append({"who": name(e.seat), "text": None, "round": e.round, "room": e.room})
        elif line is not None and type(e) not in _QUIET:
            phase = isinstance(e, te.TrHostagesSwapped | te.TrEnded | te.TrSetUp)
            messages.append({"who": "GAME", "text": line.strip(), "phase": phase})
        return _frame(view, seat, viewer is None, cards, messages, rnd[0])

    return step, {}


def _frame(
    view: TwoRoomsView,
    seat: int | None,
    everything: bool,
    cards: dict[int, tuple[str, str | None]],
    messages: list[dict[str, Any]],
    rnd: int,
) -> dict[str, Any]:
    c = view.config
    rooms: list[list[dict[str, Any]]] = [[], []]
    if view.rooms:
        for room in (0, 1):
            for s in view.occupants(room):
                colour, role = cards.get(s, (None, None))
                rooms[room].append(
                    {
                        "name": view.name(s),
                        "seat": s if everything else None,
                        "you": s == seat,
                        "leader": s == view.leaders[room],
                        "colour": colour,
                        "role": role,
                    }
                )
    me = view.name(seat) if seat is not None else None
    over = view.end is not None
    if over:
        assert view.end is not None
        status = f"Game over: {view.end.winner} wins"
    elif c is not None and rnd:
        status = f"Round {rnd} of {c.rounds}"
    else:
        status = "Setting up"
    lines = [status]
    if me:
        colour, role = cards.get(seat, ("?", None)) if seat is not None else ("?", None)
        lines.append(f"You are player {me}: {colour} card" + (f", the {role}" if role else ""))
    for room in (0, 1):
        who = ", ".join(
            p["name"]
            + (" (leader)" if p["leader"] else "")
            + (f" [{p['colour']}{', ' + p['role'] if p['role'] else ''}]" if p["colour"] else "")
            for p in rooms[room]
        )
        lines.append(f"Room {room}: {who or 'nobody'}")
    for m in messages:
        if m["who"] == "GAME":
            lines.append(m["text"])
        else:
            said = "keeps quiet" if m["text"] is None else f"says: {m['text']!r}"
            to = f" to {m['to']}" if m.get("to") else ""
            lines.append(f"  round {m['round']}, room {m['room']}: {m['who']}{to} {said}")
    board = {
        "game": "two_rooms",
        "status": status,
        "me": me,
        "rooms": rooms,
        "messages": messages[-MAX_MESSAGES:],
        "earlier": max(0, len(messages) - MAX_MESSAGES),
        "everything": everything,
    }
    return {"kind": "text", "text": "\n".join(lines), "board": board}


__all__ = ["frames"]
