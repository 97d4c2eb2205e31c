"""What every game's report figures share: the palette, matplotlib's settings, labels, and the
annotated heat map."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    import matplotlib.pyplot as plt
    from matplotlib.figure import Figure

INK = "#1f2430"
MUTED = "#6b7280"
GRID = "#e5e7eb"
PALETTE = (
    "#2563eb",
    "#dc2626",
    "#059669",
    "#d97706",
    "#7c3aed",
    "#0891b2",
    "#db2777",
    "#65a30d",
    "#9333ea",
    "#475569",
)


@functools.cache
def pyplot() -> ModuleType:
    """matplotlib's pyplot on the file-only backend, with the shared settings: imported on a
    figure's first use, so that a command printing only tables never loads matplotlib."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot

    matplotlib.pyplot.rcParams.update(
        {
            "font.size": 9.5,
            "axes.titlesize": 11,
            "axes.titleweight": "bold",
            "axes.titlelocation": "left",
            "axes.edgecolor": "#9ca3af",
            "axes.labelcolor": INK,
            "axes.spines.top": False,
            "axes.spines.right": False,
            "axes.grid": True,
            "grid.color": GRID,
            "grid.linewidth": 0.8,
            "xtick.color": MUTED,
            "ytick.color": MUTED,
            "legend.frameon": False,
            "legend.fontsize": 8.5,
            "figure.dpi": 100,
            "savefig.dpi": 110,
            # Labels are agent names: "$...$" in one must print as written, not as math (an
            # unbalanced formula would stop the whole report).
            "text.parse_math": False,
        }
    )
    return matplotlib.pyplot


class _Pyplot:
    """Stands for `matplotlib.pyplot` until an attribute is first read."""

    def __getattr__(self, name: str) -> Any:
        return getattr(pyplot(), name)


if not TYPE_CHECKING:
    plt = _Pyplot()


def colours(agents: Sequence[str]) -> dict[str, str]:
    """A stable colour per agent, in display order."""
    return {a: PALETTE[i % len(PALETTE)] for i, a in enumerate(agents)}


def short(agent: str, width: int = 22) -> str:
    """An agent label short enough for an axis."""
    return agent if len(agent) <= width else agent[: width - 1] + "…"


def new_figure(w: float = 5.6, h: float = 3.6) -> tuple[Figure, plt.Axes]:
    """A figure with one set of axes, in the reports' size and layout."""
    fig, ax = plt.subplots(figsize=(w, h), layout="constrained")
    return fig, ax


def empty(fig: Figure, ax: plt.Axes, text: str) -> Figure:
    """The figure turned into a notice that it has no data."""
    # The label tells the report (and its tests) that this figure shows no data.
    fig.set_label("empty")
    ax.axis("off")
    ax.text(0.5, 0.5, text, ha="center", va="center", color=MUTED, transform=ax.transAxes)
    return fig


def fig_heatmap(
    rows: Sequence[str],
    cols: Sequence[str],
    values: np.ndarray,
    counts: np.ndarray | None,
    title: str,
    fmt: str,
    cmap: str,
    xlabel: str = "",
    vmin: float | None = None,
    vmax: float | None = None,
    height: float | None = None,
    width: float | None = None,
    robust: bool = False,
) -> Figure:
    """An annotated heat map; NaN cells are left blank.

    With `robust`, the colour scale ends at the largest value inside the upper Tukey fence
    (see `robust_limits`), so one extreme cell cannot wash out the others; cells beyond it
    take the top colour and still print their value.
    """
    w = width or max(5.6, 1.6 + 0.62 * len(cols))
    h = height or max(2.4, 1.3 + 0.5 * len(rows))
    fig, ax = plt.subplots(figsize=(w, h), layout="constrained")
    if not len(rows) or not len(cols):
        return empty(fig, ax, "no data")
    masked = np.ma.masked_invalid(values)
    extend = "neither"
    if robust:
        vmin, vmax = robust_limits(values)
        finite = values[np.isfinite(values)]
        if len(finite) and vmax is not None and finite.max() > vmax:
            extend = "max"
    im = ax.imshow(masked, cmap=cmap, aspect="auto", vmin=vmin, vmax=vmax)
    ax.set_xticks(range(len(cols)), cols, rotation=35, ha="right")
    ax.set_yticks(range(len(rows)), [short(r) for r in rows])
    ax.grid(False)
    for s in ax.spines.values():
        s.set_visible(False)
    for i in range(len(rows)):
        for j in range(len(cols)):
            v = values[i, j]
            if not np.isfinite(v):
                continue
            text = format(v, fmt)
            if counts is not None:
                text += f"\nn={int(counts[i, j])}"
            r, g, b, _ = im.cmap(im.norm(v))
            dark = 0.299 * r + 0.587 * g + 0.114 * b < 0.55
            ax.text(
                j,
                i,
                text,
                ha="center",
                va="center",
                fontsize=8.5,
                color="white" if dark else INK,
            )
    ax.set_title(title)
    if xlabel:
        ax.set_xlabel(xlabel)
    fig.colorbar(im, ax=ax, shrink=0.8, pad=0.01, extend=extend)
    return fig


def robust_limits(values: np.ndarray) -> tuple[float | None, float | None]:
    """Colour limits that outliers cannot flatten: from the smallest value to the largest one
    not above Q3 + 1.5 IQR of the finite cells (all of them when there are fewer than four)."""
    finite = np.sort(values[np.isfinite(values)])
    if not len(finite):
        return None, None
    lo, top = float(finite[0]), float(finite[-1])
    if len(finite) >= 4:
        q1, q3 = np.percentile(finite, [25, 75])
        inside = finite[finite <= q3 + 1.5 * (q3 - q1)]
        top = float(inside[-1])
    if top <= lo:
        top = lo + 1.0
    return lo, top
