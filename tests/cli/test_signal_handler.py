"""The command line's signal handler, called as the interpreter would call it."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
import types
from collections.abc import Iterator
from pathlib import Path

import pytest

from cli import main


@pytest.fixture(autouse=True)
def _inside_a_command() -> Iterator[None]:
    # The handler stops a command only while `run` is inside one.
    main._in_command[0] = True
    yield
    main._in_command[0] = False


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


def test_a_signal_during_an_import_stops_the_command_after_the_import(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A native module being imported (DuckDB's, through nanobind) may call back into Python;
    # an exception raised there aborted the process. The handler, called from code that an
    # import runs, lets the import finish and stops the command just after it.
    (tmp_path / "slow_import_probe.py").write_text(
        "import sys\nfrom cli import main\nmain._on_signal(15, sys._getframe())\nFINISHED = True\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    before = signal.getsignal(signal.SIGALRM)
    try:
        import slow_import_probe  # type: ignore[import-not-found]

        assert slow_import_probe.FINISHED
        with pytest.raises(main.Interrupted) as stopped:
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline:
                time.sleep(0.01)
        assert stopped.value.signum == signal.SIGTERM
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)
        main._deferred.clear()
        sys.modules.pop("slow_import_probe", None)


def test_a_signal_after_the_command_leaves_the_exit_alone() -> None:
    main._in_command[0] = False
    assert main._on_signal(signal.SIGTERM, None) is None


def test_a_sigterm_while_the_process_leaves_ends_it_without_a_traceback(tmp_path: Path) -> None:
    # A SIGTERM that came after the command had finished, while the interpreter was leaving,
    # was raised in the module runner's frame: a traceback and exit code 1. It now ends the
    # process as SIGTERM ends any process (no handler of the command is left by then).
    script = (
        "import os, signal\n"
        "from cli.main import run\n"
        "try:\n"
        "    run()\n"
        "finally:\n"
        "    os.kill(os.getpid(), signal.SIGTERM)\n"
        "    for _ in range(100000):\n"
        "        pass\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", script, "agents"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode == -signal.SIGTERM, (proc.returncode, proc.stderr)
    assert "random" in proc.stdout  # the command itself ran to its end
