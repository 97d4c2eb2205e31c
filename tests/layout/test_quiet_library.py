"""Used from Python, the harness prints nothing of its own: docs/architecture.md's example, run
as written (in a real process), prints only what the example prints, and its log messages
appear once the program sets up logging."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def example(db: Path) -> str:
    """The Python example of docs/architecture.md, writing to `db`."""
    doc = (ROOT / "docs" / "architecture.md").read_text()
    section = doc[doc.index("## Using the runner from Python") :]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    assert code is not None
    assert '"data/cattle.duckdb"' in code.group(1)
    return code.group(1).replace('"data/cattle.duckdb"', repr(str(db)))


def run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300
    )


def test_the_example_prints_only_its_own_output(tmp_path: Path) -> None:
    done = run(example(tmp_path / "lib.duckdb"))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["(0.0, 0.0)"]
    assert done.stderr == ""


def test_a_program_that_sets_up_logging_sees_the_messages(tmp_path: Path) -> None:
    setup = "import logging, sys\nlogging.basicConfig(level=logging.DEBUG, stream=sys.stderr)\n"
    done = run(setup + example(tmp_path / "lib.duckdb"))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["(0.0, 0.0)"]
    assert "DEBUG:cattle.session:event='game.start'" in done.stderr
    assert "event='game.end'" in done.stderr


def test_a_program_that_configures_structlog_gets_it(tmp_path: Path) -> None:
    setup = (
        "import structlog\n"
        "structlog.configure(processors=[structlog.processors.KeyValueRenderer()])\n"
    )
    done = run(setup + example(tmp_path / "lib.duckdb"))
    assert done.returncode == 0, done.stderr
    assert "event='game.start'" in done.stdout  # structlog's own logger prints to stdout
