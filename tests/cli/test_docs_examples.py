"""Every command the README and the docs' quick examples show runs and exits 0.

A quick example is a fenced block whose info string is `bash example`. Each block runs in a
store of its own, its commands in order, as real `cattle` processes; `GAME_ID` stands for the
last game id an earlier command of the block printed. Commands that need a provider's key talk
to the loopback stand-in model server instead (its address is given the way a user gives
theirs, through OPENAI_BASE_URL and ANTHROPIC_BASE_URL).
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from agents.llm.loopback import LegalPolicy, LoopbackServer
from tests.cli.clikit import ENV, ROOT

FENCE = re.compile(r"^```bash example\n(.*?)^```", re.M | re.S)
SETUP = ("pip install uv", "uv run pytest")
"""Commands of the quick start that set up or test the project rather than use it."""


def blocks() -> list[tuple[str, int, str]]:
    """Every marked block of the README and docs/*.md: (file, index, text)."""
    found: list[tuple[str, int, str]] = []
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = path.read_text(encoding="utf-8")
        for i, match in enumerate(FENCE.finditer(text)):
            found.append((str(path.relative_to(ROOT)), i, match.group(1)))
    return found


def commands(block: str) -> Iterator[list[str]]:
    """The commands of a block as argument lists, comments, `export`s and set-up left out."""
    joined = re.sub(r"\\\n\s*", " ", block)
    for raw in joined.splitlines():
        words: list[str] = []
        for word in [*shlex.split(raw, comments=True), "&&"]:
            if word != "&&":
                words.append(word)
                continue
            text = " ".join(words)
            if words and words[0] != "export" and not text.startswith(SETUP):
                yield words
            words = []


@pytest.fixture(scope="module")
def loopback() -> Iterator[LoopbackServer]:
    with LoopbackServer(LegalPolicy()) as server:
        yield server


def test_the_readme_and_every_docs_page_show_examples() -> None:
    files = {f for f, _, _ in blocks()}
    assert "README.md" in files
    assert len(files) >= 8, files
    for f, _, block in blocks():
        for words in commands(block):
            assert words[:3] == ["uv", "run", "cattle"], (f, words)


@pytest.mark.parametrize(
    ("name", "index", "block"), blocks(), ids=[f"{f}#{i}" for f, i, _ in blocks()]
)
def test_example_block_runs(
    name: str, index: int, block: str, tmp_path: Path, loopback: LoopbackServer
) -> None:
    env = {
        **ENV,
        "CATTLE_DB": str(tmp_path / "examples.duckdb"),
        "OPENAI_API_KEY": "sk-loopback",
        "ANTHROPIC_API_KEY": "sk-ant-loopback",
        "OPENAI_BASE_URL": loopback.openai_url,
        "ANTHROPIC_BASE_URL": loopback.url,
        "COLUMNS": "100",
    }
    game_id = None
    ran = 0
    for words in commands(block):
        args = [a.replace("GAME_ID", game_id or "GAME_ID") for a in words[3:]]
        got = subprocess.run(
            [sys.executable, "-m", "cli.main", *args],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert got.returncode == 0, (name, index, words, got.stdout[-2000:], got.stderr[-2000:])
        ids = re.findall(r"Game id: ([0-9a-f]{16})", got.stdout)
        game_id = ids[-1] if ids else game_id
        ran += 1
    assert ran > 0 or all(line.startswith(SETUP) for line in block.splitlines() if line)
