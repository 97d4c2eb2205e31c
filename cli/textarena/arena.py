"""`cattle arena`: MindGames' arena over stored TextArena games, and MG-Ref scoring.

Without `--pool` it reads the stored games (all, or one tournament's): TrueSkill per game
and per track, the error attribution lens and role analysis (projections.textarena.arena).
With `--pool NAME --agent SPEC` it plays the candidate against a frozen reference pool of
any game (cli.pools over runner.pools), stores the games, and prints the candidate's scores.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

import msgspec
import typer
from rich.table import Table

from cli.common import DEFAULT_DB, DbOption, UsageError, _open, app, out
from cli.text import plain, styled


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _column(table: Table, name: str, *, text: bool) -> None:
    """A name column wraps a long name whole onto more lines (two model specs that share a
    long prefix must not both end in the same "…"); a number column is right-aligned."""
    if text:
        table.add_column(name, overflow="fold")
    else:
        table.add_column(name, justify="right", no_wrap=True)


def _tables(seats: list[Any]) -> list[Table]:
    from projections.textarena import arena as A

    tables = []
    for by in ("game", "track"):
        t = styled(plain(f"TrueSkill per {by}"))
        for col in (by, "agent", "μ", "σ", "seats"):
            _column(t, col, text=col in (by, "agent"))
        for r in A.trueskill_by(seats, by):
            t.add_row(plain(r.group), plain(r.agent), f"{r.mu:.2f}", f"{r.sigma:.2f}", str(r.seats))
        tables.append(t)
    t = styled("Errors (TextArena's verdicts)")
    for col in ("game", "agent", "invalid", "ended", "before 1st", "won", "won opp. err"):
        _column(t, col, text=col in ("game", "agent"))
    for e in A.error_lens(seats):
        before = (
            "-" if e.actions_before_first_error is None else f"{e.actions_before_first_error:.1f}"
        )
        t.add_row(
            plain(e.game),
            plain(e.agent),
            _pct(e.invalid_rate),
            _pct(e.ended_by_error),
            before,
            _pct(e.win_rate),
            _pct(e.wins_after_opponent_error),
        )
    tables.append(t)
    lines = A.roles(seats)
    if lines:
        t = styled("Roles")
        for col in ("game", "role", "agent", "seats", "reward", "won"):
            _column(t, col, text=col in ("game", "role", "agent"))
        for line in lines:
            t.add_row(
                plain(line.game),
                plain(line.role),
                plain(line.agent),
                str(line.seats),
                f"{line.mean_reward:.2f}",
                _pct(line.win_rate),
            )
        tables.append(t)
    return tables


@app.command()
def arena(
    db: DbOption = DEFAULT_DB,
    tournament: Annotated[str | None, typer.Option(help="Only games of this tournament.")] = None,
    pool: Annotated[
        str | None,
        typer.Option(
            help="Score --agent against this frozen reference pool of any game (`list`: the pools)."
        ),
    ] = None,
    agent: Annotated[
        str | None, typer.Option(help="The agent to score against --pool (any seat spec).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """MindGames' arena: TrueSkill per game and track, errors and roles of TextArena games."""
    if pool is not None:
        from cli.pools import score_against_pool

        score_against_pool(db, pool, agent, as_json)
        return
    if agent is not None:
        raise UsageError("--agent needs --pool")
    from projections.textarena import arena as A

    with _open(db) as store:
        seats = A.load(store, tournament)
    if as_json:
        print(
            json.dumps(
                {
                    "trueskill_game": msgspec.to_builtins(A.trueskill_by(seats, "game")),
                    "trueskill_track": msgspec.to_builtins(A.trueskill_by(seats, "track")),
                    "errors": msgspec.to_builtins(A.error_lens(seats)),
                    "roles": msgspec.to_builtins(A.roles(seats)),
                    "trajectories_game": A.trajectories(seats, "game"),
                    "trajectories_track": A.trajectories(seats, "track"),
                }
            )
        )
        return
    if not seats:
        out.print("No finished TextArena game in this selection.")
        return
    for k, t in enumerate(_tables(seats)):
        if k:
            out.print()
        out.print(t)
