"""A store whose rows name a game this process cannot read, through the real command line.

Games of a plug-in read without the plug-in, and `games.game` altered by hand (two games'
names swapped, a name no game has, an empty one, markup): listing never fails, `show` and
`replay` stop in one line, verification names the mix-up, and the reports over the other
games still work.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import duckdb
import pytest

from tests.cli.clikit import ROOT, cattle

TOY = {"CATTLE_GAMES": "games.toy_auction", "PYTHONPATH": str(ROOT / "tests")}


def played(db: Path, *args: str, env: dict[str, str] | None = None) -> str:
    got = cattle("play", *args, "--json", "--db", db, env=env)
    assert got.returncode == 0, got.stderr
    return str(json.loads(got.stdout)["game_id"])


def no_traceback(got: subprocess.CompletedProcess[str], code: int, *phrases: str) -> None:
    assert got.returncode == code, (got.args, got.returncode, got.stdout, got.stderr)
    assert "Traceback" not in got.stderr + got.stdout
    text = " ".join((got.stdout + got.stderr).split())
    for phrase in phrases:
        assert phrase in text, (phrase, got.stdout, got.stderr)


def test_games_of_a_plug_in_read_without_it(tmp_path: Path) -> None:
    db = tmp_path / "g.duckdb"
    toy = played(db, "--game", "toy-auction", "--agents", "honest,wild,honest", "--seed", "2",
                 env=TOY)  # fmt: skip
    cattle_id = played(db, "--preset", "micro-duel", "--seed", "2")
    # Without $CATTLE_GAMES the toy game is listed with its configuration as stored.
    listed = {g["game_id"]: g for g in json.loads(cattle("games", "--json", "--db", db).stdout)}
    assert listed[toy]["game"] == "toy-auction" and listed[toy]["preset"] == "standard"
    assert listed[toy]["agents"] == ["honest", "wild", "honest"]
    table = cattle("games", "--db", db)
    no_traceback(table, 0, toy)
    no_traceback(cattle("show", toy, "--db", db), 2, "unknown game 'toy-auction'")
    no_traceback(cattle("ratings", "--game", "cattle-trade", "--db", db), 0)
    checked = cattle("verify", "--all", "--keep-going", "--db", db)
    no_traceback(checked, 1, toy, "no known game")
    assert cattle("replay", cattle_id, "--verify", "--db", db).returncode == 0
    # With it, everything verifies.
    assert cattle("verify", "--all", "--db", db, env=TOY).returncode == 0


@pytest.fixture(scope="module")
def tampered(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """Two games of each built-in game, then each row's game name altered but one of each."""
    db = tmp_path_factory.mktemp("tampered") / "g.duckdb"
    ids = {
        "cattle": played(db, "--preset", "micro-duel", "--agents", "tracker,random", "--seed", "1"),
        "cattle_ok": played(db, "--preset", "micro-duel", "--seed", "2"),
        "pact": played(db, "--game", "pact", "--preset", "quick", "--seed", "1"),
        "pact_ok": played(db, "--game", "pact", "--preset", "quick", "--seed", "2"),
        "nosuch": played(db, "--game", "pact", "--preset", "quick", "--seed", "3"),
        "empty": played(db, "--game", "pact", "--preset", "quick", "--seed", "4"),
        "markup": played(db, "--game", "pact", "--preset", "quick", "--seed", "5"),
    }
    names = {"cattle": "pact", "pact": "cattle-trade", "nosuch": "nosuch", "empty": "",
             "markup": "[red]x[/]"}  # fmt: skip
    con = duckdb.connect(str(db))
    for key, name in names.items():
        con.execute("UPDATE games SET game = ? WHERE game_id = ?", [name, ids[key]])
    con.close()
    return db, ids


def test_listing_a_tampered_store_never_fails(tampered: tuple[Path, dict[str, str]]) -> None:
    db, ids = tampered
    listed = cattle("games", "--json", "--db", db)
    no_traceback(listed, 0)
    games = {g["game_id"]: g for g in json.loads(listed.stdout)}
    assert set(games) == set(ids.values())
    assert games[ids["markup"]]["game"] == "[red]x[/]"
    table = cattle("games", "--db", db, env={"COLUMNS": "80"})
    no_traceback(table, 0)
    assert "[red]x[/]" in table.stdout or "[red]x…" in table.stdout


@pytest.mark.parametrize(
    ("key", "code", "phrase"),
    [
        ("cattle", 1, "is not an event of pact"),
        ("pact", 1, "is not an event of cattle-trade"),
        ("nosuch", 2, "unknown game 'nosuch'"),
        ("empty", 2, "unknown game ''"),
        ("markup", 2, "unknown game '[red]x[/]'"),
    ],
)
def test_reading_a_tampered_game_is_one_line(
    tampered: tuple[Path, dict[str, str]], key: str, code: int, phrase: str
) -> None:
    db, ids = tampered
    for args in (("show",), ("replay", "--to", "3"), ("replay", "--seat", "0")):
        got = cattle(args[0], ids[key], *args[1:], "--db", db)
        no_traceback(got, code, phrase)
        assert got.stderr.lower().count("error:") == 1


@pytest.mark.parametrize(
    ("key", "detail"),
    [
        ("cattle", "games.game is 'pact', the log's is 'cattle-trade'"),
        ("pact", "games.game is 'cattle-trade', the log's is 'pact'"),
        ("nosuch", "games.game is 'nosuch', no known game, the log's is 'pact'"),
        ("empty", "games.game is '', no known game, the log's is 'pact'"),
        ("markup", "games.game is '[red]x[/]', no known game, the log's is 'pact'"),
    ],
)
def test_verification_names_the_mix_up(
    tampered: tuple[Path, dict[str, str]], key: str, detail: str
) -> None:
    db, ids = tampered
    got = cattle("replay", ids[key], "--verify", "--db", db)
    no_traceback(got, 1, "game at seq 0", detail)


def test_the_untouched_games_still_verify_and_report(
    tampered: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    db, ids = tampered
    for key in ("cattle_ok", "pact_ok"):
        assert cattle("replay", ids[key], "--verify", "--db", db).returncode == 0
    every = cattle("verify", "--all", "--keep-going", "--json", "--db", db)
    no_traceback(every, 1)
    assert every.stdout.count('"failed"') >= 1
    for game in ("cattle-trade", "pact"):
        no_traceback(cattle("ratings", "--game", game, "--db", db), 0)
        out = tmp_path / f"{game}.html"
        no_traceback(cattle("report", "--game", game, "--out", out, "--db", db), 0)
        assert out.stat().st_size > 0


@pytest.mark.parametrize(
    ("config", "reason"),
    [
        ('{"rounds": "many"}', "Expected `int`, got `str`"),
        ("[1]", "Expected `object`, got `array`"),
        ('{"rounds": 0}', "rounds must be 1..1000, got 0"),
    ],
)
def test_a_tournament_whose_stored_configuration_was_altered_is_not_resumed(
    tmp_path: Path, config: str, reason: str
) -> None:
    db = tmp_path / "t.duckdb"
    made = cattle("tournament", "--game", "pact", "--preset", "quick", "--agents",
                  "anchor,mirror", "--games", "2", "--seed", "1", "--name", "haggle",
                  "--quiet", "--db", db)  # fmt: skip
    assert made.returncode == 0, made.stderr
    con = duckdb.connect(str(db))
    con.execute("UPDATE tournaments SET config = ? WHERE name = 'haggle'", [config])
    con.execute("UPDATE games SET status = 'abandoned' WHERE game_id = 'haggle.00001'")
    con.close()
    got = cattle("tournament", "--resume", "haggle", "--db", db)
    no_traceback(got, 1, "tournament haggle: its stored configuration is not a playable pact",
                 reason)  # fmt: skip
    assert got.stderr.count("error:") == 1
