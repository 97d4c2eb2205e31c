"""Modules and loggers loaded on first use, so that `cattle --help` and other quick commands
start without importing what they never touch (DuckDB, structlog)."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterable
from types import ModuleType
from typing import Any


class LazyModule:
    """Stands for a module and imports it when one of its attributes is first read."""

    def __init__(self, name: str) -> None:
        self._name = name
        self._module: ModuleType | None = None

    def __getattr__(self, attr: str) -> Any:
        module = self._module
        if module is None:
            module = self._module = importlib.import_module(self._name)
        return getattr(module, attr)


_pending: list[tuple[Callable[[], None], frozenset[str]]] = []


def configure_later(setup: Callable[[], None], quiet: Iterable[str] = ()) -> None:
    """Configure structlog with `setup` when a logger is first used, not now: a command that
    logs nothing never imports structlog. Until then the logger methods named in `quiet` (the
    levels `setup` filters out) do nothing, without importing it either. Where structlog is
    already imported, `setup` runs at once."""
    if "structlog" in sys.modules:
        _pending.clear()
        setup()
    else:
        _pending[:] = [(setup, frozenset(quiet))]


def _nothing(*args: Any, **kwargs: Any) -> None:
    return None


class LazyLogger:
    """A structlog logger of this name, looked up when it logs.

    The command line configures structlog (warnings to stderr, debug with -v), and then this
    is structlog's logger. A program using the harness as a library that has not configured
    structlog gets a quiet one instead: messages go to the standard `logging` logger of this
    name, so nothing is printed below a warning unless the program sets up logging itself
    (`logging.basicConfig(level=logging.DEBUG)` shows everything).
    """

    def __init__(self, name: str) -> None:
        self._name = name
        self._logger: Any = None
        self._configured: bool | None = None

    def __getattr__(self, attr: str) -> Any:
        if _pending:
            if attr in _pending[0][1]:
                return _nothing
            setup, _ = _pending.pop()
            setup()
        import structlog

        configured = structlog.is_configured()
        if self._logger is None or configured != self._configured:
            self._configured = configured
            self._logger = (
                structlog.get_logger(self._name) if configured else _library_logger(self._name)
            )
        return getattr(self._logger, attr)


def _library_logger(name: str) -> Any:
    """A structlog logger that hands its messages, as key=value text, to `logging`."""
    import logging

    import structlog

    return structlog.wrap_logger(
        logging.getLogger(name),
        processors=[
            structlog.stdlib.filter_by_level,
            structlog.processors.KeyValueRenderer(key_order=["event"], sort_keys=True),
        ],
        wrapper_class=structlog.stdlib.BoundLogger,
    )


def get_logger(name: str) -> Any:
    """A logger of this name whose structlog import waits for its first message."""
    return LazyLogger(name)
