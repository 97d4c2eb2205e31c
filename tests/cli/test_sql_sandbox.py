"""`cattle sql` is read-only and sandboxed: no statement changes the store or touches a file.

Each hostile statement runs against its own copy of a small world (the store, a second store,
and files to steal), so a change is traced to the statement that made it. The main list goes
through the real command in a subprocess; a longer list goes through the same two calls the
command makes, in this process.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
import shutil
import time
from pathlib import Path
from typing import Any

import duckdb
import pytest
from clikit import ROOT, cattle, cattle_many, held_open

from events.sandbox import (
    QueryFailed,
    QueryTimeout,
    SandboxError,
    StatementRefused,
    check_statement,
    open_sandboxed,
    run_query,
)
from events.store import DuckStore, StoreLocked, StoreMissing

SECRET = "cattle-sandbox-secret-7f3a"
RELATIVE_LEAK = "cattle-sql-relative-leak.csv"

CTE_DELETE = "WITH gone AS MATERIALIZED (DELETE FROM events RETURNING *) SELECT count(*) FROM gone"
"""A write hidden in a query: the parser calls it a SELECT, the read-only database refuses it."""

# {db}: the store queried; {other}: a second store; {dir}: the world directory; {txt}, {csv},
# {json}, {parquet}: files holding SECRET.
HOSTILE = [
    "COPY (SELECT 1) TO '{db}'",
    "COPY (SELECT * FROM events) TO '{dir}/leak.csv'",
    f"COPY (SELECT 1) TO '{RELATIVE_LEAK}'",
    "EXPORT DATABASE '{dir}/export'",
    "ATTACH '{other}' AS other (READ_WRITE)",
    "ATTACH '{other}' AS other (READ_WRITE); DELETE FROM other.events",
    "ATTACH ':memory:' AS scratch",
    "SELECT * FROM read_text('/etc/passwd')",
    "SELECT * FROM read_text('{txt}')",
    "SELECT * FROM read_csv('{csv}')",
    "SELECT * FROM read_parquet('{parquet}')",
    "SELECT * FROM read_json('{json}')",
    "SELECT * FROM glob('{dir}/*')",
    "SET threads = 1",
    "SET enable_external_access = true",
    "RESET memory_limit",
    "PRAGMA threads = 1",
    "CREATE TEMP TABLE t AS SELECT 1",
    "CREATE TEMP VIEW v AS SELECT 1",
    "CREATE TEMP MACRO m() AS 1",
    "INSERT INTO games SELECT * FROM games",
    "UPDATE games SET seed = 0",
    "DELETE FROM events",
    "DROP TABLE events",
    "INSTALL httpfs",
    "LOAD httpfs",
    "CHECKPOINT",
    "VACUUM",
    "CALL pragma_version()",
    "SELECT 1; DROP TABLE events",
    CTE_DELETE,
    "EXPLAIN ANALYZE COPY (SELECT 1) TO '{dir}/explained.csv'",
    "",
]
"""Run through the real command, one subprocess each."""

MORE_HOSTILE = [
    "COPY (SELECT 1) TO '{db}' (FORMAT csv)",
    "COPY events TO '{dir}/leak.parquet' (FORMAT parquet)",
    "COPY games FROM '{csv}'",
    "ATTACH '{other}' AS other",
    "ATTACH '{dir}/new.duckdb' AS fresh",
    "DETACH games",
    "COPY FROM DATABASE games TO other",
    "SELECT * FROM read_blob('{txt}')",
    "SELECT * FROM read_text('{db}')",
    "SELECT * FROM read_csv_auto('/etc/passwd')",
    "SELECT * FROM '{csv}'",
    "SELECT * FROM parquet_metadata('{parquet}')",
    "SELECT * FROM read_json_auto('{json}')",
    "SELECT * FROM sniff_csv('{csv}')",
    "SELECT * FROM glob('/etc/*')",
    "SELECT * FROM read_csv('http://127.0.0.1:9/x.csv')",
    "SET memory_limit = '64GB'",
    "SET lock_configuration = false",
    "SET disabled_filesystems = ''",
    "SET profiling_output = '{dir}/profile.json'",
    "SET search_path = 'memory'",
    "SET VARIABLE x = 1",
    "RESET ALL",
    "PRAGMA enable_profiling",
    "PRAGMA show_tables",
    "USE memory",
    "CREATE MACRO m() AS 1",
    "CREATE TABLE junk (a INTEGER)",
    "CREATE VIEW v AS SELECT 1",
    "CREATE TYPE mood AS ENUM ('a')",
    "CREATE SEQUENCE s",
    "CREATE SECRET s (TYPE s3, KEY_ID 'a', SECRET 'b')",
    "CREATE PERSISTENT SECRET s (TYPE s3, KEY_ID 'a', SECRET 'b')",
    "/* just a comment */ DELETE FROM events",
    "TRUNCATE events",
    "DROP VIEW bids",
    "ALTER TABLE games ADD COLUMN x INTEGER",
    "COMMENT ON TABLE games IS 'x'",
    "MERGE INTO games USING games AS g ON games.game_id = g.game_id WHEN MATCHED THEN DELETE",
    "FORCE INSTALL httpfs",
    "LOAD json",
    "UPDATE EXTENSIONS",
    "FORCE CHECKPOINT",
    "CALL checkpoint()",
    "SELECT * FROM force_checkpoint()",
    "ANALYZE",
    "BEGIN TRANSACTION",
    "PREPARE p AS DELETE FROM events",
    "EXECUTE p",
    "SELECT 1; SELECT 2",
    "SELECT 1;;DELETE FROM events",
    "WITH x AS MATERIALIZED (INSERT INTO games SELECT * FROM games RETURNING *) FROM x",
    "WITH x AS MATERIALIZED (UPDATE games SET seed = 0 RETURNING *) FROM x",
    "EXPLAIN ANALYZE DELETE FROM events",
    "EXPLAIN (FORMAT json) DELETE FROM events",
    "SELECT * FROM query('COPY (SELECT 1) TO ''{dir}/q.csv''')",
    "PIVOT events ON type USING count(*)",
    "   ;  ",
]
"""Run in this process through the calls the command makes (a subprocess each would add a
second of start-up apiece)."""

HARMLESS = [
    # Parsed as queries, so DuckDB runs them; in the sandbox they can do nothing.
    "SELECT * FROM checkpoint()",
    "SELECT * FROM duckdb_secrets()",
    "SELECT * FROM duckdb_settings()",
    "SELECT * FROM duckdb_databases()",
]

SPILL = "SELECT count(*) FROM range(1000000000) a, range(1000000000) b"
"""A join whose build side DuckDB would spill to a temporary directory."""
RUNAWAY = "SELECT sum(hash(i)) FROM range(100000000000000) t(i)"


def snapshot(root: Path) -> dict[str, str]:
    """Every file and directory under `root` with the sha256 of its bytes."""
    out = {}
    for p in sorted(root.rglob("*")):
        rel = str(p.relative_to(root))
        out[rel] = hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else "dir"
    return out


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store with one game, a second store, and secret files in several formats."""
    root = tmp_path_factory.mktemp("world")
    for name, seed in (("games.duckdb", "1"), ("other.duckdb", "2")):
        made = cattle("play", "--preset", "micro-duel", "--seed", seed, "--db", root / name)
        assert made.returncode == 0, made.stderr
    (root / "secret.txt").write_text(f"{SECRET}\n")
    (root / "secret.csv").write_text(f"a,b\n{SECRET},1\n")
    (root / "secret.json").write_text(json.dumps({"a": SECRET}))
    con = duckdb.connect()
    con.execute(f"COPY (SELECT '{SECRET}' AS a) TO '{root / 'secret.parquet'}' (FORMAT parquet)")
    con.close()
    return root


def fill(template: str, root: Path) -> str:
    return template.format(
        db=root / "games.duckdb",
        other=root / "other.duckdb",
        dir=root,
        txt=root / "secret.txt",
        csv=root / "secret.csv",
        json=root / "secret.json",
        parquet=root / "secret.parquet",
    )


@pytest.fixture
def case(world: Path, tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A fresh copy of the world for one statement, and its snapshot."""
    root = tmp_path / "world"
    shutil.copytree(world, root)
    return root, snapshot(root)


def assert_untouched(root: Path, before: dict[str, str], output: str = "") -> None:
    assert "Traceback" not in output
    assert SECRET not in output
    assert "root:" not in output  # a line of /etc/passwd
    # The store, the other store and the secrets are byte-identical, and no file appeared
    # (no export, no copy, no .wal, no spill directory).
    assert snapshot(root) == before
    assert not (ROOT / RELATIVE_LEAK).exists()


@pytest.mark.parametrize("sql", HOSTILE, ids=[s[:60] for s in HOSTILE])
def test_a_hostile_statement_is_refused_and_changes_nothing(
    case: tuple[Path, dict[str, str]], sql: str
) -> None:
    root, before = case
    r = cattle("sql", fill(sql, root), "--db", root / "games.duckdb")
    assert r.returncode == 2, (sql, r.stdout, r.stderr)
    lines = [line for line in r.stderr.splitlines() if line.strip()]
    assert lines and lines[0].startswith("error: "), r.stderr
    # One message (the terminal may wrap it), and nothing on stdout.
    assert len(lines) <= 3, r.stderr
    assert r.stdout == ""
    assert_untouched(root, before, r.stdout + r.stderr)


def sandboxed(root: Path, sql: str) -> Any:
    """What `cattle sql` does with `sql`: open the store in the sandbox and run the query."""
    con = open_sandboxed(root / "games.duckdb", timeout=60)
    try:
        return run_query(con, fill(sql, root), timeout=60)
    finally:
        con.close()


@pytest.mark.parametrize("sql", MORE_HOSTILE, ids=[s[:60] for s in MORE_HOSTILE])
def test_more_hostile_statements_are_refused_and_change_nothing(
    case: tuple[Path, dict[str, str]], sql: str
) -> None:
    root, before = case
    with pytest.raises(SandboxError) as caught:
        sandboxed(root, sql)
    message = str(caught.value)
    assert message and "\n" not in message
    assert_untouched(root, before, message)


@pytest.mark.parametrize("sql", HARMLESS, ids=[s[:60] for s in HARMLESS])
def test_a_query_that_duckdb_runs_changes_nothing(
    case: tuple[Path, dict[str, str]], sql: str
) -> None:
    root, before = case
    result = sandboxed(root, sql)
    assert_untouched(root, before, str(result.rows))


def test_a_query_needing_more_memory_fails_instead_of_spilling_to_disk(
    case: tuple[Path, dict[str, str]],
) -> None:
    root, before = case
    r = cattle("sql", SPILL, "--db", root / "games.duckdb")
    assert r.returncode == 2
    assert "no spilling" in r.stderr or "Out of Memory" in r.stderr, r.stderr
    assert_untouched(root, before, r.stdout + r.stderr)


def refusal(root: Path, sql: str) -> str:
    with pytest.raises(SandboxError) as caught:
        sandboxed(root, sql)
    return str(caught.value)


def test_refusals_name_what_was_refused(world: Path) -> None:
    expected = {
        "COPY (SELECT 1) TO '{db}'": "refused COPY",
        "EXPORT DATABASE '{dir}/export'": "refused EXPORT",
        "ATTACH '{other}' AS other (READ_WRITE)": "refused ATTACH",
        "CHECKPOINT": "refused CHECKPOINT (CALL)",
        "SET threads = 1": "refused SET",
        "CREATE TEMP TABLE t AS SELECT 1": "refused CREATE",
        "INSTALL httpfs": "refused INSTALL (LOAD)",
        "EXPLAIN ANALYZE DELETE FROM events": "refused DELETE",
        "SELECT 1; DROP TABLE events": "got 2 (SELECT, DROP)",
        "DELETE FROM events": "read-only",
        "SELECT * FROM read_text('/etc/passwd')": "no file access",
        CTE_DELETE: "read-only mode",
        "PIVOT events ON type USING count(*)": "IN list",
        "": "no SQL statement",
    }
    for sql, phrase in expected.items():
        assert phrase in refusal(world, sql), sql


def test_a_runaway_query_is_stopped_at_the_timeout(world: Path) -> None:
    start = time.monotonic()
    r = cattle("sql", RUNAWAY, "--timeout", "1", "--db", world / "games.duckdb")
    elapsed = time.monotonic() - start
    assert r.returncode == 2, r.stderr
    assert "longer than 1 s" in r.stderr and "--timeout" in r.stderr
    assert "Traceback" not in r.stderr
    assert elapsed < 15


def test_the_timer_stops_a_query_duckdb_has_not_stopped(world: Path) -> None:
    con = open_sandboxed(world / "games.duckdb", timeout=None)
    try:
        start = time.monotonic()
        with pytest.raises(QueryTimeout, match=r"longer than 0\.5 s"):
            run_query(con, RUNAWAY, timeout=0.5)
        assert time.monotonic() - start < 10
        # The connection is still usable afterwards.
        assert run_query(con, "SELECT 42").rows == [(42,)]
    finally:
        con.close()


def test_the_sandbox_settings_are_in_force_and_locked(world: Path) -> None:
    con = open_sandboxed(world / "games.duckdb", timeout=7)
    try:
        settings = dict(con.execute("SELECT name, value FROM duckdb_settings()").fetchall())
        assert settings["access_mode"] == "read_only"
        assert settings["enable_external_access"] == "false"
        assert settings["lock_configuration"] == "true"
        assert settings["autoload_known_extensions"] == "false"
        assert settings["autoinstall_known_extensions"] == "false"
        assert settings["allow_community_extensions"] == "false"
        assert settings["allow_unsigned_extensions"] == "false"
        assert settings["allow_persistent_secrets"] == "false"
        assert settings["allow_extension_repositories"] == "forbidden"
        assert settings["python_enable_replacements"] == "false"
        assert settings["max_execution_time"] == "7000"
        assert int(settings["threads"]) <= 4
        assert "GiB" in settings["memory_limit"] or "MiB" in settings["memory_limit"]
        for stmt in ("SET threads = 8", "SET enable_external_access = true", "RESET memory_limit"):
            with pytest.raises(duckdb.Error, match="locked"):
                con.execute(stmt)
        # Even below the statement check, DuckDB itself refuses files and writes.
        with pytest.raises(duckdb.PermissionException):
            con.execute(f"SELECT * FROM read_text('{world / 'secret.txt'}')").fetchall()
        with pytest.raises(duckdb.Error):
            con.execute("DELETE FROM events")
    finally:
        con.close()


def test_statement_check_uses_the_parser_not_the_text() -> None:
    for ok in (
        "SELECT 1",
        "  -- a comment\n select 1 ;",
        "FROM events",
        "WITH a AS (SELECT 1) SELECT * FROM a",
        "VALUES (1), (2)",
        "DESCRIBE events",
        "SHOW TABLES",
        "SUMMARIZE games",
        "EXPLAIN SELECT 1",
        "EXPLAIN ANALYZE SELECT 1",
        "/* x */ EXPLAIN (FORMAT json) SELECT 1",
        "PIVOT events ON type IN ('bid_placed') USING count(*)",
        "SELECT 'DELETE FROM events; DROP TABLE games'",
    ):
        check_statement(ok)
    for bad in ("DELETE FROM events", "EXPLAIN ANALYZE INSERT INTO t VALUES (1)", "CALL f()"):
        with pytest.raises(StatementRefused):
            check_statement(bad)
    with pytest.raises(QueryFailed, match="SQL error"):
        check_statement("SELEC 1")


def test_legitimate_queries_work_in_every_format(world: Path) -> None:
    db = world / "games.duckdb"
    with DuckStore(db, read_only=True) as store:
        (game_id,) = store.query("SELECT game_id FROM games")[1][0]
        n_bids = store.query("SELECT count(*) FROM bids")[1][0][0]
    assert n_bids > 0
    queries = {
        "join": "SELECT g.seed, s.seat, s.score FROM games g JOIN scores s USING (game_id)"
        " ORDER BY s.seat",
        "aggregate": "SELECT count(*) AS n, count(amount) AS bids FROM bids",
        "json": "SELECT payload->>'$.type' AS type, count(*) AS n FROM events"
        " GROUP BY ALL ORDER BY n DESC, type LIMIT 3",
        "macro": "SELECT animal_value('horse') AS v",
        "explain": "EXPLAIN SELECT count(*) FROM events",
        "describe": "DESCRIBE bids",
        "show": "SHOW TABLES",
        "summarize": "SUMMARIZE games",
    }
    wanted = [
        ("join", "table"),
        ("join", "csv"),
        ("join", "json"),
        ("aggregate", "csv"),
        ("json", "json"),
        ("macro", "json"),
        ("explain", "table"),
        ("describe", "table"),
        ("show", "csv"),
        ("summarize", "json"),
    ]
    results = cattle_many([("sql", queries[n], "--format", f, "--db", db) for n, f in wanted])
    by = dict(zip(wanted, results, strict=True))
    for key, r in by.items():
        assert r.returncode == 0, (key, r.stderr)
        assert "Traceback" not in r.stderr
    joined = json.loads(by[("join", "json")].stdout)
    assert [row["seat"] for row in joined] == [0, 1]
    assert all(row["seed"] == 1 for row in joined)
    agg = list(csv.reader(io.StringIO(by[("aggregate", "csv")].stdout)))
    assert agg[0] == ["n", "bids"] and int(agg[1][0]) == n_bids
    types = json.loads(by[("json", "json")].stdout)
    assert len(types) == 3 and all(t["n"] > 0 for t in types)
    assert json.loads(by[("macro", "json")].stdout) == [{"v": 1000}]
    assert "physical_plan" in by[("explain", "table")].stdout
    assert "amount" in by[("describe", "table")].stdout
    assert "events" in by[("show", "csv")].stdout.split()
    table = by[("join", "table")].stdout
    assert re.search(r"^\s+1\s+0\s+\S", table, re.M) and "2 rows" in table  # numbers right-aligned
    assert by[("join", "csv")].stdout.splitlines()[0] == "seed,seat,score"
    assert game_id[:8] in json.loads(by[("summarize", "json")].stdout)[0]["min"]


def test_the_table_format_stops_at_max_rows_and_says_so(world: Path) -> None:
    db = world / "games.duckdb"
    short, full, as_csv = cattle_many(
        [
            ("sql", "SELECT * FROM range(50)", "--max-rows", "10", "--db", db),
            ("sql", "SELECT * FROM range(50)", "--max-rows", "0", "--db", db),
            ("sql", "SELECT * FROM range(50)", "--max-rows", "10", "--format", "csv", "--db", db),
        ]
    )
    assert short.returncode == full.returncode == as_csv.returncode == 0
    assert "first 10 rows shown" in short.stdout and not re.search(r"^\s*10\b", short.stdout, re.M)
    assert "50 rows" in full.stdout and re.search(r"^\s+49\s*$", full.stdout, re.M)
    assert len(as_csv.stdout.splitlines()) == 51


def test_documented_example_queries_run_in_the_sandbox(tmp_path: Path) -> None:
    from runner.cattle.sample import sample_store

    doc = (ROOT / "docs" / "analysis.md").read_text()
    queries = re.findall(r"```sql\n(.*?)```", doc, flags=re.S)
    assert len(queries) >= 5
    path = tmp_path / "docs.duckdb"
    sample_store(path, 3)
    con = open_sandboxed(path)
    try:
        for q in queries:
            assert run_query(con, q).rows, q
    finally:
        con.close()


def test_missing_and_locked_stores_give_the_usual_messages(
    world: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A reader waits for a held store before giving up; the wait's length is not what is
    # tested here (tests/store has it), so a short one keeps this test quick.
    monkeypatch.setenv("CATTLE_LOCK_WAIT", "1")
    missing = tmp_path / "nothing.duckdb"
    r = cattle("sql", "SELECT 1", "--db", missing)
    assert r.returncode == 1 and "no database" in r.stderr
    assert not missing.exists()
    with pytest.raises(StoreMissing):
        open_sandboxed(missing)
    db = tmp_path / "held.duckdb"
    shutil.copy(world / "games.duckdb", db)
    with held_open(db):
        r = cattle("sql", "SELECT 1", "--db", db, env={"CATTLE_LOCK_WAIT": "1"})
        with pytest.raises(StoreLocked):
            open_sandboxed(db)
    assert r.returncode == 1 and "in use by another process" in r.stderr
    assert "Traceback" not in r.stderr
