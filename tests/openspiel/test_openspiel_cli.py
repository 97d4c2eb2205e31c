"""OpenSpiel games through the real command line: names, agents, bad input, show, replay."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.cli.clikit import cattle

BAD = [
    (["--game", "openspiel:nonsense"], "OpenSpiel has no game 'nonsense'"),
    (["--game", "openspiel:tic_tac_toe(rows=3"], "Missing closing bracket"),
    (["--game", "openspiel:tic_tac_toe(foo=3)"], "Unknown parameter 'foo'"),
    (["--game", "gtbench:chess"], "unknown GTBench game 'chess'"),
    (["--game", "gtbench:nim", "--preset", "pig"], "names its configuration"),
    (["--game", "gtbench:nim", "--agents", "mcts?simulations=0,random"], "simulations must"),
    (["--game", "gtbench:nim", "--agents", "mcts?depth=3,random"], "no option 'depth'"),
    (
        ["--game", "gtbench:nim", "--agents", "mcts?simulations=5&simulations=6,random"],
        "'simulations' is given twice",
    ),
    (["--game", "openspiel:kuhn_poker(players=2))))"], "text after its closing bracket"),
    (["--game", "openspiel:kuhn_poker(players=2)x"], "text after its closing bracket"),
    (["--game", "openspiel:kuhn_poker)"], "closes a bracket it never opened"),
    (["--game", "gtbench:nim", "--agents", "tft,random"], "prisoner's dilemma only"),
    (["--game", "gtbench:prisoners_dilemma", "--agents", "mcts,tft"], "turns only"),
    (["--game", "gtbench:nim", "--agents", "random"], "needs 2"),
    (["--game", "gtbench:nim", "--mode", "open"], "Cattle Trade option"),
]


@pytest.mark.parametrize(("args", "message"), BAD)
def test_bad_input_gets_one_line_and_exit_2(args: list[str], message: str, tmp_path: Path) -> None:
    db = tmp_path / "bad.duckdb"
    got = cattle("play", *args, "--seed", "1", "--db", db, env={"COLUMNS": "400"})
    assert got.returncode == 2, got.stdout + got.stderr
    lines = got.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], got.stderr
    assert "Traceback" not in got.stderr and not got.stdout
    if db.exists():  # nothing stored
        con = duckdb.connect(str(db), read_only=True)
        try:
            assert con.execute("SELECT count(*) FROM games").fetchall() == [(0,)]
        finally:
            con.close()


def test_without_openspiel_the_game_says_how_to_install_it(tmp_path: Path) -> None:
    # A module named pyspiel that fails to import stands in for an environment without it.
    (tmp_path / "pyspiel.py").write_text("raise ImportError('No module named pyspiel')\n")
    got = cattle("play", "--game", "gtbench:tic_tac_toe", "--db", tmp_path / "x.duckdb",
                 env={"PYTHONPATH": str(tmp_path), "COLUMNS": "400"})  # fmt: skip
    assert got.returncode == 2
    (only,) = got.stderr.strip().splitlines()
    assert "uv sync --extra openspiel" in only
    listed = cattle("agents", "--game", "openspiel", env={"PYTHONPATH": str(tmp_path)})
    assert listed.returncode == 0 and "mcts" in listed.stdout.split()


def test_play_show_replay_and_sql(tmp_path: Path) -> None:
    db = tmp_path / "os.duckdb"
    got = cattle("play", "--game", "gtbench:tic_tac_toe", "--agents", "mcts?simulations=50,random",
                 "--seed", "4", "--json", "--db", db)  # fmt: skip
    assert got.returncode == 0, got.stderr
    summary = json.loads(got.stdout)
    assert set(summary) >= {"game_id", "seed", "scores"} and summary["seed"] == 4
    gid = summary["game_id"]
    again = cattle("play", "--game", "openspiel:tic_tac_toe", "--agents",
                   "mcts?simulations=50,random", "--seed", "4", "--json", "--db", db)  # fmt: skip
    assert [s["score"] for s in json.loads(again.stdout)["scores"]] == [
        s["score"] for s in summary["scores"]
    ]
    shown = cattle("show", gid, "--db", db)
    assert shown.returncode == 0, shown.stderr
    assert "Final position:" in shown.stdout and "Game over: returns" in shown.stdout
    replayed = cattle("replay", gid, "--json", "--db", db)
    assert replayed.returncode == 0, replayed.stderr
    assert json.loads(replayed.stdout)["over"] is True
    query = f"SELECT count(*) AS n FROM openspiel_actions WHERE player >= 0 AND game_id = '{gid}'"
    sql = cattle("sql", query, "--format", "csv", "--db", db)
    assert sql.returncode == 0, sql.stderr
    moves = shown.stdout.count("] Player ")
    assert sql.stdout.split() == ["n", str(moves)]
    listed = cattle("games", "--game", "gtbench:tic_tac_toe", "--json", "--db", db)
    assert [g["preset"] for g in json.loads(listed.stdout)] == ["tic_tac_toe"] * 2
    none = cattle("games", "--game", "gtbench:nim", "--json", "--db", db)
    assert json.loads(none.stdout) == []
    agents = cattle("agents", "--game", "gtbench:pig")
    assert {"random", "mcts", "openai", "anthropic"} <= set(agents.stdout.split())
    assert "tft" not in agents.stdout.split()  # it plays the prisoner's dilemma only


@settings(max_examples=200, deadline=None)
@given(
    base=st.sampled_from(["kuhn_poker(players=2)", "tic_tac_toe()", "goofspiel(num_cards=4)"]),
    tail=st.text(alphabet="()x,=2 ", min_size=1, max_size=6),
)
def test_a_game_string_with_anything_after_its_parameters_is_refused(base: str, tail: str) -> None:
    """OpenSpiel reads up to the bracket closing the parameters; nothing may follow it."""
    from agents.openspiel.game import configure
    from events.config import ConfigError

    text = base + tail
    if not tail.strip():
        return  # surrounding blanks are dropped
    with pytest.raises(ConfigError, match="bracket"):
        configure(f"openspiel:{text}")


@given(
    spec=st.lists(st.integers(1, 50), min_size=2, max_size=4).map(
        lambda ns: "mcts?" + "&".join(f"simulations={n}" for n in ns)
    )
)
def test_an_agent_option_given_twice_is_refused(spec: str) -> None:
    from agents.openspiel.bots import parse_options

    with pytest.raises(ValueError, match="given twice"):
        parse_options(spec)


def test_kriegspiel_seat_1_is_shown_none_of_its_opponents_moves(tmp_path: Path) -> None:
    """The issue's game: `show --seat 1` and `replay --seat 1` hold only seat 1's own moves
    and strings; the full timeline holds every move."""
    db = tmp_path / "k.duckdb"
    got = cattle("play", "--game", "openspiel:kriegspiel", "--seed", "4", "--db", db, "--json")
    assert got.returncode == 0, got.stderr
    gid = json.loads(got.stdout)["game_id"]
    wide = {"COLUMNS": "100000"}  # one line per event, however long its string
    everything = cattle("show", gid, "--db", db, env=wide).stdout
    seat = cattle("show", gid, "--seat", "1", "--db", db, env=wide).stdout
    assert everything.count("] Player 0: ") == 281
    lines = seat.split("What seat 1 sees:")[0].splitlines()[1:]
    assert all("Player 0" not in line for line in lines)
    assert sum(" Player 1 plays " in line for line in lines) == 302
    numbers = [int(line.split()[0]) for line in lines if line.split()[0].isdigit()]
    assert numbers == list(range(len(numbers)))  # counted among seat 1's own events
    replayed = json.loads(cattle("replay", gid, "--seat", "1", "--json", "--db", db).stdout)
    assert {p for p, _ in replayed["moves"]} == {1} and replayed["own_moves_only"] is True
