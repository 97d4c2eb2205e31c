"""A synthetic PACT store for the metric tests: simple quoting styles on drawn values.

Each agent quotes its valuation shaded by `shade` points (toward its own gain), conceding
`concede` points a round down to `floor`, with uniform noise of +/- `noise`. Values and costs
are drawn per deal; every pair of agents plays every deal twice with the roles swapped (the
same seed), as a PACT round robin does. The rows follow the PACT rules: a trade when
bid >= ask, at the midpoint, buyer profit value - price, seller profit price - cost, 0 without
a trade. Chance comes from `random.Random(f"{seed}:label")`, so a seed gives the same store.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import duckdb

ROUNDS = 20


@dataclass(frozen=True)
class Style:
    """How a synthetic agent quotes."""

    name: str
    shade: int = 10
    concede: float = 0.0
    floor: int = 0
    noise: int = 0

    def offset(self, rnd: int, rng: random.Random) -> int:
        """The offset of its quote in round `rnd` (1-based)."""
        base = max(self.floor, round(self.shade - self.concede * (rnd - 1)))
        return base + (rng.randint(-self.noise, self.noise) if self.noise else 0)


@dataclass(frozen=True)
class Round:
    """One row of pact_rounds."""

    game_id: str
    round: int
    value: int
    cost: int
    bid: int
    ask: int

    @property
    def traded(self) -> bool:
        """A unit trades when the bid meets the ask."""
        return self.bid >= self.ask

    @property
    def price(self) -> float | None:
        """The midpoint of bid and ask, when traded."""
        return (self.bid + self.ask) / 2 if self.traded else None

    @property
    def buyer_profit(self) -> float:
        """value - price, or 0."""
        return self.value - self.price if self.price is not None else 0.0

    @property
    def seller_profit(self) -> float:
        """price - cost, or 0."""
        return self.price - self.cost if self.price is not None else 0.0


@dataclass
class Game:
    """One synthetic game: its agents (buyer first), seed, status and rounds."""

    game_id: str
    seed: int
    buyer: str
    seller: str
    status: str = "finished"
    tournament: str | None = "synth"
    rounds: list[Round] = field(default_factory=list)


def clamp(x: int) -> int:
    """Quotes stay in 0..100."""
    return max(0, min(100, x))


def play(game_id: str, seed: int, buyer: Style, seller: Style, rounds: int = ROUNDS) -> Game:
    """A game between two styles on the values drawn from `seed`."""
    vr = random.Random(f"{seed}:values")
    value, cost = vr.randint(20, 100), vr.randint(0, 80)
    g = Game(game_id, seed, buyer.name, seller.name)
    for k in range(1, rounds + 1):
        rb = random.Random(f"{game_id}:{k}:buyer")
        rs = random.Random(f"{game_id}:{k}:seller")
        bid = clamp(value - buyer.offset(k, rb))
        ask = clamp(cost + seller.offset(k, rs))
        g.rounds.append(Round(game_id, k, value, cost, bid, ask))
    return g


def round_robin(
    styles: Sequence[Style], deals: int, seed: int = 0, self_play: bool = False
) -> list[Game]:
    """Every pair plays `deals` deals, each in both role orders on the same values."""
    games = []
    for d in range(deals):
        for i, a in enumerate(styles):
            for j, b in enumerate(styles):
                if (j < i) or (i == j and not self_play):
                    continue
                deal_seed = seed * 1_000_003 + d * 1009 + i * 31 + j
                games.append(play(f"g-{d:04d}-{a.name}-{b.name}-ab", deal_seed, a, b))
                if i != j:
                    games.append(play(f"g-{d:04d}-{a.name}-{b.name}-ba", deal_seed, b, a))
    return games


SCHEMA = """
CREATE TABLE games (game_id VARCHAR PRIMARY KEY, game VARCHAR, seed BIGINT, status VARCHAR,
                    tournament VARCHAR);
CREATE TABLE seats (game_id VARCHAR, seat SMALLINT, agent VARCHAR, tournament VARCHAR);
CREATE TABLE pact_rounds (game_id VARCHAR, round INTEGER, buyer_seat SMALLINT,
                          seller_seat SMALLINT, value INTEGER, cost INTEGER, bid INTEGER,
                          ask INTEGER, traded BOOLEAN, price DOUBLE, buyer_profit DOUBLE,
                          seller_profit DOUBLE);
CREATE TABLE pact_messages (game_id VARCHAR, round INTEGER, seat SMALLINT, text VARCHAR,
                            cut BOOLEAN);
"""


def _insert(con: duckdb.DuckDBPyConnection, table: str, types: str, rows: list[tuple]) -> None:
    """Insert rows column-wise (one statement: executemany is slow in DuckDB)."""
    kinds = [t.strip() for t in types.split(",")]
    cols = list(zip(*rows, strict=True)) if rows else [() for _ in kinds]
    select = ", ".join(f"unnest(?::{k}[])" for k in kinds)
    con.execute(f"INSERT INTO {table} SELECT {select}", [list(c) for c in cols])


def write(path: Path, games: Sequence[Game]) -> Path:
    """A real DuckDB file holding the games as the PACT views would show them."""
    con = duckdb.connect(str(path))
    try:
        con.execute(SCHEMA)
        _insert(
            con,
            "games",
            "VARCHAR, VARCHAR, BIGINT, VARCHAR, VARCHAR",
            [(g.game_id, "pact", g.seed, g.status, g.tournament) for g in games],
        )
        _insert(
            con,
            "seats",
            "VARCHAR, SMALLINT, VARCHAR, VARCHAR",
            [
                (g.game_id, s, a, g.tournament)
                for g in games
                for s, a in ((0, g.buyer), (1, g.seller))
            ],
        )
        _insert(
            con,
            "pact_rounds",
            "VARCHAR, INTEGER, SMALLINT, SMALLINT, INTEGER, INTEGER, INTEGER, INTEGER, BOOLEAN,"
            " DOUBLE, DOUBLE, DOUBLE",
            [
                (
                    r.game_id,
                    r.round,
                    0,
                    1,
                    r.value,
                    r.cost,
                    r.bid,
                    r.ask,
                    r.traded,
                    r.price,
                    r.buyer_profit,
                    r.seller_profit,
                )
                for g in games
                for r in g.rounds
            ],
        )
        _insert(
            con,
            "pact_messages",
            "VARCHAR, INTEGER, SMALLINT, VARCHAR, BOOLEAN",
            [
                (g.game_id, r.round, s, f"round {r.round}", False)
                for g in games
                for r in g.rounds
                for s in (0, 1)
            ],
        )
    finally:
        con.close()
    return path


STYLES: tuple[Style, ...] = (
    Style("truthful", shade=0),
    Style("greedy", shade=25, concede=1.0, floor=8, noise=3),
    Style("fair", shade=10, noise=2),
    Style("soft", shade=4, noise=4),
    Style("stubborn", shade=30, noise=1),
    Style("wild", shade=5, noise=15),
)
