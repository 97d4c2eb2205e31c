"""Every figure of the paper in the report, rendered in headless Chromium, on a store of mixed
games in which two model agents (served by the loopback server, some answers truncated or
malformed) and a random agent each face the code-agent compositions C1-C7."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pytest
from figure_recompute import cross_check
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.llm.loopback import Answer, FaultPolicy, Incoming, LegalPolicy, LoopbackServer
from events.store import DuckStore
from projections.cattle.metrics import figures as F
from projections.cattle.metrics.report import FIGURE_IDS, PAPER_FIGURES
from projections.metrics.aggregate import Estimate

GAMES = 21
MODEL_PANELS = ("fig-tokens", "fig-truncation", "fig-set-cost", "fig-composition")


def cattle(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(
        [sys.executable, "-c", "from cli.main import run; run()", *args],
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
    )
    assert proc.returncode == 0, proc.stderr
    return proc


class ByModel:
    """Answers each request with the policy of the model it names, so two model agents on one
    server play differently (and their polygons do not hide each other)."""

    def __init__(self, policies: dict[str, FaultPolicy | LegalPolicy]) -> None:
        self.policies = policies

    def __call__(self, req: Incoming) -> Answer:
        return self.policies[str(req.body.get("model"))](req)


@pytest.fixture(scope="module")
def model_db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, str]]]:
    """A mixed tournament: openai:m1, anthropic:m2 and random against C1-C7, 7 games each."""
    tmp = tmp_path_factory.mktemp("figs")
    config = tmp / "llm.toml"
    config.write_text("")
    prices = tmp / "prices.json"
    prices.write_text(
        json.dumps(
            {
                "openai:m1": {"input": 0.1, "output": 0.4},
                "anthropic:m2": {"input": 1.0, "output": 5.0},
            }
        )
    )
    env = {
        **os.environ,
        "COLUMNS": "200",
        "OPENAI_API_KEY": "sk-test-figures",
        "ANTHROPIC_API_KEY": "sk-ant-test-figures",
        "CATTLE_LLM_BACKOFF": "0.001",
        "CATTLE_LLM_CONFIG": str(config),
        "CATTLE_PRICES": str(prices),
    }
    for var in ("OPENAI_BASE_URL", "ANTHROPIC_BASE_URL"):
        env.pop(var, None)
    faults = [("any", "truncated")] * 8 + [("bid", "prose")] * 4
    db = tmp / "mixed.duckdb"
    policy = ByModel(
        {
            "m1": FaultPolicy(LegalPolicy(), faults),
            "m2": LegalPolicy(seed=7, trade_bias=0.6),
        }
    )
    with LoopbackServer(policy) as srv:
        agents = f"openai:m1@{srv.openai_url},anthropic:m2@{srv.url},random"
        cattle(
            env,
            "tournament",
            "--format",
            "mixed",
            "--agents",
            agents,
            "--games",
            str(GAMES),
            "--seed",
            "11",
            "--workers",
            "2",  # the cores CI has; more processes only add their start-up
            "--quiet",
            "--name",
            "mixed",
            "--db",
            str(db),
        )
    yield db, env


def test_model_store_equals_the_recomputation(model_db: tuple[Path, dict[str, str]]) -> None:
    from projections.cattle.metrics.build import rebuild

    db, _ = model_db
    with DuckStore(db) as store:
        rebuild(store.con)
        truncated = store.con.execute(
            "SELECT sum(num) FROM metric_values WHERE metric = 'llm_truncation_rate'"
        ).fetchall()[0][0]
        assert truncated and truncated > 0, "the loopback server truncated some answers"
        assert cross_check(store) > 1000


def test_report_renders_every_paper_figure(
    model_db: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    db, env = model_db
    out = tmp_path / "report.html"
    cattle(env, "report", "--db", str(db), "--out", str(out), "--resamples", "200")
    page = out.read_text()
    for fig in FIGURE_IDS:
        assert f'id="{fig}-img"' in page, fig
    # Every figure of the paper maps to something on the page.
    assert set(PAPER_FIGURES) == {
        "Fig. 1b",
        "Fig. 2",
        "Fig. 3a",
        "Fig. 3b",
        "Fig. 4",
        "Fig. 5",
        "Fig. 6",
        "Fig. 7",
        "Fig. 8",
        "Fig. 9",
        "Fig. 10",
    }
    for fids in PAPER_FIGURES.values():
        for fid in fids:
            assert f'id="{fid}"' in page, fid
    # With model games every panel has data, the model-dependent ones included.
    empty = re.findall(r'<figure id="([\w-]+)" data-empty="true"', page)
    assert not empty, empty
    # Fig. 1b: median ± std of the score per agent, recomputed here from the scores view.
    with DuckStore(db, read_only=True) as store:
        rows = store.con.execute("SELECT agent, list(score) FROM scores GROUP BY agent").fetchall()
    for agent, scores in rows:
        spread = f"{np.median(scores):,.0f} ± {np.std(scores):,.0f}"
        assert spread in page, (agent, spread)

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
    assert 'id="llm-table"' in dom and 'id="paper-map-table"' in dom
    png = tmp_path / "report.png"
    subprocess.run(
        [*flags, f"--screenshot={png}", "--window-size=1400,12000", out.as_uri()],
        capture_output=True,
        timeout=180,
    )
    from PIL import Image

    keep = os.environ.get("CATTLE_REPORT_SHOTS")
    if keep:
        # For a person to look at: the report and its screenshot, kept after the test.
        Path(keep).mkdir(parents=True, exist_ok=True)
        shutil.copy(out, Path(keep) / "report.html")
        shutil.copy(png, Path(keep) / "report.png")
    img = Image.open(png).convert("RGB")
    assert img.size == (1400, 12000)
    # The whole page is drawn, down to the last figures: no blank stretch of a screen height.
    small = np.asarray(img.resize((140, 1200)))
    for top in range(0, 1200 - 90, 90):
        band = small[top : top + 90]
        assert band.std() > 3, f"blank band at {top * 10}px"


# ---------------------------------------------------------------------------- figure units


def legend_texts(fig: plt.Figure) -> list[str]:
    legends = [*fig.legends, *(ax.get_legend() for ax in fig.axes)]
    return [t.get_text() for lg in legends if lg is not None for t in lg.get_texts()]


def test_agents_named_with_an_underscore_keep_their_legend_entry() -> None:
    agents = ["_under", "plain", "__twice"]
    col = F.colours(agents)
    band = F.Band(np.arange(3), np.ones(3), np.zeros(3), np.full(3, 2.0), 3)
    est = {a: {"0": Estimate(0.5, 0.4, 0.6), "1": Estimate(0.7, 0.6, 0.8)} for a in agents}
    norm = {a: [0.5] * len(F.RADAR_AXES) for a in agents}
    comps = {a: {"C1": 0.2 * i, "C2": 0.5, "C3": 0.1 * i} for i, a in enumerate(agents)}
    figs = [
        F.fig_bands({a: band for a in agents}, col, "t", "y", "", code={"plain"}),
        F.fig_phase(est, agents, col, code={"plain"}),
        F.fig_radar(norm, col, code={"plain"}),
        F.fig_composition_radar(comps, ["C1", "C2", "C3"], col),
        F.fig_accept_by_size(
            {(a, str(k)): (0.5, 9.0) for a in agents for k in range(3)}, agents, col
        ),
    ]
    for fig in figs:
        assert sorted(legend_texts(fig)) == sorted(agents)
        plt.close(fig)


def test_code_agents_are_dashed_with_squares() -> None:
    agents = ["model", "tracker"]
    col = F.colours(agents)
    est = {a: {"0": Estimate(0.5, 0.4, 0.6)} for a in agents}
    fig = F.fig_phase(est, agents, col, code={"tracker"})
    lines = [ln for ln in fig.axes[0].get_lines() if np.asarray(ln.get_xdata()).size]
    styles = {(ln.get_color(), ln.get_linestyle(), ln.get_marker()) for ln in lines}
    assert (col["tracker"], "--", "s") in styles
    assert (col["model"], "-", "o") in styles
    plt.close(fig)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.floats(1, 2_000), min_size=6, max_size=40),
    st.floats(50, 1_000),
)
def test_one_outlier_cannot_flatten_the_cost_colour_scale(
    cells: list[float], factor: float
) -> None:
    """With one cell far above the rest, the colour scale still spans the other cells."""
    values = np.array([*cells, max(cells) * factor])
    lo, hi = F.robust_limits(values)
    assert lo == min(cells)
    # (Equal cells get a scale one coin wide.)
    assert hi is not None and hi <= max(max(cells), lo + 1)
    # The scale reaches at least the upper quartile of the ordinary cells.
    assert hi >= np.percentile(cells, 75)
    grid = values.reshape(1, -1)
    fig = F.fig_heatmap(
        ["a"], [str(i) for i in range(len(values))], grid, None, "t", ".0f", "YlOrRd", robust=True
    )
    (im,) = fig.axes[0].get_images()
    assert im.norm.vmax == pytest.approx(hi)
    plt.close(fig)


def test_robust_limits_keep_every_cell_without_outliers() -> None:
    values = np.array([[600.0, 700.0], [650.0, np.nan], [720.0, 690.0]])
    assert F.robust_limits(values) == (600.0, 720.0)
    assert F.robust_limits(np.array([np.nan])) == (None, None)
