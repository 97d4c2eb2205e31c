"""Every next step a command prints is a command that runs as printed.

Each test runs real `cattle` processes, collects the commands their output suggests (`Next:`,
`Ratings:`, `Report:`, `Try:`, a table's caption) and runs those too, from another folder,
expecting exit code 0. Under `uv run` the hints start with `uv run cattle`, otherwise with
`cattle`, and name the store when it is not the one the command would open anyway.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.cli.clikit import ENV, ROOT, hints, run_hint

UV = {"UV_RUN_RECURSION_DEPTH": "1"}
NO_UV = {"UV_RUN_RECURSION_DEPTH": ""}


def cattle_in(cwd: Path, env: dict[str, str], *args: str | Path) -> str:
    """Run `cattle ARGS` in `cwd`; its output, after checking it succeeded."""
    got = subprocess.run(
        [sys.executable, "-m", "cli.main", *map(str, args)],
        cwd=cwd,
        env={**ENV, **env},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert got.returncode == 0, got.stderr
    return got.stdout + got.stderr


def check_hints(text: str, cwd: Path, env: dict[str, str], prefix: str) -> list[str]:
    """Run every hint in `text`; the hints, after checking each one ran and starts `prefix`."""
    found = hints(text)
    for hint in found:
        assert hint.startswith(prefix + " "), hint
        got = run_hint(hint, cwd, env)
        assert got.returncode == 0, (hint, got.stderr)
    return found


def test_demo_hints_name_the_store_and_the_way_it_was_run(tmp_path: Path) -> None:
    db = tmp_path / "own place.duckdb"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    for env, prefix in ((UV, "uv run cattle"), (NO_UV, "cattle")):
        text = cattle_in(ROOT, env, "demo", "--seed", "3", "--db", db)
        found = check_hints(text, elsewhere, env, prefix)
        assert [h.split()[len(prefix.split())] for h in found] == ["show", "replay"]
        assert all(h.endswith(f"--db '{db}'") for h in found), found


def test_tournament_hints_run_for_one_game_and_for_gamebench_protocol(tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    one = cattle_in(
        tmp_path, UV, "tournament", "--game", "gamebench:pit", "--agents", "cornerer,random",
        "--games", "2", "--name", "one", "--quiet", "--db", db,
    )  # fmt: skip
    many = cattle_in(
        tmp_path, UV, "tournament", "--game", "gamebench", "--agents", "random,heuristic",
        "--games", "1", "--only", "pit,santorini", "--name", "many", "--quiet", "--db", db,
    )  # fmt: skip
    found = check_hints(one + many, tmp_path, UV, "uv run cattle")
    assert sum(" ratings " in h for h in found) == 2, found
    assert any(" report " in h for h in found), found


def test_the_metrics_caption_and_the_loopback_suggestion_run(tmp_path: Path) -> None:
    db = tmp_path / "m.duckdb"
    cattle_in(tmp_path, UV, "play", "--preset", "micro-duel", "--seed", "2", "--db", db)
    text = cattle_in(tmp_path, UV, "metrics", "--db", db)
    assert check_hints(text, tmp_path, UV, "uv run cattle")

    server = subprocess.Popen(
        [sys.executable, "-m", "cli.main", "loopback", "--port", "0"],
        cwd=ROOT,
        env={**ENV, **NO_UV, "COLUMNS": "60"},  # a narrow terminal must not break the line
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        said = server.stdout.readline() + server.stdout.readline()
        (hint,) = hints(said)
        assert hint.startswith("cattle play ")
        got = run_hint(hint, tmp_path, NO_UV)  # the store: data/cattle.duckdb in tmp_path
        assert got.returncode == 0, got.stderr
        assert (tmp_path / "data" / "cattle.duckdb").is_file()
    finally:
        server.terminate()
        server.wait(timeout=30)
