"""`cattle --help` and every command's `--help`, exactly as a user sees them, in snapshots.

Each help text comes from a real `cattle` process at a fixed width: plain text for every
command, and the coloured output (every style typer and rich give it) for a few.
"""

from __future__ import annotations

from clikit import cattle_many
from syrupy.assertion import SnapshotAssertion

PLAIN = {"COLUMNS": "80"}
COLOURED = {"COLUMNS": "100", "FORCE_COLOR": "1", "NO_COLOR": "", "TERM": "xterm-256color"}

COMMANDS = (
    "demo",
    "play",
    "games",
    "show",
    "replay",
    "sql",
    "agents",
    "costs",
    "reparse",
    "rerun",
    "loopback",
    "metrics",
    "export",
    "paper",
    "arena",
    "recover",
    "resume",
    "report",
    "serve",
    "publish",
    "tournament",
    "ratings",
    "verify",
)


def helps(env: dict[str, str], commands: tuple[str, ...]) -> dict[str, str]:
    """The standard output of `cattle --help` and of `cattle C --help` for each command C."""
    runs = [("--help",), *((c, "--help") for c in commands)]
    results = cattle_many(runs, env=env)
    texts = {}
    for args, result in zip(runs, results, strict=True):
        assert result.returncode == 0, (args, result.stderr)
        assert result.stderr == "", (args, result.stderr)
        texts[" ".join(args)] = result.stdout
    return texts


def test_the_command_list_is_the_one_the_snapshots_cover() -> None:
    from cli.main import command_names

    assert tuple(command_names()) == COMMANDS


def test_every_help_text_reads_as_before(snapshot: SnapshotAssertion) -> None:
    assert helps(PLAIN, COMMANDS) == snapshot


def test_help_keeps_its_colours(snapshot: SnapshotAssertion) -> None:
    assert helps(COLOURED, ("play", "tournament", "metrics")) == snapshot


def test_the_command_index_matches_the_commands() -> None:
    from cli import indexer

    assert indexer.main(["--check"]) == 0, "run `uv run python -m cli.indexer`"
