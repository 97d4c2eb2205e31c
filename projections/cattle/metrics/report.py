"""The HTML report: one self-contained file with ratings, figures and the behaviour table.

Everything is recomputed from the store's derived tables (rebuilt from events when stale);
images are embedded as base64 PNG, styles are inline, nothing is fetched when it is opened.
"""

from __future__ import annotations

import base64
import datetime as dt
import html
import io
import math
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

import duckdb
import numpy as np

from engine.schedule import COMPOSITIONS
from projections.cattle.metrics import figures as F
from projections.cattle.metrics.profiles import TABLE_METRICS, profiles
from projections.cattle.metrics.registry import PAPER_METRICS, get, metrics
from projections.metrics.aggregate import AgentProfile, Estimate, Selection
from projections.metrics.html import CSS, FIGURES_LOADED, ReportStats
from projections.metrics.ratings import Rating, ratings

if TYPE_CHECKING:
    import matplotlib.pyplot as plt
    from matplotlib.figure import Figure
else:
    from projections.metrics.plots import plt


#: Figure ids, in page order (the report test checks every one is present).
FIGURE_IDS: tuple[str, ...] = (
    "fig-trueskill",
    "fig-win-rate",
    "fig-wealth",
    "fig-sets",
    "fig-score",
    "fig-phase",
    "fig-composition",
    "fig-economic",
    "fig-radar",
    "fig-radar-agents",
    "fig-eta-distribution",
    "fig-trade-net",
    "fig-participation",
    "fig-overpay",
    "fig-tc-rates",
    "fig-bluff-size",
    "fig-ties",
    "fig-tokens",
    "fig-truncation",
    "fig-set-cost",
    "fig-crossplay",
    "fig-seat-position",
    "fig-accept-size",
    "fig-exploitation",
    "fig-bid-wealth",
    "fig-tc-phase",
    "fig-cost-per-set",
    "fig-auction-cost",
    "fig-trade-cost",
)

#: Where each figure of the paper (seed document, Figs. 1-10) is in the report.
PAPER_FIGURES: dict[str, tuple[str, ...]] = {
    "Fig. 1b": ("ratings-table",),
    "Fig. 2": ("fig-trueskill", "fig-win-rate", "fig-wealth", "fig-sets", "fig-score", "fig-phase"),
    "Fig. 3a": ("fig-composition",),
    "Fig. 3b": ("fig-economic",),
    "Fig. 4": (
        "fig-participation",
        "fig-overpay",
        "fig-tc-rates",
        "fig-bluff-size",
        "fig-ties",
        "fig-tokens",
        "fig-truncation",
        "fig-set-cost",
        "fig-crossplay",
    ),
    "Fig. 5": (
        "fig-seat-position",
        "fig-wealth",
        "fig-accept-size",
        "fig-exploitation",
        "fig-bid-wealth",
        "fig-tc-phase",
    ),
    "Fig. 6": ("fig-radar",),
    "Fig. 7": ("fig-radar-agents",),
    "Fig. 8": ("fig-cost-per-set",),
    "Fig. 9": ("fig-auction-cost", "fig-trade-cost"),
    "Fig. 10": ("fig-eta-distribution", "fig-trade-net"),
}

#: Per-agent metrics of the detail panels (figure_metrics.py).
PANEL_METRICS: tuple[str, ...] = (
    "auction_participation",
    "auction_win_rate",
    "overpay_rate",
    "tc_counter_rate",
    "target_win_rate",
    "bluff_size",
    "tie_rate",
    "set_cost",
    "llm_truncation_rate",
    "bid_to_wealth",
    "bluff_success_rate",
    "bluffed_rate",
    "bankrupt_initiation_rate",
)

#: Keyed metrics whose per-key estimates (with intervals) the figures use.
KEYED_METRICS: tuple[str, ...] = (
    "bid_aggressiveness_phase",
    "bid_aggressiveness_donkeys",
    "tc_initiation_phase",
    "win_rate_by_composition",
)

_EXTRA = (
    "challenger_win_rate",
    "net_coins_per_trade",
    "format_error_rate",
    "fallback_rate",
    "llm_calls",
    "llm_tokens",
    "llm_output_tokens",
    "llm_cost",
    "llm_latency",
    "llm_format_error_rate",
)


def _png(fig: Figure) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", facecolor="white")
    plt.close(fig)
    return base64.b64encode(buf.getvalue()).decode()


_PAPER_OF = {fid: paper for paper, fids in PAPER_FIGURES.items() for fid in fids}


def _figure(fig_id: str, fig: Figure, caption: str) -> str:
    paper = _PAPER_OF.get(fig_id)
    tag = f' <span class="paper">(paper: {paper})</span>' if paper else ""
    empty = ' data-empty="true"' if fig.get_label() == "empty" else ""
    return (
        f'<figure id="{fig_id}"{empty}><img id="{fig_id}-img" alt="{html.escape(caption)}"'
        f' src="data:image/png;base64,{_png(fig)}"><figcaption>{html.escape(caption)}{tag}'
        "</figcaption></figure>"
    )


def _fmt(est: Estimate | None, percent: bool) -> str:
    if est is None or est.value is None:
        return '<span class="ci">–</span>'
    if percent:
        main = f"{100 * est.value:.1f}%"
        ci = (
            f"{100 * est.lo:.1f} – {100 * est.hi:.1f}"
            if est.lo is not None and est.hi is not None
            else ""
        )
    else:
        digits = 0 if abs(est.value) >= 100 else 2
        main = f"{est.value:,.{digits}f}"
        ci = (
            f"{est.lo:,.{digits}f} – {est.hi:,.{digits}f}"
            if est.lo is not None and est.hi is not None
            else ""
        )
    return f'{main}<span class="ci">{ci}</span>'


def _agent_cell(agent: str, col: dict[str, str]) -> str:
    return f'<span class="swatch" style="background:{col[agent]}"></span>{html.escape(agent)}'


def _selection_summary(con: duckdb.DuckDBPyConnection, sel: Selection) -> dict[str, object]:
    where, params = sel.where()
    rows = con.execute(
        f"""SELECT count(*), count(DISTINCT preset), string_agg(DISTINCT preset, ', '),
                   string_agg(DISTINCT auction_mode, ', '), avg(turns)
            FROM main.game_info WHERE status = 'finished' AND {where}""",
        params,
    ).fetchall()[0]
    events = con.execute(
        f"SELECT count(*) FROM main.events WHERE {where}"
        " AND game_id IN (SELECT game_id FROM main.games WHERE status = 'finished')",
        params,
    ).fetchall()[0][0]
    players = con.execute(
        f"SELECT max(players) FROM main.game_info WHERE status = 'finished' AND {where}", params
    ).fetchall()[0][0]
    return {
        "games": int(rows[0]),
        "presets": rows[2] or "-",
        "modes": rows[3] or "-",
        "turns": float(rows[4] or 0),
        "events": int(events),
        "players": int(players or 0),
    }


def score_spread(scores: np.ndarray | None) -> str:
    """Median ± standard deviation of per-game scores (the paper's ranking column)."""
    if scores is None or not len(scores):
        return "–"
    return f"{np.median(scores):,.0f} ± {np.std(scores):,.0f}"


def _ratings_table(
    rs: Sequence[Rating],
    profs: dict[str, AgentProfile],
    col: dict[str, str],
    scores: dict[str, np.ndarray] | None = None,
    code: frozenset[str] = frozenset(),
) -> str:
    head = (
        "<tr><th>#</th><th class='name'>agent</th><th>TrueSkill μ</th><th>σ</th><th>μ − 3σ</th>"
        "<th>seat-games</th><th>win rate</th><th>mean score</th><th>median ± std score</th>"
        "<th>sets / game</th></tr>"
    )
    scores = scores or {}
    body = []
    for i, r in enumerate(rs, 1):
        p = profs.get(r.agent)
        m = p.metrics if p else {}
        tag = '<span class="tag">code</span>' if r.agent in code else ""
        body.append(
            f"<tr><td>{i}</td><td class='name'>{_agent_cell(r.agent, col)}{tag}</td>"
            f"<td><b>{r.mu:.2f}</b></td><td>{r.sigma:.2f}</td><td>{r.conservative:.2f}</td>"
            f"<td>{p.games if p else 0}</td><td>{_fmt(m.get('win_rate'), True)}</td>"
            f"<td>{_fmt(m.get('score'), False)}</td>"
            f"<td class='spread'>{score_spread(scores.get(r.agent))}</td>"
            f"<td>{_fmt(m.get('sets_per_game'), False)}</td></tr>"
        )
    return f'<div class="scroll"><table id="ratings-table"><thead>{head}</thead><tbody>{"".join(body)}</tbody></table></div>'


#: The paper's Table 3 columns, then the other per-agent behaviour metrics.
PAPER_COLUMNS = PAPER_METRICS
MORE_COLUMNS = ("tau", "challenger_win_rate", "net_coins_per_trade", "sets_per_game", "score")


def _behaviour_table(
    profs: Sequence[AgentProfile],
    col: dict[str, str],
    names: Sequence[str],
    table_id: str,
    phase: bool,
) -> str:
    head = "<tr><th>agent</th><th>seat-games</th>" + "".join(
        f"<th title='{html.escape(get(n).definition)}'>{html.escape(get(n).label)}</th>"
        for n in names
    )
    if phase:
        head += "<th>bid agg. early</th><th>bid agg. late</th>"
    head += "</tr>"
    body = []
    for p in profs:
        cells = "".join(f"<td>{_fmt(p.metrics.get(n), get(n).percent)}</td>" for n in names)
        if phase:
            by = p.keyed.get("bid_aggressiveness_phase", {})
            cells += (
                f"<td>{_fmt(by.get('early'), False)}</td><td>{_fmt(by.get('late'), False)}</td>"
            )
        body.append(f"<tr><td>{_agent_cell(p.agent, col)}</td><td>{p.games}</td>{cells}</tr>")
    return f'<div class="scroll"><table id="{table_id}"><thead>{head}</thead><tbody>{"".join(body)}</tbody></table></div>'


def _llm_section(
    con: duckdb.DuckDBPyConnection,
    sel: Selection,
    profs: Sequence[AgentProfile],
    col: dict[str, str],
) -> str:
    where, params = sel.where("c.game_id")
    rows = con.execute(
        f"""SELECT s.agent, count(*), count(DISTINCT c.game_id), sum(c.input_tokens),
                   sum(c.output_tokens), string_agg(DISTINCT c.model, ', '),
                   count(*) FILTER (WHERE c.parse_stage IN ('last_object', 'key_value')),
                   count(*) FILTER (WHERE c.parse_stage = 'truncated'),
                   count(*) FILTER (WHERE c.error IS NOT NULL)
            FROM main.llm_calls c JOIN main.seats s ON s.game_id = c.game_id AND s.seat = c.seat
            JOIN main.games g ON g.game_id = c.game_id AND g.status = 'finished'
            WHERE {where} GROUP BY s.agent ORDER BY s.agent""",
        params,
    ).fetchall()
    by_agent = {p.agent: p for p in profs}
    err_rows = []
    for p in profs:
        fe = p.metrics.get("format_error_rate")
        fb = p.metrics.get("fallback_rate")
        err_rows.append(
            f"<tr><td>{_agent_cell(p.agent, col)}</td><td>{_fmt(fe, True)}</td><td>{_fmt(fb, True)}</td></tr>"
        )
    errors = (
        '<h3 style="font-size:14px;margin:16px 0 6px">Rejected actions and fallbacks</h3>'
        '<div class="scroll"><table id="errors-table"><thead><tr><th>agent</th>'
        "<th>rejected actions / decision</th><th>fallbacks / decision</th></tr></thead><tbody>"
        + "".join(err_rows)
        + "</tbody></table></div>"
    )
    if not rows:
        return (
            '<p class="empty" id="llm-empty">No LLM calls in this selection: every seat was played'
            " by a code agent, so there are no tokens, costs or latencies to report.</p>" + errors
        )
    body = []
    for agent, calls, games, tin, tout, models, repaired, truncated, transport in rows:
        prof = by_agent.get(agent)
        m = prof.metrics if prof else {}
        cost = m.get("llm_cost")
        cost_text = (
            "–"
            if cost is None or cost.value is None or math.isnan(cost.value)
            else f"${cost.value:,.4f}<span class='ci'>${cost.lo or 0:,.4f} – ${cost.hi or 0:,.4f}</span>"
        )
        body.append(
            f"<tr><td>{_agent_cell(agent, col) if agent in col else html.escape(agent)}"
            f"<span class='ci'>{html.escape(models or '')}</span></td>"
            f"<td>{calls:,}</td><td>{games}</td><td>{int(tin or 0):,}</td><td>{int(tout or 0):,}</td>"
            f"<td>{_fmt(m.get('llm_tokens'), False)}</td><td>{_fmt(m.get('llm_output_tokens'), False)}</td>"
            f"<td>{cost_text}</td><td>{_fmt(m.get('llm_latency'), False)}</td>"
            f"<td>{_fmt(m.get('llm_format_error_rate'), True)}</td>"
            f"<td>{repaired:,} / {truncated:,} / {transport:,}</td></tr>"
        )
    head = (
        "<tr><th>agent</th><th>calls</th><th>games</th><th>input tokens</th>"
        "<th>output tokens</th><th>tokens / game</th><th>output tokens / call</th>"
        "<th>cost / game</th><th>latency / call (ms)</th><th>format errors / decision</th>"
        "<th>repaired / truncated / transport errors</th></tr>"
    )
    return (
        f'<div class="scroll"><table id="llm-table"><thead>{head}</thead><tbody>{"".join(body)}'
        "</tbody></table></div>" + errors
    )


def _matrix(
    data: dict[tuple[str, str], tuple[float | None, float]],
    rows: Sequence[str],
    cols: Sequence[str],
) -> tuple[np.ndarray, np.ndarray]:
    vals = np.full((len(rows), len(cols)), np.nan)
    counts = np.zeros((len(rows), len(cols)))
    for i, r in enumerate(rows):
        for j, c in enumerate(cols):
            v = data.get((r, c))
            if v is not None:
                counts[i, j] = v[1]
                if v[0] is not None:
                    vals[i, j] = v[0]
    return vals, counts


def build_report(
    con: duckdb.DuckDBPyConnection,
    sel: Selection | None = None,
    title: str = "Cattle Trade report",
    resamples: int = 1000,
) -> tuple[str, ReportStats]:
    """The report's HTML for a selection of games (derived tables must be fresh)."""
    t0 = time.perf_counter()
    sel = sel or Selection()
    summary = _selection_summary(con, sel)
    rs = ratings(con, sel)
    profs_list = profiles(
        con,
        sel,
        names=(*TABLE_METRICS, *_EXTRA, *PANEL_METRICS),
        keyed=KEYED_METRICS,
        resamples=resamples,
    )
    rank = {r.agent: i for i, r in enumerate(rs)}
    profs_list.sort(key=lambda p: (rank.get(p.agent, len(rank)), p.agent))
    agents = [p.agent for p in profs_list]
    profs = {p.agent: p for p in profs_list}
    col = F.colours(agents)
    code = code_agents(con, sel, agents)
    animals = [
        r[0]
        for r in con.execute(
            "SELECT DISTINCT key, min(animal_value(key)) FROM main.metric_values"
            " WHERE metric = 'cost_per_set' GROUP BY key ORDER BY 2"
        ).fetchall()
    ]

    def series(*names: str) -> list[F.Series]:
        return [(get(n).label, {p.agent: p.metrics[n] for p in profs_list}) for n in names]

    def keyed(name: str) -> dict[str, dict[str, Estimate]]:
        return {p.agent: p.keyed.get(name, {}) for p in profs_list}

    figs: dict[str, str] = {}

    def add(fig_id: str, fig: Figure, caption: str) -> None:
        figs[fig_id] = _figure(fig_id, fig, caption)

    players = int(summary["players"])  # type: ignore[call-overload]
    add(
        "fig-trueskill",
        F.fig_trueskill(rs, col),
        "TrueSkill posterior mean μ per agent; bars show ±3σ (99.7% interval).",
    )
    add(
        "fig-win-rate",
        F.fig_win_rate(profs_list, col, players),
        "Share of games finished with the highest score (shared wins split); 95% bootstrap intervals.",
    )
    bands = {c: F.trajectory_bands(con, sel, c, agents) for c in ("wealth", "sets", "score")}
    add(
        "fig-wealth",
        F.fig_bands(
            bands["wealth"],
            col,
            "Money over turns",
            "coins held",
            "Mean over games still running at each turn (late turns favour longer games).",
            code,
        ),
        "Money trajectories: mean money per agent at the end of each turn, with 95% bootstrap bands.",
    )
    add(
        "fig-sets",
        F.fig_bands(
            bands["sets"],
            col,
            "Complete sets over turns",
            "complete sets",
            "Finished games carry their final count forward.",
            code,
        ),
        "Mean complete sets per agent by turn, with 95% bootstrap bands.",
    )
    add(
        "fig-score",
        F.fig_bands(
            bands["score"],
            col,
            "Score over turns",
            "score",
            "Finished games carry their final score forward.",
            code,
        ),
        "Mean score per agent by turn, with 95% bootstrap bands.",
    )
    add(
        "fig-phase",
        F.fig_phase(keyed("bid_aggressiveness_donkeys"), agents, col, code),
        "Bid aggressiveness by the number of donkeys drawn when the auction opened, with 95% "
        "bootstrap intervals (seeded); code agents dashed with squares.",
    )
    comp_axes, comp_data = _compositions(keyed("win_rate_by_composition"))
    add(
        "fig-composition",
        F.fig_composition_radar(comp_data, comp_axes, col, code),
        "Win rate of each agent under test against each code-agent composition ("
        + ", ".join(f"{k} = {' + '.join(v)}" for k, v in COMPOSITIONS.items())
        + "), as percentiles across the agents under test: outward beats more of them.",
    )
    eta = F.per_game_values(con, sel, "eta")
    tau = F.per_game_values(con, sel, "tau")
    add(
        "fig-economic",
        F.fig_economic(eta, tau, profs_list, col, code),
        "Median per-game η against median τ; bars are interquartile ranges, marker area grows "
        "with win rate; squares are code agents.",
    )
    norm = F.percentiles(F.radar_scores(profs_list, {r.agent: r for r in rs}))
    add(
        "fig-radar",
        F.fig_radar(norm, col, code),
        "Six axes rank-normalised across agents (outward is better): TrueSkill μ, η, "
        "1 − ½(overbid + self-bid), TC challenger win rate, log(late / early bid aggressiveness), "
        "sets per game. Code agents dashed.",
    )
    add(
        "fig-radar-agents",
        F.fig_radar_grid(norm, col, code),
        "The same six axes, one radar per agent, each against the median of all agents (dotted).",
    )
    add(
        "fig-eta-distribution",
        F.fig_distributions(
            eta, agents, col, "Capital efficiency per game", "η = score / gross outflow"
        ),
        "Distribution of per-game η (box: quartiles, whiskers: 1.5 IQR).",
    )
    add(
        "fig-trade-net",
        F.fig_distributions(
            F.trade_nets(con, sel),
            agents,
            col,
            "Net coins per trade challenge",
            "coins received − coins given",
        ),
        "Per-trade net coins: right of zero the agent pocketed money, left it paid to win animals.",
    )
    no_model = "no model calls in this selection"
    for fig_id, names, heading, xlabel, pct, caption, empty in (
        (
            "fig-participation",
            ("auction_participation", "auction_win_rate"),
            "Auction participation and wins",
            "%",
            True,
            "Share of the auctions open to the agent in which it bid, and of those bid in that it "
            "closed as highest bidder.",
            "no auctions",
        ),
        (
            "fig-overpay",
            ("overpay_rate", "overbid_rate"),
            "Overpay and overbid frequency",
            "%",
            True,
            "Auction payments above the price (no change given), and auctions with a bid above "
            "the money held.",
            "no auctions",
        ),
        (
            "fig-tc-rates",
            ("tc_counter_rate", "challenger_win_rate", "target_win_rate"),
            "Trade challenges: counters and wins",
            "%",
            True,
            "Challenges countered as target, and won as challenger and as target.",
            "no trade challenges",
        ),
        (
            "fig-bluff-size",
            ("bluff_size",),
            "Bluff size",
            "0-value cards per bluff",
            False,
            "Mean number of cards in the agent's bluffs (offers of 0-value cards only).",
            "no bluffs",
        ),
        (
            "fig-ties",
            ("tie_rate",),
            "Tie frequency",
            "countered challenges with a tie (%)",
            True,
            "Share of the countered challenges the agent took part in whose offers tied at least once.",
            "no countered trade challenges",
        ),
        (
            "fig-tokens",
            ("llm_output_tokens",),
            "Token use",
            "output tokens per model call",
            False,
            "Mean output (completion) tokens per model call; tokens per game are in the model table.",
            no_model,
        ),
        (
            "fig-truncation",
            ("llm_truncation_rate",),
            "Truncated answers",
            "model calls cut off by the token limit (%)",
            True,
            "Share of model calls whose answer was cut off by the token limit.",
            no_model,
        ),
        (
            "fig-set-cost",
            ("set_cost",),
            "Cost per complete set",
            "coins of gross outflow per set",
            False,
            "Gross outflow over all animals divided by the complete sets finished, pooled over games.",
            "no complete sets",
        ),
        (
            "fig-exploitation",
            ("bluff_success_rate", "bluffed_rate", "bankrupt_initiation_rate"),
            "Exploitation",
            "%",
            True,
            "Own bluffs the target accepted (exploiting), accepted offers that were bluffs "
            "(exploited), and challenges started with no money of value.",
            "no trade challenges",
        ),
        (
            "fig-bid-wealth",
            ("bid_to_wealth",),
            "Bid-to-wealth ratio",
            "bid / money held",
            False,
            "Mean of each bid divided by the money held when it was placed; above 1 is an overbid.",
            "no bids",
        ),
    ):
        add(
            fig_id,
            F.fig_bars(series(*names), agents, col, heading, xlabel, pct, code, empty),
            caption,
        )
    phases = keyed("tc_initiation_phase")
    add(
        "fig-tc-phase",
        F.fig_bars(
            [
                (ph, {a: by.get(ph, Estimate(None)) for a, by in phases.items()})
                for ph in ("early", "late")
            ],
            agents,
            col,
            "Trade-challenge initiation by donkey phase",
            "free turns spent on a trade challenge (%)",
            True,
            code,
            "no free turn choices",
        ),
        "Share of free turn choices that were trade challenges, before half of the donkeys were "
        "drawn (early) and after (late).",
    )
    cps = F.keyed_values(con, sel, "cost_per_set")
    vals, counts = _matrix(cps, agents, animals)
    vals = np.where(counts > 0, vals, np.nan)
    add(
        "fig-cost-per-set",
        F.fig_heatmap(
            agents,
            animals,
            vals,
            counts,
            "Gross outflow per complete set, by animal",
            ",.0f",
            "YlOrRd",
            width=10,
            robust=True,
        ),
        "Coins spent on an animal (auctions and trades) divided by sets of it completed; n = sets; "
        "blank where none. The colour scale ends at the largest value inside Q3 + 1.5 IQR, so one "
        "outlier cannot flatten the rest (beyond it: the top colour).",
    )
    for fig_id, name, heading, caption in (
        (
            "fig-auction-cost",
            "auction_cost",
            "Mean auction price paid, by animal",
            "Final auction price paid when buying a card (as winner or with the buy-right).",
        ),
        (
            "fig-trade-cost",
            "trade_cost",
            "Mean winning trade offer, by animal",
            "Value of the winner's last offer in the trade challenges it won.",
        ),
    ):
        data = F.keyed_values(con, sel, name)
        v, c = _matrix(data, agents, animals)
        add(
            fig_id,
            F.fig_heatmap(agents, animals, v, c, heading, ",.0f", "Blues", width=10),
            caption,
        )
    h2h = F.keyed_values(con, sel, "head_to_head")
    v, c = _matrix(h2h, agents, agents)
    add(
        "fig-crossplay",
        F.fig_heatmap(
            agents,
            [F.short(a, 14) for a in agents],
            100 * v,
            None,
            "Cross-play: row beats column (%)",
            ".0f",
            "RdBu",
            xlabel="opponent",
            vmin=0,
            vmax=100,
        ),
        "Share of seat pairs in which the row agent finished above the column agent (equal scores count half).",
    )
    seat_data = _seat_wins(con, sel)
    seats = sorted({k for _, k in seat_data}, key=int)
    v, c = _matrix(seat_data, agents, seats)
    add(
        "fig-seat-position",
        F.fig_heatmap(
            agents,
            [f"seat {s}" for s in seats],
            100 * v,
            c,
            "Win rate by seat position (%)",
            ".0f",
            "Greens",
            vmin=0,
        ),
        "Win rate of each agent by the seat it played (seat 0 moves first); n = seat-games.",
    )
    add(
        "fig-accept-size",
        F.fig_accept_by_size(F.keyed_values(con, sel, "accept_rate_by_size"), agents, col, code),
        "Share of trade challenges accepted, by the number of cards offered (sizes seen at least 5 times).",
    )
    scores = F.per_game_values(con, sel, "score")

    defs = "".join(
        f"<dt>{html.escape(m.label)}<br><small>{m.name} v{m.version} · {m.agg}</small></dt>"
        f"<dd>{html.escape(m.definition)}</dd>"
        for m in metrics()
    )
    now = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    scope = (
        f"tournament <b>{html.escape(sel.tournament)}</b>" if sel.tournament else "all stored games"
    )
    stat_items = (
        (f"{summary['games']:,}", "finished games"),
        (f"{len(agents)}", "agents"),
        (f"{summary['events']:,}", "events"),
        (f"{summary['turns']:.1f}", "mean turns"),
        (html.escape(str(summary["presets"])), "presets"),
        (html.escape(str(summary["modes"])), "auction modes"),
    )
    stats_html = "".join(
        f'<div class="stat"><b>{a}</b><span>{b}</span></div>' for a, b in stat_items
    )
    assert set(figs) == set(FIGURE_IDS), set(figs) ^ set(FIGURE_IDS)
    f = figs
    page = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)}</title><style>{CSS}</style></head>
<body>
<header><h1>{html.escape(title)}</h1>
<p>Ratings and behaviour recomputed from the event log: {scope}. Generated {now}.</p>
<div class="stats">{stats_html}</div></header>
<main>
<section id="ratings"><h2>Ratings</h2>
<p class="lead">Agents ordered by TrueSkill μ. Intervals under each value are 95% bootstrap intervals over the agent's seat-games.</p>
{_ratings_table(rs, profs, col, scores, code)}</section>
<section id="dynamics"><h2>Tournament dynamics</h2>
<p class="lead">Ratings, wins and how wealth, sets and score build up over a game.</p>
<div class="grid">{f["fig-trueskill"]}{f["fig-win-rate"]}{f["fig-wealth"]}{f["fig-sets"]}{f["fig-score"]}{f["fig-phase"]}</div></section>
<section id="behaviour"><h2>Behaviour profile</h2>
<p class="lead">The strategic-behaviour table (the columns of the paper's Table 3): point estimate with the 95% bootstrap interval below it. Hover a heading for its definition.</p>
{_behaviour_table(profs_list, col, PAPER_COLUMNS, "behaviour-table", False)}
<h3 style="font-size:14px;margin:18px 0 6px">More behaviour: bargaining, trades and phases</h3>
{_behaviour_table(profs_list, col, MORE_COLUMNS, "behaviour-more-table", True)}</section>
<section id="economics"><h2>Economic profile and strategy</h2>
<p class="lead">Spending efficiency against bargaining tightness, robustness across code-agent compositions, and the six-axis strategic radar (overlaid and per agent). Code agents are drawn dashed or with squares.</p>
<div class="grid">{f["fig-economic"]}{f["fig-composition"]}{f["fig-radar"]}{f["fig-eta-distribution"]}{f["fig-trade-net"]}</div>
<div class="stack" style="margin-top:18px">{f["fig-radar-agents"]}</div></section>
<section id="engine"><h2>Engine-level metrics</h2>
<p class="lead">Auctions, trade challenges, model usage and cost per set, per agent with 95% bootstrap intervals (pale bars with a dashed outline: code agents).</p>
<div class="grid">{f["fig-participation"]}{f["fig-overpay"]}{f["fig-tc-rates"]}{f["fig-bluff-size"]}{f["fig-ties"]}{f["fig-tokens"]}{f["fig-truncation"]}{f["fig-set-cost"]}{f["fig-crossplay"]}</div></section>
<section id="governance"><h2>Governance-level analysis</h2>
<p class="lead">Seat positions, how targets answer trade challenges, exploitation, bids against wealth and when agents challenge (money trajectories are under tournament dynamics).</p>
<div class="grid">{f["fig-seat-position"]}{f["fig-accept-size"]}{f["fig-exploitation"]}{f["fig-bid-wealth"]}{f["fig-tc-phase"]}</div></section>
<section id="costs"><h2>What cards cost</h2>
<p class="lead">Gross outflow per complete set, and auction against trade prices, by animal (ascending value).</p>
<div class="stack">{f["fig-cost-per-set"]}{f["fig-auction-cost"]}{f["fig-trade-cost"]}</div></section>
<section id="paper-map"><h2>Figures of the paper</h2>
<p class="lead">Where each figure of the Cattle Trade paper appears in this report.</p>
{_paper_map()}</section>
<section id="llm"><h2>Model usage and format compliance</h2>
<p class="lead">Tokens, cost and latency of model calls, and how often actions were rejected or replaced by a fallback.</p>
{_llm_section(con, sel, profs_list, col)}</section>
<section id="definitions"><h2>Metric definitions</h2>
<p class="lead">Each derived value carries its definition version; <code>cattle metrics --rebuild</code> recomputes them from the events.</p>
<dl class="defs">{defs}</dl></section>
</main>
<footer>Cattle Trade · report built from {summary["events"]:,} events</footer>
{FIGURES_LOADED}
</body></html>
"""
    stats = ReportStats(
        games=int(summary["games"]),  # type: ignore[call-overload]
        agents=len(agents),
        seconds=time.perf_counter() - t0,
        bytes=len(page.encode()),
    )
    return page, stats


def code_agents(
    con: duckdb.DuckDBPyConnection, sel: Selection, agents: Sequence[str]
) -> frozenset[str]:
    """The agents that made no model call in the selection (code agents)."""
    where, params = sel.where()
    models = {
        r[0]
        for r in con.execute(
            f"SELECT DISTINCT agent FROM main.metric_values WHERE metric = 'llm_calls' AND {where}",
            params,
        ).fetchall()
    }
    return frozenset(a for a in agents if a not in models)


def _compositions(
    by_agent: dict[str, dict[str, Estimate]],
) -> tuple[list[str], dict[str, dict[str, float]]]:
    """Composition axes (C1..C7 that were played) and each tested agent's win rate on them.

    An agent counts as tested when it faced at least three of the compositions, which keeps
    the code agents themselves (who face other mixes) off the radar.
    """
    names = {tuple(sorted(v)): k for k, v in COMPOSITIONS.items()}
    data: dict[str, dict[str, float]] = {}
    for agent, keyed in by_agent.items():
        got = {}
        for key, est in keyed.items():
            label = names.get(tuple(sorted(key.split(" + "))))
            if label is not None and est.value is not None:
                got[label] = est.value
        if len(got) >= 3:
            data[agent] = got
    axes = sorted({c for got in data.values() for c in got}, key=lambda c: int(c[1:]))
    return axes, data


def _paper_map() -> str:
    rows = "".join(
        f"<tr><td class='name'>{html.escape(paper)}</td><td class='name'>"
        + ", ".join(f'<a href="#{fid}">{fid}</a>' for fid in fids)
        + "</td></tr>"
        for paper, fids in PAPER_FIGURES.items()
    )
    return (
        '<table id="paper-map-table"><thead><tr><th class="name">paper</th>'
        f'<th class="name">report</th></tr></thead><tbody>{rows}</tbody></table>'
    )


def _seat_wins(
    con: duckdb.DuckDBPyConnection, sel: Selection
) -> dict[tuple[str, str], tuple[float | None, float]]:
    where, params = sel.where()
    rows = con.execute(
        f"SELECT agent, CAST(seat AS VARCHAR), sum(num), sum(den) FROM main.metric_values"
        f" WHERE metric = 'win_rate' AND {where} GROUP BY ALL",
        params,
    ).fetchall()
    return {(a, s): ((n / d) if d else None, float(d)) for a, s, n, d in rows}
