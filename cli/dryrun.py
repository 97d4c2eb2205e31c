"""The dry run of `cattle play` and `cattle tournament`: estimate, print, call and store
nothing (runner/estimate.py says what the figures rest on)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cli.app import out
from cli.text import line, plain, styled
from events.store import DuckStore
from projections.metrics.tables import plural


def dry_run(
    db: Path,
    config: Any,
    planned: Sequence[Sequence[str]] | None,
    prices: Path | None,
    budgets: dict[str, Any],
    as_json: bool,
    *,
    schedule: tuple[str, Sequence[str], int, int] | None = None,
) -> None:
    """Estimate the `planned` games (or the tournament `schedule`: format, pool, games,
    seed) of `config` from the store at `db` when there is one, and print the estimate."""
    from projections.costs import load_prices
    from runner.estimate import estimate, estimate_games

    table = load_prices(prices)

    def run(con: Any) -> dict[str, Any]:
        if schedule is not None:
            return estimate(con, *schedule, config, table, **budgets)
        assert planned is not None
        return estimate_games(con, config, planned, table, **budgets)

    if Path(db).exists():
        with DuckStore(db, read_only=True) as store:
            got = run(store.con)
    else:
        got = run(None)
    if as_json:
        print(json.dumps(got))
    else:
        print_estimate(got)


def _basis(got: dict[str, Any]) -> str:
    """The line that says what the figures rest on."""
    from runner.estimate import DEFAULT_INPUT, DEFAULT_OUTPUT

    n = got["stored_games"]
    if n:
        return (
            f"Basis: per decision, the calls and tokens of {plural(n, 'stored game')} of this game"
            " and configuration."
        )
    return (
        "Basis: no stored game of this game and configuration with model seats; each seat's"
        " share of the"
        f" decision bound, one call per decision, {DEFAULT_INPUT:,} + {DEFAULT_OUTPUT}"
        " tokens per call (an upper estimate)."
    )


def _bound(per_seat: int | None, seats: int) -> str:
    """A row's calls bound, or `none` for a seat that plans without one (GameBench's RAP)."""
    return "none" if per_seat is None else f"{per_seat * seats:,}"


def print_estimate(got: dict[str, Any]) -> None:
    """Print a dry run's estimate as a table that fits 80 columns."""

    out.print(
        line(
            f"Dry run: {plural(got['games'], 'game')} of {{}} ({{}}), {got['model_games']} with model"
            f" seats; at most {got['decision_bound']:,} decisions per game.",
            got["game"],
            str(got["preset"]),
        )
    )
    if not got["seats"]:
        out.print(plain("No model seats: nothing to estimate."))
        return
    out.print(plain(_basis(got)))
    t = styled(plain("Expected model use (no model called)"))
    for c in ("agent", "seats", "calls", "tokens", "cost", "from", "calls bound"):
        t.add_column(c, overflow="fold", justify="left" if c in ("agent", "from") else "right")
    for r in got["seats"]:
        money = "n/a" if r["cost"] is None else f"{r['cost']:.4f}"
        basis = r["basis"] + (f"; cut by {', '.join(r['cut'])}" if r["cut"] else "")
        t.add_row(
            plain(r["agent"]),
            f"{r['seats']:,}",
            f"{r['calls']:,.0f}",
            f"{r['input_tokens'] + r['output_tokens']:,.0f}",
            money,
            plain(basis),
            _bound(r["calls_bound_per_seat"], r["seats"]),
        )
    t.caption = "calls bound: decisions x 3 calls x attempts, or max_calls"
    out.print(t)
    total = "n/a" if got["cost"] is None else f"{got['cost']:.4f}"
    out.print(
        plain(
            f"In all: {got['calls']:,.0f} calls, {got['tokens']:,.0f} tokens, cost {total};"
            + (
                f" at most {got['calls_bound']:,} calls."
                if got["calls_bound"] is not None
                else " no bound on the calls (a seat plans without one: set --max-calls)."
            )
        )
    )
    budgets = got["budgets"]
    for flag, key in (("--max-tokens", "max_tokens"), ("--max-cost", "max_cost")):
        if budgets.get(key) is not None:
            out.print(
                plain(
                    f"{flag} {budgets[key]:g}: no call starts once the tournament has used"
                    " it (calls in flight may pass it by their own tokens)."
                )
            )
