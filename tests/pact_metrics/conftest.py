"""Fixtures: a synthetic PACT store in a real DuckDB file, and its analysis."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest

sys.path.insert(0, str(Path(__file__).parent))

import pact_synth as S

from projections.pact import metrics as P


def store_games() -> list[S.Game]:
    """Four styles in a round robin of 6 deals, one self-play game, two games that must be
    left out (one unfinished, one with no rounds stored) and one of another tournament."""
    styles = S.STYLES[:4]
    games = S.round_robin(styles, deals=6, seed=3)
    games.append(S.play("g-self", 777, styles[1], styles[1]))
    running = S.play("g-running", 778, styles[0], styles[2])
    running.status = "running"
    games.append(running)
    other = S.play("h-other", 779, styles[2], styles[3])
    other.tournament = "other"
    games.append(other)
    return games


@pytest.fixture(scope="module")
def games() -> list[S.Game]:
    """The games of the synthetic store."""
    return store_games()


@pytest.fixture(scope="module")
def db_path(tmp_path_factory: pytest.TempPathFactory, games: list[S.Game]) -> Path:
    """The synthetic store's file."""
    return S.write(tmp_path_factory.mktemp("pact") / "pact.duckdb", games)


@pytest.fixture
def con(db_path: Path) -> Iterator[duckdb.DuckDBPyConnection]:
    """A read-only connection to the synthetic store."""
    c = duckdb.connect(str(db_path), read_only=True)
    yield c
    c.close()


@pytest.fixture(scope="module")
def analysis(db_path: Path) -> P.PactAnalysis:
    """The analysis of every finished game of the store (400 resamples, seed 11)."""
    c = duckdb.connect(str(db_path), read_only=True)
    try:
        return P.analyse(P.load(c), resamples=400, seed=11)
    finally:
        c.close()
