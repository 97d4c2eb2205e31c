"""Commands for model seats: what games cost, reruns with another model, a loopback server."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from cli.common import (
    DEFAULT_DB,
    DbOption,
    UsageError,
    _open,
    _score_table,
    app,
    out,
    pack_columns,
    print_fitted,
    table_width,
)
from cli.text import hint, line, plain, styled
from events import catalog
from events.store import GameNotFound
from projections.metrics.tables import plural


@app.command()
def costs(
    tournament: Annotated[str | None, typer.Option(help="Only games of this tournament.")] = None,
    game: Annotated[
        str | None, typer.Option(help="Only this stored game (id or unique prefix).")
    ] = None,
    by: Annotated[str, typer.Option(help="Group by agent, seat or game.")] = "agent",
    prices: Annotated[
        Path | None,
        typer.Option(help="Price table JSON laid over data/prices.json (or $CATTLE_PRICES)."),
    ] = None,
    merge_games: Annotated[
        bool,
        typer.Option(
            "--merge-games", help="One table for all kinds of game (default: one per kind)."
        ),
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    db: DbOption = DEFAULT_DB,
) -> None:
    """Model calls, tokens, cost, format-error and fallback rates of the stored games.

    Then how each decision went (ok, repaired, unparsable, illegal, truncated, refused,
    timeout, error, budget). One section per kind of game unless --merge-games.
    """
    from projections.costs import GROUPS, load_prices, usage

    if by not in GROUPS:
        raise UsageError(f"--by must be one of {', '.join(GROUPS)}, got {by!r}")
    if prices is not None and not prices.exists():
        raise UsageError(f"--prices: no such file {prices}")
    table_prices = load_prices(prices)
    with _open(db) as store:
        try:
            game_id = store.get_game(game).game_id if game else None
        except GameNotFound:
            if game is not None and game in catalog.names():
                # Other commands take a game's name with --game; here it is one stored game.
                raise UsageError(
                    f"costs --game takes a stored game's id; {game!r} is the name of a game"
                    " (costs covers the games of every game; narrow with --tournament)"
                ) from None
            raise
        rows = usage(
            store.con,
            by=by,
            tournament=tournament,
            game_id=game_id,
            prices=table_prices,
            separate=not merge_games,
        )
    if as_json:
        print(json.dumps(rows, default=str))
        return
    if not rows:
        out.print(
            plain("No model calls stored" + (f" for {tournament}" if tournament else "") + ".")
        )
        return
    sections: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        sections.setdefault("" if merge_games else r["game"], []).append(r)
    for kind, part in sections.items():
        _print_costs(part, by, kind)
        _print_estimated(part)
        _print_outcomes(part, by, kind)


def _print_estimated(rows: list[dict[str, Any]]) -> None:
    """Say when token counts (and so costs) rest on estimates: calls whose provider
    reported no usable usage (docs/llm.md)."""
    estimated = sum(r["estimated_calls"] for r in rows)
    if estimated:
        calls = sum(r["calls"] for r in rows)
        out.print(
            plain(
                f"Estimated: the tokens of {estimated:,} of {calls:,} calls (the provider"
                " reported no usable counts; 4 characters a token), and the costs from them."
            )
        )


def _print_costs(rows: list[dict[str, Any]], by: str, kind: str) -> None:
    from projections.costs import GROUPS

    columns = [c for c in _COST_COLUMNS if by == "agent" or c not in _PER_GAME]
    cells = {c: [_COST_COLUMNS[c](r) for r in rows] for c in columns}
    names = [[str(r[k]) for r in rows] + [k] for k in GROUPS[by]]
    # Too wide for the terminal: the same rows in as many tables as needed, each repeating
    # the names, so that no header or number loses its end.
    width = table_width() or 10_000
    print_fitted(
        lambda cols: _costs_table(rows, by, cols or columns, kind),
        [pack_columns(cells, names, width)],
    )


def _print_outcomes(rows: list[dict[str, Any]], by: str, kind: str) -> None:
    """How the decisions went, as shares of the decisions: the classes that occur."""
    from projections.costs import CLASSES, GROUPS

    shown = [c for c in CLASSES if c == "ok" or any(r["outcomes"][c] for r in rows)]
    columns = ["decisions", *shown]
    cells = {c: [_outcome_cell(r, c) for r in rows] for c in columns}
    names = [[str(r[k]) for r in rows] + [k] for k in GROUPS[by]]
    width = table_width() or 10_000
    print_fitted(
        lambda cols: _outcomes_table(rows, by, cols or columns, kind),
        [pack_columns(cells, names, width)],
    )


def _outcome_cell(row: dict[str, Any], column: str) -> str:
    if column == "decisions":
        return f"{row['decided']:,}"
    return f"{row['outcome_rates'][column]:.1%}"


def _outcomes_table(
    rows: list[dict[str, Any]], by: str, columns: Sequence[str], kind: str
) -> Table:
    from projections.costs import GROUPS

    t = styled(plain(f"Decision outcomes by {by}" + (f" ({kind})" if kind else "")))
    for c in GROUPS[by]:
        t.add_column(c, overflow="fold", justify="right" if c == "seat" else "left")
    for c in columns:
        t.add_column(c, justify="right")
    for r in rows:
        t.add_row(*(plain(r[k]) for k in GROUPS[by]), *(_outcome_cell(r, c) for c in columns))
    t.caption = "shares of the decisions (classes: docs/llm.md)"
    return t


def _money(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.4f}"


_COST_COLUMNS: dict[str, Callable[[dict[str, Any]], str]] = {
    "games": lambda r: str(r["games"]),
    "calls": lambda r: f"{r['calls']:,}",
    "calls/game": lambda r: f"{r['calls_per_game']:.0f}",
    "input tok": lambda r: f"{r['input_tokens']:,}",
    "output tok": lambda r: f"{r['output_tokens']:,}",
    "reasoning tok": lambda r: f"{r['reasoning_tokens']:,}",
    "tokens/game": lambda r: f"{r['tokens_per_game']:,.0f}",
    "cost $": lambda r: _money(r["cost_usd"]),
    "$/game": lambda r: _money(r["cost_per_game"]),
    "format err": lambda r: f"{r['format_error_rate']:.2%}",
    "fallbacks": lambda r: f"{r['fallback_rate']:.2%}",
    "transport err": lambda r: str(r["transport_errors"]),
    "budget cut": lambda r: str(r["budget_cut_games"]),
}
"""Every column after the group's, in table order, with how it prints a row."""
_PER_GAME = ("games", "calls/game", "tokens/game", "$/game")
"""Columns that repeat others when every row is one game (by seat, by game)."""


def _costs_table(
    rows: list[dict[str, Any]], by: str, columns: Sequence[str] | None = None, kind: str = ""
) -> Table:
    """Model usage as a table (every column, or those named) of the games of one kind
    (`kind`, named in the title; "" for all kinds together); agent names and game ids print
    as plain text, folded onto more lines rather than cut."""
    from projections.costs import GROUPS

    names = list(columns or _COST_COLUMNS)
    t = styled(plain(f"Model usage by {by}" + (f" ({kind})" if kind else "")))
    for c in GROUPS[by]:
        t.add_column(c, overflow="fold", justify="right" if c == "seat" else "left")
    for c in names:
        t.add_column(c, justify="right")
    for r in rows:
        t.add_row(*(plain(r[k]) for k in GROUPS[by]), *(_COST_COLUMNS[c](r) for c in names))
    if "cost $" in names:
        t.caption = "cost n/a: model missing from the price table (add it with --prices)"
    return t


@app.command()
def reparse(
    tournament: Annotated[str | None, typer.Option(help="Only games of this tournament.")] = None,
    game: Annotated[
        str | None, typer.Option(help="Only this stored game (id or unique prefix).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    db: DbOption = DEFAULT_DB,
) -> None:
    """Read the stored model answers again with today's parser (no model is called).

    Per agent and game: the decisions that would now go otherwise (defaults that become
    moves, moves that become defaults), with examples. The store is not written.
    """
    from runner.reparse import reparse as reread

    with _open(db) as store:
        if game is not None:
            ids = [store.get_game(game).game_id]
        else:
            sql = "SELECT DISTINCT e.game_id FROM events e JOIN games g USING (game_id)"
            sql += " WHERE e.type = 'llm_call'"
            params: list[Any] = []
            if tournament is not None:
                sql += " AND g.tournament = ?"
                params.append(tournament)
            ids = [r[0] for r in store.con.execute(sql + " ORDER BY 1", params).fetchall()]
        tallies = reread((gid, store.load_events(gid)) for gid in ids)
    if as_json:
        print(json.dumps({"games": len(ids), "agents": [t.as_dict() for t in tallies]}))
        return
    if not tallies:
        out.print(
            plain("No model answers stored" + (f" for {tournament}" if tournament else "") + ".")
        )
        return
    for kind in dict.fromkeys(r.game for r in tallies):
        t = styled(plain(f"{kind}: stored answers read by today's parser"))
        for c in ("agent", "decisions", "calls", "changed", "now a move", "now a default"):
            t.add_column(c, overflow="fold", justify="left" if c == "agent" else "right")
        for r in tallies:
            if r.game == kind:
                t.add_row(
                    plain(r.agent),
                    f"{r.decisions:,}",
                    f"{r.calls:,}",
                    f"{r.changed:,}",
                    f"{r.fallback_to_move:,}",
                    f"{r.move_to_fallback:,}",
                )
        t.caption = (
            "now a move: was a default; now a default: was a move; changed: calls read otherwise"
        )
        out.print(t)
    for r in tallies:
        for ex in r.examples:
            then = ex["then"][0] + (f" ({ex['then'][1]})" if ex["then"][1] else "")
            now = ex["now"][0] + (f" ({ex['now'][1]})" if ex["now"][1] else "")
            where = f"{ex['game_id']} seat {ex['seat']} {ex['decision']}/{ex['stage']}"
            out.print(plain(f"{where}: {ex['answer']!r}"))
            out.print(plain(f"  then {then}; now {now}"))
    out.print(plain(f"{plural(len(ids), 'game')} read; nothing called, nothing written."))


@app.command()
def rerun(
    game_id: Annotated[str, typer.Argument(help="Stored game to rerun (id or unique prefix).")],
    seat: Annotated[int, typer.Option(help="Seat whose agent changes.")],
    agent: Annotated[str, typer.Option(help="New agent spec for that seat.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON summary.")] = False,
    db: DbOption = DEFAULT_DB,
) -> None:
    """Play a stored game's seed and configuration again (same deck) with one seat changed."""
    from runner.session import play_and_store, seat_specs

    with _open(db, write=True) as store:
        row = store.get_game(game_id)
        if not 0 <= seat < len(row.seats):
            raise UsageError(f"--seat must be between 0 and {len(row.seats) - 1}")
        seats = list(row.seats)
        seats[seat] = seat_specs([agent], row.game)[0]
        new_id, record = play_and_store(store, row.config, row.seed, seats)
    if as_json:
        result = record.result
        print(
            json.dumps(
                {
                    "game_id": new_id,
                    "rerun_of": row.game_id,
                    "seed": row.seed,
                    "agents": [s.agent for s in seats],
                    "scores": list(result.scores) if result else None,
                }
            )
        )
        return
    out.print(_score_table(new_id, record))
    out.print(
        line(
            f"Rerun of {{}} (seed {row.seed}); new game id: [bold cyan]{{}}[/]", row.game_id, new_id
        )
    )


@app.command()
def loopback(
    port: Annotated[int, typer.Option(help="Port on 127.0.0.1 (0: any free port).")] = 8765,
    delay: Annotated[float, typer.Option(help="Seconds before every answer (0 to 600).")] = 0.0,
) -> None:
    """Serve a local stand-in model (OpenAI and Anthropic protocols) that plays legal moves.

    It plays every built-in game: Cattle Trade, PACT, OpenSpiel, TextArena and GameBench.
    """
    from agents.llm.loopback import LegalPolicy, LoopbackServer

    if not 0 <= port <= 65535:
        raise UsageError(f"--port must be between 0 and 65535, got {port}")
    if not 0 <= delay <= 600:
        raise UsageError(f"--delay must be between 0 and 600 seconds, got {delay}")
    try:
        server = LoopbackServer(LegalPolicy(), port=port, delay=delay)
    except OSError as exc:
        raise UsageError(f"cannot listen on 127.0.0.1:{port}: {exc.strerror or exc}") from None
    seats = f"openai:loop@{server.openai_url},anthropic:loop@{server.url}"
    try_it = hint("play", "--preset", "micro-duel", "--agents", seats)
    out.print(plain(f"Serving on 127.0.0.1:{server.port}. Try:"))
    out.print(plain(f"  {try_it}"), soft_wrap=True)
    out.file.flush()  # a caller reading the address through a pipe gets it now
    try:
        server._server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server._server.server_close()
