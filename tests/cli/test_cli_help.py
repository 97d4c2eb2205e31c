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
    "league",
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


def test_help_prose_flows_to_the_terminal_width_and_flags_show_no_type() -> None:
    import click
    import typer

    from cli.app import app
    from cli.main import command_names

    assert tuple(command_names()) == COMMANDS
    group = typer.main.get_command(app)
    ctx = click.Context(group)
    wide = helps({"COLUMNS": "2000"}, COMMANDS)
    for name in COMMANDS:
        command = group.get_command(ctx, name)
        assert command is not None
        text = wide[f"{name} --help"]
        # At this width every paragraph after the first line fits on one line of the help.
        for paragraph in (command.help or "").split("\n\n")[1:]:
            line = " ".join(paragraph.split())
            assert any(line in " ".join(row.split()) for row in text.splitlines()), (name, line)
        for param in command.params:
            if isinstance(param, click.Option) and param.is_flag and not param.count:
                row = next(r for r in text.splitlines() if param.opts[0] + " " in r)
                assert "<" not in row, (name, row)


def test_usage_lines_name_arguments_in_capitals() -> None:
    """A usage line writes an argument as click does (GAME_ID, [GAME_IDS]...), never as a
    `{game_id}` that reads like a placeholder left unfilled; a choice keeps its braces."""
    from typer.testing import CliRunner

    import cli.main  # noqa: F401  (the app's callback and options)
    from cli.app import app

    def usage(*args: str) -> str:
        done = CliRunner().invoke(app, [*args, "--help"], env={"COLUMNS": "200"})
        assert done.exit_code == 0, done.output
        return next(ln for ln in done.stdout.splitlines() if "Usage:" in ln).strip()

    assert usage("replay").endswith("replay [OPTIONS] GAME_ID")
    assert usage("resume").endswith("resume [OPTIONS] GAME_ID")
    assert usage("verify").endswith("verify [OPTIONS] [GAME_IDS]...")
    assert usage("league").endswith("league [OPTIONS] {FILE|table|status|replay}")
