"""MindGames' arena in `cattle metrics` and `cattle report` (`--game mindgames`, `--game
textarena`, or one game such as `--game mindgames:ipd3`).

The tables are the arena's (projections.textarena.arena): TrueSkill per game and per track,
the error lens per game and agent, and role analysis for the games that deal roles. The page
adds five figures, embedded as PNG. Agent names, game and role names are data: escaped in
HTML, plain text in figures (math parsing off).
"""

from __future__ import annotations

import html
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import duckdb
import msgspec
import numpy as np

from projections.metrics import plots as F
from projections.metrics import tables as T
from projections.metrics.aggregate import Selection
from projections.metrics.html import ReportStats, section_page
from projections.ratings import environment
from projections.textarena import arena as A
from projections.two_seat.report import figure_html, label

if TYPE_CHECKING:
    import matplotlib.pyplot as plt
    from matplotlib.figure import Figure
else:
    from projections.metrics.plots import plt


#: Figure ids, in page order.
FIGURE_IDS: tuple[str, ...] = (
    "fig-ta-trueskill-reward",
    "fig-ta-errors",
    "fig-ta-survival",
    "fig-ta-roles",
    "fig-ta-trajectories",
)

DEFINITIONS: tuple[tuple[str, int, str], ...] = (
    (
        "trueskill",
        1,
        "TrueSkill per game and per track: each game a free-for-all of its seats ranked by"
        " reward (teammates share a rank), games in game-id order.",
    ),
    ("invalid_rate", 1, "TextArena's invalid-move verdicts over the actions an agent sent."),
    (
        "ended_by_error",
        1,
        "Share of an agent's seats whose invalid move TextArena marked as ending or costing"
        " it the game.",
    ),
    (
        "actions_before_first_error",
        1,
        "Mean number of a seat's own actions before its first invalid move (seats with one).",
    ),
    (
        "win_rate",
        2,
        "Share of seats the environment named winners (the game's top reward, when the"
        " rewards are not all equal).",
    ),
    (
        "wins_after_opponent_error",
        2,
        "Share of an agent's seats that won in a game where an opponent's error (a seat of"
        " another team: Secret Mafia's Mafia or village, Codenames' pairs, else any other"
        " seat) cost that seat the game.",
    ),
    (
        "role_advantage",
        1,
        "A role's win rate minus the win rate of all seats of its game (Codenames: the four"
        " fixed parts; Secret Mafia: the dealt roles).",
    ),
)


def seats_of(con: duckdb.DuckDBPyConnection, sel: Selection) -> list[A.ArenaSeat]:
    """The arena's seats for a selection of games."""
    where, params = sel.where("t.game_id")
    return A.load_where(con, where, params)


def analysis_json(seats: Sequence[A.ArenaSeat]) -> dict[str, Any]:
    """Every table (and the trajectories) as JSON."""
    return {
        "trueskill_game": msgspec.to_builtins(A.trueskill_by(seats, "game")),
        "trueskill_track": msgspec.to_builtins(A.trueskill_by(seats, "track")),
        "errors": msgspec.to_builtins(A.error_lens(seats)),
        "roles": msgspec.to_builtins(A.roles(seats)),
        "role_advantage": msgspec.to_builtins(A.role_advantage(seats)),
        "trajectories_game": A.trajectories(seats, "game"),
        "trajectories_track": A.trajectories(seats, "track"),
    }


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _before(x: float | None) -> str:
    return "-" if x is None else f"{x:.1f}"


def tables(seats: Sequence[A.ArenaSeat]) -> list[tuple[str, list[str], list[list[str]]]]:
    """Every table as (title, header, rows of cells), the cells unescaped text."""
    out: list[tuple[str, list[str], list[list[str]]]] = []
    for by in ("game", "track"):
        out.append(
            (
                f"TrueSkill per {by}",
                [by, "agent", "mu", "sigma", "games"],
                [
                    [r.group, r.agent, f"{r.mu:.2f}", f"{r.sigma:.2f}", str(r.seats)]
                    for r in A.trueskill_by(seats, by)
                ],
            )
        )
    out.append(
        (
            "Errors (TextArena's verdicts)",
            ["game", "agent", "invalid", "ended", "before 1st", "won", "won opp. err"],
            [
                [
                    e.game,
                    e.agent,
                    _pct(e.invalid_rate),
                    _pct(e.ended_by_error),
                    _before(e.actions_before_first_error),
                    _pct(e.win_rate),
                    _pct(e.wins_after_opponent_error),
                ]
                for e in A.error_lens(seats)
            ],
        )
    )
    adv = A.role_advantage(seats)
    if adv:
        out.append(
            (
                "Roles: distribution and advantage",
                ["game", "role", "seats", "share", "won", "advantage"],
                [
                    [
                        r.game,
                        r.role,
                        str(r.seats),
                        _pct(r.share),
                        _pct(r.win_rate),
                        f"{100 * r.advantage:+.1f}",
                    ]
                    for r in adv
                ],
            )
        )
        out.append(
            (
                "Win rate by role and agent",
                ["game", "role", "agent", "seats", "reward", "won"],
                [
                    [
                        r.game,
                        r.role,
                        r.agent,
                        str(r.seats),
                        f"{r.mean_reward:.2f}",
                        _pct(r.win_rate),
                    ]
                    for r in A.roles(seats)
                ],
            )
        )
    return out


#: Columns holding data names (left-aligned, repeated when a table is split).
_NAMES = {"game", "track", "agent", "role"}


def render_tables(
    seats: Sequence[A.ArenaSeat], width: int, label: Callable[[str], str]
) -> list[Any]:
    """Every table as rich tables that fit `width` when printed ([] without games)."""
    if not seats:
        return []
    parts: list[Any] = []
    for title, head, rows in tables(seats):
        keys = next((i for i, h in enumerate(head) if h not in _NAMES), len(head))
        parts += T.fitted(T.Grid(title, head, rows, keys=keys), width, label)
    return parts


def render_lines(
    seats: Sequence[A.ArenaSeat], width: int, label: Callable[[str], str]
) -> list[str]:
    """Every table as plain text lines at most `width` wide ([] without games)."""
    return T.as_lines(render_tables(seats, width, label), width)


# ---------------------------------------------------------------------------- figures


def _agents(seats: Sequence[A.ArenaSeat]) -> list[str]:
    return sorted({s.agent for s in seats})


def _presets(seats: Sequence[A.ArenaSeat]) -> list[str]:
    return sorted({s.preset for s in seats})


_MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")


def fig_trueskill_reward(seats: Sequence[A.ArenaSeat], col: dict[str, str]) -> Figure:
    """One point per game and agent: its total reward against its TrueSkill μ in that game."""
    fig, ax = F.new_figure()
    rated = {(r.group, r.agent): r for r in A.trueskill_by(seats, "game")}
    total: dict[tuple[str, str], float] = defaultdict(float)
    for s in seats:
        total[(s.preset, s.agent)] += s.reward
    presets = _presets(seats)
    seen: set[str] = set()
    for (game, agent), r in sorted(rated.items()):
        k = presets.index(game) % len(_MARKERS)
        ax.scatter(
            total[(game, agent)],
            r.mu,
            color=col[agent],
            marker=_MARKERS[k],
            s=42,
            label=label(agent) if agent not in seen else None,
        )
        seen.add(agent)
    for k, game in enumerate(presets):
        ax.scatter([], [], color=F.MUTED, marker=_MARKERS[k % len(_MARKERS)], label=label(game))
    ax.set_xlabel("total reward")
    ax.set_ylabel("TrueSkill μ")
    ax.set_title("TrueSkill against total reward")
    ax.legend(fontsize=7, loc="best")
    return fig


def _grouped_bars(
    ax: Any,
    groups: Sequence[str],
    series: Sequence[str],
    value: Callable[[str, str], float | None],
    col: dict[str, str],
) -> None:
    x = np.arange(len(groups))
    w = 0.8 / max(1, len(series))
    for k, name in enumerate(series):
        vals = [value(g, name) for g in groups]
        ys = np.array([np.nan if v is None else v for v in vals], dtype=float)
        ax.bar(x - 0.4 + w * (k + 0.5), ys, width=w * 0.92, color=col[name], label=label(name))
    ax.set_xticks(x, [label(g, 18) for g in groups], rotation=20, ha="right")
    ax.grid(axis="x", visible=False)


def fig_errors(seats: Sequence[A.ArenaSeat], col: dict[str, str]) -> Figure:
    """Invalid-move rate of each agent in each game."""
    fig, ax = F.new_figure()
    lens = {(e.game, e.agent): e for e in A.error_lens(seats)}
    _grouped_bars(
        ax,
        _presets(seats),
        _agents(seats),
        lambda g, a: 100 * lens[(g, a)].invalid_rate if (g, a) in lens else None,
        col,
    )
    ax.set_ylabel("invalid moves, % of actions")
    ax.set_title("Invalid-move rate")
    ax.legend(fontsize=7, loc="best")
    return fig


def fig_survival(seats: Sequence[A.ArenaSeat], col: dict[str, str]) -> Figure:
    """Per agent, the distribution of its own actions before its first invalid move (seats
    that made one), with the share of its seats that made none."""
    fig, ax = F.new_figure()
    agents = _agents(seats)
    data = {
        a: [
            s.actions_before_first_error
            for s in seats
            if s.agent == a and s.actions_before_first_error is not None
        ]
        for a in agents
    }
    if not any(data.values()):
        return F.empty(fig, ax, "no invalid move in this selection")
    rng = np.random.default_rng(0)
    for k, a in enumerate(agents):
        ys = data[a]
        if ys:
            ax.boxplot([ys], positions=[k], widths=0.5, showfliers=False)
            ax.scatter(k + rng.uniform(-0.15, 0.15, len(ys)), ys, color=col[a], s=12, alpha=0.7)
        clean = sum(1 for s in seats if s.agent == a and s.actions_before_first_error is None)
        total = sum(1 for s in seats if s.agent == a)
        ax.text(
            k,
            0.98,
            f"{clean}/{total} clean",
            transform=ax.get_xaxis_transform(),
            ha="center",
            va="top",
            fontsize=7,
            color=F.MUTED,
        )
    top = max(max(ys) for ys in data.values() if ys)
    ax.set_ylim(-0.5, top * 1.15 + 1.5)
    ax.set_xlim(-0.6, len(agents) - 0.4)
    from matplotlib.ticker import MaxNLocator

    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xticks(range(len(agents)), [label(a, 16) for a in agents], rotation=20, ha="right")
    ax.set_ylabel("own actions before the first invalid move")
    ax.set_title("Turns survived before the first error")
    ax.grid(axis="x", visible=False)
    return fig


def fig_roles(seats: Sequence[A.ArenaSeat]) -> Figure:
    """Each role's win rate minus its game's average seat, in percentage points."""
    fig, ax = F.new_figure()
    adv = A.role_advantage(seats)
    if not adv:
        return F.empty(fig, ax, "no game with roles in this selection")
    games = sorted({r.game for r in adv})
    gcol = F.colours(games)
    ys = np.arange(len(adv))
    ax.barh(ys, [100 * r.advantage for r in adv], color=[gcol[r.game] for r in adv])
    ax.set_yticks(ys, [label(f"{r.game}: {r.role}", 28) for r in adv])
    ax.invert_yaxis()
    ax.axvline(0, color=F.MUTED, lw=0.8)
    ax.set_xlabel("win rate minus the game's, percentage points")
    ax.set_title("Role advantage")
    ax.grid(axis="y", visible=False)
    return fig


def fig_trajectories(seats: Sequence[A.ArenaSeat], col: dict[str, str]) -> Figure:
    """μ of every agent after each game, one panel per game."""
    traj = A.trajectories(seats, "game")
    n = max(1, len(traj))
    cols = min(2, n)
    rows = (n + cols - 1) // cols
    fig, axes = plt.subplots(
        rows, cols, figsize=(5.6 * cols, 2.8 * rows), layout="constrained", squeeze=False
    )
    for ax in axes.flat[len(traj) :]:
        ax.axis("off")
    for ax, (game, t) in zip(axes.flat, sorted(traj.items()), strict=False):
        data = np.array(t["rows"], dtype=float)
        # Start every line at the prior (before the first game).
        prior = environment().mu
        data = np.vstack([[0.0, *([prior] * len(t["agents"]))], data])
        for j, agent in enumerate(t["agents"]):
            ax.plot(data[:, 0], data[:, j + 1], color=col[agent], lw=1.4, label=label(agent))
        ax.set_title(label(game, 28), fontsize=10)
        ax.set_xlabel("games played")
        from matplotlib.ticker import MaxNLocator

        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_ylabel("TrueSkill μ")
        ax.legend(fontsize=7, loc="best")
    return fig


# ---------------------------------------------------------------------------- HTML


def _table_html(table_id: str, head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    th = "".join(f"<th>{html.escape(h)}</th>" for h in head)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in r) + "</tr>" for r in rows
    )
    return (
        f'<div class="scroll"><table id="{table_id}"><thead><tr>{th}</tr></thead>'
        f"<tbody>{body}</tbody></table></div>"
    )


_TABLE_IDS = ("ta-trueskill-game", "ta-trueskill-track", "ta-errors", "ta-roles", "ta-role-agents")


def section_html(seats: Sequence[A.ArenaSeat]) -> str:
    """The arena's section of the report."""
    if not seats:
        return (
            '<section id="textarena"><h2>TextArena arena</h2><p class="empty">'
            "No finished TextArena games in this selection.</p></section>"
        )
    col = F.colours(_agents(seats))
    with plt.rc_context({"text.parse_math": False}):
        f = {
            "fig-ta-trueskill-reward": figure_html(
                "fig-ta-trueskill-reward",
                fig_trueskill_reward(seats, col),
                "Each agent in each game (marker: the game): its total reward there against"
                " its TrueSkill μ there.",
            ),
            "fig-ta-errors": figure_html(
                "fig-ta-errors",
                fig_errors(seats, col),
                "Share of each agent's actions that TextArena judged invalid, per game.",
            ),
            "fig-ta-survival": figure_html(
                "fig-ta-survival",
                fig_survival(seats, col),
                "Own actions a seat sent before its first invalid move (seats that made one;"
                " box: quartiles); below each agent, its seats without an invalid move.",
            ),
            "fig-ta-roles": figure_html(
                "fig-ta-roles",
                fig_roles(seats),
                "Win rate of each role minus that of all seats of its game.",
            ),
            "fig-ta-trajectories": figure_html(
                "fig-ta-trajectories",
                fig_trajectories(seats, col),
                "TrueSkill μ of each agent after each game of a game, in game-id order, from the prior.",
            ),
        }
    parts = [
        f'<h3 style="font-size:14px;margin:18px 0 6px">{html.escape(title)}</h3>'
        + _table_html(tid, head, rows)
        for tid, (title, head, rows) in zip(_TABLE_IDS, tables(seats), strict=False)
    ]
    games = len({s.game_id for s in seats})
    defs = "".join(
        f"<li><b>{html.escape(n)}</b> v{v}: {html.escape(t)}</li>" for n, v, t in DEFINITIONS
    )
    return f"""<section id="textarena"><h2>TextArena arena</h2>
<p class="lead">{games:,} finished games of {len(_presets(seats))} game(s),
{len(col)} agents. TextArena's own verdicts on invalid moves; TrueSkill per game and track.</p>
<div class="grid">{f["fig-ta-trueskill-reward"]}{f["fig-ta-errors"]}</div>
<div class="grid">{f["fig-ta-survival"]}{f["fig-ta-roles"]}</div>
<div class="stack">{f["fig-ta-trajectories"]}</div>
{"".join(parts)}
<h3 style="font-size:14px;margin:18px 0 6px">Definitions</h3><ul>{defs}</ul></section>"""


def build_report(
    con: duckdb.DuckDBPyConnection, sel: Selection, title: str
) -> tuple[str, ReportStats]:
    """A page of its own holding the arena section."""
    t0 = time.perf_counter()
    seats = seats_of(con, sel)
    page = section_page(title, section_html(seats))
    stats = ReportStats(
        games=len({s.game_id for s in seats}),
        agents=len({s.agent for s in seats}),
        seconds=time.perf_counter() - t0,
        bytes=len(page.encode()),
    )
    return page, stats


class ArenaAnalysisHooks(T.TableHooks):
    """The arena as the generic commands reach it (`cattle metrics --game mindgames`,
    `cattle report --game mindgames`). Nothing here resamples: `resamples` is unused."""

    max_resamples = 1_000_000

    def definitions(self) -> list[tuple[str, int, str]]:
        """(name, version, definition) of every metric."""
        return list(DEFINITIONS)

    def metrics_json(self, con: duckdb.DuckDBPyConnection, sel: Selection, resamples: int) -> Any:
        """Every table as JSON."""
        return analysis_json(seats_of(con, sel))

    def metrics_tables(
        self,
        con: duckdb.DuckDBPyConnection,
        sel: Selection,
        resamples: int,
        width: int,
        label: Callable[[str], str],
    ) -> list[Any]:
        """Every table as rich tables that fit `width` ([] without games)."""
        return render_tables(seats_of(con, sel), width=width, label=label)

    def report(
        self, con: duckdb.DuckDBPyConnection, sel: Selection, title: str, resamples: int
    ) -> tuple[str, ReportStats]:
        """A self-contained HTML page with the arena section."""
        return build_report(con, sel, title)


HOOKS = ArenaAnalysisHooks()
"""The arena's analysis hooks (see `agents.textarena.game`)."""
