"""Logging writes to the stderr of the moment: a command run in-process (under typer's test
runner, or any program that swaps stderr for a stream it closes afterwards) must not leave every
later log line of the process writing to a closed file."""

import io
import sys

import pytest
import structlog

from cli.main import _configure_structlog


def test_a_log_line_after_stderr_was_swapped_and_closed_reaches_the_current_stderr(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    swapped = io.StringIO()
    request_reset = structlog.reset_defaults
    try:
        _run(swapped, capsys, monkeypatch)
    finally:
        request_reset()


def _run(
    swapped: io.StringIO, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    with monkeypatch.context() as m:
        m.setattr(sys, "stderr", swapped)
        _configure_structlog(verbose=False, log_json=False)  # as a command run in-process does
        structlog.get_logger("test").warning("during.the.command")
    swapped.close()
    structlog.get_logger("test").warning("after.the.command", n=1)
    assert "after.the.command" in capsys.readouterr().err
