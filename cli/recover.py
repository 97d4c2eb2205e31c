"""`cattle recover` and `cattle resume`: games whose writing process died.

A game with model seats is written while it runs. If its process is killed (SIGKILL, a power
cut) the game stays "running" with no one writing it. `recover` finds such games (their
writer's process is gone, or its last write is older than --stale-after on another host) and
marks them abandoned; `resume` continues one from its stored events instead.
"""

from __future__ import annotations

import json
from typing import Annotated

import typer

from cli.common import DEFAULT_DB, DbOption, UsageError, _open, app, out
from cli.text import hint, line, plain, styled
from projections.metrics.tables import plural


@app.command()
def recover(
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Only list the games; change nothing.")
    ] = False,
    stale_after: Annotated[
        float,
        typer.Option(
            help="A writer on another host counts as gone after this many seconds without writing.",
            min=0,
        ),
    ] = 3600.0,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    db: DbOption = DEFAULT_DB,
) -> None:
    """Mark games left running by a process that died as abandoned (events are kept)."""
    with _open(db, write=not dry_run) as store:
        running = [r for r in store.list_games() if r.status == "running"]
        orphans = [r for r in running if store.orphaned(r.game_id, stale_after)]
        writers = {r.game_id: store.writer(r.game_id) for r in orphans}
        if not dry_run:
            for r in orphans:
                store.end_game(r.game_id, "abandoned", None)
    if as_json:
        docs = []
        for r in orphans:
            found = writers[r.game_id]
            docs.append(
                {
                    "game_id": r.game_id,
                    "tournament": r.tournament,
                    "events": r.events,
                    "writer": found[0].describe() if found else None,
                    "abandoned": not dry_run,
                }
            )
        print(json.dumps(docs))
        return
    if not orphans:
        alive = len(running)
        out.print(
            "No game was left behind."
            + (
                f" {plural(alive, 'game')} {'is' if alive == 1 else 'are'} being played by"
                " live processes."
                if alive
                else ""
            )
        )
        return
    t = styled(f"{plural(len(orphans), 'game')} whose writer is gone")
    for col in ("game id", "tournament", "events", "writer", "last write"):
        t.add_column(col)
    for r in orphans:
        found = writers[r.game_id]
        t.add_row(
            plain(r.game_id),
            plain(r.tournament or "-"),
            str(r.events),
            plain(found[0].describe()) if found else "unknown",
            found[1].strftime("%Y-%m-%d %H:%M:%S") if found else "-",
        )
    out.print(t)
    if dry_run:
        out.print("Nothing changed (--dry-run).")
    else:
        out.print("Marked abandoned; their events are kept.")
    tours = sorted({r.tournament for r in orphans if r.tournament})
    for name in tours:
        out.print(
            line(
                "Continue tournament games: [green]{}[/]",
                hint("tournament", "--resume", name, db=db),
            ),
            soft_wrap=True,
        )
    singles = [r.game_id for r in orphans if not r.tournament]
    if singles:
        out.print(
            line("Continue a game: [green]{}[/]", hint("resume", singles[0], db=db)), soft_wrap=True
        )


@app.command()
def resume(
    game_id: Annotated[str, typer.Argument(help="Unfinished game (id or unique prefix).")],
    db: DbOption = DEFAULT_DB,
) -> None:
    """Continue an unfinished game with model seats from its stored events.

    Decisions the log already holds are answered from it (no model is asked again); play
    goes on live from where the log ends.
    """
    import asyncio

    from cli.common import _score_table
    from events.store import StoreError
    from runner.session import needs_io, play_stored
    from runner.verify import continuation_refused

    with _open(db, write=True) as store:
        row = store.get_game(game_id)
        if row.status == "finished":
            raise UsageError(f"game {row.game_id} is finished; there is nothing to continue")
        if row.status == "running" and not store.orphaned(row.game_id):
            found = store.writer(row.game_id)
            who = found[0].describe() if found else "another process"
            raise UsageError(f"game {row.game_id} is still being played by {who}")
        if not needs_io(row.config, row.seed, row.seats):
            raise UsageError(
                f"game {row.game_id} has only code agents; play it again with its seed"
                f" ({row.seed}) instead"
            )
        refused = continuation_refused(store.load_rows(row.game_id))
        if refused:
            raise StoreError(refused)
        before = row.events
        record = asyncio.run(
            play_stored(
                store,
                row.config,
                row.seed,
                row.seats,
                game_id=row.game_id,
                tournament=row.tournament,
                resume=True,
            )
        )
    out.print(_score_table(row.game_id, record))
    out.print(
        line(
            f"Continued game [bold cyan]{{}}[/]: {plural(before, 'event')}"
            f" {'was' if before == 1 else 'were'} stored, {{}} now.",
            row.game_id,
            len(record.events),
        )
    )
