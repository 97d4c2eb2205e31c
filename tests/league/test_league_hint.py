"""What an interrupted league says to run next is a command that works as printed: the prefix
the league was started with, and a store path with a space quoted."""

from __future__ import annotations

import shlex
from pathlib import Path

from typer.testing import CliRunner

LEAGUE = """
[league]
name = "hinted"
seed = 3
round_games = 1
reference = ["rnd"]

[[games]]
game = "cattle-trade"
preset = "micro-duel"

[[agents]]
name = "rnd"
spec = "random"

[[agents]]
name = "bot"
spec = "tracker"
"""


def test_the_note_for_an_interrupt_is_a_command_as_the_league_was_started(
    tmp_path: Path,
) -> None:
    import cli.main  # noqa: F401  (the app's callback and options)
    from cli.app import app, interrupt_note, out

    folder = tmp_path / "a folder"
    folder.mkdir()
    (folder / "league.toml").write_text(LEAGUE)
    db = folder / "l.duckdb"
    args = ["league", str(folder / "league.toml"), "--games", "1", "--db", str(db), "--quiet"]
    done = CliRunner().invoke(app, args, env={"UV_RUN_RECURSION_DEPTH": "1"})
    assert done.exit_code == 0, (done.output, done.exception)
    note = interrupt_note()
    assert note is not None
    with out.capture() as seen:
        out.print(note, soft_wrap=True)
    said = seen.get().split("Go on with: ", 1)[1].strip()
    assert shlex.split(said) == ["uv", "run", "cattle", *args[:2], "--db", str(db)]
