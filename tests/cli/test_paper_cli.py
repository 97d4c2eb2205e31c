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


def test_seeds_report_each_seed_and_the_pool(tmp_path: Path) -> None:
    db = tmp_path / "seeds.duckdb"
    r = cattle("paper", "--games", "7", "--seeds", "3,1-2", "--db", db, "--json", "--workers", "1")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["seeds"] == [3, 1, 2]
    assert set(doc["per_seed"]) == {"1", "2", "3"}
    assert all(d["games"] == 7 and d["seed"] == int(s) for s, d in doc["per_seed"].items())
    pooled = doc["pooled"]
    assert pooled["games"] == 21 and pooled["table_games"] == 3 and pooled["seed"] is None
    # The pooled rates are those of the pooled counts, so they lie within the seeds' range.
    for agent, row in pooled["table3"].items():
        per = [d["table3"][agent]["tc_accept_rate"]["ours"] for d in doc["per_seed"].values()]
        got = row["tc_accept_rate"]["ours"]
        known = [x for x in per if x is not None]
        if got is not None and known:
            assert min(known) - 1e-9 <= got <= max(known) + 1e-9
    text = cattle(
        "paper", "--games", "7", "--seeds", "1-3", "--db", db, "-q", env={"COLUMNS": "80"}
    )
    assert text.returncode == 0, text.stderr
    assert max(len(x) for x in text.stdout.splitlines()) <= 80
    assert "Table 3 by seed" in text.stdout and "Pooled: aims met" in text.stdout


def test_tables_fit_80_columns() -> None:
    r = cattle("paper", "--games", "7", "--seed", "1", "-q", env={"COLUMNS": "80"})
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert max(len(x) for x in lines) <= 80
    text = r.stdout
    assert not set("│┃┏━╭") & set(text)  # the shared frameless style
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
        (["--seeds", "5-2"], "not a range of seeds from low to high"),
        (["--seeds", "one"], "is not a seed or a range"),
        (["--seeds", " , "], "needs at least one seed"),
        (["--seeds", "1-999"], "at most 50 seeds"),
    ],
)
def test_bad_input_is_one_line(args: list[str], message: str) -> None:
    r = cattle("paper", *args)
    assert r.returncode == 2
    assert message in r.stderr
    assert "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
