"""User errors: a clear message, a non-zero exit code and never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

from clikit import cattle, cattle_many, held_open


def check(result, code: int, *phrases: str) -> None:
    assert result.returncode == code, (result.args, result.returncode, result.stderr)
    assert "Traceback" not in result.stderr and "Traceback" not in result.stdout
    text = (result.stderr + result.stdout).lower()
    for phrase in phrases:
        assert phrase.lower() in text, (phrase, result.stderr)


def test_errors_are_reported_cleanly_and_a_locked_database_too(tmp_path: Path) -> None:
    db = tmp_path / "games.duckdb"
    made = cattle("play", "--preset", "micro-duel", "--seed", "1", "--json", "--db", db)
    assert made.returncode == 0, made.stderr
    gid = json.loads(made.stdout)["game_id"]
    missing = tmp_path / "missing.duckdb"
    cases = [
        (("play", "--mode", "sideways", "--db", db), 2, "--mode must be one of"),
        (("play", "--agents", "random,tracker", "--db", db), 2, "--agents needs 4"),
        (("play", "--agents", "random,nobody,random,random", "--db", db), 2, "unknown agent"),
        (("play", "--preset", "giant", "--db", db), 2, "unknown preset"),
        (
            (
                "play",
                "--game",
                "openspiel:kuhn_poker",
                "--agents",
                "policy:no_such_mod:f,random",
                "--db",
                db,
            ),
            2,
            "cannot load no_such_mod.f",
        ),
        (("play", "--seed", "many", "--db", db), 2, "invalid value"),
        (("show", "--bogus", "x", "--db", db), 2, "no such option"),
        (("show", "nosuchgame", "--db", db), 1, "no game"),
        (("replay", "nosuchgame", "--verify", "--db", db), 1, "no game"),
        (("games", "--db", missing), 1, "no database"),
        (("sql", "SELEC 1", "--db", db), 2, "sql error"),
        (("sql", "SELECT 1", "--format", "xml", "--db", db), 2, "--format"),
        (("replay", gid, "--to", "999999", "--db", db), 2, "--to must be between 0 and"),
        (("show", gid, "--seat", "9", "--db", db), 2, "--seat must be between 0 and 1"),
        (("replay", gid, "--seat", "2", "--db", db), 2, "--seat must be between 0 and 1"),
    ]
    results = cattle_many([c[0] for c in cases])
    for (_, code, phrase), result in zip(cases, results, strict=True):
        check(result, code, phrase)
    assert not missing.exists()
    with held_open(db):
        locked = cattle_many(
            [
                ("games", "--db", db),
                ("play", "--preset", "micro-duel", "--db", db),
                ("show", gid, "--db", db),
            ],
            env={"CATTLE_LOCK_WAIT": "0.5"},
        )
    for r in locked:
        check(r, 1, "in use by another process")
