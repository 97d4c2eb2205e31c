"""docs/pact_metrics.md names every PACT definition with its current version."""

from __future__ import annotations

import re
from pathlib import Path

from projections.pact import metrics as P

DOC = (Path(__file__).parents[2] / "docs" / "pact_metrics.md").read_text()


def test_every_ratio_metric_is_in_the_table_with_its_version() -> None:
    for m in P.definitions():
        if m.sql is None:
            continue
        row = re.search(rf"^\| `{m.name}` \| (\d+) \|", DOC, flags=re.M)
        assert row is not None, m.name
        assert int(row.group(1)) == m.version, m.name


def test_composite_measures_have_a_section_with_their_version() -> None:
    for name, heading in (
        ("obs", "Opponent-balanced share (OBS)"),
        ("cms", "Composite Model Score (CMS)"),
        ("glicko2", "Glicko-2 leaderboard"),
    ):
        assert f"## {heading}, version {P.REGISTRY[name].version}" in DOC


def test_the_alpha_grid_and_the_figures_are_documented() -> None:
    assert "0, 0.05, ..., 1 (21 weights)" in DOC and len(P.ALPHA_GRID) == 21
    from projections.pact.report import FIGURE_IDS

    for fig in FIGURE_IDS:
        assert f"`{fig}`" in DOC, fig
