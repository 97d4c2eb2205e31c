"""A TextArena seat's observation text read as a conversation: who said what, in order.

TextArena writes what a player is shown as lines led by the speaker in brackets (`[GAME]`,
`[Player 3]`); a line without such a lead continues the message above it. The viewer's
drawing of a seat is made from this reading of the very text its prompt holds, and so are
the tables some games' texts carry: Colonel Blotto's allocations, the prisoner's dilemma's
payoffs round by round (from the game's own result messages, so a decision shows once the
game has revealed it) and Codenames' board as the seat's text lists it.
"""

from __future__ import annotations

import re
from typing import Any

SPEAKER = re.compile(r"^\[(GAME|Player \d+)\] ?(.*)$")

SHOWN = 40
"""Most messages a frame's conversation holds (the latest); the text holds them all."""

PHASES = ("night", "day", "vot", "round")
"""Words by which a message of the game opens a phase (night, day, voting, a new round)."""

CLUE = ("spymaster of",)
"""How a Codenames line giving a clue opens (a team's turn starts: drawn as a phase)."""


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
    cards = codenames(text)
    found = messages(text)
    if cards is not None and all(who == "" for who, _said in found):
        # The board wrapper's text has no speakers: its lines are all the game's.
        found = codenames_messages(text)
    shown = found[-SHOWN:]
    return {
        "game": "chat",
        "allocations": allocations(text),
        "payoffs": payoffs(found),
        "cards": cards,
        "seat": seat,
        "role": role,
        "earlier": len(found) - len(shown),
        "messages": [
            {
                "who": who,
                "text": said,
                "phase": who == "GAME" and said.lower().lstrip().startswith(PHASES + CLUE),
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


# ---- the prisoner's dilemma ---------------------------------------------------------------------

# ThreePlayerIPD's result message (textarena 0.7.4, envs/ThreePlayerIPD/env.py,
# `_resolve_round`): a head line, a line per pair, then the running scores.
_IPD3_HEAD = re.compile(r"^#+ Round (\d+) - Results:\s*$")
_IPD3_PAIR = re.compile(
    r"^Player (\d+) vs Player (\d+) chose to (cooperate|defect) and (cooperate|defect)"
    r" respectively \(Player \d+ gained (-?\d+), Player \d+ gained (-?\d+)\)"
)
_IPD3_SCORES = re.compile(r"^-> Current scores: (.*)$")
_IPD3_SCORE = re.compile(r"Player (\d+) \((-?\d+)\)")
# IteratedPrisonersDilemma's (two players; envs/IteratedPrisonersDilemma/env.py,
# `_resolve_round`): a head line, the outcome in words, what each earned and its total.
_IPD2_HEAD = re.compile(r"^Round (\d+) results:\s*$")
_IPD2_BOTH = re.compile(r"^Both players (cooperated|defected)\.$")
_IPD2_EACH = re.compile(r"^Player 0 (cooperated|defected), Player 1 (cooperated|defected)\.$")
_IPD2_EARNED = re.compile(
    r"^Player 0 earned (-?\d+) \(total (-?\d+)\), Player 1 earned (-?\d+) \(total (-?\d+)\)\.$"
)
_CHOICE = {"cooperated": "cooperate", "defected": "defect"}


def payoffs(found: list[tuple[str, str]]) -> list[dict[str, Any]]:
    """The prisoner's dilemma's rounds as the game's own result messages report them (the
    game's lines only, though a line of a player's message written as a result line reads as
    one: TextArena prints a message's later lines without its speaker): per round its number, each
    pair's choices and points ([a, b, choice of a, choice of b, points of a, points of b])
    and each player's total after it ([player, total], in player order). [] when the text
    holds no result."""
    rounds: list[dict[str, Any]] = []
    for who, said in found:
        if who != "GAME":
            continue
        lines = [line.strip() for line in said.splitlines() if line.strip()]
        if not lines:
            continue
        got = _ipd3(lines) or _ipd2(lines)
        if got is not None:
            rounds.append(got)
    return rounds


def _ipd3(lines: list[str]) -> dict[str, Any] | None:
    head = _IPD3_HEAD.match(lines[0])
    if head is None:
        return None
    pairs: list[list[Any]] = []
    totals: list[list[int]] = []
    for line in lines[1:]:
        if (m := _IPD3_PAIR.match(line)) is not None:
            a, b, ca, cb, pa, pb = m.groups()
            pairs.append([int(a), int(b), ca, cb, int(pa), int(pb)])
        elif (m := _IPD3_SCORES.match(line)) is not None:
            totals = [[int(p), int(t)] for p, t in _IPD3_SCORE.findall(m.group(1))]
    if not pairs:
        return None
    return {"round": int(head.group(1)), "pairs": pairs, "totals": totals}


def _ipd2(lines: list[str]) -> dict[str, Any] | None:
    head = _IPD2_HEAD.match(lines[0])
    if head is None or len(lines) < 3:
        return None
    if (m := _IPD2_BOTH.match(lines[1])) is not None:
        ca = cb = _CHOICE[m.group(1)]
    elif (m := _IPD2_EACH.match(lines[1])) is not None:
        ca, cb = _CHOICE[m.group(1)], _CHOICE[m.group(2)]
    else:
        return None
    earned = _IPD2_EARNED.match(lines[2])
    if earned is None:
        return None
    pa, ta, pb, tb = (int(x) for x in earned.groups())
    return {
        "round": int(head.group(1)),
        "pairs": [[0, 1, ca, cb, pa, pb]],
        "totals": [[0, ta], [1, tb]],
    }


# ---- Codenames ----------------------------------------------------------------------------------

# Codenames' texts (textarena 0.7.4, envs/Codenames/env.py): the board a seat is shown
# (`_render_player_view`: a line per word, with its team letter where the seat may know it
# and, for a spymaster, "revealed" once guessed), the seat's role in its prompt (`_prompt`),
# and the game's lines on clues and guesses (`step`).
_CN_BOARD = "Codenames Words:"
_CN_ROLE = re.compile(r"You are Player (\d+), the (Spymaster|Operative) for (Red|Blue) team\.")
_CN_CLUE = re.compile(r"^Spymaster of (Red|Blue) team, Player \d+, submitted \[(\w+) (\d+)\]\.$")
_CN_RIGHT = re.compile(r"^Operator of (Red|Blue) team, Player \d+, correctly guessed \[(\w+)\]\.$")
_CN_WRONG = re.compile(
    r"^Operator of (?:Red|Blue) team, Player \d+, wrongly guessed \[(\w+)\]\."
    r" It is a (Red Team|Blue Team|Neutral) word\.$"
)
_CN_LETTER = {"R": "red", "B": "blue", "N": "neutral", "A": "assassin"}
_CN_KIND = {
    "Red": "red",
    "Blue": "blue",
    "Red Team": "red",
    "Blue Team": "blue",
    "Neutral": "neutral",
}


def codenames(text: str) -> dict[str, Any] | None:
    """Codenames' board as the seat's text holds it, or None when the text holds none: the
    words in the order listed (drawn 5 by 5), each card's colour where the seat knows it
    (`key`: a spymaster's whole key, None for an operative), the colours revealed (the
    board's, and every guess the game's lines report, which the seat read too), the seat's
    role and team, and the last clue ([team, word, number])."""
    at = text.rfind(_CN_BOARD)
    if at < 0:
        return None
    role = _CN_ROLE.search(text)
    spymaster = role is not None and role.group(2) == "Spymaster"
    words: list[str] = []
    key: list[str | None] = []
    shown: list[str | None] = []
    for line in text[at + len(_CN_BOARD) :].splitlines():
        parts = line.split()
        if (not parts and words) or SPEAKER.match(line):
            break  # the board ends at a blank line or the next message
        if not parts:
            continue
        colour = _CN_LETTER.get(parts[1]) if len(parts) > 1 else None
        words.append(parts[0])
        key.append(colour)
        shown.append(colour if (not spymaster or "revealed" in parts[2:]) else None)
    if not words:
        return None
    index = {w: i for i, w in enumerate(words)}
    clue: list[Any] | None = None
    # The game's lines only ("" where the text has no speakers): a player's words never
    # reveal a card.
    said = [m for who, m in messages(text[:at]) if who in ("GAME", "")]
    for line in (x.strip() for m in said for x in m.splitlines()):
        if (m := _CN_CLUE.match(line)) is not None:
            clue = [m.group(1).lower(), m.group(2), int(m.group(3))]
        elif (m := _CN_RIGHT.match(line)) is not None and m.group(2) in index:
            shown[index[m.group(2)]] = _CN_KIND[m.group(1)]
        elif (m := _CN_WRONG.match(line)) is not None and m.group(1) in index:
            shown[index[m.group(1)]] = _CN_KIND[m.group(2)]
    return {
        "words": words,
        "key": key if spymaster else None,
        "shown": shown,
        "role": role.group(2).lower() if role is not None else None,
        "team": role.group(3).lower() if role is not None else None,
        "clue": clue,
    }


def codenames_messages(text: str) -> list[tuple[str, str]]:
    """Codenames' text as a conversation: its prompt (up to the seat's role) and then each
    of the game's lines on clues and guesses, all the game's (the board is drawn apart)."""
    at = text.rfind(_CN_BOARD)
    head = text[:at] if at >= 0 else text
    role = _CN_ROLE.search(head)
    # The prompt ends with the line naming the seat's role.
    cut = 0 if role is None else head.find("\n", role.end())
    if cut < 0:
        cut = len(head)
    out: list[tuple[str, str]] = []
    if head[:cut].strip():
        out.append(("GAME", head[:cut].strip()))
    out += [("GAME", line.strip()) for line in head[cut:].splitlines() if line.strip()]
    return out
