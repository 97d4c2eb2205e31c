"""Derived tables: rebuilt from `events` at any time, each row stamped with its definition version.

Tables (in the store's database):

* `metric_values(game_id, seat, agent, metric, version, key, num, den, value)`: one row per
  metric per seat per game (per key for keyed metrics); value = num / den (NULL when den = 0).
* `trajectories(game_id, seat, agent, turn, wealth, sets, score, version)`: each seat's money,
  complete sets and score at the end of every turn of its game.
* `metric_defs(metric, version, agg, label, definition, built_at)`: what the values were
  computed with.
* `derived_meta(key, value)`: the games and events the tables cover.

A rebuild first stages the analysis tables of the finished games into an in-memory catalog
`stage` (stage.sql: each needed event parsed once), then runs every metric's SQL over them.
"""

from __future__ import annotations

import datetime as dt
import time
from dataclasses import dataclass
from pathlib import Path

import duckdb

from events.lazy import get_logger
from projections.cattle.metrics.registry import Metric, metrics

log = get_logger("cattle.metrics")

#: Analysis views staged (as `stage.<name>`) for the metric queries.
STAGED_VIEWS: tuple[str, ...] = (
    "seats",
    "scores",
    "auctions",
    "bids_detail",
    "payments",
    "trades",
    "trade_offers",
    "set_completions",
    "rejections",
    "fallbacks",
    "llm_calls",
    "llm_decisions",
    "wealth_by_turn",
    "donkey_payouts",
    "money",
)

#: Version of the trajectory table's definition (wealth, sets and score at the end of a turn).
TRAJECTORY_VERSION = 1

DERIVED_TABLES: tuple[str, ...] = ("metric_values", "trajectories", "metric_defs", "derived_meta")

_TRAJECTORIES = """
WITH done AS (
    SELECT game_id, seat, turn, max(sets) AS sets, max(score) AS score
    FROM stage.set_completions GROUP BY ALL
)
SELECT w.game_id, w.seat, w.agent, w.turn, w.money AS wealth,
       CAST(coalesce(d.sets, 0) AS SMALLINT) AS sets, CAST(coalesce(d.score, 0) AS INTEGER) AS score,
       {version} AS version
FROM stage.wealth_by_turn w
ASOF LEFT JOIN done d ON w.game_id = d.game_id AND w.seat = d.seat AND w.turn >= d.turn
"""


@dataclass(frozen=True)
class BuildStats:
    """What a rebuild covered and how long it took."""

    games: int
    events: int
    rows: int
    seconds: float
    stage_seconds: float

    @property
    def events_per_second(self) -> float:
        """Events of the covered games per second of rebuild."""
        return self.events / self.seconds if self.seconds else 0.0


def _one(con: duckdb.DuckDBPyConnection, sql: str) -> object:
    rows = con.execute(sql).fetchall()
    return rows[0][0] if rows else None


def _attach_stage(con: duckdb.DuckDBPyConnection) -> None:
    attached = {
        r[0] for r in con.execute("SELECT database_name FROM duckdb_databases()").fetchall()
    }
    if "stage" in attached:
        con.execute("DETACH stage")
    con.execute("ATTACH ':memory:' AS stage (READ_WRITE)")


STAGE_SQL = Path(__file__).with_name("stage.sql")


def stage(con: duckdb.DuckDBPyConnection) -> None:
    """Stage the analysis tables of every finished game into the in-memory catalog `stage`.

    stage.sql parses each needed event once and derives the same tables as the analysis
    views (a test keeps the two equal); metric queries then read `stage.<view>`.
    """
    _attach_stage(con)
    unfinished = _one(con, "SELECT count(*) FROM main.games WHERE status <> 'finished'")
    finished = (
        "game_id IN (SELECT game_id FROM main.games WHERE status = 'finished')"
        if unfinished
        else "TRUE"
    )
    con.execute(STAGE_SQL.read_text().replace("{finished}", finished))
    _stage_prices(con)


def _stage_prices(con: duckdb.DuckDBPyConnection) -> None:
    """The model price table (USD per million tokens) as `stage.prices`, for the cost metric."""
    from projections.costs import load_prices

    con.execute("CREATE TABLE stage.prices (key VARCHAR, input_usd DOUBLE, output_usd DOUBLE)")
    rows = [(k, i, o) for k, (i, o) in load_prices().items()]
    if rows:
        con.executemany("INSERT INTO stage.prices VALUES (?, ?, ?)", rows)


def _metric_insert(m: Metric, into: str = "main") -> str:
    return f"""
    INSERT INTO {into}.metric_values
    SELECT q.game_id, CAST(q.seat AS SMALLINT), s.agent, '{m.name}', {m.version}, CAST(q.key AS VARCHAR),
           CAST(q.num AS DOUBLE), CAST(q.den AS DOUBLE),
           CASE WHEN q.den > 0 THEN CAST(q.num AS DOUBLE) / q.den END
    FROM ({m.sql}) q JOIN stage.seats s ON s.game_id = q.game_id AND s.seat = q.seat
    """


def _catalog(con: duckdb.DuckDBPyConnection) -> str:
    """Where derived tables go: the store itself, or this connection's in-memory `temp`
    catalog when the store is open read-only (the file is never written by a reader)."""
    rows = con.execute(
        "SELECT readonly FROM duckdb_databases() WHERE database_name = current_database()"
    ).fetchall()
    return "temp" if rows and rows[0][0] else "main"


def rebuild(con: duckdb.DuckDBPyConnection, selected: list[Metric] | None = None) -> BuildStats:
    """Drop every derived table and recompute it from `events` (finished games only).

    On a read-only store the tables are built in memory for this connection; they shadow any
    older copy stored in the file.
    """
    t0 = time.perf_counter()
    into = _catalog(con)
    create = "CREATE TEMP TABLE " if into == "temp" else "CREATE TABLE main."
    con.execute("SET enable_progress_bar = false")
    stage(con)
    t_stage = time.perf_counter() - t0
    chosen = selected if selected is not None else metrics()
    con.execute("BEGIN")
    try:
        for table in DERIVED_TABLES:
            con.execute(f"DROP TABLE IF EXISTS {into}.{table}")
        con.execute(
            f"{create}metric_values (game_id VARCHAR, seat SMALLINT, agent VARCHAR,"
            " metric VARCHAR, version INTEGER, key VARCHAR, num DOUBLE, den DOUBLE, value DOUBLE)"
        )
        for m in chosen:
            con.execute(_metric_insert(m, into))
        con.execute(f"{create}trajectories AS " + _TRAJECTORIES.format(version=TRAJECTORY_VERSION))
        con.execute(
            f"{create}metric_defs (metric VARCHAR, version INTEGER, agg VARCHAR,"
            " label VARCHAR, definition VARCHAR, built_at TIMESTAMP)"
        )
        now = dt.datetime.now(dt.UTC).replace(tzinfo=None)
        con.executemany(
            f"INSERT INTO {into}.metric_defs VALUES (?, ?, ?, ?, ?, ?)",
            [(m.name, m.version, m.agg, m.label, m.definition, now) for m in chosen]
            + [("trajectory", TRAJECTORY_VERSION, "", "Trajectories", "", now)],
        )
        games, events = _coverage(con)
        con.execute(f"{create}derived_meta (key VARCHAR PRIMARY KEY, value VARCHAR)")
        con.executemany(
            f"INSERT INTO {into}.derived_meta VALUES (?, ?)",
            [("games", str(games)), ("events", str(events)), ("built_at", now.isoformat())],
        )
        rows = int(_one(con, f"SELECT count(*) FROM {into}.metric_values") or 0)  # type: ignore[call-overload]
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    finally:
        con.execute("DETACH stage")
    stats = BuildStats(
        games=games,
        events=events,
        rows=rows,
        seconds=time.perf_counter() - t0,
        stage_seconds=t_stage,
    )
    log.debug("metrics.rebuilt", games=games, events=events, seconds=round(stats.seconds, 3))
    return stats


def _coverage(con: duckdb.DuckDBPyConnection) -> tuple[int, int]:
    rows = con.execute(
        "SELECT count(DISTINCT game_id), count(*) FROM main.events"
        " WHERE game_id IN (SELECT game_id FROM main.games WHERE status = 'finished')"
    ).fetchall()
    return int(rows[0][0]), int(rows[0][1])


def is_fresh(con: duckdb.DuckDBPyConnection) -> bool:
    """True when the derived tables exist, match the code's definition versions and cover
    exactly the finished games and events now in the store."""
    tables = {r[0] for r in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()}
    if not set(DERIVED_TABLES) <= tables:
        return False
    built = set(con.execute("SELECT metric, version FROM main.metric_defs").fetchall())
    wanted = {(m.name, m.version) for m in metrics()} | {("trajectory", TRAJECTORY_VERSION)}
    if built != wanted:
        return False
    meta = dict(con.execute("SELECT key, value FROM main.derived_meta").fetchall())
    games, events = _coverage(con)
    return meta.get("games") == str(games) and meta.get("events") == str(events)


def ensure(con: duckdb.DuckDBPyConnection) -> BuildStats | None:
    """Rebuild the derived tables if they are missing or stale; return the stats if rebuilt."""
    if is_fresh(con):
        return None
    return rebuild(con)
