"""The event store: an append-only game log in DuckDB, and an in-memory twin for tests.

Tables: `games` (one row per game: seed, config, seats, status) and `events` (primary key
`(game_id, seq)`; rows are only ever inserted). Writes go in batches inside transactions.
`visible_to` is NULL for an event every seat may see, an empty list for an engine-only event,
and otherwise the seats that may see it. SQL views over `events` live in `events/views.sql`.
"""

from __future__ import annotations

import datetime as dt
import os
import tempfile
import threading
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, NamedTuple, Self

import duckdb
import msgspec

from events.codec import decode, encode
from events.domain import GameConfig, SeatSpec
from events.game import GameEnded

SCHEMA_VERSION = 1
DEFAULT_DB = Path("data/cattle.duckdb")
VIEWS_DIR = Path(__file__).parent


def view_files() -> list[Path]:
    """SQL files defining the views: views.sql first, then views_*.sql in name order."""
    return [VIEWS_DIR / "views.sql", *sorted(VIEWS_DIR.glob("views_*.sql"))]


class StoreError(RuntimeError):
    """A problem with the game store that the user can act on."""


class StoreMissing(StoreError):
    """The database file does not exist."""


class StoreLocked(StoreError):
    """Another process holds the database open for writing."""


class GameNotFound(StoreError):
    """No game with this id is stored."""


class GameRow(msgspec.Struct, kw_only=True):
    """One stored game's metadata."""

    game_id: str
    seed: int
    config: GameConfig
    seats: tuple[SeatSpec, ...]
    engine_version: str
    game: str = "cattle-trade"
    status: str = "running"
    """running | finished | abandoned."""
    created_at: dt.datetime | None = None
    ended_at: dt.datetime | None = None
    end_reason: str | None = None
    tournament: str | None = None
    events: int = 0


class Store(ABC):
    """What every store does: record games and their events, give them back in order."""

    @abstractmethod
    def begin_game(self, row: GameRow) -> None:
        """Register a game (status "running") before its first events are appended."""

    @abstractmethod
    def append(self, game_id: str, events: Sequence[Any], turns: Sequence[int]) -> None:
        """Append events (with their turns) after the game's last stored event."""

    @abstractmethod
    def end_game(self, game_id: str, status: str, end_reason: str | None) -> None:
        """Mark a game finished (or abandoned)."""

    @abstractmethod
    def load_events(self, game_id: str, upto: int | None = None) -> list[Any]:
        """A game's events in order, up to and including seq `upto`."""

    @abstractmethod
    def get_game(self, game_id: str) -> GameRow:
        """One game's row; raises `GameNotFound`."""

    @abstractmethod
    def list_games(self, tournament: str | None = None) -> list[GameRow]:
        """Stored games, oldest first."""

    def save_game(self, row: GameRow, events: Sequence[Any], turns: Sequence[int]) -> None:
        """Store a whole played game at once."""
        self.save_games([(row, events, turns)])

    @abstractmethod
    def save_games(self, games: Iterable[tuple[GameRow, Sequence[Any], Sequence[int]]]) -> None:
        """Store several finished games in one transaction."""

    def close(self) -> None:
        """Release the store."""
        return None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC).replace(tzinfo=None)


def _finished(row: GameRow, events: Sequence[Any]) -> GameRow:
    last = events[-1] if events else None
    reason = last.reason if isinstance(last, GameEnded) else None
    return msgspec.structs.replace(
        row,
        status="finished" if reason else row.status,
        end_reason=reason,
        ended_at=_now() if reason else None,
        created_at=row.created_at or _now(),
    )


class MemoryStore(Store):
    """A store in plain Python structures, with the same behaviour as the DuckDB store."""

    def __init__(self) -> None:
        self._games: dict[str, GameRow] = {}
        self._events: dict[str, list[bytes]] = {}

    def begin_game(self, row: GameRow) -> None:
        if row.game_id in self._games:
            raise StoreError(f"game {row.game_id} is already stored")
        self._games[row.game_id] = msgspec.structs.replace(row, status="running", created_at=_now())
        self._events[row.game_id] = []

    def append(self, game_id: str, events: Sequence[Any], turns: Sequence[int]) -> None:
        if game_id not in self._games:
            raise GameNotFound(f"no game {game_id!r}")
        self._events[game_id].extend(encode(e) for e in events)

    def end_game(self, game_id: str, status: str, end_reason: str | None) -> None:
        row = self.get_game(game_id)
        self._games[game_id] = msgspec.structs.replace(
            row, status=status, end_reason=end_reason, ended_at=_now()
        )

    def load_events(self, game_id: str, upto: int | None = None) -> list[Any]:
        self.get_game(game_id)
        rows = self._events[game_id]
        if upto is not None:
            rows = rows[: upto + 1]
        return [decode(b) for b in rows]

    def get_game(self, game_id: str) -> GameRow:
        row = self._games.get(game_id)
        if row is None:
            raise GameNotFound(f"no game {game_id!r}")
        return msgspec.structs.replace(row, events=len(self._events[game_id]))

    def list_games(self, tournament: str | None = None) -> list[GameRow]:
        return [
            self.get_game(g)
            for g, r in self._games.items()
            if tournament is None or r.tournament == tournament
        ]

    def save_games(self, games: Iterable[tuple[GameRow, Sequence[Any], Sequence[int]]]) -> None:
        staged = list(games)
        for row, _, _ in staged:
            if row.game_id in self._games:
                raise StoreError(f"game {row.game_id} is already stored")
        for row, events, _ in staged:
            self._games[row.game_id] = _finished(row, events)
            self._events[row.game_id] = [encode(e) for e in events]


_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key VARCHAR PRIMARY KEY, value VARCHAR);
CREATE TABLE IF NOT EXISTS games (
    game_id VARCHAR PRIMARY KEY,
    game VARCHAR NOT NULL,
    seed BIGINT NOT NULL,
    config JSON NOT NULL,
    seats JSON NOT NULL,
    engine_version VARCHAR NOT NULL,
    status VARCHAR NOT NULL,
    created_at TIMESTAMP,
    ended_at TIMESTAMP,
    end_reason VARCHAR,
    tournament VARCHAR
);
CREATE TABLE IF NOT EXISTS events (
    game_id VARCHAR NOT NULL,
    seq INTEGER NOT NULL,
    type VARCHAR NOT NULL,
    turn INTEGER NOT NULL,
    actor SMALLINT,
    visible_to SMALLINT[],
    payload JSON NOT NULL,
    PRIMARY KEY (game_id, seq)
);
"""

# Events are bulk-loaded through a temporary delimited file: DuckDB's CSV reader ingests it
# several times faster than binding Python lists. The unit separator never occurs in the
# fields (JSON escapes control characters).
_SEP = "\x1f"
_LOAD_EVENTS = (
    "INSERT INTO events SELECT * FROM read_csv(?, delim = '\x1f', quote = '', escape = '',"
    " header = false, auto_detect = false, columns = {'game_id': 'VARCHAR', 'seq': 'INTEGER',"
    " 'type': 'VARCHAR', 'turn': 'INTEGER', 'actor': 'SMALLINT', 'visible_to': 'SMALLINT[]',"
    " 'payload': 'JSON'})"
)
_INSERT_GAME = "INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
_GAME_COLUMNS = (
    "game_id, game, seed, config, seats, engine_version, status, created_at, ended_at,"
    " end_reason, tournament"
)


def _event_lines(
    game_id: str, first: int, events: Sequence[Any], turns: Sequence[int]
) -> list[str]:
    """One delimited line per event: game_id, seq, type, turn, actor, visible_to, payload."""
    out = []
    for i, (e, turn) in enumerate(zip(events, turns, strict=True)):
        actor = e.actor()
        aud = e.audience()
        out.append(
            f"{game_id}{_SEP}{first + i}{_SEP}{e.__struct_config__.tag}{_SEP}{turn}{_SEP}"
            f"{'' if actor is None else actor}{_SEP}{'' if aud is None else list(aud)}{_SEP}"
            f"{encode(e).decode()}\n"
        )
    return out


def _load_lines(con: duckdb.DuckDBPyConnection, lines: list[str]) -> None:
    fd, name = tempfile.mkstemp(prefix="cattle-events-", suffix=".csv")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write("".join(lines))
        con.execute(_LOAD_EVENTS, [name])
    finally:
        os.unlink(name)


class PreparedGame(msgspec.Struct, frozen=True):
    """A finished game as store rows: built where the game was played (a worker process),
    so the single writer only inserts."""

    row: tuple[Any, ...]
    lines: str


def prepare_game(row: GameRow, events: Sequence[Any], turns: Sequence[int]) -> PreparedGame:
    """Turn a finished game into the rows `DuckStore.save_prepared` inserts."""
    return PreparedGame(
        row=_game_values(_finished(row, events)),
        lines="".join(_event_lines(row.game_id, 0, events, turns)),
    )


def _game_values(row: GameRow) -> tuple[Any, ...]:
    return (
        row.game_id,
        row.game,
        row.seed,
        encode(row.config).decode(),
        encode(row.seats).decode(),
        row.engine_version,
        row.status,
        row.created_at,
        row.ended_at,
        row.end_reason,
        row.tournament,
    )


class DuckStore(Store):
    """The game log in one DuckDB file (or ":memory:")."""

    def __init__(
        self, path: str | Path = DEFAULT_DB, *, read_only: bool = False, create: bool = True
    ):
        self.path = str(path)
        if self.path != ":memory:":
            p = Path(self.path)
            if not p.exists():
                if read_only or not create:
                    raise StoreMissing(f"no database at {p} (play a game first, or pass --db)")
                p.parent.mkdir(parents=True, exist_ok=True)
        try:
            self.con = duckdb.connect(self.path, read_only=read_only)
        except duckdb.IOException as exc:
            msg = str(exc)
            if "lock" in msg.lower():
                raise StoreLocked(
                    f"the database {self.path} is in use by another process; wait for it to"
                    " finish or use another --db"
                ) from None
            raise StoreError(f"cannot open {self.path}: {msg}") from None
        except duckdb.Error as exc:
            raise StoreError(f"cannot open {self.path}: {exc}") from None
        self.read_only = read_only
        self._lock = threading.Lock()
        if not read_only:
            self._migrate()
        else:
            self._check_version()

    # ---- schema ----------------------------------------------------------------------------

    def _check_version(self) -> None:
        try:
            got = self.con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        except duckdb.CatalogException:
            raise StoreError(f"{self.path} is not a Cattle Trade database") from None
        if got is None or int(got[0]) != SCHEMA_VERSION:
            raise StoreError(
                f"{self.path} has schema version {got and got[0]}, this version reads {SCHEMA_VERSION}"
            )

    def _migrate(self) -> None:
        con = self.con
        con.execute("BEGIN")
        con.execute(_SCHEMA)
        got = con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        if got is None:
            con.execute("INSERT INTO meta VALUES ('schema_version', ?)", [str(SCHEMA_VERSION)])
        elif int(got[0]) != SCHEMA_VERSION:
            con.execute("ROLLBACK")
            raise StoreError(f"{self.path} has schema version {got[0]}, expected {SCHEMA_VERSION}")
        for path in view_files():
            con.execute(path.read_text())
        con.execute("COMMIT")

    # ---- writing ---------------------------------------------------------------------------

    def _tx(self, fn: Any) -> None:
        with self._lock:
            self.con.execute("BEGIN")
            try:
                fn(self.con)
            except BaseException:
                self.con.execute("ROLLBACK")
                raise
            self.con.execute("COMMIT")

    def begin_game(self, row: GameRow) -> None:
        row = msgspec.structs.replace(row, status="running", created_at=row.created_at or _now())

        def go(con: duckdb.DuckDBPyConnection) -> None:
            try:
                con.execute(_INSERT_GAME, _game_values(row))
            except duckdb.ConstraintException:
                raise StoreError(f"game {row.game_id} is already stored") from None

        self._tx(go)

    def append(self, game_id: str, events: Sequence[Any], turns: Sequence[int]) -> None:
        if not events:
            return

        def go(con: duckdb.DuckDBPyConnection) -> None:
            got = con.execute(
                "SELECT (SELECT count(*) FROM games WHERE game_id = $1),"
                " (SELECT coalesce(max(seq) + 1, 0) FROM events WHERE game_id = $1)",
                [game_id],
            ).fetchone()
            assert got is not None
            if not got[0]:
                raise GameNotFound(f"no game {game_id!r}")
            _load_lines(con, _event_lines(game_id, int(got[1]), events, turns))

        self._tx(go)

    def end_game(self, game_id: str, status: str, end_reason: str | None) -> None:
        def go(con: duckdb.DuckDBPyConnection) -> None:
            found = con.execute(
                "SELECT count(*) FROM games WHERE game_id = ?", [game_id]
            ).fetchone()
            if not found or not found[0]:
                raise GameNotFound(f"no game {game_id!r}")
            con.execute(
                "UPDATE games SET status = ?, end_reason = ?, ended_at = ? WHERE game_id = ?",
                [status, end_reason, _now(), game_id],
            )

        self._tx(go)

    def save_games(self, games: Iterable[tuple[GameRow, Sequence[Any], Sequence[int]]]) -> None:
        self.save_prepared([prepare_game(row, events, turns) for row, events, turns in games])

    def save_prepared(self, games: Sequence[PreparedGame]) -> None:
        """Store games already turned into rows by `prepare_game` (in one transaction)."""
        if not games:
            return
        rows = [g.row for g in games]
        lines = [g.lines for g in games]

        def go(con: duckdb.DuckDBPyConnection) -> None:
            try:
                con.executemany(_INSERT_GAME, rows)
            except duckdb.ConstraintException:
                raise StoreError("a game in this batch is already stored") from None
            _load_lines(con, lines)

        self._tx(go)

    # ---- reading ---------------------------------------------------------------------------

    def load_events(self, game_id: str, upto: int | None = None) -> list[Any]:
        game_id = self.get_game(game_id).game_id
        sql = "SELECT payload FROM events WHERE game_id = ?"
        params: list[Any] = [game_id]
        if upto is not None:
            sql += " AND seq <= ?"
            params.append(upto)
        rows = self.con.execute(sql + " ORDER BY seq", params).fetchall()
        return [decode(r[0]) for r in rows]

    def _rows(self, where: str, params: list[Any]) -> list[GameRow]:
        sql = (
            f"SELECT {_GAME_COLUMNS}, (SELECT count(*) FROM events e WHERE e.game_id = g.game_id)"
            f" FROM games g {where} ORDER BY created_at, game_id"
        )
        out = []
        for r in self.con.execute(sql, params).fetchall():
            out.append(
                GameRow(
                    game_id=r[0],
                    game=r[1],
                    seed=r[2],
                    config=msgspec.json.decode(r[3], type=GameConfig),
                    seats=msgspec.json.decode(r[4], type=tuple[SeatSpec, ...]),
                    engine_version=r[5],
                    status=r[6],
                    created_at=r[7],
                    ended_at=r[8],
                    end_reason=r[9],
                    tournament=r[10],
                    events=r[11],
                )
            )
        return out

    def get_game(self, game_id: str) -> GameRow:
        rows = self._rows("WHERE game_id = ?", [game_id])
        if not rows:
            # Accept a unique prefix, as people copy short ids from tables.
            rows = self._rows("WHERE starts_with(game_id, ?)", [game_id]) if game_id else []
            if len(rows) != 1:
                raise GameNotFound(f"no game {game_id!r} in {self.path}")
        return rows[0]

    def list_games(self, tournament: str | None = None) -> list[GameRow]:
        if tournament is None:
            return self._rows("", [])
        return self._rows("WHERE tournament = ?", [tournament])

    def query(
        self, sql: str, params: Sequence[Any] | None = None
    ) -> tuple[list[str], list[tuple[Any, ...]]]:
        """Run one SQL statement; return column names and rows."""
        cur = self.con.execute(sql, list(params or []))
        cols = [d[0] for d in cur.description] if cur.description else []
        return cols, cur.fetchall()

    def close(self) -> None:
        self.con.close()

    # ---- raw rows --------------------------------------------------------------------------

    def load_rows(self, game_id: str) -> StoredGame:
        """One game's `games` row and `events` rows exactly as stored, nothing decoded
        (events in seq order); raises `GameNotFound`. Verification compares them."""
        got = self.con.execute(
            "SELECT game_id, game, seed, config, seats, engine_version, status, end_reason,"
            " tournament FROM games WHERE game_id = ?",
            [game_id],
        ).fetchone()
        if got is None:
            raise GameNotFound(f"no game {game_id!r} in {self.path}")
        rows = self.con.execute(
            "SELECT seq, type, turn, actor, visible_to, payload FROM events WHERE game_id = ?"
            " ORDER BY seq",
            [game_id],
        ).fetchall()
        return StoredGame._make((*got, [StoredEvent._make(r) for r in rows]))


class StoredEvent(NamedTuple):
    """One `events` row as stored (without its game id)."""

    seq: int
    type: str
    turn: int
    actor: int | None
    visible_to: list[int] | None
    payload: str


class StoredGame(NamedTuple):
    """One `games` row as stored (config and seats as JSON text), with its event rows."""

    game_id: str
    game: str
    seed: int
    config: str
    seats: str
    engine_version: str
    status: str
    end_reason: str | None
    tournament: str | None
    events: list[StoredEvent]
