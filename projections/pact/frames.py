"""PACT's table in the viewer, frame by frame: roles, numbers a viewer may see, the chat and the
quote ladder (sent once, each frame saying how much of them it shows)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from events.pact import game as pe

Viewer = int | str | None
"""A seat number, "public" (what every seat sees) or None (everything)."""


def frames(viewer: Viewer) -> tuple[Callable[[Any], dict[str, Any]], dict[str, list[Any]]]:
    """A step that turns each next event into the frame after it, and the growing lists the
    frames refer to (the viewer's `extras["frames"]` for PACT)."""
    messages: list[Any] = []
    ladder: list[Any] = []
    seats: list[dict[str, Any]] = []
    status = {"round": 0, "ended": False}
    scores: list[Any] = [None]

    def step(e: Any) -> dict[str, Any]:
        match e:
            case pe.PactGameStarted():
                seats.clear()
                for i in range(len(e.seats)):
                    role = "buyer" if i == 0 else "seller"
                    seats.append({"seat": i, "role": role, "value": None, "profit": 0.0})
                status["round"] = 1
            case pe.PactValueDealt():
                if e.seat < len(seats):
                    seats[e.seat]["value"] = e.amount
                    seats[e.seat]["role"] = e.role
            case pe.PactValuesDrawn():
                # Engine-only: seen in the omniscient view alone.
                for s in seats:
                    s["value"] = e.value if s["role"] == "buyer" else e.cost
            case pe.PactMessageSent():
                messages.append([e.round, e.seat, e.text, e.cut])
            case pe.PactQuotesRevealed():
                ladder.append([e.round, e.bid, e.ask, e.traded, e.price])
                if e.traded and e.price is not None:
                    for s in seats:
                        if s["value"] is None:
                            continue
                        gain = (
                            s["value"] - e.price if s["role"] == "buyer" else e.price - s["value"]
                        )
                        s["profit"] = round(s["profit"] + gain, 6)
                status["round"] = e.round + 1
            case pe.PactGameEnded():
                status["ended"] = True
                status["round"] = e.rounds
                scores[0] = list(e.scores)
            case _:
                pass
        return {
            "kind": "pact",
            "round": status["round"],
            "seats": [dict(s) for s in seats],
            "messages": len(messages),
            "ladder": len(ladder),
            "ended": status["ended"],
            "scores": scores[0],
        }

    return step, {"messages": messages, "ladder": ladder}
