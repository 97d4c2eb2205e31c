"""Odd and hostile inputs to the CLI: one clear line and a non-zero exit, never a traceback.

Seeds out of range, preset files that are malformed or try to escape data/presets, price
tables of the wrong shape, report files that cannot be written, empty stores and absurd
counts. Every case runs the real `cattle` command in a subprocess.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from clikit import ENV, ROOT, cattle, cattle_many

from events.store import DuckStore

MAX_SEED = 2**63 - 1


def check(result: subprocess.CompletedProcess[str], code: int, *phrases: str) -> None:
    """Exit code `code`, no traceback, and every phrase (any case) in the output."""
    assert result.returncode == code, (result.args, result.returncode, result.stderr)
    assert "Traceback" not in result.stderr and "Traceback" not in result.stdout
    text = (result.stderr + result.stdout).lower()
    for phrase in phrases:
        assert phrase.lower() in text, (phrase, result.stdout, result.stderr)


def cattle_env(*args: str | Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """`cattle ARGS` with extra environment variables."""
    return subprocess.run(
        [sys.executable, "-m", "cli.main", *map(str, args)],
        cwd=ROOT,
        env={**ENV, **env},
        capture_output=True,
        text=True,
        timeout=180,
    )


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A store holding one finished micro-duel, and that game's id."""
    db = tmp_path_factory.mktemp("inputs") / "games.duckdb"
    made = cattle("play", "--preset", "micro-duel", "--seed", "1", "--json", "--db", db)
    assert made.returncode == 0, made.stderr
    return db, json.loads(made.stdout)["game_id"]


def test_seeds_outside_0_to_2_63_are_refused_before_anything_is_played(tmp_path: Path) -> None:
    db = tmp_path / "games.duckdb"
    too_big, negative = str(MAX_SEED + 1), "-1"
    cases = [
        ("play", "--preset", "micro-duel", "--seed", too_big, "--db", db),
        ("play", "--preset", "micro-duel", "--seed", str(10**30), "--db", db),
        ("play", "--preset", "micro-duel", "--seed", negative, "--db", db),
        ("demo", "--seed", too_big, "--db", db),
        ("demo", "--seed", negative, "--db", db),
        ("tournament", "--agents", "random", "--games", "2", "--seed", too_big, "--db", db),
        ("tournament", "--agents", "random", "--games", "2", "--seed", negative, "--db", db),
    ]
    for result in cattle_many(cases):
        check(result, 2, "--seed must be between 0 and 9223372036854775807")
    assert not db.exists()  # refused before the store was even opened

    # The largest seed is accepted, stored and replays.
    top = cattle("play", "--preset", "micro-duel", "--seed", str(MAX_SEED), "--json", "--db", db)
    assert top.returncode == 0, top.stderr
    gid = json.loads(top.stdout)["game_id"]
    assert json.loads(top.stdout)["seed"] == MAX_SEED
    check(cattle("replay", gid, "--verify", "--db", db), 0, "verified")
    tour = cattle(
        "tournament", "--agents", "random", "--preset", "micro-duel", "--games", "2",
        "--seed", str(MAX_SEED), "--quiet", "--db", db,
    )  # fmt: skip
    check(tour, 0, "2/2 games finished")
    helped = cattle("play", "--help")
    assert "0 to 9223372036854775807" in helped.stdout


def test_ratings_on_a_store_without_finished_games_says_so(tmp_path: Path) -> None:
    db = tmp_path / "empty.duckdb"
    DuckStore(db).close()
    table, as_json = cattle_many([("ratings", "--db", db), ("ratings", "--json", "--db", db)])
    check(table, 0, "no finished games to rate")
    check(as_json, 0)
    assert json.loads(as_json.stdout) == []


@pytest.mark.parametrize(
    ("content", "phrase"),
    [
        ("{bad", "not a JSON object of prices"),
        ("[1, 2]", "not a JSON object of prices"),
        ('{"openai:x": 5}', "entry 'openai:x' must be"),
        ('{"openai:x": {"input": "a", "output": 1}}', "entry 'openai:x' must be"),
        ('{"openai:x": {"input": 1}}', "entry 'openai:x' must be"),
        ('{"openai:x": {"input": 1, "output": 2, "cached": 3}}', "entry 'openai:x' must be"),
        ('{"openai:x": {"input": -1, "output": 2}}', "must be a finite number of 0 or more"),
    ],
)
def test_a_bad_price_table_is_one_line(
    played: tuple[Path, str], tmp_path: Path, content: str, phrase: str
) -> None:
    db, _ = played
    prices = tmp_path / "prices.json"
    prices.write_text(content)
    check(cattle("costs", "--prices", prices, "--db", db), 2, "--prices", phrase)
    check(cattle_env("costs", "--db", db, env={"CATTLE_PRICES": str(prices)}), 2, phrase)


def test_a_missing_price_table_is_one_line(played: tuple[Path, str], tmp_path: Path) -> None:
    db, _ = played
    check(cattle("costs", "--prices", tmp_path / "nope.json", "--db", db), 2, "no such file")
    check(
        cattle_env("costs", "--db", db, env={"CATTLE_PRICES": "/nonexistent"}),
        2,
        "$CATTLE_PRICES: cannot read /nonexistent",
    )
    check(
        cattle_env("costs", "--db", db, env={"CATTLE_PRICES": str(tmp_path)}),
        2,
        f"$CATTLE_PRICES: {tmp_path} is a folder",
    )
    # Neither a folder nor an endless device is a missing file.
    check(cattle("costs", "--prices", tmp_path, "--db", db), 2, f"{tmp_path} is a folder")
    check(
        cattle("costs", "--prices", "/dev/zero", "--db", db),
        2,
        "/dev/zero is not a price table: it holds more than",
    )
    # A good override is laid over the shipped table.
    good = tmp_path / "good.json"
    good.write_text('{"_note": "mine", "openai:mine": {"input": 1, "output": 2.5}}')
    check(cattle("costs", "--prices", good, "--db", db), 0, "no model calls stored")


def _readonly_dir(path: Path) -> list[str] | None:
    """A command prefix under which `path` is a read-only mount, or None (then chmod)."""
    if os.geteuid() != 0:
        path.chmod(0o555)  # enough for an ordinary user
        return []
    unshare = shutil.which("unshare")
    if unshare is None:
        return None
    probe = subprocess.run(
        [unshare, "-m", "sh", "-c", f"mount -t tmpfs -o ro tmpfs '{path}'"],
        capture_output=True,
    )
    if probe.returncode != 0:
        return None
    return [unshare, "-m", "sh", "-c", f'mount -t tmpfs -o ro tmpfs "{path}" && exec "$@"', "sh"]


def test_report_out_that_cannot_be_written_is_refused_before_building(
    played: tuple[Path, str], tmp_path: Path
) -> None:
    db, _ = played
    a_file = tmp_path / "file.txt"
    a_file.write_text("x")
    base = ("report", "--resamples", "10", "--db", db, "--out")
    cases = [
        ((*base, tmp_path), "is a directory"),
        ((*base, a_file / "report.html"), "is a file, not a directory"),
        ((*base, a_file / "deeper" / "report.html"), "is a file, not a directory"),
    ]
    results = cattle_many([c for c, _ in cases])
    for (_, phrase), result in zip(cases, results, strict=True):
        check(result, 2, phrase)
    assert a_file.read_text() == "x"

    ro = tmp_path / "ro"
    ro.mkdir()
    prefix = _readonly_dir(ro)
    if prefix is None:
        pytest.skip("no way to make a read-only directory here")
    result = subprocess.run(
        [*prefix, sys.executable, "-m", "cli.main", *map(str, base), ro / "sub" / "r.html"],
        cwd=ROOT,
        env=ENV,
        capture_output=True,
        text=True,
        timeout=180,
    )
    ro.chmod(0o755)
    check(result, 2, "not writable")
    # Written fine elsewhere: the checks refuse only what cannot work.
    out = tmp_path / "new" / "dir" / "report.html"
    check(cattle(*base, out), 0, "wrote")
    assert out.read_text().startswith("<!")


PRESET_CASES = [
    ('{"name": "mine",', "preset file", "is not valid JSON"),
    ('{"name": "mine", "players": 2, "start_money": []}', "start_money", "length >= 1"),
    ('{"name": "mine", "start_money": [0, 0]}', "start_money", "worth more than 0"),
    ('{"name": "mine", "start_money": [7]}', "start_money", "Invalid enum value 7"),
    ('{"name": "a\\u0000b"}', "not a plain identifier", "preset file"),
    ('{"name": "../../etc/passwd"}', "not a plain identifier", "preset file"),
    ('{"name": "mine", "colour": "red"}', "unknown field `colour`", "preset file"),
    ('{"name": "mine", "players": 9}', "players", "<= 5"),
    ('{"name": "mine", "animals": ["cat", "unicorn"]}', "unicorn", "animals"),
    ('{"name": "mine", "max_turns": 1000000}', "max_turns", "<= 100000"),
    ('{"name": "standard", "players": 3}', "belongs to a shipped preset", "preset file"),
    ("[]", "expected `object`", "preset file"),
]


@pytest.mark.parametrize(("content", "phrase", "also"), PRESET_CASES)
def test_a_bad_preset_file_is_one_line_naming_the_file(
    tmp_path: Path, content: str, phrase: str, also: str
) -> None:
    db = tmp_path / "games.duckdb"
    preset = tmp_path / "mine.json"
    preset.write_text(content)
    result = cattle("play", "--preset-file", preset, "--db", db)
    check(result, 2, phrase, also, str(preset))
    assert not db.exists()


def test_presets_are_names_under_data_presets_and_files_need_preset_file(tmp_path: Path) -> None:
    db = tmp_path / "games.duckdb"
    mine = tmp_path / "duel.json"
    mine.write_text(
        '{"name": "duel", "players": 2, "set_size": 2, "animals": ["cat", "donkey", "horse"],'
        ' "start_money": [50, 10, 0], "max_turns": 60}'
    )
    outside = ROOT / "data" / "presets" / ".." / ".." / "tests" / "cli"
    cases = [
        (("play", "--preset", "../../tmp/x", "--db", db), "unknown preset"),
        (("play", "--preset", str(mine.with_suffix("")), "--db", db), "unknown preset"),
        (("play", "--preset", str(outside), "--db", db), "unknown preset"),
        (("play", "--preset", "micro-duel", "--preset-file", mine, "--db", db), "not both"),
        (("play", "--preset-file", tmp_path / "none.json", "--db", db), "no preset file at"),
        (("play", "--preset-file", tmp_path, "--db", db), "no preset file at"),
    ]
    results = cattle_many([c for c, _ in cases])
    for (_, phrase), result in zip(cases, results, strict=True):
        check(result, 2, phrase)
    assert not db.exists()

    played = cattle("play", "--preset-file", mine, "--seed", "4", "--json", "--db", db)
    assert played.returncode == 0, played.stderr
    summary = json.loads(played.stdout)
    assert summary["preset"] == "duel" and len(summary["scores"]) == 2
    check(cattle("replay", summary["game_id"], "--verify", "--db", db), 0, "verified")
    tour = cattle(
        "tournament", "--agents", "tracker", "--games", "3", "--preset-file", mine,
        "--seed", "2", "--quiet", "--name", "duel", "--db", db,
    )  # fmt: skip
    check(tour, 0, "3/3 games finished")
    with DuckStore(db, read_only=True) as store:
        _, rows = store.query("SELECT DISTINCT config->>'name' FROM tournaments")
    assert rows == [("duel",)]


def test_odd_counts_and_ranges_are_refused(played: tuple[Path, str]) -> None:
    db, gid = played
    cases = [
        (("games", "--limit", "-1", "--db", db), "--limit must be 0 (all) or more"),
        (("play", "--max-turns", "0", "--db", db), "--max-turns must be between 1 and"),
        (("play", "--max-turns", str(10**30), "--db", db), "--max-turns must be between 1 and"),
        (("ratings", "--shuffles", "1000000", "--db", db), "--shuffles must be between 0 and 100"),
        (("ratings", "--shuffles", "-1", "--db", db), "--shuffles must be between 0 and 100"),
        (("metrics", "--resamples", "1000000000", "--db", db), "--resamples must be between"),
        (("metrics", "--resamples", "9", "--db", db), "--resamples must be between"),
        (("report", "--resamples", str(10**12), "--db", db), "--resamples must be between"),
        (("replay", gid, "--to", "-1", "--db", db), "--to must be between"),
        (("play", "--agents", ",,,", "--db", db), "--agents needs 4"),
        (("tournament", "--agents", ",", "--games", "2", "--db", db), "at least one agent"),
        (("tournament", "--agents", "tracker,tracker", "--db", db), "only once"),
        (("loopback", "--port", "70000"), "--port must be between 0 and 65535"),
        (("loopback", "--port", "-1"), "--port must be between 0 and 65535"),
        (("loopback", "--delay", "-1"), "--delay must be between 0 and 600"),
        (("loopback", "--delay", "nan"), "--delay must be between 0 and 600"),
    ]
    results = cattle_many([c for c, _ in cases])
    for (_, phrase), result in zip(cases, results, strict=True):
        check(result, 2, phrase)
    every = cattle("games", "--limit", "0", "--json", "--db", db)
    assert every.returncode == 0 and len(json.loads(every.stdout)) >= 1
    # rerun opens the store for writing, so it runs alone.
    rerun = cattle("rerun", gid, "--seat", "-1", "--agent", "random", "--db", db)
    check(rerun, 2, "--seat must be between 0 and 1")
