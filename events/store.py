"""The event store: an append-only game log in DuckDB, and an in-memory twin for tests.

Tables: `games` (one row per game: seed, config, seats, status) and `events` (one row per
event, keyed by `(game_id, seq)`; rows are only ever inserted). Writes go in batches inside transactions.
`visible_to` is NULL for an event every seat may see, an empty list for an engine-only event,
and otherwise the seats that may see it. SQL views over `events` live in `events/views.sql`.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import functools
import hashlib
import itertools
import os
import socket
import sys
import tempfile
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, Self

import msgspec

try:
    import fcntl
except ImportError:  # not on this platform: files are opened without the gate
    fcntl = None  # type: ignore[assignment]

from events import catalog
from events.base import Event
from events.catalog import END_TAG
from events.codec import encode, encode_each
from events.config import SeatSpec
from events.lazy import LazyModule
from events.process import pid_running, process_start

if TYPE_CHECKING:
    import duckdb
else:
    # DuckDB loads on first use: commands that never open a store start without it.
    duckdb = LazyModule("duckdb")

SCHEMA_VERSION = 1
DEFAULT_DB = Path("data/cattle.duckdb")
VIEWS_DIR = Path(__file__).parent


def _schema_digest() -> str:
    """A fingerprint of the tables and views this version creates."""
    h = hashlib.sha256(_SCHEMA.encode())
    for path in all_view_files():
        h.update(path.read_bytes())
    return h.hexdigest()


def view_files() -> list[Path]:
    """SQL files defining the views every game shares: views.sql first (seats, results), then
    views_*.sql in name order (model calls)."""
    return [VIEWS_DIR / "views.sql", *sorted(VIEWS_DIR.glob("views_*.sql"))]


def all_view_files() -> list[Path]:
    """The core views, then each registered game's own views (games in name order)."""
    files = view_files()
    files.extend(p for p in catalog.sql_files() if p not in files)
    return files


def current_views(con: duckdb.DuckDBPyConnection) -> bool:
    """On a read-only connection to a store written by another version, define this
    version's views as temporary ones (they shadow the stored ones for this connection only;
    the file is not touched). Return True if it had to."""
    got = con.execute("SELECT value FROM meta WHERE key = 'schema_digest'").fetchone()
    if got is not None and got[0] == _schema_digest():
        return False
    for path in all_view_files():
        text = path.read_text()
        text = text.replace("CREATE OR REPLACE VIEW", "CREATE OR REPLACE TEMP VIEW")
        text = text.replace("CREATE OR REPLACE MACRO", "CREATE OR REPLACE TEMP MACRO")
        con.execute(text)
    return True


def _decode_config(game: str, text: str | bytes) -> Any:
    """A row's configuration, typed when its game is known and it fits the game's type; as
    stored otherwise (a game whose module is not loaded, or a row naming the wrong game), so
    that listing games never fails on one row."""
    try:
        return msgspec.json.decode(text, type=catalog.config_type(game))
    except (catalog.UnknownGame, msgspec.ValidationError):
        return msgspec.json.decode(text)


def decode_events(game: str, payloads: Iterable[str | bytes], game_id: str = "") -> list[Any]:
    """Events of game `game` from their stored JSON; `StoreDamaged` when one is not an event
    of that game (the games row names another game than the log's, or the log was altered)."""
    dec = catalog.get(game).decoder.decode
    events = []
    for seq, payload in enumerate(payloads):
        try:
            events.append(dec(payload))
        except msgspec.MsgspecError as exc:
            raise StoreDamaged(
                f"game {game_id}: event {seq} is not an event of {game} ({exc}); the games row"
                f" may name the wrong game (cattle replay {game_id} --verify checks it)"
            ) from None
    return events


_LOG_DECODERS: dict[tuple[str, msgspec.json.Decoder[Any]], msgspec.json.Decoder[Any]] = {}


def _log_decoder(game: str) -> msgspec.json.Decoder[Any]:
    """Decodes a JSON array of game `game`'s events in one call (built once per decoder)."""
    one = catalog.get(game).decoder
    key = (game, one)
    dec = _LOG_DECODERS.get(key)
    if dec is None:
        of: Any = list
        dec = _LOG_DECODERS[key] = msgspec.json.Decoder(of[one.type])
    return dec


def decode_log(game: str, array: str | bytes, count: int) -> list[Any] | None:
    """The events of game `game` from a JSON array of `count` stored payloads (as the store's
    JSON column holds them: each one valid JSON on its own, so the array splits where the rows
    do); None when it is not `count` events of that game (the caller then decodes row by row
    to say which one is wrong)."""
    try:
        events: list[Any] = _log_decoder(game).decode(array)
    except msgspec.MsgspecError:
        return None
    return events if len(events) == count else None


def decode_stored(game: str, payloads: Sequence[str], game_id: str = "") -> list[Any]:
    """`decode_events` for payloads read from the store's JSON column, in one decode call for
    the whole log (the same events; the same error naming the first bad one)."""
    got = decode_log(game, "[" + ",".join(payloads) + "]", len(payloads))
    return got if got is not None else decode_events(game, payloads, game_id)


class StoreError(RuntimeError):
    """A problem with the game store that the user can act on."""


class StoreMissing(StoreError):
    """The database file does not exist."""


class StoreLocked(StoreError):
    """Another process holds the database open for writing."""


class GameNotFound(StoreError):
    """No game with this id is stored."""


class StoreDamaged(StoreError):
    """The file is not a readable Cattle Trade database (truncated, corrupted, not DuckDB)."""


class ForeignDatabase(StoreError):
    """A DuckDB file that holds other tables and no Cattle Trade schema."""


LOCK_WAIT_ENV = "CATTLE_LOCK_WAIT"
"""Environment variable: seconds a command waits for another process's lock (default below)."""
READ_WAIT = 10.0
"""Default seconds a reader waits while a writer holds the file."""
WRITE_WAIT = 600.0
"""Default seconds a writer waits while readers or another writer hold the file."""
READER_GRACE = 2.0
"""Longest a writer holds back from reopening the file while readers say they wait for it."""


def lock_wait(default: float) -> float:
    """Seconds to wait for a lock: $CATTLE_LOCK_WAIT if set, else `default`."""
    text = os.environ.get(LOCK_WAIT_ENV)
    if text is None or not text.strip():
        return default
    try:
        value = float(text)
    except ValueError:
        raise StoreError(f"{LOCK_WAIT_ENV} must be a number of seconds, got {text!r}") from None
    if not value >= 0:
        raise StoreError(f"{LOCK_WAIT_ENV} must be 0 or more, got {text!r}")
    return value


_DAMAGE_MARKS = (
    "not a valid duckdb database",
    "corrupt",
    "checksum",
    "could not read enough bytes",
    "serialization error",
    "failed to read",
)


def describe_error(path: str, exc: BaseException) -> StoreError:
    """A `StoreError` with one clear line for a DuckDB failure on the file at `path`."""
    first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    low = first.lower()
    if any(m in low for m in _DAMAGE_MARKS):
        return StoreDamaged(
            f"the database {path} is damaged or is not a DuckDB file ({first}); restore it from"
            " a copy or point --db at another file"
        )
    if "read-only file system" in low or "permission denied" in low:
        return StoreError(f"cannot write to {path}: {first}")
    return StoreError(f"database error in {path}: {first}")


def _is_lock_error(exc: BaseException) -> bool:
    text = str(exc).lower()
    return "lock" in text and ("conflicting" in text or "could not set" in text)


def connect(
    path: str, *, read_only: bool, wait: float, config: dict[str, Any] | None = None
) -> duckdb.DuckDBPyConnection:
    """Open `path`, retrying while another process holds its lock, for up to `wait` seconds.

    DuckDB lets one process write a file, or several read it, never both at once. A process
    that finds the file locked leaves a note (`readers_waiting`); writers here let the file go
    after their current transaction when they see one, so the waiting process (a reader, or
    another writer) waits about one batch.
    """
    deadline = time.monotonic() + wait
    delay = 0.005
    note: Path | None = None
    try:
        while True:
            try:
                with _gate(path, exclusive=False):
                    return duckdb.connect(path, read_only=read_only, config=config or {})
            except duckdb.IOException as exc:
                if not _is_lock_error(exc):
                    raise describe_error(path, exc) from None
                left = deadline - time.monotonic()
                if left <= 0:
                    holder = _lock_holder(str(exc))
                    raise StoreLocked(
                        f"the database {path} is in use by another process{holder} and stayed"
                        f" locked for {wait:g}s; wait for it to finish, set {LOCK_WAIT_ENV} to"
                        " wait longer, or use another --db"
                    ) from None
                if note is None:
                    note = _knock(path)
                time.sleep(min(delay, left))
                delay = min(delay * 1.6, 0.05)
            except duckdb.Error as exc:
                raise describe_error(path, exc) from None
    finally:
        if note is not None:
            _unknock(note)


def _path_tag(path: str) -> str:
    """A short name for the file at `path`, the same through any link to it."""
    return hashlib.sha256(os.path.realpath(path).encode()).hexdigest()[:16]


def _beside(path: str, suffix: str) -> Path:
    """A name beside the file at `path` (the same through any link to it)."""
    real = Path(os.path.realpath(path))
    return real.with_name(f"{real.name}.{suffix}")


def _knock_dir(path: str) -> Path:
    """Where readers of `path` leave notes for its writer: a folder beside the file, there
    only while a reader waits."""
    return _beside(path, "readers")


@contextlib.contextmanager
def _gate(path: str, *, exclusive: bool) -> Iterator[None]:
    """Hold the file's gate: processes opening `path` share it, a writer closing it holds it
    alone.

    DuckDB lets the next process take a file while the writer that had it is still finishing
    its close; a writer that opens it then sees an older state and, writing over it, erases
    the other's last commits. Opening and closing under this lock keeps the two apart. The
    gate is a file beside the database (`NAME.gate`), removed by whoever lets it go last; where
    none can be made (a read-only folder, no `fcntl`), files are opened without it.
    """
    if fcntl is None or path == ":memory:":
        yield
        return
    name = _beside(path, "gate")
    fd = _lock_gate(name, exclusive)
    if fd is None:
        yield
        return
    try:
        yield
    finally:
        _let_gate_go(fd, name)


def _lock_gate(name: Path, exclusive: bool) -> int | None:
    """An open, locked descriptor of the gate file `name` (made if missing), or None."""
    while True:
        try:
            # O_NOFOLLOW: a link put in the gate's place is refused, never followed.
            fd = os.open(name, os.O_RDONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o666)
        except OSError:
            return None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
            # The holder before may have removed the file while this one waited (and another
            # process made a new one): only the file at the name now is the gate.
            here, there = os.fstat(fd), os.stat(name)
            if (here.st_dev, here.st_ino) == (there.st_dev, there.st_ino):
                return fd
        except FileNotFoundError:
            pass
        except OSError:
            os.close(fd)
            return None
        os.close(fd)


def _let_gate_go(fd: int, name: Path) -> None:
    """Release the gate, removing its file when no other process holds or waits for it."""
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        pass  # another holds it: the last one removes the file
    else:
        # Held alone: the file at the name is this one (a remover holds it alone too).
        with contextlib.suppress(OSError):
            os.unlink(name)
    finally:
        os.close(fd)


_knocks = itertools.count()


def _knock(path: str) -> Path | None:
    """Leave a note that this process waits to read `path`; None if no note can be left."""
    folder = _knock_dir(path)
    for _ in range(3):  # the folder may be removed by a reader that was done just then
        try:
            folder.mkdir(exist_ok=True)
            note = folder / f"{os.getpid()}-{next(_knocks)}"
            note.touch()
        except OSError:
            continue
        return note
    return None


def _unknock(note: Path) -> None:
    """Take a note back, and the notes' folder with it when it holds no other."""
    with contextlib.suppress(OSError):
        note.unlink()
    with contextlib.suppress(OSError):
        note.parent.rmdir()  # refused while another note is there


def readers_waiting(path: str) -> bool:
    """True if another live process waits to open `path` (notes of dead ones are removed)."""
    folder = _knock_dir(path)
    try:
        names = os.listdir(folder)
    except OSError:
        return False
    waiting = False
    me = str(os.getpid())
    for name in names:
        pid_text = name.split("-", 1)[0]
        if pid_text == me:
            continue
        alive = pid_text.isdigit() and pid_running(int(pid_text))
        if alive:
            waiting = True
        else:
            _unknock(folder / name)
    return waiting


def _lock_holder(message: str) -> str:
    marker = "(PID "
    at = message.find(marker)
    if at < 0:
        return ""
    end = message.find(")", at)
    return f" (pid {message[at + len(marker) : end]})" if end > at else ""


# ---- who is writing ---------------------------------------------------------------------------


class Writer(msgspec.Struct, frozen=True, kw_only=True):
    """The process that writes a game or runs a tournament."""

    host: str
    pid: int
    started: str | None
    """Process start time (Linux clock ticks since boot), or None where unknown."""

    @classmethod
    def me(cls) -> Writer:
        """This process."""
        return cls(host=socket.gethostname(), pid=os.getpid(), started=process_start(os.getpid()))

    def alive(self) -> bool | None:
        """True if the process still runs, False if it is gone, None if it is on another host."""
        if self.host != socket.gethostname():
            return None
        if self.pid == os.getpid():
            return True
        if not pid_running(self.pid):
            return False
        now = process_start(self.pid)
        return self.started is None or now is None or now == self.started

    def describe(self) -> str:
        """Where the writer runs, for messages."""
        return f"pid {self.pid} on {self.host}"


class GameRow(msgspec.Struct, kw_only=True):
    """One stored game's metadata."""

    game_id: str
    seed: int
    config: Any
    """The game's configuration (of its definition's `config_type`)."""
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
    def reopen_game(self, game_id: str) -> None:
        """Mark an unfinished game running again, written by this process (to continue it)."""

    @abstractmethod
    def load_events(self, game_id: str, upto: int | None = None) -> list[Any]:
        """A game's events in order, up to and including seq `upto`."""

    @abstractmethod
    def get_game(self, game_id: str) -> GameRow:
        """One game's row; raises `GameNotFound`."""

    @abstractmethod
    def list_games(self, tournament: str | None = None) -> list[GameRow]:
        """Stored games, oldest first."""

    def load_logs(
        self, game_ids: Sequence[str] | None = None, *, batch: int = 64
    ) -> Iterator[tuple[str, list[Any]]]:
        """`(game_id, events)` for each stored game among `game_ids` (every game when None),
        in game id order; ids not stored are passed over."""
        wanted = {r.game_id for r in self.list_games()} if game_ids is None else set(game_ids)
        for gid in sorted(wanted):
            try:
                self.get_game(gid)
            except GameNotFound:
                continue
            yield gid, self.load_events(gid)

    def save_game(self, row: GameRow, events: Sequence[Any], turns: Sequence[int]) -> None:
        """Store a whole played game at once."""
        self.save_games([(row, events, turns)])

    @abstractmethod
    def save_games(self, games: Iterable[tuple[GameRow, Sequence[Any], Sequence[int]]]) -> None:
        """Store several finished games in one transaction."""

    def release(self) -> None:
        """Let other processes use the underlying file until the next call (if it has one)."""
        return None

    def yield_to_readers(self) -> None:
        """Let the underlying file go if another process waits to read it."""
        return None

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
    reason = last.reason if last is not None and last.__struct_config__.tag == END_TAG else None
    return msgspec.structs.replace(
        row,
        status="finished" if reason else row.status,
        end_reason=reason or row.end_reason,  # (a failed game's error)
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

    def reopen_game(self, game_id: str) -> None:
        row = self.get_game(game_id)
        if row.status == "finished":
            raise StoreError(f"game {game_id} is finished; there is nothing to continue")
        self._games[game_id] = msgspec.structs.replace(
            row, status="running", end_reason=None, ended_at=None
        )

    def load_events(self, game_id: str, upto: int | None = None) -> list[Any]:
        self.get_game(game_id)
        rows = self._events[game_id]
        if upto is not None:
            rows = rows[: upto + 1]
        return decode_events(self._games[game_id].game, rows, game_id)

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
    payload JSON NOT NULL
);
CREATE TABLE IF NOT EXISTS writers (
    key VARCHAR PRIMARY KEY,
    host VARCHAR NOT NULL,
    pid INTEGER NOT NULL,
    started VARCHAR,
    since TIMESTAMP NOT NULL,
    heartbeat TIMESTAMP NOT NULL
);
"""
# `events` has no primary key: keeping its index costs about a third of every write and
# grows with the file. `(game_id, seq)` stays unique by construction: a game's rows are
# written by one writer (its games row is refused twice by the games key), a finished game in
# one transaction numbered from 0, a running one after `max(seq)` read in the same transaction.
# Files made before keep their key; both read the same.
_OUR_TABLES = frozenset({"meta", "games", "events", "writers"})

# Events are bulk-loaded through a temporary delimited file: DuckDB's CSV reader ingests it
# several times faster than binding Python lists. The unit separator never occurs in the
# fields (JSON escapes control characters). The reader's line limit (2 MB by default) is
# raised to 1 GB: one event holds a model's whole answer, however long the server made it.
_SEP = "\x1f"
_LOAD_EVENTS = (
    "INSERT INTO events SELECT * FROM read_csv(?, delim = '\x1f', quote = '', escape = '',"
    " header = false, auto_detect = false, max_line_size = 1073741824,"
    " columns = {'game_id': 'VARCHAR', 'seq': 'INTEGER',"
    " 'type': 'VARCHAR', 'turn': 'INTEGER', 'actor': 'SMALLINT', 'visible_to': 'SMALLINT[]',"
    " 'payload': 'JSON'})"
)
# One game's stored payloads as a JSON array, and how many there are.
_LOG_ARRAY = (
    "SELECT count(*), '[' || string_agg(payload, ',' ORDER BY seq) || ']' FROM events WHERE {where}"
)
# Every selected game's log, one row per game.
_LOGS = (
    "SELECT g.game_id, g.game, count(e.seq),"
    " '[' || string_agg(e.payload, ',' ORDER BY e.seq) || ']'"
    " FROM games g LEFT JOIN events e ON e.game_id = g.game_id {where}"
    " GROUP BY g.game_id, g.game ORDER BY g.game_id"
)
_INSERT_GAME = "INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
_GAME_ROW = "(" + ", ".join("?" * 11) + ")"
_GAMES_PER_INSERT = 256


def _insert_games(con: duckdb.DuckDBPyConnection, rows: Sequence[Sequence[Any]]) -> None:
    """Insert games rows, many to a statement: DuckDB's executemany runs one statement per
    row, which cost more than playing a short game."""
    for start in range(0, len(rows), _GAMES_PER_INSERT):
        chunk = rows[start : start + _GAMES_PER_INSERT]
        sql = "INSERT INTO games VALUES " + ", ".join([_GAME_ROW] * len(chunk))
        con.execute(sql, [value for row in chunk for value in row])


_GAME_COLUMNS = (
    "game_id, game, seed, config, seats, engine_version, status, created_at, ended_at,"
    " end_reason, tournament"
)


_Shape = tuple[str, str | None, bool, bool]
_SHAPES: dict[type, _Shape] = {}


def _overrides(cls: type, name: str) -> bool:
    return getattr(cls, name) is not getattr(Event, name)


def _shape(cls: Any) -> _Shape:
    """An event class's tag and actor field, and whether it defines its own `actor` or
    `audience` (then they are asked; otherwise read without a call)."""
    shape = _SHAPES.get(cls)
    if shape is None:
        own_actor, own_audience = _overrides(cls, "actor"), _overrides(cls, "audience")
        shape = _SHAPES[cls] = (cls.__struct_config__.tag, cls.ACTOR, own_actor, own_audience)
    return shape


def event_shape(cls: Any) -> _Shape:
    """An event class's tag, its actor field (None: no actor, or `actor` answers), and
    whether `actor` and `audience` must be asked (else the field is read, and the audience
    is every seat): what a row's columns are made from."""
    return _shape(cls)


def event_shapes() -> dict[type, _Shape]:
    """The shapes found so far, by class (look a class up here first, then `event_shape`)."""
    return _SHAPES


def _event_lines(
    game_id: str, first: int, events: Sequence[Any], turns: Sequence[int]
) -> list[str]:
    """One delimited line per event: game_id, seq, type, turn, actor, visible_to, payload."""
    out: list[str] = []
    append = out.append
    shapes = _SHAPES
    seq = first
    for e, turn, payload in zip(events, turns, encode_each(events), strict=True):
        cls = e.__class__
        tag, field, own_actor, own_audience = shapes.get(cls) or _shape(cls)
        actor = e.actor() if own_actor else None if field is None else getattr(e, field)
        aud = e.audience() if own_audience else None
        append(
            f"{game_id}{_SEP}{seq}{_SEP}{tag}{_SEP}{turn}{_SEP}"
            f"{'' if actor is None else actor}{_SEP}{'' if aud is None else list(aud)}{_SEP}"
            f"{payload}\n"
        )
        seq += 1
    return out


_TEMP_PREFIX = "cattle-events-"


def _load_lines(con: duckdb.DuckDBPyConnection, lines: list[str]) -> None:
    # The writer's pid is in the name so that a later process can remove the file if this one
    # is killed before its `finally` runs (see `sweep_temp_files`).
    fd, name = tempfile.mkstemp(prefix=f"{_TEMP_PREFIX}{os.getpid()}-", suffix=".csv")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write("".join(lines))
        con.execute(_LOAD_EVENTS, [name])
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(name)


def sweep_temp_files(directory: str | None = None) -> list[Path]:
    """Remove bulk-load files left behind by writers that died; return the removed paths."""
    removed = []
    root = Path(directory or tempfile.gettempdir())
    for f in root.glob(f"{_TEMP_PREFIX}*.csv"):
        pid_text = f.name[len(_TEMP_PREFIX) :].split("-", 1)[0]
        if not pid_text.isdigit():
            continue
        pid = int(pid_text)
        if pid == os.getpid() or pid_running(pid):
            continue  # its writer still runs
        with contextlib.suppress(OSError):
            f.unlink()
            removed.append(f)
    return removed


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
    """The game log in one DuckDB file (or ":memory:").

    DuckDB allows one writing process per file, and no reader while it writes. A read-only
    store keeps the file open (shared with other readers) until closed. A writable store keeps
    it between transactions too, but lets it go after a transaction as soon as a reader waits
    (`readers_waiting`), or when told to (`release`); the next write opens it again once the
    readers are done. Opening waits for other processes' locks (`lock_wait`).
    """

    def __init__(
        self,
        path: str | Path = DEFAULT_DB,
        *,
        read_only: bool = False,
        create: bool = True,
        init: bool = False,
        hold: bool = False,
    ):
        self.path = str(path)
        self.read_only = read_only
        self.hold = hold or self.path == ":memory:"
        """Never let the file go before `close` (in-memory stores; tests)."""
        self._reopen = False
        self._lock = threading.RLock()
        self._con: duckdb.DuckDBPyConnection | None = None
        if self.path != ":memory:":
            p = Path(self.path)
            if p.is_dir():
                raise StoreError(f"{p} is a directory; --db takes a database file")
            if not p.exists():
                if read_only or not create:
                    raise StoreMissing(f"no database at {p} (play a game first, or pass --db)")
                _make_parent(p)
            sweep_temp_files()
        wait = lock_wait(READ_WAIT if read_only else WRITE_WAIT)
        self._wait = wait
        if not read_only and self.path != ":memory:" and Path(self.path).exists():
            # Opening for writing can rewrite parts of a damaged file (DuckDB extends a
            # truncated one); look at it read-only first and leave it untouched if it is bad.
            _probe(self.path, wait)
        _ = self.con  # open now: a missing, damaged or foreign file is reported at once
        try:
            if read_only:
                if self.path != ":memory:":
                    _check_size(self.con, self.path)
                self._check_version()
                current_views(self.con)
            else:
                self._migrate(init)
        except BaseException:
            # Nobody can close a store its constructor refused: close it here, not when
            # the interpreter shuts down (which reports the connection leaked).
            self.close()
            raise

    @property
    def con(self) -> duckdb.DuckDBPyConnection:
        """The open connection (reopened, waiting for other processes' locks, if released)."""
        if self._con is None:
            if self._reopen and not self.read_only:
                # Let readers that asked for the file have it before taking it back.
                grace = time.monotonic() + READER_GRACE
                while readers_waiting(self.path) and time.monotonic() < grace:
                    time.sleep(0.01)
            self._con = connect(self.path, read_only=self.read_only, wait=self._wait)
            self._reopen = True
        return self._con

    def release(self) -> None:
        """Let the file go until the next use (readers and other writers may open it)."""
        with self._lock:
            if self._con is not None and not self.hold:
                self._disconnect()

    def yield_to_readers(self) -> None:
        with self._lock:
            if not self.read_only and self._con is not None and readers_waiting(self.path):
                self.release()

    # ---- schema ----------------------------------------------------------------------------

    def _tables(self) -> set[str]:
        return {
            r[0]
            for r in self.con.execute(
                "SELECT table_name FROM duckdb_tables() WHERE database_name = current_database()"
                " AND schema_name = 'main'"
            ).fetchall()
        }

    def _schema_version(self) -> int | None:
        """The stored schema version; None for an empty file."""
        tables = self._tables()
        if "meta" not in tables:
            if tables:
                raise ForeignDatabase(
                    f"{self.path} is a DuckDB database with other tables"
                    f" ({', '.join(sorted(tables)[:5])}) and no Cattle Trade schema; use another"
                    " --db, or pass --init to add the Cattle Trade tables to it"
                )
            return None
        got = self.con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        if got is None:
            raise ForeignDatabase(
                f"{self.path} has a meta table but no Cattle Trade schema version"
            )
        try:
            return int(got[0])
        except (TypeError, ValueError):
            raise StoreDamaged(
                f"{self.path} has an unreadable schema version {got[0]!r}; this version reads"
                f" {SCHEMA_VERSION}"
            ) from None

    def _check_version(self) -> None:
        version = self._schema_version()
        if version is None:
            raise StoreError(f"{self.path} is an empty database: no games stored yet")
        if version != SCHEMA_VERSION:
            raise StoreError(
                f"{self.path} has schema version {version}, this version reads {SCHEMA_VERSION}"
            )

    def _migrate(self, init: bool) -> None:
        try:
            version = self._schema_version()
        except ForeignDatabase:
            if not init:
                raise
            version = None
        if version is not None and version != SCHEMA_VERSION:
            raise StoreError(f"{self.path} has schema version {version}, expected {SCHEMA_VERSION}")
        con = self.con
        digest = _schema_digest()
        if version is not None:
            got = con.execute("SELECT value FROM meta WHERE key = 'schema_digest'").fetchone()
            if got is not None and got[0] == digest:
                return  # tables and views are current: opening changes nothing in the file
        con.execute("BEGIN")
        try:
            con.execute(_SCHEMA)
            if version is None:
                con.execute("INSERT INTO meta VALUES ('schema_version', ?)", [str(SCHEMA_VERSION)])
            for path in all_view_files():
                con.execute(path.read_text())
            con.execute("DELETE FROM meta WHERE key = 'schema_digest'")
            con.execute("INSERT INTO meta VALUES ('schema_digest', ?)", [digest])
        except BaseException:
            con.execute("ROLLBACK")
            raise
        con.execute("COMMIT")

    # ---- writers ---------------------------------------------------------------------------

    def claim(self, key: str) -> None:
        """Record this process as the writer of `key` (a game id or "tournament:NAME").

        Raises `StoreError` if another live process on this host holds it.
        """
        me = Writer.me()

        def go(con: duckdb.DuckDBPyConnection) -> None:
            current = _writer_of(con, key)
            if current is not None and current != me and current.alive() is True:
                raise StoreError(f"{key} is being written by {current.describe()}")
            con.execute("DELETE FROM writers WHERE key = ?", [key])
            now = _now()
            con.execute(
                "INSERT INTO writers VALUES (?, ?, ?, ?, ?, ?)",
                [key, me.host, me.pid, me.started, now, now],
            )

        self._tx(go)

    def writer(self, key: str) -> tuple[Writer, dt.datetime] | None:
        """Who last claimed `key`, and their last heartbeat (None if no one did)."""
        if "writers" not in self._tables():
            return None
        rows = self.con.execute(
            "SELECT host, pid, started, heartbeat FROM writers WHERE key = ?", [key]
        ).fetchall()
        if not rows:
            return None
        host, pid, started, beat = rows[0]
        return Writer(host=host, pid=pid, started=started), beat

    def orphaned(self, game_id: str, stale_after: float = 3600.0) -> bool:
        """True if the unfinished game `game_id` has no live writer.

        On this host the writer's process is checked; a writer on another host counts as gone
        once its heartbeat is older than `stale_after` seconds.
        """
        found = self.writer(game_id)
        if found is None:
            return True  # written by a version that did not record writers
        w, beat = found
        alive = w.alive()
        if alive is None:
            return (_now() - beat).total_seconds() > stale_after
        return not alive

    # ---- writing ---------------------------------------------------------------------------

    def _tx(self, fn: Any) -> None:
        """Run `fn(con)` in one transaction, then let the file go if a reader waits."""
        with self._lock:
            con = self.con
            con.execute("BEGIN")
            try:
                fn(con)
            except BaseException:
                con.execute("ROLLBACK")
                self.release()
                raise
            con.execute("COMMIT")
            self.yield_to_readers()

    def begin_game(self, row: GameRow) -> None:
        row = msgspec.structs.replace(row, status="running", created_at=row.created_at or _now())

        def go(con: duckdb.DuckDBPyConnection) -> None:
            try:
                con.execute(_INSERT_GAME, _game_values(row))
            except duckdb.ConstraintException:
                raise StoreError(f"game {row.game_id} is already stored") from None
            _set_writer(con, row.game_id)

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
            con.execute("UPDATE writers SET heartbeat = ? WHERE key = ?", [_now(), game_id])

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

    def reopen_game(self, game_id: str) -> None:
        def go(con: duckdb.DuckDBPyConnection) -> None:
            got = con.execute("SELECT status FROM games WHERE game_id = ?", [game_id]).fetchone()
            if got is None:
                raise GameNotFound(f"no game {game_id!r}")
            if got[0] == "finished":
                raise StoreError(f"game {game_id} is finished; there is nothing to continue")
            current = _writer_of(con, game_id)
            if current is not None and current != Writer.me() and current.alive() is True:
                raise StoreError(f"game {game_id} is being played by {current.describe()}")
            con.execute(
                "UPDATE games SET status = 'running', end_reason = NULL, ended_at = NULL"
                " WHERE game_id = ?",
                [game_id],
            )
            _set_writer(con, game_id)

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
                _insert_games(con, rows)
            except duckdb.ConstraintException:
                raise StoreError("a game in this batch is already stored") from None
            _load_lines(con, lines)

        self._tx(go)

    # ---- reading ---------------------------------------------------------------------------

    def load_events(self, game_id: str, upto: int | None = None) -> list[Any]:
        row = self.get_game(game_id)
        game_id = row.game_id
        where = "game_id = ?"
        params: list[Any] = [game_id]
        if upto is not None:
            where += " AND seq <= ?"
            params.append(upto)
        # The log comes back as one JSON array, decoded in one call.
        got = self.con.execute(_LOG_ARRAY.format(where=where), params).fetchone()
        assert got is not None
        events = decode_log(row.game, got[1], got[0]) if got[0] else []
        if events is None:  # not events of this game: row by row, to name the bad one
            rows = self.con.execute(
                f"SELECT payload FROM events WHERE {where} ORDER BY seq", params
            ).fetchall()
            events = decode_events(row.game, [r[0] for r in rows], game_id)
        return events

    def load_logs(
        self, game_ids: Sequence[str] | None = None, *, batch: int = 64
    ) -> Iterator[tuple[str, list[Any]]]:
        """Many games' events in one query: `(game_id, events)` for each stored game among
        `game_ids` (every game when None), in game id order; ids not stored are passed over.
        Each game's log arrives as one JSON array and is decoded in one call; `StoreDamaged`
        as from `load_events` for a log that is not its game's events."""
        where, params = "", []
        if game_ids is not None:
            where, params = "WHERE g.game_id IN (SELECT unnest(?))", [list(game_ids)]
        cur = self.con.cursor()
        try:
            cur.execute(_LOGS.format(where=where), params)
            while chunk := cur.fetchmany(batch):
                for gid, game, count, array in chunk:
                    events = decode_log(game, array, count) if count else []
                    if events is None:
                        events = self.load_events(gid)  # raises, naming the bad row
                    yield gid, events
        finally:
            cur.close()

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
                    config=_decode_config(r[1], r[3]),
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
        with self._lock:
            if self._con is not None:
                self._disconnect()

    def _disconnect(self) -> None:
        assert self._con is not None
        # A writer's close finishes writing the file: no process may open it meanwhile.
        with _gate(self.path, exclusive=not self.read_only):
            self._con.close()
        self._con = None

    # ---- raw rows --------------------------------------------------------------------------

    def load_rows(self, game_id: str) -> StoredGame:
        """One game's `games` row and `events` rows exactly as stored, nothing decoded
        (events in seq order); raises `GameNotFound`. Verification compares them."""
        got = self.con.execute(f"{_STORED_GAME} WHERE game_id = ?", [game_id]).fetchone()
        if got is None:
            raise GameNotFound(f"no game {game_id!r} in {self.path}")
        rows = self.con.execute(
            f"SELECT {_STORED_EVENT} FROM events WHERE game_id = ? ORDER BY seq", [game_id]
        ).fetchall()
        return StoredGame._make((*got, list(map(_stored_event, rows))))

    def load_rows_many(self, game_ids: Sequence[str], *, batch: int = 64) -> Iterator[StoredGame]:
        """`load_rows` for many games, in the order of `game_ids`, reading `batch` games per
        query (`events` has no index: each query reads the whole table once, however few
        games it asks for); raises `GameNotFound` on reaching an id that is not stored."""
        ids = list(game_ids)
        for start in range(0, len(ids), batch):
            chunk = ids[start : start + batch]
            heads = {
                r[0]: r
                for r in self.con.execute(
                    f"{_STORED_GAME} WHERE game_id IN (SELECT unnest(?))", [chunk]
                ).fetchall()
            }
            # Under the store's lock no other thread writes through it, and no other process
            # writes while this one has the file open: the counts and the rows agree.
            with self._lock:
                counts = self.con.execute(
                    "SELECT game_id, count(*) FROM events WHERE game_id IN (SELECT unnest(?))"
                    " GROUP BY game_id ORDER BY game_id",
                    [chunk],
                ).fetchall()
                cur = self.con.execute(
                    f"SELECT {_STORED_EVENT} FROM events"
                    " WHERE game_id IN (SELECT unnest(?)) ORDER BY game_id, seq",
                    [chunk],
                )
                columns = None
                if sum(n for _, n in counts) >= _COLUMNAR_ROWS or "numpy" in sys.modules:
                    columns = _fetch_stored_events(cur)
                else:
                    rows = list(map(_stored_event, cur.fetchall()))
            # Rows come in game id order: each game's are the next `count` of them.
            logs: dict[str, Sequence[StoredEvent]] = {}
            at = 0
            for gid, count in counts:
                if columns is None:
                    logs[gid] = rows[at : at + count]
                else:
                    logs[gid] = StoredColumns(tuple(c[at : at + count] for c in columns))
                at += count
            for gid in chunk:
                head = heads.get(gid)
                if head is None:
                    raise GameNotFound(f"no game {gid!r} in {self.path}")
                yield StoredGame._make((*head, logs.get(gid, [])))


def _probe(path: str, wait: float) -> None:
    """Raise `StoreDamaged` if the file is damaged (looked at read-only): shorter than the
    blocks it uses, or any block of any table failing DuckDB's checksum."""
    con = connect(path, read_only=True, wait=wait)
    try:
        _check_size(con, path)
        _check_blocks(con, path)
    finally:
        con.close()


def _check_blocks(con: duckdb.DuckDBPyConnection, path: str) -> None:
    """Read every column of every table once: DuckDB checks each block it reads against its
    checksum, so a damaged one is found here, before anything is written."""
    try:
        tables = con.execute(
            "SELECT schema_name, table_name FROM duckdb_tables()"
            " WHERE database_name = current_database() ORDER BY ALL"
        ).fetchall()
        for schema, table in tables:
            name = '"' + schema.replace('"', '""') + '"."' + table.replace('"', '""') + '"'
            # hash() reads every value; the aggregate keeps the answer one row.
            con.execute(f"SELECT bit_xor(hash(COLUMNS(*))) FROM {name}").fetchall()
    except duckdb.Error as exc:
        raise describe_error(path, exc) from None


def _check_size(con: duckdb.DuckDBPyConnection, path: str) -> None:
    """Raise `StoreDamaged` if the file is shorter than the blocks it says it uses."""
    try:
        got = con.execute("SELECT block_size, used_blocks FROM pragma_database_size()").fetchone()
    except duckdb.Error as exc:
        raise describe_error(path, exc) from None
    if got is not None:
        block_size, used = int(got[0]), int(got[1])
        size = Path(path).stat().st_size
        if size < block_size * used:
            raise StoreDamaged(
                f"the database {path} is damaged: it holds {size:,} bytes but uses"
                f" {used} blocks of {block_size:,}; restore it from a copy or point --db at"
                " another file"
            )


def _make_parent(p: Path) -> None:
    """Create the folder of a new database file, or say clearly why it cannot be."""
    parent = p.parent
    for up in (parent, *parent.parents):
        if up.exists() and not up.is_dir():
            raise StoreError(f"cannot create {p}: {up} is a file, not a folder")
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(f"cannot create the folder {parent} for {p}: {exc.strerror}") from None
    if not os.access(parent, os.W_OK):
        raise StoreError(f"cannot create {p}: the folder {parent} is not writable")


def _writer_of(con: duckdb.DuckDBPyConnection, key: str) -> Writer | None:
    rows = con.execute("SELECT host, pid, started FROM writers WHERE key = ?", [key]).fetchall()
    if not rows:
        return None
    host, pid, started = rows[0]
    return Writer(host=host, pid=pid, started=started)


def _set_writer(con: duckdb.DuckDBPyConnection, key: str) -> None:
    me = Writer.me()
    now = _now()
    con.execute("DELETE FROM writers WHERE key = ?", [key])
    con.execute(
        "INSERT INTO writers VALUES (?, ?, ?, ?, ?, ?)",
        [key, me.host, me.pid, me.started, now, now],
    )


_STORED_GAME = (
    "SELECT game_id, game, seed, config, seats, engine_version, status, end_reason, tournament"
    " FROM games"
)
_STORED_EVENT = "seq, type, turn, actor, visible_to, payload"


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
    events: Sequence[StoredEvent]


_stored_event = functools.partial(tuple.__new__, StoredEvent)
"""A `StoredEvent` from a fetched row, without the Python-level constructor."""


class StoredColumns(Sequence[StoredEvent]):
    """A game's event rows as fetched, one list per column (`_STORED_EVENT`'s order); a row
    is made only when one is asked for. Verification compares whole columns, without a
    tuple per row."""

    __slots__ = ("_rows", "columns")

    def __init__(self, columns: tuple[list[Any], ...]) -> None:
        self.columns = columns
        self._rows: list[StoredEvent] | None = None

    @property
    def payloads(self) -> list[str]:
        """The payload column."""
        return self.columns[5]

    def rows(self) -> list[StoredEvent]:
        """Every row, made once."""
        if self._rows is None:
            self._rows = list(map(_stored_event, zip(*self.columns, strict=True)))
        return self._rows

    def __len__(self) -> int:
        return len(self.columns[0])

    def __getitem__(self, i: Any) -> Any:
        if self._rows is None and isinstance(i, int):  # one row: made alone
            return _stored_event(c[i] for c in self.columns)
        return self.rows()[i]

    def __iter__(self) -> Iterator[StoredEvent]:
        return iter(self.rows())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, StoredColumns):
            return self.columns == other.columns
        return isinstance(other, Sequence) and self.rows() == list(other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(self.rows())


_COLUMNAR_ROWS = 100_000
"""From how many event rows a read fetches them a column at a time even when numpy is not
imported yet: importing it costs about 0.1 s of CPU, what the columns save on about that
many rows."""


def _fetch_stored_events(cur: duckdb.DuckDBPyConnection) -> tuple[list[Any], ...]:
    """The columns of a `SELECT {_STORED_EVENT}` query, the same values `fetchall` gives:
    fetched a column at a time (DuckDB builds one array per column, and each becomes a list
    in one call), which takes about half the CPU of a tuple per row."""
    import numpy as np

    cols = cur.fetchnumpy()
    vis = cols["visible_to"]
    # A NULL list is masked; a stored list arrives as an int16 array.
    visible = [
        None if hidden else v.tolist()
        for hidden, v in zip(
            np.ma.getmaskarray(vis).tolist(), np.ma.getdata(vis).tolist(), strict=True
        )
    ]
    # `tolist` turns a masked value (a NULL actor) into None, and numbers into ints.
    return (
        cols["seq"].tolist(),
        cols["type"].tolist(),
        cols["turn"].tolist(),
        cols["actor"].tolist(),
        visible,
        cols["payload"].tolist(),
    )
