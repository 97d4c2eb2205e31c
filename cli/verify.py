"""`cattle verify`: prove that stored games are exactly what was played.

Each game gets the full check of `runner.verify` (every column against its payload,
the games row and the tournament schedule against the log, completeness, then an exact
re-simulation). With `--workers N` a pool of processes reads and checks the games, each
through its own read-only connection; results are taken in the order the games were
listed, so "the first bad game" means the same with any number of workers.
"""

from __future__ import annotations

import os
import time
from collections import deque
from collections.abc import Generator, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path
from typing import Annotated, Any, NamedTuple

import msgspec
import typer
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from cli.common import DEFAULT_DB, DbOption, UsageError, _open, app, err, out
from events.store import DuckStore, GameNotFound, StoreError
from runner.verify import GameCheck, Problem, ScheduledGame, check_game

EXIT_FAILED = 1
"""Exit code when a game failed a check."""
EXIT_UNFINISHED = 3
"""Exit code when no game failed but one is unfinished (and that was not allowed)."""
MAX_WORKERS_PER_CPU = 4


class Job(NamedTuple):
    """One game to check, with the schedule rows that name it (None: no tournament tables)."""

    game_id: str
    schedule: list[ScheduledGame] | None


def check_stored(store: DuckStore, job: Job) -> GameCheck:
    """Read one game's rows from `store` and check them."""
    return check_game(store.load_rows(job.game_id), job.schedule)


def verify_stored(store: DuckStore, game_id: str) -> GameCheck:
    """The full check of one stored game (by its exact id)."""
    return check_stored(store, next(jobs(store, [game_id])))


_reader: DuckStore | None = None
"""A worker process's own read-only connection (DuckDB connections do not cross a fork)."""
_reader_error: str | None = None


def _start_worker(db: str) -> None:
    global _reader, _reader_error
    try:
        _reader = DuckStore(db, read_only=True)
    except StoreError as exc:
        _reader_error = str(exc)


def _check_in_worker(job: Job) -> GameCheck:
    if _reader is None:
        raise StoreError(_reader_error or "the worker has no connection to the store")
    return check_stored(_reader, job)


# ---------------------------------------------------------------------------- selection


def _has_schedule(store: DuckStore) -> bool:
    _, rows = store.query(
        "SELECT count(*) FROM information_schema.tables WHERE table_name = 'tournament_games'"
    )
    return bool(rows[0][0])


def _schedules(store: DuckStore) -> dict[str, list[ScheduledGame]] | None:
    """Every schedule row by game id, or None when the store has no tournament tables."""
    if not _has_schedule(store):
        return None
    _, rows = store.query(
        "SELECT game_id, tournament, idx, seed, seats FROM tournament_games ORDER BY tournament, idx"
    )
    found: dict[str, list[ScheduledGame]] = {}
    for gid, name, idx, seed, seats in rows:
        found.setdefault(gid, []).append(
            ScheduledGame(tournament=name, index=idx, seed=seed, seats=seats)
        )
    return found


def _resolve(store: DuckStore, game_id: str) -> str:
    """The full id of a game given by id or unique prefix."""
    _, rows = store.query("SELECT game_id FROM games WHERE game_id = ?", [game_id])
    if not rows and game_id:
        _, rows = store.query(
            "SELECT game_id FROM games WHERE starts_with(game_id, ?) ORDER BY game_id", [game_id]
        )
        if len(rows) > 1:
            raise UsageError(f"{game_id!r} matches {len(rows)} games; give more of the id")
    if not rows:
        raise GameNotFound(f"no game {game_id!r} in {store.path}")
    return str(rows[0][0])


def _select(
    store: DuckStore, ids: Sequence[str], tournament: str | None, every: bool
) -> tuple[list[str], list[GameCheck]]:
    """The games to check, oldest first, and the scheduled games that are not stored."""
    if ids:
        return list(dict.fromkeys(_resolve(store, g) for g in ids)), []
    where, params = ("", []) if every else ("WHERE tournament = ?", [tournament])
    _, rows = store.query(f"SELECT game_id FROM games {where} ORDER BY created_at, game_id", params)
    chosen = [str(r[0]) for r in rows]
    missing: list[GameCheck] = []
    if _has_schedule(store):
        where = "" if every else "AND t.tournament = ?"
        _, rows = store.query(
            "SELECT t.tournament, t.idx, t.game_id FROM tournament_games t"
            f" LEFT JOIN games g ON g.game_id = t.game_id WHERE g.game_id IS NULL {where}"
            " ORDER BY t.tournament, t.idx",
            params,
        )
        for name, idx, gid in rows:
            detail = f"tournament {name!r} schedules game {idx}, which is not stored"
            missing.append(
                GameCheck(
                    game_id=gid,
                    outcome="unfinished",
                    status="not stored",
                    events=0,
                    problem=Problem(check="unfinished", seq=None, detail=detail),
                )
            )
    if not chosen and not missing:
        which = "stored" if every else f"of tournament {tournament!r}"
        raise UsageError(f"no games {which} in {store.path}")
    return chosen, missing


def jobs(store: DuckStore, ids: Sequence[str]) -> Iterator[Job]:
    """The games `ids`, each with the tournament schedule rows that name it."""
    schedules = _schedules(store)
    for gid in ids:
        yield Job(gid, None if schedules is None else schedules.get(gid, []))


# ---------------------------------------------------------------------------- checking


def _checks(
    store: DuckStore, todo: Iterator[Job], workers: int
) -> Generator[GameCheck, None, None]:
    """Checks in the order of `todo`: here, or in a pool of `workers` processes, each of
    which reads its games through its own read-only connection."""
    if workers <= 1:
        for job in todo:
            yield check_stored(store, job)
        return
    pool = ProcessPoolExecutor(
        max_workers=workers, initializer=_start_worker, initargs=(store.path,)
    )
    try:
        queued: deque[Future[GameCheck]] = deque()
        for job in todo:
            queued.append(pool.submit(_check_in_worker, job))
            if len(queued) >= 4 * workers:
                yield queued.popleft().result()
        while queued:
            yield queued.popleft().result()
    finally:
        # Stopping early: drop what has not started, let running checks end.
        pool.shutdown(wait=True, cancel_futures=True)


def is_bad(check: GameCheck, allow_unfinished: bool) -> bool:
    """True for a game that makes the command fail."""
    return check.outcome == "failed" or (check.outcome == "unfinished" and not allow_unfinished)


def exit_code(checks: Sequence[GameCheck], allow_unfinished: bool) -> int:
    """0 when every game passed, EXIT_FAILED if one failed, else EXIT_UNFINISHED."""
    if any(c.outcome == "failed" for c in checks):
        return EXIT_FAILED
    if not allow_unfinished and any(c.outcome == "unfinished" for c in checks):
        return EXIT_UNFINISHED
    return 0


class RateColumn(ProgressColumn):
    """Games checked per second."""

    def render(self, task: Task) -> Text:
        if not task.elapsed or not task.completed:
            return Text("- games/s")
        return Text(f"{task.completed / task.elapsed:.1f} games/s")


def describe(problem: Problem) -> str:
    """The problem as one line: check, seq and detail."""
    at = f" at seq {problem.seq}" if problem.seq is not None else ""
    return f"{problem.check}{at}: {problem.detail}"


def _as_json(check: GameCheck) -> dict[str, Any]:
    data: dict[str, Any] = msgspec.to_builtins(check)
    data["ok"] = check.ok
    return data


# ---------------------------------------------------------------------------- commands


@app.command("verify")
def verify_command(
    game_ids: Annotated[
        list[str] | None, typer.Argument(help="Games to check (ids or unique prefixes).")
    ] = None,
    tournament: Annotated[
        str | None, typer.Option("--tournament", "-t", help="Every game of this tournament.")
    ] = None,
    every: Annotated[bool, typer.Option("--all", help="Every stored game.")] = False,
    keep_going: Annotated[
        bool,
        typer.Option("--keep-going", help="Check every game and list each bad one, not stop."),
    ] = False,
    allow_unfinished: Annotated[
        bool,
        typer.Option(
            "--allow-unfinished",
            help="Accept running or abandoned games whose events are a consistent prefix.",
        ),
    ] = False,
    workers: Annotated[int, typer.Option(help="Processes that read and check games.")] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    db: DbOption = DEFAULT_DB,
) -> None:
    """Check stored games column by column and re-simulate them byte for byte.

    Exit code 0 when every game is verified, 1 when one fails a check, 3 when one is
    unfinished (running or abandoned; accepted with --allow-unfinished). Stops at the first
    such game unless --keep-going.
    """
    chosen = sum((bool(game_ids), tournament is not None, every))
    if chosen != 1:
        raise UsageError("name the games to verify: GAME_ID ..., --tournament NAME or --all")
    cpus = os.cpu_count() or 1
    if not 1 <= workers <= MAX_WORKERS_PER_CPU * cpus:
        raise UsageError(
            f"--workers must be between 1 and {MAX_WORKERS_PER_CPU * cpus}"
            f" ({cpus} CPU(s) here), got {workers}"
        )
    checks: list[GameCheck] = []
    stopped = False
    with _open(db) as store:
        ids, missing = _select(store, game_ids or [], tournament, every)
        total = len(ids) + len(missing)
        columns = (
            TextColumn("[bold]verify"),
            BarColumn(),
            MofNCompleteColumn(),
            RateColumn(),
            TextColumn("elapsed"),
            TimeElapsedColumn(),
            TextColumn("eta"),
            TimeRemainingColumn(),
        )
        start = time.perf_counter()
        with Progress(*columns, console=err) as progress:
            bar = progress.add_task("verify", total=total)
            results = _checks(store, jobs(store, ids), workers)
            try:
                for check in results:
                    checks.append(check)
                    progress.advance(bar)
                    if is_bad(check, allow_unfinished) and not keep_going:
                        stopped = True
                        break
            finally:
                results.close()
        seconds = time.perf_counter() - start
    if not stopped:
        for check in missing:
            checks.append(check)
            if is_bad(check, allow_unfinished) and not keep_going:
                stopped = True
                break
    code = exit_code(checks, allow_unfinished)
    _report(db, checks, total, seconds, stopped, allow_unfinished, as_json)
    raise typer.Exit(code)


def _report(
    db: Path,
    checks: Sequence[GameCheck],
    total: int,
    seconds: float,
    stopped: bool,
    allow_unfinished: bool,
    as_json: bool,
) -> None:
    counts = {k: sum(c.outcome == k for c in checks) for k in ("verified", "failed", "unfinished")}
    simulated = [c for c in checks if c.status != "not stored"]
    rate = len(simulated) / seconds if seconds > 0 else 0.0
    if as_json:
        summary = {
            "checked": len(checks),
            "selected": total,
            **counts,
            "events": sum(c.events for c in checks),
            "seconds": round(seconds, 3),
            "games_per_second": round(rate, 1),
            "stopped_early": stopped,
            "games": [_as_json(c) for c in checks],
        }
        print(msgspec.json.encode(summary).decode())
        return
    table = Table(title=Text(f"Verification of {db}"), show_header=False)
    table.add_column("what")
    table.add_column("value", justify="right")
    for label, value in (
        ("games checked", f"{len(checks)} of {total}"),
        ("verified", str(counts["verified"])),
        ("failed", str(counts["failed"])),
        ("unfinished", str(counts["unfinished"])),
        ("events", f"{sum(c.events for c in checks):,}"),
        ("seconds", f"{seconds:.2f}"),
        ("games/s", f"{rate:.1f}"),
    ):
        table.add_row(label, value)
    out.print(table)
    bad = [c for c in checks if c.outcome != "verified"]
    if bad:
        listing = Table(title="Games not verified")
        for col in ("game id", "outcome", "status", "check", "seq", "detail"):
            listing.add_column(col)
        for c in bad:
            p = c.problem
            listing.add_row(
                Text(c.game_id),
                Text(c.outcome),
                Text(c.status),
                Text(p.check if p else ""),
                Text("" if p is None or p.seq is None else str(p.seq)),
                Text(p.detail if p else ""),
            )
        out.print(listing)
    if stopped:
        out.print(
            "Stopped at the first game not verified; --keep-going checks every game.",
            highlight=False,
        )
    elif counts["unfinished"] and allow_unfinished and not counts["failed"]:
        out.print(
            "Unfinished games are consistent prefixes; they were accepted (--allow-unfinished).",
            highlight=False,
        )


def verify_one(db: Path, game_id: str, *, as_json: bool, allow_unfinished: bool) -> int:
    """`replay --verify`: the full check of one game, printed; returns the exit code."""
    with _open(db) as store, out.status("Checking the game..."):
        gid = _resolve(store, game_id)
        check = verify_stored(store, gid)
    code = exit_code([check], allow_unfinished)
    if as_json:
        print(msgspec.json.encode(_as_json(check)).decode())
        return code
    p = check.problem
    if check.ok:
        out.print(
            f"[green]verified[/]: {check.events} events; every column matches its event, the"
            " games row matches the log, and re-simulation reproduces it byte for byte"
        )
    elif check.outcome == "unfinished":
        console = out if code == 0 else err
        console.print(Text.assemble(("unfinished", "yellow"), f": game {gid}"))
        if p is not None:
            console.print(f"  {p.detail}", markup=False, highlight=False)
    else:
        err.print(Text.assemble(("verification failed", "red"), f" for game {gid}"))
        if p is not None:
            err.print(f"  {describe(p)}", markup=False, highlight=False)
            if p.stored is not None:
                err.print(f"  stored:   {p.stored}", markup=False, highlight=False)
                err.print(f"  replayed: {p.replayed}", markup=False, highlight=False)
    return code
