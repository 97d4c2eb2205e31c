"""Options shared by the analysis commands (metrics, report, export)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import typer

from events.store import DuckStore

MAX_RESAMPLES = 100_000
"""Most bootstrap resamples per interval: every resample is kept in memory until the interval
is read, and the time grows with it."""

GameIdOption = Annotated[
    list[str] | None,
    typer.Option("--game-id", help="Only this stored game, by id (repeat for several)."),
]
TournamentOption = Annotated[
    str | None, typer.Option("--tournament", "-t", help="Only games of this tournament.")
]


def open_for_metrics(db: Path, *, save: bool = False) -> DuckStore:
    """The store for analysis, read-only: derived tables stored in the file are used while they
    are fresh, otherwise they are built in memory for this command. With `save`, the store is
    opened for writing and the rebuilt tables are stored in it (for `cattle sql`)."""
    return DuckStore(db, read_only=not save, create=False)


def other_games_hint(
    con: Any, game: str, tournament: str | None = None, game_ids: Sequence[str] = ()
) -> str:
    """When a selection holds no finished games of `game`: the games it does hold, as the end
    of a message ("; it holds pact games (add --game pact)"), else ""."""
    from projections.metrics.aggregate import Selection

    where, params = Selection(tournament=tournament, games=tuple(game_ids), game=None).where()
    found = [
        g
        for (g,) in con.execute(
            f"SELECT DISTINCT game FROM main.games WHERE status = 'finished' AND game <> ?"
            f" AND {where} ORDER BY game",
            [game, *params],
        ).fetchall()
    ]
    if not found:
        return ""
    return f"; it holds {', '.join(found)} games (add --game {found[0]})"


def finished_games(store: DuckStore, sel: Any) -> int:
    """How many finished games the selection `sel` holds."""
    where, params = sel.where()
    found = store.con.execute(
        f"SELECT count(*) FROM games WHERE status = 'finished' AND {where}", params
    ).fetchall()
    return int(found[0][0])


def narrowed(store: DuckStore, sel: Any, config: Any) -> Any:
    """`sel` restricted to the games played with exactly `config` (the configuration a name
    such as `gtbench:nim` carries): the stored configuration is the same encoding."""
    from dataclasses import replace

    from events.codec import encode

    where, params = sel.where()
    _, rows = store.query(
        f"SELECT game_id FROM games WHERE CAST(config AS VARCHAR) = ? AND {where} ORDER BY game_id",
        [encode(config).decode(), *params],
    )
    # No such game: an id no game has, so the selection is empty rather than unrestricted.
    return replace(sel, games=tuple(r[0] for r in rows) or ("",))
