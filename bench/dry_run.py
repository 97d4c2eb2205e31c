"""The dry run's estimate beside the use of the game it estimated, one game of each family,
against the loopback stand-in model (prints the table of docs/llm.md, Dry run).

Per game: the estimate with nothing stored (the decision bound), then one game of seed 1 is
played and stored, the estimate of the game of seed 2 is taken from it, and the game of seed 2
is played; the table gives both estimates beside what seed 2 used (calls and tokens, both
seats together).

    uv run python bench/dry_run.py
"""

from __future__ import annotations

import logging
import os
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import structlog

structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))

from agents.llm.loopback import LegalPolicy, LoopbackServer  # noqa: E402
from events import catalog  # noqa: E402
from events.store import DuckStore  # noqa: E402
from runner.estimate import estimate_games  # noqa: E402
from runner.session import play_and_store  # noqa: E402


@dataclass(frozen=True)
class Case:
    """One game of a family: how to name it, and who sits where (`M` is a model seat)."""

    family: str
    game: str
    preset: str | None
    seats: tuple[str, ...]


CASES = (
    Case("Cattle Trade", "cattle-trade", "micro-duel", ("M", "M")),
    Case("PACT", "pact", "quick", ("M", "M")),
    Case("OpenSpiel", "openspiel:tic_tac_toe", None, ("M", "M")),
    Case("TextArena", "textarena", "blotto", ("M", "M")),
    Case("GameBench", "gamebench:santorini", None, ("M", "random")),
)
"""One fast game of each family (Santorini for GameBench: a game of open Pit, its default,
may end on its first corner or run to its turn limit, so one game says little of the next)."""


def config_of(case: Case) -> Any:
    """The configuration a case plays."""
    game, carried = catalog.resolve(case.game)
    if carried is not None:
        return carried
    return game.preset(case.preset or game.default_preset)


def specs_of(case: Case, server: LoopbackServer) -> list[str]:
    """The seat specs of a case, its model seats on the loopback server."""
    return [
        f"openai:loop-{i}@{server.openai_url}" if s == "M" else s for i, s in enumerate(case.seats)
    ]


def used(store: DuckStore, game_id: str) -> tuple[int, int]:
    """Model calls and tokens (in and out) one stored game used."""
    calls, tokens = store.con.execute(
        "SELECT count(*), coalesce(sum(input_tokens + output_tokens), 0) FROM llm_calls"
        " WHERE game_id = ?",
        [game_id],
    ).fetchall()[0]
    return int(calls), int(tokens)


@dataclass(frozen=True)
class Row:
    """A case's estimates beside its use."""

    case: Case
    bound: dict[str, Any]
    stored: dict[str, Any]
    calls: int
    tokens: int


def measure(case: Case, server: LoopbackServer, db: Path, seeds: Sequence[int] = (1, 2)) -> Row:
    """Estimate with nothing stored, play `seeds[0]`, estimate `seeds[1]` from it, play it."""
    config = config_of(case)
    specs = specs_of(case, server)
    with DuckStore(db) as store:
        bound = estimate_games(store.con, config, [tuple(specs)], {})
        play_and_store(store, config, seeds[0], specs)
        stored = estimate_games(store.con, config, [tuple(specs)], {})
        game_id, _ = play_and_store(store, config, seeds[1], specs)
        calls, tokens = used(store, game_id)
    return Row(case, bound, stored, calls, tokens)


def ratio(estimated: float, real: int) -> str:
    """How far an estimate is from the real figure, as a factor."""
    return f"{estimated / real:.2f}" if real else "-"


def table(rows: Sequence[Row]) -> str:
    """The Markdown table of docs/llm.md."""
    lines = [
        "| family | game | calls: bound / stored / real | tokens: bound / stored / real |"
        " stored / real |",
        "|---|---|---|---|---|",
    ]
    for r in rows:
        name = r.case.game + (f" ({r.case.preset})" if r.case.preset else "")
        lines.append(
            f"| {r.case.family} | {name}"
            f" | {r.bound['calls']:,.0f} / {r.stored['calls']:,.0f} / {r.calls:,}"
            f" | {r.bound['tokens']:,.0f} / {r.stored['tokens']:,.0f} / {r.tokens:,}"
            f" | {ratio(r.stored['calls'], r.calls)} x, {ratio(r.stored['tokens'], r.tokens)} x |"
        )
    return "\n".join(lines)


def main() -> None:
    """Measure every case in a fresh store and print the table."""
    os.environ.setdefault("OPENAI_API_KEY", "bench")
    rows = []
    with tempfile.TemporaryDirectory() as tmp, LoopbackServer(LegalPolicy()) as server:
        for i, case in enumerate(CASES):
            rows.append(measure(case, server, Path(tmp) / f"{i}.duckdb"))
            print(f"measured {case.game}", file=sys.stderr)
    print(table(rows))


if __name__ == "__main__":
    main()
