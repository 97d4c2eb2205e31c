"""GameBench's analysis of a selection of its games (`cattle metrics --game gamebench`,
`cattle report --game gamebench`, or one game: `--game gamebench:pit`).

Everything is recomputed from the stored games, as GameBench's paper reports them (§3.3,
Tables 1 and 2, Figure 1, Appendix L):

* **Table 1**: the Bradley-Terry rating of every agent over all the games together (each
  game weighing the same in the bootstrap) and over each game alone, every agent in every
  game's fit, the draws in GameBench's order (`bradley_terry.rate_suite`): the mean over
  bootstrap samples (GameBench's published rating) with the 5th and 95th percentiles (its
  whiskers).
* **Table 2**: the average match score of every agent in every game (its total score there
  divided by its matches there); overall, pooled over all its matches.
* **Appendix L**: per game, matches and total score per pair of agents, the win
  probabilities the game's ratings imply, and its rating over the bootstrap samples.
* **Figure 1**: the per-game ratings with their whiskers (1a), and boxplots of the overall
  rating over the bootstrap samples, whiskers at the 5th and 95th percentiles (1b).
* The win-probability matrix the overall ratings imply, P(a beats b) = e^βa / (e^βa + e^βb),
  and the matches per agent and game.

Agents that never met, not even through other agents (two separate groups of a store, say),
are placed against each other by the regularisation alone: no win probability is given
between groups (None), and the tables and the page name the groups.

A match is one pairwise record of `projections.ratings.match_records`: two agents and their
shares of the match scores (a team game is one match between the agents filling its teams).
Agent names and game labels are data: escaped in HTML, plain text in figures and tables.
"""

from __future__ import annotations

import html
import math
import time
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import duckdb
import numpy as np

from projections import bradley_terry as BT
from projections.metrics import plots as F
from projections.metrics import tables as T
from projections.metrics.aggregate import Selection
from projections.metrics.html import ReportStats, section_page
from projections.ratings import match_records, scored_games, team_games
from projections.two_seat.report import figure_html, label

if TYPE_CHECKING:
    import matplotlib.pyplot as plt
    from matplotlib.figure import Figure
else:
    from projections.metrics.plots import plt


SEED = 0
"""Seed of the bootstrap draws: the same store gives the same intervals on every run."""
MAX_RESAMPLES = 100_000
"""Bootstrap samples the commands accept (GameBench's script draws 1,000, its paper gives
10,000)."""
OVERALL = "overall"
"""The key of the all-games column in the JSON and the tables."""

#: Figure ids, in page order.
FIGURE_IDS: tuple[str, ...] = ("fig-gb-ratings", "fig-gb-boxplot", "fig-gb-winprob")
"""The figures every page has; each game adds its Appendix L figure, `fig-gb-l-<k>`."""

SHORT: Mapping[str, str] = {
    "air_land_sea": "ALS",
    "arctic_scavengers": "ARC",
    "are_you_the_traitor": "AYT",
    "codenames": "CN",
    "hive": "HV",
    "pit": "PT",
    "santorini": "SN",
    "two_rooms_and_a_boom": "TRB",
    "sea_battle": "SB",
}
"""The paper's column labels of its nine games (a game it does not name gets the initials
of its name)."""

PRINTED: Mapping[str, str] = {
    "sea_battle": "ALS",
    "two_rooms_and_a_boom": "ARC",
    "are_you_the_traitor": "AYT",
    "air_land_sea": "CN",
    "santorini": "HV",
    "hive": "PT",
    "codenames": "SN",
    "arctic_scavengers": "TRB",
    "pit": "SB",
}
"""The heading each game's column carries in the paper's printed Tables 1 and 2: the script
(GameBench commit 50469e6, generate_all_results.py) fills the columns in the order the games
first appear in matches.json and prints alphabetical headings over them, so only AYT sits
over its own game."""

DEFINITIONS: tuple[tuple[str, int, str], ...] = (
    (
        "rating",
        2,
        "Bradley-Terry strength (P(a beats b) = e^βa / (e^βa + e^βb)), fitted by maximum"
        " likelihood with GameBench's regularisation 0.001 to every bootstrap sample of the"
        " matches, each match drawn with weight 1 / (matches of its game); the rating is the"
        " mean over samples, the whiskers their 5th and 95th percentiles. Per game: the same"
        " over that game's matches, every agent in the fit; draws in GameBench's order.",
    ),
    (
        "average_score",
        2,
        "An agent's total match score in a game divided by its matches there (a match score is"
        " the agent's share of the two sides' scores, in [0, 1]); overall: its total score over"
        " all its matches divided by their number.",
    ),
    (
        "win_probability",
        2,
        "P(row agent beats column agent) = e^βr / (e^βr + e^βc) from the overall ratings;"
        " none between agents that never met, not even through other agents.",
    ),
    ("matches", 1, "Matches (pairwise records) an agent played, per game and in all."),
)


def printed_label(game: str) -> str | None:
    """The heading the paper printed over this game's column (None for a game it lacks)."""
    return PRINTED.get(game.partition(":")[2] or game)


def short_label(game: str) -> str:
    """A game's column label: the paper's abbreviation, else the initials of its name."""
    name = game.partition(":")[2] or game
    if name in SHORT:
        return SHORT[name]
    words = [w for w in name.replace("-", "_").split("_") if w]
    return ("".join(w[0] for w in words) if len(words) > 1 else name[:3]).upper() or "?"


@dataclass
class Analysis:
    """GameBench's tables over a selection of games."""

    games: list[str]
    """Game names with at least one match, sorted."""
    agents: list[str]
    """Best overall rating first."""
    matches: int
    """Pairwise records (matches) in all."""
    finished: dict[str, int]
    """Finished games per game."""
    overall: dict[str, BT.Rating]
    per_game: dict[str, dict[str, BT.Rating]]
    samples: dict[str, np.ndarray]
    """Each agent's overall rating in every bootstrap sample."""
    game_samples: dict[str, dict[str, np.ndarray]]
    """game -> agent -> the agent's rating in that game in every bootstrap sample."""
    scores: dict[str, dict[str, float]]
    """agent -> game -> average match score."""
    counts: dict[str, dict[str, int]]
    """agent -> game -> matches."""
    pairs: dict[str, dict[tuple[str, str], tuple[int, float]]]
    """game -> (agent, opponent) -> (matches between them, the agent's total score in them)."""
    resamples: int
    seed: int = SEED
    win: dict[str, dict[str, float | None]] = field(default_factory=dict)
    """P(row beats column) from the overall ratings; None between agents that never met."""
    groups: list[list[str]] = field(default_factory=list)
    """The agents linked by matches, directly or through others (in rating order); more than
    one group: ratings compare only within a group."""
    people: dict[str, list[tuple[str, str, float, float]]] = field(default_factory=dict)
    """person (a `human` agent) -> (game, opponent, the person's score, the opponent's) of
    every match, in game-id order."""

    def overall_score(self, agent: str) -> float | None:
        """The agent's total score over all its matches divided by their number (pooled)."""
        n = sum(self.counts.get(agent, {}).values())
        if not n:
            return None
        total = sum(s * self.counts[agent][g] for g, s in self.scores.get(agent, {}).items())
        return total / n


def is_person(agent: str) -> bool:
    """Whether an agent is a person (`human`, `human:NAME`)."""
    return agent.split(":", 1)[0].split("?", 1)[0].strip() == "human"


def person_rows(a: Analysis) -> list[tuple[str, str, str, int, int, int, int, float]]:
    """(person, game, opponent, matches, won, lost, level, mean score) per person, game and
    opponent: a match is won when the person's match score is above the opponent's."""
    out = []
    for person in sorted(a.people):
        tally: dict[tuple[str, str], list[tuple[float, float]]] = defaultdict(list)
        for game, other, mine, theirs in a.people[person]:
            tally[game, other].append((mine, theirs))
        for (game, other), got in sorted(tally.items()):
            won = sum(m > t for m, t in got)
            lost = sum(m < t for m, t in got)
            mean = sum(m for m, _ in got) / len(got)
            out.append((person, game, other, len(got), won, lost, len(got) - won - lost, mean))
    return out


def load_records(con: duckdb.DuckDBPyConnection, sel: Selection) -> list[dict[str, object]]:
    """The pairwise match records of the finished games of `sel`, in game-id order."""
    where, params = sel.where("g.game_id")
    rows = con.execute(
        "SELECT r.game_id, r.game, r.seat, r.agent, r.rank, r.score"
        " FROM results r JOIN main.games g USING (game_id)"
        f" WHERE g.status = 'finished' AND {where} ORDER BY r.game_id, r.seat",
        params,
    ).fetchall()
    names = [r[1] for r in rows]
    return match_records(rows, scored_games(names), team_games(names))


def finished_per_game(con: duckdb.DuckDBPyConnection, sel: Selection) -> dict[str, int]:
    """Finished games of `sel` per game."""
    where, params = sel.where("game_id")
    got = con.execute(
        "SELECT game, count(*) FROM main.games WHERE status = 'finished'"
        f" AND {where} GROUP BY game ORDER BY game",
        params,
    ).fetchall()
    return {str(g): int(n) for g, n in got}


def groups_note(a: Analysis) -> str | None:
    """One sentence naming the groups of agents that never met, or None for one group."""
    if len(a.groups) < 2:
        return None
    return f"{BT.groups_sentence(a.groups)}; no win probability is given across groups."


def analyse(
    records: Sequence[dict[str, object]],
    resamples: int = 1000,
    seed: int = SEED,
    finished: Mapping[str, int] | None = None,
) -> Analysis:
    """Every table from the match records."""
    games = sorted({str(r["game"]) for r in records})
    counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    totals: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    pairs: dict[str, dict[tuple[str, str], tuple[int, float]]] = defaultdict(dict)
    for r in records:
        sides = [
            (agent, float(score))  # type: ignore[arg-type]
            for agent, score in r.items()
            if agent != BT.GAME
        ]
        game = str(r["game"])
        for agent, score in sides:
            counts[agent][game] += 1
            totals[agent][game] += score
            for other, _ in sides:
                if other != agent:
                    n, total = pairs[game].get((agent, other), (0, 0.0))
                    pairs[game][agent, other] = (n + 1, total + score)
    scores = {a: {g: totals[a][g] / n for g, n in by.items()} for a, by in counts.items()}
    people: dict[str, list[tuple[str, str, float, float]]] = defaultdict(list)
    for r in records:
        pair = [(str(x), float(v)) for x, v in r.items() if x != BT.GAME]  # type: ignore[arg-type]
        for (x, sx), (y, sy) in ((pair[0], pair[1]), (pair[1], pair[0])):
            if is_person(x):
                people[x].append((str(r[BT.GAME]), y, sx, sy))
    overall: dict[str, BT.Rating] = {}
    samples: dict[str, np.ndarray] = {}
    per_game: dict[str, dict[str, BT.Rating]] = {}
    game_samples: dict[str, dict[str, np.ndarray]] = {}
    if records:
        suite = BT.rate_suite(records, samples=resamples, seed=seed)
        overall, per_game = suite.overall, suite.per_game
        samples = {x: suite.overall_rows[:, k] for k, x in enumerate(suite.agents)}
        game_samples = {
            g: {x: rows[:, k] for k, x in enumerate(suite.agents)}
            for g, rows in suite.game_rows.items()
        }
    agents = sorted(overall, key=lambda a: (-overall[a]["mean"], a))
    groups = BT.met_groups(records, agents)
    group_of = {agent: k for k, g in enumerate(groups) for agent in g}
    win: dict[str, dict[str, float | None]] = {
        a: {
            b: 1.0 / (1.0 + math.exp(overall[b]["mean"] - overall[a]["mean"]))
            if group_of[a] == group_of[b]
            else None
            for b in agents
            if b != a
        }
        for a in agents
    }
    return Analysis(
        games=games,
        agents=agents,
        matches=len(records),
        finished=dict(finished or {}),
        overall=overall,
        per_game=per_game,
        samples=samples,
        game_samples=game_samples,
        scores={a: dict(s) for a, s in scores.items()},
        counts={a: dict(c) for a, c in counts.items()},
        pairs=dict(pairs),
        resamples=resamples,
        seed=seed,
        win=win,
        groups=groups,
        people=dict(people),
    )


def analysis_of(con: duckdb.DuckDBPyConnection, sel: Selection, resamples: int) -> Analysis:
    """The analysis of the selection's finished games."""
    return analyse(load_records(con, sel), resamples, SEED, finished_per_game(con, sel))


def analysis_json(a: Analysis) -> dict[str, Any]:
    """Every table as JSON (ratings with point, mean, p5, p95; NaN-free)."""
    return {
        "games": a.games,
        "labels": {g: short_label(g) for g in a.games},
        "paper_labels": {g: printed_label(g) for g in a.games},
        "agents": a.agents,
        "matches": a.matches,
        "finished": a.finished,
        "resamples": a.resamples,
        "seed": a.seed,
        "ratings": {
            agent: {
                OVERALL: a.overall[agent],
                **{g: a.per_game[g][agent] for g in a.games},
            }
            for agent in a.agents
        },
        "scores": {
            agent: {OVERALL: a.overall_score(agent), **a.scores.get(agent, {})}
            for agent in a.agents
        },
        "win_probability": a.win,
        "groups": a.groups,
        "agent_matches": {
            agent: {OVERALL: sum(a.counts[agent].values()), **a.counts[agent]} for agent in a.agents
        },
        "people": {
            person: [
                {
                    "game": g,
                    "opponent": o,
                    "matches": n,
                    "won": w,
                    "lost": lo,
                    "level": lv,
                    "mean_score": m,
                }
                for p, g, o, n, w, lo, lv, m in person_rows(a)
                if p == person
            ]
            for person in sorted(a.people)
        },
    }


PEOPLE_NOTE = (
    "A person's matches enter every fit and table above as any agent's do, as GameBench"
    " placed its co-creator's 13 matches against GPT-4 and GPT-4-CoT (paper, Tables 1 and 2,"
    " Appendix C.1); below, each person's matches by game and opponent."
)
"""What the human-baseline table is (text and page)."""


# ---------------------------------------------------------------------------- figures


def _columns(a: Analysis) -> list[tuple[str, str]]:
    """(key, label) of the all-games column and of every game."""
    return [(OVERALL, "Overall"), *((g, short_label(g)) for g in a.games)]


def paper_heading(key: str, lab: str, sep: str, word: str = "printed ") -> str:
    """A column's heading, followed by the one the paper printed over it when that differs."""
    printed = None if key == OVERALL else printed_label(key)
    return f"{lab}{sep}({word}{printed})" if printed and printed != lab else lab


def _rating(a: Analysis, agent: str, key: str) -> BT.Rating | None:
    return a.overall.get(agent) if key == OVERALL else a.per_game.get(key, {}).get(agent)


def fig_ratings(a: Analysis, col: dict[str, str]) -> Figure:
    """Every agent's rating overall and in each game, whiskers at the 5th and 95th
    percentiles of the bootstrap (GameBench's Figure 1a)."""
    cols = _columns(a)
    fig, ax = F.new_figure(min(10.0, 3.0 + 0.9 * len(cols)), 3.4)
    x = np.arange(len(cols))
    w = 0.7 / max(1, len(a.agents))
    for k, agent in enumerate(a.agents):
        got = [_rating(a, agent, key) for key, _ in cols]
        mean = np.array([r["mean"] if r else np.nan for r in got])
        lo = np.array([r["mean"] - r["p5"] if r else 0.0 for r in got])
        hi = np.array([r["p95"] - r["mean"] if r else 0.0 for r in got])
        pos = x - 0.35 + w * (k + 0.5)
        ax.errorbar(
            pos,
            mean,
            yerr=[np.maximum(lo, 0), np.maximum(hi, 0)],
            fmt="o",
            ms=5,
            color=col[agent],
            ecolor=col[agent],
            elinewidth=1.1,
            capsize=2.5,
            label=label(agent),
        )
    ax.axhline(0, color=F.MUTED, lw=0.8)
    if len(cols) > 1:
        ax.axvline(0.5, color=F.GRID, lw=1.2)
    ax.set_xticks(x, [lab for _, lab in cols])
    ax.set_ylabel("Bradley-Terry rating")
    ax.set_title("Rating per game (5th-95th percentile whiskers)")
    ax.grid(axis="x", visible=False)
    ax.legend(fontsize=7.5, loc="best")
    return fig


def fig_boxplot(a: Analysis, col: dict[str, str]) -> Figure:
    """The overall rating over the bootstrap samples, one box per agent, whiskers at the 5th
    and 95th percentiles, the mean (the rating) marked (GameBench's Figure 1b)."""
    fig, ax = F.new_figure(max(4.8, 1.8 + 0.8 * len(a.agents)), 3.6)
    data = [a.samples[agent] for agent in a.agents]
    parts = ax.boxplot(
        data,
        whis=(5, 95),
        showfliers=False,
        patch_artist=True,
        widths=0.55,
        medianprops={"color": F.INK, "lw": 1.2},
    )
    for patch, agent in zip(parts["boxes"], a.agents, strict=True):
        patch.set_facecolor(col[agent])
        patch.set_alpha(0.55)
        patch.set_edgecolor(col[agent])
    means = [a.overall[agent]["mean"] for agent in a.agents]
    ax.scatter(range(1, len(a.agents) + 1), means, marker="D", s=22, color=F.INK, zorder=3)
    ax.axhline(0, color=F.MUTED, lw=0.8)
    ax.set_xticks(range(1, len(a.agents) + 1), [label(g, 16) for g in a.agents])
    if len(a.agents) > 4:
        plt.setp(ax.get_xticklabels(), rotation=30, ha="right")
    ax.set_ylabel("overall rating")
    ax.set_title(f"Overall rating over {a.resamples:,} bootstrap samples")
    ax.grid(axis="x", visible=False)
    return fig


def fig_winprob(a: Analysis) -> Figure:
    """P(row beats column) from the overall ratings."""
    n = len(a.agents)
    m = np.full((n, n), np.nan)
    for i, x in enumerate(a.agents):
        for j, y in enumerate(a.agents):
            p = a.win[x][y] if i != j else None
            if p is not None:
                m[i, j] = p
    size = 2.4 + 0.6 * n
    return F.fig_heatmap(
        [label(x, 16) for x in a.agents],
        [label(y, 16) for y in a.agents],
        m,
        None,
        "P(row agent beats column agent)",
        ".2f",
        "RdBu",
        vmin=0.0,
        vmax=1.0,
        width=max(4.8, size + 1.2),
        height=3.6 if n <= 4 else size,
    )


def _pair_matrix(a: Analysis, game: str, which: int) -> np.ndarray:
    """Matches (which=0) or the row agent's total score (which=1) per pair of agents in
    `game`; the diagonal is NaN."""
    n = len(a.agents)
    m = np.full((n, n), np.nan)
    got = a.pairs.get(game, {})
    for i, x in enumerate(a.agents):
        for j, y in enumerate(a.agents):
            if i != j:
                m[i, j] = got.get((x, y), (0, 0.0))[which]
    return m


def _heat(ax: Any, m: np.ndarray, names: list[str], title: str, fmt: str, cmap: str) -> None:
    """One annotated heat map in `ax` (NaN cells blank)."""
    im = ax.imshow(np.ma.masked_invalid(m), cmap=cmap, aspect="auto")
    ax.set_xticks(range(len(names)), names, rotation=35, ha="right", fontsize=7.5)
    ax.set_yticks(range(len(names)), names, fontsize=7.5)
    ax.grid(False)
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            if np.isfinite(m[i, j]):
                ax.text(j, i, format(m[i, j], fmt), ha="center", va="center", fontsize=7)
    ax.set_title(title, fontsize=9.5)
    ax.figure.colorbar(im, ax=ax, shrink=0.8, pad=0.01)


def fig_appendix_l(a: Analysis, game: str, col: dict[str, str]) -> Figure:
    """One game's four panels, as GameBench's Appendix L draws them: matches per pair, total
    score per pair, the win probabilities its ratings imply, and its rating over the
    bootstrap samples (whiskers at the 5th and 95th percentiles)."""
    names = [label(x, 14) for x in a.agents]
    size = max(8.0, 4.0 + 0.9 * len(names))
    fig, axs = plt.subplots(2, 2, figsize=(size, size * 0.82), layout="constrained")
    fig.suptitle(game)
    _heat(axs[0, 0], _pair_matrix(a, game, 0), names, "Matches per pair", ".0f", "Blues")
    _heat(
        axs[0, 1],
        _pair_matrix(a, game, 1),
        names,
        "Total score of the row agent against the column agent",
        ".2g",
        "Greens",
    )
    means = np.array([a.per_game[game][x]["mean"] for x in a.agents])
    prob = 1.0 / (1.0 + np.exp(means[None, :] - means[:, None]))
    np.fill_diagonal(prob, np.nan)
    _heat(axs[1, 0], prob, names, "P(row agent beats column agent)", ".2f", "RdBu")
    order = sorted(a.agents, key=lambda x: a.per_game[game][x]["mean"])
    ax = axs[1, 1]
    parts = ax.boxplot(
        [a.game_samples[game][x] for x in order],
        whis=(5, 95),
        showfliers=False,
        patch_artist=True,
        widths=0.55,
        medianprops={"color": F.INK, "lw": 1.2},
    )
    for patch, agent in zip(parts["boxes"], order, strict=True):
        patch.set_facecolor(col[agent])
        patch.set_alpha(0.55)
    ax.set_xticks(range(1, len(order) + 1), [label(x, 14) for x in order])
    plt.setp(ax.get_xticklabels(), rotation=35, ha="right", fontsize=7.5)
    ax.set_ylabel("rating")
    ax.set_title(f"Rating over {a.resamples:,} bootstrap samples", fontsize=9.5)
    return fig


# ---------------------------------------------------------------------------- HTML


def _e(text: object) -> str:
    return html.escape(str(text))


def _cell_rating(r: BT.Rating | None) -> str:
    if r is None:
        return '<span class="ci">–</span>'
    return f'{r["mean"]:+.2f}<span class="ci">{r["p5"]:+.2f} – {r["p95"]:+.2f}</span>'


def _html_table(table_id: str, head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    th = "".join(f"<th>{_e(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>" for r in rows)
    return (
        f'<div class="scroll"><table id="{table_id}"><thead><tr>{th}</tr></thead>'
        f"<tbody>{body}</tbody></table></div>"
    )


def _best(values: Sequence[float | None]) -> float | None:
    got = [v for v in values if v is not None]
    return max(got) if got else None


def section_html(a: Analysis) -> str:
    """The GameBench section of the report."""
    if not a.matches:
        return (
            '<section id="gamebench"><h2>GameBench</h2><p class="empty" id="gb-empty">'
            "No finished GameBench match between two different agents in this selection."
            "</p></section>"
        )
    col = F.colours(a.agents)
    cols = _columns(a)
    figs = (
        figure_html(
            "fig-gb-ratings",
            fig_ratings(a, col),
            "Figure 1a: Bradley-Terry rating of every agent over all games and in each game;"
            " the point is the mean over bootstrap samples, the whiskers their 5th and 95th"
            " percentiles (a 90% interval).",
        ),
        figure_html(
            "fig-gb-boxplot",
            fig_boxplot(a, col),
            "Figure 1b: the overall rating over the bootstrap samples: box from the 25th to"
            " the 75th percentile, line at the median, whiskers at the 5th and 95th, diamond at"
            " the mean (the rating).",
        ),
        figure_html(
            "fig-gb-winprob",
            fig_winprob(a),
            "Win probability of the row agent against the column agent that the overall"
            " ratings imply.",
        ),
    )
    heads = ["agent", *(lab for _, lab in cols)]
    paper_heads = ["agent", *(paper_heading(key, lab, " ") for key, lab in cols)]
    printed_note = (
        " A heading followed by another in parentheses: the paper printed the second over"
        " that game's column (its script filled the columns in another order than its"
        " headings)."
        if any(printed_label(g) not in (None, short_label(g)) for g in a.games)
        else ""
    )
    appendix = "".join(
        figure_html(
            f"fig-gb-l-{k}",
            fig_appendix_l(a, g, col),
            f"Appendix L, {g}: matches per pair of agents, the row agent's total score"
            " against the column agent, the win probabilities this game's ratings imply, and"
            " the game's rating over the bootstrap samples (every agent of the selection; one"
            " without a match here is held by the regularisation).",
        )
        for k, g in enumerate(a.games)
    )
    ratings = []
    for agent in a.agents:
        cells = [_cell_rating(_rating(a, agent, key)) for key, _ in cols]
        ratings.append([f'<span class="name">{_e(agent)}</span>', *cells])
    score_rows = []
    best = {
        key: _best(
            [a.overall_score(x) if key == OVERALL else a.scores[x].get(key) for x in a.agents]
        )
        for key, _ in cols
    }
    for agent in a.agents:
        cells = []
        for key, _ in cols:
            v = a.overall_score(agent) if key == OVERALL else a.scores[agent].get(key)
            text = "–" if v is None else f"{v:.2f}"
            cells.append(f"<b>{text}</b>" if v is not None and v == best[key] else text)
        score_rows.append([_e(agent), *cells])
    win_rows = [
        [_e(x), *("–" if x == y or (p := a.win[x][y]) is None else f"{p:.2f}" for y in a.agents)]
        for x in a.agents
    ]
    match_rows = [
        [
            _e(agent),
            str(sum(a.counts[agent].values())),
            *(str(a.counts[agent].get(g, 0)) for g in a.games),
        ]
        for agent in a.agents
    ]
    match_rows.append(
        [
            "<i>finished games</i>",
            str(sum(a.finished.values())),
            *(str(a.finished.get(g, 0)) for g in a.games),
        ]
    )
    legend = ", ".join(f"{_e(short_label(g))} = {_e(g)}" for g in a.games)
    defs = "".join(f"<li><b>{_e(n)}</b> v{v}: {_e(t)}</li>" for n, v, t in DEFINITIONS)
    h3 = '<h3 style="font-size:14px;margin:18px 0 6px">'
    apart = groups_note(a)
    note = f'<p class="lead" id="gb-groups">{_e(apart)}</p>\n' if apart else ""
    people = person_rows(a)
    people_html = (
        f"{h3}Human baseline: a person's matches</h3><p>{_e(PEOPLE_NOTE)}</p>"
        + _html_table(
            "gb-people",
            ["person", "game", "opponent", "matches", "won", "lost", "level", "mean score"],
            [
                [_e(p), _e(short_label(g)), _e(o), str(n), str(w), str(lo), str(lv), _fmt(m)]
                for p, g, o, n, w, lo, lv, m in people
            ],
        )
        + "\n"
        if people
        else ""
    )
    return f"""<section id="gamebench"><h2>GameBench</h2>
<p class="lead">{a.matches:,} matches in {len(a.games)} game(s), {len(a.agents)} agents.
Bradley-Terry ratings bootstrapped {a.resamples:,} times (seed {a.seed}), every game weighing
the same; intervals are the 5th to 95th percentiles. {legend}.{printed_note}</p>
{note}<div class="stack">{figs[0]}</div>
{h3}Table 1: rating (mean over bootstrap samples; 5th – 95th percentile below)</h3>
{_html_table("gb-ratings", paper_heads, ratings)}
{h3}Table 2: average match score (best of each column in bold)</h3>
{_html_table("gb-scores", paper_heads, score_rows)}
<div class="grid" style="margin-top:18px">{figs[1]}{figs[2]}</div>
<div class="grid"><div>
{h3}Win probability: P(row beats column)</h3>
{_html_table("gb-winprob", ["agent", *a.agents], win_rows)}</div><div>
{h3}Matches per agent and game</h3>
{_html_table("gb-matches", heads, match_rows)}</div></div>
{people_html}{h3}Appendix L: every game</h3><div class="stack">{appendix}</div>
{h3}Definitions</h3><ul>{defs}</ul></section>"""


def build_report(
    con: duckdb.DuckDBPyConnection, sel: Selection, title: str, resamples: int
) -> tuple[str, ReportStats]:
    """A page of its own holding the GameBench section."""
    t0 = time.perf_counter()
    a = analysis_of(con, sel, resamples)
    page = section_page(title, section_html(a))
    stats = ReportStats(
        games=sum(a.finished.values()),
        agents=len(a.agents),
        seconds=time.perf_counter() - t0,
        bytes=len(page.encode()),
    )
    return page, stats


# ---------------------------------------------------------------------------- text


def _fmt(v: float | None, signed: bool = False) -> str:
    if v is None or not math.isfinite(v):
        return "-"
    return f"{v:+.2f}" if signed else f"{v:.2f}"


def _render(
    title: str,
    head: Sequence[str],
    rows: Sequence[Sequence[str]],
    width: int,
    label_fn: Callable[[str], str],
) -> list[Any]:
    """A table (first column: names) as rich tables at most `width` wide; when too wide, the
    other columns are split over several tables, each repeating the names."""
    return T.fitted(T.Grid(title, head, rows), width, label_fn)


def render_lines(
    a: Analysis, width: int = 80, label_fn: Callable[[str], str] = lambda s: s
) -> list[str]:
    """Every table as plain text lines at most `width` wide ([] without matches)."""
    return T.as_lines(render_tables(a, width, label_fn), width)


def render_tables(
    a: Analysis, width: int = 80, label_fn: Callable[[str], str] = lambda s: s
) -> list[Any]:
    """Every table as rich tables (after a few notes) that fit `width` ([] without matches)."""
    if not a.matches:
        return []
    cols = _columns(a)
    head = ["agent", *(lab for _, lab in cols)]
    legend = ", ".join(f"{short_label(g)} {label_fn(g)}" for g in a.games)
    notes = [
        f"{T.plural(a.matches, 'match', 'matches')} in {T.plural(len(a.games), 'game')},"
        f" {T.plural(len(a.agents), 'agent')}; Bradley-Terry over {a.resamples} bootstrap"
        f" samples (seed {a.seed}), every game weighing the same.",
        f"Games: {legend}.",
    ]
    if any(printed_label(g) not in (None, short_label(g)) for g in a.games):
        notes.append(
            "Under a heading of Tables 1 and 2, in parentheses: the heading the paper printed"
            " over that game's column."
        )
    if groups_note(a):
        notes.append(groups_note(a) or "")
    lines: list[Any] = [T.prose("\n".join(notes))]
    rows = [
        [
            agent,
            *(
                _fmt(r["mean"] if r else None, True)
                for r in (_rating(a, agent, key) for key, _ in cols)
            ),
        ]
        for agent in a.agents
    ]
    paper_head = ["agent", *(paper_heading(key, lab, "\n", "") for key, lab in cols)]
    lines += _render("Table 1: rating (bootstrap mean)", paper_head, rows, width, label_fn)
    rows = []
    for agent in a.agents:
        for key, lab in cols:
            r = _rating(a, agent, key)
            if r is not None:
                n = sum(a.counts[agent].values()) if key == OVERALL else a.counts[agent].get(key, 0)
                rows.append(
                    [
                        agent,
                        lab,
                        _fmt(r["mean"], True),
                        _fmt(r["p5"], True),
                        _fmt(r["p95"], True),
                        _fmt(r["point"], True),
                        str(n),
                    ]
                )
    lines += _render(
        "Table 1 whiskers: 5th and 95th percentiles of the bootstrap",
        ["agent", "game", "rating", "p5", "p95", "point", "matches"],
        rows,
        width,
        label_fn,
    )
    rows = [
        [
            agent,
            *(
                _fmt(a.overall_score(agent) if key == OVERALL else a.scores[agent].get(key))
                for key, _ in cols
            ),
        ]
        for agent in a.agents
    ]
    lines += _render("Table 2: average match score", paper_head, rows, width, label_fn)
    rows = [[x, *("-" if x == y else _fmt(a.win[x][y]) for y in a.agents)] for x in a.agents]
    lines += _render(
        "Win probability: P(row beats column)",
        ["agent", *(label_fn(y) for y in a.agents)],
        rows,
        width,
        label_fn,
    )
    rows = [
        [
            agent,
            str(sum(a.counts[agent].values())),
            *(str(a.counts[agent].get(g, 0)) for g in a.games),
        ]
        for agent in a.agents
    ]
    lines += _render("Matches per agent and game", head, rows, width, label_fn)
    people = person_rows(a)
    if people:
        lines.append(T.prose(PEOPLE_NOTE))
        rows = [
            [p, short_label(g), o, str(n), str(w), str(lo), str(lv), _fmt(m)]
            for p, g, o, n, w, lo, lv, m in people
        ]
        lines += _render(
            "Human baseline: a person's matches",
            ["person", "game", "opponent", "matches", "won", "lost", "level", "score"],
            rows,
            width,
            label_fn,
        )
    return lines


class GameBenchHooks(T.TableHooks):
    """GameBench's analysis as the shared commands reach it (`cattle metrics --game
    gamebench`, `cattle report --game gamebench:pit`)."""

    max_resamples = MAX_RESAMPLES
    title = "GameBench"
    """How pages and tables name the family."""

    def definitions(self) -> list[tuple[str, int, str]]:
        """(name, version, definition) of every metric."""
        return list(DEFINITIONS)

    def metrics_json(self, con: duckdb.DuckDBPyConnection, sel: Selection, resamples: int) -> Any:
        """Every table as JSON."""
        return analysis_json(analysis_of(con, sel, resamples))

    def metrics_tables(
        self,
        con: duckdb.DuckDBPyConnection,
        sel: Selection,
        resamples: int,
        width: int,
        label: Callable[[str], str],
    ) -> list[Any]:
        """Every table as rich tables that fit `width` ([] without matches)."""
        return render_tables(analysis_of(con, sel, resamples), width=width, label_fn=label)

    def report(
        self, con: duckdb.DuckDBPyConnection, sel: Selection, title: str, resamples: int
    ) -> tuple[str, ReportStats]:
        """A self-contained HTML page with the GameBench section."""
        return build_report(con, sel, title, resamples)


HOOKS = GameBenchHooks()
"""GameBench's analysis hooks (found through `events.catalog.family_analysis`)."""
