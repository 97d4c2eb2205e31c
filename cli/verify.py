"""`cattle verify`: prove that stored games are exactly what was played.

Each game gets the full check of `runner.verify` (every column against its payload,
the games row and the tournament schedule against the log, completeness, then an exact
re-simulation). With `--workers N` a pool of processes reads and checks the games, each
through its own read-only connection; results are taken in the order the games were
listed, so "the first bad game" means the same with any number of workers.
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import msgspec
import typer
from rich.table import Table
from rich.text import Text

from cli.common import DEFAULT_DB, DbOption, UsageError, _open, app, err, out
from cli.text import styled
from projections.metrics.tables import plural

# The checker (and the engines it replays with) loads when games are verified, not when
# `cattle verify --help` is read.
if TYPE_CHECKING:
    from runner.verify import GameCheck, Problem

MAX_WORKERS_PER_CPU = 4


def describe(problem: Problem) -> str:
    """The problem as one line: check, seq and detail."""
    at = f" at seq {problem.seq}" if problem.seq is not None else ""
    return f"{problem.check}{at}: {problem.detail}"


def _as_json(check: GameCheck) -> dict[str, Any]:
    data: dict[str, Any] = msgspec.to_builtins(check)
    data["ok"] = check.ok
    return data


# ---------------------------------------------------------------------------- commands


@app.command("verify")
def verify_command(
    game_ids: Annotated[
        list[str] | None, typer.Argument(help="Games to check (ids or unique prefixes).")
    ] = None,
    tournament: Annotated[
        str | None, typer.Option("--tournament", "-t", help="Every game of this tournament.")
    ] = None,
    every: Annotated[bool, typer.Option("--all", help="Every stored game.")] = False,
    keep_going: Annotated[
        bool,
        typer.Option("--keep-going", help="Check every game and list each bad one, not stop."),
    ] = False,
    allow_unfinished: Annotated[
        bool,
        typer.Option(
            "--allow-unfinished",
            help="Accept running or abandoned games whose events are a consistent prefix.",
        ),
    ] = False,
    workers: Annotated[int, typer.Option(help="Processes that read and check games.")] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    db: DbOption = DEFAULT_DB,
) -> None:
    """Check stored games column by column and re-simulate them byte for byte.

    Exit code 0 when every game is verified, 1 when one fails a check, 3 when one is
    unfinished (running or abandoned; accepted with --allow-unfinished). Stops at the first
    such game unless --keep-going.
    """
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        Task,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from runner.verify import checks_of, exit_code, is_bad, jobs, select

    class RateColumn(ProgressColumn):
        """Games checked per second."""

        def render(self, task: Task) -> Text:
            if not task.elapsed or not task.completed:
                return Text("- games/s")
            return Text(f"{task.completed / task.elapsed:.1f} games/s")

    chosen = sum((bool(game_ids), tournament is not None, every))
    if chosen != 1:
        raise UsageError("name the games to verify: GAME_ID ..., --tournament NAME or --all")
    cpus = os.cpu_count() or 1
    if not 1 <= workers <= MAX_WORKERS_PER_CPU * cpus:
        raise UsageError(
            f"--workers must be between 1 and {MAX_WORKERS_PER_CPU * cpus}"
            f" ({plural(cpus, 'CPU')} here), got {workers}"
        )
    checks: list[GameCheck] = []
    stopped = False
    with _open(db) as store:
        ids, missing = select(store, game_ids or [], tournament, every)
        total = len(ids) + len(missing)
        columns = (
            TextColumn("[bold]verify"),
            BarColumn(),
            MofNCompleteColumn(),
            RateColumn(),
            TextColumn("elapsed"),
            TimeElapsedColumn(),
            TextColumn("eta"),
            TimeRemainingColumn(),
        )
        start = time.perf_counter()
        with Progress(*columns, console=err) as progress:
            bar = progress.add_task("verify", total=total)
            results = checks_of(store, jobs(store, ids), workers)
            try:
                for check in results:
                    checks.append(check)
                    progress.advance(bar)
                    if is_bad(check, allow_unfinished) and not keep_going:
                        stopped = True
                        break
            finally:
                results.close()
        seconds = time.perf_counter() - start
    if not stopped:
        for check in missing:
            checks.append(check)
            if is_bad(check, allow_unfinished) and not keep_going:
                stopped = True
                break
    code = exit_code(checks, allow_unfinished)
    _report(db, checks, total, seconds, stopped, allow_unfinished, as_json)
    raise typer.Exit(code)


def _report(
    db: Path,
    checks: Sequence[GameCheck],
    total: int,
    seconds: float,
    stopped: bool,
    allow_unfinished: bool,
    as_json: bool,
) -> None:
    counts = {k: sum(c.outcome == k for c in checks) for k in ("verified", "failed", "unfinished")}
    simulated = [c for c in checks if c.status != "not stored"]
    rate = len(simulated) / seconds if seconds > 0 else 0.0
    if as_json:
        summary = {
            "checked": len(checks),
            "selected": total,
            **counts,
            "events": sum(c.events for c in checks),
            "seconds": round(seconds, 3),
            "games_per_second": round(rate, 1),
            "stopped_early": stopped,
            "games": [_as_json(c) for c in checks],
        }
        print(msgspec.json.encode(summary).decode())
        return
    # The title on a line of its own: a long path would wrap at the narrow table's width.
    out.print(Text(f"Verification of {db}", style="bold"))
    table = styled()
    table.show_header = False
    table.add_column("what")
    table.add_column("value", justify="right")
    for label, value in (
        ("games checked", f"{len(checks)} of {total}"),
        ("verified", str(counts["verified"])),
        ("failed", str(counts["failed"])),
        ("unfinished", str(counts["unfinished"])),
        ("events", f"{sum(c.events for c in checks):,}"),
        ("seconds", f"{seconds:.2f}"),
        ("games/s", f"{rate:.1f}"),
    ):
        table.add_row(label, value)
    out.print(table)
    seats = seat_table(checks)
    if seats is not None:
        out.print()
        out.print(seats)
        present = {s.check for c in checks for s in c.seats}
        out.print()
        for key, note in SEAT_NOTES.items():
            if key in present:
                out.print(Text(note))
    bad = [c for c in checks if c.outcome != "verified"]
    if bad:
        out.print()
        listing = styled("Games not verified")
        for col in ("game id", "outcome", "status", "check", "seq", "detail"):
            listing.add_column(col, overflow="fold")
        for c in bad:
            p = c.problem
            listing.add_row(
                Text(c.game_id),
                Text(c.outcome),
                Text(c.status),
                Text(p.check if p else ""),
                Text("" if p is None or p.seq is None else str(p.seq)),
                Text(p.detail if p else ""),
            )
        out.print(listing)
    if stopped:
        out.print(
            "Stopped at the first game not verified; --keep-going checks every game.",
            highlight=False,
        )
    elif counts["unfinished"] and allow_unfinished and not counts["failed"]:
        out.print(
            "Unfinished games are consistent prefixes; they were accepted (--allow-unfinished).",
            highlight=False,
        )


SEAT_CHECKS = {
    "rerun": "played again",
    "answers": "answers re-read",
    "legality": "legality only",
}
"""How each kind of seat check is named in tables (runner.replay.SeatCheck)."""

SEAT_NOTES = {
    "rerun": "played again: code agents, each move made anew from the spec and the seed",
    "answers": (
        "answers re-read: model seats and people; their recorded replies or lines cannot be"
        " made again, so their agent code reads them again and the rules check each move"
    ),
    "legality": "legality only: moves read from the log, each checked by the rules",
}
"""What each kind of seat check means, printed under the table of seats."""


def seat_table(checks: Sequence[GameCheck]) -> Table | None:
    """Seats of the checked games by how the re-simulation checked them, with their agents."""
    by: dict[str, tuple[int, dict[str, None]]] = {}
    for c in checks:
        for s in c.seats:
            n, agents = by.get(s.check, (0, {}))
            agents[s.agent] = None
            by[s.check] = (n + 1, agents)
    if not by:
        return None
    table = styled("How seats were checked")
    table.add_column("check")
    table.add_column("seats", justify="right")
    table.add_column("agents", overflow="fold")
    for key, label in SEAT_CHECKS.items():
        if key in by:
            n, agents = by[key]
            table.add_row(label, str(n), Text(", ".join(agents)))
    return table


def verify_one(db: Path, game_id: str, *, as_json: bool, allow_unfinished: bool) -> int:
    """`replay --verify`: the full check of one game, printed; returns the exit code."""
    from runner.verify import exit_code, resolve, verify_stored

    with _open(db) as store, out.status("Checking the game..."):
        gid = resolve(store, game_id)
        check = verify_stored(store, gid)
    code = exit_code([check], allow_unfinished)
    if as_json:
        print(msgspec.json.encode(_as_json(check)).decode())
        return code
    p = check.problem
    if check.ok:
        out.print(
            f"[green]verified[/]: {check.events} events; every column matches its event, the"
            " games row matches the log, and re-simulation reproduces it byte for byte"
        )
    elif check.outcome == "unfinished":
        console = out if code == 0 else err
        console.print(Text.assemble(("unfinished", "yellow"), f": game {gid}"))
        if p is not None:
            console.print(f"  {p.detail}", markup=False, highlight=False)
    else:
        err.print(Text.assemble(("verification failed", "red"), f" for game {gid}"))
        if p is not None:
            err.print(f"  {describe(p)}", markup=False, highlight=False)
            if p.stored is not None:
                stored, replayed = excerpts(p.stored, p.replayed or "")
                err.print(f"  stored:   {stored}", markup=False, highlight=False)
                err.print(f"  replayed: {replayed}", markup=False, highlight=False)
    console = out if code == 0 else err
    for seat in check.seats:
        label = SEAT_CHECKS.get(seat.check, seat.check)
        console.print(Text(f"  seat {seat.seat} {seat.agent}: {label}, {seat.why}"))
    return code


EXCERPT = 400
"""Characters of each differing event shown (an event may hold megabytes of a model's text;
--json gives both whole)."""


def excerpts(a: str, b: str, size: int = EXCERPT) -> tuple[str, str]:
    """Both texts whole when short, else the stretch of each around their first difference,
    with how much was left out on either side."""
    if len(a) <= size and len(b) <= size:
        return a, b
    first = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), None)
    first = min(len(a), len(b)) if first is None else first
    start = max(0, first - size // 4)

    def cut(text: str) -> str:
        end = min(len(text), start + size)
        head = f"[…{start:,} characters] " if start else ""
        tail = f" […{len(text) - end:,} characters]" if end < len(text) else ""
        return head + text[start:end] + tail

    return cut(a), cut(b)
