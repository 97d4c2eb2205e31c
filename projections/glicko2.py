"""Glicko-2 ratings (Glickman, "Example of the Glicko-2 system", 2013), for any two-player game.

A small implementation of the published algorithm, steps 1 to 8, written out rather than taken
from PyPI: the packages there are unmaintained, and the most used one (`glicko2` 2.1.0) puts the
player's rating where the volatility step needs its squared deviation φ², so its volatility is
off whenever the rating is not 1500. The worked example of the paper is a test.

One extension: a result may carry a weight w (default 1). A weighted result enters the sums of
steps 3 and 4 w times, as if the same result had been observed w times in the period; w = 1
everywhere is exactly the published algorithm. It carries margin-of-victory multipliers.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

#: Ratio between the Glicko and the Glicko-2 scales (400 / ln 10).
SCALE = 173.7178
#: Rating, deviation and volatility of a new player (the paper's defaults).
START_RATING = 1500.0
START_RD = 350.0
START_VOL = 0.06
#: The system constant τ: how fast volatility may change (the paper suggests 0.3 to 1.2).
TAU = 0.5
#: Convergence tolerance of the volatility iteration (the paper's ε).
EPSILON = 1e-6


@dataclass(frozen=True)
class Rating:
    """A Glicko-2 rating on the Glicko scale: rating r, deviation RD, volatility σ."""

    rating: float = START_RATING
    rd: float = START_RD
    vol: float = START_VOL

    @property
    def mu(self) -> float:
        """μ, the rating on the Glicko-2 scale."""
        return (self.rating - START_RATING) / SCALE

    @property
    def phi(self) -> float:
        """φ, the deviation on the Glicko-2 scale."""
        return self.rd / SCALE


@dataclass(frozen=True)
class Result:
    """One game of a rating period from the player's side: the opponent, score and weight."""

    opponent: Rating
    score: float
    """1 for a win, 0.5 for a draw, 0 for a loss."""
    weight: float = 1.0


def g(phi: float) -> float:
    """The paper's g(φ): how much an opponent's uncertainty damps the result."""
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def expected(player: Rating, opponent: Rating) -> float:
    """E(μ, μj, φj): the player's expected score against the opponent."""
    return 1.0 / (1.0 + math.exp(-g(opponent.phi) * (player.mu - opponent.mu)))


def _volatility(phi: float, vol: float, delta: float, v: float, tau: float) -> float:
    """Step 5: the new volatility σ', by the Illinois iteration of the paper."""
    a = math.log(vol * vol)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (
            x - a
        ) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def update(player: Rating, results: Sequence[Result], tau: float = TAU) -> Rating:
    """The player's rating after one rating period with these results (steps 2 to 8).

    A period without results only widens the deviation (step 6 alone).
    """
    mu, phi = player.mu, player.phi
    if not results:
        return Rating(player.rating, SCALE * math.sqrt(phi * phi + player.vol**2), player.vol)
    inv_v = 0.0
    total = 0.0
    for r in results:
        gj = g(r.opponent.phi)
        e = expected(player, r.opponent)
        inv_v += r.weight * gj * gj * e * (1.0 - e)
        total += r.weight * gj * (r.score - e)
    v = 1.0 / inv_v
    delta = v * total
    vol = _volatility(phi, player.vol, delta, v, tau)
    phi_star = math.sqrt(phi * phi + vol * vol)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * total
    return Rating(START_RATING + SCALE * mu_new, SCALE * phi_new, vol)


@dataclass(frozen=True)
class Match:
    """A two-player game: a's score (1, 0.5 or 0) against b, and the weight of the result."""

    a: str
    b: str
    score_a: float
    weight: float = 1.0


def rate_matches(matches: Iterable[Match], tau: float = TAU) -> dict[str, Rating]:
    """Ratings after feeding the matches in order, each match its own rating period.

    Both players are updated from their ratings before the match. Players who sit a match out
    are left as they are: their deviation does not grow, because the games of a tournament
    are played in one batch and the agents do not change between them.
    """
    ratings: dict[str, Rating] = {}
    for m in matches:
        if m.a == m.b:
            continue  # an agent against itself: no information about its strength
        ra = ratings.get(m.a, Rating())
        rb = ratings.get(m.b, Rating())
        ratings[m.a] = update(ra, [Result(rb, m.score_a, m.weight)], tau)
        ratings[m.b] = update(rb, [Result(ra, 1.0 - m.score_a, m.weight)], tau)
    return ratings
