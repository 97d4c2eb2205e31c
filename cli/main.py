"""The `cattle` command: the entry point, signal handling, logging, and the exit codes.

Every command lives in a module of its own that registers on the shared app (cli.common);
this module imports them all and runs the app, turning user errors into one clear line.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys
from typing import Annotated, Any

import typer

from agents import UnknownAgent
from cli.common import (
    UsageError,
    app,
    err,
)
from cli.text import line
from events.catalog import UnknownGame
from events.domain import ConfigError
from events.store import DEFAULT_DB, StoreError, describe_error
from events.store import duckdb as _duckdb
from projections.costs import PricesError
from runner.executors import ClusterError, ExecutorError
from runner.tournament import TournamentError
from runner.verify import SelectionError


class Interrupted(KeyboardInterrupt):
    """The process received SIGTERM or SIGHUP; handled like Ctrl-C (SIGINT)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


_received: list[int] = []


def _on_signal(signum: int, _frame: object) -> None:
    # Raising here unwinds the running command exactly as Ctrl-C does: games with model seats
    # write what they played and are marked abandoned, tournaments stop after their last batch.
    # asyncio may turn the exception into a cancellation, so the signal is also noted here.
    _received.append(signum)
    try:
        loop = asyncio.get_running_loop()
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
    for task in asyncio.all_tasks(loop):
        task.cancel()


def install_signal_handlers() -> None:
    """Treat SIGTERM (sent by `timeout`, `kill`, container stops) and SIGHUP like SIGINT."""
    for name in ("SIGTERM", "SIGHUP"):
        sig = getattr(signal, name, None)
        if sig is not None:
            signal.signal(sig, _on_signal)


def configure_logging(verbose: bool, log_json: bool) -> None:
    """structlog to stderr: warnings only by default, debug with -v, JSON lines with --log-json."""
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
        logger_factory=structlog.PrintLoggerFactory(file=sys.stderr),
        cache_logger_on_first_use=False,
    )


@app.callback()
def main(
    verbose: Annotated[
        bool, typer.Option("-v", "--verbose", help="Log debug details to stderr.")
    ] = False,
    log_json: Annotated[bool, typer.Option("--log-json", help="Log as JSON lines.")] = False,
) -> None:
    """Play, store, inspect and replay Cattle Trade games."""
    configure_logging(verbose, log_json)


def _fail(exc: BaseException | str, code: int) -> None:
    err.print(line("[red]error:[/] {}", exc))
    sys.exit(code)


def _db_arg() -> str:
    """The --db the command was given (for messages about the file)."""
    args = sys.argv[1:]
    for i, a in enumerate(args):
        if a == "--db" and i + 1 < len(args):
            return args[i + 1]
        if a.startswith("--db="):
            return a[5:]
    return os.environ.get("CATTLE_DB") or str(DEFAULT_DB)


def run() -> None:
    """Entry point: run the app, turning user errors into one clear line and exit code 2."""
    install_signal_handlers()
    try:
        try:
            app()
        except SystemExit as exc:
            # typer turns an interruption into exit code 130; report which signal it was. A
            # command that stopped by itself after a signal (a server shutting down on it)
            # also reports the signal.
            if _received and exc.code in (0, None, 130):
                raise KeyboardInterrupt from None
            raise
    except (
        UsageError,
        ConfigError,
        UnknownAgent,
        PricesError,
        TournamentError,
        UnknownGame,
        SelectionError,
        ExecutorError,
    ) as exc:
        _fail(exc, 2)
    except (StoreError, ClusterError) as exc:
        _fail(exc, 1)
    except SystemExit:
        # Listed before the DuckDB errors below: looking those up would load DuckDB, which
        # `--help` and other commands that never open a store do not need.
        raise
    except _duckdb.Error as exc:
        # A damaged file can open fine and fail on the first page it reads.
        _fail(describe_error(_db_arg(), exc), 1)
    except KeyboardInterrupt:
        _stopped()
    except asyncio.CancelledError:
        # The tasks cancelled after a signal while Ctrl-C was ignored (see `_on_signal`).
        if not _received:
            raise
        _stopped()
    except RuntimeError:
        # DuckDB turns a signal that arrives during a query into "Query interrupted".
        if not _received:
            raise
        _stopped()


def _stopped() -> None:
    if _received:
        err.print(f"[yellow]stopped by {signal.Signals(_received[0]).name}[/]")
        sys.exit(128 + _received[0])
    err.print("[yellow]interrupted[/]")
    sys.exit(130)


# Each command module registers its commands on the shared app.
from cli import commands as _commands  # noqa: E402, F401
from cli import llm as _llm  # noqa: E402, F401
from cli import metrics as _metrics  # noqa: E402, F401
from cli import paper as _paper  # noqa: E402, F401
from cli import recover as _recover  # noqa: E402, F401
from cli import report as _report  # noqa: E402, F401
from cli import serve as _serve  # noqa: E402, F401
from cli import tournament as _tournament  # noqa: E402, F401
from cli import verify as _verify  # noqa: E402, F401

# Names other modules and tests reach through cli.main.
from cli.commands import (  # noqa: E402, F401
    _games_table,
    _score_table,
    _sql_table,
    _state_view,
    _timeline_lines,
)

if __name__ == "__main__":
    # Run through the imported module, where every command module registered itself.
    from cli.main import run as _run

    _run()
