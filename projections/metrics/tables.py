"""Metric tables for the terminal, shared by every family's `cattle metrics`: rich tables in
one style that fit a given width; a table too wide is split by columns into parts that each
repeat the columns naming the row.

Every cell is rich `Text`, so a stored name is never read as markup; the caller's `label`
turns names into display text (the command line writes control characters as escapes).
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rich import box
from rich.cells import cell_len
from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

Cell = str | tuple[str, str]
"""A cell's text, or (value, interval): the interval goes on a dimmed second line."""

NAME_SHARE = 3
"""A name column takes at most a third of the width; a longer name folds onto more lines."""


@dataclass(frozen=True)
class Grid:
    """One metric table before it is fitted to a width."""

    title: str
    head: Sequence[str]
    rows: Sequence[Sequence[Cell]]
    keys: int = 1
    """The first `keys` columns name the row (data, left-aligned, repeated in every part of a
    split table); the others hold figures (right-aligned, never wrapped)."""


def _text(cell: Cell) -> Text:
    if isinstance(cell, tuple):
        value, interval = cell
        return Text.assemble(value, ("\n" + interval, "dim")) if interval else Text(value)
    return Text(cell)


STYLE: dict[str, Any] = {
    "box": box.SIMPLE_HEAD,
    "show_edge": False,
    "pad_edge": False,
    "collapse_padding": True,
}
"""The one table style of the command line: a rule under the header, no frame."""


def table(head: Sequence[str], rows: Sequence[Sequence[Text]], keys: int) -> Table:
    """A table in the style every metric table shares (its title goes above it, see
    `titled`, so that a long title wraps at the width, not at the table's)."""
    t = Table(**STYLE)
    for j, h in enumerate(head):
        if j < keys:
            t.add_column(Text(h), overflow="fold")
        else:
            t.add_column(Text(h), justify="right", no_wrap=True)
    for r in rows:
        t.add_row(*r)
    return t


def fitted(grid: Grid, width: int, label: Callable[[str], str] = str) -> list[Group]:
    """The grid as one table no wider than `width`, or as several (each with the name columns
    and as many figure columns as fit; a title carries "(1/2)" and so on)."""
    keys = grid.keys
    cap = max(8, width // NAME_SHARE)
    names = [[Text(label(str(c))) for c in r[:keys]] for r in grid.rows]
    figures = [[_text(c) for c in r[keys:]] for r in grid.rows]
    name_width = [
        min(cap, max([cell_len(grid.head[j]), *(n[j].cell_len for n in names)]))
        for j in range(keys)
    ]
    # Measured on an unbounded console: one of `width` would report any table as fitting.
    console = Console(file=io.StringIO(), width=10_000, color_system=None, emoji=False)

    def build(group: Sequence[int]) -> Table:
        head = [*grid.head[:keys], *(grid.head[keys + j] for j in group)]
        rows = [[*n, *(f[j] for j in group)] for n, f in zip(names, figures, strict=True)]
        t = table(head, rows, keys)
        for j in range(keys):
            t.columns[j].min_width = t.columns[j].max_width = name_width[j]
        return t

    def fits(group: Sequence[int]) -> bool:
        return console.measure(build(group)).maximum <= width

    groups: list[list[int]] = [[]]
    for j in range(len(grid.head) - keys):
        if groups[-1] and not fits([*groups[-1], j]):
            groups.append([])
        groups[-1].append(j)
    if len(groups) == 1:
        return [titled(grid.title, build(groups[0]))]
    return [
        titled(f"{grid.title} ({k + 1}/{len(groups)})", build(group))
        for k, group in enumerate(groups)
    ]


def titled(title: str, t: Table) -> Group:
    """A table with its title on the line above."""
    return Group(Text(title, style="bold"), t)


def as_lines(parts: Sequence[RenderableType], width: int) -> list[str]:
    """What printing `parts` (a blank line between each) on a plain console of `width`
    shows, line by line, trailing spaces dropped."""
    buf = io.StringIO()
    console = Console(
        file=buf, width=width, color_system=None, emoji=False, highlight=False, markup=False
    )
    for k, part in enumerate(parts):
        if k:
            console.print()
        console.print(part)
    return [ln.rstrip() for ln in buf.getvalue().splitlines()]


class TableHooks:
    """The part every family's analysis hooks share: `metrics_lines`, the text of the
    family's `metrics_tables` as `as_lines` prints it, so that a family writes its tables
    once (`cattle metrics` calls `metrics_lines` only on hooks without `metrics_tables`)."""

    def metrics_tables(
        self, con: Any, sel: Any, resamples: int, width: int, label: Callable[[str], str]
    ) -> list[Any]:
        """Every table as rich renderables that fit `width` ([] when there is nothing)."""
        raise NotImplementedError

    def metrics_lines(
        self, con: Any, sel: Any, resamples: int, width: int, label: Callable[[str], str]
    ) -> list[str]:
        """Every table as plain text lines at most `width` wide ([] when there is nothing)."""
        return as_lines(self.metrics_tables(con, sel, resamples, width, label), width)


def prose(text: str) -> Text:
    """A sentence printed beside the tables (wrapped to the width when printed)."""
    return Text(text)


def plural(n: int, noun: str, many: str | None = None) -> str:
    """`1 game`, `2 games` (`many` for a plural other than noun + s)."""
    return f"{n:,} {noun if n == 1 else many or noun + 's'}"
