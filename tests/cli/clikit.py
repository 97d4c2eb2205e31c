"""Run the `cattle` command in real subprocesses."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENV = {k: v for k, v in os.environ.items() if k != "CATTLE_DB"}
ENV.update({"COLUMNS": "300", "NO_COLOR": "1", "TERM": "dumb"})


def cattle(
    *args: str | Path, timeout: float = 180, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run `python -m cli.main ARGS` from the project root (`env` adds variables)."""
    return subprocess.run(
        [sys.executable, "-m", "cli.main", *map(str, args)],
        cwd=ROOT,
        env={**ENV, **(env or {})},
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def cattle_many(
    runs: Sequence[Sequence[str | Path]], env: dict[str, str] | None = None
) -> list[subprocess.CompletedProcess[str]]:
    """Run several independent commands concurrently; results in the same order."""
    with ThreadPoolExecutor(max_workers=4) as pool:
        return list(pool.map(lambda a: cattle(*a, env=env), runs))


HOLD = (
    "import duckdb, sys, time\n"
    "con = duckdb.connect(sys.argv[1])\n"
    "print('ready', flush=True)\n"
    "time.sleep(120)\n"
)


@contextmanager
def held_open(path: Path) -> Iterator[None]:
    """Another process keeps `path` open for writing until the block ends."""
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(path)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "ready"
        yield
    finally:
        proc.kill()
        proc.wait()


COMMANDS = (
    "demo|play|games|show|replay|verify|sql|agents|tournament|ratings|metrics|report|export"
    "|costs|reparse|rerun|recover|resume|serve|publish|loopback|arena|paper"
)
_HINT = re.compile(rf"((?:uv run )?cattle (?:{COMMANDS})\b.*?)(?= or (?:uv run )?cattle |$)", re.M)


def hints(text: str) -> list[str]:
    """Every command line a command's output suggests (`Next: cattle show ID`, ...)."""
    return [m.group(1).strip() for m in _HINT.finditer(text)]


def run_hint(
    hint: str, cwd: Path, env: dict[str, str] | None = None, timeout: float = 180
) -> subprocess.CompletedProcess[str]:
    """Run a printed hint as a shell would, with this interpreter standing in for the
    `cattle` (or `uv run cattle`) it starts with."""
    words = shlex.split(hint)
    words = words[2:] if words[:2] == ["uv", "run"] else words
    assert words[0] == "cattle", hint
    return subprocess.run(
        [sys.executable, "-m", "cli.main", *words[1:]],
        cwd=cwd,
        env={**ENV, **(env or {})},
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def table_lines(text: str) -> tuple[str, list[str]]:
    """A printed table's header line and its body lines (up to the first blank line): the
    shared style has no frame, only a rule under the header."""
    lines = text.splitlines()
    rule = next(i for i, ln in enumerate(lines) if ln.strip() and set(ln.strip()) == {"─"})
    body = []
    for ln in lines[rule + 1 :]:
        if not ln.strip():
            break
        body.append(ln)
    return lines[rule - 1], body


def column(line: str, header: str, name: str, following: str | None) -> str:
    """The text of a line under the left-aligned column `name` of `header` (up to where the
    column `following` starts, or the end)."""
    start = header.index(name)
    end = header.index(following, start + len(name)) if following else len(line)
    return line[start:end]


def cells(line: str) -> list[str]:
    """A frameless table line split into its cells at runs of two or more spaces; a line that
    starts blank (a row's continuation, its first cells empty) starts with ''."""
    return re.split(r" {2,}", line.rstrip())


def tables(text: str, title: str) -> list[tuple[str, list[str]]]:
    """The header and body lines of every table whose title starts with `title`."""
    return [table_lines(title + part) for part in text.split(title)[1:]]
