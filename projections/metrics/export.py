"""Export the store (games, events, every view, derived tables) to Parquet or JSON lines."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import duckdb


def relations(con: duckdb.DuckDBPyConnection, derived: Sequence[str] = ()) -> list[str]:
    """Tables and views to export: games, events, every view, then the `derived` tables
    present (a game's metric tables)."""
    views = [
        r[0]
        for r in con.execute(
            "SELECT view_name FROM duckdb_views() WHERE NOT internal AND schema_name = 'main'"
            " AND database_name = current_database() ORDER BY view_name"
        ).fetchall()
    ]
    tables = {
        r[0]
        for r in con.execute(
            "SELECT table_name FROM duckdb_tables()"
            " WHERE database_name IN (current_database(), 'temp')"
        ).fetchall()
    }
    return ["games", "events", *views, *(t for t in derived if t in tables)]


MARKER = ".cattle-export"
"""The file that marks a folder as written by an export (a later export may write into it)."""


def export_store(
    con: duckdb.DuckDBPyConnection,
    out_dir: Path,
    fmt: str,
    derived: Sequence[str] = (),
    make_way: Callable[[Path], None] | None = None,
) -> list[tuple[str, int]]:
    """Write each relation to `out_dir/<name>.<parquet|jsonl>`; return (name, rows) pairs.

    `make_way(path)` runs before each file is written (to refuse or clear what is there).
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    if make_way is not None:
        make_way(out_dir / MARKER)
    (out_dir / MARKER).write_text("Written by cattle export.\n", encoding="utf-8")
    ext, option = ("parquet", "FORMAT PARQUET") if fmt == "parquet" else ("jsonl", "FORMAT JSON")
    written = []
    for name in relations(con, derived):
        path = out_dir / f"{name}.{ext}"
        if make_way is not None:
            make_way(path)
        quoted = str(path).replace("'", "''")
        con.execute(f"COPY (SELECT * FROM main.{name}) TO '{quoted}' ({option})").fetchall()
        rows = con.execute(f"SELECT count(*) FROM main.{name}").fetchall()[0][0]
        written.append((name, int(rows)))
    return written
