"""`cattle league`: run a standing league from its file, print its table, its operator's view,
or check that its matchmaker's stored choices replay (docs/league.md)."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import msgspec
import typer
from rich import box
from rich.table import Table

from cli.app import on_interrupt
from cli.common import (
    DEFAULT_DB,
    DbOption,
    UsageError,
    app,
    err,
    out,
    plural,
    print_fitted,
)
from cli.text import hint, line, plain, shown
from events.store import DuckStore, StoreError

if TYPE_CHECKING:
    from projections.league import Row

ACTIONS = ("table", "status", "replay")
MAX_BOOTSTRAP = 10_000


@app.command()
def league(
    target: Annotated[
        str,
        typer.Argument(
            help="A league file (TOML) to run (or a shipped league's name: example), or:"
            " table (the live table), status (the operator's view), replay (choose every"
            " stored round again and compare).",
            metavar="FILE|table|status|replay",
        ),
    ],
    name: Annotated[
        str | None,
        typer.Option("--league", help="The league (table, status, replay; default: the only one)."),
    ] = None,
    games: Annotated[
        int | None, typer.Option(help="Stop once the league holds this many games in all.")
    ] = None,
    minutes: Annotated[
        float | None, typer.Option(help="Stop after this many minutes (between rounds).")
    ] = None,
    workers: Annotated[int, typer.Option(help="Processes playing code-agent games.")] = 1,
    ray: Annotated[
        bool, typer.Option("--ray", help="Play the games on a Ray cluster (default: a local one).")
    ] = False,
    ray_address: Annotated[
        str | None, typer.Option(help="The Ray cluster to join (with --ray): auto or HOST:PORT.")
    ] = None,
    bootstrap: Annotated[
        int, typer.Option(help=f"Bootstrap samples of Bradley-Terry (1 to {MAX_BOOTSTRAP:,}).")
    ] = 200,
    game: Annotated[
        str | None, typer.Option("--game", help="The table of one game only (or overall).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON (table, status).")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", help="No line per round.")] = False,
    db: DbOption = DEFAULT_DB,
) -> None:
    """Run a standing league, or show it.

    `cattle league FILE` plays the league its file describes, one round of games after
    another, until stopped (Ctrl-C parks the games in play: the next run continues them),
    until --games or --minutes, or until nobody may play; run it again to resume where it
    stopped. The file is read again before every round: agents and games added to it join.
    `cattle league table` prints the live table, per game and overall (the same figures as
    `cattle ratings --tournament LEAGUE`), `status` what runs and what was spent against the
    budgets, `replay` chooses every stored round again and says whether the choices agree.
    """
    if not 1 <= bootstrap <= MAX_BOOTSTRAP:
        raise UsageError(f"--bootstrap must be between 1 and {MAX_BOOTSTRAP:,}, got {bootstrap:,}")
    if target in ACTIONS:
        with DuckStore(db, read_only=True) as store:
            which = _which(store, name, db)
            if target == "table":
                _table(store, which, bootstrap, game, as_json)
            elif target == "status":
                _status(store, which, as_json)
            else:
                _replay(store, which)
        return
    from runner.league import find_file

    _run(find_file(target), db, games, minutes, workers, ray, ray_address, quiet)


def _which(store: DuckStore, name: str | None, db: Path) -> str:
    from events.league import leagues

    found = leagues(store.con)
    if name is not None:
        if name not in found:
            raise UsageError(f"no league named {name!r} in {db}")
        return name
    if not found:
        raise UsageError(f"no league in {db}")
    if len(found) > 1:
        raise UsageError(f"{db} holds {len(found)} leagues: pick one with --league")
    return found[0]


def _run(
    path: Path,
    db: Path,
    games: int | None,
    minutes: float | None,
    workers: int,
    ray: bool,
    ray_address: str | None,
    quiet: bool,
) -> None:
    from runner.executors import ExecutorError, make_executor
    from runner.league import LeagueError, read_file, run

    if games is not None and games < 1:
        raise UsageError(f"--games must be 1 or more, got {games:,}")
    if minutes is not None and minutes <= 0:
        raise UsageError(f"--minutes must be more than 0, got {minutes:g}")
    if ray_address is not None and not ray:
        raise UsageError("--ray-address goes with --ray")
    try:
        f = read_file(path)
    except LeagueError as exc:
        raise UsageError(str(exc)) from None
    try:
        executor = make_executor("ray" if ray else "local", workers=workers, address=ray_address)
    except ExecutorError as exc:
        raise UsageError(str(exc)) from None
    on_interrupt(
        line(
            "interrupted; the games in play are parked (stored, continued by the next run)."
            " Go on with: [green]{}[/]",
            hint("league", path, "--db", db),
        )
    )

    def said(round_no: int, n: int) -> None:
        if not quiet:
            err.print(line("round {}: {} chosen", round_no, plural(n, "game")))

    try:
        with DuckStore(db) as store:
            out.print(line("League [bold]{}[/] in {}", f.name, db))
            stop = run(
                store,
                path,
                games=games,
                minutes=minutes,
                executor=executor,
                workers=workers,
                on_round=said,
            )
    except (LeagueError, StoreError) as exc:
        raise UsageError(str(exc)) from None
    finally:
        executor.close()
    out.print(
        line(
            "Stopped: {}; this run chose {} and played {}.",
            stop.reason,
            plural(stop.rounds, "round"),
            plural(stop.games, "game"),
        )
    )


# ---------------------------------------------------------------------------- table


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.0f}%"


def _money(x: float | None) -> str:
    return "-" if x is None else f"{x:.4f}"


_RATINGS = ("TrueSkill", "BT [5%, 95%]")
_PLAY = ("games", "err", "fallbk", "$/game")


def _one_table(title: str, rows: list[Row], columns: Any = None) -> Table:
    t = Table(title=title, box=box.SIMPLE_HEAD, title_justify="left", pad_edge=False)
    t.add_column("agent", overflow="fold")
    cols = list(columns) if columns else [*_RATINGS, *_PLAY]
    for c in cols:
        t.add_column(c, justify="right", no_wrap=True)
    for r in rows:
        cells = {
            "TrueSkill": f"{r.mu:.1f} ± {r.sigma:.1f}",
            "BT [5%, 95%]": "-"
            if r.bt is None
            else f"{r.bt:+.2f} [{r.bt_p5:+.1f}, {r.bt_p95:+.1f}]",
            "games": f"{r.games:,}",
            "err": _pct(r.error_rate),
            "fallbk": _pct(r.fallback_rate),
            "$/game": _money(r.cost_per_game),
        }
        t.add_row(plain(r.agent), *[cells[c] for c in cols])
    return t


def _table(store: DuckStore, name: str, samples: int, game: str | None, as_json: bool) -> None:
    from events.league import load_events
    from projections.league import fold, table

    state = fold(load_events(store.con, name))
    result = table(store, name, state, samples=samples)
    tables = result.tables
    if game is not None:
        if game not in tables:
            raise UsageError(
                f"--game: the table of {name!r} has {', '.join(tables) or 'no games yet'}"
            )
        tables = {game: tables[game]}
    if as_json:
        doc = msgspec.to_builtins(result)
        doc["tables"] = {k: doc["tables"][k] for k in tables}
        print(json.dumps(doc))
        return
    if not tables:
        out.print(plain(f"League {name}: no finished game yet."))
        return
    out.print(
        line(
            "League [bold]{}[/]: {}. TrueSkill μ ± σ; Bradley-Terry mean"
            " and 90% bootstrap interval ({} samples); err: model decisions whose call failed;"
            " fallbk: answers not played as given; $/game: model cost per game.",
            name,
            plural(result.games, "finished game"),
            f"{samples:,}",
        )
    )
    for g, rows in tables.items():
        title = f"{shown(g)} ({len(rows)} agents)"
        print_fitted(functools.partial(_one_table, title, rows), [(_RATINGS, _PLAY)])


# ---------------------------------------------------------------------------- status


def _status(store: DuckStore, name: str, as_json: bool) -> None:
    from runner.league import status

    doc = status(store, name)
    if as_json:
        print(json.dumps(doc))
        return
    out.print(
        line(
            "League [bold]{}[/]: {}, {} scheduled, {} finished, {} in play, {} waiting.",
            name,
            plural(doc["rounds"], "round"),
            plural(doc["scheduled"], "game"),
            doc["finished"],
            doc["running"],
            doc["waiting"],
        )
    )
    if doc["writer"]:
        out.print(line("Run by {}.", doc["writer"]))
    t = Table(title=f"spend on {doc['day'] or '-'}", box=box.SIMPLE_HEAD, title_justify="left")
    for c in ("agent", "games", "calls", "tokens", "cost", "state"):
        t.add_column(c, justify="left" if c in ("agent", "state") else "right")
    for a in doc["agents"]:
        t.add_row(
            plain(a["name"]),
            f"{a['games']:,}",
            _of(a["calls"], a["calls_per_day"]),
            _of(a["tokens"], a["tokens_per_day"]),
            _of(round(a["cost"], 4), a["cost_per_day"]),
            plain(a["state"]),
        )
    out.print(t)
    if doc["errors"]:
        e = Table(title="model call errors by provider", box=box.SIMPLE_HEAD, title_justify="left")
        e.add_column("provider")
        e.add_column("calls", justify="right")
        e.add_column("errors", justify="right")
        for p in doc["errors"]:
            e.add_row(plain(p["provider"]), f"{p['calls']:,}", f"{p['errors']:,}")
        out.print(e)


def _of(used: float, limit: float | None) -> str:
    return f"{used:,}" if limit is None else f"{used:,} / {limit:,}"


def _replay(store: DuckStore, name: str) -> None:
    from runner.league import replay_choices

    problems = replay_choices(store, name)
    if problems:
        for p in problems:
            err.print(plain(p))
        raise typer.Exit(1)
    out.print(line("League {}: every stored round is chosen again as stored.", name))
