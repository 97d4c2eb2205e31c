"""The paper's code-agent setting, run and compared with the paper's published figures.

The paper's mixed format seats one model against three code agents in seven opponent
compositions (C1..C7, `engine.schedule.COMPOSITIONS`). Here a stand-in agent (by default the
random agent) takes the model's seat. The games are an ordinary mixed tournament
(`runner.tournament`), and every figure comes from the metric registry
(`projections.metrics`) and the TrueSkill ratings the report uses, so `cattle paper` shows
exactly what `cattle metrics` and `cattle ratings` would show for the same games.

Table 3 of the paper is measured on its C1 slice (one model with Tracker, SetRace and
Economy); the TrueSkill table on all seven compositions. Both slices are kept here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from projections.cattle.metrics.registry import PAPER_METRICS

# The tournament runner and the metrics (DuckDB, numpy) load when a paper run is played or
# measured, not when `cattle paper --help` reads the defaults below.
if TYPE_CHECKING:
    from events.store import DuckStore

CODE_AGENTS: tuple[str, ...] = ("tracker", "setrace", "economy")
"""The paper's three code agents, as named here."""

STAND_INS: tuple[str, ...] = ("random",)
"""What takes the model seat of the mixed games by default."""

DEFAULT_GAMES = 700
"""Default number of games: 100 per composition, enough for rates stable to a few points."""

DEFAULT_SEED = 2026

TABLE3_COLUMNS: tuple[str, ...] = PAPER_METRICS
"""Table 3's columns (metric names of the registry), in the paper's order."""

PAPER_TABLE3: dict[str, dict[str, float]] = {
    "tracker": {
        "bid_aggressiveness": 1.14,
        "buy_right_rate": 0.344,
        "tc_accept_rate": 0.0,
        "bluff_rate": 0.270,
        "self_bid_rate": 0.587,
        "eta": 1.55,
        "overbid_rate": 0.0,
    },
    "setrace": {
        "bid_aggressiveness": 0.83,
        "buy_right_rate": 0.312,
        "tc_accept_rate": 0.348,
        "bluff_rate": 0.230,
        "self_bid_rate": 0.670,
        "eta": 1.46,
        "overbid_rate": 0.0,
    },
    "economy": {
        "bid_aggressiveness": 0.67,
        "buy_right_rate": 0.145,
        "tc_accept_rate": 0.148,
        "bluff_rate": 0.306,
        "self_bid_rate": 0.596,
        "eta": 0.78,
        "overbid_rate": 0.0,
    },
}
"""Table 3 of the paper, code-agent rows (rates as fractions)."""

PAPER_RAMP: dict[str, tuple[float, float]] = {"tracker": (0.06, 1.92), "setrace": (0.11, 1.55)}
"""Early and late bid aggressiveness the paper reports for the code agents (§4)."""

PAPER_MU: dict[str, float] = {"tracker": 30.8, "setrace": 29.7, "economy": 26.4}
"""TrueSkill μ of the code agents in the paper's mixed games (all seven compositions)."""

RATIO_METRICS = frozenset({"bid_aggressiveness", "eta"})
"""Columns compared by ratio (aim: within 25%); the others are rates (aim: within 10 points)."""

RATE_TOLERANCE = 0.10
RATIO_TOLERANCE = 0.25
RAMP_AIM = 5.0
MU_GAP_AIM = 2.5


@dataclass(frozen=True)
class Cell:
    """One figure: ours, the paper's, and whether it meets the aim."""

    ours: float | None
    paper: float | None
    lo: float | None = None
    hi: float | None = None

    @property
    def diff(self) -> float | None:
        """Ours minus the paper's."""
        if self.ours is None or self.paper is None:
            return None
        return self.ours - self.paper


@dataclass
class AgentRow:
    """One code agent's Table 3 row, ramp and rating."""

    agent: str
    games: int
    cells: dict[str, Cell] = field(default_factory=dict)
    early: float | None = None
    late: float | None = None
    mu: float | None = None
    sigma: float | None = None

    @property
    def ramp(self) -> float | None:
        """Late over early bid aggressiveness."""
        if self.early is None or self.late is None or self.early <= 0:
            return None
        return self.late / self.early


@dataclass
class PaperComparison:
    """Everything `cattle paper` prints."""

    tournament: str
    games: int
    table_games: int
    stand_ins: tuple[str, ...]
    rows: list[AgentRow]
    ratings: list[tuple[str, float, float, int]]
    """(agent, μ, σ, games) of every agent, stand-ins included, best first."""
    aims: dict[str, bool] = field(default_factory=dict)


def meets(metric: str, cell: Cell) -> bool | None:
    """Whether one Table 3 figure is within the aim (None: nothing to compare)."""
    if cell.ours is None or cell.paper is None:
        return None
    if metric in RATIO_METRICS:
        return abs(cell.ours - cell.paper) <= RATIO_TOLERANCE * cell.paper
    return abs(cell.ours - cell.paper) <= RATE_TOLERANCE + 1e-9


def tournament_name(games: int, seed: int, stand_ins: Sequence[str]) -> str:
    """The stored name of a paper run (the same options find the same games again)."""
    tag = "_".join(s.replace(":", ".") for s in stand_ins)
    return f"paper-{tag}-{seed}-{games}"[:64]


def play(
    store: DuckStore,
    config: Any,
    *,
    games: int = DEFAULT_GAMES,
    seed: int = DEFAULT_SEED,
    stand_ins: Sequence[str] = STAND_INS,
    workers: int = 1,
    on_game: Callable[[], None] | None = None,
    on_planned: Callable[[int, int], None] | None = None,
) -> str:
    """Plan (or find) the paper's mixed tournament in `store` and play what is missing;
    return its name. `on_planned(total, done)` is told the size before the first game."""
    from runner.tournament import (
        create,
        ensure_schema,
        pending_tasks,
        play_tournament,
        tournament_exists,
    )

    ensure_schema(store)
    name = tournament_name(games, seed, stand_ins)
    if not tournament_exists(store, name):
        create(store, name, "mixed", tuple(stand_ins), games, seed, config)
    _, tasks, done = pending_tasks(store, name)
    if on_planned is not None:
        on_planned(done + len(tasks), done)
    if tasks:
        play_tournament(store, name, config, tasks, workers=workers, already=done, on_game=on_game)
    return name


SLICES = ("c1", "all")
"""Games Table 3 is measured on: the C1 games (the paper's slice) or every composition."""


MAX_SEEDS = 50
"""Most seeds one `cattle paper --seeds` run plays."""


class SeedError(ValueError):
    """A list of seeds that cannot be read."""


def parse_seeds(text: str) -> list[int]:
    """Seeds from "1-5", "1,2,7" or a mix ("1-3,9"), in the order given, each once."""
    seeds: list[int] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        lo, sep, hi = part.partition("-")
        try:
            first = int(lo)
            last = int(hi) if sep else first
        except ValueError:
            raise SeedError(f"--seeds: {part!r} is not a seed or a range a-b") from None
        if first < 0 or last < first:
            raise SeedError(f"--seeds: {part!r} is not a range of seeds from low to high")
        for seed in range(first, last + 1):
            if seed not in seeds:
                seeds.append(seed)
            if len(seeds) > MAX_SEEDS:
                raise SeedError(f"--seeds: at most {MAX_SEEDS} seeds in one run")
    if not seeds:
        raise SeedError("--seeds needs at least one seed")
    return seeds


def compare(
    store: DuckStore,
    name: str | Sequence[str],
    *,
    resamples: int = 200,
    table_slice: str = "c1",
) -> PaperComparison:
    """Measure played paper tournaments and set them beside the paper (Table 3 on
    `table_slice`, the ratings on every game). Several tournaments (one per seed) are pooled:
    their games are measured as one selection."""
    from engine.schedule import COMPOSITIONS
    from projections.cattle.metrics import build, profiles
    from projections.metrics import aggregate
    from projections.metrics.ratings import ratings
    from runner.tournament import load

    con = store.con
    build.ensure(con)
    names = (name,) if isinstance(name, str) else tuple(name)
    planned = [g for n in names for g in load(store, n)[1]]
    finished = [g for g in planned if g["status"] == "finished"]
    every = tuple(g["game_id"] for g in finished)
    first = next(iter(COMPOSITIONS))
    c1 = (
        every
        if table_slice == "all"
        else tuple(g["game_id"] for g in finished if g["lineup"] == first)
    )
    stand_ins = tuple(sorted({s for g in planned for s in _seats(g)} - set(CODE_AGENTS)))
    profs = profiles.profiles(
        con,
        aggregate.Selection(games=c1),
        names=TABLE3_COLUMNS,
        keyed=("bid_aggressiveness_phase",),
        resamples=resamples,
    )
    by_agent = {p.agent: p for p in profs}
    rows = []
    for agent in CODE_AGENTS:
        prof = by_agent.get(agent)
        row = AgentRow(agent=agent, games=prof.games if prof else 0)
        for m in TABLE3_COLUMNS:
            est = prof.metrics.get(m) if prof else None
            row.cells[m] = Cell(
                ours=est.value if est else None,
                paper=PAPER_TABLE3[agent][m],
                lo=est.lo if est else None,
                hi=est.hi if est else None,
            )
        phase = prof.keyed.get("bid_aggressiveness_phase", {}) if prof else {}
        row.early = phase["early"].value if "early" in phase else None
        row.late = phase["late"].value if "late" in phase else None
        rows.append(row)
    table = ratings(con, aggregate.Selection(games=every))
    by_rating = {r.agent: r for r in table}
    for row in rows:
        r = by_rating.get(row.agent)
        if r is not None:
            row.mu, row.sigma = r.mu, r.sigma
    result = PaperComparison(
        tournament=",".join(names),
        games=len(every),
        table_games=len(c1),
        stand_ins=stand_ins,
        rows=rows,
        ratings=[(r.agent, r.mu, r.sigma, r.games) for r in table],
    )
    result.aims = aims(result)
    return result


def aims(result: PaperComparison) -> dict[str, bool]:
    """Each aim of the calibration and whether this run meets it."""
    out: dict[str, bool] = {}
    rows = {r.agent: r for r in result.rows}
    for row in result.rows:
        for m, cell in row.cells.items():
            ok = meets(m, cell)
            if ok is not None:
                out[f"{row.agent}.{m}"] = ok
    for agent in PAPER_RAMP:
        ramp = rows[agent].ramp
        out[f"{agent}.ramp"] = ramp is not None and ramp >= RAMP_AIM
    mu = {a: rows[a].mu for a in CODE_AGENTS}
    t, s, e = mu["tracker"], mu["setrace"], mu["economy"]
    if t is not None and s is not None and e is not None:
        out["trueskill.order"] = t > s > e
        out["trueskill.gap"] = t - s <= MU_GAP_AIM
    return out


def _seats(g: dict[str, Any]) -> list[str]:
    import json

    return list(json.loads(g["seats"]))
