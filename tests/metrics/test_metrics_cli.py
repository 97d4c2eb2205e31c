"""`cattle metrics`, `cattle report` and `cattle export` as real subprocesses on a tournament store."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from projections.cattle.metrics.report import FIGURE_IDS
from runner.cattle.sample import sample_store

GAMES = 24
SAMPLE = 12
JSON_KEYS = (
    "agent",
    "games",
    "eta",
    "tau",
    "bid_aggressiveness",
    "buy_right_rate",
    "tc_accept_rate",
    "bluff_rate",
    "self_bid_rate",
    "overbid_rate",
    "win_rate",
    "sets_per_game",
)


def cattle(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "200"}
    proc = subprocess.run(
        [sys.executable, "-c", "from cli.main import run; run()", *args],
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
    )
    if check:
        assert proc.returncode == 0, proc.stderr
    return proc


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store with a 24-game round-robin tournament "rr" of the code agents and a random
    seat (played by `cattle tournament`), and 12 games of three random styles ("sample")."""
    path = tmp_path_factory.mktemp("cli") / "games.duckdb"
    cattle(
        "tournament",
        "--format",
        "round-robin",
        "--agents",
        "tracker,setrace,economy,random",
        "--games",
        str(GAMES),
        "--seed",
        "7",
        "--name",
        "rr",
        "--quiet",
        "--db",
        str(path),
    )
    sample_store(path, SAMPLE, tournament="sample")
    return path


def test_metrics_json(db: Path) -> None:
    proc = cattle("metrics", "--db", str(db), "--tournament", "rr", "--json")
    docs = json.loads(proc.stdout)
    assert sorted(d["agent"] for d in docs) == ["economy", "random", "setrace", "tracker"]
    for d in docs:
        for key in JSON_KEYS:
            assert key in d, key
        for key in JSON_KEYS[5:11]:
            assert 0 <= d[key] <= 1, (key, d[key])
        lo, hi = d["ci"]["win_rate"]
        assert lo <= d["win_rate"] <= hi
    # Seat-games add up to the seats of the tournament, and exactly one win per game.
    assert sum(d["games"] for d in docs) == 4 * GAMES
    assert sum(d["win_rate"] * d["games"] for d in docs) == pytest.approx(GAMES)


def test_styles_show_through(db: Path) -> None:
    docs = json.loads(cattle("metrics", "--db", str(db), "-t", "sample", "--json").stdout)
    bold = next(d for d in docs if d["agent"] == "random-bold")
    shy = next(d for d in docs if d["agent"] == "random-shy")
    # The shy variant accepts more offers and never bids above its money; the bold one does.
    assert shy["tc_accept_rate"] > bold["tc_accept_rate"]
    assert shy["overbid_rate"] == 0 < bold["overbid_rate"]


def test_metrics_selection_and_rebuild(db: Path) -> None:
    everything = json.loads(cattle("metrics", "--db", str(db), "--json").stdout)
    assert sum(d["games"] for d in everything) == 4 * (GAMES + SAMPLE)
    proc = cattle("metrics", "--db", str(db), "--rebuild", "--json")
    assert "rebuilt derived tables" in proc.stderr
    assert json.loads(proc.stdout) == everything, "a rebuild from events gives the same values"


def test_metrics_table(db: Path) -> None:
    proc = cattle("metrics", "--db", str(db), "--tournament", "rr")
    for text in ("tracker", "setrace", "economy", "Bid agg.", "Self-bid", "η", "Overbid"):
        assert text in proc.stdout
    defs = cattle("metrics", "--definitions", "--db", str(db)).stdout
    assert "bluff_rate v1" in defs


def test_unknown_tournament_is_a_usage_error(db: Path) -> None:
    proc = cattle("metrics", "--db", str(db), "--tournament", "nope", check=False)
    assert proc.returncode == 2
    assert "no games in tournament" in proc.stderr


def test_report_and_render_in_chromium(db: Path, tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    cattle("report", "--db", str(db), "--tournament", "rr", "--out", str(out), "--resamples", "200")
    page = out.read_text()
    assert "<script src" not in page and "http" not in page.split("<body>")[0]
    for fig in FIGURE_IDS:
        assert f'id="{fig}-img"' in page, fig
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        pytest.skip("chromium is not installed (.ci/run installs it)")
    flags = [
        chromium,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--hide-scrollbars",
        f"--user-data-dir={tmp_path / 'profile'}",
        "--virtual-time-budget=10000",
    ]
    dom = subprocess.run(
        [*flags, "--dump-dom", out.as_uri()], capture_output=True, text=True, timeout=180
    ).stdout
    assert f'data-figures-loaded="{len(FIGURE_IDS)}"' in dom, "every figure decodes"
    for fig in FIGURE_IDS:
        assert f'id="{fig}"' in dom and f'id="{fig}-img"' in dom, fig
    assert 'id="behaviour-table"' in dom and 'id="ratings-table"' in dom
    assert 'id="llm-empty"' in dom, "no model calls: the section says so"
    png = tmp_path / "report.png"
    subprocess.run(
        [*flags, f"--screenshot={png}", "--window-size=1400,3000", out.as_uri()],
        capture_output=True,
        timeout=180,
    )
    from PIL import Image

    img = Image.open(png).convert("RGB")
    assert img.size == (1400, 3000)
    colours = img.resize((350, 750)).getcolors(maxcolors=1_000_000)
    assert colours is not None and len(colours) > 200, "the page is not blank"


def test_export(db: Path, tmp_path: Path) -> None:
    for fmt, ext in (("parquet", "parquet"), ("jsonl", "jsonl")):
        out = tmp_path / fmt
        cattle("export", "--db", str(db), "--format", fmt, "--out", str(out))
        files = {p.stem for p in out.iterdir()}
        for name in (
            "games",
            "events",
            "bids_detail",
            "trades",
            "auctions",
            "llm_calls",
            "metric_values",
        ):
            assert name in files, (fmt, name)
        reader = "read_parquet" if fmt == "parquet" else "read_json_auto"
        con = duckdb.connect()
        n = con.execute(f"SELECT count(*) FROM {reader}('{out / ('events.' + ext)}')").fetchall()[
            0
        ][0]
        src = duckdb.connect(str(db), read_only=True)
        assert n == src.execute("SELECT count(*) FROM events").fetchall()[0][0]
        src.close()
