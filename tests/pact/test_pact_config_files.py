"""PACT configuration files a user gets wrong, through the real command line.

Every bad file is refused before anything is played or stored, in one line naming the file,
with exit code 2: junk, non-finite or huge numbers, impossible settings, fields PACT does not
have (a typo must not silently play the defaults), names that are not plain identifiers or that
belong to a shipped preset with other settings, files far too large, and paths that are not
regular files (reading /dev/zero must not hang or fill memory).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.cli.clikit import ROOT, cattle

BAD: dict[str, tuple[str, str]] = {
    "junk": ("junk", "not a pact configuration"),
    "a list": ("[]", "Expected `object`"),
    "a typo": ('{"round": 5}', "unknown field 'round'"),
    "a nested typo": ('{"values": {"uniformm": 1}}', "unknown field 'values.uniformm'"),
    "NaN": ('{"values": {"uniform": NaN}}', "malformed"),
    "infinity": ('{"values": {"uniform": 1e999}}', "out of range"),
    "a float beyond range": ('{"rounds": 1e400}', "out of range"),
    "a huge integer": ('{"rounds": 100000000000000000000000}', "rounds must be 1..1000"),
    "negative rounds": ('{"rounds": -3}', "rounds must be 1..1000, got -3"),
    "no rounds": ('{"rounds": 0}', "rounds must be 1..1000, got 0"),
    "true as a number": ('{"rounds": true}', "Expected `int`, got `bool`"),
    "three players": ('{"players": 3}', "exactly 2 players"),
    "quotes narrower than values": ('{"quote_low": 10}', "must contain the value range"),
    "weights all zero": (
        '{"values": {"uniform": 0, "correlated": 0, "semi_bimodal": 0, "heavy_tailed": 0}}',
        "weights must be finite, non-negative and not all 0",
    ),
    "a shipped name, other settings": (
        '{"name": "standard", "rounds": 3}',
        "belongs to a shipped pact preset with other settings",
    ),
    "markup in the name": ('{"name": "[red]x[/]\\u001b"}', "is not a plain identifier"),
    "a very long name": (json.dumps({"name": "n" * 3000}), "is not a plain identifier"),
    "ten megabytes": ('{"rounds": 3' + " " * 10_000_000 + "}", "larger than 64 KB"),
}


def one_error_line(got, *phrases: str) -> None:
    assert got.returncode == 2, (got.returncode, got.stdout, got.stderr)
    assert "Traceback" not in got.stderr + got.stdout
    text = " ".join(got.stderr.split())
    assert text.startswith("error:") and text.count("error:") == 1, got.stderr
    assert len(text) < 400, text
    for phrase in phrases:
        assert phrase in text, (phrase, got.stderr)


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_bad_configuration_file_is_refused_in_one_line(case: str, tmp_path: Path) -> None:
    text, phrase = BAD[case]
    path = tmp_path / "mine.json"
    path.write_text(text)
    db = tmp_path / "p.duckdb"
    got = cattle("play", "--game", "pact", "--preset-file", path, "--db", db)
    one_error_line(got, str(path), phrase)
    assert not db.exists()


def test_a_tournament_checks_the_file_the_same_way(tmp_path: Path) -> None:
    path = tmp_path / "mine.json"
    path.write_text('{"rounds": 3, "max_word": 5}')
    got = cattle("tournament", "--game", "pact", "--agents", "anchor,mirror", "--games", "2",
                 "--preset-file", path, "--db", tmp_path / "t.duckdb")  # fmt: skip
    one_error_line(got, "unknown field 'max_word'")


@pytest.mark.parametrize("where", ["/dev/zero", "directory", "fifo", "missing"])
def test_only_a_regular_file_is_read(where: str, tmp_path: Path) -> None:
    path = {
        "/dev/zero": Path("/dev/zero"),
        "directory": tmp_path,
        "fifo": tmp_path / "pipe",
        "missing": tmp_path / "none.json",
    }[where]
    if where == "fifo":
        os.mkfifo(path)
    got = cattle("play", "--game", "pact", "--preset-file", path, "--db", tmp_path / "p.duckdb",
                 timeout=60)  # fmt: skip
    one_error_line(got, f"no configuration file at {path}")


@pytest.mark.parametrize(
    "settings",
    [
        {"name": "short", "rounds": 3, "first_speaker": "seller"},
        {"name": "standard"},  # a shipped name with the shipped settings
        {"name": "quick", "rounds": 5},
        {"values": {"uniform": 0.5, "correlated": 0.9}},  # weights count relative to their sum
    ],
)
def test_a_good_configuration_file_plays(settings: dict, tmp_path: Path) -> None:
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(settings))
    got = cattle("play", "--game", "pact", "--preset-file", path, "--json", "--db",
                 tmp_path / "p.duckdb")  # fmt: skip
    assert got.returncode == 0, got.stderr
    summary = json.loads(got.stdout)
    assert summary["preset"] == settings.get("name", "custom")
    assert summary["rounds"] == settings.get("rounds", 20)


def test_a_games_own_check_that_raises_value_error_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    path.write_text('{"players": 9, "name": "big"}')
    env = {"CATTLE_GAMES": "games.toy_auction", "PYTHONPATH": str(ROOT / "tests")}
    got = cattle("play", "--game", "toy-auction", "--preset-file", path, "--db",
                 tmp_path / "t.duckdb", env=env)  # fmt: skip
    one_error_line(got, str(path), "players must be 2..4, got 9")
