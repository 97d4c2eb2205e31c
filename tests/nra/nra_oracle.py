"""An independent recomputation of the two-seat match metrics, in plain Python.

It reads the raw `games` and `events` tables of a DuckDB file (no view, no SQL arithmetic):
the seats from each game's `game_started` payload, the scores from its `game_ended`
payload, fallbacks from the tags of its events, and computes every figure with loops.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import duckdb

FALLBACKS = {"fallback_applied", "action_defaulted", "openspiel_move_rejected"}
"""Events of a move played in a seat's place; the seat is `seat` (or `player`)."""


@dataclass
class Match:
    """One finished two-seat game, as its log tells it."""

    game_id: str
    game: str
    """The game's label: its name, or for OpenSpiel its preset (else its game string)."""
    agents: tuple[str, str]
    scores: tuple[float, float]
    fallback: tuple[bool, bool]


def nra(own: float, other: float) -> float:
    """The per-match definition, written out."""
    if own == 0 and other == 0:
        return 0.0
    return (own - other) / (abs(own) + abs(other))


def read(path: Path, game: str | None = None, tournament: str | None = None) -> list[Match]:
    """Every finished two-seat game of the file (of one catalogue game and tournament, if
    given)."""
    con = duckdb.connect(str(path), read_only=True)
    try:
        games = con.execute("SELECT game_id, game, status, tournament FROM games").fetchall()
        events = con.execute("SELECT game_id, type, payload FROM events").fetchall()
    finally:
        con.close()
    logs: dict[str, list[dict]] = defaultdict(list)
    for gid, _type, payload in events:
        logs[gid].append(json.loads(payload))
    out = []
    for gid, name, status, tour in sorted(games):
        if status != "finished" or (game and name != game) or (tournament and tour != tournament):
            continue
        log = logs[gid]
        start = next(e for e in log if e["type"] == "game_started")
        end = next(e for e in log if e["type"] == "game_ended")
        if len(start["seats"]) != 2:
            continue
        bad = {e.get("seat", e.get("player")) for e in log if e["type"] in FALLBACKS}
        # OpenSpiel games are told apart by their GTBench name, else their game string.
        label = name
        if name == "openspiel":
            label = (start.get("config") or {}).get("preset") or start["game_string"]
        out.append(
            Match(
                game_id=gid,
                game=label,
                agents=(start["seats"][0]["agent"], start["seats"][1]["agent"]),
                scores=(float(end["scores"][0]), float(end["scores"][1])),
                fallback=(0 in bad, 1 in bad),
            )
        )
    return out


def pair_means(matches: list[Match]) -> dict[tuple[str, str, str], tuple[float, int, str]]:
    """(game, agent, opponent) -> (mean NRA, matches, "W/D/L"), both orientations."""
    vals: dict[tuple[str, str, str], list[float]] = defaultdict(list)
    wdl: dict[tuple[str, str, str], list[int]] = defaultdict(lambda: [0, 0, 0])
    for m in matches:
        if m.agents[0] == m.agents[1]:
            continue  # self-play: no pairing of two agents
        for me, other in ((0, 1), (1, 0)):
            key = (m.game, m.agents[me], m.agents[other])
            vals[key].append(nra(m.scores[me], m.scores[other]))
            diff = m.scores[me] - m.scores[other]
            wdl[key][0 if diff > 0 else 1 if diff == 0 else 2] += 1
    return {k: (sum(v) / len(v), len(v), "/".join(map(str, wdl[k]))) for k, v in vals.items()}


def completion(matches: list[Match]) -> dict[tuple[str, str], float]:
    """(game, agent) -> share of its seats without a fallback."""
    seats: dict[tuple[str, str], list[bool]] = defaultdict(list)
    for m in matches:
        for s in (0, 1):
            seats[(m.game, m.agents[s])].append(not m.fallback[s])
    return {k: sum(v) / len(v) for k, v in seats.items()}
