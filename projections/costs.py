"""Tokens, cost and answer quality of model seats, from the stored `llm_call` events."""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any

import msgspec

PRICES = Path(__file__).resolve().parents[1] / "data" / "prices.json"
"""The shipped price table (USD per million tokens)."""
PRICES_ENV = "CATTLE_PRICES"
MAX_PRICES_BYTES = 4 * 1024 * 1024
"""A price table is a few kilobytes; a file far larger than this is not one."""

Price = tuple[float, float]


class PricesError(ValueError):
    """A price table that cannot be read or does not have the expected shape."""


class _Entry(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One model's price: USD per million input and output tokens."""

    input: float
    output: float


def _read_table(src: Path, origin: str) -> dict[str, Price]:
    """One price file: `{"provider:model": {"input": USD, "output": USD}, "_note": ...}`."""
    if src.is_dir():
        raise PricesError(f"{origin}: {src} is a folder; name a price table (a JSON file)")
    try:
        with src.open("rb") as f:
            data = f.read(MAX_PRICES_BYTES + 1)
    except OSError as exc:
        raise PricesError(f"{origin}: cannot read {src}: {exc.strerror or exc}") from None
    if len(data) > MAX_PRICES_BYTES:
        raise PricesError(
            f"{origin}: {src} is not a price table: it holds more than"
            f" {MAX_PRICES_BYTES:,} bytes (a price table holds a few thousand)"
        )
    try:
        raw = msgspec.json.decode(data, type=dict[str, Any])
    except msgspec.DecodeError as exc:
        raise PricesError(f"{origin}: {src} is not a JSON object of prices ({exc})") from None
    table: dict[str, Price] = {}
    for key, value in raw.items():
        if key.startswith("_"):
            continue  # comments and notes such as "_as_of"
        try:
            entry = msgspec.convert(value, _Entry)
        except msgspec.ValidationError as exc:
            raise PricesError(
                f'{origin}: {src}: entry {key!r} must be {{"input": USD, "output": USD}} ({exc})'
            ) from None
        for side, price in (("input", entry.input), ("output", entry.output)):
            if not math.isfinite(price) or price < 0:
                raise PricesError(
                    f"{origin}: {src}: the {side} price of {key!r} must be a finite number"
                    f" of 0 or more, got {price}"
                )
        table[key] = (entry.input, entry.output)
    return table


def load_prices(path: Path | None = None) -> dict[str, Price]:
    """The price table: `path`, else $CATTLE_PRICES, else the shipped data/prices.json.

    An override file may hold only some models: it is laid over the shipped table. A file
    that cannot be read or has the wrong shape raises `PricesError` naming it.
    """
    table = _read_table(PRICES, "the shipped price table")
    if path is not None:
        table.update(_read_table(Path(path), "--prices"))
    elif os.environ.get(PRICES_ENV):
        table.update(_read_table(Path(os.environ[PRICES_ENV]), f"${PRICES_ENV}"))
    return table


def price_for(provider: str, model: str, table: dict[str, Price]) -> Price | None:
    """The price of a model: the longest `provider:model` prefix in the table, if any."""
    name = f"{provider}:{model}"
    best = None
    for key in table:
        if name.startswith(key) and (best is None or len(key) > len(best)):
            best = key
    return table[best] if best is not None else None


def cost(input_tokens: int, output_tokens: int, price: Price | None) -> float | None:
    """USD for these tokens (None when the model has no price)."""
    if price is None:
        return None
    return (input_tokens * price[0] + output_tokens * price[1]) / 1_000_000


GROUPS = {"agent": ("agent",), "seat": ("game_id", "seat", "agent"), "game": ("game_id",)}
CLASSES: tuple[str, ...] = (
    *("ok", "repaired", "unparsable", "illegal", "truncated", "refused", "timeout"),
    *("error", "budget", "unrecorded"),
)
"""Decision outcome classes (events.agent.OUTCOMES) and `unrecorded`: decisions of games
stored before outcomes were recorded."""
_SUMS = (
    "calls",
    "decisions",
    "input_tokens",
    "output_tokens",
    "reasoning_tokens",
    "model_seconds",
    "transport_errors",
    "truncated_calls",
    "format_errors",
    "repaired_calls",
    "parsed",
    "rejections",
    "engine_fallbacks",
    "defaults",
    "budget_defaults",
    "decided",
    "fallbacks",
    "estimated_calls",
    *CLASSES,
)


def _fallbacks(r: dict[str, Any]) -> int:
    """A seat's decisions whose model move was not played as given (`llm_outcomes`: every
    class but ok and repaired). A game stored before decisions had outcomes counts its
    defaults and the rules' fallbacks instead, at most one per decision."""
    unrecorded = r["unrecorded"] or 0
    if unrecorded:
        return min((r["defaults"] or 0) + (r["engine_fallbacks"] or 0), unrecorded)
    return (r["decided"] or 0) - (r["ok"] or 0) - (r["repaired"] or 0)


def usage(
    con: Any,
    *,
    by: str = "agent",
    tournament: str | None = None,
    game_id: str | None = None,
    prices: dict[str, Price] | None = None,
    separate: bool = True,
) -> list[dict[str, Any]]:
    """Calls, tokens, cost, format-error, fallback and outcome rates, grouped by agent, seat
    or game; with `separate` (the default) the rows of each kind of game (`game`:
    cattle-trade, pact, openspiel, ...) apart, ordered by it, since calls and tokens per game
    of different games do not compare."""
    prices = prices if prices is not None else load_prices()
    where, params = [], []
    if tournament is not None:
        where.append("o.tournament = ?")
        params.append(tournament)
    if game_id is not None:
        where.append("o.game_id = ?")
        params.append(game_id)
    sql = f"""
        SELECT o.game_id, o.seat, o.agent, o.game, u.provider, u.model,
               coalesce(u.calls, 0) AS calls, o.decisions AS decisions,
               coalesce(u.input_tokens, 0) AS input_tokens,
               coalesce(u.output_tokens, 0) AS output_tokens,
               coalesce(u.reasoning_tokens, 0) AS reasoning_tokens,
               coalesce(u.model_seconds, 0) AS model_seconds,
               u.transport_errors, u.truncated AS truncated_calls, u.format_errors,
               u.repaired AS repaired_calls, u.parsed,
               coalesce(u.estimated_calls, 0) AS estimated_calls,
               f.rejections, f.engine_fallbacks, f.defaults, f.budget_defaults,
               o.decisions AS decided, {", ".join(f"o.{c}" for c in CLASSES)}
        FROM llm_outcomes o
        LEFT JOIN llm_usage u USING (game_id, seat)
        LEFT JOIN llm_fallbacks f USING (game_id, seat)
        {"WHERE " + " AND ".join(where) if where else ""}
        ORDER BY o.game, o.game_id, o.seat
    """
    rows = con.execute(sql, params).fetchall()
    cols = [d[0] for d in con.description]
    keys = (("game",) if separate else ()) + GROUPS[by]
    groups: dict[tuple[Any, ...], dict[str, Any]] = {}
    for raw in rows:
        r = dict(zip(cols, raw, strict=True))
        r["fallbacks"] = _fallbacks(r)
        price = price_for(r["provider"], r["model"], prices) if r["provider"] else (0.0, 0.0)
        c = cost(r["input_tokens"], r["output_tokens"], price)
        g = groups.setdefault(
            tuple(r[k] for k in keys),
            {
                **{k: r[k] for k in keys},
                "kinds": set(),
                "games": set(),
                "cut": set(),
                "seats": 0,
                **dict.fromkeys(_SUMS, 0),
                "model_seconds": 0.0,
                "cost_usd": 0.0,
                "unpriced": 0,
            },
        )
        g["kinds"].add(r["game"])
        g["games"].add(r["game_id"])
        g["seats"] += 1
        for k in _SUMS:
            g[k] += r[k] or 0
        if r["budget_defaults"] or r["budget"]:
            g["cut"].add(r["game_id"])
        if c is None:
            g["unpriced"] += 1
        else:
            g["cost_usd"] += c
    out = []
    for g in groups.values():
        n = len(g.pop("games"))
        g["game"] = ", ".join(sorted(k for k in g.pop("kinds") if k))
        g["games"] = n
        # Games in which a seat's budget was spent (its later decisions were defaults).
        g["budget_cut_games"] = len(g.pop("cut"))
        g["calls_per_game"] = g["calls"] / n if n else 0.0
        g["tokens_per_game"] = (g["input_tokens"] + g["output_tokens"]) / n if n else 0.0
        g["cost_per_game"] = g["cost_usd"] / n if n and not g["unpriced"] else None
        if g["unpriced"]:
            g["cost_usd"] = None
        g["format_error_rate"] = g["format_errors"] / g["parsed"] if g["parsed"] else 0.0
        g["fallback_rate"] = g["fallbacks"] / g["decided"] if g["decided"] else 0.0
        g["outcomes"] = {c: g.pop(c) for c in CLASSES}
        decided = g["decided"]
        g["outcome_rates"] = {
            c: (v / decided if decided else 0.0) for c, v in g["outcomes"].items()
        }
        # The names the per-call counts had before decisions had outcomes.
        g["truncated"] = g.pop("truncated_calls")
        g["repaired"] = g.pop("repaired_calls")
        out.append(g)
    return out
