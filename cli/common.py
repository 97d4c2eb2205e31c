"""What every command shares: the app, the consoles, common options, input checks and the
store opener. Command modules import this; none imports another command module."""

from __future__ import annotations

import importlib
import io
import os
import secrets
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any

import msgspec
import typer
from rich.console import Console
from rich.table import Table

from cli.app import app as app
from cli.app import err as err
from cli.app import out as out
from cli.text import plain, styled
from events import catalog
from events.config import MAX_SEED, NAME_RE
from events.store import DEFAULT_DB as DEFAULT_DB
from events.store import DuckStore


def natural_width(table: Table) -> int:
    """How wide `table` prints when nothing has to be cut (its title and caption left out:
    they wrap to the width they are given)."""
    wide = Console(width=10_000, emoji=False, record=True, file=io.StringIO())
    title, caption = table.title, table.caption
    table.title = table.caption = None
    try:
        wide.print(table)
    finally:
        table.title, table.caption = title, caption
    return max((len(line) for line in wide.export_text().splitlines()), default=0)


def table_width() -> int | None:
    """The width tables must fit: $COLUMNS or the terminal's; None when the output goes to a
    pipe or a file without $COLUMNS (then a table prints whole, at its natural width)."""
    if os.environ.get("COLUMNS") or out.is_terminal:
        return out.width
    return None


def print_fitted(
    build: Callable[[Sequence[str] | None], Table], splits: Sequence[Sequence[Sequence[str]]]
) -> None:
    """Print the table `build(None)` if it fits, else the first split whose every part fits
    (`build(columns)` makes a part: the row names again, then those columns), else the last.

    Piped output without $COLUMNS gets the whole table at its natural width, one row a line.
    """
    full = build(None)
    width = table_width()
    need = natural_width(full)
    if width is None:
        Console(width=max(need, 20), emoji=False, file=sys.stdout).print(full)
        return
    if need <= width:
        out.print(full)
        return
    for i, split in enumerate(splits):
        parts = [build(cols) for cols in split]
        if i == len(splits) - 1 or all(natural_width(t) <= width for t in parts):
            for k, t in enumerate(parts):
                if k:
                    out.print()
                out.print(t)
            return
    out.print(full)


def pack_columns(
    cells: Mapping[str, Sequence[str]], names: Sequence[Sequence[str]], width: int
) -> list[tuple[str, ...]]:
    """Columns (in order) packed into as few tables of at most `width` as each fits.

    `cells` holds every value column's header and cells; `names` the cells of the columns
    every table repeats (agent names and such), each given up to 20 characters (they fold).
    """

    def need(texts: Sequence[str]) -> int:
        return max((len(line) for t in texts for line in t.splitlines()), default=0) + 3

    fixed = 1 + sum(min(need(col), 23) for col in names)
    parts: list[tuple[str, ...]] = []
    current: list[str] = []
    used = fixed
    for header, col in cells.items():
        w = need([header, *col])
        if current and used + w > width:
            parts.append(tuple(current))
            current, used = [], fixed
        current.append(header)
        used += w
    if current:
        parts.append(tuple(current))
    return parts


DbOption = Annotated[
    Path, typer.Option("--db", help="DuckDB file holding the games.", envvar="CATTLE_DB")
]
DEMO_AGENTS = "tracker,setrace,economy,random"
SEED_RANGE = f"0 to {MAX_SEED} (2**63 - 1)"
SEED_HELP = f"{SEED_RANGE}; default: random"
PresetOption = Annotated[
    str | None,
    typer.Option(
        help="Shipped preset of the game (default: the game's standard one; an unknown name"
        " lists the game's presets)."
    ),
]
GameOption = Annotated[
    str | None,
    typer.Option("--game", help="The game (default cattle-trade; an unknown name lists them all)."),
]
PresetFileOption = Annotated[
    Path | None,
    typer.Option(
        "--preset-file",
        help="A preset JSON file of your own (the fields of data/presets/*.json), instead of --preset.",
    ),
]


class UsageError(Exception):
    """A command-line input the user must correct."""


ForceOption = Annotated[
    bool,
    typer.Option(
        "--force",
        help="Write over files this command did not write (never over a database).",
    ),
]


def is_database(path: Path) -> bool:
    """True if `path` is a DuckDB file (its header says so)."""
    try:
        with path.open("rb") as f:
            return f.read(12)[8:12] == b"DUCK"
    except OSError:
        return False


def _same(a: Path, b: Path) -> bool:
    try:
        return a.exists() and b.exists() and os.path.samefile(a, b)
    except OSError:
        return False


def refuse_database(path: Path, flag: str, db: Path) -> None:
    """A `UsageError` if writing `path` would write over a database: the store `db`, or any
    DuckDB file, by name or through a link."""
    if _same(path, db) or is_database(path.resolve()):
        raise UsageError(
            f"{flag} {path} is a database; name another file (a store is never written over)"
        )


def check_out_file(
    path: Path, flag: str, db: Path, *, force: bool, ours: Callable[[Path], bool]
) -> None:
    """Refuse an output file that would replace a database, or an existing file this command
    did not write (`ours` says which it did) unless `force`."""
    refuse_database(path, flag, db)
    target = path.resolve()
    if target.is_file() and not force and not ours(target):
        raise UsageError(
            f"{flag} {path} exists and was not written by this command; name another file,"
            " remove it, or pass --force"
        )


def check_out_folder(path: Path, flag: str, db: Path, *, force: bool, marker: str) -> None:
    """Refuse an output folder that is a file, or that holds files and is not one this
    command wrote (it holds `marker`) unless `force`."""
    if path.exists() and not path.is_dir():
        raise UsageError(f"{flag} {path} is a file; name a folder")
    if path.is_dir() and any(path.iterdir()) and not (path / marker).is_file() and not force:
        raise UsageError(
            f"{flag} {path} holds other files; name a new or empty folder, one this command"
            " wrote before, or pass --force"
        )


def replace_file(path: Path, flag: str, db: Path) -> None:
    """Make way for writing `path` anew: refuse a database, then remove what is there (a
    link is removed, never written through)."""
    refuse_database(path, flag, db)
    if path.is_symlink() or path.is_file():
        path.unlink()


# ---------------------------------------------------------------------------- helpers


def _open(db: Path, *, write: bool = False, init: bool = False) -> DuckStore:
    """The store at `db`, read-only unless `write` (`init`: adopt a foreign DuckDB file)."""
    return DuckStore(db, read_only=not write, init=init)


InitOption = Annotated[
    bool,
    typer.Option(
        "--init",
        help="Add the game tables to a DuckDB file that already holds other tables.",
    ),
]


def in_range(flag: str, value: int, lo: int, hi: int) -> int:
    """`value` if lo <= value <= hi, else a `UsageError` that states the range."""
    if not lo <= value <= hi:
        raise UsageError(f"{flag} must be between {lo:,} and {hi:,}, got {value:,}")
    return value


def seed_or_random(seed: int | None, flag: str = "--seed") -> int:
    """The seed given (checked against the range the store holds), or a fresh random one."""
    if seed is None:
        return secrets.randbelow(2**31)
    if not 0 <= seed <= MAX_SEED:
        raise UsageError(f"{flag} must be between 0 and {MAX_SEED} (2**63 - 1), got {seed}")
    return seed


def game_def(name: str | None) -> catalog.GameDef:
    """The definition of the game `--game` names (the default game for None)."""
    try:
        return catalog.get(name)
    except catalog.UnknownGame as exc:
        raise UsageError(f"--game: {exc}") from None


def family_cli(g: catalog.GameDef) -> Any | None:
    """The command-line parts of a game's family (a module its definition names in
    `extras["cli"]`, imported here: the shared commands reach a family only this way)."""
    path = g.extras.get("cli")
    return importlib.import_module(path) if isinstance(path, str) else None


def family_hooks(name: str) -> Any:
    """The analysis hooks of a family of games (`--game gamebench`), found by the module path
    the catalogue gives (the shared commands reach a family only this way)."""
    path = catalog.family_analysis(name)
    if path is None:
        raise UsageError(f"--game: {name!r} is not a family of games")
    return importlib.import_module(path).HOOKS


def family_selection(family: str, tournament: str | None, game_ids: Sequence[str] | None) -> Any:
    """The selection of every game of `family` (of one tournament, or of the ids given)."""
    from projections.metrics.aggregate import Selection

    members = tuple(g.name for g in catalog.family(family))
    return Selection(tournament=tournament, games=tuple(game_ids or ()), game=None, among=members)


def analysis_hooks(g: catalog.GameDef) -> Any:
    """The analysis `metrics` and `report` run for a game other than Cattle Trade: its own,
    else the generic two-seat one (NRA, completion rate, W/D/L, TrueSkill)."""
    hooks = g.extras.get("analysis")
    family = catalog.family_of(g.name)
    if hooks is None and family is not None:
        # A game of a family analysed together (gamebench:pit) has its family's analysis.
        return family_hooks(family)
    if hooks is None:
        from projections.two_seat.report import HOOKS

        hooks = HOOKS
    return hooks


def _config(
    preset: str | None,
    mode: str | None,
    max_turns: int | None = None,
    preset_file: Path | None = None,
    game: str | None = None,
) -> Any:
    g = game_def(game)
    carried = carried_config(game)
    if carried is not None:
        if preset is not None or preset_file is not None:
            raise UsageError(f"--game {game} names its configuration; drop --preset/--preset-file")
        return _other_config(g, None, mode, max_turns, None, carried)
    hooks = family_cli(g)
    if hooks is None or not hasattr(hooks, "config"):
        return _other_config(g, preset, mode, max_turns, preset_file)
    return hooks.config(preset, mode, max_turns, preset_file)


MAX_CONFIG_BYTES = 64 * 1024
"""A configuration file is a few hundred bytes; anything far larger is not one."""


def carried_config(name: str | None) -> Any:
    """The configuration a game name carries (`gtbench:nim`, `openspiel:GAME_STRING`), or
    None; a bad one (or OpenSpiel missing) is a usage error in one line."""
    if name is None:
        return None  # the default game carries none (and need not be imported to say so)
    try:
        return catalog.resolve(name)[1]
    except catalog.UnknownGame as exc:
        raise UsageError(f"--game: {exc}") from None
    except ValueError as exc:  # ConfigError: an unknown preset, a refused game string
        raise UsageError(f"--game: {exc}") from None


def _other_config(
    g: catalog.GameDef,
    preset: str | None,
    mode: str | None,
    max_turns: int | None,
    preset_file: Path | None,
    carried: Any = None,
) -> Any:
    """A configuration of a game other than Cattle Trade (its presets, or a JSON file)."""
    for flag, value in (("--mode", mode), ("--max-turns", max_turns)):
        if value is not None:
            raise UsageError(f"{flag} is a Cattle Trade option; {g.name} does not take it")
    if carried is not None:
        return carried
    if preset_file is not None:
        if preset is not None:
            raise UsageError("give either --preset or --preset-file, not both")
        return _config_file(g, Path(preset_file))
    try:
        return g.preset(preset or g.default_preset)
    except KeyError as exc:
        raise UsageError(f"--preset: {exc.args[0]}") from None


def _config_file(g: catalog.GameDef, path: Path) -> Any:
    """A configuration of game `g` from a JSON file, checked as strictly as a shipped preset:
    a regular file of at most 64 KB, no field the configuration lacks, a plain name that is
    not a shipped preset's unless the settings are that preset's, and the game's own checks."""
    if not path.is_file():
        raise UsageError(
            f"no configuration file at {path}" + (" (not a regular file)" if path.exists() else "")
        )
    try:
        with path.open("rb") as f:
            data = f.read(MAX_CONFIG_BYTES + 1)
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from None
    if len(data) > MAX_CONFIG_BYTES:
        raise UsageError(f"{path} is not a {g.name} configuration (larger than 64 KB)")
    try:
        config: Any = msgspec.json.decode(data, type=g.config_type, strict=True)
        unknown = _unknown_field(msgspec.json.decode(data), msgspec.to_builtins(config))
    except msgspec.MsgspecError as exc:
        raise UsageError(f"{path}: not a {g.name} configuration: {exc}") from None
    if unknown is not None:
        raise UsageError(f"{path}: not a {g.name} configuration: unknown field {unknown}")
    name = getattr(config, "name", None)
    if not isinstance(name, str) or not NAME_RE.match(name):
        raise UsageError(
            f"{path}: the name {shown_name(name)} is not a plain identifier (lower-case letters,"
            " digits, '-' and '_', starting with a letter, up to 40)"
        )
    shipped = g.presets().get(name)
    if shipped is not None and config != shipped:
        raise UsageError(
            f"{path}: the name {name!r} belongs to a shipped {g.name} preset with other"
            " settings; give the file a name of its own"
        )
    try:
        return config.validate()
    except ValueError as exc:  # ConfigError, or a game's own ValueError
        raise UsageError(f"{path}: {exc}") from None


def _unknown_field(raw: Any, known: Any, where: str = "") -> str | None:
    """The path of the first key of `raw` that `known` (the decoded configuration) lacks."""
    if not isinstance(raw, dict) or not isinstance(known, dict):
        return None
    for key, value in raw.items():
        path = f"{where}.{key}" if where else str(key)
        if key not in known:
            return repr(path if len(path) <= 60 else path[:57] + "...")
        found = _unknown_field(value, known[key], path)
        if found is not None:
            return found
    return None


def shown_name(name: Any) -> str:
    """A name from a file, quoted and shortened for a message."""
    text = repr(name)
    return text if len(text) <= 60 else text[:57] + "..."


def _agents(text: str | None, players: int) -> list[str]:
    """The seat list of `--agents`: one name fills every seat, `NAME*N` stands for N seats."""
    if not text:
        return ["random"] * players
    specs: list[str] = []
    for part in (s.strip() for s in text.split(",")):
        if not part:
            continue
        name, star, count = part.rpartition("*")
        if not star or not count.isdigit():
            specs.append(part)
        elif not name or not 1 <= int(count) <= players:
            raise UsageError(
                f"--agents: {shown_name(part)} should be NAME*N with N from 1 to {players}"
            )
        else:
            specs.extend([name] * int(count))
    if len(specs) == 1 and players > 1 and "*" not in text:
        return specs * players
    if len(specs) != players:
        raise UsageError(
            f"--agents needs {players} agents for this game (got {len(specs)}): one name for"
            " every seat, a comma-separated list, or counts such as"
            f" {_counts_example(specs, players)}"
        )
    return specs


def _counts_example(specs: list[str], players: int) -> str:
    """`A*k,B*m` over the names given, adding up to `players`."""
    names = list(dict.fromkeys(specs)) or ["random"]
    if len(names) == 1 or players < 2:
        return f"{names[0]}*{players}"
    first = players - players // 2
    return f"{names[0]}*{first},{names[1]}*{players - first}"


BOUND_REASONS = {
    "max_turns": "the turn limit was reached",
    "max_decisions": "the decision limit was reached",
}
"""End reasons every game may have: the bounds the driver holds each game to."""


def end_words(game: Any, reason: str) -> str:
    """How a game ended, in words: the game's own wording of its stored end reason, the
    bounds' wording, or the reason as stored (TextArena's are sentences already)."""
    own = game.extras.get("end_reasons", {})
    return own.get(reason) or BOUND_REASONS.get(reason) or reason


def plural(n: int, noun: str, many: str | None = None) -> str:
    """`1 card`, `2 cards` (`many` for a plural other than noun + s)."""
    return f"{n:,} {noun if n == 1 else many or noun + 's'}"


def _score_table(game_id: str, record: Any) -> Table:
    result = record.result
    table = styled(plain(f"Game {game_id} (seed {record.seed})"))
    table.add_column("rank", justify="right")
    table.add_column("seat", justify="right")
    table.add_column("agent", overflow="fold")
    table.add_column("score", justify="right")
    sets = getattr(result, "sets", None)
    if sets is not None:
        table.add_column("complete sets")
    order = sorted(range(len(result.scores)), key=lambda i: (result.ranks[i], i))
    for i in order:
        row: list[Any] = [
            str(result.ranks[i]),
            str(i),
            plain(record.seats[i].agent),
            score_text(result.scores[i]),
        ]
        if sets is not None:
            row.append(plain(", ".join(sets[i]) or "-"))
        table.add_row(*row)
    turns = getattr(result, "turns", None)
    rounds = getattr(result, "rounds", None)
    length = f"{plural(turns, 'turn')}, " if turns is not None else ""
    length = f"{plural(rounds, 'round')}, " if turns is None and rounds is not None else length
    words = end_words(catalog.for_config(record.config), result.reason)
    table.caption = plain(f"{length}{plural(len(record.events), 'event')}, ended: {words}")
    return table


def config_field(config: Any, key: str) -> Any:
    """A field of a stored configuration: typed, or as stored (a dict) when the store could
    not type it (its game's module is not loaded, or the row names another game)."""
    if isinstance(config, dict):
        return config.get(key)
    return getattr(config, key, None)


def _price(spec: str, prices: Path | None) -> tuple[float, float] | None:
    """The price of a model seat's model from the price table (None for a code agent); a
    model missing from the table is refused in one line (its cost could not be counted)."""
    from agents.llm.spec import PROVIDERS, parse_model_spec
    from projections.costs import load_prices, price_for

    if spec.partition(":")[0] not in PROVIDERS:
        return None
    parsed = parse_model_spec(spec)
    provider, model = parsed.agent.partition(":")[0], str(parsed.options["model"])
    price = price_for(provider, model, load_prices(prices))
    if price is None:
        raise UsageError(
            f"--max-cost: {provider}:{model} has no price in the price table; add it with"
            " --prices FILE (see cattle costs --prices)"
        )
    return price


def setup_text(config: Any) -> str:
    """A configuration in a few words: its preset name (and Cattle Trade's auction mode)."""
    name, mode = config_field(config, "name"), config_field(config, "auction_mode")
    name = "?" if name is None else str(name)
    return f"{name} {mode}" if mode else name


def score_text(score: float) -> str:
    """A score with thousands separators; whole numbers without a decimal point."""
    if isinstance(score, float) and score.is_integer():
        score = int(score)
    if isinstance(score, float):  # a share such as Pit's 0.5252525...: what a reader uses
        return f"{score:,.2f}" if abs(score) < 100 else f"{score:,.1f}"
    return f"{score:,}"


def seat_list(agents: Sequence[str]) -> str:
    """Seats as `--agents` takes them: runs of one agent as NAME*N (`heuristic*3, random*3`)."""
    runs: list[list[Any]] = []
    for a in agents:
        if runs and runs[-1][0] == a:
            runs[-1][1] += 1
        else:
            runs.append([a, 1])
    return ", ".join(a if n == 1 else f"{a}*{n}" for a, n in runs)


HUMAN_TIMEOUT_HELP = (
    "Seconds a human seat has per decision before it plays its default (default: 300)."
)


def human_spec(text: str, seconds: float) -> str:
    """`text` with a human seat's time limit set (other agents unchanged)."""
    if text.split("?", 1)[0].split(":", 1)[0].strip() != "human":
        return text
    from agents.human import text_with_timeout

    try:
        return text_with_timeout(text, seconds)
    except ValueError as exc:
        raise UsageError(f"--human-timeout: {exc}") from None


def human_mark() -> int:
    """The mark to give `human_exit` at a command's start: how many seats of this process
    were abandoned before it."""
    human = sys.modules.get("agents.human")
    return 0 if human is None else int(human.departed())


def human_exit(since: int = 0) -> None:
    """Exit with the documented code when a human seat of this command (abandoned after mark
    `since`) was abandoned: 130 after Ctrl-C, 4 at the end of input (docs/humans.md)."""
    human = sys.modules.get("agents.human")
    if human is None:
        return
    left = human.departures(since)
    if left:
        raise typer.Exit(130 if "interrupted" in left else 4)


def _play(
    db: Path,
    preset: str | None,
    mode: str | None,
    seed: int | None,
    agents: str | None,
    max_turns: int | None,
    init: bool = False,
    preset_file: Path | None = None,
    game: str | None = None,
    max_calls: int | None = None,
    max_tokens: int | None = None,
    max_cost: float | None = None,
    prices: Path | None = None,
    human_timeout: float | None = None,
) -> tuple[str, Any]:
    from runner.session import play_and_store

    seed = seed_or_random(seed)
    config, specs = play_specs(
        preset, mode, agents, max_turns, preset_file, game, max_calls, max_tokens, max_cost, prices
    )
    if human_timeout is not None:
        specs = [human_spec(s, human_timeout) for s in specs]
    with _open(db, write=True, init=init) as store:
        return play_and_store(store, config, seed, specs)


def play_specs(
    preset: str | None,
    mode: str | None,
    agents: str | None,
    max_turns: int | None,
    preset_file: Path | None,
    game: str | None,
    max_calls: int | None,
    max_tokens: int | None,
    max_cost: float | None,
    prices: Path | None,
) -> tuple[Any, list[str]]:
    """The configuration and seat specs `cattle play` plays, its budgets on every model seat."""
    config = _config(preset, mode, max_turns, preset_file, game)
    specs = _agents(agents, config.players)
    for flag, value in (("--max-calls", max_calls), ("--max-tokens", max_tokens)):
        if value is not None and value < 1:
            raise UsageError(f"{flag} must be at least 1, got {value}")
    if max_cost is not None and not 0 < max_cost < float("inf"):
        raise UsageError(f"--max-cost must be more than 0, got {max_cost}")
    if prices is not None and not prices.is_file():
        raise UsageError(f"--prices: no such file {prices}")
    if max_calls or max_tokens or max_cost:
        from agents.llm.spec import with_budgets

        specs = [
            with_budgets(
                s,
                calls=max_calls,
                tokens=max_tokens,
                cost=max_cost,
                price=_price(s, prices) if max_cost else None,
            )
            for s in specs
        ]
    return config, specs
