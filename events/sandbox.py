"""Ad-hoc SQL over the store in a sandbox that cannot change or leak anything.

`cattle sql` runs whatever text a user types, so its safety rests on DuckDB's own settings,
not on inspecting the SQL: the file is opened read-only, every file system and network access
is off (no COPY, EXPORT, ATTACH or file readers), extensions cannot be installed or loaded,
nothing spills to a temporary directory, memory and threads are capped, a query that runs too
long is stopped, and the configuration is locked so no statement can undo any of it. On top of
that, DuckDB's parser must see exactly one query statement (SELECT, or EXPLAIN of one), so a
refused statement gets a message that names it instead of an engine error.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from events.lazy import LazyModule
from events.store import (
    READ_WAIT,
    SCHEMA_VERSION,
    DuckStore,
    StoreError,
    connect,
    current_views,
    lock_wait,
)

if TYPE_CHECKING:
    import duckdb
else:
    # DuckDB loads on first use: commands that never open a store start without it.
    duckdb = LazyModule("duckdb")

DEFAULT_TIMEOUT = 60.0
"""Seconds a query may run before it is stopped."""
MEMORY_LIMIT = "2GB"
MAX_THREADS = 4

ALLOWED = "SELECT, WITH, FROM, VALUES, EXPLAIN, DESCRIBE, SHOW, SUMMARIZE"


class SandboxError(Exception):
    """A query the sandbox did not run to its end; the message is one line for the user."""


class StatementRefused(SandboxError):
    """The text is not exactly one read-only query."""


class QueryFailed(SandboxError):
    """DuckDB rejected the query (syntax, unknown table, a blocked file access, ...)."""


class QueryTimeout(SandboxError):
    """The query ran longer than its time limit."""


@dataclass(frozen=True)
class QueryResult:
    """Column names, the rows fetched, and whether more rows were left unfetched."""

    columns: list[str]
    rows: list[tuple[Any, ...]]
    truncated: bool = False


def _config(timeout: float | None) -> dict[str, Any]:
    # temp_directory is left alone: DuckDB applies these in no fixed order and refuses to
    # change it once external access is off. Spilling is stopped by taking the local file
    # system away after opening (see open_sandboxed), since max_temp_directory_size alone
    # still lets a sort spill into DB.tmp.
    return {
        "enable_external_access": False,
        "autoload_known_extensions": False,
        "autoinstall_known_extensions": False,
        "allow_community_extensions": False,
        "allow_unsigned_extensions": False,
        "allow_extension_repositories": "forbidden",
        "allow_persistent_secrets": False,
        "python_enable_replacements": False,
        "max_temp_directory_size": "0B",
        "memory_limit": MEMORY_LIMIT,
        "threads": max(1, min(MAX_THREADS, os.cpu_count() or 1)),
        "max_execution_time": int(timeout * 1000) if timeout else 0,
    }


def open_sandboxed(path: str | Path, *, timeout: float | None = DEFAULT_TIMEOUT) -> Any:
    """The store file at `path`, opened read-only with every way out of the sandbox closed."""
    p = Path(path)
    # The usual checks first (missing, damaged, foreign, schema version; waiting for a writer),
    # through an ordinary read-only open, then the sandboxed one.
    DuckStore(p, read_only=True).close()
    con = connect(str(p), read_only=True, wait=lock_wait(READ_WAIT), config=_config(timeout))
    try:
        # Both can only be set once the database runs: the file is already open, so taking
        # the local file system away leaves the store readable and every other file out of
        # reach; the lock then keeps every statement from changing any setting back.
        _check_schema(con, p)
        # Views of this version, for a file written by another (temporary: nothing is stored).
        current_views(con)
        con.execute("SET disabled_filesystems = 'LocalFileSystem'")
        con.execute("SET lock_configuration = true")
    except BaseException:
        con.close()
        raise
    return con


def _check_schema(con: Any, path: Path) -> None:
    try:
        got = con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    except duckdb.CatalogException:
        raise StoreError(f"{path} is not a Cattle Trade database") from None
    if got is None or str(got[0]) != str(SCHEMA_VERSION):
        raise StoreError(
            f"{path} has schema version {got and got[0]}, this version reads {SCHEMA_VERSION}"
        )


# ---------------------------------------------------------------------------- statements


def _tokens(text: str) -> list[tuple[int, str, Any]]:
    """DuckDB's tokens of `text` without comments: (start, text, kind)."""
    raw = duckdb.tokenize(text)
    out = []
    for i, (start, kind) in enumerate(raw):
        end = raw[i + 1][0] if i + 1 < len(raw) else len(text)
        if kind != duckdb.token_type.comment:
            out.append((start, text[start:end].strip(), kind))
    return out


def _first_word(text: str) -> str:
    tokens = _tokens(text)
    return tokens[0][1].upper() if tokens else "empty"


def _explained(text: str) -> str:
    """The statement an EXPLAIN statement explains (after ANALYZE and an option list)."""
    tokens = _tokens(text)
    i = 1  # tokens[0] is EXPLAIN
    if i < len(tokens) and tokens[i][1].upper() in ("ANALYZE", "ANALYSE"):
        i += 1
    if i < len(tokens) and tokens[i][1].startswith("("):
        depth = 0
        while i < len(tokens):
            if tokens[i][2] == duckdb.token_type.operator:
                depth += tokens[i][1].count("(") - tokens[i][1].count(")")
            i += 1
            if depth <= 0:
                break
    return text[tokens[i][0] :] if i < len(tokens) else ""


def _kind(statement: Any) -> str:
    try:
        return str(statement.type.name)
    except ValueError:  # a statement type newer than the Python enum knows
        return "unknown"


def _refuse(text: str, kind: str) -> StatementRefused:
    word = _first_word(text)
    what = word if kind in (word, "unknown") else f"{word} ({kind})"
    hint = "; give PIVOT an IN list to make it one query" if kind == "MULTI" else ""
    return StatementRefused(
        f"refused {what}: cattle sql runs one read-only query ({ALLOWED}){hint}"
    )


def check_statement(sql: str) -> Any:
    """The one query statement in `sql` as parsed by DuckDB; anything else is refused."""
    try:
        statements = duckdb.extract_statements(sql)
    except duckdb.Error as exc:
        raise QueryFailed(f"SQL error: {str(exc).splitlines()[0]}") from None
    if not statements:
        raise StatementRefused("no SQL statement given")
    if len(statements) > 1:
        kinds = ", ".join(_first_word(s.query) for s in statements)
        raise StatementRefused(f"one statement at a time, got {len(statements)} ({kinds})")
    statement = statements[0]
    kind = _kind(statement)
    if kind == "SELECT":
        return statement
    if kind == "EXPLAIN":
        inner_text = _explained(statement.query)
        try:
            inner = duckdb.extract_statements(inner_text) if inner_text.strip() else []
        except duckdb.Error as exc:
            raise QueryFailed(f"SQL error: {str(exc).splitlines()[0]}") from None
        if len(inner) == 1 and _kind(inner[0]) == "SELECT":
            return statement
        if len(inner) == 1:
            raise _refuse(inner[0].query, _kind(inner[0]))
        raise StatementRefused("EXPLAIN runs on one query only")
    raise _refuse(statement.query, kind)


# ---------------------------------------------------------------------------- running


PYTHON_TYPES = frozenset(
    {
        "boolean",
        "tinyint",
        "smallint",
        "integer",
        "bigint",
        "hugeint",
        "utinyint",
        "usmallint",
        "uinteger",
        "ubigint",
        "uhugeint",
        "float",
        "double",
        "decimal",
        "varchar",
        "enum",
        "uuid",
        "blob",
    }
)
"""Column types whose every value becomes a Python value as it is. DuckDB writes every other
type out as text itself: dates and times (Python's stop at year 9999, infinity among them;
zone-aware ones need pytz), intervals (Python's stop at 999,999,999 days), and lists, structs
and maps (which may hold any of those)."""

BATCH_ROWS = 10_000
"""Rows fetched at a time: what a query gives is written out as it comes, never held whole."""


@dataclass(frozen=True)
class Column:
    """A result column: its name, and whether its values come as DuckDB's text (`text`), as
    JSON text DuckDB wrote (`json`), or as Python values (`value`)."""

    name: str
    kind: str = "value"


def _printable(
    con: Any, statement: Any, params: list[Any] | None, as_json: bool
) -> tuple[str, list[Column]]:
    """The query to run for `statement` and its columns: columns of types Python cannot hold
    exactly are converted by DuckDB (to text, or to JSON text when `as_json`)."""
    text = statement.query
    if _kind(statement) != "SELECT":
        return text, []  # EXPLAIN: text columns already
    try:
        rel = con.sql(text, params=params) if params else con.sql(text)
        names, types = list(rel.columns), [str(t.id) for t in rel.types]
    except duckdb.Error:
        return text, []  # the error shows when the query runs
    if all(t in PYTHON_TYPES for t in types):
        return text, [Column(n) for n in names]
    exprs, columns = [], []
    for i, (name, kind) in enumerate(zip(names, types, strict=True), start=1):
        alias = '"' + name.replace('"', '""') + '"'
        if kind in PYTHON_TYPES:
            exprs.append(f"#{i} AS {alias}")
            columns.append(Column(name))
        elif as_json:
            exprs.append(f"CAST(to_json(#{i}) AS VARCHAR) AS {alias}")
            columns.append(Column(name, "json"))
        else:
            exprs.append(f"CAST(#{i} AS VARCHAR) AS {alias}")
            columns.append(Column(name, "text"))
    # The newline ends a comment the query may close with.
    return f"SELECT {', '.join(exprs)} FROM ({text}\n) AS q", columns


class Stream:
    """A query's columns, and its rows a batch at a time (`batches`)."""

    def __init__(self, columns: list[Column], cur: Any, guard: Any) -> None:
        self.columns = columns
        self._cur = cur
        self._guard = guard

    def batches(
        self, size: int = BATCH_ROWS, limit: int | None = None
    ) -> Iterator[list[tuple[Any, ...]]]:
        """The rows, at most `size` at a time (and at most `limit` in all)."""
        left = limit
        while left is None or left > 0:
            want = size if left is None else min(size, left)
            with self._guard():
                rows = self._cur.fetchmany(want)
            if not rows:
                return
            if left is not None:
                left -= len(rows)
            yield rows


@contextlib.contextmanager
def streamed(
    con: Any,
    sql: str,
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    params: Sequence[Any] | None = None,
    as_json: bool = False,
) -> Iterator[Stream]:
    """Check `sql` and run it on a sandboxed connection; the block reads its rows from the
    `Stream` while the time limit runs (fetching is part of the query's time)."""
    statement = check_statement(sql)
    fired = threading.Event()

    def stop() -> None:
        fired.set()
        con.interrupt()

    @contextlib.contextmanager
    def guard() -> Iterator[None]:
        try:
            yield
        except duckdb.InterruptException as exc:
            if fired.is_set() or "execution time" in str(exc):
                raise QueryTimeout(
                    f"the query ran longer than {timeout:g} s and was stopped (see --timeout)"
                ) from None
            raise KeyboardInterrupt from None
        except duckdb.PermissionException as exc:
            msg = str(exc).splitlines()[0]
            if "LocalFileSystem" in msg:
                # Reading a file and spilling past the memory limit both end here.
                msg = (
                    "cattle sql has no file access (no file readers, and no spilling to disk"
                    f" past the {MEMORY_LIMIT} memory limit)"
                )
            raise QueryFailed(f"refused: {msg}") from None
        except duckdb.Error as exc:
            raise QueryFailed(f"SQL error: {str(exc).splitlines()[0]}") from None
        except (OverflowError, ValueError) as exc:  # a value Python cannot hold
            raise QueryFailed(f"a value cannot be shown: {exc}") from None

    # DuckDB's max_execution_time stops the engine; the timer also covers fetching, which
    # continues a streaming query after execute() returns.
    timer = threading.Timer(timeout, stop) if timeout else None
    if timer is not None:
        timer.daemon = True
        timer.start()
    try:
        args = list(params) if params else None
        with guard():
            text, columns = _printable(con, statement, args, as_json)
            cur = con.execute(text, args)
            if not columns and cur.description:
                columns = [Column(d[0]) for d in cur.description]
        yield Stream(columns, cur, guard)
    finally:
        if timer is not None:
            timer.cancel()
            # Wait for the timer's thread to end: while it lives it holds the connection,
            # and a process that leaves meanwhile reports the connection leaked.
            timer.join()


def run_query(
    con: Any,
    sql: str,
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    max_rows: int | None = None,
    params: Sequence[Any] | None = None,
) -> QueryResult:
    """Check `sql`, run it on a sandboxed connection, and fetch at most `max_rows` rows."""
    with streamed(con, sql, timeout=timeout, params=params) as stream:
        rows = [
            r
            for batch in stream.batches(limit=None if max_rows is None else max_rows + 1)
            for r in batch
        ]
    truncated = max_rows is not None and len(rows) > max_rows
    if max_rows is not None:
        rows = rows[:max_rows]
    return QueryResult(columns=[c.name for c in stream.columns], rows=rows, truncated=truncated)
