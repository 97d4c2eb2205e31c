"""A person plays GameBench's protocol (`cattle tournament --game gamebench --agents
human,...`) at the terminal of a real subprocess, answers scripted on stdin; the games verify
and the report places the person's matches as GameBench placed its co-creator's: in the fits
and tables like any agent, and counted by game and opponent."""

from __future__ import annotations

from pathlib import Path

from events.store import DuckStore
from projections.gamebench.report import analysis_json, analysis_of, person_rows
from projections.metrics.aggregate import Selection
from runner.replay import verify
from tests.human.test_human_cli import run


def test_a_person_plays_the_suite_and_the_report_places_their_matches(tmp_path: Path) -> None:
    db = tmp_path / "s.duckdb"
    args = ["tournament", "--game", "gamebench", "--only", "santorini", "--games", "1"]
    args += ["--agents", "human:ann,random", "--seed", "3", "--name", "hb", "--db", str(db)]
    got = run([*args, "--init", "--human-timeout", "60"], "1\n" * 200)
    assert got.returncode == 0, got.stderr
    assert "Report:" in got.stdout and "Seat " in got.stderr + got.stdout
    with DuckStore(db) as store:
        rows = store.list_games(tournament="hb")
        assert len(rows) == 1
        for row in rows:
            assert verify(store.load_events(row.game_id)).ok
        a = analysis_of(store.con, Selection(tournament="hb", game=None), 50)
    assert sorted(a.agents) == ["human:ann", "random"]
    assert a.counts["human:ann"] == {"gamebench:santorini": 1}
    (row,) = person_rows(a)
    person, game, opponent, n, won, lost, level, mean = row
    assert (person, game, opponent, n) == ("human:ann", "gamebench:santorini", "random", 1)
    assert won + lost + level == 1 and mean == a.scores["human:ann"]["gamebench:santorini"]
    people = analysis_json(a)["people"]
    assert list(people) == ["human:ann"] and people["human:ann"][0]["won"] == won
