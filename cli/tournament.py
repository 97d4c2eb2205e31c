"""`cattle tournament` and `cattle ratings`: the commands over runner.tournament (which see).

The tournament itself (schedule, workers, batches, resume) is a library in `runner`; this
module parses options, shows progress and prints.
"""

from __future__ import annotations

import json
import re
import secrets
import string
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import msgspec
import typer
from rich.table import Table
from rich.text import Text

from cli.app import on_interrupt
from cli.common import (
    HUMAN_TIMEOUT_HELP,
    SEED_HELP,
    DbOption,
    GameOption,
    InitOption,
    PresetFileOption,
    PresetOption,
    UsageError,
    _config,
    app,
    err,
    game_def,
    human_exit,
    human_mark,
    human_spec,
    in_range,
    out,
    plural,
    print_fitted,
    seed_or_random,
)
from cli.selection import other_games_hint
from cli.text import hint, line, plain, shown, styled
from engine.schedule import COMPOSITIONS, FORMATS, ScheduleError, check, check_suite
from events import catalog
from events.catalog import DEFAULT_GAME
from events.store import DEFAULT_DB, DuckStore, StoreError
from runner.limits import (
    MAX_BOOTSTRAP,
    MAX_CONCURRENCY,
    MAX_GAMES,
    MAX_MODEL_GAMES,
    MAX_SHUFFLES,
    WORKERS_PER_CPU,
    max_workers,
)

# The runner, its executors and the agents (structlog, asyncio, the model SDKs) load when a
# tournament runs, not when `cattle tournament --help` is read.
if TYPE_CHECKING:
    from rich.progress import ProgressColumn

    from runner.executors import Executor, Status
    from runner.tournament import GameTask


def _play_with_progress(
    store: DuckStore,
    name: str,
    config: Any,
    tasks: list[GameTask],
    *,
    workers: int,
    already: int = 0,
    total: int | None = None,
    show: bool = True,
    executor: Executor,
    concurrency: int | None = None,
    budget: Any = None,
) -> int:
    """`play_tournament` under a progress bar on stderr."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from runner.tournament import play_tournament

    RateColumn, WorkersColumn = _columns()
    distributed = executor.name != "local"
    extra: tuple[ProgressColumn, ...] = (WorkersColumn(executor.status),) if distributed else ()
    columns = (
        # Plain text: the description is the tournament's name.
        TextColumn("{task.description}", style="bold", markup=False),
        BarColumn(bar_width=16 if distributed else 40),
        MofNCompleteColumn(),
        RateColumn(),
        *extra,
        TextColumn("elapsed"),
        TimeElapsedColumn(),
        TextColumn("eta"),
        TimeRemainingColumn(),
    )
    total = total if total is not None else already + len(tasks)
    with Progress(*columns, console=err, disable=not show) as progress:
        bar = progress.add_task(shown(name), total=total, completed=already)
        try:
            return play_tournament(
                store,
                name,
                config,
                tasks,
                workers=workers,
                already=already,
                on_game=lambda: progress.advance(bar),
                executor=executor,
                concurrency=concurrency,
                budget=budget,
            )
        except KeyboardInterrupt:
            # Ctrl-C (or SIGTERM, SIGHUP): the bar goes, and the command stops saying how to
            # finish (`finish_later`).
            progress.stop()
            raise


NOT_STORED = (
    "interrupted before the tournament was stored: nothing to resume; run the command again"
)
"""What an interruption says until the tournament's schedule is stored."""


def finish_later(store: DuckStore, name: str) -> None:
    """From now on (the tournament is stored), an interruption at any moment says how to
    finish it (a game played but not yet written is played again then)."""
    on_interrupt(
        line(
            "interrupted; the games stored so far are kept. Finish the tournament"
            " with: [green]{}[/]",
            hint("tournament", "--resume", name, db=store.path),
        )
    )


def _budget(
    store: DuckStore,
    name: str,
    calls: int | None,
    tokens: int | None,
    cost: float | None,
    prices: Path | None,
) -> Any:
    """The tournament-wide budget the flags ask for (None: no budget), counting what the
    tournament's stored games already spent."""
    if calls is None and tokens is None and cost is None:
        return None
    from agents.llm.budget import TournamentBudget
    from projections.costs import load_prices
    from runner.tournament import spent_so_far

    table = load_prices(prices)
    used = spent_so_far(store, name, table)
    return TournamentBudget(name, calls=calls, tokens=tokens, cost=cost, prices=table, used=used)


def _check_budgets(calls: int | None, tokens: int | None, cost: float | None) -> None:
    for flag, value in (("--max-calls", calls), ("--max-tokens", tokens)):
        if value is not None and value < 1:
            raise UsageError(f"{flag} must be at least 1, got {value}")
    if cost is not None and not 0 < cost < float("inf"):
        raise UsageError(f"--max-cost must be more than 0, got {cost}")


def _dry_run(
    db: Path,
    fmt: str,
    pool: Sequence[str],
    games: int,
    seed: int,
    config: Any,
    prices: Path | None,
    max_calls: int | None,
    max_tokens: int | None,
    max_cost: float | None,
    as_json: bool,
) -> None:
    """Print what the tournament would play and cost; nothing is called or stored."""
    from cli.dryrun import dry_run

    budgets = {"max_calls": max_calls, "max_tokens": max_tokens, "max_cost": max_cost}
    dry_run(db, config, None, prices, budgets, as_json, schedule=(fmt, pool, games, seed))


def _columns() -> tuple[Any, Any]:
    """The progress bar's own columns: games per second, and workers alive on a cluster."""
    from rich.progress import ProgressColumn, Task

    class RateColumn(ProgressColumn):
        """Games per second since the start."""

        def render(self, task: Task) -> Text:
            if not task.elapsed or not task.completed:
                return Text("- games/s")
            speed = task.completed / task.elapsed
            return Text(f"{speed:.1f} games/s")

    class WorkersColumn(ProgressColumn):
        """Workers alive and games played again after a worker died (a distributed run)."""

        def __init__(self, status: Status) -> None:
            super().__init__()
            self.status = status

        def render(self, task: Task) -> Text:
            s = self.status
            return Text(f"{s.workers} alive, {s.retries} retried")

    return RateColumn, WorkersColumn


def check_workers(workers: int, *, every_game_has_a_model: bool | None = None) -> None:
    """`runner.tournament.check_workers` with the error as a usage error."""
    from runner.tournament import TournamentError
    from runner.tournament import check_workers as _check_workers

    try:
        _check_workers(workers, every_game_has_a_model=every_game_has_a_model)
    except TournamentError as exc:
        raise UsageError(str(exc)) from None


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
        str | None,
        typer.Option(
            help="Tournament name (default: GAME-FORMAT-GAMES and a random word; the seed is"
            " shown once every game is played)."
        ),
    ] = None,
    executor: Annotated[
        str,
        typer.Option(
            help="Where games are played: local (processes here) or ray (tasks on a Ray"
            " cluster; needs the 'ray' extra)."
        ),
    ] = "local",
    ray_address: Annotated[
        str | None,
        typer.Option(
            help="The Ray cluster: 'auto', or HOST:PORT of its head (default: a local Ray"
            " started for this run)."
        ),
    ] = None,
    concurrency: Annotated[
        int | None,
        typer.Option(
            help=f"Games with model seats each worker plays at once, 1 to {MAX_CONCURRENCY}"
            " (default: --workers locally, 16 on Ray)."
        ),
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
    game: GameOption = None,
    db: DbOption = DEFAULT_DB,
    max_calls: Annotated[
        int | None,
        typer.Option(help="Budget of the whole tournament: model calls, then defaults."),
    ] = None,
    max_tokens: Annotated[
        int | None,
        typer.Option(help="Budget of the whole tournament: tokens (in and out)."),
    ] = None,
    max_cost: Annotated[
        float | None,
        typer.Option(help="Budget of the whole tournament: cost in the price table's currency."),
    ] = None,
    prices: Annotated[
        Path | None,
        typer.Option(help="Price table JSON laid over data/prices.json (for --max-cost)."),
    ] = None,
    dry_run: Annotated[
        bool,
        typer.Option(
            "--dry-run",
            help="Call no model and store nothing: print the schedule's games and the expected"
            " calls, tokens and cost per model agent, with the bounds the budgets set.",
        ),
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="With --dry-run: print JSON.")] = False,
    human_timeout: Annotated[float | None, typer.Option(help=HUMAN_TIMEOUT_HELP)] = None,
    only: Annotated[
        str | None,
        typer.Option(
            help="With a family of games (--game gamebench): play only these of its games,"
            " comma-separated (e.g. pit,hive)."
        ),
    ] = None,
) -> None:
    """Run (or resume) a scheduled tournament and store every game.

    Budgets (--max-calls, --max-tokens, --max-cost) hold for all the tournament's games
    together: once one is reached, model seats play their recorded default for the rest,
    and each game records why (docs/bounds.md).

    A `human` in --agents is you, at this terminal: your games are played one at a time,
    without a progress bar. If your input ends or you press Ctrl-C, the game under way ends
    with your seat playing its default, your games not begun stay unplayed (finish them with
    --resume), and the exit code is 4 (end of input) or 130 (Ctrl-C); see docs/humans.md.

    Cattle Trade's default format is mixed, with the compositions C1 tracker+setrace+economy,
    C2 2x tracker+economy, C3 2x economy+setrace, C4 2x setrace+tracker, C5 2x
    setrace+economy, C6 2x economy+tracker, C7 2x tracker+setrace. Other games default to
    duplicate: every lineup plays each deal once per seat rotation (in PACT, every pair
    plays both roles on the same drawn values), and team games (GameBench's Codenames and
    Sea Battle) to teams: two agents a game, each filling one team, both sides of each deal.

    --game gamebench plays GameBench's protocol over every GameBench game (or those --only
    names), each in its default preset: every pair of --agents plays --games matches in
    every game, one agent a side (its copies fill a team), each deal from both sides. The
    agent `heuristic` is each game's own heuristic agent (docs/gamebench.md). A `human`
    there plays the matches of its pairings as above (GameBench's human baseline).
    """
    since = human_mark()
    from agents import code_agents, parse_spec
    from runner.executors import EXECUTORS, make_executor, require_ray
    from runner.tournament import (
        NAME_RE,
        create,
        ensure_schema,
        every_game_has_a_model,
        has_human,
        load,
        pending_tasks,
        tournament_exists,
    )

    if executor not in EXECUTORS:
        raise UsageError(f"--executor must be one of {', '.join(EXECUTORS)}, got {executor!r}")
    _check_budgets(max_calls, max_tokens, max_cost)
    if prices is not None and not prices.is_file():
        raise UsageError(f"--prices: no such file {prices}")
    if ray_address is not None and executor != "ray":
        raise UsageError("--ray-address goes with --executor ray")
    if ray_address is not None and not ray_address.strip():
        raise UsageError("--ray-address is empty: give 'auto' or HOST:PORT")
    if concurrency is not None:
        in_range("--concurrency", concurrency, 1, MAX_CONCURRENCY)
    if executor == "local":
        check_workers(workers)
    else:
        # On Ray, code-agent games use every CPU of the cluster; --workers is the number of
        # workers that play games with model seats.
        in_range("--workers", workers, 1, MAX_MODEL_GAMES)
        require_ray(local=ray_address is None)  # before anything is opened

    def start() -> Executor:
        return make_executor(
            executor, workers=workers, concurrency=concurrency, address=ray_address
        )

    if resume is not None and (dry_run or as_json):
        raise UsageError("--dry-run plans a new tournament; it does not go with --resume")
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
                ("--game", game),
                ("--only", only),
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
            finish_later(store, resume)
            store.claim(f"tournament:{resume}")
            config, tasks, done = pending_tasks(store, resume)
            people = any(has_human(t.seats) for t in tasks)
            if people and executor != "local":
                raise UsageError("human seats play here: use --executor local")
            quiet = quiet or people
            if executor == "local":
                check_workers(workers, every_game_has_a_model=all(t.io for t in tasks))
            _, planned = load(store, resume)
            if not tasks:
                out.print(
                    line(f"Tournament [bold]{{}}[/] is already complete ({done} games).", resume)
                )
            else:
                out.print(
                    line(
                        f"Resuming [bold]{{}}[/]: {plural(done, 'game')} kept, {len(tasks):,} to play.",
                        resume,
                    )
                )
                budget = _budget(store, resume, max_calls, max_tokens, max_cost, prices)
                with start() as ex:
                    _play_with_progress(
                        store,
                        resume,
                        config,
                        tasks,
                        workers=workers,
                        already=done,
                        total=len(planned),
                        show=not quiet,
                        executor=ex,
                        concurrency=concurrency,
                        budget=budget,
                    )
                    _retried(ex)
            _summary(store, resume)
        human_exit(since)
        return
    if catalog.is_family(game):
        suite = _Suite(
            str(game), agents, games, seed, name, only, workers, quiet, init, db, human_timeout
        )
        for flag, value in (
            ("--format", fmt),
            ("--preset", preset),
            ("--preset-file", preset_file),
            ("--mode", mode),
        ):
            if value is not None:
                raise UsageError(f"{flag} does not go with a family of games (--game {game})")
        if dry_run or as_json:
            raise UsageError(f"--dry-run does not go with a family of games (--game {game})")
        _play_suite(suite, start, executor, concurrency, (max_calls, max_tokens, max_cost, prices))
        human_exit(since)
        return
    if only is not None:
        raise UsageError("--only goes with a family of games (--game gamebench)")
    g = game_def(game)
    cattle = g.name == DEFAULT_GAME
    fmt = fmt or ("mixed" if cattle else "teams" if g.extras.get("teams") else "duplicate")
    if fmt not in FORMATS:
        raise UsageError(f"--format must be one of {', '.join(FORMATS)}, got {fmt!r}")
    if fmt == "mixed" and not cattle:
        raise UsageError(
            "--format mixed seats Cattle Trade's code agents; use round-robin or duplicate"
            f" for {g.name}"
        )
    if not agents:
        example = "tracker,setrace,economy,random" if cattle else ",".join(code_agents(g))
        raise UsageError(f"--agents is required (e.g. --agents {example})")
    pool = _split(agents)
    if human_timeout is not None:
        pool = tuple(human_spec(a, human_timeout) for a in pool)
    for a in pool:
        parse_spec(a, g)
    if has_human(pool):
        if executor != "local":
            raise UsageError("human seats play here: use --executor local")
        quiet = True  # a progress bar would draw over the person's prompts
    if fmt == "mixed":
        for comp in COMPOSITIONS.values():
            for a in comp:
                parse_spec(a, g)
    games = 100 if games is None else games
    if not 1 <= games <= MAX_GAMES:
        raise UsageError(
            f"--games must be between 1 and {MAX_GAMES:,}, got {games:,}"
            " (run several tournaments for more; ratings read them together)"
        )
    seed = seed_or_random(seed)
    config = _config(preset, mode, preset_file=preset_file, game=game)
    if name is not None and not NAME_RE.match(name):
        raise UsageError(
            "--name may use letters, digits, '.', '_' and '-' (up to 64, starting with a letter or digit)"
        )
    try:
        check(fmt, pool, games, config.players)
    except ScheduleError as exc:
        raise UsageError(str(exc)) from None
    if dry_run:
        _dry_run(
            db, fmt, pool, games, seed, config, prices, max_calls, max_tokens, max_cost, as_json
        )
        return
    if as_json:
        raise UsageError("--json goes with --dry-run")
    if executor == "local" and workers > max_workers():
        check_workers(workers, every_game_has_a_model=every_game_has_a_model(fmt, pool, config))
    on_interrupt(plain(NOT_STORED))
    with DuckStore(db, init=init) as store:
        ensure_schema(store)
        name = name or default_name(store, g.name, fmt, games)
        if tournament_exists(store, name):
            raise UsageError(
                f"a tournament named {name!r} already exists in {db}; pick another --name"
                f" or finish it with --resume {name}"
            )
        # Connected before anything is stored: a cluster that cannot be reached leaves no
        # tournament behind.
        with start() as ex:
            n_planned = create(store, name, fmt, pool, games, seed, config)
            finish_later(store, name)
            store.claim(f"tournament:{name}")
            if cattle:
                what = line(
                    f"Tournament [bold]{{}}[/]: {fmt}, {n_planned:,} {{}} {_games(n_planned)} ({{}}), {{}}.",
                    name,
                    config.name,
                    config.auction_mode,
                    _where(executor, workers, ray_address),
                )
            else:
                what = line(
                    f"Tournament [bold]{{}}[/]: {{}}, {fmt}, {n_planned:,} {{}} {_games(n_planned)}, {{}}.",
                    name,
                    g.name,
                    config.name,
                    _where(executor, workers, ray_address),
                )
            out.print(what)
            if fmt == "round-robin" and config.players == 2:
                out.print(plain(_pairings(len(pool), n_planned)))
            _, tasks, _ = pending_tasks(store, name)
            _play_with_progress(
                store,
                name,
                config,
                tasks,
                workers=workers,
                show=not quiet,
                executor=ex,
                concurrency=concurrency,
                budget=_budget(store, name, max_calls, max_tokens, max_cost, prices),
            )
            _retried(ex)
        _summary(store, name)
    human_exit(since)


class _Suite(msgspec.Struct, frozen=True):
    """The options of a tournament over a family of games."""

    family: str
    agents: str | None
    matches: int | None
    seed: int | None
    name: str | None
    only: str | None
    workers: int
    quiet: bool
    init: bool
    db: Path
    human_timeout: float | None = None


def _play_suite(
    o: _Suite,
    start: Callable[[], Executor],
    executor: str,
    concurrency: int | None,
    budgets: tuple[int | None, int | None, float | None, Path | None],
) -> None:
    """`cattle tournament --game FAMILY`: GameBench's protocol over the family's games."""
    from agents import UnknownAgent, make_agent, parse_spec
    from runner.tournament import (
        NAME_RE,
        TournamentError,
        create_suite,
        ensure_schema,
        has_human,
        pending_tasks,
        suite_games,
        tournament_exists,
    )

    if o.only is not None and not _split(o.only):
        raise UsageError(f"--only names no game: give some of {o.family}'s games, as pit,hive")
    try:
        games = suite_games(o.family, _split(o.only or ""))
    except TournamentError as exc:
        raise UsageError(str(exc)) from None
    if not o.agents:
        raise UsageError(f"--agents is required (e.g. --agents random,heuristic for {o.family})")
    pool = _split(o.agents)
    if o.human_timeout is not None:
        pool = tuple(human_spec(a, o.human_timeout) for a in pool)
    # A person plays the suite's matches of the pairings that seat them, one game at a time
    # (GameBench's human baseline, docs/gamebench.md); no progress bar over their prompts.
    people = has_human(pool)
    if people and executor != "local":
        raise UsageError("human seats play here: use --executor local")
    quiet = o.quiet or people
    for game_name, _, _ in games:
        for a in pool:
            try:
                parse_spec(a, game_name)
            except UnknownAgent as exc:
                raise UsageError(f"--agents: {exc}") from None
    matches = 10 if o.matches is None else o.matches
    pairings = len(pool) * (len(pool) - 1) // 2
    total = matches * max(1, pairings) * len(games)
    if matches < 1 or total > MAX_GAMES:
        raise UsageError(
            f"--games (matches per game and pairing) must be at least 1 and give at most"
            f" {MAX_GAMES:,} games in all, got {matches:,} ({total:,} games)"
        )
    seed = seed_or_random(o.seed)
    name = o.name
    if name is not None and not NAME_RE.match(name):
        raise UsageError(
            "--name may use letters, digits, '.', '_' and '-' (up to 64, starting with a letter or digit)"
        )
    try:
        check_suite([(n, sides) for n, _, sides in games], pool, matches)
    except ScheduleError as exc:
        raise UsageError(str(exc)) from None
    if executor == "local" and o.workers > max_workers() and not people:
        # Many workers only for games that wait on models: every pairing must seat one.
        _, config, _ = games[0]
        code = [
            a for a in pool if not make_agent(parse_spec(a, games[0][0]), 0, 0, config).is_async
        ]
        check_workers(o.workers, every_game_has_a_model=len(code) <= 1)
    on_interrupt(plain(NOT_STORED))
    with DuckStore(o.db, init=o.init) as store:
        ensure_schema(store)
        name = name or default_name(store, o.family, None, matches)
        if tournament_exists(store, name):
            raise UsageError(
                f"a tournament named {name!r} already exists in {o.db}; pick another --name"
                f" or finish it with --resume {name}"
            )
        with start() as ex:
            n_planned = create_suite(store, name, o.family, pool, matches, seed, games)
            finish_later(store, name)
            store.claim(f"tournament:{name}")
            out.print(
                line(
                    f"Tournament [bold]{{}}[/]: {{}} over {plural(len(games), 'game')} ({{}}),"
                    f" {plural(matches, 'match', 'matches')} per game and pairing,"
                    f" {plural(n_planned, 'game')}, {{}}.",
                    name,
                    o.family,
                    ", ".join(n.partition(":")[2] for n, _, _ in games),
                    _where(executor, o.workers, None),
                )
            )
            _, tasks, _ = pending_tasks(store, name)
            _play_with_progress(
                store,
                name,
                None,
                tasks,
                workers=o.workers,
                show=not quiet,
                executor=ex,
                concurrency=concurrency,
                budget=_budget(store, name, *budgets),
            )
            _retried(ex)
        _summary(store, name)
        out.print(
            line(
                "Report: [green]{}[/]",
                hint(
                    "report",
                    "--game",
                    o.family,
                    "--tournament",
                    name,
                    "--out",
                    "report.html",
                    db=o.db,
                ),
            ),
            soft_wrap=True,
        )


def _where(executor: str, workers: int, address: str | None) -> str:
    if executor == "local":
        return plural(workers, "worker")
    return f"on Ray ({address or 'local'})"


def _retried(executor: Executor) -> None:
    """Say how many games were played again because their worker died."""
    n = executor.status.retries
    if n:
        out.print(plain(f"{plural(n, 'game')} played again after their worker was lost."))


def _pairings(pool: int, games: int) -> str:
    """How a two-seat round-robin shares its games among the pairings."""
    pairs = pool * (pool - 1) // 2
    few, more = divmod(games, pairs)
    counts = (
        f"{plural(few, 'match', 'matches')} each"
        if not more
        else f"{few} or {plural(few + 1, 'match', 'matches')} each"
    )
    odd = "" if not more and few % 2 == 0 else "; with an odd count one side is first once more"
    return f"{plural(pairs, 'pairing')}, {counts}, each side moving first in half of them{odd}."


def default_name(store: DuckStore, game: str, fmt: str | None, games: int) -> str:
    """A new tournament's name: its game, format and size and a random word, never one
    stored already. Not made from the seed, which every deal follows from: a person playing
    in the tournament must not learn it from the name before the games are over."""
    from runner.tournament import tournament_exists

    short = re.sub(r"[^A-Za-z0-9_.-]+", "-", game.rpartition(":")[2]).strip("-.") or "games"
    stem = "-".join(p for p in (short[:32], fmt, str(games)) if p)
    while True:
        word = "".join(secrets.choice(string.ascii_lowercase) for _ in range(6))
        name = f"{stem}-{word}"
        if not tournament_exists(store, name):
            return name


def _summary(store: DuckStore, name: str) -> None:
    _, rows = store.query(
        "SELECT count(*) FILTER (WHERE g.status = 'finished'), count(*),"
        " count(DISTINCT g.game) FROM tournament_games t"
        " LEFT JOIN games g ON g.game_id = t.game_id WHERE t.tournament = ?",
        [name],
    )
    done, total, kinds = rows[0]
    # TrueSkill rates one game at a time; a tournament over several (GameBench's protocol)
    # is rated as GameBench rates it, every game weighing the same.
    method = ("--method", "bt") if kinds > 1 else ()
    out.print(
        line(
            f"{done:,}/{total:,} {_games(total)} finished. Ratings: [green]{{}}[/]",
            hint("ratings", "--tournament", name, *method, db=store.path),
        ),
        soft_wrap=True,
    )
    # The seed tells every deal to come, so it is told only once no game is left to play.
    _, seeds = store.query("SELECT seed FROM tournaments WHERE name = ?", [name])
    if done == total and seeds:
        out.print(
            plain(f"Seed {seeds[0][0]}: the same options with --seed play these games again.")
        )
    elif seeds:
        out.print(plain("The seed is shown once every game has been played (it is stored)."))
    _, failed = store.query(
        "SELECT g.game_id, g.end_reason FROM tournament_games t JOIN games g"
        " ON g.game_id = t.game_id WHERE t.tournament = ? AND g.status = 'abandoned'"
        " AND g.end_reason LIKE 'error: %' ORDER BY t.idx",
        [name],
    )
    if failed:
        out.print(
            line(
                f"{plural(len(failed), 'game')} stopped by an error (kept; [green]{{}}[/]"
                " plays them again):",
                hint("tournament", "--resume", name, db=store.path),
            ),
            soft_wrap=True,
        )
        for gid, reason in failed[:FAILED_SHOWN]:
            out.print(line("  {}: {}", gid, reason.removeprefix("error: ")[:200]))
        if len(failed) > FAILED_SHOWN:
            out.print(plain(f"  ... and {len(failed) - FAILED_SHOWN} more"))


FAILED_SHOWN = 10
"""Failed games a tournament's summary names (the count covers them all)."""


METHODS = ("trueskill", "bt", "glicko2")
"""The rating methods of `cattle ratings`."""


@app.command()
def ratings(
    tournament: Annotated[
        str | None, typer.Option(help="Only the games of this tournament.")
    ] = None,
    method: Annotated[
        str,
        typer.Option(
            help="trueskill (over each game's ranks, in game order), bt (Bradley-Terry,"
            " bootstrapped as GameBench does; may mix games, each weighing the same) or"
            " glicko2 (over pairwise results, in game order)."
        ),
    ] = "trueskill",
    shuffles: Annotated[
        int,
        typer.Option(
            help=f"Reshuffled game orders used to measure how much μ moves (0 to {MAX_SHUFFLES};"
            " trueskill)."
        ),
    ] = 3,
    bootstrap: Annotated[
        int,
        typer.Option(help=f"Bootstrap samples (1 to {MAX_BOOTSTRAP:,}; bt)."),
    ] = 1000,
    seed: Annotated[int, typer.Option(help="Seed of the bootstrap draws (bt).")] = 0,
    game: GameOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    db: DbOption = DEFAULT_DB,
) -> None:
    """Ratings per agent, recomputed from the stored games (TrueSkill and Glicko-2: of one
    game, the only one stored or the one --game names; Bradley-Terry: of every game)."""
    from projections.ratings import load_results, rate

    if method not in METHODS:
        raise UsageError(f"--method must be one of {', '.join(METHODS)}, got {method!r}")
    # Each reshuffle is a full TrueSkill pass over every game (seconds per 10,000 games).
    in_range("--shuffles", shuffles, 0, MAX_SHUFFLES)
    in_range("--bootstrap", bootstrap, 1, MAX_BOOTSTRAP)
    members: list[str] | None = None
    if catalog.is_family(game):
        # A family of games (--game gamebench) is rated together, as GameBench rates it.
        if method != "bt":
            raise UsageError(f"--game {game} rates a family of games: use --method bt")
        members = [g.name for g in catalog.family(str(game))]
        game = None
    name = game_def(game).name if game is not None else None
    found: list[Any] = []
    with DuckStore(db, read_only=True) as store:
        if tournament is not None:
            _, rows = store.query("SELECT count(*) FROM games WHERE tournament = ?", [tournament])
            if not rows[0][0]:
                raise UsageError(f"no games of tournament {tournament!r} in {db}")
        if name is None and method != "bt":
            # TrueSkill and Glicko-2 compare agents within one game: a store holding finished
            # games of several needs --game. Bradley-Terry weighs every game the same.
            sql = "SELECT DISTINCT game FROM games WHERE status = 'finished'"
            params: list[Any] = []
            if tournament is not None:
                sql += " AND tournament = ?"
                params.append(tournament)
            _, found = store.query(sql + " ORDER BY game", params)
            if len(found) > 1:
                raise UsageError(
                    f"the selection holds games of {', '.join(g for (g,) in found)}:"
                    " pick one with --game (or rate them together with --method bt)"
                )
        if name is None and members is None and method == "bt":
            # Bradley-Terry weighs the games of one kind the same (GameBench's games as
            # GameBench rates them); kinds of game as unlike as an auction and a bargaining
            # game are never one pool: the person picks the kind.
            _one_kind(store, tournament)
        if method == "trueskill":
            results = load_results(store, tournament, name)
            n_games = len({r.game_id for r in results})
        else:
            from projections.ratings import load_matches

            records = load_matches(store, tournament, name)
            sql, params = _finished_count(tournament, name)
            if members is not None:
                records = [r for r in records if r["game"] in members]
                sql += " AND game IN (SELECT unnest(?::VARCHAR[]))"
                params.append(members)
            _, counted = store.query(sql, params)
            n_games = counted[0][0]
        hint = "" if n_games or name is None else other_games_hint(store.con, name, tournament)
    if method == "bt":
        from projections.ratings import bradley_terry_table

        _print_pairwise(
            bradley_terry_table(records, samples=bootstrap, seed=seed, suite=members is not None),
            as_json=as_json,
            empty=_nothing(name, tournament, db, hint),
            build=lambda t: _bt_table(t, n_games, len(records), tournament, bootstrap, seed),
            records=records,
        )
        return
    if method == "glicko2":
        from projections.ratings import glicko2_table

        _print_pairwise(
            glicko2_table(records),
            as_json=as_json,
            empty=_nothing(name, tournament, db, hint),
            build=lambda t: _glicko_table(t, n_games, len(records), tournament),
            records=records,
        )
        return
    table = rate(results, shuffles=shuffles)
    if as_json:
        print(json.dumps([msgspec.to_builtins(r) for r in table]))
        return
    if not table:
        out.print(plain(_nothing(name, tournament, db, hint)))
        return
    rated = name or (found[0][0] if found else DEFAULT_GAME)
    # Too wide for the terminal: the same columns in two tables, so that no name or number
    # is cut short (each table repeats the agent names).
    print_fitted(
        lambda cols: _ratings_table(
            table, n_games, tournament, shuffles, sets=rated == DEFAULT_GAME, columns=cols
        ),
        [(_TRUESKILL, _SCORES)],
    )


def _one_kind(store: DuckStore, tournament: str | None) -> None:
    """Refuse a selection holding finished games of several kinds (a family such as
    `gamebench` is one kind, any other game is its own), naming the --game that picks each."""
    sql = "SELECT DISTINCT game FROM games WHERE status = 'finished'"
    params: list[Any] = []
    if tournament is not None:
        sql += " AND tournament = ?"
        params.append(tournament)
    _, found = store.query(sql, params)
    kinds = sorted({catalog.family_of(g) or g for (g,) in found})
    if len(kinds) > 1:
        raise UsageError(
            f"the selection holds games of {len(kinds)} kinds, rated one kind at a time:"
            f" pick one with --game ({', '.join(kinds)})"
        )


def _nothing(name: str | None, tournament: str | None, db: Path, hint: str) -> str:
    """The line printed when the selection holds no finished game."""
    scope = f"tournament {tournament!r}" if tournament else str(db)
    what = f"{name} games" if name is not None else "games"
    return f"No finished {what} to rate in {scope}{hint}."


def _finished_count(tournament: str | None, name: str | None) -> tuple[str, list[Any]]:
    """SQL and parameters counting the finished games of the selection."""
    sql = "SELECT count(*) FROM games WHERE status = 'finished'"
    params: list[Any] = []
    if name is not None:
        sql += " AND game = ?"
        params.append(name)
    if tournament is not None:
        sql += " AND tournament = ?"
        params.append(tournament)
    return sql, params


def _print_pairwise(
    table: Sequence[Any],
    *,
    as_json: bool,
    empty: str,
    build: Callable[[Sequence[Any]], Table],
    records: Sequence[dict[str, object]],
) -> None:
    """Print a Bradley-Terry or Glicko-2 table, as JSON or text; under the text, a note when
    the agents form groups that never met (their ratings are not comparable across groups)."""
    if as_json:
        print(json.dumps([msgspec.to_builtins(r) for r in table]))
    elif not table:
        out.print(plain(empty))
    else:
        out.print(build(table))
        from projections.bradley_terry import groups_sentence, met_groups

        groups = met_groups(records, [r.agent for r in table])
        if len(groups) > 1:
            out.print(plain(groups_sentence(groups) + "."))


def _bt_table(
    table: Sequence[Any],
    n_games: int,
    n_pairs: int,
    tournament: str | None,
    samples: int,
    seed: int,
) -> Table:
    """Bradley-Terry ratings as a table; names print as plain text."""
    t = styled(
        plain(
            f"Bradley-Terry ratings over {plural(n_games, 'game')}"
            + (f" of {tournament}" if tournament else "")
        )
    )
    t.add_column("agent", overflow="fold")
    for col in ("rating", "p5", "p95", "point", "pairs"):
        t.add_column(col, justify="right", no_wrap=True)
    for r in table:
        t.add_row(
            plain(r.agent), *(f"{x:.2f}" for x in (r.mean, r.p5, r.p95, r.point)), str(r.pairs)
        )
    t.caption = (
        f"{plural(n_pairs, 'pairwise result')}, ties left out. rating: mean over"
        f" {plural(samples, 'bootstrap sample')} (seed {seed}), each game weighing the same;"
        " p5, p95: their 5th and 95th"
        " percentiles; point: the estimate on all results."
    )
    return t


def _glicko_table(
    table: Sequence[Any], n_games: int, n_pairs: int, tournament: str | None
) -> Table:
    """Glicko-2 ratings as a table; names print as plain text."""
    t = styled(
        plain(
            f"Glicko-2 ratings over {plural(n_games, 'game')}"
            + (f" of {tournament}" if tournament else "")
        )
    )
    t.add_column("agent", overflow="fold")
    for col in ("rating", "RD", "vol", "W", "D", "L"):
        t.add_column(col, justify="right", no_wrap=True)
    for r in table:
        t.add_row(
            plain(r.agent),
            f"{r.rating:.0f}",
            f"{r.rd:.0f}",
            f"{r.vol:.3f}",
            *(str(x) for x in (r.wins, r.draws, r.losses)),
        )
    t.caption = f"{plural(n_pairs, 'pairwise result')}, each its own rating period, in game order."
    return t


_RATING_COLUMNS: dict[str, Callable[[Any], str]] = {
    "μ": lambda r: f"{r.mu:.2f}",
    "σ": lambda r: f"{r.sigma:.2f}",
    "μ−3σ": lambda r: f"{r.conservative:.2f}",
    "seats": lambda r: str(r.games),
    "win rate": lambda r: f"{100 * r.win_rate:.1f}%",
    "median score": lambda r: f"{r.median_score:,.0f}",
    "score std": lambda r: f"{r.score_std:,.0f}",
    "mean sets": lambda r: f"{r.mean_sets:.2f}",
    "μ shuffle Δ": lambda r: f"{r.mu_shuffle_spread:.2f}",
    "gap shuffle Δ": lambda r: f"{r.relative_shuffle_spread:.2f}",
}
"""Every column after the agent's, in table order, with how it prints a rating."""
_TRUESKILL = ("μ", "σ", "μ−3σ", "seats", "win rate")
_SCORES = ("median score", "score std", "mean sets", "μ shuffle Δ", "gap shuffle Δ")


def _ratings_table(
    table: Sequence[Any],
    n_games: int,
    tournament: str | None,
    shuffles: int,
    *,
    sets: bool = True,
    columns: Sequence[str] | None = None,
) -> Table:
    """The ratings as a table (every column, or those named); agent names and the tournament
    name print as plain text."""
    names = [c for c in (columns or _RATING_COLUMNS) if sets or c != "mean sets"]
    t = styled(
        plain(
            f"Ratings over {plural(n_games, 'game')}" + (f" of {tournament}" if tournament else "")
        )
    )
    # A long name wraps onto more lines rather than losing its end (where options show).
    t.add_column("agent", overflow="fold")
    for col in names:
        t.add_column(col, justify="right", no_wrap=True)
    for r in table:
        t.add_row(plain(r.agent), *(_RATING_COLUMNS[c](r) for c in names))
    if "μ shuffle Δ" in names:
        t.caption = (
            "TrueSkill over games in id order. μ shuffle Δ: largest change of μ over"
            f" {shuffles} reshuffled orders; gap shuffle Δ: the same for μ minus the mean μ."
        )
    return t


__all__ = ["StoreError", "ratings", "tournament"]


def _games(n: int) -> str:
    """`game` or `games`, as `n` asks."""
    return "game" if n == 1 else "games"
