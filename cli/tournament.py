"""`cattle tournament` and `cattle ratings`: scheduled, resumable, parallel tournaments.

The schedule (every game's seed and seats) is written to the database before the first game
is played, in the tables `tournaments` and `tournament_games`. Worker processes only
simulate: each returns a finished game's encoded events, and this process, the only writer,
stores finished games in batches (one transaction per batch), so a crash loses at most the
unsaved batch and never leaves half a game.

Games with model seats are played in this process instead (several at once with asyncio) and
written while they run, decision by decision, so that an interruption loses at most the model
calls in flight. `--resume NAME` plays what is missing: games that ended are kept; an
unfinished game with model seats is continued from its stored events (answers already
recorded are reused, no model is asked for them again); an unfinished code-agent game is
marked abandoned, its events kept, and played again under a new id (it costs nothing).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import re
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Annotated, Any

import msgspec
import structlog
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

from agents import parse_spec
from cli.main import (
    SEED_HELP,
    DbOption,
    InitOption,
    PresetFileOption,
    PresetOption,
    UsageError,
    _config,
    app,
    err,
    in_range,
    out,
    seed_or_random,
)
from cli.text import line, plain, shown
from engine.rules import ENGINE_VERSION
from engine.schedule import (
    COMPOSITIONS,
    FORMATS,
    PlannedGame,
    ScheduleError,
    check,
    iter_schedule,
)
from events.codec import encode
from events.domain import GameConfig
from events.store import DEFAULT_DB, DuckStore, GameRow, PreparedGame, StoreError, prepare_game

log = structlog.get_logger("cattle.tournament")

SCHEMA = """
CREATE TABLE IF NOT EXISTS tournaments (
    name VARCHAR PRIMARY KEY,
    format VARCHAR NOT NULL,
    agents JSON NOT NULL,
    games INTEGER NOT NULL,
    seed BIGINT NOT NULL,
    config JSON NOT NULL,
    created_at TIMESTAMP NOT NULL DEFAULT current_timestamp
);
CREATE TABLE IF NOT EXISTS tournament_games (
    tournament VARCHAR NOT NULL,
    idx INTEGER NOT NULL,
    game_id VARCHAR NOT NULL,
    seed BIGINT NOT NULL,
    seats JSON NOT NULL,
    lineup VARCHAR NOT NULL,
    rotation INTEGER NOT NULL,
    attempt INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (tournament, idx)
);
"""

BATCH_GAMES = 16
"""Finished games stored per transaction (at most)."""
BATCH_SECONDS = 1.0
"""A batch is also stored once its oldest game waited this long."""
NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
MAX_GAMES = 100_000
"""Most games in one tournament: about 30 minutes of code-agent games on two cores and 6 GB
of events; larger studies run several tournaments (ratings read them all together)."""
WORKERS_PER_CPU = 4
"""`--workers` may be at most this many per usable CPU: game simulation is CPU-bound, so more
processes only add memory."""
MAX_MODEL_GAMES = 64
"""Most games played at once when every game has a model seat: such games wait on the model,
not the CPU, and run in this process, so `--workers` may exceed the CPU limit up to this."""
MAX_SHUFFLES = 100
"""Most reshuffled orders `ratings` computes (each is a full TrueSkill pass)."""
SCHEDULE_CHUNK = 20_000
"""Scheduled games inserted per statement while a schedule is stored."""


def usable_cpus() -> int:
    """CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def max_workers() -> int:
    """The largest `--workers` accepted on this machine (for games of code agents)."""
    return WORKERS_PER_CPU * usable_cpus()


def check_workers(workers: int, *, every_game_has_a_model: bool | None = None) -> None:
    """Refuse a `--workers` out of range; `None`: whether games have model seats is not known
    yet, so only what no tournament could use is refused."""
    limit = max_workers()
    if 1 <= workers <= limit:
        return
    if 1 <= workers <= MAX_MODEL_GAMES and every_game_has_a_model is not False:
        return
    raise UsageError(
        f"--workers must be between 1 and {limit} ({WORKERS_PER_CPU} per CPU,"
        f" {usable_cpus()} CPU(s) here; up to {MAX_MODEL_GAMES} when every game has a model"
        f" seat), got {workers}"
    )


def every_game_has_a_model(fmt: str, pool: Sequence[str], config: GameConfig) -> bool:
    """True if every game of this tournament seats at least one model (its agents wait on I/O)."""
    from agents import make_agent

    code = [a for a in pool if not make_agent(parse_spec(a), 0, 0, config).is_async]
    if fmt == "mixed":
        return not code  # the opponents are code agents; the agent under test decides
    return len(code) < config.players  # else some combination seats code agents only


class GameTask(msgspec.Struct, frozen=True, kw_only=True):
    """What a worker needs to play one game."""

    index: int
    game_id: str
    seed: int
    seats: tuple[str, ...]
    config: GameConfig
    tournament: str
    io: bool = False
    """Some seat waits on I/O (a model): played in the writer process, written as it runs."""
    resume: bool = False
    """Continue the stored unfinished game `game_id` instead of starting it."""


def simulate(task: GameTask) -> tuple[int, PreparedGame]:
    """Play one game (in a worker process) and return it as rows ready for the writer."""
    from engine.session import play_game

    record = play_game(task.config, task.seed, list(task.seats))
    row = GameRow(
        game_id=task.game_id,
        seed=task.seed,
        config=task.config,
        seats=record.seats,
        engine_version=ENGINE_VERSION,
        tournament=task.tournament,
    )
    return task.index, prepare_game(row, record.events, record.turns)


# ---------------------------------------------------------------------------- storage


def ensure_schema(store: DuckStore) -> None:
    """Create the tournament tables if this database has none yet."""
    store.con.execute(SCHEMA)


def tournament_exists(store: DuckStore, name: str) -> bool:
    """True if a tournament of this name is stored."""
    _, rows = store.query("SELECT count(*) FROM tournaments WHERE name = ?", [name])
    return bool(rows[0][0])


def create(
    store: DuckStore,
    name: str,
    fmt: str,
    agents: tuple[str, ...],
    games: int,
    seed: int,
    config: GameConfig,
) -> int:
    """Plan a tournament and store its schedule (one transaction); return the number of games.

    The schedule is streamed into the table in chunks, so memory stays flat however many
    games are planned.
    """
    plan = iter_schedule(fmt, agents, games, seed, config.players)
    con = store.con
    con.execute("BEGIN")
    stored = 0
    try:
        con.execute(
            "INSERT INTO tournaments (name, format, agents, games, seed, config)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            [name, fmt, json.dumps(list(agents)), games, seed, encode(config).decode()],
        )
        for chunk in _chunks(plan, SCHEDULE_CHUNK):
            # One statement per chunk (list parameters unnested side by side): row-by-row
            # executemany stores about 2,500 rows/s, this about 200,000.
            con.execute(
                "INSERT INTO tournament_games"
                " (tournament, idx, game_id, seed, seats, lineup, rotation)"
                " SELECT ?, unnest(?), unnest(?), unnest(?), unnest(?), unnest(?), unnest(?)",
                [
                    name,
                    [g.index for g in chunk],
                    [game_id(name, g.index) for g in chunk],
                    [g.seed for g in chunk],
                    [json.dumps(list(g.seats)) for g in chunk],
                    [g.lineup for g in chunk],
                    [g.rotation for g in chunk],
                ],
            )
            stored += len(chunk)
    except BaseException:
        con.execute("ROLLBACK")
        raise
    con.execute("COMMIT")
    return stored


def _chunks(items: Iterable[PlannedGame], size: int) -> Iterator[list[PlannedGame]]:
    it = iter(items)
    while chunk := list(itertools.islice(it, size)):
        yield chunk


def game_id(name: str, index: int, attempt: int = 0) -> str:
    """The id of a tournament's game (a replayed game gets a new attempt number)."""
    base = f"{name}.{index:05d}"
    return base if attempt == 0 else f"{base}.r{attempt}"


def load(store: DuckStore, name: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A stored tournament and its games with their current status (None: not stored yet)."""
    cols, rows = store.query("SELECT * FROM tournaments WHERE name = ?", [name])
    if not rows:
        raise UsageError(f"no tournament named {name!r} in {store.path}")
    meta = dict(zip(cols, rows[0], strict=True))
    cols, rows = store.query(
        "SELECT t.idx, t.game_id, t.seed, t.seats, t.lineup, t.rotation, t.attempt, g.status"
        " FROM tournament_games t LEFT JOIN games g ON g.game_id = t.game_id"
        " WHERE t.tournament = ? ORDER BY t.idx",
        [name],
    )
    return meta, [dict(zip(cols, r, strict=True)) for r in rows]


def pending_tasks(store: DuckStore, name: str) -> tuple[GameConfig, list[GameTask], int]:
    """The games still to play and how many ended: unfinished games with model seats are
    continued, unfinished code-agent games restart under new ids."""
    from engine.session import needs_io
    from projections.verify import continuation_refused

    meta, games = load(store, name)
    config = msgspec.json.decode(meta["config"], type=GameConfig)
    tasks = []
    done = 0
    io_of: dict[str, bool] = {}
    for g in games:
        status = g["status"]
        gid = g["game_id"]
        if status == "finished":
            done += 1
            continue
        seats = tuple(json.loads(g["seats"]))
        key = g["seats"]
        if key not in io_of:
            io_of[key] = needs_io(config, g["seed"], seats)
        io = io_of[key]
        if io and status is not None:
            refused = continuation_refused(store.load_rows(gid), parse_seat=parse_spec)
            if refused:
                raise StoreError(refused)
            tasks.append(
                GameTask(
                    index=g["idx"],
                    game_id=gid,
                    seed=g["seed"],
                    seats=seats,
                    config=config,
                    tournament=name,
                    io=True,
                    resume=True,
                )
            )
            continue
        if status is not None:
            # A game that started but never ended: keep its events, play it again afresh.
            if status != "abandoned":
                store.end_game(gid, "abandoned", None)
            attempt = g["attempt"] + 1
            gid = game_id(name, g["idx"], attempt)
            store.con.execute(
                "UPDATE tournament_games SET game_id = ?, attempt = ?"
                " WHERE tournament = ? AND idx = ?",
                [gid, attempt, name, g["idx"]],
            )
            log.info("tournament.restart", game=g["game_id"], new=gid, status=status)
        tasks.append(
            GameTask(
                index=g["idx"],
                game_id=gid,
                seed=g["seed"],
                seats=seats,
                config=config,
                tournament=name,
                io=io,
            )
        )
    return config, tasks, done


# ---------------------------------------------------------------------------- running


class RateColumn(ProgressColumn):
    """Games per second since the start."""

    def render(self, task: Task) -> Text:
        if not task.elapsed or not task.completed:
            return Text("- games/s")
        speed = task.completed / task.elapsed
        return Text(f"{speed:.1f} games/s")


def _results(tasks: Sequence[GameTask], workers: int) -> Iterator[tuple[int, PreparedGame]]:
    """Finished games as they come: in this process, or from a pool of workers."""
    # No more processes than games (a pool starts all its processes at once) or than the CPUs
    # can use.
    workers = min(workers, len(tasks), max_workers())
    if workers <= 1:
        for t in tasks:
            yield simulate(t)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        todo = iter(tasks)
        running: set[Future[Any]] = set()
        for t in todo:
            running.add(pool.submit(simulate, t))
            if len(running) >= 4 * workers:
                break
        while running:
            done, running = wait(running, return_when=FIRST_COMPLETED)
            for f in done:
                yield f.result()
                nxt = next(todo, None)
                if nxt is not None:
                    running.add(pool.submit(simulate, nxt))


def play_tournament(
    store: DuckStore,
    name: str,
    config: GameConfig,
    tasks: Sequence[GameTask],
    *,
    workers: int = 1,
    already: int = 0,
    total: int | None = None,
    show: bool = True,
) -> int:
    """Play `tasks` and store every finished game; return the number stored."""
    store.release()  # readers may open the file until the first batch is written
    total = total if total is not None else already + len(tasks)
    batch: list[PreparedGame] = []
    first = 0.0
    stored = 0

    def flush() -> None:
        nonlocal stored
        if batch:
            store.save_prepared(batch)
            stored += len(batch)
            log.debug("tournament.saved", games=len(batch), stored=already + stored)
            batch.clear()

    columns = (
        # Plain text: the description is the tournament's name.
        TextColumn("{task.description}", style="bold", markup=False),
        BarColumn(),
        MofNCompleteColumn(),
        RateColumn(),
        TextColumn("elapsed"),
        TimeElapsedColumn(),
        TextColumn("eta"),
        TimeRemainingColumn(),
    )
    code = [t for t in tasks if not t.io]
    io = [t for t in tasks if t.io]
    with Progress(*columns, console=err, disable=not show) as progress:
        bar = progress.add_task(shown(name), total=total, completed=already)
        for _index, prepared in _results(code, workers):
            if not batch:
                first = time.monotonic()
            batch.append(prepared)
            if len(batch) >= BATCH_GAMES or time.monotonic() - first >= BATCH_SECONDS:
                flush()
            progress.advance(bar)
        flush()
        if io:
            asyncio.run(_play_io(store, io, workers, lambda: progress.advance(bar)))
            stored += len(io)
    return stored


async def _play_io(
    store: DuckStore, tasks: Sequence[GameTask], concurrency: int, done: Callable[[], None]
) -> None:
    """Play games with model seats here, `concurrency` at a time, each written as it runs."""
    from engine.session import play_stored, watch_readers

    gate = asyncio.Semaphore(max(1, concurrency))
    watcher = asyncio.create_task(watch_readers(store))

    async def one(t: GameTask) -> None:
        async with gate:
            await play_stored(
                store,
                t.config,
                t.seed,
                t.seats,
                game_id=t.game_id,
                tournament=t.tournament,
                resume=t.resume,
                watch=False,
            )
            done()

    try:
        await asyncio.gather(*(one(t) for t in tasks))
    finally:
        watcher.cancel()


# ---------------------------------------------------------------------------- commands


def _split(text: str) -> tuple[str, ...]:
    return tuple(s.strip() for s in text.split(",") if s.strip())


@app.command()
def tournament(
    fmt: Annotated[
        str | None, typer.Option("--format", help=f"Format: {', '.join(FORMATS)}.")
    ] = None,
    agents: Annotated[
        str | None,
        typer.Option(help="Comma-separated agents: those under test (mixed) or the pool."),
    ] = None,
    games: Annotated[
        int | None, typer.Option(help=f"Number of games, 1 to {MAX_GAMES:,} (default: 100).")
    ] = None,
    seed: Annotated[int | None, typer.Option(help=f"Tournament seed, {SEED_HELP}.")] = None,
    workers: Annotated[
        int,
        typer.Option(
            help=f"Processes that simulate code-agent games, 1 to {WORKERS_PER_CPU} per CPU"
            f" ({max_workers()} here); also how many games with model seats run at once (up to"
            f" {MAX_MODEL_GAMES} when every game has one)."
        ),
    ] = 1,
    name: Annotated[
        str | None, typer.Option(help="Tournament name (default: FORMAT-SEED-GAMES).")
    ] = None,
    preset: PresetOption = None,
    mode: Annotated[
        str | None, typer.Option(help="Auction mode: canonical, fast or legacy.")
    ] = None,
    resume: Annotated[
        str | None, typer.Option(help="Finish the interrupted tournament of this name.")
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", help="No progress bar.")] = False,
    init: InitOption = False,
    preset_file: PresetFileOption = None,
    db: DbOption = DEFAULT_DB,
) -> None:
    """Run (or resume) a scheduled tournament and store every game.

    Mixed compositions: C1 tracker+setrace+economy, C2 2x tracker+economy, C3 2x
    economy+setrace, C4 2x setrace+tracker, C5 2x setrace+economy, C6 2x economy+tracker,
    C7 2x tracker+setrace.
    """
    check_workers(workers)
    if resume is not None:
        given = [
            flag
            for flag, value in (
                ("--format", fmt),
                ("--agents", agents),
                ("--games", games),
                ("--seed", seed),
                ("--name", name),
                ("--preset", preset),
                ("--preset-file", preset_file),
                ("--mode", mode),
            )
            if value is not None
        ]
        if given:
            raise UsageError(
                f"--resume takes the schedule from the database; drop {', '.join(given)}"
            )
        if not Path(db).exists():
            raise UsageError(f"no database at {db}: nothing to resume")
        with DuckStore(db) as store:
            ensure_schema(store)
            load(store, resume)
            store.claim(f"tournament:{resume}")
            config, tasks, done = pending_tasks(store, resume)
            check_workers(workers, every_game_has_a_model=all(t.io for t in tasks))
            _, planned = load(store, resume)
            if not tasks:
                out.print(
                    line(f"Tournament [bold]{{}}[/] is already complete ({done} games).", resume)
                )
            else:
                out.print(
                    line(
                        f"Resuming [bold]{{}}[/]: {done} game(s) kept, {len(tasks)} to play.",
                        resume,
                    )
                )
                play_tournament(
                    store,
                    resume,
                    config,
                    tasks,
                    workers=workers,
                    already=done,
                    total=len(planned),
                    show=not quiet,
                )
            _summary(store, resume)
        return
    fmt = fmt or "mixed"
    if fmt not in FORMATS:
        raise UsageError(f"--format must be one of {', '.join(FORMATS)}, got {fmt!r}")
    if not agents:
        raise UsageError("--agents is required (e.g. --agents tracker,setrace,economy,random)")
    pool = _split(agents)
    for a in pool:
        parse_spec(a)
    if fmt == "mixed":
        for comp in COMPOSITIONS.values():
            for a in comp:
                parse_spec(a)
    games = 100 if games is None else games
    if not 1 <= games <= MAX_GAMES:
        raise UsageError(
            f"--games must be between 1 and {MAX_GAMES:,}, got {games:,}"
            " (run several tournaments for more; ratings read them together)"
        )
    seed = seed_or_random(seed)
    config = _config(preset, mode, preset_file=preset_file)
    name = name or f"{fmt}-{seed}-{games}"
    if not NAME_RE.match(name):
        raise UsageError(
            "--name may use letters, digits, '.', '_' and '-' (up to 64, starting with a letter or digit)"
        )
    try:
        check(fmt, pool, games, config.players)
    except ScheduleError as exc:
        raise UsageError(str(exc)) from None
    if workers > max_workers():
        check_workers(workers, every_game_has_a_model=every_game_has_a_model(fmt, pool, config))
    with DuckStore(db, init=init) as store:
        ensure_schema(store)
        if tournament_exists(store, name):
            raise UsageError(
                f"a tournament named {name!r} already exists in {db}; pick another --name"
                f" or finish it with --resume {name}"
            )
        n_planned = create(store, name, fmt, pool, games, seed, config)
        store.claim(f"tournament:{name}")
        out.print(
            line(
                f"Tournament [bold]{{}}[/]: {fmt}, {n_planned} {{}} game(s) ({{}}),"
                f" seed {seed}, {workers} worker(s).",
                name,
                config.name,
                config.auction_mode,
            )
        )
        _, tasks, _ = pending_tasks(store, name)
        play_tournament(store, name, config, tasks, workers=workers, show=not quiet)
        _summary(store, name)


def _summary(store: DuckStore, name: str) -> None:
    _, rows = store.query(
        "SELECT count(*) FILTER (WHERE g.status = 'finished'), count(*) FROM tournament_games t"
        " LEFT JOIN games g ON g.game_id = t.game_id WHERE t.tournament = ?",
        [name],
    )
    done, total = rows[0]
    out.print(
        line(
            f"{done}/{total} game(s) finished. Ratings: [green]cattle ratings --tournament {{}}[/]",
            name,
        )
    )


@app.command()
def ratings(
    tournament: Annotated[
        str | None, typer.Option(help="Only the games of this tournament.")
    ] = None,
    shuffles: Annotated[
        int,
        typer.Option(
            help=f"Reshuffled game orders used to measure how much μ moves (0 to {MAX_SHUFFLES})."
        ),
    ] = 3,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    db: DbOption = DEFAULT_DB,
) -> None:
    """TrueSkill ratings and score statistics per agent, recomputed from the stored games."""
    from projections.ratings import load_results, rate

    # Each reshuffle is a full TrueSkill pass over every game (seconds per 10,000 games).
    in_range("--shuffles", shuffles, 0, MAX_SHUFFLES)
    with DuckStore(db, read_only=True) as store:
        if tournament is not None:
            _, rows = store.query("SELECT count(*) FROM games WHERE tournament = ?", [tournament])
            if not rows[0][0]:
                raise UsageError(f"no games of tournament {tournament!r} in {db}")
        results = load_results(store, tournament)
    table = rate(results, shuffles=shuffles)
    if as_json:
        print(json.dumps([msgspec.to_builtins(r) for r in table]))
        return
    if not table:
        scope = f"tournament {tournament!r}" if tournament else str(db)
        out.print(f"No finished games to rate in {scope}.", markup=False)
        return
    out.print(_ratings_table(table, len({r.game_id for r in results}), tournament, shuffles))


def _ratings_table(
    table: Sequence[Any], n_games: int, tournament: str | None, shuffles: int
) -> Table:
    """The ratings as a table; agent names and the tournament name print as plain text."""
    t = Table(
        title=plain(f"Ratings over {n_games} game(s)" + (f" of {tournament}" if tournament else ""))
    )
    for col in (
        "agent",
        "μ",
        "σ",
        "μ−3σ",
        "seats",
        "win rate",
        "median score",
        "score std",
        "mean sets",
        "μ shuffle Δ",
        "gap shuffle Δ",
    ):
        t.add_column(col, justify="left" if col == "agent" else "right")
    for r in table:
        t.add_row(
            plain(r.agent),
            f"{r.mu:.2f}",
            f"{r.sigma:.2f}",
            f"{r.conservative:.2f}",
            str(r.games),
            f"{100 * r.win_rate:.1f}%",
            f"{r.median_score:,.0f}",
            f"{r.score_std:,.0f}",
            f"{r.mean_sets:.2f}",
            f"{r.mu_shuffle_spread:.2f}",
            f"{r.relative_shuffle_spread:.2f}",
        )
    t.caption = (
        "TrueSkill over games in id order. μ shuffle Δ: largest change of μ over"
        f" {shuffles} reshuffled orders; gap shuffle Δ: the same for μ minus the mean μ."
    )
    return t


__all__ = ["StoreError", "ratings", "simulate", "tournament"]
