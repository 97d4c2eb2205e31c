"""Fixtures for model-seat tests."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from agents.llm.loopback import Incoming, LegalPolicy, LoopbackServer
from engine.cattle.presets import load_preset
from events.store import DuckStore
from runner.session import play_and_store

from .helpers import seat, set_env

GOLDEN_STANDARD_SEED = 29
GOLDEN_DUEL_SEED = 1


@pytest.fixture(autouse=True)
def llm_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Fake keys, no config file, millisecond backoff for every test here."""
    set_env(monkeypatch, tmp_path)


@pytest.fixture
def server() -> Iterator[LoopbackServer]:
    """A loopback server that plays legal moves."""
    with LoopbackServer(LegalPolicy()) as s:
        yield s


@dataclass
class Golden:
    """The golden games: a micro-duel and a standard game, stored, and every request."""

    db: Path
    duel: str
    standard: str
    records: dict[str, Any] = field(default_factory=dict)
    requests: list[Incoming] = field(default_factory=list)


@pytest.fixture(scope="module")
def golden(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Golden]:
    """Plays the golden games once per module through a loopback server, then stops it."""
    tmp = tmp_path_factory.mktemp("golden")
    with pytest.MonkeyPatch.context() as mp:
        set_env(mp, tmp)
        db = tmp / "golden.duckdb"
        with LoopbackServer(LegalPolicy()) as srv, DuckStore(db) as store:
            duel_id, duel = play_and_store(
                store,
                load_preset("micro-duel"),
                GOLDEN_DUEL_SEED,
                [seat(srv, "openai"), seat(srv, "anthropic")],
            )
            std_id, std = play_and_store(
                store,
                load_preset("standard"),
                GOLDEN_STANDARD_SEED,
                [seat(srv, p, f"m{i}") for i, p in enumerate(["openai", "anthropic"] * 2)],
            )
            requests = list(srv.requests)
        yield Golden(
            db=db,
            duel=duel_id,
            standard=std_id,
            records={duel_id: duel, std_id: std},
            requests=requests,
        )
