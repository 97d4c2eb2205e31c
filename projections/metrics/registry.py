"""The metric registry of every game whose metrics are SQL over its staged views.

A metric is a SQL query that returns one row per (game_id, seat, key) with a numerator `num`
and a denominator `den`. The per-game value is num / den (NULL when den is 0). How the
per-game rows combine over a selection of games is the metric's `agg`:

* ``ratio``: pooled, sum(num) / sum(den) (rates such as self-bid %, and means per game);
* ``median``: the median of the per-game values (capital efficiency, tightness).

The definition paragraph is the docstring of the function that returns the SQL (marked with
`metric`). Changing what a metric means requires a new version: derived tables remember the
version they were built with, and are rebuilt when the code's versions differ. A game gathers
its metrics from its definition modules with `collect`, in the order they are defined.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
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


def metric(
    name: str,
    *,
    version: int,
    agg: Agg = "ratio",
    label: str | None = None,
    percent: bool = False,
    keyed: bool = False,
) -> Callable[[Callable[[], str]], Callable[[], str]]:
    """Mark the function as the metric whose SQL it returns (its docstring defines it); a
    game's registry gathers its metrics with `collect`."""

    def wrap(fn: Callable[[], str]) -> Callable[[], str]:
        doc = inspect.cleandoc(fn.__doc__ or "")
        if not doc:
            raise ValueError(f"metric {name} needs a definition in its docstring")
        fn.__metric__ = Metric(  # type: ignore[attr-defined]
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


def collect(*modules: ModuleType) -> dict[str, Metric]:
    """The metrics marked in `modules`, by name, in module order and then definition order."""
    found: dict[str, Metric] = {}
    for module in modules:
        for value in vars(module).values():
            spec = getattr(value, "__metric__", None)
            if isinstance(spec, Metric) and getattr(value, "__module__", None) == module.__name__:
                if spec.name in found:
                    raise ValueError(f"metric {spec.name} is defined twice")
                found[spec.name] = spec
    return found
