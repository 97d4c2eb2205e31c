"""`cattle metrics` and `cattle export`: behaviour metrics rebuilt from events, and data export."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from cli.common import (
    DEFAULT_DB,
    DbOption,
    GameOption,
    UsageError,
    analysis_hooks,
    app,
    carried_config,
    err,
    game_def,
    in_range,
    out,
)
from cli.selection import (
    MAX_RESAMPLES,
    GameIdOption,
    TournamentOption,
    narrowed,
    open_for_metrics,
    other_games_hint,
)
from cli.text import line, plain, shown
from events.catalog import DEFAULT_GAME
from events.store import StoreError


def _cell(est: Any, percent: bool) -> str:
    if est is None or est.value is None:
        return "-"
    if percent:
        text = f"{100 * est.value:.1f}%"
        if est.lo is not None and est.hi is not None and est.lo != est.hi:
            text += f"\n[dim]{100 * est.lo:.1f}–{100 * est.hi:.1f}[/]"
        return text
    digits = 0 if abs(est.value) >= 100 else 2
    text = f"{est.value:,.{digits}f}"
    if est.lo is not None and est.hi is not None and est.lo != est.hi:
        text += f"\n[dim]{est.lo:,.{digits}f}–{est.hi:,.{digits}f}[/]"
    return text


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
    from projections.metrics import aggregate, build
    from projections.metrics.registry import metrics as all_metrics

    in_range("--resamples", resamples, 10, MAX_RESAMPLES)
    g = game_def(game)
    if g.name != DEFAULT_GAME:
        _other_metrics(
            g, tournament, game_id, as_json, definitions, resamples, db, carried_config(game)
        )
        return
    if definitions:
        for m in all_metrics():
            out.print(line(f"[bold]{{}}[/] v{m.version} ({{}}): {{}}", m.name, m.agg, m.definition))
        return
    with open_for_metrics(db, save=save) as store:
        stats = build.rebuild(store.con) if rebuild else build.ensure(store.con)
        if stats is not None:
            msg = (
                f"rebuilt derived tables: {stats.games} games, {stats.events:,} events,"
                f" {stats.rows:,} metric rows in {stats.seconds:.2f}s"
                f" ({stats.events_per_second:,.0f} events/s)"
            )
            err.print(msg, highlight=False)
        sel = aggregate.Selection(tournament=tournament, games=tuple(game_id or ()))
        if tournament is not None and not store.list_games(tournament):
            raise UsageError(f"no games in tournament {tournament!r}")
        profs = aggregate.profiles(
            store.con, sel, keyed=("bid_aggressiveness_phase",), resamples=resamples
        )
    if as_json:
        docs = []
        for p in profs:
            doc = aggregate.profile_json(p)
            phase = doc.pop("bid_aggressiveness_phase", {})
            doc["bid_aggressiveness_early"] = phase.get("early")
            doc["bid_aggressiveness_late"] = phase.get("late")
            docs.append(doc)
        print(json.dumps(docs))
        return
    if not profs:
        hint = other_games_hint(store.con, DEFAULT_GAME, tournament, game_id or ())
        if hint:
            out.print(plain(f"No finished {DEFAULT_GAME} games in this selection{hint}."))
        else:
            out.print("No finished games in this selection.")
        return
    # The table needs about 170 columns; piped output would otherwise be cut to 80.
    wide = out if out.width >= 170 else Console(width=170, emoji=False)
    wide.print(_metrics_table(profs, tournament))


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
        lines = hooks.metrics_lines(store.con, sel, resamples, max(out.width, 60), shown)
        hint = "" if lines else other_games_hint(store.con, g.name, tournament, game_id or ())
    if not lines:
        what = g.name if carried is None else f"{g.name} ({carried.name})"
        out.print(plain(f"No finished {what} games in this selection{hint}."))
        return
    for text in lines:
        out.print(plain(text), highlight=False)


def _metrics_table(profs: list[Any], tournament: str | None) -> Table:
    """The behaviour table; the interval lines are markup, the agent names plain text."""
    from projections.metrics import aggregate
    from projections.metrics.registry import get

    table = Table(
        title=plain(
            "Behaviour profile"
            + (f" (tournament {tournament})" if tournament else "")
            + ": point estimate, 95% bootstrap interval below"
        ),
        show_lines=False,
    )
    table.add_column("agent", style="bold")
    table.add_column("games", justify="right")
    for name in aggregate.TABLE_METRICS:
        table.add_column(get(name).label, justify="right")
    for p in profs:
        table.add_row(
            plain(p.agent),
            str(p.games),
            *(_cell(p.metrics.get(n), get(n).percent) for n in aggregate.TABLE_METRICS),
        )
    table.caption = "games = seat-games; definitions: cattle metrics --definitions"
    return table


@app.command()
def export(
    out_dir: Annotated[Path, typer.Option("--out", help="Directory to write into.")],
    fmt: Annotated[str, typer.Option("--format", help="parquet or jsonl.")] = "parquet",
    db: DbOption = DEFAULT_DB,
) -> None:
    """Write games, events, every analysis view and the derived tables to files."""
    if fmt not in ("parquet", "jsonl"):
        raise UsageError(f"--format must be parquet or jsonl, got {fmt!r}")
    from projections.metrics import build
    from projections.metrics.export import export_store

    with open_for_metrics(db) as store:
        # The derived tables go out too, so bring them up to date with the log first.
        build.ensure(store.con)
        try:
            written = export_store(store.con, out_dir, fmt)
        except OSError as exc:
            raise StoreError(f"cannot write to {out_dir}: {exc}") from None
    for name, rows in written:
        out.print(plain(f"{name:<24} {rows:>10,} rows"), highlight=False)
    out.print(line(f"Wrote {len(written)} file(s) to [bold]{{}}[/]", out_dir))
