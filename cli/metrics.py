"""`cattle metrics` and `cattle export`: behaviour metrics rebuilt from events, and data export."""

from __future__ import annotations

import json
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
    check_out_folder,
    family_cli,
    family_hooks,
    family_selection,
    game_def,
    in_range,
    out,
    plural,
    replace_file,
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
from cli.text import line, plain, shown
from events import catalog
from events.store import StoreError


@app.command()
def metrics(
    tournament: TournamentOption = None,
    game_id: GameIdOption = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print one JSON object per agent (in a list).")
    ] = False,
    rebuild: Annotated[
        bool,
        typer.Option("--rebuild", help="Drop and recompute every derived table from events."),
    ] = False,
    save: Annotated[
        bool,
        typer.Option(
            "--save",
            help="Store the derived tables in the database (for SQL); otherwise they are"
            " built in memory when stale and the database is only read.",
        ),
    ] = False,
    definitions: Annotated[
        bool,
        typer.Option("--definitions", help="List every metric with its version and definition."),
    ] = False,
    resamples: Annotated[
        int, typer.Option(help=f"Bootstrap resamples per interval (10 to {MAX_RESAMPLES:,}).")
    ] = 1000,
    game: GameOption = None,
    db: DbOption = DEFAULT_DB,
) -> None:
    """Print the metric table with 95% bootstrap intervals: Cattle Trade's behaviour table
    (Table 3 columns), or another game's with --game (PACT: CMS, shares, offsets, Glicko-2)."""
    in_range("--resamples", resamples, 10, MAX_RESAMPLES)
    if catalog.is_family(game):
        _family_metrics(str(game), tournament, game_id, as_json, definitions, resamples, db)
        return
    g = game_def(game)
    hooks = family_cli(g)
    if hooks is None or not hasattr(hooks, "metrics"):
        _other_metrics(
            g, tournament, game_id, as_json, definitions, resamples, db, carried_config(game)
        )
        return
    hooks.metrics(tournament, game_id, as_json, rebuild, save, definitions, resamples, db)


def _family_metrics(
    family: str,
    tournament: str | None,
    game_id: list[str] | None,
    as_json: bool,
    definitions: bool,
    resamples: int,
    db: Path,
) -> None:
    """`cattle metrics --game FAMILY`: every game of the family in one analysis."""
    hooks = family_hooks(family)
    in_range("--resamples", resamples, 10, hooks.max_resamples)
    if definitions:
        for name, version, text in hooks.definitions():
            out.print(line(f"[bold]{{}}[/] v{version}: {{}}", name, text))
        return
    with open_for_metrics(db) as store:
        if tournament is not None and not store.list_games(tournament):
            raise UsageError(f"no games in tournament {tournament!r}")
        sel = family_selection(family, tournament, game_id)
        if as_json:
            print(json.dumps(hooks.metrics_json(store.con, sel, resamples)))
            return
        parts = _tables(hooks, store.con, sel, resamples)
        finished = 0 if parts else finished_games(store, sel)
    if not parts:
        out.print(plain(_nothing_rated(family, finished, "")))
        return
    _print_parts(parts)


def _tables(hooks: Any, con: Any, sel: Any, resamples: int) -> list[Any]:
    """A family's metric tables as rich renderables, fitted to the terminal (a family whose
    hooks give only text lines: its lines, printed as they are)."""
    if hasattr(hooks, "metrics_tables"):
        return list(hooks.metrics_tables(con, sel, resamples, out.width, shown))
    lines = hooks.metrics_lines(con, sel, resamples, max(out.width, 60), shown)
    return [plain("\n".join(lines))] if lines else []


def _print_parts(parts: list[Any]) -> None:
    """Print metric tables and notes, a blank line between two of them."""
    for k, part in enumerate(parts):
        if k:
            out.print()
        out.print(part, highlight=False)


def _nothing_rated(what: str, finished: int, hint: str) -> str:
    """The line printed when a selection gives no table: it holds no finished game, or its
    finished games hold no match (one agent in every seat)."""
    if finished:
        return (
            f"No match between two different agents in the {finished} finished {what}"
            f" {'game' if finished == 1 else 'games'} of this selection."
        )
    return f"No finished {what} games in this selection{hint}."


def _other_metrics(
    g: Any,
    tournament: str | None,
    game_id: list[str] | None,
    as_json: bool,
    definitions: bool,
    resamples: int,
    db: Path,
    carried: Any = None,
) -> None:
    """`cattle metrics` for a game other than Cattle Trade, through its analysis hooks (over
    the games played with the configuration `carried`, when the game's name carries one)."""
    from projections.metrics import aggregate

    hooks = analysis_hooks(g)
    in_range("--resamples", resamples, 10, hooks.max_resamples)
    if definitions:
        for name, version, text in hooks.definitions():
            out.print(line(f"[bold]{{}}[/] v{version}: {{}}", name, text))
        return
    with open_for_metrics(db) as store:
        if tournament is not None and not store.list_games(tournament):
            raise UsageError(f"no games in tournament {tournament!r}")
        sel = aggregate.Selection(tournament=tournament, games=tuple(game_id or ()), game=g.name)
        if carried is not None:
            sel = narrowed(store, sel, carried)
        if as_json:
            print(json.dumps(hooks.metrics_json(store.con, sel, resamples)))
            return
        parts = _tables(hooks, store.con, sel, resamples)
        finished = 0 if parts else finished_games(store, sel)
        hint = (
            ""
            if parts or finished
            else other_games_hint(store.con, g.name, tournament, game_id or ())
        )
    if not parts:
        what = g.name if carried is None else f"{g.name} ({carried.name})"
        out.print(plain(_nothing_rated(what, finished, hint)))
        return
    _print_parts(parts)


@app.command()
def export(
    out_dir: Annotated[Path, typer.Option("--out", help="Directory to write into.")],
    fmt: Annotated[str, typer.Option("--format", help="parquet or jsonl.")] = "parquet",
    force: ForceOption = False,
    db: DbOption = DEFAULT_DB,
) -> None:
    """Write games, events, every analysis view and the derived tables to files."""
    if fmt not in ("parquet", "jsonl"):
        raise UsageError(f"--format must be parquet or jsonl, got {fmt!r}")
    from events import catalog
    from projections.metrics.export import MARKER, export_store

    check_out_folder(out_dir, "--out", db, force=force, marker=MARKER)

    with open_for_metrics(db) as store:
        # Games' derived tables go out too, so each game brings its own up to date first.
        derived: list[str] = []
        for g in catalog.loaded():
            ensure = g.extras.get("derived_tables")
            if ensure is not None:
                derived.extend(ensure(store.con))
        try:
            written = export_store(
                store.con,
                out_dir,
                fmt,
                derived,
                make_way=lambda path: replace_file(path, "--out", db),
            )
        except OSError as exc:
            raise StoreError(f"cannot write to {out_dir}: {exc}") from None
    for name, rows in written:
        out.print(plain(f"{name:<24} {rows:>10,} rows"), highlight=False)
    out.print(line(f"Wrote {plural(len(written), 'file')} to [bold]{{}}[/]", out_dir))
