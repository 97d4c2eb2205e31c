"""Export the store (games, events, every view, derived tables) to Parquet or JSON lines."""

from __future__ import annotations

from collections.abc import Sequence
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


def export_store(
    con: duckdb.DuckDBPyConnection, out_dir: Path, fmt: str, derived: Sequence[str] = ()
) -> list[tuple[str, int]]:
    """Write each relation to `out_dir/<name>.<parquet|jsonl>`; return (name, rows) pairs."""
    out_dir.mkdir(parents=True, exist_ok=True)
    ext, option = ("parquet", "FORMAT PARQUET") if fmt == "parquet" else ("jsonl", "FORMAT JSON")
    written = []
    for name in relations(con, derived):
        path = out_dir / f"{name}.{ext}"
        quoted = str(path).replace("'", "''")
        con.execute(f"COPY (SELECT * FROM main.{name}) TO '{quoted}' ({option})").fetchall()
        rows = con.execute(f"SELECT count(*) FROM main.{name}").fetchall()[0][0]
        written.append((name, int(rows)))
    return written
