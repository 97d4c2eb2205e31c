"""The metric registry: every behaviour metric is defined once, with a name and a version.

A metric is a SQL query over the staged analysis views (schema `stage`, one table per view of
events/views_analysis.sql) that returns one row per (game_id, seat, key) with a numerator
`num` and a denominator `den`. The per-game value is num / den (NULL when den is 0). How the
per-game rows combine over a selection of games is the metric's `agg`:

* ``ratio``: pooled, sum(num) / sum(den) (rates such as self-bid %, and means per game);
* ``median``: the median of the per-game values (capital efficiency, tightness).

The definition paragraph is the docstring of the function that returns the SQL. Changing what
a metric means requires a new version: derived tables remember the version they were built
with, and `cattle metrics` rebuilds them when the code's versions differ.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

Agg = Literal["ratio", "median"]


@dataclass(frozen=True)
class Metric:
    """One metric: name, version, SQL, how it aggregates, and its definition."""

    name: str
    version: int
    sql: str
    agg: Agg
    label: str
    definition: str
    percent: bool = False
    """Shown as a percentage (the value is a fraction)."""
    keyed: bool = False
    """The rows carry a key (animal, phase, offer size, opponent, ...)."""


REGISTRY: dict[str, Metric] = {}


def metric(
    name: str,
    *,
    version: int,
    agg: Agg = "ratio",
    label: str | None = None,
    percent: bool = False,
    keyed: bool = False,
) -> Callable[[Callable[[], str]], Callable[[], str]]:
    """Register the metric whose SQL the decorated function returns; its docstring defines it."""

    def wrap(fn: Callable[[], str]) -> Callable[[], str]:
        doc = inspect.cleandoc(fn.__doc__ or "")
        if not doc:
            raise ValueError(f"metric {name} needs a definition in its docstring")
        REGISTRY[name] = Metric(
            name=name,
            version=version,
            sql=fn(),
            agg=agg,
            label=label or name,
            definition=" ".join(doc.split()),
            percent=percent,
            keyed=keyed,
        )
        return fn

    return wrap


def metrics() -> list[Metric]:
    """Every registered metric, in registration order."""
    from projections.metrics import definitions, figure_metrics  # noqa: F401  (they register)

    return list(REGISTRY.values())


def get(name: str) -> Metric:
    """One registered metric by name."""
    metrics()
    return REGISTRY[name]


PAPER_METRICS: tuple[str, ...] = (
    "bid_aggressiveness",
    "buy_right_rate",
    "tc_accept_rate",
    "bluff_rate",
    "self_bid_rate",
    "eta",
    "overbid_rate",
)
"""The paper's Table 3 columns, in its order."""
