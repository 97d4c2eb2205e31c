"""What the views show of a game's seed: nothing while a game dealt from it is in play.

The seed decides every chance outcome a game will have (the deck order, the hands not yet
shown, the values still to be dealt), so whoever read it off a running game could work out
what its seats may not see. The viewer's pages and a seat's timeline therefore leave it out
until the game is over; a finished game shows it again, since a replay needs it.
"""

from __future__ import annotations

import re
from typing import Any

import duckdb

from events import catalog

WITHHELD = "withheld"
"""What stands for a seed, or a value drawn from it, while the seed is withheld."""

_SEEDED = re.compile(r"\b(rng_seed\s*=\s*)-?\d+")
"""A seed-derived parameter in a game string (OpenSpiel games that draw inside the game)."""


def seeds_in_play(con: duckdb.DuckDBPyConnection, seed: int | None = None) -> set[int]:
    """The seeds no view may show (of them, `seed` alone when given): those of the games
    running (or left running by a process that stopped) and those a tournament's schedule
    has not finished yet.

    A finished game may share its seed with a game still to come (the other rotations of the
    same deal in a tournament, the next attempt of a game that failed), so a seed is shown
    only once no game dealt from it is still to be played.
    """
    only = "" if seed is None else " AND seed = ?"
    params = [] if seed is None else [seed]
    seeds = {
        int(r[0])
        for r in con.execute(
            f"SELECT DISTINCT seed FROM games WHERE status = 'running'{only}", params
        ).fetchall()
    }
    scheduled = con.execute(
        "SELECT count(*) FROM duckdb_tables() WHERE table_name = 'tournament_games'"
    ).fetchone()
    if scheduled and scheduled[0]:
        seeds.update(
            int(r[0])
            for r in con.execute(
                "SELECT DISTINCT t.seed FROM tournament_games t"
                " LEFT JOIN games g ON g.game_id = t.game_id"
                f" WHERE g.status IS DISTINCT FROM 'finished'{only.replace('seed', 't.seed')}",
                params,
            ).fetchall()
        )
    return seeds


def withheld_seed(con: duckdb.DuckDBPyConnection, game_id: str) -> int | None:
    """The seed of game `game_id` when it may not be shown now (`seeds_in_play`), else None."""
    row = con.execute("SELECT seed, status FROM games WHERE game_id = ?", [game_id]).fetchone()
    if row is None:
        return None
    seed, status = int(row[0]), row[1]
    return seed if status == "running" or seeds_in_play(con, seed) else None


def seedless_fields(tag: str, fields: Any, seed: int | None) -> Any:
    """An event's fields (a dict) as shown while `seed` is withheld: the first event's seed
    set to None and a seed-derived `rng_seed` in its text fields replaced; any other event's,
    or any event's when `seed` is None, as they are."""
    if seed is None or tag != catalog.START_TAG or not isinstance(fields, dict):
        return fields
    if "seed" in fields:
        fields["seed"] = None
    for key, value in fields.items():
        if isinstance(value, str):
            fields[key] = _SEEDED.sub(rf"\g<1>{WITHHELD}", value)
    return fields


def seedless_text(tag: str, text: str, seed: int | None) -> str:
    """The first event's timeline line as shown while `seed` is withheld (the games word it
    "seed N"); any other line, or any line when `seed` is None, as it is."""
    if seed is None or tag != catalog.START_TAG:
        return text
    text = re.sub(rf"\bseed {seed}(?!\d)", f"seed {WITHHELD}", text)
    return _SEEDED.sub(rf"\g<1>{WITHHELD}", text)
