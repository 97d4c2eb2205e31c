"""Write docs/terminal.md: what `show`, `games`, `ratings` and the end of a GameBench game
print on an 80-column terminal, captured from real `cattle` processes in a fresh store.

    uv run python bench/docs_capture.py [--out docs/terminal.md]
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENV = {
    **os.environ,
    "COLUMNS": "80",
    "NO_COLOR": "1",
    "TERM": "dumb",
    "UV_RUN_RECURSION_DEPTH": "1",
}


def run(db: Path, *args: str) -> str:
    """The output of `cattle ARGS` against `db`, as an 80-column terminal shows it."""
    env = {**ENV, "CATTLE_DB": str(db)}
    done = subprocess.run(
        [sys.executable, "-m", "cli.main", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.rstrip("\n")


def block(title: str, command: str, text: str) -> str:
    """One captured command as a markdown section."""
    return f"## {title}\n\n```text\n$ {command}\n{text}\n```\n"


def cut(text: str, head: int, tail: int) -> str:
    """The first `head` and last `tail` lines, with a marker for what was left out."""
    lines = text.splitlines()
    if len(lines) <= head + tail:
        return text
    left = len(lines) - head - tail
    return "\n".join([*lines[:head], f"... ({left} lines left out)", *lines[-tail:]])


def main() -> None:
    """Play a few games in a temporary store and write the captured output."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "terminal.md")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "capture.duckdb"
        sections = []
        play = "play --preset micro-duel --agents tracker,setrace --seed 3"
        text = run(db, *play.split())
        game_id = re.findall(r"Game id: ([0-9a-f]{16})", text)[-1]
        sections.append(block("A game's end (Cattle Trade)", f"uv run cattle {play}", text))
        shown = run(db, "show", game_id)
        sections.append(block("Its timeline", "uv run cattle show GAME_ID", cut(shown, 20, 8)))
        gb = "play --game gamebench:santorini --agents climber,random --seed 1"
        sections.append(
            block("A GameBench game's end", f"uv run cattle {gb}", run(db, *gb.split()))
        )
        tour = (
            "tournament --game gamebench:pit --agents cornerer,random --games 4 --name pit --quiet"
        )
        sections.append(block("A tournament", f"uv run cattle {tour}", run(db, *tour.split())))
        sections.append(
            block(
                "Its ratings",
                "uv run cattle ratings --tournament pit --method bt",
                run(db, "ratings", "--tournament", "pit", "--method", "bt"),
            )
        )
        metrics = "metrics --game gamebench:pit --tournament pit --resamples 200"
        sections.append(
            block("Its metric tables", f"uv run cattle {metrics}", run(db, *metrics.split()))
        )
        ttt = (
            "tournament --game gtbench:tic_tac_toe --agents mcts,random --games 4 --name ttt"
            " --quiet"
        )
        run(db, *ttt.split())
        nra = "metrics --game openspiel --tournament ttt --resamples 200"
        sections.append(
            block(
                "An OpenSpiel tournament's metric tables (after `cattle " + ttt + "`)",
                f"uv run cattle {nra}",
                run(db, *nra.split()),
            )
        )
        sections.append(block("The stored games", "uv run cattle games", run(db, "games")))
    head = (
        "# What the terminal shows\n\n"
        "Output of a few commands on an 80-column terminal, captured from real runs in a fresh\n"
        "store by `uv run python bench/docs_capture.py` (which rewrites this page). Game ids,\n"
        "tournament seeds and rates differ from run to run.\n\n"
    )
    safe = re.sub(r"/tmp/[^\s]+?capture\.duckdb", "data/cattle.duckdb", "\n".join(sections))
    args.out.write_text(head + safe, encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
