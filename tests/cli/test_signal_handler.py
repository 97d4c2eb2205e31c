"""The command line's signal handler, called as the interpreter would call it."""

from __future__ import annotations

import signal
import sys
import types

import pytest

from cli import main


def test_a_signal_during_the_import_of_asyncio_stops_the_command(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # While asyncio is being imported its module is listed but still empty; the handler once
    # failed there with an AttributeError instead of stopping the command.
    monkeypatch.setitem(sys.modules, "asyncio", types.ModuleType("asyncio"))
    with pytest.raises(main.Interrupted) as stopped:
        main._on_signal(signal.SIGTERM, None)
    assert stopped.value.signum == signal.SIGTERM


def test_a_signal_with_no_event_loop_running_stops_the_command() -> None:
    with pytest.raises(main.Interrupted) as stopped:
        main._on_signal(signal.SIGTERM, None)
    assert stopped.value.signum == signal.SIGTERM
