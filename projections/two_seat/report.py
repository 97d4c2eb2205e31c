"""The two-seat match section of the HTML report: NRA per game and opponent, the NRA matrix
between agents, completion rates, wins/draws/losses and TrueSkill.

`nra_section` returns one `<section>` (figures embedded as base64 PNG); `build_nra_report`
wraps it in a page of its own with the report's styles. `HOOKS` is what `cattle metrics
--game G` and `cattle report --game G` call for a two-seat game without an analysis of its
own. Agent names and game labels are data: escaped in HTML, plain text in figures (math
parsing off, a leading underscore kept visible).
"""

from __future__ import annotations

import base64
import html
import io
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import duckdb
import numpy as np
from rich.console import RenderableType

from projections.metrics import plots as F
from projections.metrics import tables as T
from projections.metrics.aggregate import Estimate, Selection
from projections.metrics.html import ReportStats, section_page
from projections.two_seat import nra as N

if TYPE_CHECKING:
    import matplotlib.pyplot as plt
    from matplotlib.figure import Figure
else:
    from projections.metrics.plots import plt


#: Figure ids, in page order.
FIGURE_IDS: tuple[str, ...] = ("fig-nra-games", "fig-nra-matrix", "fig-nra-completion")
CHANCE_FIGURE = "fig-nra-games-chance"
"""A second per-game figure, for the games with chance, when the selection holds both kinds
(then "fig-nra-games" shows the deterministic ones: GTBench's Figs. 2 and 3)."""
#: Most opponents drawn as panels of the per-game figure (the tables hold every one).
MAX_PANELS = 6


def label(text: str, width: int = 22) -> str:
    """Data as figure text: shortened, and never hidden from a legend by a leading "_"."""
    t = F.short(text, width)
    return "\u200b" + t if t.startswith("_") else t


def _bounds(e: Estimate) -> tuple[float, float, float]:
    if e.value is None:
        return (np.nan, 0.0, 0.0)
    lo = e.value if e.lo is None else e.lo
    hi = e.value if e.hi is None else e.hi
    return (e.value, max(0.0, e.value - lo), max(0.0, hi - e.value))


def _opponents(a: N.NRAAnalysis, games: Sequence[str]) -> list[str]:
    """Opponents to draw a panel for (in `games`): those faced by the most agents first."""
    faced: dict[str, set[str]] = {}
    for p in a.pairs:
        if p.agent != p.opponent and p.label in games:
            faced.setdefault(p.opponent, set()).add(p.agent)
    return sorted(faced, key=lambda o: (-len(faced[o]), o))[:MAX_PANELS]


def fig_games(a: N.NRAAnalysis, col: dict[str, str], games: Sequence[str] | None = None) -> Figure:
    """One panel per opponent: each agent's NRA against it in every game (of `games`, else
    all), with 95% intervals (GTBench's Figs. 2 and 3 in this harness's rendering)."""
    games = a.labels if games is None else [g for g in a.labels if g in games]
    opps = _opponents(a, games)
    with plt.rc_context({"text.parse_math": False}):
        n = max(1, len(opps))
        width = min(12.0, 1.6 + 0.9 * max(2, len(games)) * min(2, n))
        cols = min(2, n)
        rows = (n + cols - 1) // cols
        fig, axes = plt.subplots(
            rows, cols, figsize=(width, 2.9 * rows), layout="constrained", squeeze=False
        )
        for ax in axes.flat[n:]:
            ax.axis("off")
        if not opps:
            ax = axes.flat[0]
            ax.axis("off")
            ax.text(
                0.5,
                0.5,
                "no match between two different agents",
                ha="center",
                va="center",
                color=F.MUTED,
                transform=ax.transAxes,
            )
            return fig
        by = {(p.label, p.agent, p.opponent): p for p in a.pairs}
        for ax, opp in zip(axes.flat, opps, strict=False):
            # Only the games this opponent played, and only the agents that met it.
            labels = [lab for lab in games if any((lab, g, opp) in by for g in a.agents)]
            x = np.arange(len(labels))
            agents = [
                g for g in a.agents if g != opp and any((lab, g, opp) in by for lab in labels)
            ]
            w = 0.8 / max(1, len(agents))
            for k, agent in enumerate(agents):
                vals = np.array(
                    [
                        _bounds(by[(lab, agent, opp)].nra)
                        if (lab, agent, opp) in by
                        else (np.nan, 0.0, 0.0)
                        for lab in labels
                    ]
                )
                pos = x - 0.4 + w * (k + 0.5)
                ax.bar(pos, vals[:, 0], width=w * 0.92, color=col[agent], label=label(agent))
                ax.errorbar(
                    pos,
                    vals[:, 0],
                    yerr=[vals[:, 1], vals[:, 2]],
                    fmt="none",
                    ecolor=F.INK,
                    capsize=2,
                    lw=0.8,
                )
            ax.axhline(0, color=F.MUTED, lw=0.8)
            ax.set_ylim(-1.08, 1.08)
            ax.set_xticks(x, [label(lab, 16) for lab in labels], rotation=30, ha="right")
            ax.set_ylabel("NRA")
            ax.set_title(f"against {label(opp, 28)}", fontsize=10)
            ax.grid(axis="x", visible=False)
            ax.legend(fontsize=7, loc="best")
        return fig


def fig_matrix(a: N.NRAAnalysis) -> Figure:
    """Heat map of the NRA of each row agent against each column agent, mean over games."""
    agents, m, n = a.matrix()
    with plt.rc_context({"text.parse_math": False}):
        size = 1.6 + 0.55 * len(agents)
        fig, ax = plt.subplots(figsize=(size + 1.2, size), layout="constrained")
        img = ax.imshow(np.ma.masked_invalid(m), cmap="RdBu", vmin=-1, vmax=1)
        for i in range(len(agents)):
            for j in range(len(agents)):
                if i != j and not np.isnan(m[i, j]):
                    ax.text(
                        j,
                        i,
                        f"{m[i, j]:+.2f}\nn={n[i, j]}",
                        ha="center",
                        va="center",
                        fontsize=7,
                        color="white" if abs(m[i, j]) > 0.6 else F.INK,
                    )
        names = [label(g, 16) for g in agents]
        ax.set_xticks(range(len(agents)), names, rotation=40, ha="right")
        ax.set_yticks(range(len(agents)), names)
        ax.grid(False)
        fig.colorbar(img, ax=ax, shrink=0.8, label="NRA of the row agent")
        return fig


def fig_completion(a: N.NRAAnalysis, col: dict[str, str]) -> Figure:
    """Completion rate of each agent in each game, with 95% intervals."""
    with plt.rc_context({"text.parse_math": False}):
        fig, ax = plt.subplots(
            figsize=(min(12.0, 2.0 + 0.8 * len(a.labels) * max(1, len(a.agents)) / 2), 3.0),
            layout="constrained",
        )
        by = {(x.label, x.agent): x for x in a.per_agent}
        xs = np.arange(len(a.labels))
        w = 0.8 / max(1, len(a.agents))
        for k, agent in enumerate(a.agents):
            vals = np.array(
                [
                    _bounds(by[(lab, agent)].completion) if (lab, agent) in by else (np.nan, 0, 0)
                    for lab in a.labels
                ]
            )
            pos = xs - 0.4 + w * (k + 0.5)
            ax.bar(pos, 100 * vals[:, 0], width=w * 0.92, color=col[agent], label=label(agent))
            ax.errorbar(
                pos,
                100 * vals[:, 0],
                yerr=[100 * vals[:, 1], 100 * vals[:, 2]],
                fmt="none",
                ecolor=F.INK,
                capsize=2,
                lw=0.8,
            )
        ax.set_ylim(0, 105)
        ax.set_ylabel("matches without a fallback, %")
        ax.set_xticks(xs, [label(lab, 16) for lab in a.labels], rotation=30, ha="right")
        ax.legend(fontsize=7, loc="lower left")
        ax.grid(axis="x", visible=False)
        return fig


# ---------------------------------------------------------------------------- HTML


def _png(fig: Figure) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", facecolor="white", bbox_inches="tight")
    plt.close(fig)
    return base64.b64encode(buf.getvalue()).decode()


def figure_html(fig_id: str, fig: Figure, caption: str) -> str:
    """A figure as an HTML <figure> with the PNG embedded."""
    return (
        f'<figure id="{fig_id}"><img id="{fig_id}-img" alt="{html.escape(caption)}"'
        f' src="data:image/png;base64,{_png(fig)}"><figcaption>{html.escape(caption)}'
        "</figcaption></figure>"
    )


def _est(e: Estimate, percent: bool = False) -> str:
    if e.value is None:
        return '<span class="ci">–</span>'
    k, unit, d = (100.0, "%", 0) if percent else (1.0, "", 2)
    sign = "" if percent else "+"
    ci = (
        f"{k * e.lo:{sign}.{d}f} – {k * e.hi:{sign}.{d}f}"
        if e.lo is not None and e.hi is not None
        else ""
    )
    return f'{k * e.value:{sign}.{d}f}{unit}<span class="ci">{ci}</span>'


def _table(table_id: str, head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    th = "".join(f"<th>{html.escape(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>" for r in rows)
    return (
        f'<div class="scroll"><table id="{table_id}"><thead><tr>{th}</tr></thead>'
        f"<tbody>{body}</tbody></table></div>"
    )


def _e(text: str) -> str:
    return html.escape(text)


def section_html(a: N.NRAAnalysis) -> str:
    """The section's HTML from an analysis."""
    if not a.matches:
        return (
            '<section id="nra"><h2>Two-seat matches</h2><p class="empty" id="nra-empty">'
            "No finished two-seat games in this selection.</p></section>"
        )
    col = F.colours(a.agents)
    what = (
        "NRA of each agent against one opponent per panel, in every game{}: mean over matches"
        " with its 95% bootstrap interval. +1: won every match outright."
    )
    plain = [g for g in a.labels if g not in a.chance]
    split = bool(plain) and len(plain) < len(a.labels)
    figs = {
        "fig-nra-games": figure_html(
            "fig-nra-games",
            fig_games(a, col, plain if split else None),
            what.format(" without chance (as GTBench's Fig. 2)" if split else ""),
        ),
        "fig-nra-matrix": figure_html(
            "fig-nra-matrix",
            fig_matrix(a),
            "NRA of the row agent against the column agent, mean over the games both played;"
            " n = matches.",
        ),
        "fig-nra-completion": figure_html(
            "fig-nra-completion",
            fig_completion(a, col),
            "Completion rate: share of matches the agent played without a move played in its"
            " place (a fallback); 95% bootstrap intervals.",
        ),
    }
    chance_fig = (
        figure_html(
            CHANCE_FIGURE,
            fig_games(a, col, sorted(a.chance)),
            what.format(" with chance (as GTBench's Fig. 3)"),
        )
        if split
        else ""
    )
    pairs = _table(
        "nra-pairs",
        ("game", "agent", "opponent", "matches", "first", "NRA (95% interval)", "W/D/L"),
        [
            (
                _e(p.label),
                _e(p.agent),
                _e(p.opponent),
                str(p.matches),
                str(p.first),
                _est(p.nra),
                p.record.text(),
            )
            for p in (*a.pairs, *(a.overall_pairs if len(a.labels) > 1 else ()))
            if p.agent != p.opponent
        ],
    )
    agents = _table(
        "nra-agents",
        ("game", "agent", "matches", "NRA (95% interval)", "W/D/L", "completion rate"),
        [
            (
                _e(x.label),
                _e(x.agent),
                str(x.matches),
                _est(x.nra),
                x.record.text(),
                _est(x.completion, percent=True),
            )
            for x in (*a.per_agent, *(a.overall_agents if len(a.labels) > 1 else ()))
        ],
    )
    ts = _table(
        "nra-trueskill",
        ("agent", "μ", "σ", "μ − 3σ", "seats", "first place"),
        [
            (
                _e(r.agent),
                f"{r.mu:.2f}",
                f"{r.sigma:.2f}",
                f"{r.conservative:.2f}",
                str(r.games),
                f"{100 * r.win_rate:.0f}%",
            )
            for r in a.ratings
        ],
    )
    defs = "".join(
        f"<li><b>{_e(name)}</b> v{version}: {_e(text)}</li>"
        for name, version, text in N.DEFINITIONS
    )
    skipped = f" {a.skipped} game(s) without exactly two seats are left out." if a.skipped else ""
    return f"""<section id="nra"><h2>Two-seat matches: NRA</h2>
<p class="lead">{a.matches:,} matches in {len(a.labels)} game(s), {len(a.agents)} agents.
Intervals are 95% bootstrap intervals from {a.resamples:,} resamples of matches.{skipped}</p>
<div class="stack">{figs["fig-nra-games"]}{chance_fig}</div>
<div class="grid">{figs["fig-nra-matrix"]}{figs["fig-nra-completion"]}</div>
<h3 style="font-size:14px;margin:18px 0 6px">NRA per game and opponent</h3>
{pairs}
<h3 style="font-size:14px;margin:18px 0 6px">Per game, against every other agent</h3>
{agents}
<h3 style="font-size:14px;margin:18px 0 6px">TrueSkill over every match of every game</h3>
{ts}
<h3 style="font-size:14px;margin:18px 0 6px">Definitions</h3><ul>{defs}</ul></section>"""


@dataclass
class NRASection:
    """The section's HTML, the analysis behind it and how long it took."""

    html: str
    analysis: N.NRAAnalysis
    seconds: float


def nra_section(
    con: duckdb.DuckDBPyConnection, sel: Selection, resamples: int = N.RESAMPLES
) -> NRASection:
    """The two-seat section of the report for a selection of games."""
    t0 = time.perf_counter()
    a = N.nra_analysis(con, sel, resamples=resamples)
    return NRASection(section_html(a), a, time.perf_counter() - t0)


def build_nra_report(
    con: duckdb.DuckDBPyConnection,
    sel: Selection,
    title: str = "Two-seat matches",
    resamples: int = N.RESAMPLES,
) -> tuple[str, ReportStats]:
    """A page of its own holding the two-seat section (the report's styles, nothing fetched)."""
    t0 = time.perf_counter()
    section = nra_section(con, sel, resamples=resamples)
    page = section_page(title, section.html)
    stats = ReportStats(
        games=section.analysis.matches,
        agents=len(section.analysis.agents),
        seconds=time.perf_counter() - t0,
        bytes=len(page.encode()),
    )
    return page, stats


class NRAAnalysisHooks(T.TableHooks):
    """The two-seat analysis as the generic commands reach it (`cattle metrics --game G`,
    `cattle report --game G`) for a game without an analysis of its own."""

    max_resamples = N.MAX_RESAMPLES

    def definitions(self) -> list[tuple[str, int, str]]:
        """(name, version, definition) of every metric."""
        return list(N.DEFINITIONS)

    def metrics_json(self, con: duckdb.DuckDBPyConnection, sel: Selection, resamples: int) -> Any:
        """Every table as JSON."""
        return N.analysis_json(N.nra_analysis(con, sel, resamples=resamples))

    def metrics_tables(
        self,
        con: duckdb.DuckDBPyConnection,
        sel: Selection,
        resamples: int,
        width: int,
        label: Callable[[str], str],
    ) -> list[RenderableType]:
        """Every table as rich tables that fit `width` ([] without matches)."""
        a = N.nra_analysis(con, sel, resamples=resamples)
        return N.render_tables(a, width=width, label=label)

    def report(
        self, con: duckdb.DuckDBPyConnection, sel: Selection, title: str, resamples: int
    ) -> tuple[str, ReportStats]:
        """A self-contained HTML page with the two-seat section."""
        return build_nra_report(con, sel, title=title, resamples=resamples)


HOOKS = NRAAnalysisHooks()
"""The two-seat analysis hooks."""
