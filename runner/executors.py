"""Where a tournament's games are played: worker processes here, or tasks on a Ray cluster.

An executor takes games to play (`GameTask`s) and gives back each finished game as rows ready
for the store (`PreparedGame`), in whatever order they finish. It never writes: the process
that runs the tournament is the only writer, and it stores each scheduled game once. A game is
a function of its seed and seats, so the executor, the number of workers and the order in
which games finish change nothing in what is stored.

* `LocalExecutor`: a pool of processes on this machine (or this process alone for one
  worker). Games with model seats are played by the writer itself, several at once with
  asyncio, and written while they run.
* `RayExecutor`: code-agent games as Ray tasks (a few games per task) on every CPU of a
  running cluster, or of a local Ray started on demand; games with model seats on Ray actors
  (`workers` of them, each playing `concurrency` games at once in one event loop, so the
  per-provider limits of a worker hold for all its games).

When a worker dies (a killed process, a lost node), the games it was playing are played again
from their seeds, up to `MAX_ATTEMPTS` times each; the writer never stores a game twice.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import time
from abc import ABC, abstractmethod
from collections.abc import Generator, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from events.lazy import get_logger
from events.store import PreparedGame

if TYPE_CHECKING:
    from runner.tasks import GameTask

log = get_logger("cattle.executor")

EXECUTORS = ("local", "ray")
MAX_ATTEMPTS = 3
"""Times a game is played at most when its worker keeps dying under it."""
RAY_CHUNK = 4
"""Code-agent games per Ray task: enough to make the cost of a task small beside the games."""
RAY_INSTALL = (
    "--executor ray needs Ray, which is not installed: pip install 'cattle-trade[ray]'"
    " (or uv sync --extra ray)"
)
LOOPBACK_ENV = "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"
"""Set to 0 for a Ray started on demand: it then listens on the loopback address only."""
UV_HOOK_ENV = "RAY_ENABLE_UV_RUN_RUNTIME_ENV"
PASSED_ENV = ("CATTLE_", "OPENAI_", "ANTHROPIC_")
"""Environment variables handed to Ray workers (model keys and settings, game modules)."""


class ExecutorError(ValueError):
    """An executor asked for wrongly, or not installed (the message says what to do)."""


class ClusterError(RuntimeError):
    """The cluster cannot be reached, or keeps losing the workers of a game."""


class WorkerLost(ClusterError):
    """A game whose worker died under it `MAX_ATTEMPTS` times."""


@dataclass
class Status:
    """What a progress display shows about the workers (updated as games come back)."""

    workers: int = 0
    """Workers alive: processes here, or CPUs of the Ray cluster's live nodes."""
    retries: int = 0
    """Games played again because their worker died."""


Finished = tuple[int, PreparedGame]
"""A finished game: its index in the tournament and its rows."""


class Executor(ABC):
    """Plays games somewhere and hands them back finished."""

    name = ""
    status: Status

    @abstractmethod
    def code_games(self, tasks: Sequence[GameTask]) -> Iterator[Finished]:
        """Play games of code agents; yield each as it finishes."""

    def model_games(self, tasks: Sequence[GameTask]) -> Iterator[Finished] | None:
        """Play games with model seats (new ones: the writer continues unfinished games from
        its store) and yield each finished one, or None if the writer should play them itself
        (written while they run)."""
        return None

    def close(self) -> None:  # noqa: B027 - most executors hold nothing to release
        """Release the workers."""

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def play_many(tasks: Sequence[GameTask]) -> list[Finished]:
    """Play games of code agents one after the other (the body of a worker's job)."""
    from runner.tasks import simulate

    return [simulate(t) for t in tasks]


# ---------------------------------------------------------------------------- local


class LocalExecutor(Executor):
    """Worker processes on this machine; one worker plays in this process."""

    name = "local"

    def __init__(self, workers: int = 1) -> None:
        self.workers = max(1, workers)
        self.status = Status(workers=self.workers)

    def code_games(self, tasks: Sequence[GameTask]) -> Iterator[Finished]:
        workers = min(self.workers, len(tasks))
        if workers <= 1:
            self.status.workers = 1
            for t in tasks:
                yield play_many([t])[0]
            return
        self.status.workers = workers
        attempts: dict[int, int] = {}
        todo = list(reversed(tasks))  # popped from the end: schedule order
        while todo:
            lost = yield from self._pool(todo, workers)
            if not lost:
                return
            # A worker died and took the pool with it: the games in flight go back in line.
            for t in lost:
                attempts[t.index] = attempts.get(t.index, 1) + 1
                if attempts[t.index] > MAX_ATTEMPTS:
                    raise WorkerLost(
                        f"game {t.game_id}: its worker process died {MAX_ATTEMPTS} times"
                    )
            self.status.retries += len(lost)
            log.warning("executor.worker_lost", games=[t.game_id for t in lost])
            todo.extend(reversed(lost))

    def _pool(
        self, todo: list[GameTask], workers: int
    ) -> Generator[Finished, None, list[GameTask]]:
        """Play from `todo` in one pool; return the games in flight if the pool broke."""
        pool = ProcessPoolExecutor(max_workers=workers, initializer=_worker_setup)
        running: dict[Future[Any], GameTask] = {}
        broken = False
        try:
            while True:
                while todo and len(running) < 4 * workers:
                    running[pool.submit(play_many, [todo[-1]])] = todo[-1]
                    todo.pop()
                if not running:
                    return []
                done, _ = wait(running, return_when=FIRST_COMPLETED)
                for f in done:
                    (finished,) = f.result()  # BrokenProcessPool: the game stays in `running`
                    del running[f]
                    yield finished
        except BrokenProcessPool:
            broken = True
            return list(running.values())
        finally:
            if broken:
                _stop(pool)
            else:
                pool.shutdown(wait=True, cancel_futures=True)


def _worker_setup() -> None:
    """In a pool process: SIGTERM and SIGHUP end it. (The command's handlers, inherited by
    the fork, would turn them into an exception the pool reports and survives.)"""
    for name in ("SIGTERM", "SIGHUP"):
        sig = getattr(signal, name, None)
        if sig is not None:
            signal.signal(sig, signal.SIG_DFL)


def _stop(pool: ProcessPoolExecutor) -> None:
    """End what is left of a broken pool. Its own clean-up (CPython 3.11) can spin forever
    handing stop signals to workers that no longer read them; once they are gone it ends."""
    for _ in range(3):
        try:
            procs = list((getattr(pool, "_processes", None) or {}).values())
        except RuntimeError:  # changed while read by the pool's own thread: read again
            continue
        for p in procs:
            with contextlib.suppress(OSError, ValueError):
                p.kill()
        break
    pool.shutdown(wait=True, cancel_futures=True)


# ---------------------------------------------------------------------------- Ray


def require_ray(*, local: bool = False) -> Any:
    """The `ray` module, or an `ExecutorError` saying how to install it; `local`: a cluster
    of this machine alone will be started, on the loopback address."""
    return _ray(local=local)


def _ray(*, local: bool = False) -> Any:
    # Workers run this process's Python (where cattle-trade is installed) rather than a `uv
    # run` of an uploaded copy of the working directory, which Ray does by default for a
    # driver started by `uv run`; set the variable to 1 to have that instead.
    os.environ.setdefault(UV_HOOK_ENV, "0")
    if local:
        # Read by Ray when it is imported: a cluster of this machine alone listens on
        # 127.0.0.1 instead of the machine's network address.
        os.environ.setdefault(LOOPBACK_ENV, "0")
    try:
        import ray
    except ImportError:
        raise ExecutorError(RAY_INSTALL) from None
    return ray


def _reachable(address: str) -> None:
    """Refuse at once a HOST:PORT nobody answers on (Ray itself would wait for a minute)."""
    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit() or host.startswith(("ray://", "http")):
        return  # "auto", or a form Ray checks itself
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=5):
            pass
    except OSError as exc:
        raise ClusterError(
            f"no Ray cluster answers at {address} ({exc.strerror or exc}); start one with"
            " `ray start --head` or drop --ray-address to start a local one"
        ) from None


def connect_ray(address: str | None, *, cpus: int | None = None) -> bool:
    """Connect to the Ray cluster at `address` (None: start a local one); True if this call
    connected (and so should disconnect), False if this process was connected already."""
    ray = _ray(local=not address)
    if ray.is_initialized():
        return False
    env = {k: v for k, v in os.environ.items() if k.startswith(PASSED_ENV)}
    options: dict[str, Any] = {
        "include_dashboard": False,
        "log_to_driver": False,
        "logging_level": "WARNING",
        "runtime_env": {"env_vars": env} if env else None,
    }
    if address:
        _reachable(address)
        options["address"] = address
    else:
        options["num_cpus"] = cpus
    try:
        ray.init(**options)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        where = address or "a local Ray"
        raise ClusterError(f"cannot connect to {where}: {exc}") from None
    return True


def _ray_play_many(tasks: Sequence[GameTask]) -> list[Finished]:
    return play_many(tasks)


class _ModelSeats:
    """A Ray actor that plays games with model seats, many at once in one event loop."""

    async def play(self, task: GameTask) -> Finished:
        """Play one game to its end and return its rows."""
        from runner.tasks import simulate_async

        return await simulate_async(task)

    def pid(self) -> int:
        """This worker's process id."""
        return os.getpid()


class RayExecutor(Executor):
    """Games as Ray tasks and actors on a cluster (`address`), or a local Ray started here."""

    name = "ray"

    def __init__(
        self,
        address: str | None = None,
        *,
        workers: int = 1,
        concurrency: int = 16,
        cpus: int | None = None,
    ) -> None:
        self.ray = _ray(local=not address)
        self.owned = connect_ray(address, cpus=cpus)
        self.workers = max(1, workers)
        self.concurrency = max(1, concurrency)
        self.status = Status()
        self._checked = 0.0
        self._refresh(force=True)
        self._remote = self.ray.remote(max_retries=0)(_ray_play_many).options(name="play_games")
        self._actor_class: Any = None

    def _refresh(self, *, force: bool = False) -> None:
        now = time.monotonic()
        if not force and now - self._checked < 2.0:
            return
        self._checked = now
        try:
            nodes = self.ray.nodes()
        except Exception:  # a status display must not stop the tournament
            return
        self.status.workers = int(
            sum(n.get("Resources", {}).get("CPU", 0) for n in nodes if n.get("Alive"))
        )

    def _lost(self, exc: BaseException) -> bool:
        """True if `exc` says the worker died (play again), not that the game raised."""
        errors = self.ray.exceptions
        if isinstance(exc, errors.RayTaskError):
            return False
        return isinstance(exc, errors.RayError)

    def _retry(self, games: Sequence[GameTask], attempts: dict[int, int], exc: Any) -> None:
        for t in games:
            attempts[t.index] = attempts.get(t.index, 1) + 1
            if attempts[t.index] > MAX_ATTEMPTS:
                raise WorkerLost(
                    f"game {t.game_id}: its Ray worker died {MAX_ATTEMPTS} times"
                    f" ({type(exc).__name__})"
                )
        self.status.retries += len(games)
        log.warning(
            "executor.worker_lost", games=[t.game_id for t in games], error=type(exc).__name__
        )

    def _raise_task_error(self, exc: BaseException) -> None:
        cause = getattr(exc, "cause", None)
        if isinstance(cause, BaseException):
            raise cause from None
        raise exc

    def code_games(self, tasks: Sequence[GameTask]) -> Iterator[Finished]:
        ray = self.ray
        chunks = [list(tasks[i : i + RAY_CHUNK]) for i in range(0, len(tasks), RAY_CHUNK)]
        todo = list(reversed(chunks))
        attempts: dict[int, int] = {}
        running: dict[Any, list[GameTask]] = {}
        try:
            while todo or running:
                window = 2 * max(1, self.status.workers)
                while todo and len(running) < window:
                    chunk = todo.pop()
                    running[self._remote.remote(chunk)] = chunk
                ready, _ = ray.wait(list(running), num_returns=1, timeout=1.0)
                self._refresh()
                for ref in ready:
                    chunk = running.pop(ref)
                    try:
                        finished = ray.get(ref)
                    except Exception as exc:
                        if not self._lost(exc):
                            self._raise_task_error(exc)
                        self._retry(chunk, attempts, exc)
                        todo.append(chunk)
                        continue
                    yield from finished
        finally:
            for ref in running:
                ray.cancel(ref, force=True)

    def _actors(self, n: int) -> list[Any]:
        if self._actor_class is None:
            self._actor_class = self.ray.remote(_ModelSeats)
        return [
            self._actor_class.options(max_concurrency=self.concurrency, max_restarts=-1).remote()
            for _ in range(n)
        ]

    def model_games(self, tasks: Sequence[GameTask]) -> Iterator[Finished] | None:
        return self._model_games(tasks)

    def _model_games(self, tasks: Sequence[GameTask]) -> Iterator[Finished]:
        ray = self.ray
        n = min(self.workers, -(-len(tasks) // self.concurrency))
        actors = self._actors(n)
        load = dict.fromkeys(range(n), 0)
        todo = list(reversed(tasks))
        attempts: dict[int, int] = {}
        running: dict[Any, tuple[GameTask, int]] = {}
        try:
            while todo or running:
                for a in range(n):
                    while todo and load[a] < self.concurrency:
                        t = todo.pop()
                        running[actors[a].play.remote(t)] = (t, a)
                        load[a] += 1
                ready, _ = ray.wait(list(running), num_returns=1, timeout=1.0)
                self._refresh()
                for ref in ready:
                    t, a = running.pop(ref)
                    load[a] -= 1
                    try:
                        finished = ray.get(ref)
                    except Exception as exc:
                        if not self._lost(exc):
                            self._raise_task_error(exc)
                        self._retry([t], attempts, exc)
                        todo.append(t)
                        continue
                    yield finished
        finally:
            for ref in running:
                ray.cancel(ref, force=True)
            for actor in actors:
                ray.kill(actor)

    def close(self) -> None:
        if self.owned and self.ray.is_initialized():
            self.ray.shutdown()


def make_executor(
    name: str,
    *,
    workers: int = 1,
    concurrency: int | None = None,
    address: str | None = None,
) -> Executor:
    """The executor named `name` ("local" or "ray")."""
    if name == "local":
        if address is not None:
            raise ExecutorError("--ray-address goes with --executor ray")
        return LocalExecutor(workers)
    if name == "ray":
        return RayExecutor(address, workers=workers, concurrency=concurrency or 16)
    raise ExecutorError(f"--executor must be one of {', '.join(EXECUTORS)}, got {name!r}")
