"""The `cattle` command: the entry point, signal handling, logging, and the exit codes.

Every command lives in a module of its own that registers on the shared app (cli.common);
this module imports them all and runs the app, turning user errors into one clear line.
"""

from __future__ import annotations

import sys

try:
    import gc
    import os
    import signal
    from typing import TYPE_CHECKING, Annotated, Any, TextIO, cast

    import typer

    from cli.app import app, before_each_command, err, interrupt_note, load_help_formatter
    from cli.text import line
except KeyboardInterrupt:
    # Ctrl-C while the program itself loads, before any command began: nothing was done.
    sys.stderr.write("interrupted while starting; nothing was done\n")
    sys.exit(130)

if TYPE_CHECKING:
    import asyncio

# The errors a user must correct (exit 2) and those of the store or cluster (exit 1), by module
# and name: an error can only have been raised if its module was imported, so looking it up in
# sys.modules spares `cattle --help` and other light commands importing what they never use.
USER_ERRORS = (
    ("cli.common", "UsageError"),
    ("events.config", "ConfigError"),
    ("agents", "UnknownAgent"),
    ("projections.costs", "PricesError"),
    ("runner.tournament", "TournamentError"),
    ("events.catalog", "UnknownGame"),
    ("runner.verify", "SelectionError"),
    ("runner.executors", "ExecutorError"),
    ("runner.rl.policy", "PolicySpecError"),
    ("runner.rl.policy", "PolicyError"),
)
STORE_ERRORS = (("events.store", "StoreError"), ("runner.executors", "ClusterError"))
NOT_FOUND = (("events.store", "GameNotFound"),)


def loaded(names: tuple[tuple[str, str], ...]) -> tuple[type[BaseException], ...]:
    """The exception classes of `names` whose modules have been imported."""
    found = []
    for module, name in names:
        cls = getattr(sys.modules.get(module), name, None)
        if isinstance(cls, type) and issubclass(cls, BaseException):
            found.append(cls)
    return tuple(found)


def __getattr__(name: str) -> Any:
    # Names other modules and tests reach through cli.main, imported when first asked for.
    if name == "UsageError":
        from cli.common import UsageError

        return UsageError
    if name in ("_games_table", "_score_table", "_sql_table", "_state_view", "_timeline_lines"):
        from cli import commands

        return getattr(commands, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class Interrupted(KeyboardInterrupt):
    """The process received SIGTERM or SIGHUP; handled like Ctrl-C (SIGINT)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


_received: list[int] = []


_deferred: list[int] = []


def _importing(frame: Any) -> bool:
    """Whether the code that `frame` runs was called by an import in progress."""
    while frame is not None:
        if frame.f_code.co_filename.startswith("<frozen importlib._bootstrap"):
            return True
        frame = frame.f_back
    return False


def _redeliver(_signum: int, frame: Any) -> None:
    """The timer after a deferred signal: handle it now, or wait while the import lasts."""
    if not _deferred:
        return
    if _importing(frame):
        signal.setitimer(signal.ITIMER_REAL, 0.02)
        return
    signum = _deferred[0]
    _deferred.clear()
    _on_signal(signum, frame)


def _on_signal(signum: int, frame: Any) -> None:
    if not _in_command[0]:
        return  # the command is over: the process leaves with the command's own exit code
    # A native module being imported (DuckDB's) may call back into Python code, and an
    # exception raised there aborts the whole process: the signal is handled again a moment
    # after the import instead.
    if hasattr(signal, "setitimer") and _importing(frame):
        if not _deferred:
            _deferred.append(signum)
            signal.signal(signal.SIGALRM, _redeliver)
            # A command that ends before the timer does cancels it (`_leave_signals`).
            signal.setitimer(signal.ITIMER_REAL, 0.02)
        return
    # Raising here unwinds the running command exactly as Ctrl-C does: games with model seats
    # write what they played and are marked abandoned, tournaments stop after their last batch.
    # asyncio may turn the exception into a cancellation, so the signal is also noted here.
    _received.append(signum)
    asyncio = sys.modules.get("asyncio")  # no event loop runs unless asyncio was imported
    # A signal may also arrive while asyncio is being imported (the module is then listed but
    # not yet complete): no loop can be running then either.
    get_running_loop = getattr(asyncio, "get_running_loop", None)
    if get_running_loop is None:
        raise Interrupted(signum)
    try:
        loop = get_running_loop()
    except RuntimeError:
        raise Interrupted(signum) from None
    # Inside asyncio.run an exception raised here lands in whatever task step runs (asyncio
    # then prints it as never retrieved, and may leave tasks pending); its own Ctrl-C
    # handling cancels the main task instead, and the game stops at its next await.
    handler = signal.getsignal(signal.SIGINT)
    if callable(handler) and handler is not signal.default_int_handler:
        signal.raise_signal(signal.SIGINT)
        return
    if handler is signal.default_int_handler:
        raise Interrupted(signum)
    # Ctrl-C is ignored (as for a job a script started in the background), so asyncio.run
    # set no handler of its own: cancel the loop's tasks as it would have.
    loop.call_soon_threadsafe(_cancel_tasks, loop)


def _cancel_tasks(loop: asyncio.AbstractEventLoop) -> None:
    import asyncio

    for task in asyncio.all_tasks(loop):
        task.cancel()


_STOPPING = ("SIGTERM", "SIGHUP")


def install_signal_handlers() -> None:
    """Treat SIGTERM (sent by `timeout`, `kill`, container stops) and SIGHUP like SIGINT."""
    for name in _STOPPING:
        sig = getattr(signal, name, None)
        if sig is not None:
            signal.signal(sig, _on_signal)


def configure_logging(verbose: bool, log_json: bool) -> None:
    """structlog to stderr: warnings only by default, debug with -v, JSON lines with --log-json.

    Set up when a logger is first used (structlog takes a tenth of a second to import, and
    most commands log nothing); debug and info messages without -v import nothing."""
    from events.lazy import configure_later

    quiet = () if verbose else ("debug", "info")
    configure_later(lambda: _configure_structlog(verbose, log_json), quiet)


def _configure_structlog(verbose: bool, log_json: bool) -> None:
    import logging

    import structlog  # here, not at the top: `cattle --help` never needs it

    level = logging.DEBUG if verbose else logging.WARNING
    processors: list[Any] = [
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso"),
    ]
    renderer: Any = (
        structlog.processors.JSONRenderer()
        if log_json
        else structlog.dev.ConsoleRenderer(colors=False)
    )
    structlog.configure(
        processors=[*processors, renderer],
        wrapper_class=structlog.make_filtering_bound_logger(level),
        # Whatever stderr is when a line is written: a command run inside another program
        # (a test's runner, an embedding) may swap it and close the one it swapped in.
        logger_factory=structlog.PrintLoggerFactory(file=cast(TextIO, _CurrentStderr())),
        cache_logger_on_first_use=False,
    )


class _CurrentStderr:
    """A text stream that writes to `sys.stderr` as it is at each write."""

    def write(self, text: str) -> int:
        return sys.stderr.write(text)

    def flush(self) -> None:
        sys.stderr.flush()


@app.callback()
def main(
    verbose: Annotated[
        bool, typer.Option("-v", "--verbose", help="Log debug details to stderr.")
    ] = False,
    log_json: Annotated[bool, typer.Option("--log-json", help="Log as JSON lines.")] = False,
) -> None:
    """Play, store, inspect and replay Cattle Trade games."""
    # Set up when the command itself runs: `cattle CMD --help` never loads structlog.
    before_each_command(lambda: configure_logging(verbose, log_json))


def command_names() -> list[str]:
    """The names of the commands, in the order `cattle --help` lists them."""
    group = typer.main.get_command(app)
    assert isinstance(group, typer.core.TyperGroup)
    return group.list_commands(typer.Context(group))


def _fail(exc: BaseException | str, code: int) -> None:
    # One line whatever its length: the terminal wraps it, a log or a pipe keeps it whole.
    err.print(line("[red]error:[/] {}", exc), soft_wrap=True)
    sys.exit(code)


def _db_arg() -> str:
    """The --db the command was given (for messages about the file)."""
    args = sys.argv[1:]
    for i, a in enumerate(args):
        if a == "--db" and i + 1 < len(args):
            return args[i + 1]
        if a.startswith("--db="):
            return a[5:]
    from events.store import DEFAULT_DB

    return os.environ.get("CATTLE_DB") or str(DEFAULT_DB)


_in_command = [False]
"""Whether `run` is inside the command: a signal that arrives after it, while the process
leaves, ends nothing and must not turn the exit into a traceback."""


def run() -> None:
    """Entry point: run the app, turning user errors into one clear line and exit code 2."""
    _in_command[0] = True
    before = {n: signal.getsignal(getattr(signal, n)) for n in _STOPPING if hasattr(signal, n)}
    try:
        install_signal_handlers()
        try:
            _run_command()
        except KeyboardInterrupt:
            # A signal taken while the command was already leaving through a handler below.
            _stopped()
    finally:
        # First statement of the block: no signal handler can run before it.
        _in_command[0] = False
        _leave_signals(before)
        # Free what the command left in reference cycles now, while every module is still
        # there: a database connection freed only as the interpreter shuts down is
        # reported leaked.
        gc.collect()


def _leave_signals(before: dict[str, Any]) -> None:
    """The command is over: cancel a deferred signal's timer, and give SIGTERM and SIGHUP back
    their handling from before the command (in a process of its own, the default: a signal
    that arrives while the interpreter shuts down ends the process as it normally would)."""
    if hasattr(signal, "setitimer"):
        signal.setitimer(signal.ITIMER_REAL, 0)
    for name, handler in before.items():
        if handler is not None:
            signal.signal(getattr(signal, name), handler)


def _run_command() -> None:
    try:
        try:
            # Inside the handlers: a signal that arrives while it imports stops the command
            # in one line too.
            load_help_formatter()
            app()
        except SystemExit as exc:
            # typer turns an interruption into exit code 130, silently; report which signal
            # it was. A command that stopped by itself after a signal (a server shutting down
            # on it) also reports the signal.
            if _received and exc.code in (0, None, 130):
                raise KeyboardInterrupt from None
            if exc.code == 130 and _by_ctrl_c(exc):
                raise KeyboardInterrupt from None
            raise
    except SystemExit:
        raise
    except KeyboardInterrupt:
        _stopped()
    except Exception as exc:
        # DuckDB turns a signal that arrives during a query into an error of its own.
        if interrupted_query(exc):
            _stopped()
        if isinstance(exc, loaded(USER_ERRORS)):
            _fail(exc, 2)
        if isinstance(exc, loaded(NOT_FOUND)):
            from cli.text import hint

            # The id was mistyped, or copied from a README: say where the ids are.
            _fail(f"{exc}; the stored games and their ids: {hint('games', db=_db_arg())}", 1)
        if isinstance(exc, loaded(STORE_ERRORS)):
            _fail(exc, 1)
        duckdb = sys.modules.get("duckdb")
        if duckdb is not None and isinstance(exc, duckdb.Error):
            from events.store import describe_error

            # A damaged file can open fine and fail on the first page it reads.
            _fail(describe_error(_db_arg(), exc), 1)
        if isinstance(exc, RuntimeError) and _received:
            _stopped()
        raise
    except BaseException as exc:
        # The tasks cancelled after a signal while Ctrl-C was ignored (see `_on_signal`).
        asyncio = sys.modules.get("asyncio")
        if asyncio is not None and isinstance(exc, asyncio.CancelledError) and _received:
            _stopped()
        raise


def _by_ctrl_c(exc: BaseException) -> bool:
    """Whether a `SystemExit` is typer's answer to a `KeyboardInterrupt` (it exits with 130
    and says nothing)."""
    seen: BaseException | None = exc
    for _ in range(8):
        seen = (seen.__cause__ or seen.__context__) if seen is not None else None
        if isinstance(seen, KeyboardInterrupt):
            return True
    return False


def interrupted_query(exc: BaseException) -> bool:
    """Whether `exc` is DuckDB's report of a query that a signal interrupted."""
    duckdb = sys.modules.get("duckdb")
    if duckdb is not None and isinstance(exc, duckdb.InterruptException):
        return True
    return isinstance(exc, RuntimeError) and str(exc).startswith("Query interrupted")


def _stopped() -> None:
    note = interrupt_note()
    if note is not None:
        # What the command asked to be said (it begins "interrupted"); a command in it stays
        # whole, to be copied.
        err.print(note, soft_wrap=True)
    if _received:
        err.print(f"[yellow]stopped by {signal.Signals(_received[0]).name}[/]")
        sys.exit(128 + _received[0])
    if note is None:
        err.print("[yellow]interrupted[/]")
    sys.exit(130)


if __name__ == "__main__":
    # Run through the imported module, where the app holds the commands it has loaded.
    try:
        from cli.main import run as _run
    except KeyboardInterrupt:
        sys.stderr.write("interrupted while starting; nothing was done\n")
        sys.exit(130)
    _run()
