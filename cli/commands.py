"""The core commands: demo, play, games, show, replay, sql, agents."""

from __future__ import annotations

import csv
import json
import math
import re
import sys
from pathlib import Path
from typing import Annotated, Any

import msgspec
import typer
from rich.cells import cell_len
from rich.table import Table
from rich.text import Text

from cli.common import (
    DEMO_AGENTS,
    HUMAN_TIMEOUT_HELP,
    SEED_HELP,
    DbOption,
    GameOption,
    InitOption,
    PresetFileOption,
    PresetOption,
    UsageError,
    _open,
    _play,
    _score_table,
    app,
    carried_config,
    config_field,
    game_def,
    human_exit,
    human_mark,
    out,
    plural,
    score_text,
    seat_list,
    setup_text,
)
from cli.text import csv_text, hint, line, plain, styled
from events import catalog
from events.config import MAX_TURNS
from events.sandbox import (
    DEFAULT_TIMEOUT,
    SandboxError,
    Stream,
    open_sandboxed,
    run_query,
    streamed,
)
from events.store import DEFAULT_DB

# ---------------------------------------------------------------------------- commands


@app.command()
def demo(
    db: DbOption = DEFAULT_DB,
    seed: Annotated[int | None, typer.Option(help=f"Game seed, {SEED_HELP}.")] = None,
) -> None:
    """Play one standard game (tracker, setrace, economy and random), store it, print the table."""
    with out.status("Playing a standard game..."):
        game_id, record = _play(db, "standard", None, seed, DEMO_AGENTS, None)
    out.print(_score_table(game_id, record))
    out.print(line("Stored in [bold]{}[/].", db))
    # On a line of its own: a long store path never parts the label from the id.
    out.print(line("Game id: [bold cyan]{}[/]", game_id))
    out.print(
        line(
            "Next: [green]{}[/] or [green]{}[/]",
            hint("show", game_id, db=db),
            hint("replay", game_id, "--verify", db=db),
        ),
        soft_wrap=True,  # each command stays whole, to be copied
    )


@app.command()
def play(
    preset: PresetOption = None,
    mode: Annotated[
        str | None, typer.Option(help="Auction mode: canonical, fast or legacy.")
    ] = None,
    seed: Annotated[int | None, typer.Option(help=f"Game seed, {SEED_HELP}.")] = None,
    agents: Annotated[
        str | None,
        typer.Option(help="Comma-separated agent per seat (default: random everywhere)."),
    ] = None,
    max_turns: Annotated[
        int | None, typer.Option(help=f"Override the preset's turn cap (1 to {MAX_TURNS:,}).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON summary.")] = False,
    init: InitOption = False,
    preset_file: PresetFileOption = None,
    game: GameOption = None,
    db: DbOption = DEFAULT_DB,
    max_calls: Annotated[
        int | None,
        typer.Option(help="Budget per model seat: model calls in the game, then its default."),
    ] = None,
    max_tokens: Annotated[
        int | None,
        typer.Option(
            help="Budget per model seat: tokens (in and out) in the game, then its default."
        ),
    ] = None,
    max_cost: Annotated[
        float | None,
        typer.Option(
            help="Budget per model seat: cost in the game (price table's currency), then its"
            " default."
        ),
    ] = None,
    prices: Annotated[
        Path | None,
        typer.Option(help="Price table JSON laid over data/prices.json (for --max-cost)."),
    ] = None,
    human_timeout: Annotated[float | None, typer.Option(help=HUMAN_TIMEOUT_HELP)] = None,
    dry_run: Annotated[
        bool,
        typer.Option(
            "--dry-run",
            help="Call no model and store nothing: print the expected calls, tokens and cost"
            " of each model seat, with what the estimate rests on.",
        ),
    ] = False,
) -> None:
    """Play one game and store it (Cattle Trade unless --game names another).

    A seat given as `human` is played by you at this terminal (docs/humans.md):
    exit code 4 if your input ended before the game did, 130 after Ctrl-C (the
    game is still finished, your seat playing its default action, and stored).
    """
    since = human_mark()
    if dry_run:
        from cli.common import play_specs
        from cli.dryrun import dry_run as estimate

        config, specs = play_specs(
            preset, mode, agents, max_turns, preset_file, game, max_calls, max_tokens, max_cost,
            prices,
        )  # fmt: skip
        estimate(db, config, [tuple(specs)], prices, {}, as_json)
        return
    game_id, record = _play(
        db,
        preset,
        mode,
        seed,
        agents,
        max_turns,
        init,
        preset_file,
        game,
        max_calls,
        max_tokens,
        max_cost,
        prices,
        human_timeout,
    )
    if as_json:
        print(json.dumps(play_summary(game_id, record)))
    else:
        out.print(_score_table(game_id, record))
        out.print(line("Game id: [bold cyan]{}[/]", game_id))
    human_exit(since)


def play_summary(game_id: str, record: Any) -> dict[str, Any]:
    """What `play --json` prints: the game, its seed and every seat's score and rank (plus
    the game's own figures: Cattle Trade's mode, turns and complete sets)."""
    result = record.result
    config = record.config
    summary: dict[str, Any] = {
        "game_id": game_id,
        "game": record.events[0].game,
        "seed": record.seed,
        "preset": config.name,
    }
    sets = getattr(result, "sets", None)
    if hasattr(config, "auction_mode"):
        summary["mode"] = config.auction_mode
    for key in ("turns", "rounds", "trades"):
        if hasattr(result, key):
            summary[key] = getattr(result, key)
    summary["end_reason"] = result.reason
    summary["events"] = len(record.events)
    scores = []
    for i in range(len(result.scores)):
        entry: dict[str, Any] = {
            "seat": i,
            "agent": record.seats[i].agent,
            "score": result.scores[i],
            "rank": result.ranks[i],
        }
        if sets is not None:
            entry["sets"] = list(sets[i])
        scores.append(entry)
    summary["scores"] = scores
    return summary


@app.command()
def games(
    db: DbOption = DEFAULT_DB,
    tournament: Annotated[str | None, typer.Option(help="Only games of this tournament.")] = None,
    limit: Annotated[int, typer.Option(help="Show at most this many (newest); 0 shows all.")] = 50,
    game: Annotated[
        str | None, typer.Option("--game", help="Only games of this game (e.g. pact).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """List the stored games (of every game, or of one with --game)."""
    if limit < 0:
        raise UsageError(f"--limit must be 0 (all) or more, got {limit}")
    name = game_def(game).name if game is not None else None
    carried = carried_config(game)  # `gtbench:nim` lists that game's games only
    with _open(db) as store:
        rows = store.list_games(tournament)
        if name is not None:
            rows = [r for r in rows if r.game == name]
        if carried is not None:
            rows = [r for r in rows if r.config == carried]
        scores: dict[str, dict[int, float]] = {}
        if rows:
            _, srows = store.query("SELECT game_id, seat, score FROM results")
            for gid, seat, score in srows:
                scores.setdefault(gid, {})[seat] = int(score) if score.is_integer() else score
    shown = rows[-limit:] if limit > 0 else rows
    if as_json:
        print(
            json.dumps(
                [
                    {
                        "game_id": r.game_id,
                        "game": r.game,
                        "seed": r.seed,
                        "preset": config_field(r.config, "name"),
                        "mode": config_field(r.config, "auction_mode"),
                        "agents": [s.agent for s in r.seats],
                        "status": r.status,
                        "end_reason": r.end_reason,
                        "events": r.events,
                        "tournament": r.tournament,
                        "scores": [scores.get(r.game_id, {}).get(i) for i in range(len(r.seats))],
                    }
                    for r in shown
                ]
            )
        )
        return
    out.print(_games_table(rows, shown, scores, db, width=out.width))


_GAMES_COLUMNS = ("game id", "game", "preset", "status", "agents", "scores")


def _games_table(
    rows: list[Any],
    shown: list[Any],
    scores: dict[str, dict[int, float]],
    db: Path,
    width: int | None = None,
) -> Table:
    """The stored games as a table (every stored string as plain text), its columns fitted to
    `width` so that no word breaks while whole words can fit."""
    table = styled(
        plain(
            f"{plural(len(rows), 'game')} in {db}"
            + (f" (showing last {len(shown)})" if len(shown) < len(rows) else "")
        )
    )
    cells = [
        [
            plain(r.game_id),
            plain(r.game),
            plain(setup_text(r.config)),
            plain(r.status if not r.tournament else f"{r.status} ({r.tournament})"),
            plain(seat_list([s.agent for s in r.seats])),
            plain(_scores_cell(scores.get(r.game_id, {}), len(r.seats))),
        ]
        for r in shown
    ]
    fitted = _word_widths(cells, width) if width is not None else [None] * len(_GAMES_COLUMNS)
    game_width = fitted[1]
    if game_width is not None:
        # A game name too long for its column breaks after a colon, hyphen or underscore
        # (`gamebench:` / `santorini`, `cattle-` / `trade`), not wherever the column ends.
        for row in cells:
            if cell_len(row[1].plain) > game_width:
                lines = [""]
                for part in _words(row[1].plain, 1):
                    if lines[-1] and cell_len(lines[-1] + part) > game_width:
                        lines.append("")
                    lines[-1] += part
                row[1] = Text("\n".join(lines), style=row[1].style)
    for i, (col, fit) in enumerate(zip(_GAMES_COLUMNS, fitted, strict=True)):
        # The id never wraps (people copy it); seeds, event counts and times are in --json.
        # A word longer than its column's share (an agent spec) still folds rather than lose
        # its end.
        table.add_column(col, width=fit, no_wrap=i == 0, overflow="fold")
    for row in cells:
        table.add_row(*row)
    return table


def _scores_cell(scores: dict[int, float], seats: int) -> str:
    return " / ".join(score_text(scores[i]) if i in scores else "-" for i in range(seats))


def _word_widths(cells: list[list[Text]], width: int) -> list[int | None]:
    """Column widths for a table of `cells` within `width` columns: rich narrows the
    widest columns first, below their longest word (`cattle-tr` / `ade`); this narrows the
    widest column that still has room above its longest word instead; when even the longest
    words do not fit, the widest column breaks its longest word. None where a column keeps
    its natural width."""
    columns = list(zip(*cells, strict=True)) if cells else []
    if not columns:
        return [None] * len(_GAMES_COLUMNS)
    heads = _GAMES_COLUMNS
    natural = [
        max(cell_len(heads[i]), *(max(map(cell_len, c.plain.split("\n"))) for c in col))
        for i, col in enumerate(columns)
    ]

    def floors(split: bool) -> list[int]:
        got = [
            max(
                cell_len(heads[i]),
                *(max(map(cell_len, _words(c.plain, i, split)), default=0) for c in col),
            )
            for i, col in enumerate(columns)
        ]
        got[0] = natural[0]  # the id never wraps
        return got

    # Whole words first; then game names may break after a separator; then, when even that
    # does not fit, the widest column breaks its longest word.
    tiers = [floors(False), floors(True)]
    # The shared style parts two columns by two spaces and draws no frame around them.
    room = width - 2 * (len(columns) - 1)
    widths = list(natural)
    while sum(widths) > room:
        slack = [w - f for w, f in zip(widths, tiers[0], strict=True)]
        if max(slack) > 0:
            i = max(range(len(widths)), key=lambda k: widths[k] if slack[k] > 0 else -1)
        elif len(tiers) > 1:
            tiers.pop(0)
            continue
        else:
            i = max(range(1, len(widths)), key=lambda k: widths[k])
            if widths[i] <= 4:
                return [None] * len(columns)
        widths[i] -= 1
    return [w if w < n else None for w, n in zip(widths, natural, strict=True)]


def _words(text: str, column: int, split: bool = True) -> list[str]:
    """The parts of a cell that must not break: its words, and with `split` in the game
    column the parts of a name between colons, hyphens and underscores (`gamebench:` and
    `santorini`, `cattle-` and `trade`)."""
    words = text.split()
    if column == 1 and split:
        words = [part for w in words for part in re.findall(r"[^:_-]+[:_-]?|[:_-]", w)]
    return words


def _seat_arg(seat: int | None, players: int) -> None:
    if seat is not None and not 0 <= seat < players:
        raise UsageError(f"--seat must be between 0 and {players - 1}")


@app.command()
def show(
    game_id: Annotated[str, typer.Argument(help="Game id (a unique prefix is enough).")],
    seat: Annotated[int | None, typer.Option(help="Show the game as this seat saw it.")] = None,
    db: DbOption = DEFAULT_DB,
) -> None:
    """Print a game's timeline, complete or as one seat saw it."""
    from projections.seeds import seedless_text, withheld_seed
    from projections.timeline import timeline

    with _open(db) as store:
        row = store.get_game(game_id)
        events = store.load_events(row.game_id)
        # A seat's view leaves out the seed of a game in play (it tells the chance to come).
        secret = withheld_seed(store.con, row.game_id) if seat is not None else None
    _seat_arg(seat, row.config.players)
    who = "everything" if seat is None else f"as seen by seat {seat}"
    out.print(line("[bold]Game {}[/] ({})", row.game_id, who))
    lines = [
        (seq, e, seedless_text(_tag(e), text, secret)) for seq, e, text in timeline(events, seat)
    ]
    for entry in _timeline_lines(lines):
        out.print(entry, highlight=False)
    render = catalog.get(row.game).extras.get("render")
    if render is not None:  # the game draws its position (the board of board games)
        for text in render(events, seat):
            out.print(plain(text), highlight=False)


def _tag(event: Any) -> str:
    """An event's type tag."""
    config = getattr(type(event), "__struct_config__", None)
    return str(config.tag) if config is not None else ""


def _timeline_lines(lines: Any) -> list[Text]:
    """Timeline entries as numbered lines of plain text (they quote agents and models)."""
    return [plain(f"{seq:>5}  {text}") for seq, _, text in lines]


@app.command()
def replay(
    game_id: Annotated[str, typer.Argument(help="Game id (a unique prefix is enough).")],
    verify: Annotated[
        bool, typer.Option("--verify", help="Re-simulate and compare byte for byte.")
    ] = False,
    to: Annotated[int | None, typer.Option("--to", help="Stop after this event seq.")] = None,
    seat: Annotated[
        int | None, typer.Option(help="Show this seat's observation instead of the full state.")
    ] = None,
    allow_unfinished: Annotated[
        bool,
        typer.Option(
            "--allow-unfinished",
            help="With --verify: accept a running or abandoned game that is a consistent prefix.",
        ),
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    db: DbOption = DEFAULT_DB,
) -> None:
    """Show the state (or a seat's observation) at any point, or verify a stored game."""
    from projections.replay import observation_at, state_at

    if verify:
        if to is not None or seat is not None:
            raise UsageError("--verify checks the whole game; drop --to and --seat")
        from cli.verify import verify_one

        code = verify_one(db, game_id, as_json=as_json, allow_unfinished=allow_unfinished)
        raise typer.Exit(code)
    with _open(db) as store:
        row = store.get_game(game_id)
        events = store.load_events(row.game_id)
    _seat_arg(seat, row.config.players)
    if to is not None and not 0 <= to < len(events):
        raise UsageError(f"--to must be between 0 and {len(events) - 1}")
    cattle = row.game == catalog.DEFAULT_GAME
    if seat is not None:
        obs = observation_at(events, seat, to)
        data = msgspec.to_builtins(obs)
        if as_json:
            print(json.dumps(data))
            return
        if not cattle:
            out.print(
                line(
                    "[bold]Seat {} after event {}[/]",
                    seat,
                    to if to is not None else len(events) - 1,
                )
            )
            _print_json(data)
            return
        for part in _observation_view(data):
            out.print(part)
        return
    state = state_at(events, to)
    state_data = catalog.get(row.game).extras.get("state_data")
    data = state_data(state) if state_data is not None else msgspec.to_builtins(state)
    data["pending"] = msgspec.to_builtins(catalog.get(row.game).rules.pending(state))
    if not cattle:
        if as_json:
            print(json.dumps(data))
            return
        out.print(line("[bold]State after event {}[/]", to if to is not None else len(events) - 1))
        _print_json(data)
        return
    data.pop("deck", None)
    data["deck_left"] = state.deck_left
    if as_json:
        print(json.dumps(data))
        return
    for part in _state_view(state, data, to if to is not None else len(events) - 1):
        out.print(part)


def _print_json(data: Any) -> None:
    """A value as indented JSON, line by line, as plain text (it holds the players' words)."""
    for text in json.dumps(data, indent=2).splitlines():
        out.print(plain(text), highlight=False)


def _state_view(state: Any, data: dict[str, Any], seq: int) -> list[Any]:
    """What `replay` prints for the full state: a heading, the seats table, the next decision."""
    parts: list[Any] = [
        line(
            f"[bold]State after event {seq}[/]: turn {state.turn}, phase {{}},"
            f" deck {plural(state.deck_left, 'card')} left",
            state.phase,
        )
    ]
    table = styled()
    for col in ("seat", "agent", "money", "money cards", "animals", "complete sets", "score"):
        table.add_column(col, overflow="fold")
    scores = state.scores()
    for i in range(state.players):
        animals = ", ".join(
            f"{n}x {a}" for a, n in zip(state.config.animals, state.animals[i], strict=True) if n
        )
        table.add_row(
            str(i),
            plain(state.seats[i].agent if state.seats else ""),
            str(sum(state.money[i])),
            ", ".join(map(str, state.money[i])),
            plain(animals or "-"),
            plain(", ".join(state.sets[i]) or "-"),
            str(scores[i]),
        )
    parts.append(table)
    if data.get("pending"):
        parts.append(plain(f"Waiting for: {json.dumps(data['pending'])}"))
    return parts


def _observation_view(data: dict[str, Any]) -> list[Any]:
    """What `replay --seat` prints: the seat's own holdings, the players table, the question."""
    parts: list[Any] = [
        f"[bold]Seat {data['seat']}[/] at turn {data['turn']} (active: {data['active']},"
        f" deck: {data['deck_left']})",
        plain(f"Money: {sum(data['money'])} in cards {data['money']}"),
        plain(f"Animals: {data['animals']}"),
    ]
    table = styled("Players")
    for col in ("seat", "animals", "money cards", "complete sets", "revealed money"):
        table.add_column(col, overflow="fold")
    for p in data["players"]:
        table.add_row(
            str(p["seat"]),
            plain(", ".join(f"{n}x {a}" for a, n in p["animals"].items()) or "-"),
            str(p["money_cards"]),
            plain(", ".join(p["sets"]) or "-"),
            str(p["revealed_money"]) if p["revealed_money"] is not None else "-",
        )
    parts.append(table)
    if data["targets"]:
        targets = ", ".join(f"player {s} ({a})" for s, a in data["targets"])
        parts.append(plain(f"Trade targets: {targets}"))
    if data["pending"]:
        parts.append(plain(f"Asked: {json.dumps(data['pending'])}"))
    return parts


MAX_TIMEOUT = 86_400.0
"""The longest `--timeout` (a day)."""
TABLE_ROWS = 100_000
"""The most rows the table format holds (it lays out every row before printing any)."""


@app.command()
def sql(
    query: Annotated[str, typer.Argument(help="A SQL query over games, events and the views.")],
    fmt: Annotated[str, typer.Option("--format", help="table, csv or json.")] = "table",
    timeout: Annotated[
        float,
        typer.Option(
            help="Stop the query after this many seconds (0: no time limit; memory stays capped)."
        ),
    ] = DEFAULT_TIMEOUT,
    max_rows: Annotated[
        int,
        typer.Option(
            help=f"Rows shown in the table format (0: up to {TABLE_ROWS:,}); csv and json give all."
        ),
    ] = 1000,
    db: DbOption = DEFAULT_DB,
) -> None:
    """Run one read-only SQL query over the store, in a sandbox that cannot change anything."""
    if fmt not in ("table", "csv", "json"):
        raise UsageError(f"--format must be table, csv or json, got {fmt!r}")
    if not 0 <= timeout <= MAX_TIMEOUT:  # nan and inf too
        raise UsageError(
            f"--timeout must be a number of seconds from 0 to {MAX_TIMEOUT:,.0f}"
            f" (0: no time limit), got {timeout}"
        )
    if max_rows < 0:
        raise UsageError("--max-rows must be 0 or more")
    limit = min(max_rows or TABLE_ROWS, TABLE_ROWS)
    con = open_sandboxed(db, timeout=timeout or None)
    try:
        if fmt == "table":
            result = run_query(con, query, timeout=timeout or None, max_rows=limit)
        else:
            with streamed(con, query, timeout=timeout or None, as_json=fmt == "json") as stream:
                (_write_json if fmt == "json" else _write_csv)(stream)
            return
    except SandboxError as exc:
        raise UsageError(str(exc)) from None
    finally:
        con.close()
    cols, rows = result.columns, result.rows
    out.print(_sql_table(cols, rows))
    # Below the table rather than as its caption, which would wrap to a narrow table's width.
    if result.truncated:
        more = "--max-rows 0 shows all" if limit < TABLE_ROWS else "csv and json give all rows"
        out.print(f"first {plural(len(rows), 'row')} shown; {more}", highlight=False)
    else:
        out.print(plural(len(rows), "row"), highlight=False)


def _write_csv(stream: Stream) -> None:
    """The rows as CSV, a batch at a time; control characters other than tab and newline
    written as escapes (\\x1b), so that no value can act on the terminal."""
    w = csv.writer(sys.stdout, lineterminator="\n")
    w.writerow([csv_text(c.name) for c in stream.columns])
    for batch in stream.batches():
        w.writerows([csv_text(v) for v in row] for row in batch)


def _write_json(stream: Stream) -> None:
    """The rows as one JSON array of objects, a batch at a time (control characters escaped,
    as JSON does; nan and the infinities as the strings "nan", "inf", "-inf")."""
    names = [c.name for c in stream.columns]
    raw = [c.kind == "json" for c in stream.columns]
    sys.stdout.write("[")
    first = True
    for batch in stream.batches():
        parts = []
        for row in batch:
            # A name given twice keeps its first place and its last value, as a dict would.
            fields: dict[str, str] = {}
            for name, value, is_raw in zip(names, row, raw, strict=True):
                fields[name] = (
                    _finite_json(value) if is_raw and value is not None else _json_value(value)
                )
            parts.append("{" + ", ".join(f"{json.dumps(k)}: {v}" for k, v in fields.items()) + "}")
        if parts:
            sys.stdout.write(("" if first else ", ") + ", ".join(parts))
            first = False
    sys.stdout.write("]\n")


_NON_FINITE = re.compile(r'"(?:[^"\\]|\\.)*"|-?Infinity|NaN')
"""A JSON string literal, or one of the non-finite numbers DuckDB writes bare inside lists,
structs and maps (which JSON has no words for)."""
_AS_TEXT = {"NaN": '"nan"', "Infinity": '"inf"', "-Infinity": '"-inf"'}


def _finite_json(text: str) -> str:
    """DuckDB's JSON of a nested value with its bare NaN and infinities written as the strings
    "nan", "inf" and "-inf" (as for a top-level value), so that the output stays JSON."""
    if "NaN" not in text and "Infinity" not in text:
        return text
    return _NON_FINITE.sub(lambda m: _AS_TEXT.get(m.group(0), m.group(0)), text)


def _json_value(value: Any) -> str:
    if isinstance(value, float) and not math.isfinite(value):
        return json.dumps(str(value))
    return json.dumps(value, default=str)


def _sql_table(cols: list[str], rows: list[tuple[Any, ...]]) -> Table:
    """Query results as a table; every value is plain text (a model's answer may hold "[/]")."""
    table = styled()
    numeric = [
        any(v is not None for v in col) and all(v is None or _is_number(v) for v in col)
        for col in zip(*rows, strict=True)
    ] or [False] * len(cols)
    for c, right in zip(cols, numeric, strict=True):
        table.add_column(plain(c), justify="right" if right else "left")
    for r in rows:
        table.add_row(*(plain("NULL" if v is None else _shown_number(v)) for v in r))
    return table


def _is_number(value: Any) -> bool:
    import decimal

    return isinstance(value, int | float | decimal.Decimal) and not isinstance(value, bool)


def _shown_number(value: Any) -> Any:
    """A number as a table shows it: a fraction rounded to what a reader can use (2 decimals,
    or 4 significant digits below 1); csv and json keep every digit."""
    import decimal

    if isinstance(value, float | decimal.Decimal) and not isinstance(value, bool):
        f = float(value)
        if not math.isfinite(f):
            return value
        if f == int(f) and abs(f) < 1e15:
            return f"{int(f)}"
        if abs(f) >= 1e15:
            return f"{f:.6g}"
        return f"{f:.2f}" if abs(f) >= 1 else f"{f:.4g}"
    return value


@app.command()
def agents(game: GameOption = None) -> None:
    """List the agent names --agents accepts in a game (Cattle Trade unless --game)."""
    from agents import known_agents

    g = game_def(game)
    names = known_agents(g)
    # A game name that carries a configuration (`mindgames:blotto`) lists only the code
    # agents that take a seat there, when its family can tell (`extras["plays"]`).
    plays = g.extras.get("plays")
    if plays is not None:
        carried = carried_config(game)
        if carried is not None:
            names = [n for n in names if n not in g.code_agents or plays(n, carried)]
    for name in names:
        out.print(plain(name))
