"""`cattle paper`: the paper's code-agent setting, played and set beside the paper's figures.

The games are a mixed tournament (runner.cattle.paper, over runner.tournament); the figures come from
the metric registry and the TrueSkill ratings, as `cattle metrics` and `cattle ratings` show
them. This module parses options, shows progress and prints.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from cli.common import SEED_RANGE, UsageError, app, err, in_range, out, seed_or_random
from cli.text import line, plain, styled
from runner.cattle import paper as P

LABELS = {
    "bid_aggressiveness": "Bid agg.",
    "buy_right_rate": "Buy-right",
    "tc_accept_rate": "TC-accept",
    "bluff_rate": "Bluff",
    "self_bid_rate": "Self-bid",
    "eta": "η",
    "overbid_rate": "Overbid",
}
NAMES = {"tracker": "Tracker", "setrace": "SetRace", "economy": "Economy"}


def _games(n: int) -> str:
    return f"{n} game" if n == 1 else f"{n} games"


def _percent(metric: str) -> bool:
    return metric not in P.RATIO_METRICS


def _num(value: float | None, percent: bool) -> str:
    if value is None:
        return "-"
    return f"{100 * value:.1f}" if percent else f"{value:.2f}"


def _diff(value: float | None, percent: bool) -> str:
    if value is None:
        return "-"
    return f"{100 * value:+.1f}" if percent else f"{value:+.2f}"


def _mark(ok: bool | None) -> str:
    return "" if ok is None else ("[green]✓[/]" if ok else "[red]✗[/]")


def table3(result: P.PaperComparison) -> Table:
    """Table 3 of the paper, code-agent rows: ours (with its 95% interval), the paper's, the
    difference, and whether it meets the aim."""
    t = styled(f"Table 3, code agents ({_games(result.table_games)}; rates in %)")
    t.add_column("Agent", no_wrap=True)
    t.add_column("Metric", no_wrap=True)
    t.add_column("ours", justify="right")
    t.add_column("95% CI", justify="right", style="dim")
    t.add_column("paper", justify="right")
    t.add_column("Δ", justify="right")
    t.add_column("aim", justify="center")
    for row in result.rows:
        name = NAMES.get(row.agent, row.agent)
        for i, m in enumerate(P.TABLE3_COLUMNS):
            pct = _percent(m)
            c = row.cells[m]
            ci = "-" if c.lo is None or c.hi is None else f"{_num(c.lo, pct)}-{_num(c.hi, pct)}"
            t.add_row(
                name if i == 0 else "",
                LABELS[m],
                _num(c.ours, pct),
                ci,
                _num(c.paper, pct),
                _diff(c.diff, pct),
                _mark(P.meets(m, c)),
            )
        paper = P.PAPER_RAMP.get(row.agent)
        early = "-" if row.early is None else f"{row.early:.2f}"
        late = "-" if row.late is None else f"{row.late:.2f}"
        t.add_row(
            "",
            "Late/early",
            "-" if row.ramp is None else f"{row.ramp:.1f}x",
            f"{early}->{late}",
            "-" if paper is None else f"{paper[1] / paper[0]:.0f}x",
            "",
            _mark(result.aims.get(f"{row.agent}.ramp")),
            end_section=True,
        )
    return t


def trueskill_table(result: P.PaperComparison) -> Table:
    """TrueSkill μ of every agent over all compositions, beside the paper's code agents."""
    t = styled(f"TrueSkill, all compositions ({_games(result.games)})")
    t.add_column("Agent", no_wrap=True)
    t.add_column("μ", justify="right")
    t.add_column("σ", justify="right")
    t.add_column("paper μ", justify="right", style="dim")
    t.add_column("Δ", justify="right")
    t.add_column("games", justify="right")
    for agent, mu, sigma, games in result.ratings:
        paper = P.PAPER_MU.get(agent)
        t.add_row(
            plain(agent),
            f"{mu:.1f}",
            f"{sigma:.2f}",
            "-" if paper is None else f"{paper:.1f}",
            "-" if paper is None else f"{mu - paper:+.1f}",
            str(games),
        )
    return t


def as_json(result: P.PaperComparison, seed: int, table_slice: str) -> dict[str, Any]:
    """Everything `cattle paper` prints, as plain JSON (rates as fractions)."""
    rows: dict[str, Any] = {}
    for row in result.rows:
        doc: dict[str, Any] = {"games": row.games}
        for m, c in row.cells.items():
            doc[m] = {
                "ours": c.ours,
                "paper": c.paper,
                "diff": c.diff,
                "ci": [c.lo, c.hi],
                "meets_aim": P.meets(m, c),
            }
        paper = P.PAPER_RAMP.get(row.agent)
        doc["ramp"] = {
            "early": row.early,
            "late": row.late,
            "ratio": row.ramp,
            "paper": None if paper is None else {"early": paper[0], "late": paper[1]},
        }
        rows[row.agent] = doc
    return {
        "tournament": result.tournament,
        "seed": seed,
        "games": result.games,
        "table_slice": table_slice,
        "table_games": result.table_games,
        "stand_ins": list(result.stand_ins),
        "table3": rows,
        "trueskill": [
            {"agent": a, "mu": mu, "sigma": s, "games": n, "paper_mu": P.PAPER_MU.get(a)}
            for a, mu, s, n in result.ratings
        ],
        "aims": result.aims,
    }


def seeds_table(per_seed: dict[int, P.PaperComparison], pooled: P.PaperComparison) -> Table:
    """Each Table 3 figure at every seed and pooled over them, beside the paper's (a figure
    that misses its aim is marked)."""
    t = styled(f"Table 3 by seed ({_games(pooled.table_games)} pooled; rates in %)")
    t.add_column("Agent", no_wrap=True)
    t.add_column("Metric", no_wrap=True)
    for seed in per_seed:
        t.add_column(str(seed), justify="right")
    t.add_column("pooled", justify="right")
    t.add_column("paper", justify="right", style="dim")
    rows = {seed: {r.agent: r for r in res.rows} for seed, res in per_seed.items()}

    def cell(metric: str, c: P.Cell) -> str:
        text = _num(c.ours, _percent(metric))
        return text if P.meets(metric, c) is not False else f"[red]{text}*[/]"

    for prow in pooled.rows:
        name = NAMES.get(prow.agent, prow.agent)
        for i, m in enumerate(P.TABLE3_COLUMNS):
            t.add_row(
                name if i == 0 else "",
                LABELS[m],
                *(cell(m, rows[seed][prow.agent].cells[m]) for seed in per_seed),
                cell(m, prow.cells[m]),
                _num(prow.cells[m].paper, _percent(m)),
                end_section=i == len(P.TABLE3_COLUMNS) - 1,
            )
    t.add_row(
        "TrueSkill",
        "order",
        *("yes" if res.aims.get("trueskill.order") else "[red]no*[/]" for res in per_seed.values()),
        "yes" if pooled.aims.get("trueskill.order") else "[red]no*[/]",
        "T>S>E",
    )
    t.add_row(
        "Aims",
        "met",
        *(f"{sum(r.aims.values())}/{len(r.aims)}" for r in per_seed.values()),
        f"{sum(pooled.aims.values())}/{len(pooled.aims)}",
        "",
    )
    return t


def _play(
    db: Path, games: int, seed: int, stand_ins: tuple[str, ...], workers: int, quiet: bool
) -> str:
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    from engine.cattle.presets import load_preset
    from events.store import DuckStore

    columns = (
        TextColumn("paper games", style="bold"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("left"),
        TimeRemainingColumn(),
    )
    with DuckStore(db) as store, Progress(*columns, console=err, disable=quiet) as progress:
        bar = progress.add_task("games", total=games)

        def planned(total: int, done: int) -> None:
            progress.update(bar, total=total, completed=done)

        return P.play(
            store,
            load_preset("standard"),
            games=games,
            seed=seed,
            stand_ins=stand_ins,
            workers=workers,
            on_game=lambda: progress.advance(bar),
            on_planned=planned,
        )


@app.command()
def paper(
    games: Annotated[
        int,
        typer.Option(help="Games to play (spread over the seven compositions C1..C7)."),
    ] = P.DEFAULT_GAMES,
    seed: Annotated[int | None, typer.Option(help=f"Tournament seed, {SEED_RANGE}.")] = (
        P.DEFAULT_SEED
    ),
    seeds: Annotated[
        str | None,
        typer.Option(
            help="Play the setting once per seed (a range 1-5, a list 1,2,7, or both) and"
            " print every seed's figures and the pooled ones; replaces --seed.",
        ),
    ] = None,
    stand_in: Annotated[
        str,
        typer.Option(help="Comma-separated agents that take the model's seat (default: random)."),
    ] = ",".join(P.STAND_INS),
    table_slice: Annotated[
        str,
        typer.Option(
            "--slice",
            help="Games Table 3 is measured on: c1 (the paper's slice) or all compositions.",
        ),
    ] = "c1",
    workers: Annotated[int, typer.Option(help="Worker processes.")] = 2,
    db: Annotated[
        Path | None,
        typer.Option(
            "--db",
            help="Keep the games in this DuckDB file (played again only where missing);"
            " default: a temporary file, removed at the end.",
        ),
    ] = None,
    output_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
) -> None:
    """Play the paper's code-agent setting (mixed games, compositions C1..C7, a stand-in in the
    model's seat) and print Table 3 and the TrueSkill table beside the paper's values."""
    from agents import UnknownAgent, parse_spec
    from events.store import DuckStore
    from runner.tournament import MAX_GAMES, max_workers

    in_range("--games", games, 7, MAX_GAMES)
    in_range("--workers", workers, 1, max_workers())
    seed = seed_or_random(seed)
    try:
        seed_list = P.parse_seeds(seeds) if seeds is not None else None
    except P.SeedError as exc:
        raise UsageError(str(exc)) from None
    if table_slice not in P.SLICES:
        raise UsageError(f"--slice must be one of {', '.join(P.SLICES)}, got {table_slice!r}")
    pool = tuple(s.strip() for s in stand_in.split(",") if s.strip())
    if not pool:
        raise UsageError("--stand-in needs at least one agent")
    if len(set(pool)) != len(pool):
        raise UsageError("--stand-in: each agent may be listed only once")
    for spec in pool:
        try:
            agent = parse_spec(spec)
        except UnknownAgent as exc:
            raise UsageError(f"--stand-in: {exc}") from None
        if agent.options or spec.split(":", 1)[0] not in _code_names():
            raise UsageError(f"--stand-in {spec!r}: only code agents can stand in here")
        if spec in P.CODE_AGENTS:
            raise UsageError(f"--stand-in {spec!r} is measured; use another (random, tracker-v1)")
    if seed_list is not None:
        _many(seed_list, games, pool, workers, db, table_slice, output_json, quiet)
        return
    with tempfile.TemporaryDirectory(prefix="cattle-paper-") as tmp:
        path = db if db is not None else Path(tmp) / "paper.duckdb"
        name = _play(path, games, seed, pool, workers, quiet or output_json)
        with DuckStore(path) as store:
            result = P.compare(store, name, table_slice=table_slice)
    if output_json:
        print(json.dumps(as_json(result, seed, table_slice)))
        return
    out.print(
        line(
            "Paper setting: {} mixed games, seed {}, stand-in {} in the model's seat.",
            result.games,
            seed,
            ", ".join(result.stand_ins),
        )
    )
    out.print(table3(result))
    out.print(trueskill_table(result))
    met = sum(result.aims.values())
    missed = [k for k, ok in result.aims.items() if not ok]
    out.print(line("Aims met: {} of {}.", met, len(result.aims)))
    if missed:
        out.print(line("Missed: {}.", ", ".join(missed)))


def _many(
    seeds: list[int],
    games: int,
    pool: tuple[str, ...],
    workers: int,
    db: Path | None,
    table_slice: str,
    output_json: bool,
    quiet: bool,
) -> None:
    """Play and measure the setting at every seed, then pooled over the seeds."""
    from events.store import DuckStore

    with tempfile.TemporaryDirectory(prefix="cattle-paper-") as tmp:
        path = db if db is not None else Path(tmp) / "paper.duckdb"
        names = {s: _play(path, games, s, pool, workers, quiet or output_json) for s in seeds}
        with DuckStore(path) as store:
            per_seed = {s: P.compare(store, n, table_slice=table_slice) for s, n in names.items()}
            pooled = P.compare(store, list(names.values()), table_slice=table_slice)
    if output_json:
        pooled_doc = as_json(pooled, seeds[0], table_slice)
        pooled_doc["seed"] = None  # the pool has no single seed
        doc = {
            "seeds": seeds,
            "per_seed": {str(s): as_json(r, s, table_slice) for s, r in per_seed.items()},
            "pooled": pooled_doc,
        }
        print(json.dumps(doc))
        return
    out.print(
        line(
            "Paper setting: {} mixed games per seed, seeds {}, stand-in {} in the model's seat.",
            games,
            ", ".join(map(str, seeds)),
            ", ".join(pooled.stand_ins),
        )
    )
    out.print(seeds_table(per_seed, pooled))
    out.print(table3(pooled))
    out.print(trueskill_table(pooled))
    for s, r in per_seed.items():
        missed = [k for k, ok in r.aims.items() if not ok]
        out.print(
            line("Seed {}: aims met {} of {}.", s, sum(r.aims.values()), len(r.aims))
            + (line(" Missed: {}.", ", ".join(missed)) if missed else "")
        )
    met = sum(pooled.aims.values())
    out.print(line("Pooled: aims met {} of {}.", met, len(pooled.aims)))


def _code_names() -> set[str]:
    from agents import code_agents

    return set(code_agents())
