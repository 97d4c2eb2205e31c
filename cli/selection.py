"""Options shared by the analysis commands (metrics, report, export)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from events.store import DuckStore

GameOption = Annotated[
    list[str] | None,
    typer.Option("--game", help="Only this game (repeat for several)."),
]
TournamentOption = Annotated[
    str | None, typer.Option("--tournament", "-t", help="Only games of this tournament.")
]


def open_for_metrics(db: Path) -> DuckStore:
    """The store, opened for writing (derived tables are written next to the log)."""
    return DuckStore(db, create=False)
