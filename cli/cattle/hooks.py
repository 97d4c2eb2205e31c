"""What the shared commands run for Cattle Trade, found through its definition
(`extras["cli"]`): its configuration options (`--preset`, `--mode`, `--max-turns`,
`--preset-file`), its behaviour table (`cattle metrics`) and its HTML report (`cattle report`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cli.common import UsageError, err, in_range, out
from cli.selection import finished_games, open_for_metrics, other_games_hint
from cli.text import hint, line, plain, shown
from engine.cattle.presets import MAX_TURNS, load_preset, load_preset_file
from events.cattle.domain import AUCTION_MODES

if TYPE_CHECKING:
    from projections.metrics.tables import Cell

GAME = "cattle-trade"


def config(
    preset: str | None, mode: str | None, max_turns: int | None, preset_file: Path | None
) -> Any:
    """The configuration the options ask for: a shipped preset or a preset file, with the
    auction mode and turn cap overridden when given."""
    overrides: dict[str, Any] = {}
    if mode is not None:
        if mode not in AUCTION_MODES:
            raise UsageError(f"--mode must be one of {', '.join(AUCTION_MODES)}, got {mode!r}")
        overrides["auction_mode"] = mode
    if max_turns is not None:
        overrides["max_turns"] = in_range("--max-turns", max_turns, 1, MAX_TURNS)
    if preset_file is not None:
        if preset is not None:
            raise UsageError("give either --preset or --preset-file, not both")
        return load_preset_file(preset_file, **overrides)
    return load_preset(preset or "standard", **overrides)


def metrics(
    tournament: str | None,
    game_id: list[str] | None,
    as_json: bool,
    rebuild: bool,
    save: bool,
    definitions: bool,
    resamples: int,
    db: Path,
) -> None:
    """`cattle metrics` for Cattle Trade: the behaviour table (the paper's Table 3 columns and
    more), rebuilt from events when stale."""
    from projections.cattle.metrics import build, profiles
    from projections.cattle.metrics.registry import metrics as all_metrics
    from projections.metrics.aggregate import Selection

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
        sel = Selection(tournament=tournament, games=tuple(game_id or ()))
        if tournament is not None and not store.list_games(tournament):
            raise UsageError(f"no games in tournament {tournament!r}")
        profs = profiles.profiles(
            store.con, sel, keyed=("bid_aggressiveness_phase",), resamples=resamples
        )
    if as_json:
        docs = []
        for p in profs:
            doc = profiles.profile_json(p)
            phase = doc.pop("bid_aggressiveness_phase", {})
            doc["bid_aggressiveness_early"] = phase.get("early")
            doc["bid_aggressiveness_late"] = phase.get("late")
            docs.append(doc)
        print(json.dumps(docs))
        return
    if not profs:
        hint = other_games_hint(store.con, GAME, tournament, game_id or ())
        if hint:
            out.print(plain(f"No finished {GAME} games in this selection{hint}."))
        else:
            out.print("No finished games in this selection.")
        return
    parts = _metrics_parts(profs, tournament, out.width)
    for k, part in enumerate(parts):
        if k:
            out.print()
        out.print(part, highlight=False)


def _cell(est: Any, percent: bool) -> Cell:
    """A figure, with its interval for the dimmed line below when it has one."""
    if est is None or est.value is None:
        return "-"
    has_interval = est.lo is not None and est.hi is not None and est.lo != est.hi
    if percent:
        interval = f"{100 * est.lo:.1f}–{100 * est.hi:.1f}" if has_interval else ""
        return (f"{100 * est.value:.1f}%", interval)
    digits = 0 if abs(est.value) >= 100 else 2
    interval = f"{est.lo:,.{digits}f}–{est.hi:,.{digits}f}" if has_interval else ""
    return (f"{est.value:,.{digits}f}", interval)


def _metrics_parts(profs: list[Any], tournament: str | None, width: int) -> list[Any]:
    """The behaviour table fitted to `width` (split by columns into parts that each repeat the
    agent names when too wide), then a note on its columns; names print as plain text."""
    from projections.cattle.metrics import profiles
    from projections.cattle.metrics.registry import get
    from projections.metrics import tables as T

    title = (
        "Behaviour profile"
        + (f" (tournament {shown(tournament)})" if tournament else "")
        + ": point estimate, 95% bootstrap interval below"
    )
    head = ["agent", "games", *(get(n).label for n in profiles.TABLE_METRICS)]
    rows = [
        [
            p.agent,
            str(p.games),
            *(_cell(p.metrics.get(n), get(n).percent) for n in profiles.TABLE_METRICS),
        ]
        for p in profs
    ]
    note = f"games = seat-games; definitions: {hint('metrics', '--definitions')}"
    return [*T.fitted(T.Grid(title, head, rows), width, shown), T.prose(note)]


def report(
    tournament: str | None, game_id: list[str] | None, title: str | None, resamples: int, db: Path
) -> tuple[str, Any]:
    """`cattle report` for Cattle Trade: the page and what it covered."""
    from projections.cattle.metrics import build
    from projections.cattle.metrics.report import build_report
    from projections.metrics.aggregate import Selection

    with open_for_metrics(db) as store:
        if tournament is not None and not store.list_games(tournament):
            raise UsageError(f"no games in tournament {tournament!r}")
        with out.status("Rebuilding derived tables..."):
            stats = build.ensure(store.con)
        if stats is not None:
            err.print(
                f"rebuilt derived tables from {stats.events:,} events in {stats.seconds:.2f}s",
                highlight=False,
            )
        sel = Selection(tournament=tournament, games=tuple(game_id or ()))
        finished = finished_games(store, sel)
        if not finished:
            hint = other_games_hint(store.con, GAME, tournament, game_id or ())
            if hint:
                raise UsageError(f"no finished {GAME} games in this selection{hint}")
            raise UsageError("no finished games in this selection")
        with out.status("Building the report..."):
            page, rstats = build_report(
                store.con,
                sel,
                title=title
                or (f"Cattle Trade: {tournament}" if tournament else "Cattle Trade report"),
                resamples=resamples,
            )
    return page, rstats
