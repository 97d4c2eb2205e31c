"""`cattle verify` and `cattle replay --verify` in subprocesses: exit codes, stopping at the
first bad game, `--keep-going` listings, unfinished games, workers and usage errors."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import duckdb
import pytest
from clikit import cattle, cattle_many

from engine.cattle.presets import load_preset
from engine.cattle.rules import ENGINE_VERSION
from events.store import DuckStore, GameRow
from runner.session import play_game


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A database made by the CLI: a four-game tournament and one standard game."""
    path = tmp_path_factory.mktemp("verify") / "games.duckdb"
    cup = cattle(
        "tournament", "--format", "round-robin", "--agents", "tracker,setrace", "--preset",
        "micro-duel", "--games", "4", "--seed", "3", "--name", "cup", "--quiet", "--db", path,
    )  # fmt: skip
    assert cup.returncode == 0, cup.stderr
    play = cattle(
        "play", "--agents", "tracker,setrace,economy,random", "--seed", "7", "--json", "--db", path
    )
    assert play.returncode == 0, play.stderr
    listed = cattle("verify", "--all", "--json", "--db", path)
    assert listed.returncode == 0, listed.stdout + listed.stderr
    order = [g["game_id"] for g in json.loads(listed.stdout)["games"]]
    return {"path": path, "order": order, "play": json.loads(play.stdout)["game_id"]}


def copy_of(store: dict[str, Any], tmp_path: Path) -> Path:
    path = tmp_path / "copy.duckdb"
    shutil.copyfile(store["path"], path)
    return path


def run_sql(path: Path, *statements: tuple[str, list[Any]]) -> None:
    con = duckdb.connect(str(path))
    for sql, params in statements:
        con.execute(sql, params)
    con.close()


def no_traceback(*runs: Any) -> None:
    for r in runs:
        assert "Traceback" not in r.stdout + r.stderr


def test_a_clean_store_verifies(store: dict[str, Any]) -> None:
    db = store["path"]
    every, cup, one, replay = cattle_many(
        [
            ("verify", "--all", "--db", db),
            ("verify", "--tournament", "cup", "--json", "--db", db),
            ("verify", store["play"][:8], "--db", db),
            ("replay", store["play"], "--verify", "--db", db),
        ]
    )
    assert every.returncode == 0, every.stdout + every.stderr
    assert "5 of 5" in every.stdout and "games/s" in every.stdout
    assert "Games not verified" not in every.stdout
    assert cup.returncode == 0
    summary = json.loads(cup.stdout)
    assert (summary["checked"], summary["verified"], summary["failed"]) == (4, 4, 0)
    assert all(g["outcome"] == "verified" and g["ok"] for g in summary["games"])
    assert summary["games_per_second"] > 0
    assert one.returncode == 0 and "1 of 1" in one.stdout
    assert replay.returncode == 0 and "verified" in replay.stdout
    no_traceback(every, cup, one, replay)


def test_stops_at_the_first_bad_game_and_keep_going_lists_every_one(
    store: dict[str, Any], tmp_path: Path
) -> None:
    db = copy_of(store, tmp_path)
    second, fourth = store["order"][1], store["order"][3]
    run_sql(
        db,
        ("UPDATE games SET seed = seed + 1 WHERE game_id = ?", [second]),
        (
            "UPDATE events SET visible_to = NULL WHERE game_id = ? AND seq = 1",  # the deck order
            [fourth],
        ),
    )
    first, every, as_json, pooled, replay = cattle_many(
        [
            ("verify", "--all", "--db", db),
            ("verify", "--all", "--keep-going", "--db", db),
            ("verify", "--all", "--keep-going", "--json", "--db", db),
            ("verify", "--all", "--keep-going", "--json", "--workers", "2", "--db", db),
            ("replay", fourth, "--verify", "--db", db),
        ]
    )
    assert first.returncode == 1
    assert "2 of 5" in first.stdout and "Stopped at the first" in first.stdout
    assert second in first.stdout and fourth not in first.stdout
    assert every.returncode == 1
    assert "5 of 5" in every.stdout and "Stopped" not in every.stdout
    assert second in every.stdout and fourth in every.stdout
    assert "seed" in every.stdout and "visible_to" in every.stdout
    summary = json.loads(as_json.stdout)
    assert (summary["verified"], summary["failed"], summary["unfinished"]) == (3, 2, 0)
    bad = {g["game_id"]: g for g in summary["games"] if not g["ok"]}
    assert bad[second]["problem"]["check"] == "seed"
    assert (bad[fourth]["problem"]["check"], bad[fourth]["problem"]["seq"]) == ("visible_to", 1)
    assert json.loads(pooled.stdout)["games"] == summary["games"]
    assert replay.returncode == 1
    assert "verification failed" in replay.stderr and "visible_to at seq 1" in replay.stderr
    assert "verified" not in replay.stdout
    no_traceback(first, every, as_json, pooled, replay)


def test_unfinished_games_are_never_called_verified(store: dict[str, Any], tmp_path: Path) -> None:
    db = copy_of(store, tmp_path)
    config = load_preset("micro-duel")
    rec = play_game(config, 11, ["tracker", "setrace"])
    cut = next(i for i, t in enumerate(rec.turns) if t == 6)
    with DuckStore(db) as s:
        s.begin_game(
            GameRow(
                game_id="halfway",
                seed=11,
                config=config,
                seats=rec.seats,
                engine_version=ENGINE_VERSION,
            )
        )
        s.append("halfway", rec.events[:cut], rec.turns[:cut])
    strict, allowed, replay, replay_allowed, whole = cattle_many(
        [
            ("verify", "halfway", "--json", "--db", db),
            ("verify", "halfway", "--allow-unfinished", "--db", db),
            ("replay", "halfway", "--verify", "--db", db),
            ("replay", "halfway", "--verify", "--allow-unfinished", "--db", db),
            ("verify", "--all", "--keep-going", "--db", db),
        ]
    )
    assert strict.returncode == 3
    game = json.loads(strict.stdout)["games"][0]
    assert (game["outcome"], game["ok"], game["status"]) == ("unfinished", False, "running")
    assert "consistent prefix" in game["problem"]["detail"]
    assert allowed.returncode == 0 and "accepted" in allowed.stdout
    assert replay.returncode == 3 and replay_allowed.returncode == 0
    for r in (replay, replay_allowed):
        text = r.stdout + r.stderr
        assert "unfinished" in text and "consistent prefix" in text
        assert "verified" not in text
    assert whole.returncode == 3 and "halfway" in whole.stdout and "6 of 6" in whole.stdout
    no_traceback(strict, allowed, replay, replay_allowed, whole)


def test_a_tournament_game_lost_from_the_store_is_reported(
    store: dict[str, Any], tmp_path: Path
) -> None:
    db = copy_of(store, tmp_path)
    lost = store["order"][2]
    run_sql(
        db,
        ("DELETE FROM events WHERE game_id = ?", [lost]),
        ("DELETE FROM games WHERE game_id = ?", [lost]),
    )
    res = cattle("verify", "--tournament", "cup", "--keep-going", "--json", "--db", db)
    assert res.returncode == 3
    summary = json.loads(res.stdout)
    missing = [g for g in summary["games"] if g["status"] == "not stored"]
    assert [g["game_id"] for g in missing] == [lost]
    assert "not stored" in missing[0]["problem"]["detail"]
    assert summary["verified"] == 3


def test_stored_text_in_a_problem_is_printed_as_text(store: dict[str, Any], tmp_path: Path) -> None:
    db = copy_of(store, tmp_path)
    gid = store["play"]
    run_sql(db, ("UPDATE events SET type = '[/][red]x' WHERE game_id = ? AND seq = 3", [gid]))
    listed, replay = cattle_many(
        [
            ("verify", "--all", "--keep-going", "--db", db),
            ("replay", gid, "--verify", "--db", db),
        ]
    )
    assert listed.returncode == 1 and "'[/][red]x'" in listed.stdout
    assert replay.returncode == 1 and "'[/][red]x'" in replay.stderr
    no_traceback(listed, replay)


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (("verify",), 2, "name the games"),
        (("verify", "--all", "--tournament", "cup"), 2, "name the games"),
        (("verify", "somegame", "--all"), 2, "name the games"),
        (("verify", "--all", "--workers", "0"), 2, "--workers"),
        (("verify", "--all", "--workers", "100000"), 2, "--workers"),
        (("verify", "--tournament", "nope"), 2, "no games of tournament"),
        (("verify", "nosuchgame"), 1, "no game"),
        (("replay", "x", "--verify", "--to", "3"), 2, "--verify checks the whole game"),
    ],
)
def test_bad_input_is_one_clear_line(
    store: dict[str, Any], args: tuple[str, ...], code: int, message: str
) -> None:
    res = cattle(*args, "--db", store["path"])
    assert res.returncode == code, res.stdout + res.stderr
    assert message in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1
    no_traceback(res)


def test_an_empty_store_has_nothing_to_verify(tmp_path: Path) -> None:
    empty = tmp_path / "empty.duckdb"
    DuckStore(empty).close()
    res = cattle("verify", "--all", "--db", empty)
    assert res.returncode == 2 and "no games stored" in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1
