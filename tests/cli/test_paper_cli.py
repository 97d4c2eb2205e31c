"""`cattle paper` through the real command line: tables, JSON, a kept store, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clikit import cattle

from runner.cattle.paper import PAPER_MU, PAPER_TABLE3, TABLE3_COLUMNS


def test_json_sets_ours_beside_the_paper(tmp_path: Path) -> None:
    db = tmp_path / "paper.duckdb"
    r = cattle("paper", "--games", "14", "--seed", "5", "--db", db, "--json", "--workers", "1")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["games"] == 14 and doc["table_games"] == 2 and doc["stand_ins"] == ["random"]
    for agent, row in doc["table3"].items():
        for m in TABLE3_COLUMNS:
            cell = row[m]
            assert cell["paper"] == PAPER_TABLE3[agent][m]
            if cell["ours"] is not None:
                assert cell["diff"] == pytest.approx(cell["ours"] - cell["paper"])
    rated = {r["agent"]: r for r in doc["trueskill"]}
    assert set(rated) == {"tracker", "setrace", "economy", "random"}
    assert rated["tracker"]["paper_mu"] == PAPER_MU["tracker"]
    assert rated["random"]["paper_mu"] is None
    assert {"trueskill.order", "tracker.ramp", "economy.overbid_rate"} <= set(doc["aims"])
    # The kept store holds the games: a second run plays nothing and prints the same figures.
    again = cattle("paper", "--games", "14", "--seed", "5", "--db", db, "--json")
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout) == doc
    # They are ordinary games: `cattle metrics` reads them.
    m = cattle("metrics", "--db", db, "--json", "--resamples", "10")
    assert m.returncode == 0, m.stderr
    assert {d["agent"] for d in json.loads(m.stdout)} == set(rated)


def test_tables_fit_80_columns() -> None:
    r = cattle("paper", "--games", "7", "--seed", "1", "-q", env={"COLUMNS": "80"})
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert max(len(x) for x in lines) <= 80
    text = r.stdout
    for needle in ("Table 3", "TrueSkill", "Tracker", "SetRace", "Economy", "paper", "Aims met"):
        assert needle in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--games", "3"], "--games must be between 7"),
        (["--slice", "c9"], "--slice must be one of c1, all"),
        (["--stand-in", "nobody"], "unknown agent"),
        (["--stand-in", "random,random"], "only once"),
        (["--stand-in", "openai:gpt-4o-mini"], "only code agents"),
        (["--stand-in", " , "], "at least one agent"),
        (["--stand-in", "tracker"], "is measured; use another"),
        (["--workers", "0"], "--workers must be between 1"),
    ],
)
def test_bad_input_is_one_line(args: list[str], message: str) -> None:
    r = cattle("paper", *args)
    assert r.returncode == 2
    assert message in r.stderr
    assert "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
