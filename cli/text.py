"""Printing text that came from a user, a model or the store, exactly as it is.

Rich reads `[...]` in a string as markup and `:name:` as an emoji code, and a terminal acts on
control characters (an escape sequence can recolour or retitle it, a newline breaks a table
row). Stored strings such as agent specs, model names and answers are shown through these
helpers: as rich `Text` (never parsed) with control characters written out as escapes.
"""

from __future__ import annotations

import re
from typing import Any

from rich import box
from rich.console import Console, ConsoleOptions, RenderResult
from rich.table import Table
from rich.text import Text

# C0 and C1 control characters, DEL, the line and paragraph separators, and the
# bidirectional overrides that reorder what a terminal displays.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u200e\u200f\u2028-\u202e\u2066-\u2069]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _visible(match: re.Match[str]) -> str:
    ch = match.group()
    if ch in _NAMED:
        return _NAMED[ch]
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def shown(value: object) -> str:
    """The text of `value` with every control character written as an escape (\\n, \\x1b)."""
    return _CONTROL.sub(_visible, str(value))


_CELL_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u2028-\u202e\u2066-\u2069]")


def csv_text(value: object) -> object:
    """A CSV cell: text with every control character but tab and newline written as an
    escape (\\x1b, \\r), anything else as it is (the CSV writer quotes what needs it)."""
    return _CELL_CONTROL.sub(_visible, value) if isinstance(value, str) else value


def plain(value: object, style: str = "") -> Text:
    """`value` as rich Text: printed exactly, never read as markup or emoji codes."""
    return Text(shown(value), style=style)


def line(markup: str, *values: object) -> Text:
    """A line from a markup template whose `{}` fields are filled with `values` as plain text.

    The template's own markup styles the line (a field takes the style around it); the values
    are never parsed. (rich's `escape` is not enough: it leaves a backslash before a bracket
    that is not a tag, and rich then drops that backslash.)
    """
    parts = markup.split("{}")
    if len(parts) != len(values) + 1:
        raise ValueError(f"{len(parts) - 1} fields in {markup!r} for {len(values)} values")
    texts = [shown(v) for v in values]
    # Render the template with a run of one private-use character per field, as long as the
    # value, then put the values in place: the styles' offsets stay right.
    filled = parts[0]
    for i, text in enumerate(texts):
        filled += chr(0xE000 + i) * len(text) + parts[i + 1]
    out = Text.from_markup(filled, emoji=False)
    result = out.plain
    for i, text in enumerate(texts):
        if text:
            at = result.index(chr(0xE000 + i) * len(text))
            result = result[:at] + text + result[at + len(text) :]
    out.plain = result
    return out


def command_prefix() -> str:
    """How the person started this process: `uv run cattle` under `uv run`, else `cattle`.

    `uv run` marks the processes it starts (UV_RUN_RECURSION_DEPTH, and UV with its own path);
    a `cattle` installed with `uv tool install` or pip runs without them.
    """
    import os

    return "uv run cattle" if os.environ.get("UV_RUN_RECURSION_DEPTH") else "cattle"


def hint(*words: object, db: object = None) -> str:
    """A command to print as a next step, written so that it runs as printed: the prefix this
    process was started with, each word quoted for a POSIX shell where it needs it, and `--db`
    when `db` is not the store the command would open anyway."""
    import os
    import shlex
    from pathlib import Path

    parts = [shlex.quote(shown(w)) for w in words]
    if db is not None:
        from events.store import DEFAULT_DB

        default = Path(os.environ.get("CATTLE_DB") or DEFAULT_DB)
        if Path(str(db)).resolve() != default.resolve():
            parts += ["--db", shlex.quote(str(db))]
    return " ".join([command_prefix(), *parts])


TABLE_STYLE: dict[str, Any] = {
    "box": box.SIMPLE_HEAD,
    "show_edge": False,
    "pad_edge": False,
    "collapse_padding": True,
}
"""The style of every table the command line prints, the metric tables' one
(`projections.metrics.tables.STYLE`, which a test holds equal): a rule under the header, no
frame. Kept here too so that a command such as `games` loads no projection."""


class StyledTable(Table):
    """A table in the shared style whose title (above) and caption (a note below, after a
    blank line, so that it never reads as one more row) wrap at the console's width rather
    than at the table's: a long title or note over a narrow table stays readable."""

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        title, note = self.title, self.caption
        self.title = self.caption = None
        try:
            rows = list(super().__rich_console__(console, options))
        finally:
            self.title, self.caption = title, note
        if title:
            yield Text(style=self.title_style or "").append_text(_text(console, title))
        yield from rows
        if note:
            yield Text()
            yield _text(console, note)


def _text(console: Console, value: str | Text) -> Text:
    """A title or caption as Text (a string one is markup, as rich reads a table's)."""
    return value if isinstance(value, Text) else console.render_str(value, highlight=False)


def styled(title: str | Text | None = None, caption: str | Text | None = None) -> Table:
    """An empty table in the shared style, its title (if any) bold and left-aligned above it,
    its caption (if any) below it after a blank line, each wrapped at the console's width."""
    return StyledTable(
        title=title,
        caption=caption,
        title_justify="left",
        title_style="bold",
        caption_justify="left",
        **TABLE_STYLE,
    )
