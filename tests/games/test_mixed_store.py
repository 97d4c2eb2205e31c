"""Every read command on a store holding games of both built-in games, at 80 columns.

With and without `--game`, each command answers without a traceback, prints stored text
(agent names with markup) as plain text, and fits an 80-column terminal; a selection that holds
no games of the game asked for (Cattle Trade unless `--game`) says which games it does hold.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.cli.clikit import cattle, cells, column, table_lines, tables

NARROW = {"COLUMNS": "80"}
MARKUP = "anchor:[bold red]x[/]"


def ok(got: subprocess.CompletedProcess[str], *, width: int = 80) -> str:
    assert got.returncode == 0, (got.args, got.stdout[-2000:], got.stderr[-2000:])
    assert "Traceback" not in got.stderr and "\x1b" not in got.stdout
    widest = max((len(line) for line in got.stdout.splitlines()), default=0)
    assert widest <= width, (got.args, widest)
    return got.stdout


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A PACT tournament (one agent's name holds markup) and a Cattle Trade tournament."""
    db = tmp_path_factory.mktemp("mixed") / "g.duckdb"
    for args in (
        ("--game", "pact", "--preset", "quick", "--agents", f"{MARKUP},mirror,truthful",
         "--games", "6", "--name", "haggle"),
        ("--preset", "micro-duel", "--format", "round-robin", "--agents", "tracker,random",
         "--games", "4", "--name", "herd"),
    ):  # fmt: skip
        got = cattle("tournament", *args, "--seed", "3", "--quiet", "--db", db)
        assert got.returncode == 0, got.stderr
    return db


def ids(db: Path, tournament: str) -> list[str]:
    listed = cattle("games", "--tournament", tournament, "--json", "--db", db)
    return [g["game_id"] for g in json.loads(listed.stdout)]


def test_listing_and_reading_games_of_both(mixed: Path) -> None:
    db = mixed
    table = ok(cattle("games", "--db", db, env=NARROW))
    assert "haggle" in table and "herd" in table and "…" not in table
    # Names too long for their column wrap rather than lose their end.
    header, body = table_lines(table)
    # the column "game" (the header's second "game"; the first begins "game id")
    at, end = header.index("game", len("game id")), header.index("preset")
    games = "".join("".join(r[at:end] for r in body).split())
    agents = "".join("".join(column(r, header, "agents", "scores") for r in body).split())
    assert "cattle-trade" in games and "".join(MARKUP.split()) in agents
    assert MARKUP in ok(cattle("games", "--db", db), width=300)
    pact = ok(cattle("games", "--game", "pact", "--json", "--db", db), width=100_000)
    assert {g["game"] for g in json.loads(pact)} == {"pact"}
    gid = ids(db, "haggle")[0]
    assert MARKUP in ok(cattle("show", gid, "--db", db, env=NARROW))
    ok(cattle("show", gid, "--seat", "1", "--db", db, env=NARROW))
    ok(cattle("replay", gid, "--seat", "0", "--to", "8", "--db", db, env=NARROW))
    ok(cattle("replay", gid, "--to", "3", "--db", db, env=NARROW))
    herd = ids(db, "herd")[0]
    ok(cattle("replay", herd, "--seat", "1", "--to", "20", "--db", db, env=NARROW))
    ok(cattle("verify", "--all", "--db", db, env=NARROW))
    ok(cattle("sql", "SELECT game, count(*) AS n FROM games GROUP BY 1", "--db", db,
              env=NARROW))  # fmt: skip
    ok(cattle("recover", "--dry-run", "--db", db, env=NARROW))
    ok(cattle("costs", "--db", db, env=NARROW))


def test_analysis_of_each_game(mixed: Path, tmp_path: Path) -> None:
    db = mixed
    rated = ok(cattle("ratings", "--game", "pact", "--db", db, env=NARROW))
    assert "Ratings over 6 games" in rated
    ok(cattle("ratings", "--tournament", "herd", "--db", db, env=NARROW))
    metrics = ok(cattle("metrics", "--game", "pact", "--db", db, env=NARROW))
    assert MARKUP[:10] in metrics
    for game in ("pact", "cattle-trade"):
        out = tmp_path / f"{game}.html"
        ok(cattle("report", "--game", game, "--out", out, "--db", db, env=NARROW))
        assert out.stat().st_size > 0
    ok(cattle("export", "--format", "jsonl", "--out", tmp_path / "x", "--db", db), width=200)


@pytest.mark.parametrize(
    ("args", "asked", "held"),
    [
        (("metrics", "--tournament", "haggle"), "cattle-trade", "pact"),
        (("metrics", "--game", "pact", "--tournament", "herd"), "pact", "cattle-trade"),
        (("ratings", "--game", "cattle-trade", "--tournament", "haggle"), "cattle-trade", "pact"),
        (("ratings", "--game", "pact", "--tournament", "herd"), "pact", "cattle-trade"),
    ],
)
def test_a_selection_without_the_game_asked_for_says_what_it_holds(
    mixed: Path, args: tuple[str, ...], asked: str, held: str
) -> None:
    got = ok(cattle(*args, "--db", mixed, env=NARROW))
    text = " ".join(got.split())
    assert f"No finished {asked} games" in text, text
    assert f"it holds {held} games (add --game {held})" in text, text


@pytest.mark.parametrize(
    ("args", "asked", "held"),
    [
        (("--tournament", "haggle"), "cattle-trade", "pact"),
        (("--game", "pact", "--tournament", "herd"), "pact", "cattle-trade"),
    ],
)
def test_a_report_without_the_game_asked_for_says_what_it_holds(
    mixed: Path, tmp_path: Path, args: tuple[str, ...], asked: str, held: str
) -> None:
    got = cattle("report", *args, "--out", tmp_path / "r.html", "--db", mixed, env=NARROW)
    assert got.returncode == 2 and "Traceback" not in got.stderr
    text = " ".join(got.stderr.split())
    assert f"no finished {asked} games in this selection; it holds {held} games" in text


def test_costs_game_takes_an_id_and_says_so_when_given_a_games_name(mixed: Path) -> None:
    got = cattle("costs", "--game", "pact", "--db", mixed)
    assert got.returncode == 2 and "Traceback" not in got.stderr
    assert "costs --game takes a stored game's id; 'pact' is the name of a game" in " ".join(
        got.stderr.split()
    )
    gid = ids(mixed, "haggle")[0]
    ok(cattle("costs", "--game", gid, "--db", mixed, env=NARROW))


def test_ratings_too_wide_for_the_terminal_split_rather_than_cut(tmp_path: Path) -> None:
    db = tmp_path / "wide.duckdb"
    config = tmp_path / "wide.json"
    config.write_text(json.dumps({"name": "wide", "rounds": 5, "value_low": -500000,
                                  "value_high": 500000, "quote_low": -500000,
                                  "quote_high": 500000}))  # fmt: skip
    agents = [MARKUP, "random:a-very-very-very-very-long-long-long-label", "truthful"]
    made = cattle("tournament", "--game", "pact", "--preset-file", config, "--agents",
                  ",".join(agents), "--games", "6", "--seed", "2", "--quiet", "--db", db)  # fmt: skip
    assert made.returncode == 0, made.stderr
    text = ok(cattle("ratings", "--db", db, env=NARROW))
    assert "…" not in text
    # Each agent name is whole once its table cells (folded onto several lines) are joined.
    names = "".join(cells(ln)[0] for _, body in tables(text, "Ratings over") for ln in body)
    names = "".join(names.split())  # (a name may wrap at a space)
    for agent in agents:
        assert names.count("".join(agent.split())) == 2, (agent, text)
    rated = json.loads(cattle("ratings", "--json", "--db", db).stdout)
    for r in rated:
        assert f"{r['median_score']:,.0f}" in text and f"{r['mu']:.2f}" in text
    # A wide terminal still gets one table.
    assert ok(cattle("ratings", "--db", db), width=300).count("Ratings over") == 1
