"""What games would cost before they are played (`cattle play --dry-run`, `cattle tournament
--dry-run`).

No model is called. Every model seat is estimated from what it would do per decision, times
the decisions it would be asked:

* `stored`: the finished stored games of the same game and the same configuration (the same
  preset, the same OpenSpiel or TextArena game and parameters; never another game of the
  family): their seats' decisions per game, and per decision their calls, input and output
  tokens (`llm_usage`). Seats of the same agent are used when there are any, else every model
  seat of those games.
* `bound`: with none stored, the game's own decision bound shared among its seats, one call
  per decision, and the stated tokens per call below.

The budgets are then applied to the estimate: a seat's own (`max_calls`, `max_game_tokens`,
`max_game_cost`) cut its figures, the tournament's (`--max-calls`, `--max-tokens`,
`--max-cost`) cut every seat's by the same share. Beside the estimate, the bound the budgets
and the rules put on the calls (docs/bounds.md).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from agents import parse_spec
from agents.llm.spec import PROVIDERS, calls_per_decision, resolve
from engine.schedule import iter_schedule
from events import catalog

DEFAULT_INPUT = 1_500
"""Input tokens per call assumed when no stored game of the game and configuration exists."""
DEFAULT_OUTPUT = 150
"""Output tokens per call assumed then."""


@dataclass(frozen=True)
class Rates:
    """What one model seat is expected to use in one game."""

    decisions: float
    """Decisions the seat is asked per game."""
    calls: float
    """Model calls per decision."""
    input: float
    """Input tokens per decision."""
    output: float
    """Output tokens per decision."""
    basis: str
    """What the figures rest on, as printed."""


def same_config(con: Any, game: str, config: Any) -> list[str]:
    """The ids of the finished stored games of `game` played with exactly `config`."""
    if con is None:
        return []
    want = json.loads(msgspec.json.encode(config))
    rows = con.execute(
        "SELECT game_id, config::VARCHAR FROM games WHERE game = ? AND status = 'finished'",
        [game],
    ).fetchall()
    return [gid for gid, text in rows if json.loads(text) == want]


def stored_rates(con: Any, games: Sequence[str], agent: str) -> Rates | None:
    """The rates of the model seats of `games` (those of `agent` when it has any)."""
    if not games:
        return None
    sql = """
        SELECT count(DISTINCT game_id), count(*), sum(decisions), sum(calls),
               sum(input_tokens), sum(output_tokens)
        FROM llm_usage WHERE list_contains(?, game_id) {}"""
    for extra, params, note in (
        ("AND agent = ?", [list(games), agent], ""),
        ("", [list(games)], ", other agents"),
    ):
        n, seats, decisions, calls, inp, outp = con.execute(sql.format(extra), params).fetchall()[0]
        if seats and decisions:
            return Rates(
                decisions=decisions / seats,
                calls=calls / decisions,
                input=inp / decisions,
                output=outp / decisions,
                basis=f"{n} stored {'game' if n == 1 else 'games'}{note}",
            )
    return None


def bound_rates(decision_bound: int, players: int) -> Rates:
    """The rates assumed with nothing stored: the seat's share of the game's decision bound,
    one call per decision, the stated tokens per call."""
    return Rates(
        decisions=decision_bound / max(1, players),
        calls=1.0,
        input=float(DEFAULT_INPUT),
        output=float(DEFAULT_OUTPUT),
        basis="bound",
    )


def _cut(limits: Sequence[tuple[str, float | None, float]]) -> tuple[float, list[str]]:
    """The share of an estimate the budgets leave, and the budgets that cut it."""
    share, names = 1.0, []
    for name, limit, used in limits:
        if limit is not None and used > limit:
            share = min(share, limit / used)
            names.append(name)
    return share, names


def estimate_games(
    con: Any,
    config: Any,
    planned: Sequence[Sequence[str]],
    prices: dict[str, tuple[float, float]],
    *,
    max_calls: int | None = None,
    max_tokens: int | None = None,
    max_cost: float | None = None,
) -> dict[str, Any]:
    """The dry run's figures for `planned` games (each a tuple of seat specs) of `config`:
    per model seat spec its seats, expected calls, tokens and cost, their basis and the
    budgets that cut them, and the totals (see the module's docstring)."""
    from projections.costs import cost, price_for
    from runner.driver import decision_limit

    game = catalog.for_config(config)
    seats: Counter[str] = Counter(s for g in planned for s in g)
    decisions = decision_limit(game, config)
    stored = same_config(con, game.name, config)
    if stored:  # only games with model seats tell what a model seat uses
        stored = [
            gid
            for (gid,) in con.execute(
                "SELECT DISTINCT game_id FROM llm_usage WHERE list_contains(?, game_id) ORDER BY 1",
                [stored],
            ).fetchall()
        ]
    rows: list[dict[str, Any]] = []
    for spec in sorted(seats, key=lambda s: -seats[s]):
        if spec.partition(":")[0] not in PROVIDERS:
            continue
        parsed = parse_spec(spec, game)
        options = resolve(parsed)
        rates = stored_rates(con, stored, parsed.agent) or bound_rates(decisions, config.players)
        calls = rates.decisions * rates.calls
        inp, outp = rates.decisions * rates.input, rates.decisions * rates.output
        price = price_for(options.provider, options.model, prices)
        own = options.price or price
        share, cut = _cut(
            (
                ("max_calls", options.max_calls, calls),
                ("max_game_tokens", options.max_game_tokens, inp + outp),
                (
                    "max_game_cost",
                    options.max_game_cost,
                    (cost(round(inp), round(outp), own) or 0.0) if own else 0.0,
                ),
            )
        )
        k = seats[spec]
        per = calls_per_decision(options, game.name)
        bound = None if per is None else decisions * per * options.attempts
        rows.append(
            {
                "agent": parsed.agent,
                "seats": k,
                "decisions": rates.decisions * share * k,
                "calls": calls * share * k,
                "input_tokens": inp * share * k,
                "output_tokens": outp * share * k,
                "price": price,
                "basis": rates.basis,
                "cut": cut,
                "calls_bound_per_seat": min(
                    [b for b in (bound, options.max_calls) if b is not None], default=None
                ),
            }
        )
    total_calls = sum(r["calls"] for r in rows)
    total_tokens = sum(r["input_tokens"] + r["output_tokens"] for r in rows)
    for r in rows:
        r["cost"] = cost(round(r["input_tokens"]), round(r["output_tokens"]), r.pop("price"))
    priced = all(r["cost"] is not None for r in rows)
    total_cost = sum(r["cost"] for r in rows) if priced else None
    share, cut = _cut(
        (
            ("--max-calls", max_calls, total_calls),
            ("--max-tokens", max_tokens, total_tokens),
            ("--max-cost", max_cost, total_cost or 0.0),
        )
    )
    if share < 1.0:
        for r in rows:
            for key in ("decisions", "calls", "input_tokens", "output_tokens"):
                r[key] *= share
            r["cost"] = None if r["cost"] is None else r["cost"] * share
            r["cut"] = [*r["cut"], *cut]
    return {
        "game": game.name,
        "preset": getattr(config, "name", None),
        "games": len(planned),
        "model_games": sum(any(s.partition(":")[0] in PROVIDERS for s in g) for g in planned),
        "decision_bound": decisions,
        "stored_games": len(stored),
        "seats": rows,
        "calls": total_calls * share,
        "tokens": total_tokens * share,
        "cost": None if total_cost is None else total_cost * share,
        "cut": cut,
        "calls_bound": _calls_bound(rows, max_calls),
        "budgets": {"max_calls": max_calls, "max_tokens": max_tokens, "max_cost": max_cost},
    }


def _calls_bound(rows: Sequence[dict[str, Any]], max_calls: int | None) -> int | None:
    """The most calls the seats can make: their bounds' sum, or `--max-calls` when smaller;
    None when a seat has no bound and no `--max-calls` gives one (GameBench's RAP)."""
    seats = [r["calls_bound_per_seat"] for r in rows]
    own = None if None in seats else sum(b * r["seats"] for b, r in zip(seats, rows, strict=True))
    return min([b for b in (own, max_calls or None) if b is not None], default=None)


def estimate(
    con: Any,
    fmt: str,
    pool: Sequence[str],
    games: int,
    seed: int,
    config: Any,
    prices: dict[str, tuple[float, float]],
    *,
    max_calls: int | None = None,
    max_tokens: int | None = None,
    max_cost: float | None = None,
) -> dict[str, Any]:
    """The dry run of a tournament: its schedule's games estimated by `estimate_games`, the
    budgets given holding for the whole tournament."""
    planned = [g.seats for g in iter_schedule(fmt, tuple(pool), games, seed, config.players)]
    return estimate_games(
        con, config, planned, prices, max_calls=max_calls, max_tokens=max_tokens, max_cost=max_cost
    )
