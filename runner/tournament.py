"""Scheduled, resumable, parallel tournaments of any game, as a library.

The schedule (every game's seed and seats) is written to the database before the first game
is played, in the tables `tournaments` and `tournament_games`. Worker processes only
simulate: each returns a finished game's encoded events, and this process, the only writer,
stores finished games in batches (one transaction per batch), so a crash loses at most the
unsaved batch and never leaves half a game.

Games with model seats are played in this process instead (several at once with asyncio) and
written while they run, decision by decision, so that an interruption loses at most the model
calls in flight. Resuming plays what is missing: games that ended are kept; an unfinished
game with model seats is continued from its stored events (answers already recorded are
reused, no model is asked for them again); an unfinished code-agent game is marked
abandoned, its events kept, and played again under a new id (it costs nothing).

`cattle tournament` is a thin command over `run` and `resume`; a notebook calls them too.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

import msgspec

from agents import make_agent, parse_spec
from engine.schedule import PlannedGame, iter_schedule, iter_suite
from events import catalog
from events.codec import encode
from events.lazy import get_logger
from events.store import DuckStore, PreparedGame, StoreError
from runner.executors import Executor, LocalExecutor
from runner.limits import MAX_CONCURRENCY as MAX_CONCURRENCY
from runner.limits import MAX_GAMES as MAX_GAMES
from runner.limits import MAX_MODEL_GAMES as MAX_MODEL_GAMES
from runner.limits import MAX_SHUFFLES as MAX_SHUFFLES
from runner.limits import WORKERS_PER_CPU as WORKERS_PER_CPU
from runner.limits import max_workers as max_workers
from runner.limits import usable_cpus as usable_cpus
from runner.tasks import GameTask as GameTask
from runner.tasks import simulate as simulate
from runner.tasks import simulate_async as simulate_async


class TournamentError(ValueError):
    """A tournament that cannot be run as asked (the message says why)."""


log = get_logger("cattle.tournament")

SCHEMA = """
CREATE TABLE IF NOT EXISTS tournaments (
    name VARCHAR PRIMARY KEY,
    format VARCHAR NOT NULL,
    agents JSON NOT NULL,
    games INTEGER NOT NULL,
    seed BIGINT NOT NULL,
    config JSON NOT NULL,
    created_at TIMESTAMP NOT NULL DEFAULT current_timestamp,
    game VARCHAR NOT NULL DEFAULT 'cattle-trade'
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
    game VARCHAR,
    PRIMARY KEY (tournament, idx)
);
"""

SUITE = "suite"
"""The format of a tournament over several games (`create_suite`): its `config` is a JSON
object of every game's configuration by name, and each scheduled game names its game."""

BATCH_GAMES = 128
"""Finished games stored per transaction (at most). Each commit costs a flush of the log to
disk, and a transaction that fills whole row groups (about 70 standard games) has them
written to the file once instead of to the write-ahead log and again at the next checkpoint;
the time bound below keeps a slow tournament's batches small."""
BATCH_SECONDS = 1.0
"""A batch is also stored once its oldest game waited this long."""
NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
SCHEDULE_CHUNK = 20_000
"""Scheduled games inserted per statement while a schedule is stored."""


def check_workers(workers: int, *, every_game_has_a_model: bool | None = None) -> None:
    """Refuse a `--workers` out of range; `None`: whether games have model seats is not known
    yet, so only what no tournament could use is refused."""
    limit = max_workers()
    if 1 <= workers <= limit:
        return
    if 1 <= workers <= MAX_MODEL_GAMES and every_game_has_a_model is not False:
        return
    raise TournamentError(
        f"--workers must be between 1 and {limit} ({WORKERS_PER_CPU} per CPU,"
        f" {usable_cpus()} CPU(s) here; up to {MAX_MODEL_GAMES} when every game has a model"
        f" seat), got {workers}"
    )


def every_game_has_a_model(fmt: str, pool: Sequence[str], config: Any) -> bool:
    """True if every game of this tournament seats at least one model (its agents wait on I/O)."""
    game = catalog.for_config(config)
    code = [a for a in pool if not make_agent(parse_spec(a, game), 0, 0, config).is_async]
    if fmt == "mixed":
        return not code  # the opponents are code agents; the agent under test decides
    return len(code) < config.players  # else some combination seats code agents only


# ---------------------------------------------------------------------------- storage


def ensure_schema(store: DuckStore) -> None:
    """Create the tournament tables if this database has none yet."""
    store.con.execute(SCHEMA)
    # Stores made before games had names: their tournaments are Cattle Trade's.
    store.con.execute(
        "ALTER TABLE tournaments ADD COLUMN IF NOT EXISTS game VARCHAR DEFAULT 'cattle-trade'"
    )
    # Stores made before suites: every scheduled game is of its tournament's game (NULL).
    store.con.execute("ALTER TABLE tournament_games ADD COLUMN IF NOT EXISTS game VARCHAR")


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
    config: Any,
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
            "INSERT INTO tournaments (name, format, agents, games, seed, config, game)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                name,
                fmt,
                json.dumps(list(agents)),
                games,
                seed,
                encode(config).decode(),
                catalog.for_config(config).name,
            ],
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


SuiteGame = tuple[str, Any, tuple[int, ...]]
"""A game of a suite: its name, its configuration and the side (0 or 1) of each seat."""


def suite_games(family: str, only: Sequence[str] = ()) -> list[SuiteGame]:
    """Every game of `family` in the catalogue (or those `only` names, as `pit` or
    `gamebench:pit`), each in its default configuration, with the side of each seat: the
    two seats of a two-seat game, the two teams of a game that names its teams."""
    members = {g.name: g for g in catalog.family(family)}
    if not members:
        raise TournamentError(f"no games of family {family!r} in the catalogue")
    chosen = list(members)
    if only:
        chosen = []
        for part in only:
            name = part if part.startswith(f"{family}:") else f"{family}:{part}"
            if name not in members:
                known = ", ".join(n.partition(":")[2] for n in members)
                raise TournamentError(f"--only: {family} has no game {part!r}; known: {known}")
            chosen.append(name)
    games: list[SuiteGame] = []
    for name in dict.fromkeys(chosen):
        g = members[name]
        config = g.preset(g.default_preset)
        teams = g.extras.get("teams")
        if teams:
            names = list(dict.fromkeys(teams))
            if len(names) != 2 or len(teams) != config.players:
                raise TournamentError(f"{name}: a suite needs two teams, got {list(teams)}")
            sides = tuple(names.index(t) for t in teams)
        elif config.players == 2:
            sides = (0, 1)
        else:
            raise TournamentError(
                f"{name}: {config.players} seats and no teams; a suite seats two agents a match"
            )
        games.append((name, config, sides))
    return games


def create_suite(
    store: DuckStore,
    name: str,
    family: str,
    agents: tuple[str, ...],
    matches: int,
    seed: int,
    games: Sequence[SuiteGame],
) -> int:
    """Plan a suite (every pairing of `agents` plays `matches` matches in every game of
    `games`, `engine.schedule.iter_suite`) and store its schedule; return the number of games."""
    plan = list(iter_suite([(n, sides) for n, _, sides in games], agents, matches, seed))
    configs = {n: json.loads(encode(config)) for n, config, _ in games}
    con = store.con
    con.execute("BEGIN")
    try:
        con.execute(
            "INSERT INTO tournaments (name, format, agents, games, seed, config, game)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            [name, SUITE, json.dumps(list(agents)), len(plan), seed, json.dumps(configs), family],
        )
        for chunk in _chunks(plan, SCHEDULE_CHUNK):
            con.execute(
                "INSERT INTO tournament_games"
                " (tournament, idx, game_id, seed, seats, lineup, rotation, game)"
                " SELECT ?, unnest(?), unnest(?), unnest(?), unnest(?), unnest(?), unnest(?),"
                " unnest(?)",
                [
                    name,
                    [g.index for g in chunk],
                    [game_id(name, g.index) for g in chunk],
                    [g.seed for g in chunk],
                    [json.dumps(list(g.seats)) for g in chunk],
                    [g.lineup for g in chunk],
                    [g.rotation for g in chunk],
                    [g.game for g in chunk],
                ],
            )
    except BaseException:
        con.execute("ROLLBACK")
        raise
    con.execute("COMMIT")
    return len(plan)


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
        raise TournamentError(f"no tournament named {name!r} in {store.path}")
    meta = dict(zip(cols, rows[0], strict=True))
    _, has = store.query(
        "SELECT count(*) FROM information_schema.columns"
        " WHERE table_name = 'tournament_games' AND column_name = 'game'"
    )
    # A store scheduled before suites (and opened read-only since) has no game column.
    game = "t.game" if has[0][0] else "NULL AS game"
    cols, rows = store.query(
        "SELECT t.idx, t.game_id, t.seed, t.seats, t.lineup, t.rotation, t.attempt, g.status,"
        f" {game} FROM tournament_games t LEFT JOIN games g ON g.game_id = t.game_id"
        " WHERE t.tournament = ? ORDER BY t.idx",
        [name],
    )
    return meta, [dict(zip(cols, r, strict=True)) for r in rows]


def pending_tasks(store: DuckStore, name: str) -> tuple[Any, list[GameTask], int]:
    """The games still to play and how many ended: unfinished games with model seats are
    continued, unfinished code-agent games restart under new ids."""
    from runner.session import needs_io
    from runner.verify import continuation_refused

    meta, games = load(store, name)
    configs = _configs(name, meta)
    config: Any = configs.get(None)
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
        config = configs[g["game"]]
        key = f"{g['game']}\x1f{g['seats']}"
        if key not in io_of:
            io_of[key] = needs_io(config, g["seed"], seats)
        io = io_of[key]
        if io and status is not None:
            refused = continuation_refused(store.load_rows(gid))
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
    return configs.get(None, config), tasks, done


def _configs(name: str, meta: dict[str, Any]) -> dict[str | None, Any]:
    """The configuration of every game a stored tournament plays, by the game column of its
    scheduled games (None: the tournament's one game; a suite names each game)."""
    names: list[str | None] = [None]
    texts = [meta["config"]]
    if meta.get("format") == SUITE:
        by_game = json.loads(meta["config"])
        names = list(by_game)
        texts = [json.dumps(c) for c in by_game.values()]
    found: dict[str | None, Any] = {}
    for game_name, text in zip(names, texts, strict=True):
        game = catalog.get(meta.get("game") if game_name is None else game_name)
        try:
            found[game_name] = msgspec.json.decode(text, type=game.config_type).validate()
        except (msgspec.MsgspecError, ValueError) as exc:
            # The row was written from a checked configuration: only an altered file gets here.
            raise StoreError(
                f"tournament {name}: its stored configuration is not a playable {game.name}"
                f" configuration ({exc})"
            ) from None
    return found


# ---------------------------------------------------------------------------- running


def play_tournament(
    store: DuckStore,
    name: str,
    config: Any,
    tasks: Sequence[GameTask],
    *,
    workers: int = 1,
    already: int = 0,
    on_game: Callable[[], None] | None = None,
    show: bool = False,
    executor: Executor | None = None,
    concurrency: int | None = None,
    budget: Any = None,
) -> int:
    """Play `tasks` and store every finished game once; return the number stored.

    `budget` (agents.llm.budget.TournamentBudget) limits the model calls, tokens and cost of
    all the games with model seats together; they are then played here, in this process.

    `executor` plays the games (default: `LocalExecutor(workers)`, closed here; one passed in
    is left open for its owner). Games with model seats that the executor hands back to the
    writer are played here, `concurrency` at a time (default: `workers`), written as they run.
    `on_game` is called once per game stored (progress bars hook in here); `show` is kept
    for callers that passed it and has no effect.
    """
    store.release()  # readers may open the file until the first batch is written
    batch: list[PreparedGame] = []
    first = 0.0
    stored = 0
    seen: set[int] = set()

    def flush() -> None:
        nonlocal stored
        if batch:
            store.save_prepared(batch)
            stored += len(batch)
            log.debug("tournament.saved", games=len(batch), stored=already + stored)
            batch.clear()

    def tick() -> None:
        if on_game is not None:
            on_game()

    def take(finished: Iterable[tuple[int, PreparedGame]]) -> None:
        nonlocal first
        for index, prepared in finished:
            if index in seen:
                # A game that came back twice (a worker thought lost still answered): the
                # first copy is the one stored; both are the same game.
                log.warning("tournament.duplicate", index=index)
                continue
            seen.add(index)
            if not batch:
                first = time.monotonic()
            batch.append(prepared)
            if len(batch) >= BATCH_GAMES or time.monotonic() - first >= BATCH_SECONDS:
                flush()
            tick()
        flush()

    own = executor is None
    runner = executor if executor is not None else LocalExecutor(min(workers, max_workers()))
    try:
        code = [t for t in tasks if not t.io]
        io = [t for t in tasks if t.io]
        if code:
            take(runner.code_games(code))
        # A game to continue has its partial log in this store: the writer plays it.
        fresh = [t for t in io if not t.resume]
        remote = runner.model_games(fresh) if fresh and budget is None else None
        here = [t for t in io if t.resume] if remote is not None else io
        if remote is not None:
            take(remote)
        if here:
            stored += asyncio.run(_play_io(store, here, concurrency or workers, tick, budget))
    finally:
        if own:
            runner.close()
    return stored


def has_human(seats: Sequence[str]) -> bool:
    """True if a person plays one of `seats` (a `human` spec)."""
    return any(s.split(":", 1)[0].split("?", 1)[0].strip() == "human" for s in seats)


def _departed() -> int:
    """The mark of this process's departures so far (0 while no person's seat was made)."""
    human = sys.modules.get("agents.human")
    return 0 if human is None else int(human.departed())


def _person_left(seats: Sequence[str], since: int) -> bool:
    """Whether a person of `seats` left a seat of this run (since mark `since`): another
    person's leaving, or one in an earlier run of this process, keeps nobody out."""
    human = sys.modules.get("agents.human")
    return human is not None and bool(human.gone(seats, since))


async def _play_io(
    store: DuckStore,
    tasks: Sequence[GameTask],
    concurrency: int,
    done: Callable[[], None],
    budget: Any = None,
) -> int:
    """Play games with model seats here, `concurrency` at a time, each written as it runs
    (every model seat drawing on `budget`, if given); return how many were played."""
    from agents.llm.agent import AUTH_STREAKS
    from agents.llm.budget import CURRENT
    from events.config import ConfigError
    from runner.session import play_stored, watch_readers

    CURRENT.set(budget)  # the games' tasks below start in this context
    AUTH_STREAKS.set({})  # a key refused again and again stops the tournament, not one game

    # A person plays one game at a time: their games run one after the other, and once they
    # left (end of input, Ctrl-C) their games not begun stay unplayed, for `--resume`.
    people = [t for t in tasks if has_human(t.seats)]
    since = _departed()
    gate = asyncio.Semaphore(1 if people else max(1, concurrency))
    watcher = asyncio.create_task(watch_readers(store))

    async def one(t: GameTask) -> None:
        async with gate:
            if people and has_human(t.seats) and _person_left(t.seats, since):
                return
            try:
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
            except ConfigError:
                raise  # the same for every game (a refused key): the tournament stops
            except Exception as exc:
                # Stored as abandoned with its error (play_stored kept its events); the
                # other games go on, and a resume plays it again.
                log.warning("tournament.game_failed", game=t.game_id, error=repr(exc))
                return
            played.append(t.index)
            done()

    played: list[int] = []
    try:
        await asyncio.gather(*(one(t) for t in tasks))
    finally:
        watcher.cancel()
    return len(played)


def spent_so_far(
    store: DuckStore, name: str, prices: dict[str, tuple[float, float]]
) -> tuple[int, int, float]:
    """Model calls, tokens (in and out) and cost the stored games of tournament `name` used."""
    from projections.costs import cost, price_for

    rows = store.con.execute(
        "SELECT provider, model, count(*), coalesce(sum(input_tokens), 0),"
        " coalesce(sum(output_tokens), 0) FROM llm_calls WHERE tournament = ? GROUP BY ALL",
        [name],
    ).fetchall()
    calls = sum(r[2] for r in rows)
    tokens = sum(r[3] + r[4] for r in rows)
    spent = sum(cost(r[3], r[4], price_for(r[0], r[1], prices)) or 0.0 for r in rows)
    return int(calls), int(tokens), float(spent)


# ---------------------------------------------------------------------------- commands
