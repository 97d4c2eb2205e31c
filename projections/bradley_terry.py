"""Bradley-Terry ratings over match records, bootstrapped so that every game counts the same.

This is the rating method of GameBench (§3.3 of its paper, and the behaviour of its published
rating script), for results of any game, stored here or elsewhere.

A match record is a mapping with a "game" key (the game's name) and one key per agent, the
agent's score in [0, 1]; the two scores sum to 1: `{"game": "pit", "agent-a": 1.0,
"agent-b": 0.0}`. In a team game each member's agent takes its team's score (GameBench seats
one agent per side, repeated over the side's seats, so a record still names two agents).

Model: agent k has a strength β_k and P(i beats j) = e^β_i / (e^β_i + e^β_j). A match with
scores (s_i, s_j) counts as s_i of a win for i and s_j for j; a match with equal scores is left
out (it carries no comparison). The estimate is found by iterative Luce spectral ranking
(Maystre and Grossglauser, 2015), the algorithm of `choix.ilsr_pairwise` extended to
fractional wins. With weights w_i = n e^β_i / Σ_k e^β_k (n agents; weights of mean 1, as
choix scales them), a Markov chain over the agents moves from i to j at rate α plus j's score
against i divided by (w_i + w_j), summed over their matches; its stationary distribution gives
the next weights; repeat until the strengths stop moving. At the fixed point, for every i,

    Σ over i's matches of (s_i w_j − s_j w_i) / (w_i + w_j) = α Σ_{j≠i} (w_i − w_j)

with the β centred on 0: with α = 0 the left side is the gradient of the log-likelihood, so
this is the maximum-likelihood estimate; α > 0 (GameBench uses 0.001) pulls every strength
towards the others, keeping an agent that never won or never lost finite. The scale of the
weights matters to the α term, which is why it is fixed as above.

Bootstrap: each sample draws len(matches) records with replacement, a record of a game with
N records having weight 1/N, with `random.Random(seed).choices` (one call per sample, from one
generator), and is rated as above over every agent of the full data (an agent absent from a
sample stays in it, held by α alone, as in GameBench's script). A rating is reported as the
estimate on all the records ("point"), the mean over samples ("mean", GameBench's published
rating) and the 5th and 95th percentiles ("p5", "p95", its whiskers).

Records with more than two agents: GameBench's script reads the first two agent keys of a
record and ignores any others (its data never has more). Here such a record is refused with a
ValueError rather than silently cut; a result among more sides is first split into pairwise
records (as `projections.ratings.match_records` does for stored games).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

GAME = "game"
"""The key of a record that names its game; every other key is an agent."""
ALPHA = 0.001
"""GameBench's regularisation."""
TOLERANCE = 1e-8
"""Stop when the centred strengths move by at most this much per agent (L1), as choix does."""
MAX_ITERATIONS = 1000
"""More than any sample of GameBench's data needs (a few dozen); past it: RuntimeError."""
SUM_TOLERANCE = 1e-9
"""How far the two scores of a record may sum from 1 (floating-point rounding)."""

Record = Mapping[str, object]
Rating = dict[str, float]


class Pairs:
    """The records as arrays: agent indices, scores and game of each record."""

    def __init__(self, records: Sequence[Record], agents: Sequence[str] = ()) -> None:
        """Check every record; index `agents`, then the others in order of first appearance."""
        self.agents: list[str] = list(dict.fromkeys(agents))
        index: dict[str, int] = {a: k for k, a in enumerate(self.agents)}
        a, b, sa, sb, games = [], [], [], [], []
        for n, record in enumerate(records):
            game, (x, score_x), (y, score_y) = _parse(n, record)
            for agent in (x, y):
                if agent not in index:
                    index[agent] = len(self.agents)
                    self.agents.append(agent)
            a.append(index[x])
            b.append(index[y])
            sa.append(score_x)
            sb.append(score_y)
            games.append(game)
        self.a = np.array(a, dtype=np.intp)
        self.b = np.array(b, dtype=np.intp)
        self.sa = np.array(sa, dtype=float)
        self.sb = np.array(sb, dtype=float)
        self.games = games
        self.decisive = self.sa != self.sb

    def wins(self, counts: np.ndarray | None = None) -> np.ndarray:
        """W[i, j]: i's total score against j over the decisive records (each `counts` times)."""
        n = len(self.agents)
        keep = self.decisive if counts is None else self.decisive & (counts > 0)
        times = np.ones(len(self.a)) if counts is None else counts.astype(float)
        w = np.zeros((n, n))
        np.add.at(w, (self.a[keep], self.b[keep]), self.sa[keep] * times[keep])
        np.add.at(w, (self.b[keep], self.a[keep]), self.sb[keep] * times[keep])
        return w


def _parse(n: int, record: Record) -> tuple[str, tuple[str, float], tuple[str, float]]:
    """A record's game and its two (agent, score) pairs, or ValueError saying what is wrong."""
    game = record.get(GAME)
    if not isinstance(game, str):
        raise ValueError(f"match {n}: no game name under {GAME!r}")
    sides = [(k, v) for k, v in record.items() if k != GAME]
    if len(sides) != 2:
        raise ValueError(
            f"match {n}: {len(sides)} agent(s); a record names two (split a game of more"
            " sides into pairwise records)"
        )
    parsed = []
    for agent, score in sides:
        if isinstance(score, bool) or not isinstance(score, int | float):
            raise ValueError(f"match {n}: the score of {agent!r} is not a number")
        value = float(score)
        if not 0.0 <= value <= 1.0:
            raise ValueError(f"match {n}: the score of {agent!r} is outside [0, 1]")
        parsed.append((str(agent), value))
    if abs(parsed[0][1] + parsed[1][1] - 1.0) > SUM_TOLERANCE:
        raise ValueError(f"match {n}: the two scores do not sum to 1")
    return game, parsed[0], parsed[1]


def _stationary(generator: np.ndarray) -> np.ndarray:
    """The stationary distribution of a continuous-time Markov chain given by its generator."""
    n = generator.shape[0]
    system = generator.T.copy()
    system[-1, :] = 1.0  # replace one balance equation (they sum to 0) by Σπ = 1
    rhs = np.zeros(n)
    rhs[-1] = 1.0
    try:
        dist = np.linalg.solve(system, rhs)
    except np.linalg.LinAlgError:
        dist = np.full(n, np.nan)
    if not np.all(np.isfinite(dist)) or np.any(dist <= 0.0):
        raise ValueError(
            "no unique estimate: some agents are not linked by wins both ways (use alpha > 0)"
        )
    return dist


def strengths(wins: np.ndarray, alpha: float = ALPHA) -> np.ndarray:
    """Centred Bradley-Terry strengths β from W[i, j] (i's score against j), by I-LSR."""
    n = wins.shape[0]
    if n == 0:
        return np.zeros(0)
    params = np.zeros(n)
    previous: np.ndarray | None = None
    for _ in range(MAX_ITERATIONS):
        # Weights on the scale choix uses (mean 1): the scale sets how strongly α pulls.
        weights = np.exp(params - params.max())
        weights *= n / weights.sum()
        # Rate of i -> j: α plus j's score against i, each unit divided by e^β_i + e^β_j.
        chain = alpha + wins.T / (weights[:, None] + weights[None, :])
        np.fill_diagonal(chain, 0.0)
        np.fill_diagonal(chain, -chain.sum(axis=1))
        logs = np.log(_stationary(chain))
        params = logs - logs.mean()
        if previous is not None and np.abs(params - previous).sum() <= TOLERANCE * n:
            return params
        previous = params
    raise RuntimeError(f"I-LSR did not converge in {MAX_ITERATIONS} iterations")


def game_weights(games: Sequence[str]) -> list[float]:
    """Each record's bootstrap weight: 1 / (records of its game)."""
    counts = Counter(games)
    return [1.0 / counts[g] for g in games]


def bootstrap(pairs: Pairs, rng: random.Random, samples: int, alpha: float = ALPHA) -> np.ndarray:
    """Strengths of `samples` weighted resamples drawn from `rng`, one row per sample."""
    n = len(pairs.games)
    order = list(range(n))
    weights = game_weights(pairs.games)
    rows = np.empty((samples, len(pairs.agents)))
    for s in range(samples):
        drawn = rng.choices(order, weights=weights, k=n)
        counts = np.bincount(drawn, minlength=n)
        rows[s] = strengths(pairs.wins(counts), alpha)
    return rows


def summarise(agents: Sequence[str], point: np.ndarray, rows: np.ndarray) -> dict[str, Rating]:
    """agent -> point, mean and 5th/95th percentiles of the bootstrap rows."""
    mean = rows.mean(axis=0)
    p5, p95 = np.percentile(rows, [5.0, 95.0], axis=0)
    return {
        agent: {
            "point": float(point[k]),
            "mean": float(mean[k]),
            "p5": float(p5[k]),
            "p95": float(p95[k]),
        }
        for k, agent in enumerate(agents)
    }


def rate(
    matches: Sequence[Record], *, samples: int = 1000, seed: int = 0, alpha: float = ALPHA
) -> dict[str, Rating]:
    """Bradley-Terry ratings of every agent of `matches`: point estimate, bootstrap mean, p5, p95."""
    if samples < 1:
        raise ValueError("samples must be at least 1")
    if not (alpha >= 0.0 and math.isfinite(alpha)):
        raise ValueError("alpha must be a finite number >= 0")
    pairs = Pairs(matches)
    if not pairs.agents:
        return {}
    point = strengths(pairs.wins(), alpha)
    rows = bootstrap(pairs, random.Random(seed), samples, alpha)
    return summarise(pairs.agents, point, rows)


@dataclass
class Suite:
    """Ratings of every agent overall and in each game, as GameBench's script computes them."""

    agents: list[str]
    """Every agent of the matches, in order of first appearance."""
    overall: dict[str, Rating]
    per_game: dict[str, dict[str, Rating]]
    """game -> agent -> rating, every agent in every game (one without a match there is
    held by α alone)."""
    overall_rows: np.ndarray
    """The overall strengths of every bootstrap sample, one row per sample."""
    game_rows: dict[str, np.ndarray]
    """game -> the strengths of every bootstrap sample of that game."""


def rate_suite(
    matches: Sequence[Record], *, samples: int = 1000, seed: int = 0, alpha: float = ALPHA
) -> Suite:
    """Every agent rated in each game and over all games, drawing from one generator seeded
    once: each game in the order of its name, then all the matches twice, the second run
    giving the overall ratings (GameBench's order of draws, so its matches give its tables
    to the digit)."""
    if samples < 1:
        raise ValueError("samples must be at least 1")
    if not (alpha >= 0.0 and math.isfinite(alpha)):
        raise ValueError("alpha must be a finite number >= 0")
    pairs = Pairs(matches)
    rng = random.Random(seed)
    per_game: dict[str, dict[str, Rating]] = {}
    game_rows: dict[str, np.ndarray] = {}
    for game in sorted(set(pairs.games)):
        mine = Pairs([m for m in matches if m[GAME] == game], pairs.agents)
        game_rows[game] = bootstrap(mine, rng, samples, alpha)
        per_game[game] = summarise(mine.agents, strengths(mine.wins(), alpha), game_rows[game])
    bootstrap(pairs, rng, samples, alpha)  # drawn and discarded, as GameBench's script does
    rows = bootstrap(pairs, rng, samples, alpha)
    overall = summarise(pairs.agents, strengths(pairs.wins(), alpha), rows)
    return Suite(pairs.agents, overall, per_game, rows, game_rows)


def met_groups(records: Sequence[Mapping[str, object]], agents: Sequence[str]) -> list[list[str]]:
    """The connected groups of `agents` (in their order) under "played a match together"."""
    parent = {a: a for a in agents}

    def root(a: str) -> str:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    for r in records:
        seated = [k for k in r if k != GAME and k in parent]
        for other in seated[1:]:
            parent[root(other)] = root(seated[0])
    groups: dict[str, list[str]] = {}
    for a in agents:
        groups.setdefault(root(a), []).append(a)
    return list(groups.values())


def groups_sentence(groups: Sequence[Sequence[str]]) -> str:
    """The sentence naming groups of agents that never met (for two groups or more), without
    its full stop (a caller may add a clause)."""
    named = " | ".join("{" + ", ".join(g) + "}" for g in groups)
    return (
        f"These agents form {len(groups)} groups that never met, not even through other"
        f" agents: {named}. Ratings compare only within a group"
    )
