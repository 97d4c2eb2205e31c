"""`cattle report`: one self-contained HTML file with ratings, figures and behaviour tables."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated, Any

import typer

from cli.common import (
    DEFAULT_DB,
    DbOption,
    ForceOption,
    GameOption,
    UsageError,
    analysis_hooks,
    app,
    carried_config,
    check_out_file,
    family_cli,
    family_hooks,
    family_selection,
    game_def,
    in_range,
    out,
    refuse_database,
)
from cli.selection import (
    MAX_RESAMPLES,
    GameIdOption,
    TournamentOption,
    finished_games,
    narrowed,
    open_for_metrics,
    other_games_hint,
)
from cli.text import line
from events import catalog

REPORT_MARK = '<meta name="generator" content="cattle report">'
"""In the head of every report: a file holding it may be written over by the next report."""


def _is_report(path: Path) -> bool:
    try:
        with path.open("rb") as f:
            return REPORT_MARK.encode() in f.read(4096)
    except OSError:
        return False


def check_report_file(path: Path, db: Path, force: bool) -> None:
    """Refuse an output file that cannot or must not be written, before any work is done."""
    if path.is_dir():
        raise UsageError(f"--out {path} is a directory; name a file, e.g. {path / 'report.html'}")
    check_out_file(path, "--out", db, force=force, ours=_is_report)
    # The nearest existing ancestor decides: missing directories below it are created later.
    parent = path.parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if not parent.is_dir():
        raise UsageError(f"--out {path}: {parent} is a file, not a directory")
    if not os.access(parent, os.W_OK | os.X_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise UsageError(f"--out {path}: not writable (read-only file system or no permission)")


@app.command()
def report(
    out_path: Annotated[Path, typer.Option("--out", "-o", help="HTML file to write.")] = Path(
        "report.html"
    ),
    tournament: TournamentOption = None,
    game_id: GameIdOption = None,
    title: Annotated[str | None, typer.Option(help="Page title.")] = None,
    resamples: Annotated[
        int, typer.Option(help=f"Bootstrap resamples per interval (10 to {MAX_RESAMPLES:,}).")
    ] = 1000,
    game: GameOption = None,
    force: ForceOption = False,
    db: DbOption = DEFAULT_DB,
) -> None:
    """Write the HTML report (ratings, figures, metric tables) for a selection of games of
    one game (Cattle Trade unless --game)."""
    from projections.metrics.aggregate import Selection

    in_range("--resamples", resamples, 10, MAX_RESAMPLES)
    check_report_file(out_path, db, force)
    if catalog.is_family(game):
        _family_report(str(game), out_path, tournament, game_id, title, resamples, db)
        return
    g = game_def(game)
    family = family_cli(g)
    if family is not None and hasattr(family, "report"):
        page, rstats = family.report(tournament, game_id, title, resamples, db)
        _write(out_path, page, rstats, db)
        return
    hooks = analysis_hooks(g)
    in_range("--resamples", resamples, 10, hooks.max_resamples)
    with open_for_metrics(db) as store:
        if tournament is not None and not store.list_games(tournament):
            raise UsageError(f"no games in tournament {tournament!r}")
        sel = Selection(tournament=tournament, games=tuple(game_id or ()), game=g.name)
        carried = carried_config(game)
        if carried is not None:
            sel = narrowed(store, sel, carried)
        finished = finished_games(store, sel)
        if not finished:
            hint = other_games_hint(store.con, g.name, tournament, game_id or ())
            what = g.name if carried is None else f"{g.name} ({carried.name})"
            raise UsageError(f"no finished {what} games in this selection{hint}")
        with out.status("Building the report..."):
            page, rstats = hooks.report(
                store.con,
                sel,
                title or (f"{g.title}: {tournament}" if tournament else f"{g.title} report"),
                resamples,
            )
    _write(out_path, page, rstats, db)


def _family_report(
    family: str,
    out_path: Path,
    tournament: str | None,
    game_id: list[str] | None,
    title: str | None,
    resamples: int,
    db: Path,
) -> None:
    """`cattle report --game FAMILY`: every game of the family in one analysis."""
    hooks = family_hooks(family)
    in_range("--resamples", resamples, 10, hooks.max_resamples)
    with open_for_metrics(db) as store:
        if tournament is not None and not store.list_games(tournament):
            raise UsageError(f"no games in tournament {tournament!r}")
        sel = family_selection(family, tournament, game_id)
        if not finished_games(store, sel):
            raise UsageError(f"no finished {family} games in this selection")
        with out.status("Building the report..."):
            name = hooks.title
            page, rstats = hooks.report(
                store.con,
                sel,
                title or (f"{name}: {tournament}" if tournament else f"{name} report"),
                resamples,
            )
    _write(out_path, page, rstats, db)


def _write(out_path: Path, page: str, rstats: Any, db: Path) -> None:
    """Write the page (marked as a report) and say what it holds."""
    head = '<meta charset="utf-8">'
    page = page.replace(head, f"{head}\n{REPORT_MARK}", 1)
    try:
        out_path.parent.mkdir(parents=True, exist_ok=True)
        refuse_database(out_path, "--out", db)  # again: the file may have changed meanwhile
        out_path.write_text(page, encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot write the report to {out_path}: {exc.strerror or exc}") from None
    out.print(
        line(
            f"Wrote [bold]{{}}[/] ({rstats.bytes / 1e6:.1f} MB): {rstats.games} games,"
            f" {rstats.agents} agents, built in {rstats.seconds:.1f}s",
            out_path,
        )
    )
