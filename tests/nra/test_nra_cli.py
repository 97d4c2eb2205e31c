"""`cattle metrics --game G` and `cattle report --game G` for a two-seat game without an
analysis of its own, through the real command line."""

from __future__ import annotations

import base64
import html
import json
import re
from pathlib import Path

import pytest

from tests.cli.clikit import cattle
from tests.nra import nra_oracle as O
from tests.nra.conftest import LONG, TOY, WILD


def toy(*args: str | Path, columns: int = 80) -> str:
    got = cattle(*args, env={**TOY, "COLUMNS": str(columns)})
    assert got.returncode == 0, got.stderr
    return got.stdout


def test_tables_fit_80_columns_and_print_names_as_written(two_seat_db: Path) -> None:
    text = toy("metrics", "--game", "toy-auction", "--tournament", "toy", "--resamples", "100",
               "--db", two_seat_db)  # fmt: skip
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 80
    for title in ("NRA per game and opponent", "against every other agent", "NRA matrix",
                  "TrueSkill"):  # fmt: skip
        assert title in text
    assert WILD in text  # markup printed, not applied
    assert LONG[:10] in text and LONG not in text  # cut to fit, not wrapped


def test_json_agrees_with_the_event_log(two_seat_db: Path) -> None:
    doc = json.loads(toy("metrics", "--game", "toy-auction", "--json", "--db", two_seat_db))
    want = O.pair_means(O.read(two_seat_db, "toy-auction"))
    got = {(p["game"], p["agent"], p["opponent"]): p for p in doc["pairs"]}
    assert set(want) <= set(got)
    for key, (mean, n, wdl) in want.items():
        p = got[key]
        assert p["nra"]["value"] == pytest.approx(mean) and p["matches"] == n
        assert f"{p['wins']}/{p['draws']}/{p['losses']}" == wdl
    assert doc["skipped_games"] == 3 and doc["matches"] == 24
    assert {r["agent"] for r in doc["trueskill"]} == set(doc["agents"])
    agents = doc["matrix"]["agents"]
    m = doc["matrix"]["nra"]
    for i in range(len(agents)):
        for j in range(len(agents)):
            if i != j and m[i][j] is not None:
                assert m[i][j] == pytest.approx(-m[j][i])


def test_definitions_are_listed(two_seat_db: Path) -> None:
    text = toy("metrics", "--game", "toy-auction", "--definitions", "--db", two_seat_db)
    for name in ("nra", "completion_rate", "win_draw_loss", "trueskill"):
        assert name in text


def test_report_holds_the_figures_and_tables(two_seat_db: Path, tmp_path: Path) -> None:
    out = tmp_path / "r.html"
    toy("report", "--game", "toy-auction", "--tournament", "toy", "--resamples", "100", "-o", out,
        "--db", two_seat_db)  # fmt: skip
    page = out.read_text()
    for fig in ("fig-nra-games", "fig-nra-matrix", "fig-nra-completion"):
        m = re.search(rf'id="{fig}-img"[^>]*src="data:image/png;base64,([^"]+)"', page)
        assert m, fig
        assert base64.b64decode(m.group(1))[:8] == b"\x89PNG\r\n\x1a\n"
    for table in ("nra-pairs", "nra-agents", "nra-trueskill"):
        assert f'id="{table}"' in page
    assert html.escape(WILD) in page and WILD not in page


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("metrics", "--game", "toy-auction", "--resamples", "5"), "--resamples"),
        (("report", "--game", "toy-auction", "--tournament", "nope"), "no games in tournament"),
        (("metrics", "--game", "toy-duel"), "unknown game"),
    ],
)
def test_bad_input_is_one_line(two_seat_db: Path, args: tuple[str, ...], message: str) -> None:
    got = cattle(*args, "--db", two_seat_db, env=TOY)
    assert got.returncode == 2, got.stdout + got.stderr
    assert message in got.stderr and "Traceback" not in got.stderr
    assert len(got.stderr.strip().splitlines()) == 1, got.stderr


def test_a_selection_without_two_seat_games_says_so(two_seat_db: Path) -> None:
    text = toy("metrics", "--game", "toy-auction", "--tournament", "toy3", "--db", two_seat_db)
    assert "No two-seat match" in text
