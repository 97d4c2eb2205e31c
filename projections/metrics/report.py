"""The HTML report: one self-contained file with ratings, figures and the behaviour table.

Everything is recomputed from the store's derived tables (rebuilt from events when stale);
images are embedded as base64 PNG, styles are inline, nothing is fetched when it is opened.
"""

from __future__ import annotations

import base64
import datetime as dt
import html
import io
import time
from collections.abc import Sequence
from dataclasses import dataclass

import duckdb
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.figure import Figure

from projections.metrics import figures as F
from projections.metrics.aggregate import (
    PAPER_METRICS,
    TABLE_METRICS,
    AgentProfile,
    Estimate,
    Selection,
    profiles,
)
from projections.metrics.ratings import Rating, ratings
from projections.metrics.registry import get, metrics

#: Figure ids, in page order (the report test checks every one is present).
FIGURE_IDS: tuple[str, ...] = (
    "fig-trueskill",
    "fig-win-rate",
    "fig-wealth",
    "fig-sets",
    "fig-score",
    "fig-phase",
    "fig-economic",
    "fig-radar",
    "fig-cost-per-set",
    "fig-auction-cost",
    "fig-trade-cost",
    "fig-crossplay",
    "fig-seat-position",
    "fig-accept-size",
    "fig-eta-distribution",
    "fig-trade-net",
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

CSS = """
:root { --ink:#1f2430; --muted:#6b7280; --line:#e5e7eb; --bg:#f6f7f9; --accent:#2563eb; }
* { box-sizing: border-box; }
body { margin:0; background:var(--bg); color:var(--ink);
       font:14px/1.5 -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
header { background:#111827; color:#f9fafb; padding:28px 40px 24px; }
header h1 { margin:0 0 4px; font-size:24px; letter-spacing:-0.01em; }
header p { margin:0; color:#cbd5e1; }
.stats { display:flex; gap:12px; flex-wrap:wrap; margin-top:16px; }
.stat { background:#1f2937; border-radius:8px; padding:8px 14px; min-width:120px; }
.stat b { display:block; font-size:18px; color:#fff; }
.stat span { font-size:12px; color:#9ca3af; }
main { max-width:1280px; margin:0 auto; padding:24px 40px 60px; }
section { background:#fff; border:1px solid var(--line); border-radius:10px;
          padding:20px 24px; margin:0 0 22px; }
section h2 { margin:0 0 4px; font-size:18px; }
section > p.lead { margin:0 0 14px; color:var(--muted); }
.grid { display:grid; grid-template-columns:repeat(auto-fit, minmax(520px, 1fr)); gap:18px; }
figure { margin:0; border:1px solid var(--line); border-radius:8px; padding:10px; background:#fff; }
figure img { width:100%; height:auto; display:block; }
figcaption { color:var(--muted); font-size:12px; margin-top:6px; }
table { border-collapse:collapse; width:100%; font-variant-numeric:tabular-nums; font-size:12.5px; }
th, td { padding:6px 8px; border-bottom:1px solid var(--line); text-align:right; white-space:nowrap; }
th { background:#f9fafb; font-weight:600; color:#374151; position:sticky; top:0; }
th:first-child, td:first-child, th.name, td.name { text-align:left; }
.stack { display:grid; gap:18px; }
.stack figure img { max-width:1100px; margin:0 auto; }
tbody tr:nth-child(even) { background:#fcfcfd; }
td .ci { display:block; color:var(--muted); font-size:11px; }
.swatch { display:inline-block; width:10px; height:10px; border-radius:2px; margin-right:7px; }
.scroll { overflow-x:auto; }
.empty { color:var(--muted); font-style:italic; padding:10px 0; }
dl.defs { display:grid; grid-template-columns:220px 1fr; gap:6px 18px; margin:0; }
dl.defs dt { font-weight:600; }
dl.defs dt small { color:var(--muted); font-weight:400; }
dl.defs dd { margin:0; color:#374151; }
footer { color:var(--muted); font-size:12px; text-align:center; padding:0 0 30px; }
"""


@dataclass(frozen=True)
class ReportStats:
    """What a report covered and how long it took to build."""

    games: int
    agents: int
    seconds: float
    bytes: int


def _png(fig: Figure) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", facecolor="white")
    plt.close(fig)
    return base64.b64encode(buf.getvalue()).decode()


def _figure(fig_id: str, fig: Figure, caption: str) -> str:
    return (
        f'<figure id="{fig_id}"><img id="{fig_id}-img" alt="{html.escape(caption)}"'
        f' src="data:image/png;base64,{_png(fig)}"><figcaption>{html.escape(caption)}'
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


def _ratings_table(
    rs: Sequence[Rating], profs: dict[str, AgentProfile], col: dict[str, str]
) -> str:
    head = (
        "<tr><th>#</th><th class='name'>agent</th><th>TrueSkill μ</th><th>σ</th><th>μ − 3σ</th>"
        "<th>seat-games</th><th>win rate</th><th>mean score</th><th>sets / game</th></tr>"
    )
    body = []
    for i, r in enumerate(rs, 1):
        p = profs.get(r.agent)
        m = p.metrics if p else {}
        body.append(
            f"<tr><td>{i}</td><td class='name'>{_agent_cell(r.agent, col)}</td>"
            f"<td><b>{r.mu:.2f}</b></td><td>{r.sigma:.2f}</td><td>{r.conservative:.2f}</td>"
            f"<td>{p.games if p else 0}</td><td>{_fmt(m.get('win_rate'), True)}</td>"
            f"<td>{_fmt(m.get('score'), False)}</td><td>{_fmt(m.get('sets_per_game'), False)}</td></tr>"
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
            if cost is None or cost.value is None
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
        names=(*TABLE_METRICS, *_EXTRA),
        keyed=("bid_aggressiveness_phase",),
        resamples=resamples,
    )
    rank = {r.agent: i for i, r in enumerate(rs)}
    profs_list.sort(key=lambda p: (rank.get(p.agent, len(rank)), p.agent))
    agents = [p.agent for p in profs_list]
    profs = {p.agent: p for p in profs_list}
    col = F.colours(agents)
    animals = [
        r[0]
        for r in con.execute(
            "SELECT DISTINCT key, min(animal_value(key)) FROM main.metric_values"
            " WHERE metric = 'cost_per_set' GROUP BY key ORDER BY 2"
        ).fetchall()
    ]

    figs: list[str] = []
    players = int(summary["players"])  # type: ignore[call-overload]
    figs.append(
        _figure(
            "fig-trueskill",
            F.fig_trueskill(rs, col),
            "TrueSkill posterior mean μ per agent; bars show ±3σ (99.7% interval).",
        )
    )
    figs.append(
        _figure(
            "fig-win-rate",
            F.fig_win_rate(profs_list, col, players),
            "Share of games finished with the highest score (shared wins split); 95% bootstrap intervals.",
        )
    )
    bands = {c: F.trajectory_bands(con, sel, c, agents) for c in ("wealth", "sets", "score")}
    figs.append(
        _figure(
            "fig-wealth",
            F.fig_bands(
                bands["wealth"],
                col,
                "Wealth over turns",
                "coins held",
                "Mean over games still running at each turn (late turns favour longer games).",
            ),
            "Mean money per agent at the end of each turn, with 95% bootstrap bands.",
        )
    )
    figs.append(
        _figure(
            "fig-sets",
            F.fig_bands(
                bands["sets"],
                col,
                "Complete sets over turns",
                "complete sets",
                "Finished games carry their final count forward.",
            ),
            "Mean complete sets per agent by turn, with 95% bootstrap bands.",
        )
    )
    figs.append(
        _figure(
            "fig-score",
            F.fig_bands(
                bands["score"],
                col,
                "Score over turns",
                "score",
                "Finished games carry their final score forward.",
            ),
            "Mean score per agent by turn, with 95% bootstrap bands.",
        )
    )
    figs.append(
        _figure(
            "fig-phase",
            F.fig_phase(F.keyed_values(con, sel, "bid_aggressiveness_donkeys"), agents, col),
            "Mean highest bid divided by the animal's set value, by the number of donkeys drawn.",
        )
    )
    eta = F.per_game_values(con, sel, "eta")
    tau = F.per_game_values(con, sel, "tau")
    figs.append(
        _figure(
            "fig-economic",
            F.fig_economic(eta, tau, profs_list, col),
            "Median per-game η against median τ; bars are interquartile ranges, marker area grows with win rate.",
        )
    )
    norm = F.percentiles(F.radar_scores(profs_list, {r.agent: r for r in rs}))
    figs.append(
        _figure(
            "fig-radar",
            F.fig_radar(norm, col),
            "Six axes rank-normalised across agents (outward is better): TrueSkill μ, η, "
            "1 − ½(overbid + self-bid), TC challenger win rate, log(late / early bid aggressiveness), sets per game.",
        )
    )
    cps = F.keyed_values(con, sel, "cost_per_set")
    vals, counts = _matrix(cps, agents, animals)
    vals = np.where(counts > 0, vals, np.nan)
    figs.append(
        _figure(
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
            ),
            "Coins spent on an animal (auctions and trades) divided by sets of it completed; n = sets; blank where none.",
        )
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
        figs.append(
            _figure(
                fig_id,
                F.fig_heatmap(agents, animals, v, c, heading, ",.0f", "Blues", width=10),
                caption,
            )
        )
    h2h = F.keyed_values(con, sel, "head_to_head")
    v, c = _matrix(h2h, agents, agents)
    figs.append(
        _figure(
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
    )
    seat_data = _seat_wins(con, sel)
    seats = sorted({k for _, k in seat_data}, key=int)
    v, c = _matrix(seat_data, agents, seats)
    figs.append(
        _figure(
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
    )
    figs.append(
        _figure(
            "fig-accept-size",
            F.fig_accept_by_size(F.keyed_values(con, sel, "accept_rate_by_size"), agents, col),
            "Share of trade challenges accepted, by the number of cards offered (sizes seen at least 5 times).",
        )
    )
    figs.append(
        _figure(
            "fig-eta-distribution",
            F.fig_distributions(
                eta, agents, col, "Capital efficiency per game", "η = score / gross outflow"
            ),
            "Distribution of per-game η (box: quartiles, whiskers: 1.5 IQR).",
        )
    )
    figs.append(
        _figure(
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
    )

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
    f = {fid: s for fid, s in zip(FIGURE_IDS, figs, strict=True)}
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
{_ratings_table(rs, profs, col)}</section>
<section id="dynamics"><h2>Tournament dynamics</h2>
<p class="lead">Ratings, wins and how wealth, sets and score build up over a game.</p>
<div class="grid">{f["fig-trueskill"]}{f["fig-win-rate"]}{f["fig-wealth"]}{f["fig-sets"]}{f["fig-score"]}{f["fig-phase"]}</div></section>
<section id="behaviour"><h2>Behaviour profile</h2>
<p class="lead">The strategic-behaviour table (the columns of the paper's Table 3): point estimate with the 95% bootstrap interval below it. Hover a heading for its definition.</p>
{_behaviour_table(profs_list, col, PAPER_COLUMNS, "behaviour-table", False)}
<h3 style="font-size:14px;margin:18px 0 6px">More behaviour: bargaining, trades and phases</h3>
{_behaviour_table(profs_list, col, MORE_COLUMNS, "behaviour-more-table", True)}</section>
<section id="economics"><h2>Economic profile and strategy</h2>
<p class="lead">Spending efficiency against bargaining tightness, and the six-axis strategic radar.</p>
<div class="grid">{f["fig-economic"]}{f["fig-radar"]}{f["fig-eta-distribution"]}{f["fig-trade-net"]}</div></section>
<section id="costs"><h2>What cards cost</h2>
<p class="lead">Gross outflow per complete set, and auction against trade prices, by animal (ascending value).</p>
<div class="stack">{f["fig-cost-per-set"]}{f["fig-auction-cost"]}{f["fig-trade-cost"]}</div></section>
<section id="matchups"><h2>Match-ups and positions</h2>
<p class="lead">Head-to-head results, seat-position effects and how targets answer trade challenges.</p>
<div class="grid">{f["fig-crossplay"]}{f["fig-seat-position"]}{f["fig-accept-size"]}</div></section>
<section id="llm"><h2>Model usage and format compliance</h2>
<p class="lead">Tokens, cost and latency of model calls, and how often actions were rejected or replaced by a fallback.</p>
{_llm_section(con, sel, profs_list, col)}</section>
<section id="definitions"><h2>Metric definitions</h2>
<p class="lead">Each derived value carries its definition version; <code>cattle metrics --rebuild</code> recomputes them from the events.</p>
<dl class="defs">{defs}</dl></section>
</main>
<footer>Cattle Trade · report built from {summary["events"]:,} events</footer>
<script>
// Marks the page once every embedded figure has decoded (checked by the rendering test).
window.addEventListener("load", function () {{
  var ok = Array.prototype.filter.call(document.images, function (i) {{
    return i.complete && i.naturalWidth > 0;
  }});
  document.body.setAttribute("data-figures-loaded", String(ok.length));
}});
</script>
</body></html>
"""
    stats = ReportStats(
        games=int(summary["games"]),  # type: ignore[call-overload]
        agents=len(agents),
        seconds=time.perf_counter() - t0,
        bytes=len(page.encode()),
    )
    return page, stats


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
