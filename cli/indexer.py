"""Writes `cli/index.py`, the list of commands `cattle --help` shows without importing them.

    uv run python -m cli.indexer          # rewrite cli/index.py
    uv run python -m cli.indexer --check  # exit 1 if it is out of date

Run it after adding a command, renaming one or changing a command's docstring; a test fails
until the index matches the commands.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import typer

from cli.app import app

MODULES = (
    "cli.commands",
    "cli.llm",
    "cli.metrics",
    "cli.cattle.paper",
    "cli.textarena.arena",
    "cli.recover",
    "cli.report",
    "cli.serve",
    "cli.tournament",
    "cli.league",
    "cli.verify",
)
"""Every module that registers commands on the app, in the order their commands are listed."""

INDEX = Path(__file__).with_name("index.py")

HEADER = '''"""The commands of `cattle`: name, defining module and help text, in the order `cattle --help`
lists them. Written by `python -m cli.indexer` from the commands themselves; do not edit."""

COMMANDS: tuple[tuple[str, str, str], ...] = (
'''


def commands() -> list[tuple[str, str, str]]:
    """(name, module, help) of every command, read from the command modules themselves."""
    found: list[tuple[str, str, str]] = []
    for module in MODULES:
        importlib.import_module(module)
        for info in app.registered_commands:
            if getattr(info.callback, "__module__", None) != module:
                continue
            command = typer.main.get_command_from_info(
                info,
                pretty_exceptions_short=app.pretty_exceptions_short,
                rich_markup_mode=app.rich_markup_mode,
            )
            extras = (command.short_help, command.epilog, getattr(command, "rich_help_panel", None))
            if any(extras) or command.hidden or command.deprecated:
                raise SystemExit(
                    f"{command.name}: the index holds only a name and a help text; short help,"
                    " epilog, panels, hidden and deprecated commands need it extended"
                )
            assert command.name is not None
            found.append((command.name, module, command.help or ""))
    return found


def render(entries: list[tuple[str, str, str]]) -> str:
    """The text of cli/index.py for these commands, as `ruff format` lays it out."""
    lines = [HEADER]
    for entry in entries:
        lines.append(f"    {entry!r},\n")
    lines.append(")\n")
    formatted = subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--stdin-filename", str(INDEX), "-"],
        input="".join(lines),
        capture_output=True,
        text=True,
        check=True,
    )
    return formatted.stdout


def main(argv: list[str]) -> int:
    """Write the index, or with --check say whether it is up to date."""
    entries = commands()
    text = render(entries)
    if "--check" in argv:
        if INDEX.read_text(encoding="utf-8") != text:
            print(f"{INDEX} is out of date: run `python -m cli.indexer`", file=sys.stderr)
            return 1
        return 0
    INDEX.write_text(text, encoding="utf-8")
    print(f"wrote {INDEX} ({len(entries)} commands)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
