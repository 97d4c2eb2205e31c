"""Data and figures of Cattle Trade's report, recomputed from the derived tables of the store.

Every figure function takes plain data (built by the `*_data` helpers from the store) and
returns a matplotlib Figure; the report embeds them as base64 PNG images.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import duckdb
import numpy as np

from projections.metrics.aggregate import AgentProfile, Estimate, Selection, seed_for
from projections.metrics.plots import GRID, INK, MUTED, short
from projections.metrics.plots import PALETTE as PALETTE  # the report's figures use these too
from projections.metrics.plots import colours as colours
from projections.metrics.plots import empty as _empty
from projections.metrics.plots import fig_heatmap as fig_heatmap
from projections.metrics.plots import new_figure as _fig
from projections.metrics.plots import robust_limits as robust_limits
from projections.metrics.ratings import Rating

if TYPE_CHECKING:
    import matplotlib.pyplot as plt
    from matplotlib.figure import Figure
else:
    from projections.metrics.plots import plt


def style(agent: str, code: Collection[str]) -> dict[str, Any]:
    """Line style of an agent: code agents dashed with square markers (as in the paper)."""
    return {"ls": "--", "marker": "s"} if agent in code else {"ls": "-", "marker": "o"}


def legend(
    target: plt.Axes | Figure,
    agents: Sequence[str],
    col: dict[str, str],
    code: Collection[str] = (),
    **kw: Any,
) -> None:
    """A legend with one entry per agent, built from explicit handles.

    Automatic legends skip every artist whose label starts with "_", which would drop agents
    so named; explicit handles and labels are always shown.
    """
    from matplotlib.lines import Line2D

    handles = [Line2D([], [], color=col[a], lw=1.8, ms=5, **style(a, code)) for a in agents]
    if handles:
        target.legend(handles, [short(a) for a in agents], **kw)


# ---------------------------------------------------------------------------- data


@dataclass
class Band:
    """Mean over games per turn with a bootstrap band."""

    turns: np.ndarray
    mean: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    games: int


def trajectory_bands(
    con: duckdb.DuckDBPyConnection,
    sel: Selection,
    column: str,
    agents: Sequence[str],
    resamples: int = 200,
) -> dict[str, Band]:
    """Per agent, the mean of `column` (wealth, sets or score) over its games at every turn.

    Sets and score are carried forward after a game ends (they cannot fall), so every game
    counts at every turn; wealth is averaged only over the games still running at that turn.
    """
    where, params = sel.where()
    rows = con.execute(
        f"SELECT agent, game_id, seat, list({column} ORDER BY turn), max(turn)"
        f" FROM main.trajectories WHERE {where} GROUP BY ALL ORDER BY agent, game_id, seat",
        params,
    ).fetchall()
    if not rows:
        return {}
    horizon = max(int(r[4]) for r in rows) + 1
    carry = column != "wealth"
    series: dict[str, list[np.ndarray]] = {}
    for agent, _, _, values, _ in rows:
        v = np.full(horizon, np.nan)
        arr = np.asarray(values, dtype=float)
        v[: len(arr)] = arr
        if carry and len(arr):
            v[len(arr) :] = arr[-1]
        series.setdefault(agent, []).append(v)
    out = {}
    for agent in agents:
        if agent not in series:
            continue
        m = np.vstack(series[agent])
        n = m.shape[0]
        present = ~np.isnan(m)
        filled = np.where(present, m, 0.0)
        counts = present.sum(axis=0)
        keep = counts >= max(1, min(5, n), n // 20)
        with np.errstate(invalid="ignore", divide="ignore"):
            mean = filled.sum(axis=0) / counts
        rng = np.random.default_rng(seed_for(agent, "trajectory", column))
        stats = []
        pvals = np.full(n, 1.0 / n)
        for _ in range(0, resamples, 50):
            w = rng.multinomial(n, pvals, size=50).astype(float)
            with np.errstate(invalid="ignore", divide="ignore"):
                stats.append((w @ filled) / (w @ present))
        s = np.vstack(stats)
        with warnings.catch_warnings():
            # Turns no resample reaches give NaN bands; they are dropped by `keep` below.
            warnings.simplefilter("ignore", RuntimeWarning)
            lo, hi = np.nanpercentile(s, [2.5, 97.5], axis=0)
        turns = np.arange(horizon)
        out[agent] = Band(turns[keep], mean[keep], lo[keep], hi[keep], n)
    return out


def keyed_values(
    con: duckdb.DuckDBPyConnection, sel: Selection, metric: str
) -> dict[tuple[str, str], tuple[float | None, float]]:
    """Pooled value sum(num)/sum(den) and sum(den) per (agent, key) of a keyed metric."""
    where, params = sel.where()
    rows = con.execute(
        f"SELECT agent, key, sum(num), sum(den) FROM main.metric_values"
        f" WHERE metric = ? AND {where} GROUP BY ALL",
        [metric, *params],
    ).fetchall()
    return {(a, k): ((n / d) if d else None, float(d)) for a, k, n, d in rows}


def per_game_values(
    con: duckdb.DuckDBPyConnection, sel: Selection, metric: str
) -> dict[str, np.ndarray]:
    """Per agent, the defined per-game values of a metric."""
    where, params = sel.where()
    rows = con.execute(
        f"SELECT agent, list(value ORDER BY game_id, seat) FROM main.metric_values"
        f" WHERE metric = ? AND value IS NOT NULL AND {where} GROUP BY ALL",
        [metric, *params],
    ).fetchall()
    return {a: np.asarray(v, dtype=float) for a, v in rows}


def trade_nets(con: duckdb.DuckDBPyConnection, sel: Selection) -> dict[str, np.ndarray]:
    """Per agent, the net coins of every trade it took part in (received minus given)."""
    where, params = sel.where("t.game_id")
    rows = con.execute(
        f"""
        SELECT s.agent, list(x.net) FROM (
            SELECT t.game_id, t.initiator AS seat, t.initiator_net AS net FROM main.trades t
            WHERE t.initiator_net IS NOT NULL AND {where}
            UNION ALL
            SELECT t.game_id, t.target, -t.initiator_net FROM main.trades t
            WHERE t.initiator_net IS NOT NULL AND {where}) x
        JOIN main.seats s ON s.game_id = x.game_id AND s.seat = x.seat
        JOIN (SELECT game_id FROM main.games WHERE status = 'finished') g ON g.game_id = x.game_id
        GROUP BY ALL""",
        [*params, *params],
    ).fetchall()
    return {a: np.asarray(v, dtype=float) for a, v in rows}


# ---------------------------------------------------------------------------- figures


def fig_trueskill(ratings: Sequence[Rating], col: dict[str, str]) -> Figure:
    """TrueSkill μ with ±3σ bars, best at the top."""
    fig, ax = _fig(5.6, 0.5 + 0.42 * max(3, len(ratings)))
    if not ratings:
        return _empty(fig, ax, "no rated games")
    order = list(reversed(ratings))
    y = np.arange(len(order))
    ax.barh(y, [r.mu for r in order], color=[col[r.agent] for r in order], alpha=0.85, height=0.6)
    ax.errorbar(
        [r.mu for r in order],
        y,
        xerr=[3 * r.sigma for r in order],
        fmt="none",
        ecolor=INK,
        capsize=3,
        lw=1,
    )
    ax.set_yticks(y, [short(r.agent) for r in order])
    ax.set_xlabel("TrueSkill μ  (bars: ±3σ)")
    ax.set_title("TrueSkill rating")
    ax.grid(axis="y", visible=False)
    return fig


def fig_win_rate(profs: Sequence[AgentProfile], col: dict[str, str], players: int) -> Figure:
    """Win rate per agent with its bootstrap interval and the 1/players reference line."""
    fig, ax = _fig(5.6, 0.5 + 0.42 * max(3, len(profs)))
    order = list(reversed(profs))
    y = np.arange(len(order))
    vals = [100 * (p.metrics["win_rate"].value or 0) for p in order]
    lo = [100 * (p.metrics["win_rate"].lo or 0) for p in order]
    hi = [100 * (p.metrics["win_rate"].hi or 0) for p in order]
    ax.barh(y, vals, color=[col[p.agent] for p in order], alpha=0.85, height=0.6)
    ax.errorbar(
        vals,
        y,
        xerr=[np.subtract(vals, lo), np.subtract(hi, vals)],
        fmt="none",
        ecolor=INK,
        capsize=3,
        lw=1,
    )
    if players:
        ax.axvline(100 / players, color=MUTED, ls="--", lw=1)
        ax.text(100 / players, len(order) - 0.4, " chance", color=MUTED, fontsize=8, va="bottom")
    ax.set_yticks(y, [short(p.agent) for p in order])
    ax.set_xlabel("games won (%)  (bars: 95% bootstrap interval)")
    ax.set_title("Win rate")
    ax.grid(axis="y", visible=False)
    return fig


def fig_bands(
    bands: dict[str, Band],
    col: dict[str, str],
    title: str,
    ylabel: str,
    note: str,
    code: Collection[str] = (),
) -> Figure:
    """Mean per turn with bootstrap bands, one line per agent (code agents dashed)."""
    fig, ax = _fig()
    if not bands:
        return _empty(fig, ax, "no finished games")
    for agent, b in bands.items():
        ax.plot(b.turns, b.mean, color=col[agent], lw=1.8, ls=style(agent, code)["ls"])
        ax.fill_between(b.turns, b.lo, b.hi, color=col[agent], alpha=0.15, lw=0)
    ax.set_xlabel("turn")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.text(0.0, -0.2, note, transform=ax.transAxes, color=MUTED, fontsize=7.5, va="top")
    legend(ax, list(bands), col, code, loc="upper left")
    return fig


def fig_phase(
    data: dict[str, dict[str, Estimate]],
    agents: Sequence[str],
    col: dict[str, str],
    code: Collection[str] = (),
) -> Figure:
    """Bid aggressiveness by number of donkeys drawn, one line per agent, with the 95%
    bootstrap interval of every point."""
    fig, ax = _fig()
    keys = sorted({k for by_key in data.values() for k in by_key}, key=int)
    if not keys:
        return _empty(fig, ax, "no bids")
    drawn = []
    n = max(1, len(agents))
    for i, agent in enumerate(agents):
        pts = [(int(k), e) for k, e in sorted(data.get(agent, {}).items(), key=lambda x: int(x[0]))]
        pts = [(k, e) for k, e in pts if e.value is not None]
        if not pts:
            continue
        # Agents side by side around each key, so their intervals do not hide each other.
        xs = np.array([k for k, _ in pts]) + (i - (n - 1) / 2) * (0.5 / n)
        ys = np.array([e.value for _, e in pts], dtype=float)
        lo = np.array([e.lo if e.lo is not None else e.value for _, e in pts], dtype=float)
        hi = np.array([e.hi if e.hi is not None else e.value for _, e in pts], dtype=float)
        st = style(agent, code)
        ax.errorbar(
            xs,
            ys,
            yerr=[np.maximum(ys - lo, 0), np.maximum(hi - ys, 0)],
            color=col[agent],
            lw=1.6,
            ms=4,
            capsize=2,
            elinewidth=0.9,
            ls=st["ls"],
            marker=st["marker"],
        )
        drawn.append(agent)
    ax.set_xticks([int(k) for k in keys])
    ax.set_xlabel("donkeys drawn when the auction opened")
    ax.set_ylabel("bid / set value")
    ax.set_title("Bid aggressiveness by donkey phase")
    legend(ax, drawn, col, code, loc="upper left")
    return fig


def fig_economic(
    eta: dict[str, np.ndarray],
    tau: dict[str, np.ndarray],
    profs: Sequence[AgentProfile],
    col: dict[str, str],
    code: Collection[str] = (),
) -> Figure:
    """Economic profile: median η against median τ with IQR bars; size by win rate; code
    agents as squares, model agents as circles."""
    fig, ax = _fig(5.6, 4.2)
    drawn = 0
    for p in profs:
        e, t = eta.get(p.agent), tau.get(p.agent)
        if e is None or t is None or not len(e) or not len(t):
            continue
        ex = np.percentile(e, [25, 50, 75])
        ty = np.percentile(t, [25, 50, 75])
        win = p.metrics["win_rate"].value or 0
        ax.errorbar(
            ex[1],
            ty[1],
            xerr=[[ex[1] - ex[0]], [ex[2] - ex[1]]],
            yerr=[[ty[1] - ty[0]], [ty[2] - ty[1]]],
            fmt="none",
            ecolor=col[p.agent],
            alpha=0.5,
            lw=1,
        )
        ax.scatter(
            ex[1],
            ty[1],
            s=60 + 900 * win,
            color=col[p.agent],
            edgecolor="white",
            marker="s" if p.agent in code else "o",
            zorder=3,
        )
        ax.annotate(
            short(p.agent, 16),
            (ex[1], ty[1]),
            xytext=(6, 6),
            textcoords="offset points",
            fontsize=8,
            color=INK,
        )
        drawn += 1
    if not drawn:
        return _empty(fig, ax, "no trade exchanges won yet")
    ax.set_xlabel("capital efficiency η = score / gross outflow (median)")
    ax.set_ylabel("TC tightness τ (median)")
    ax.set_title("Economic profile")
    ax.text(
        0.99,
        0.99,
        "efficient and tight →",
        transform=ax.transAxes,
        ha="right",
        va="top",
        color=MUTED,
        fontsize=8,
    )
    return fig


RADAR_AXES = (
    "strength\n(TrueSkill μ)",
    "spending\nefficiency (η)",
    "auction\ndiscipline",
    "TC\nproficiency",
    "phase\ntiming",
    "set\nthroughput",
)


def radar_scores(
    profs: Sequence[AgentProfile], ratings: dict[str, Rating]
) -> dict[str, list[float]]:
    """Raw values of the six radar axes per agent (None where undefined)."""
    raw: dict[str, list[float]] = {}
    for p in profs:
        m = p.metrics

        def v(name: str, m: dict = m) -> float:
            x = m.get(name)
            return float("nan") if x is None or x.value is None else float(x.value)

        phase = p.keyed.get("bid_aggressiveness_phase", {})
        early = phase.get("early")
        late = phase.get("late")
        timing = (
            math.log(late.value / early.value)
            if early and late and early.value and late.value
            else float("nan")
        )
        r = ratings.get(p.agent)
        raw[p.agent] = [
            r.mu if r else float("nan"),
            v("eta"),
            1 - 0.5 * (v("overbid_rate") + v("self_bid_rate")),
            v("challenger_win_rate"),
            timing,
            v("sets_per_game"),
        ]
    return raw


def percentiles(raw: dict[str, list[float]]) -> dict[str, list[float]]:
    """Each axis rank-normalised across agents to [0, 1] (ties share the mean rank)."""
    agents = list(raw)
    out = {a: [0.5] * len(RADAR_AXES) for a in agents}
    for i in range(len(RADAR_AXES)):
        vals = [(raw[a][i], a) for a in agents if not math.isnan(raw[a][i])]
        if len(vals) < 2:
            continue
        for a in agents:
            x = raw[a][i]
            if math.isnan(x):
                out[a][i] = 0.0
                continue
            below = sum(1 for y, _ in vals if y < x)
            equal = sum(1 for y, _ in vals if y == x) - 1
            out[a][i] = (below + equal / 2) / (len(vals) - 1)
    return out


def fig_radar(
    norm: dict[str, list[float]], col: dict[str, str], code: Collection[str] = ()
) -> Figure:
    """Strategic radar: six percentile-normalised axes, outward is better; code agents
    dashed."""
    fig = plt.figure(figsize=(5.6, 4.6), layout="constrained")
    ax = fig.add_subplot(projection="polar")
    n = len(RADAR_AXES)
    ang = np.linspace(0, 2 * np.pi, n, endpoint=False).tolist()
    for agent, vals in norm.items():
        ax.plot(
            ang + ang[:1], vals + vals[:1], color=col[agent], lw=1.8, ls=style(agent, code)["ls"]
        )
        ax.fill(ang + ang[:1], vals + vals[:1], color=col[agent], alpha=0.08)
    ax.set_xticks(ang, RADAR_AXES, fontsize=8, color=INK)
    ax.tick_params(axis="x", pad=10)
    ax.set_yticks([0.25, 0.5, 0.75, 1.0], ["", "", "", ""])
    ax.set_ylim(0, 1)
    ax.spines["polar"].set_color(GRID)
    ax.set_title("Strategic radar (percentile across agents)", pad=18)
    legend(fig, list(norm), col, code, loc="outside lower center", ncols=min(4, max(1, len(norm))))
    return fig


def fig_accept_by_size(
    data: dict[tuple[str, str], tuple[float | None, float]],
    agents: Sequence[str],
    col: dict[str, str],
    code: Collection[str] = (),
) -> Figure:
    """Accept rate by the number of face-down cards offered (sizes with few cases hidden)."""
    fig, ax = _fig()
    drawn: list[str] = []
    for agent in agents:
        pts = sorted(
            (int(k), v[0])
            for (a, k), v in data.items()
            if a == agent and v[0] is not None and v[1] >= 5
        )
        if pts:
            ax.plot(
                [p[0] for p in pts],
                [100 * p[1] for p in pts],
                ms=3.5,
                lw=1.6,
                color=col[agent],
                **style(agent, code),
            )
            drawn.append(agent)
    if not drawn:
        return _empty(fig, ax, "no trade challenges answered")
    ax.set_xlabel("cards in the face-down offer")
    ax.set_ylabel("accepted (%)")
    ax.set_title("Accept rate by offer size")
    ax.set_ylim(0, 100)
    legend(ax, drawn, col, code, loc="upper center", ncols=3, bbox_to_anchor=(0.5, -0.16))
    return fig


def fig_distributions(
    data: dict[str, np.ndarray], agents: Sequence[str], col: dict[str, str], title: str, xlabel: str
) -> Figure:
    """Box plots of a per-agent distribution."""
    present = [a for a in agents if a in data and len(data[a])]
    fig, ax = _fig(5.6, 0.6 + 0.45 * max(3, len(present)))
    if not present:
        return _empty(fig, ax, "no data")
    order = list(reversed(present))
    bp = ax.boxplot(
        [data[a] for a in order],
        orientation="horizontal",
        widths=0.55,
        patch_artist=True,
        showfliers=False,
        medianprops={"color": INK},
    )
    for patch, a in zip(bp["boxes"], order, strict=True):
        patch.set_facecolor(col[a])
        patch.set_alpha(0.55)
        patch.set_edgecolor(col[a])
    ax.set_yticks(range(1, len(order) + 1), [short(a) for a in order])
    ax.set_xlabel(xlabel)
    ax.set_title(title)
    ax.grid(axis="y", visible=False)
    return fig


Series = tuple[str, dict[str, Estimate]]
"""A labelled set of per-agent estimates (one bar per agent)."""


def fig_bars(
    series: Sequence[Series],
    agents: Sequence[str],
    col: dict[str, str],
    title: str,
    xlabel: str,
    percent: bool = False,
    code: Collection[str] = (),
    empty: str = "no data",
) -> Figure:
    """Horizontal bars per agent, one per series, with 95% bootstrap intervals.

    Code agents' bars are pale with a dashed outline; several series are told apart by
    hatching and named in the legend.
    """
    present = [a for a in agents if any(a in d and d[a].value is not None for _, d in series)]
    k = max(1, len(series))
    fig, ax = _fig(5.6, 0.7 + (0.3 + 0.2 * k) * max(3, len(present)))
    if not present:
        return _empty(fig, ax, empty)
    order = list(reversed(present))
    scale = 100.0 if percent else 1.0
    height = 0.75 / k
    hatches = ("", "////", "....", "xxx")
    for j, (_, data) in enumerate(series):
        for i, agent in enumerate(order):
            est = data.get(agent)
            if est is None or est.value is None:
                continue
            y = i + (k - 1 - j - (k - 1) / 2) * height
            v = scale * est.value
            is_code = agent in code
            ax.barh(
                y,
                v,
                height=height * 0.9,
                color=col[agent],
                alpha=0.4 if is_code else 0.85,
                edgecolor=col[agent],
                ls="--" if is_code else "-",
                lw=1.2,
                hatch=hatches[j % len(hatches)],
            )
            if est.lo is not None and est.hi is not None:
                ax.errorbar(
                    v,
                    y,
                    xerr=[[max(v - scale * est.lo, 0)], [max(scale * est.hi - v, 0)]],
                    fmt="none",
                    ecolor=INK,
                    capsize=2,
                    lw=0.9,
                )
    ax.set_yticks(range(len(order)), [short(a) for a in order])
    ax.set_xlabel(xlabel)
    ax.set_title(title)
    ax.grid(axis="y", visible=False)
    # Bars start at zero; an all-zero panel still gets a readable scale.
    ax.set_xlim(left=0, right=max(ax.get_xlim()[1], 1.0))
    if k > 1:
        from matplotlib.patches import Patch

        handles = [
            Patch(facecolor="white", edgecolor=INK, hatch=hatches[j % len(hatches)])
            for j in range(k)
        ]
        fig.legend(
            handles, [lbl for lbl, _ in series], loc="outside lower center", ncols=k, fontsize=8
        )
    return fig


def fig_radar_grid(
    norm: dict[str, list[float]], col: dict[str, str], code: Collection[str] = ()
) -> Figure:
    """One small strategic radar per agent, each against the cross-agent median (dotted)."""
    agents = list(norm)
    ncols = min(4, max(1, len(agents)))
    nrows = max(1, math.ceil(len(agents) / ncols))
    fig = plt.figure(figsize=(2.9 * ncols, 2.9 * nrows + 0.3), layout="constrained")
    if not agents:
        ax = fig.add_subplot()
        return _empty(fig, ax, "no agents")
    n = len(RADAR_AXES)
    ang = np.linspace(0, 2 * np.pi, n, endpoint=False).tolist()
    median = np.median(np.array([norm[a] for a in agents]), axis=0).tolist()
    ticks = [t.split("\n")[0] for t in RADAR_AXES]
    for i, agent in enumerate(agents):
        ax = fig.add_subplot(nrows, ncols, i + 1, projection="polar")
        ax.plot(ang + ang[:1], median + median[:1], color=MUTED, lw=1.1, ls=":")
        vals = norm[agent]
        ax.plot(
            ang + ang[:1], vals + vals[:1], color=col[agent], lw=1.8, ls=style(agent, code)["ls"]
        )
        ax.fill(ang + ang[:1], vals + vals[:1], color=col[agent], alpha=0.15)
        ax.set_xticks(ang, ticks, fontsize=7, color=INK)
        ax.tick_params(axis="x", pad=2)
        ax.set_yticks([0.25, 0.5, 0.75, 1.0], ["", "", "", ""])
        ax.set_ylim(0, 1)
        ax.spines["polar"].set_color(GRID)
        tag = " (code)" if agent in code else ""
        ax.set_title(short(agent, 26) + tag, fontsize=9, pad=10, loc="center")
    fig.suptitle("Strategic radar per agent (dotted: median of all agents)", fontsize=11)
    return fig


def fig_composition_radar(
    data: dict[str, dict[str, float]],
    axes: Sequence[str],
    col: dict[str, str],
    code: Collection[str] = (),
    percentile: bool = True,
) -> Figure:
    """Robustness across opponent compositions: one axis per composition, one polygon per
    agent under test; values are win-rate percentiles across those agents (or raw win rates
    when only one agent was tested)."""
    fig = plt.figure(figsize=(5.6, 4.8), layout="constrained")
    agents = [a for a in data if data[a]]
    if len(axes) < 3 or not agents:
        ax = fig.add_subplot()
        return _empty(
            fig,
            ax,
            "needs games of agents under test against at least three code-agent\n"
            "compositions (cattle tournament --format mixed)",
        )
    ax = fig.add_subplot(projection="polar")
    n = len(axes)
    ang = np.linspace(0, 2 * np.pi, n, endpoint=False).tolist()
    raw = {a: [data[a].get(c, float("nan")) for c in axes] for a in agents}
    if percentile and len(agents) >= 2:
        vals_by = rank_normalise(raw)
    else:
        vals_by = {a: [0.0 if math.isnan(v) else v for v in raw[a]] for a in agents}
    for agent in agents:
        vals = vals_by[agent]
        ax.plot(
            ang + ang[:1],
            vals + vals[:1],
            color=col[agent],
            lw=1.8,
            ms=4,
            **style(agent, code),
        )
        ax.fill(ang + ang[:1], vals + vals[:1], color=col[agent], alpha=0.08)
    ax.set_xticks(ang, list(axes), fontsize=8.5, color=INK)
    ax.set_yticks([0.25, 0.5, 0.75, 1.0], ["", "", "", ""])
    ax.set_ylim(0, 1)
    ax.spines["polar"].set_color(GRID)
    what = "percentile" if percentile and len(agents) >= 2 else "win rate"
    ax.set_title(f"Robustness across compositions ({what})", pad=16, loc="center")
    legend(fig, agents, col, code, loc="outside lower center", ncols=min(4, len(agents)))
    return fig


def rank_normalise(raw: dict[str, list[float]]) -> dict[str, list[float]]:
    """Each position rank-normalised across the agents to [0, 1] (ties share the mean rank;
    a missing value counts 0)."""
    agents = list(raw)
    width = max((len(v) for v in raw.values()), default=0)
    out = {a: [0.5] * width for a in agents}
    for i in range(width):
        vals = [raw[a][i] for a in agents if not math.isnan(raw[a][i])]
        for a in agents:
            x = raw[a][i]
            if math.isnan(x):
                out[a][i] = 0.0
            elif len(vals) >= 2:
                below = sum(1 for y in vals if y < x)
                equal = sum(1 for y in vals if y == x) - 1
                out[a][i] = (below + equal / 2) / (len(vals) - 1)
    return out
