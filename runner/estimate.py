"""What a tournament would cost before it is played (`cattle tournament --dry-run`).

No model is called. For each model agent of the schedule: how many seats it takes in all
(one per game it sits in), and per seat the model calls and tokens that the stored games of
the same game and agent used on average (from `llm_usage`; games of the same preset first,
else every stored game of that game), else the stated defaults below. The cost prices those
tokens with the price table. Beside the estimate, the bound the budgets and the rules put on
every seat and on the whole tournament (docs/bounds.md).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from agents import parse_spec
from agents.llm.spec import PROVIDERS, resolve
from engine.schedule import iter_schedule
from events import catalog

DEFAULT_CALLS = 40
"""Model calls per seat and game assumed when no stored game of the game and agent exists."""
DEFAULT_INPUT = 1_500
"""Input tokens per call assumed then."""
DEFAULT_OUTPUT = 150
"""Output tokens per call assumed then."""
CALLS_PER_DECISION = 3
"""At most: the answer, a format retry, a truncation retry (docs/bounds.md)."""


def _stored(con: Any, game: str, agent: str, preset: str | None) -> tuple[int, float, float, float]:
    """(seats, calls, input, output tokens per seat) of the stored games of `game` and
    `agent`, of the same preset when there are any."""
    if con is None:
        return 0, 0.0, 0.0, 0.0
    sql = """
        SELECT count(*), avg(u.calls), avg(u.input_tokens), avg(u.output_tokens)
        FROM llm_usage u JOIN games g USING (game_id)
        WHERE g.game = ? AND u.agent = ? AND g.status = 'finished' {}"""
    for extra, params in (
        ("AND json_extract_string(g.config, '$.name') = ?", [game, agent, preset]),
        ("", [game, agent]),
    ):
        if "?" in extra and preset is None:
            continue
        n, calls, inp, outp = con.execute(sql.format(extra), params).fetchall()[0]
        if n:
            return int(n), float(calls), float(inp), float(outp)
    return 0, 0.0, 0.0, 0.0


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
    """The dry run's figures: the schedule, and per model agent its seats, expected calls,
    tokens and cost, what they are based on, and the bounds (see the module's docstring)."""
    from projections.costs import cost, price_for
    from runner.driver import decision_limit

    game = catalog.for_config(config)
    planned = list(iter_schedule(fmt, tuple(pool), games, seed, config.players))
    seats: Counter[str] = Counter(s for g in planned for s in g.seats)
    decisions = decision_limit(game, config)
    preset = getattr(config, "name", None)
    rows: list[dict[str, Any]] = []
    for spec in sorted(seats, key=lambda s: -seats[s]):
        if spec.partition(":")[0] not in PROVIDERS:
            continue
        parsed = parse_spec(spec, game)
        options = resolve(parsed)
        n, calls, inp, outp = _stored(con, game.name, parsed.agent, preset)
        if n == 0:
            calls, inp, outp = (
                DEFAULT_CALLS,
                DEFAULT_CALLS * DEFAULT_INPUT,
                DEFAULT_CALLS * DEFAULT_OUTPUT,
            )
        k = seats[spec]
        price = price_for(options.provider, options.model, prices)
        per_seat = options.max_calls
        bound = decisions * CALLS_PER_DECISION * options.attempts * max(1, options.samples)
        rows.append(
            {
                "agent": parsed.agent,
                "seats": k,
                "calls": calls * k,
                "input_tokens": inp * k,
                "output_tokens": outp * k,
                "cost": cost(round(inp * k), round(outp * k), price),
                "basis": f"{n} stored seat(s)" if n else "default",
                "calls_bound_per_seat": min(bound, per_seat) if per_seat else bound,
            }
        )
    total_calls = sum(r["calls"] for r in rows)
    priced = all(r["cost"] is not None for r in rows)
    return {
        "game": game.name,
        "preset": preset,
        "games": len(planned),
        "model_games": sum(any(s.partition(":")[0] in PROVIDERS for s in g.seats) for g in planned),
        "decision_bound": decisions,
        "seats": rows,
        "calls": total_calls,
        "tokens": sum(r["input_tokens"] + r["output_tokens"] for r in rows),
        "cost": sum(r["cost"] for r in rows) if priced else None,
        "calls_bound": min(
            [sum(r["calls_bound_per_seat"] * r["seats"] for r in rows)]
            + ([max_calls] if max_calls else [])
        ),
        "budgets": {"max_calls": max_calls, "max_tokens": max_tokens, "max_cost": max_cost},
    }
