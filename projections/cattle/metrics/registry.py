"""Cattle Trade's metrics, each defined once with a name and a version (definitions.py for the
behaviour table, figure_metrics.py for the report's panels).

Every metric is a SQL query over the staged analysis views (schema `stage`, one table per view
of events/cattle/views.sql); projections.metrics.registry says how metrics are defined and
aggregated.
"""

from __future__ import annotations

from projections.cattle.metrics import definitions, figure_metrics
from projections.metrics.registry import Metric, collect

REGISTRY: dict[str, Metric] = collect(definitions, figure_metrics)
"""Every metric by name: the behaviour table's, then the report panels'."""


def metrics() -> list[Metric]:
    """Every Cattle Trade metric, in definition order."""
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
