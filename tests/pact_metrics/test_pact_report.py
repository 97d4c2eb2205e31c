"""The PACT report section and terminal table: hostile agent names, empty selections, and a
render of the page in headless Chromium."""

from __future__ import annotations

import dataclasses
import json
import shutil
import subprocess
from pathlib import Path

import duckdb
import matplotlib.pyplot as plt
import pact_synth as S
import pytest

from projections.metrics.aggregate import Selection
from projections.pact import metrics as P
from projections.pact import report as R

HOSTILE = (
    "[/]",
    "$x$",
    "$\\frac{",
    "<script>alert(1)</script>",
    "_hidden",
    "[bold red]loud[/bold red] & co",
    "a-very-long-agent-name:with/provider@model-2025-08-21-extended",
)


@pytest.fixture(scope="module")
def hostile_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store whose agents have names that are markup, math, HTML and legend-hiding text."""
    styles = [dataclasses.replace(s, name=n) for s, n in zip(S.STYLES * 2, HOSTILE, strict=False)]
    return S.write(
        tmp_path_factory.mktemp("hostile") / "h.duckdb", S.round_robin(styles, deals=2, seed=8)
    )


def test_section_renders_with_hostile_names(
    hostile_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Even with math parsing switched on globally, names print as written.
    monkeypatch.setitem(plt.rcParams, "text.parse_math", True)
    con = duckdb.connect(str(hostile_db), read_only=True)
    try:
        page, stats = R.build_pact_report(con, resamples=60, title="<b>PACT</b> $y$")
    finally:
        con.close()
    assert stats.agents == len(HOSTILE) and stats.games == 2 * 21 * 2
    for fig in R.FIGURE_IDS:
        assert f'id="{fig}-img"' in page, fig
    assert "<script>alert" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<b>PACT</b>" not in page and "&lt;b&gt;PACT&lt;/b&gt; $y$" in page
    assert page.count("[bold red]loud[/bold red] &amp; co") >= 2  # scoreboard and Glicko tables


def test_figure_labels_are_plain_text(hostile_db: Path) -> None:
    con = duckdb.connect(str(hostile_db), read_only=True)
    try:
        data = P.load(con)
    finally:
        con.close()
    a = P.analyse(data, resamples=40)
    fig = R.fig_by_round(a.agents, R.F.colours([p.agent for p in a.agents]))
    legend = fig.legends[0]
    texts = [t.get_text() for t in legend.get_texts()]
    assert "\u200b_hidden" in texts, "a leading underscore does not hide an agent"
    assert all(not t.get_parse_math() for t in legend.get_texts())
    assert len(texts) == len(HOSTILE)
    plt.close(fig)


def test_empty_selection(hostile_db: Path) -> None:
    con = duckdb.connect(str(hostile_db), read_only=True)
    try:
        section = R.pact_section(con, Selection(tournament="none"), resamples=20)
    finally:
        con.close()
    assert 'id="pact-empty"' in section.html
    assert section.analysis.games == 0 and section.analysis.agents == []


def test_terminal_table_fits_80_columns(hostile_db: Path) -> None:
    con = duckdb.connect(str(hostile_db), read_only=True)
    try:
        a = P.pact_analysis(con, resamples=40)
    finally:
        con.close()
    table = P.metric_table(a)
    lines = P.render_table(table)
    assert lines and max(len(x) for x in lines) <= 80
    text = "\n".join(lines)
    for agent in HOSTILE:
        assert agent[:10] in text, agent
    for header in table.headers:
        assert header in text
    assert len(table.rows) == len(HOSTILE)
    narrow = P.render_table(table, width=50)
    assert max(len(x) for x in narrow) <= 50
    # The JSON form is plain data.
    doc = json.loads(json.dumps(P.analysis_json(a)))
    assert doc["alpha"] in P.ALPHA_GRID and len(doc["agents"]) == len(HOSTILE)
    assert {"cms", "obs", "surplus_share", "ci"} <= set(doc["agents"][0])


def test_page_renders_in_chromium(tmp_path: Path, hostile_db: Path) -> None:
    con = duckdb.connect(str(hostile_db), read_only=True)
    try:
        page, _ = R.build_pact_report(con, resamples=60)
    finally:
        con.close()
    out = tmp_path / "pact.html"
    out.write_text(page, encoding="utf-8")
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
    assert f'data-figures-loaded="{len(R.FIGURE_IDS)}"' in dom, "every figure decodes"
    assert 'id="pact-scoreboard"' in dom and 'id="pact-glicko"' in dom and 'id="pact-alpha"' in dom
