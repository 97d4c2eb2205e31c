"""A real store of two-seat tournaments, played through the real command line."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.clikit import ROOT, cattle

TOY = {"CATTLE_GAMES": "games.toy_auction", "PYTHONPATH": str(ROOT / "tests")}
"""Makes the toy auction (defined only in tests/) known to the command."""

MARKUP = "anchor:[bold red]x[/]"
"""An agent spec that rich would read as markup if it were not printed as plain text."""
WILD = "wild:[bold red]<x>&[/]"
"""Markup for rich and for HTML at once."""
LONG = "wild:" + "a-very-long-agent-name-" * 3
TOY_AGENTS = ("honest", "wild", WILD, LONG)


@pytest.fixture(scope="session")
def two_seat_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Toy-auction duels (four agents, one named like markup, one very long; 4 matches per
    pairing), PACT (four agents, one of
    them named like markup, 4 per pairing), a three-seat toy tournament that NRA must leave
    out, and Cattle Trade micro-duels."""
    db = tmp_path_factory.mktemp("nra") / "two.duckdb"
    runs = [
        ("--game", "toy-auction", "--preset", "duel", "--agents", ",".join(TOY_AGENTS),
         "--games", "24", "--name", "toy"),
        ("--game", "pact", "--preset", "quick", "--agents", f"truthful,{MARKUP},mirror,random",
         "--games", "24", "--name", "pact"),
        ("--game", "toy-auction", "--agents", "honest,wild,wild:x", "--games", "3",
         "--name", "toy3"),
        ("--preset", "micro-duel", "--agents", "tracker,random", "--games", "4",
         "--name", "duel"),
    ]  # fmt: skip
    for args in runs:
        got = cattle("tournament", "--format", "round-robin", *args, "--seed", "5", "--quiet",
                     "--db", db, env=TOY)  # fmt: skip
        assert got.returncode == 0, got.stderr
    return db
