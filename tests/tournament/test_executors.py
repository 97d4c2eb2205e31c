"""The same tournament gives the same games whatever plays it: one process, a pool, a Ray
cluster, any number of games at once, any completion order; and it survives dead workers and
a change of executor between a kill and the resume.

One real local Ray cluster (2 CPUs, no dashboard, loopback only) serves the whole module;
commands under test connect to it with `--ray-address`.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents.llm.loopback import LegalPolicy, LoopbackServer
from engine.cattle.presets import load_preset
from events import catalog
from events.store import DuckStore
from runner.executors import Executor, Finished, LocalExecutor, RayExecutor, Status, play_many
from runner.replay import verify
from runner.tournament import GameTask, create, ensure_schema, pending_tasks, play_tournament

ROOT = Path(__file__).resolve().parents[2]
CATTLE = str(Path(sys.executable).parent / "cattle")

CLUSTER_ENV = {
    # Everything on 127.0.0.1; workers run this interpreter, not `uv run` of a copy.
    "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0",
    "RAY_ENABLE_UV_RUN_RUNTIME_ENV": "0",
    # Model seats in Ray workers read these from the environment they inherit.
    "OPENAI_API_KEY": "sk-test-executors",
    "ANTHROPIC_API_KEY": "sk-ant-test-executors",
    "CATTLE_LLM_BACKOFF": "0.001",
}


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A local Ray cluster for the module; its address."""
    cfg = tmp_path_factory.mktemp("llm") / "llm.toml"
    cfg.write_text("")
    env = {**CLUSTER_ENV, "CATTLE_LLM_CONFIG": str(cfg)}
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        import ray  # after the variables above: Ray reads some of them on import

        info = ray.init(
            num_cpus=2,
            include_dashboard=False,
            log_to_driver=False,
            object_store_memory=100 * 1024 * 1024,
            logging_level="WARNING",
        )
        try:
            yield str(info.address_info["gcs_address"])
        finally:
            ray.shutdown()
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def cli_env() -> dict[str, str]:
    base = {k: v for k, v in os.environ.items() if k != "CATTLE_DB"}
    return {**base, **CLUSTER_ENV, "COLUMNS": "200", "NO_COLOR": "1"}


# ---------------------------------------------------------------------------- helpers

Games = dict[int, tuple[tuple[Any, ...], list[tuple[Any, ...]]]]
"""Per scheduled game: its games row without id and times, and its events without game id."""


def stored(db: Path, name: str) -> Games:
    """What a tournament stored, keyed by schedule index, game ids and wall-clock times aside."""
    with DuckStore(db, read_only=True) as store:
        _, rows = store.query(
            "SELECT t.idx, g.game, g.seed, g.config::VARCHAR, g.seats::VARCHAR,"
            " g.engine_version, g.status, g.end_reason, g.tournament, g.game_id"
            " FROM tournament_games t JOIN games g USING (game_id)"
            " WHERE t.tournament = ? ORDER BY t.idx",
            [name],
        )
        out: Games = {}
        for idx, *row, gid in rows:
            _, events = store.query(
                "SELECT seq, type, turn, actor, visible_to, payload::VARCHAR FROM events"
                " WHERE game_id = ? ORDER BY seq",
                [gid],
            )
            out[idx] = (tuple(row), [tuple(map(str, e)) for e in events])
        _, counts = store.query(
            "SELECT count(*), count(DISTINCT game_id) FROM games WHERE tournament = ?", [name]
        )
    assert counts[0][0] == counts[0][1]
    return out


def timeless(games: Games) -> Games:
    """The same without the measured latency of model calls (a rerun cannot repeat it)."""
    out: Games = {}
    for idx, (row, events) in games.items():
        clean = []
        for *cols, payload in events:
            doc = json.loads(payload)
            doc.pop("latency_ms", None)
            clean.append((*cols, json.dumps(doc, sort_keys=True)))
        out[idx] = (row, clean)
    return out


def plan(db: Path, name: str, fmt: str, agents: tuple[str, ...], games: int, config: Any) -> None:
    with DuckStore(db) as store:
        ensure_schema(store)
        create(store, name, fmt, agents, games, 5, config)


def play(db: Path, name: str, executor: Executor, concurrency: int | None = None) -> int:
    with DuckStore(db) as store:
        config, tasks, _ = pending_tasks(store, name)
        return play_tournament(
            store, name, config, tasks, executor=executor, concurrency=concurrency
        )


TOURNAMENTS = {
    "cattle-trade": ("mixed", ("tracker", "random"), 14, "standard"),
    "pact": ("duplicate", ("anchor", "mirror", "truthful"), 12, "quick"),
}


def config_of(game: str) -> Any:
    if game == "cattle-trade":
        return load_preset(TOURNAMENTS[game][3])
    return catalog.get(game).preset(TOURNAMENTS[game][3])


# ---------------------------------------------------------------------------- determinism


@pytest.mark.parametrize("game", sorted(TOURNAMENTS))
def test_every_executor_stores_the_same_games(tmp_path: Path, cluster: str, game: str) -> None:
    fmt, agents, n, _ = TOURNAMENTS[game]
    config = config_of(game)
    results = {}
    for label, executor in (
        ("one", LocalExecutor(1)),
        ("two", LocalExecutor(2)),
        ("ray", RayExecutor(cluster)),
    ):
        db = tmp_path / f"{label}.duckdb"
        plan(db, "same", fmt, agents, n, config)
        with executor:
            assert play(db, "same", executor) == n
        results[label] = stored(db, "same")
    assert len(results["one"]) == n
    assert results["two"] == results["one"]
    assert results["ray"] == results["one"]


class Shuffled(Executor):
    """Plays every game here, then hands them back in a given order, some of them twice (as a
    worker thought dead that still answers would)."""

    name = "shuffled"

    def __init__(self, order: Sequence[int], twice: Sequence[int]) -> None:
        self.order = order
        self.twice = twice
        self.status = Status(workers=1)

    def code_games(self, tasks: Sequence[GameTask]) -> Iterator[Finished]:
        played = play_many(tasks)
        picked = [played[i % len(played)] for i in self.order]
        rest = [g for g in played if g not in picked]
        again = [played[i % len(played)] for i in self.twice]
        yield from [*picked, *rest, *again]


@pytest.fixture(scope="module")
def in_order(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Games]:
    db = tmp_path_factory.mktemp("order") / "ref.duckdb"
    plan(db, "order", "round-robin", ("tracker", "setrace", "economy"), 9, _micro())
    play(db, "order", LocalExecutor(1))
    return db, stored(db, "order")


def _micro() -> Any:
    return load_preset("micro-duel")


@settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    order=st.lists(st.integers(0, 8), max_size=9, unique=True),
    twice=st.lists(st.integers(0, 8), max_size=3),
)
def test_any_completion_order_stores_the_same_games_once(
    tmp_path_factory: pytest.TempPathFactory,
    in_order: tuple[Path, Games],
    order: list[int],
    twice: list[int],
) -> None:
    db = tmp_path_factory.mktemp("shuffled") / "t.duckdb"
    plan(db, "order", "round-robin", ("tracker", "setrace", "economy"), 9, _micro())
    assert play(db, "order", Shuffled(order, twice)) == 9
    assert stored(db, "order") == in_order[1]


def test_model_games_are_the_same_at_any_concurrency_and_on_ray(
    tmp_path: Path, cluster: str
) -> None:
    config = _micro()
    with LoopbackServer(LegalPolicy(), delay=0.01) as server:
        agents = (f"openai:loop@{server.openai_url}", "random", "tracker")
        results = {}
        for label, executor, concurrency in (
            ("one", LocalExecutor(1), 1),
            ("four", LocalExecutor(1), 4),
            ("ray", RayExecutor(cluster, workers=2, concurrency=3), None),
        ):
            db = tmp_path / f"{label}.duckdb"
            plan(db, "models", "round-robin", agents, 6, config)
            before = len(server.requests)
            with executor:
                assert play(db, "models", executor, concurrency) == 6
            results[label] = timeless(stored(db, "models"))
            assert len(server.requests) > before
    assert len(results["one"]) == 6
    assert results["four"] == results["one"]
    assert results["ray"] == results["one"]


# ---------------------------------------------------------------------------- the command


def cattle(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [CATTLE, *args], cwd=ROOT, capture_output=True, text=True, env=cli_env(), timeout=timeout
    )


def start(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [CATTLE, "-v", *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=cli_env(),
        start_new_session=True,
    )


def wait_for_batch(proc: subprocess.Popen[str]) -> None:
    """Until the command stored its first batch of games."""
    assert proc.stderr is not None
    for line in proc.stderr:
        if "tournament.saved" in line:
            return
    raise AssertionError(f"the tournament ended without storing a batch ({proc.wait()})")


def finish(proc: subprocess.Popen[str], timeout: float = 300) -> tuple[str, str]:
    """The command's output once it ends; killed (with all it started) if it hangs."""
    try:
        return proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise AssertionError(f"the command hung for {timeout} s") from None


def check_complete(db: Path, name: str, games: int) -> None:
    """Every scheduled game finished, each once, and each verifies."""
    with DuckStore(db, read_only=True) as store:
        _, planned = store.query(
            "SELECT t.game_id, g.status FROM tournament_games t LEFT JOIN games g USING"
            " (game_id) WHERE t.tournament = ?",
            [name],
        )
        assert len(planned) == games
        assert all(status == "finished" for _, status in planned)
        _, rows = store.query(
            "SELECT game_id FROM games WHERE tournament = ? AND status = 'finished'", [name]
        )
        assert sorted(r[0] for r in rows) == sorted(gid for gid, _ in planned)
        for (gid,) in rows:
            assert verify(store.load_events(gid)).ok, gid


ARGS = ("--agents", "tracker,setrace,economy,random", "--games", "160", "--seed", "9")


@pytest.mark.parametrize(
    ("first", "then"),
    [(("ray",), ("local",)), (("local", "2"), ("ray",))],
    ids=["ray-then-local", "local-then-ray"],
)
def test_a_tournament_killed_under_one_executor_resumes_under_the_other(
    tmp_path: Path, cluster: str, first: tuple[str, ...], then: tuple[str, ...]
) -> None:
    def how(spec: tuple[str, ...]) -> list[str]:
        if spec[0] == "ray":
            return ["--executor", "ray", "--ray-address", cluster]
        return ["--executor", "local", "--workers", spec[1] if len(spec) > 1 else "1"]

    db = tmp_path / "t.duckdb"
    proc = start("tournament", *ARGS, "--name", "moved", "--quiet", "--db", str(db), *how(first))
    wait_for_batch(proc)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    with DuckStore(db, read_only=True) as store:
        _, rows = store.query("SELECT count(*) FROM games WHERE status = 'finished'")
    assert 0 < rows[0][0] < 160, "the kill came too late"

    done = cattle("tournament", "--resume", "moved", "--quiet", "--db", str(db), *how(then))
    assert done.returncode == 0, done.stderr
    check_complete(db, "moved", 160)


def busy_ray_workers(task: str) -> list[int]:
    """Processes of this machine running the Ray task named `task` now."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmd = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if cmd.startswith(f"ray::{task}".encode()):
            found.append(int(entry.name))
    return found


def test_a_ray_worker_killed_mid_run_costs_nothing(tmp_path: Path, cluster: str) -> None:
    db = tmp_path / "t.duckdb"
    proc = start(
        "tournament", *ARGS, "--name", "survivor", "--db", str(db),
        "--executor", "ray", "--ray-address", cluster,
    )  # fmt: skip
    wait_for_batch(proc)
    deadline = time.monotonic() + 60
    while not (victims := busy_ray_workers("play_games")):
        assert proc.poll() is None, "the tournament ended before a worker could be killed"
        assert time.monotonic() < deadline, "no Ray worker was seen playing games"
        time.sleep(0.01)
    os.kill(victims[0], signal.SIGKILL)
    out, err = finish(proc)
    assert proc.returncode == 0, err
    assert "played again after their worker was lost" in out, out
    check_complete(db, "survivor", 160)


def children(pid: int) -> list[int]:
    """The processes whose parent is `pid`."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # pid (comm) state ppid ...: the name may hold spaces, so read after its ")".
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            found.append(int(entry.name))
    return found


def test_a_local_worker_killed_mid_run_costs_nothing(tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    proc = start("tournament", *ARGS, "--name", "local", "--workers", "2", "--db", str(db))
    wait_for_batch(proc)
    workers = children(proc.pid)
    assert workers, "no worker process to kill"
    os.kill(workers[0], signal.SIGKILL)
    out, err = finish(proc)
    assert proc.returncode == 0, err
    assert "played again after their worker was lost" in out, out
    check_complete(db, "local", 160)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--executor", "dask"], "--executor must be one of local, ray"),
        (["--ray-address", "auto"], "--ray-address goes with --executor ray"),
        (["--executor", "ray", "--ray-address", " "], "--ray-address is empty"),
        (["--concurrency", "0"], "--concurrency must be between 1 and"),
        (["--executor", "ray", "--workers", "0"], "--workers must be between 1 and"),
    ],
)
def test_bad_executor_options_exit_2_in_one_line(
    tmp_path: Path, args: list[str], message: str
) -> None:
    db = tmp_path / "t.duckdb"
    got = cattle("tournament", "--agents", "random", "--games", "2", *args, "--db", str(db))
    assert got.returncode == 2, (got.stdout, got.stderr)
    assert message in got.stderr and len(got.stderr.strip().splitlines()) == 1, got.stderr
    assert not db.exists()


def test_an_unreachable_cluster_stores_nothing(tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    got = cattle(
        "tournament", "--agents", "random", "--games", "2", "--name", "nowhere",
        "--executor", "ray", "--ray-address", "127.0.0.1:9", "--db", str(db),
    )  # fmt: skip
    assert got.returncode == 1, (got.stdout, got.stderr)
    assert "no Ray cluster answers at 127.0.0.1:9" in got.stderr
    assert "Traceback" not in got.stderr
    with DuckStore(db, read_only=True) as store:
        _, rows = store.query("SELECT count(*) FROM tournaments")
    assert rows == [(0,)]


NO_RAY = (
    "import sys\n"
    "sys.modules['ray'] = None  # the import fails as on a machine without Ray\n"
    "sys.argv = ['cattle', *sys.argv[1:]]\n"
    "from cli.main import run\n"
    "run()\n"
)


def test_without_ray_the_executor_says_how_to_install_it(tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    got = subprocess.run(
        [sys.executable, "-c", NO_RAY, "tournament", "--agents", "random", "--games", "2",
         "--executor", "ray", "--db", str(db)],
        cwd=ROOT, capture_output=True, text=True, env=cli_env(), timeout=120,
    )  # fmt: skip
    assert got.returncode == 2, (got.stdout, got.stderr)
    assert len(got.stderr.strip().splitlines()) == 1, got.stderr
    assert "pip install 'cattle-trade[ray]'" in got.stderr
    assert not db.exists()


# ---------------------------------------------------------------------------- leagues

LEAGUE = """
[league]
name = "onray"
seed = 11
round_games = 4

[[games]]
game = "pact"
preset = "quick"

[[games]]
game = "openspiel"
preset = "kuhn_poker"

[[agents]]
name = "rnd"
spec = "random"

[[agents]]
name = "bot"
specs = { pact = "truthful", openspiel = "mcts?simulations=20" }

[[agents]]
name = "bot2"
specs = { pact = "anchor" }
"""


def test_a_league_on_ray_chooses_and_plays_what_it_does_here(tmp_path: Path, cluster: str) -> None:
    from runner import league

    path = tmp_path / "league.toml"
    path.write_text(LEAGUE)
    results = {}
    for label, executor in (("here", LocalExecutor(1)), ("ray", RayExecutor(cluster))):
        db = tmp_path / f"{label}.duckdb"
        with executor, DuckStore(db) as store:
            league.run(store, path, games=12, executor=executor, day=lambda: "2026-12-07")
            facts = store.con.execute("SELECT payload FROM league_events ORDER BY seq").fetchall()
        results[label] = (facts, stored(db, "onray"))
    assert len(results["here"][1]) == 12
    assert results["ray"] == results["here"]
