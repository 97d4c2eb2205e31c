"""`cattle costs` on an 80-column terminal and through a pipe, in real subprocesses."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from agents.llm.loopback import LegalPolicy, LoopbackServer
from engine.cattle.presets import load_preset
from events.store import DuckStore
from runner.session import play_and_store
from tests.cli.clikit import ENV, ROOT, cattle

from .helpers import seat, set_env

HEADERS = {
    "agent": ("games", "calls", "calls/game", "input tok", "output tok", "reasoning tok",
              "tokens/game", "cost $", "$/game", "format err", "fallbacks", "transport err"),
    "seat": ("game_id", "seat", "calls", "input tok", "output tok", "reasoning tok", "cost $",
             "format err", "fallbacks", "transport err"),
}  # fmt: skip


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Two stored micro-duels with long agent names (options in the name)."""
    tmp = tmp_path_factory.mktemp("narrow")
    path = tmp / "costs.duckdb"
    with pytest.MonkeyPatch.context() as mp:
        set_env(mp, tmp)
        with LoopbackServer(LegalPolicy()) as srv, DuckStore(path) as store:
            specs = [
                seat(srv, "openai", "gpt-4o-mini", "memory=recent&character=quartet_closer"),
                seat(srv, "anthropic", "claude-haiku-4-5", "output=json_schema"),
            ]
            for s in (1, 2):
                play_and_store(store, load_preset("micro-duel"), s, specs)
    yield path


def _headers_whole(text: str, headers: tuple[str, ...]) -> None:
    for h in headers:  # a whole word: at a line's start or end, or between spaces
        assert re.search(rf"(^| ){re.escape(h)}( |$)", text, re.M), (h, text)


@pytest.mark.parametrize("by", ["agent", "seat"])
def test_costs_fit_80_columns(db: Path, by: str) -> None:
    done = cattle("costs", "--by", by, "--db", db, env={"COLUMNS": "80"})
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert "…" not in done.stdout
    _headers_whole(done.stdout, HEADERS[by])
    # every row's figures are shown: the JSON's call counts are all in the text
    rows = json.loads(cattle("costs", "--by", by, "--db", db, "--json").stdout)
    for r in rows:
        assert re.search(rf"(^| ){r['calls']:,}( |$)", done.stdout, re.M)


def test_costs_piped_print_one_table_at_full_width(db: Path) -> None:
    env = {k: v for k, v in ENV.items() if k != "COLUMNS"}
    done = subprocess.run(
        [sys.executable, "-m", "cli.main", "costs", "--db", str(db)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    header = next(line for line in done.stdout.splitlines() if line.startswith("agent "))
    for h in HEADERS["agent"]:
        assert f" {h} " in header
    assert done.stdout.count("Model usage by agent") == 1
    assert "openai:gpt-4o-mini?character=quartet_closer&memory=recent" in done.stdout
