"""Modules and loggers loaded on first use, so that `cattle --help` and other quick commands
start without importing what they never touch (DuckDB, structlog)."""

from __future__ import annotations

import importlib
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


class LazyLogger:
    """A structlog logger of this name, looked up when it first logs (by then the command
    line has configured structlog; a library user gets structlog's defaults as before)."""

    def __init__(self, name: str) -> None:
        self._name = name
        self._logger: Any = None

    def __getattr__(self, attr: str) -> Any:
        if self._logger is None:
            import structlog

            self._logger = structlog.get_logger(self._name)
        return getattr(self._logger, attr)


def get_logger(name: str) -> Any:
    """A logger of this name whose structlog import waits for its first message."""
    return LazyLogger(name)
