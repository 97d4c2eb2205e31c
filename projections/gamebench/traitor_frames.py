"""The viewer's frames of "Are You the Traitor?" (`extras["frames"]`): the table of the five
round names with what the viewer knows of each (its own role, the wizards, the key holder
for the traitor, every role once a round ends or for the omniscient view), the treasure the
viewer may see, and the round's talk as a conversation.

A frame is made from the events the viewer sees. Players appear under their round names;
only the omniscient view ties a name to a seat (the seats fix the teams).
"""

from __future__ import annotations

from typing import Any

from events.gamebench import traitor as te
from events.gamebench.traitor import POINTS, team_of

NAMES = ("A", "B", "C", "D", "E")
"""The round names."""

MAX_MESSAGES = 60
"""The latest messages a frame holds (the text holds every line)."""


def frames(viewer: int | str | None) -> tuple[Any, dict[str, list[Any]]]:
    """The frames for `viewer`: a seat number, "public" or None (everything)."""
    seat = viewer if isinstance(viewer, int) else None
    everything = viewer is None
    st: dict[str, Any] = {
        "round": 0,
        "max_rounds": None,
        "target": None,
        "wizards": [],
        "roles": {},  # name -> role the viewer knows this round
        "seats": {},  # name -> seat (omniscient view only)
        "me": None,
        "my_role": None,
        "revealed": False,
        "over": None,
    }
    treasure: dict[int, list[str]] = {}
    messages: list[dict[str, Any]] = []

    def say(who: str, text: str, **more: Any) -> None:
        messages.append({"who": who, "text": text, **more})

    def step(e: Any) -> dict[str, Any]:
        match e:
            case te.AytStarted():
                st["max_rounds"], st["target"] = e.config.max_rounds, e.config.target
            case te.AytRoundStarted():
                st.update(round=e.round, wizards=list(e.wizards), roles={}, seats={})
                st.update(revealed=False, me=None, my_role=None)
                w = e.wizards
                say("GAME", f"Round {e.round}: the wizards are {w[0]} and {w[1]}", phase=True)
            case te.AytRoleTold():
                if e.seat == seat:
                    st["me"], st["my_role"] = e.name, e.role
                    if e.key_holder:
                        st["roles"][e.key_holder] = te.KEY_HOLDER
                st["roles"][e.name] = e.role
                if everything:
                    st["seats"][e.name] = e.seat
            case te.AytAsked():
                say(e.speaker, e.text, to=e.to)
            case te.AytAnswered():
                say(e.speaker, e.text)
            case te.AytStopped():
                say("GAME", f"{e.accuser} calls stop and points at {e.accused}")
            case te.AytRoundEnded():
                st["roles"] = dict(e.roles) if e.roles else st["roles"]
                st["revealed"] = bool(e.roles)
                if e.reason == "silence":
                    said = f"Round {e.round} over: nobody stopped, no treasure"
                else:
                    said = (
                        f"Round {e.round} over: the {e.accuser_role} pointed at the"
                        f" {e.accused_role}; the {e.winner} team wins the round"
                    )
                say("GAME", said, phase=True)
            case te.AytTreasureDrawn():
                treasure.setdefault(e.seat, []).append(e.card)
            case te.AytRingUsed():
                for s in (e.thief, e.victim):
                    treasure.setdefault(s, [])
                if e.card in treasure[e.victim]:
                    treasure[e.victim].remove(e.card)
                treasure[e.thief].append(e.card)
                if te.RING in treasure[e.thief]:
                    treasure[e.thief].remove(te.RING)
                say("GAME", f"A magic ring: {e.thief_name} takes {e.card} from {e.victim_name}")
            case te.AytEnded():
                who = f"the {e.winner} team wins" if e.winner else "a draw"
                st["over"] = f"Game over: {who}; points " + ", ".join(map(str, e.points))
                say("GAME", st["over"], phase=True)
        return _frame(st, seat, everything, treasure, messages)

    return step, {}


def _frame(
    st: dict[str, Any],
    seat: int | None,
    everything: bool,
    treasure: dict[int, list[str]],
    messages: list[dict[str, Any]],
) -> dict[str, Any]:
    players = []
    for n in NAMES:
        s = st["seats"].get(n)
        players.append(
            {
                "name": n,
                "you": n == st["me"],
                "wizard": n in st["wizards"],
                "role": st["roles"].get(n),
                "seat": s,
                "team": team_of(s) if s is not None else None,
            }
        )
    if st["over"]:
        status = st["over"]
    elif st["round"]:
        status = f"Round {st['round']} of at most {st['max_rounds']}"
    else:
        status = "Before the first round"
    shown = sorted(treasure) if everything else [s for s in sorted(treasure) if s == seat]
    hoards: list[dict[str, Any]] = [
        {
            "seat": s if everything else None,
            "you": s == seat,
            "cards": list(treasure[s]),
            "points": sum(POINTS.get(c, 0) for c in treasure[s]),
        }
        for s in shown
    ]
    if seat is not None and seat not in treasure:
        hoards.append({"seat": None, "you": True, "cards": [], "points": 0})
    lines = [status]
    if st["me"]:
        team = f" ({team_of(seat)} team)" if seat is not None else ""
        lines.append(f"You are Player {st['me']}, the {st['my_role']}{team}")
    if st["wizards"]:
        lines.append(f"Wizards: {' and '.join(st['wizards'])}")
    for p in players:
        if p["role"]:
            lines.append(f"Player {p['name']}: {p['role']}")
    for h in hoards:
        who = "Your" if h["you"] else f"Seat {h['seat']}'s"
        lines.append(f"{who} treasure: {', '.join(h['cards']) or 'none'} ({h['points']} points)")
    for m in messages:
        to = f" (to {m['to']})" if m.get("to") else ""
        lines.append(f"{m['who']}{to}: {m['text']}")
    board = {
        "game": "traitor",
        "status": status,
        "me": st["me"],
        "my_role": st["my_role"],
        "team": team_of(seat) if seat is not None else None,
        "revealed": st["revealed"],
        "players": players,
        "treasure": hoards,
        "messages": messages[-MAX_MESSAGES:],
        "earlier": max(0, len(messages) - MAX_MESSAGES),
    }
    return {"kind": "text", "text": "\n".join(lines), "board": board}


__all__ = ["frames"]
