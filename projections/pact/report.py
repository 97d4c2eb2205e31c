"""The PACT section of the HTML report: scoreboard, head-to-head matrix, profit and offset
figures, the CMS weight and the Glicko-2 leaderboard.

`pact_section` returns one `<section>` (figures embedded as base64 PNG, tables, definitions)
to place in a report page; `build_pact_report` wraps it in a page of its own with the report's
styles. Agent names are data: in HTML they are escaped, in figures they are plain text (math
parsing is off and a leading underscore, which matplotlib reads as "leave out of the legend",
is kept visible).
"""

from __future__ import annotations

import base64
import functools
import html
import io
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ParamSpec

import duckdb
import numpy as np

from projections.metrics import plots as F
from projections.metrics import tables as T
from projections.metrics.aggregate import AgentProfile, Estimate, Selection, seed_for
from projections.metrics.html import ReportStats, section_page
from projections.pact import metrics as P

if TYPE_CHECKING:
    import matplotlib.pyplot as plt
    from matplotlib.figure import Figure
else:
    from projections.metrics.plots import plt


#: Figure ids, in page order.
FIGURE_IDS: tuple[str, ...] = (
    "fig-pact-cms",
    "fig-pact-h2h",
    "fig-pact-profit-strip",
    "fig-pact-by-round",
    "fig-pact-offsets",
    "fig-pact-glicko",
    "fig-pact-alpha",
)

#: Points drawn per agent in a strip plot (a seeded sample beyond that keeps files small).
STRIP_POINTS = 1500

_P = ParamSpec("_P")


def _plain_text(fn: Callable[_P, Figure]) -> Callable[_P, Figure]:
    """Build the figure with math parsing off, whatever the global setting: a "$" in an agent
    name is printed as written (Text objects read the setting when they are created)."""

    @functools.wraps(fn)
    def wrap(*args: _P.args, **kwargs: _P.kwargs) -> Figure:
        with plt.rc_context({"text.parse_math": False}):
            return fn(*args, **kwargs)

    return wrap


def label(agent: str, width: int = 22) -> str:
    """An agent as figure text: shortened, and never hidden from a legend by a leading "_"."""
    text = F.short(agent, width)
    return "\u200b" + text if text.startswith("_") else text


def _fig(w: float, h: float) -> tuple[Figure, plt.Axes]:
    fig, ax = plt.subplots(figsize=(w, h), layout="constrained")
    return fig, ax


def _empty(fig: Figure, ax: plt.Axes, text: str) -> Figure:
    ax.axis("off")
    ax.text(0.5, 0.5, text, ha="center", va="center", color=F.MUTED, transform=ax.transAxes)
    return fig


def _value(est: Estimate | None, scale: float = 1.0) -> tuple[float, float, float]:
    if est is None or est.value is None:
        return (np.nan, np.nan, np.nan)
    v = scale * est.value
    lo = scale * est.lo if est.lo is not None else v
    hi = scale * est.hi if est.hi is not None else v
    return (v, lo, hi)


# ---------------------------------------------------------------------------- figures


@_plain_text
def fig_cms(analysis: P.PactAnalysis, col: dict[str, str]) -> Figure:
    """CMS per agent (percent of the surplus) with its 95% bootstrap interval, best on top."""
    profs = [p for p in analysis.agents if p.metrics["cms"].value is not None]
    fig, ax = _fig(5.8, 0.6 + 0.42 * max(3, len(profs)))
    if not profs:
        return _empty(fig, ax, "no traded surplus between different agents")
    order = list(reversed(profs))
    y = np.arange(len(order))
    vals = np.array([_value(p.metrics["cms"], 100) for p in order])
    ax.barh(y, vals[:, 0], color=[col[p.agent] for p in order], alpha=0.85, height=0.6)
    ax.errorbar(
        vals[:, 0],
        y,
        xerr=[vals[:, 0] - vals[:, 1], vals[:, 2] - vals[:, 0]],
        fmt="none",
        ecolor=F.INK,
        capsize=3,
        lw=1,
    )
    for yi, (v, _lo, hi) in zip(y, vals, strict=True):
        ax.text(hi + 0.8, float(yi), f"{v:.1f}", va="center", fontsize=8, color=F.INK)
    ax.axvline(50, color=F.MUTED, ls="--", lw=1)
    ax.set_yticks(y, [label(p.agent) for p in order])
    ax.set_xlabel(f"CMS, % of the surplus  (α = {analysis.alpha.alpha:.2f}; bars: 95% interval)")
    ax.set_title("Composite Model Score")
    ax.grid(axis="y", visible=False)
    return fig


def h2h_matrix(analysis: P.PactAnalysis, agents: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """Row-minus-column surplus-share difference in percentage points, and games per cell.

    Both shares of a match-up cover the same traded rounds, so the difference is
    2 · share(row against column) - 1.
    """
    n = len(agents)
    vals = np.full((n, n), np.nan)
    counts = np.zeros((n, n))
    for i, a in enumerate(agents):
        for j, b in enumerate(agents):
            cell = analysis.h2h.get((a, b))
            back = analysis.h2h.get((b, a))
            if cell is None:
                continue
            counts[i, j] = cell[1]
            if cell[0].value is not None and back is not None and back[0].value is not None:
                vals[i, j] = 100 * (cell[0].value - back[0].value)
    return vals, counts


@_plain_text
def fig_h2h(analysis: P.PactAnalysis, agents: Sequence[str]) -> Figure:
    """Head-to-head surplus-share difference, row against column."""
    vals, counts = h2h_matrix(analysis, agents)
    finite = vals[np.isfinite(vals)]
    lim = max(10.0, float(np.abs(finite).max())) if len(finite) else 10.0
    return F.fig_heatmap(
        [label(a) for a in agents],
        [label(a, 14) for a in agents],
        vals,
        counts,
        "Head-to-head: row − column share (points)",
        "+.0f",
        "RdBu",
        xlabel="opponent",
        vmin=-lim,
        vmax=lim,
    )


def profit_per_game(data: P.PactData) -> dict[str, np.ndarray]:
    """Per agent, its mean profit per round in each game seat it played."""
    sr = data.seat_rounds
    key = sr["game"] * 2 + sr["buyer"].astype(np.int64)
    out: dict[str, np.ndarray] = {}
    for i, agent in enumerate(data.agents):
        mask = sr["agent"] == i
        if not mask.any():
            continue
        k = key[mask]
        uniq, inv = np.unique(k, return_inverse=True)
        sums = np.bincount(inv, weights=sr["profit"][mask], minlength=len(uniq))
        cnt = np.bincount(inv, minlength=len(uniq))
        out[agent] = sums / cnt
    return out


def _strip(
    ax: plt.Axes,
    data: dict[str, np.ndarray],
    order: Sequence[str],
    col: dict[str, str],
    tag: str,
) -> None:
    """Jittered points per agent (one row each) with the median and quartiles marked."""
    for yi, agent in enumerate(order):
        x = data.get(agent)
        if x is None or not len(x):
            continue
        rng = np.random.default_rng(seed_for(agent, "pact-strip", tag))
        shown = x if len(x) <= STRIP_POINTS else rng.choice(x, STRIP_POINTS, replace=False)
        jitter = rng.uniform(-0.28, 0.28, len(shown))
        ax.scatter(shown, yi + jitter, s=6, color=col[agent], alpha=0.35, lw=0, rasterized=True)
        q1, med, q3 = np.percentile(x, [25, 50, 75])
        ax.plot([q1, q3], [yi, yi], color=F.INK, lw=2.2, solid_capstyle="butt")
        ax.plot([med], [yi], marker="|", color="white", ms=9, mew=2)
        ax.plot([float(np.mean(x))], [yi], marker="D", color=F.INK, ms=3.5)
    ax.set_yticks(range(len(order)), [label(a) for a in order])
    ax.set_ylim(-0.6, len(order) - 0.4)
    ax.grid(axis="y", visible=False)


@_plain_text
def fig_profit_strip(data: P.PactData, agents: Sequence[str], col: dict[str, str]) -> Figure:
    """Mean profit per round of each seat-game, one row of points per agent."""
    values = profit_per_game(data)
    order = [a for a in reversed(agents) if a in values]
    fig, ax = _fig(5.8, 0.7 + 0.45 * max(3, len(order)))
    if not order:
        return _empty(fig, ax, "no games")
    _strip(ax, values, order, col, "profit")
    ax.set_xlabel("profit per round in one game (points; bar: quartiles, ◆ mean)")
    ax.set_title("Per-round profit distribution")
    return fig


BY_ROUND_PANELS: tuple[tuple[str, str, float], ...] = (
    ("profit_by_round", "Mean profit (points)", 1.0),
    ("bid_offset_by_round", "Mean bid offset (points)", 1.0),
    ("trade_offset_by_round", "Mean trade offset (points)", 1.0),
    ("trade_rate_by_round", "Trade frequency (%)", 100.0),
)


@_plain_text
def fig_by_round(profs: Sequence[AgentProfile], col: dict[str, str]) -> Figure:
    """Mean profit, bid offset, trade offset and trade frequency by round, with 95% bands."""
    fig, axes = plt.subplots(2, 2, figsize=(11, 6.6), layout="constrained", sharex=True)
    drawn = False
    for ax, (name, title, scale) in zip(axes.flat, BY_ROUND_PANELS, strict=True):
        for p in profs:
            by = p.keyed.get(name, {})
            pts = sorted((int(k), *_value(e, scale)) for k, e in by.items() if e.value is not None)
            if not pts:
                continue
            arr = np.array(pts, dtype=float)
            ax.plot(arr[:, 0], arr[:, 1], color=col[p.agent], lw=1.7, label=label(p.agent))
            ax.fill_between(arr[:, 0], arr[:, 2], arr[:, 3], color=col[p.agent], alpha=0.13, lw=0)
            drawn = True
        ax.set_title(title)
        if "offset" in name:
            ax.axhline(0, color=F.MUTED, lw=0.8)
    for ax in axes[1]:
        ax.set_xlabel("round")
        from matplotlib.ticker import MaxNLocator

        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    if not drawn:
        for ax in axes.flat:
            ax.axis("off")
        axes[0, 0].text(0.5, 0.5, "no rounds", transform=axes[0, 0].transAxes, color=F.MUTED)
        return fig
    handles, labels = axes[0, 0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncols=min(6, max(1, len(labels))))
    return fig


def offsets(data: P.PactData) -> tuple[dict[str, np.ndarray], ...]:
    """Per agent: every quote's offset, the offsets of traded rounds, and each seat-game's
    mean offset."""
    sr = data.seat_rounds
    every: dict[str, np.ndarray] = {}
    traded: dict[str, np.ndarray] = {}
    per_game: dict[str, np.ndarray] = {}
    key = sr["game"] * 2 + sr["buyer"].astype(np.int64)
    for i, agent in enumerate(data.agents):
        mask = (sr["agent"] == i) & np.isfinite(sr["offset"])
        if not mask.any():
            continue
        every[agent] = sr["offset"][mask]
        traded[agent] = sr["offset"][mask & sr["traded"]]
        inv = np.unique(key[mask], return_inverse=True)[1]
        per_game[agent] = np.bincount(inv, weights=sr["offset"][mask]) / np.bincount(inv)
    return every, traded, per_game


@_plain_text
def fig_offsets(data: P.PactData, agents: Sequence[str], col: dict[str, str]) -> Figure:
    """Offset distributions: mean per game, every quote, traded rounds only."""
    every, traded, per_game = offsets(data)
    order = [a for a in reversed(agents) if a in every]
    fig, axes = plt.subplots(
        1, 3, figsize=(12, 0.9 + 0.45 * max(3, len(order))), layout="constrained", sharey=True
    )
    if not order:
        for ax in axes:
            ax.axis("off")
        axes[1].text(0.5, 0.5, "no quotes", ha="center", transform=axes[1].transAxes)
        return fig
    for ax, values, title, tag in (
        (axes[0], per_game, "Mean bid offset per game", "game"),
        (axes[1], every, "Every quote", "all"),
        (axes[2], traded, "Traded rounds", "traded"),
    ):
        _strip(ax, values, order, col, tag)
        ax.axvline(0, color=F.MUTED, lw=0.8)
        ax.set_title(title)
        ax.set_xlabel("offset (points; + shades toward own gain)")
    return fig


@_plain_text
def fig_glicko(rows: Sequence[P.GlickoRow], col: dict[str, str]) -> Figure:
    """Glicko-2 rating per agent with ±2 RD, labelled with games and profit per round."""
    rated = [r for r in rows if r.games]
    fig, ax = _fig(5.8, 0.6 + 0.42 * max(3, len(rated)))
    if not rated:
        return _empty(fig, ax, "no games between different agents")
    order = list(reversed(rated))
    y = np.arange(len(order))
    ratings = np.array([r.rating for r in order])
    rds = np.array([r.rd for r in order])
    left = float(min(ratings - 2 * rds)) - 40
    ax.barh(
        y,
        ratings - left,
        left=left,
        color=[col[r.agent] for r in order],
        alpha=0.85,
        height=0.6,
    )
    ax.errorbar(ratings, y, xerr=2 * rds, fmt="none", ecolor=F.INK, capsize=3, lw=1)
    for yi, r in zip(y, order, strict=True):
        ax.text(
            r.rating + 2 * r.rd + 6,
            float(yi),
            f"{r.games} games · {r.profit_per_round:.1f}/round",
            va="center",
            fontsize=7.5,
            color=F.MUTED,
        )
    ax.set_xlim(left, float(max(ratings + 2 * rds)) + 170)
    ax.set_yticks(y, [label(r.agent) for r in order])
    ax.set_xlabel("Glicko-2 rating  (bars: ±2 RD)")
    ax.set_title("Glicko-2 leaderboard")
    ax.grid(axis="y", visible=False)
    return fig


@_plain_text
def fig_alpha(choice: P.AlphaChoice) -> Figure:
    """Ordering stability (±2 standard errors) and head-to-head agreement for each α."""
    fig, ax = _fig(5.8, 3.6)
    if not choice.scores:
        return _empty(fig, ax, "no weights scored")
    a = np.array([s.alpha for s in choice.scores])
    stab = np.array([s.stability for s in choice.scores])
    se = np.array([s.stability_se for s in choice.scores])
    agree = np.array([s.agreement for s in choice.scores])
    cand = np.array([s.candidate for s in choice.scores])
    ax.errorbar(a, stab, yerr=2 * se, color=F.PALETTE[0], lw=1.6, capsize=2, label="stability")
    ax.scatter(a[cand], stab[cand], color=F.PALETTE[0], s=22, zorder=3, label="candidates")
    ax.plot(a, agree, color=F.PALETTE[3], lw=1.4, ls="--", label="h2h agreement")
    ax.axvline(choice.alpha, color=F.INK, lw=1)
    ax.text(choice.alpha, 1.0, f" α = {choice.alpha:.2f}", va="top", fontsize=8, color=F.INK,
            transform=ax.get_xaxis_transform())  # fmt: skip
    ax.set_xlabel("α (0: surplus share only, 1: OBS only)")
    ax.set_ylabel("mean Kendall τ-b / share of match-ups")
    ax.set_title("Choosing the CMS weight")
    ax.legend(loc="lower left")
    return fig


# ---------------------------------------------------------------------------- HTML


def _png(fig: Figure) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", facecolor="white")
    plt.close(fig)
    return base64.b64encode(buf.getvalue()).decode()


def figure_html(fig_id: str, fig: Figure, caption: str) -> str:
    """A figure as an HTML <figure> with the PNG embedded."""
    return (
        f'<figure id="{fig_id}"><img id="{fig_id}-img" alt="{html.escape(caption)}"'
        f' src="data:image/png;base64,{_png(fig)}"><figcaption>{html.escape(caption)}'
        "</figcaption></figure>"
    )


def _fmt(est: Estimate | None, percent: bool, digits: int = 1) -> str:
    if est is None or est.value is None:
        return '<span class="ci">–</span>'
    k = 100.0 if percent else 1.0
    unit = "%" if percent else ""
    ci = (
        f"{k * est.lo:.{digits}f} – {k * est.hi:.{digits}f}"
        if est.lo is not None and est.hi is not None
        else ""
    )
    return f'{k * est.value:.{digits}f}{unit}<span class="ci">{ci}</span>'


def _agent(agent: str, col: dict[str, str]) -> str:
    return f'<span class="swatch" style="background:{col[agent]}"></span>{html.escape(agent)}'


def _table(table_id: str, head: Sequence[str], rows: Sequence[str]) -> str:
    th = "".join(f"<th class='name'>{h}</th>" if h == "agent" else f"<th>{h}</th>" for h in head)
    return (
        f'<div class="scroll"><table id="{table_id}"><thead><tr>{th}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>"
    )


def scoreboard_html(analysis: P.PactAnalysis, col: dict[str, str]) -> str:
    """The CMS scoreboard with every per-agent metric and its interval."""
    rows = []
    for i, p in enumerate(analysis.agents, 1):
        m = p.metrics
        role = p.keyed.get("profit_per_round_role", {})
        rows.append(
            f"<tr><td>{i}</td><td class='name'>{_agent(p.agent, col)}</td>"
            f"<td><b>{_fmt(m['cms'], True)}</b></td><td>{_fmt(m['obs'], True)}</td>"
            f"<td>{_fmt(m['surplus_share'], True)}</td><td>{_fmt(m['profit_per_round'], False)}</td>"
            f"<td>{_fmt(role.get('buyer'), False)}</td><td>{_fmt(role.get('seller'), False)}</td>"
            f"<td>{_fmt(m['trade_rate'], True)}</td><td>{_fmt(m['bid_offset'], False)}</td>"
            f"<td>{_fmt(m['trade_offset'], False)}</td><td>{p.games}</td></tr>"
        )
    head = (
        "#",
        "agent",
        "CMS",
        "OBS",
        "surplus share",
        "profit / round",
        "as buyer",
        "as seller",
        "trade rate",
        "bid offset",
        "trade offset",
        "seat-games",
    )
    return _table("pact-scoreboard", head, rows)


def glicko_html(analysis: P.PactAnalysis, col: dict[str, str]) -> str:
    """The Glicko-2 leaderboard, with the margin-weighted rating beside it."""
    margin = {r.agent: r for r in analysis.glicko_margin}
    rows = []
    for i, r in enumerate(analysis.glicko, 1):
        w = margin.get(r.agent)
        rows.append(
            f"<tr><td>{i}</td><td class='name'>{_agent(r.agent, col)}</td>"
            f"<td><b>{r.rating:.0f}</b></td><td>{r.rd:.0f}</td><td>{r.vol:.4f}</td>"
            f"<td>{r.games}</td><td>{r.wins} / {r.draws} / {r.losses}</td>"
            f"<td>{r.profit_per_round:.2f}</td>"
            f"<td>{f'{w.rating:.0f} ± {2 * w.rd:.0f}' if w else '–'}</td></tr>"
        )
    head = (
        "#",
        "agent",
        "rating",
        "RD",
        "volatility",
        "games",
        "won / drawn / lost",
        "profit / round",
        "margin-weighted (± 2 RD)",
    )
    return _table("pact-glicko", head, rows)


def alpha_html(choice: P.AlphaChoice) -> str:
    """Every candidate α with its stability, agreement and whether it was a candidate."""
    rows = []
    for s in choice.scores:
        mark = " style='font-weight:600'" if s.alpha == choice.alpha else ""
        rows.append(
            f"<tr{mark}><td>{s.alpha:.2f}{' ◀' if mark else ''}</td>"
            f"<td>{s.stability:.4f}</td><td>{s.stability_se:.4f}</td>"
            f"<td>{100 * s.agreement:.1f}%</td><td>{'yes' if s.candidate else ''}</td></tr>"
        )
    head = ("α", "stability (mean τ-b)", "standard error", "h2h agreement", "candidate")
    candidates = sum(s.candidate for s in choice.scores)
    note = (
        f'<p class="lead" id="pact-alpha-note">{len(choice.same_order)} of {candidates}'
        " candidate weights order the agents as the chosen one does"
        f" (h2h agreement over {choice.matchups} match-ups).</p>"
    )
    return note + _table("pact-alpha", head, rows)


def definitions_html() -> str:
    """Every PACT definition with its name, version and unit."""
    return (
        '<dl class="defs">'
        + "".join(
            f"<dt>{html.escape(m.label)}<br><small>{m.name} v{m.version} · {html.escape(m.unit)}"
            f"</small></dt><dd>{html.escape(m.definition)}</dd>"
            for m in P.definitions()
        )
        + "</dl>"
    )


@dataclass(frozen=True)
class PactSection:
    """The PACT report section and what it was built from."""

    html: str
    analysis: P.PactAnalysis
    seconds: float


def pact_section(
    con: duckdb.DuckDBPyConnection,
    sel: Selection | None = None,
    resamples: int = P.RESAMPLES,
    seed: int = 0,
) -> PactSection:
    """The PACT section of the report for a selection of games."""
    t0 = time.perf_counter()
    data = P.load(con, sel)
    analysis = P.analyse(data, resamples=resamples, seed=seed)
    return PactSection(section_html(data, analysis), analysis, time.perf_counter() - t0)


def section_html(data: P.PactData, analysis: P.PactAnalysis) -> str:
    """The section's HTML from loaded data and its analysis."""
    if not analysis.games:
        return (
            '<section id="pact"><h2>PACT</h2>'
            '<p class="empty" id="pact-empty">No finished PACT games in this selection.</p>'
            "</section>"
        )
    agents = [p.agent for p in analysis.agents]
    col = F.colours(agents)
    choice = analysis.alpha
    f = {
        "fig-pact-cms": figure_html(
            "fig-pact-cms",
            fig_cms(analysis, col),
            f"Composite Model Score with α = {choice.alpha:.2f}: share of the realised surplus,"
            " blending surplus share and opponent-balanced share; 95% bootstrap intervals.",
        ),
        "fig-pact-h2h": figure_html(
            "fig-pact-h2h",
            fig_h2h(analysis, agents),
            "Row agent's surplus share against the column agent minus the column's against the"
            " row, in points of %; positive favours the row. n = games of the match-up.",
        ),
        "fig-pact-profit-strip": figure_html(
            "fig-pact-profit-strip",
            fig_profit_strip(data, agents, col),
            "Each point is one seat's mean profit per round in one game.",
        ),
        "fig-pact-by-round": figure_html(
            "fig-pact-by-round",
            fig_by_round(analysis.agents, col),
            "Per round: mean profit, bid offset (quote − valuation, buyer quotes counted"
            " negative), the same offset on traded rounds only, and the share of games that"
            " traded; bands are 95% bootstrap intervals.",
        ),
        "fig-pact-offsets": figure_html(
            "fig-pact-offsets",
            fig_offsets(data, agents, col),
            "Offset distributions: each seat-game's mean, every quote, and the quotes of traded"
            " rounds (bar: quartiles, ◆ mean).",
        ),
        "fig-pact-glicko": figure_html(
            "fig-pact-glicko",
            fig_glicko(analysis.glicko, col),
            "Glicko-2 over the games in order, a win for the higher cumulative profit; ±2 RD.",
        ),
        "fig-pact-alpha": figure_html(
            "fig-pact-alpha",
            fig_alpha(choice),
            "Mean Kendall τ-b between the full-data and resampled CMS orderings (±2 standard"
            " errors), and agreement with head-to-head results, for each α.",
        ),
    }
    return f"""<section id="pact"><h2>PACT</h2>
<p class="lead">{analysis.games:,} finished games, {len(agents)} agents. Values carry 95%
bootstrap intervals from {analysis.resamples:,} resamples of games (within match-ups; seed
{analysis.seed}). CMS weight α = {choice.alpha:.2f}, chosen from the data.</p>
{scoreboard_html(analysis, col)}
<div class="grid">{f["fig-pact-cms"]}{f["fig-pact-h2h"]}</div>
<div class="stack">{f["fig-pact-by-round"]}</div>
<div class="grid">{f["fig-pact-profit-strip"]}{f["fig-pact-glicko"]}</div>
<div class="stack">{f["fig-pact-offsets"]}</div>
<h3 style="font-size:14px;margin:18px 0 6px">Glicko-2 leaderboard</h3>
{glicko_html(analysis, col)}
<h3 style="font-size:14px;margin:18px 0 6px">Choosing α</h3>
<div class="grid">{f["fig-pact-alpha"]}<div>{alpha_html(choice)}</div></div>
<h3 style="font-size:14px;margin:18px 0 6px">Definitions</h3>
{definitions_html()}</section>"""


def build_pact_report(
    con: duckdb.DuckDBPyConnection,
    sel: Selection | None = None,
    title: str = "PACT report",
    resamples: int = P.RESAMPLES,
    seed: int = 0,
) -> tuple[str, ReportStats]:
    """A page of its own holding the PACT section (the report's styles, nothing fetched)."""
    t0 = time.perf_counter()
    section = pact_section(con, sel, resamples=resamples, seed=seed)
    page = section_page(title, section.html)
    stats = ReportStats(
        games=section.analysis.games,
        agents=len(section.analysis.agents),
        seconds=time.perf_counter() - t0,
        bytes=len(page.encode()),
    )
    return page, stats


class PactAnalysisHooks(T.TableHooks):
    """PACT's analysis as the generic commands reach it (`cattle metrics --game pact`,
    `cattle report --game pact`): the game definition holds one under extras["analysis"]."""

    max_resamples = P.MAX_RESAMPLES

    def definitions(self) -> list[tuple[str, int, str]]:
        """(name, version, definition) of every metric."""
        return [(m.name, m.version, m.definition) for m in P.definitions()]

    def metrics_json(self, con: duckdb.DuckDBPyConnection, sel: Selection, resamples: int) -> Any:
        """The metric table as JSON."""
        return P.analysis_json(P.pact_analysis(con, sel, resamples=resamples))

    def metrics_tables(
        self,
        con: duckdb.DuckDBPyConnection,
        sel: Selection,
        resamples: int,
        width: int,
        label: Callable[[str], str],
    ) -> list[Any]:
        """The metric table as rich tables that fit `width` ([] without games)."""
        analysis = P.pact_analysis(con, sel, resamples=resamples)
        if not analysis.games:
            return []
        return P.table_parts(P.metric_table(analysis), width=width, label=label)

    def report(
        self, con: duckdb.DuckDBPyConnection, sel: Selection, title: str, resamples: int
    ) -> tuple[str, ReportStats]:
        """A self-contained HTML page with the PACT section."""
        return build_pact_report(con, sel, title=title, resamples=resamples)


HOOKS = PactAnalysisHooks()
"""PACT's analysis hooks (see `agents.pact.game`)."""
