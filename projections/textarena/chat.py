"""A TextArena seat's observation text read as a conversation: who said what, in order.

TextArena writes what a player is shown as lines led by the speaker in brackets (`[GAME]`,
`[Player 3]`); a line without such a lead continues the message above it. The viewer's
drawing of a seat is made from this reading of the very text its prompt holds.
"""

from __future__ import annotations

import re
from typing import Any

SPEAKER = re.compile(r"^\[(GAME|Player \d+)\] ?(.*)$")

SHOWN = 40
"""Most messages a frame's conversation holds (the latest); the text holds them all."""

PHASES = ("night", "day", "vot", "round")
"""Words by which a message of the game opens a phase (night, day, voting, a new round)."""


def messages(text: str) -> list[tuple[str, str]]:
    """(speaker, text) of each message: speaker "GAME" or "Player N" ("" before the first
    lead)."""
    out: list[tuple[str, str]] = []
    for line in text.splitlines():
        m = SPEAKER.match(line)
        if m is not None:
            out.append((m.group(1), m.group(2)))
        elif out:
            who, said = out[-1]
            out[-1] = (who, f"{said}\n{line}" if said else line)
        elif line.strip():
            out.append(("", line))
    return [(who, said.strip("\n")) for who, said in out]


def chat_board(text: str, seat: int, role: str | None) -> dict[str, Any]:
    """The conversation a seat was shown, as a frame's board: its latest messages, how many
    came before them, and which of the game's messages open a phase."""
    found = messages(text)
    shown = found[-SHOWN:]
    return {
        "game": "chat",
        "allocations": allocations(text),
        "seat": seat,
        "role": role,
        "earlier": len(found) - len(shown),
        "messages": [
            {
                "who": who,
                "text": said,
                "phase": who == "GAME" and said.lower().lstrip().startswith(PHASES),
            }
            for who, said in shown
        ],
    }


_ROUND = re.compile(r"^Round (\d+)\s*$")
_ALLOCATED = re.compile(r"^(.+?) allocated:\s*(.*)$")
_FIELD = re.compile(r"([A-Za-z]+):\s*(\d+)")


def allocations(text: str) -> list[dict[str, Any]]:
    """Colonel Blotto's rounds as TextArena reports them: each round's number, each
    commander's units per field and the outcome line ([] when the text holds none)."""
    rounds: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    for line in text.splitlines():
        line = line.strip()
        if (m := _ROUND.match(line)) is not None:
            current = {"round": int(m.group(1)), "armies": [], "result": ""}
            rounds.append(current)
        elif current is not None and (m := _ALLOCATED.match(line)) is not None:
            fields = {k: int(v) for k, v in _FIELD.findall(m.group(2))}
            current["armies"].append([m.group(1).strip(), fields])
        elif current is not None and line and current["armies"] and not current["result"]:
            current["result"] = line
    return [r for r in rounds if r["armies"]]
