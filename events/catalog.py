"""The catalogue of games: every game the harness hosts is one `GameDef`, registered by name.

A definition gathers what is particular to one game, layer by layer (its events, its rules,
its per-seat view and timeline, its SQL views, its code agents and the prompt and answer
parsing of model seats, its tournament seating, metrics and report section). Everything else
(store, driver, replay and verify, tournaments, model clients, ratings, export) is generic
and reaches a game only through its definition, looked up by the name stored with each game.

The catalogue lives in the lowest layer so that every layer can look a game up, yet it
imports no game: built-in games are named here by module path and imported on first use.
Other games come from packages declaring a `cattle.games` entry point (`name = "module"`,
the module holding `GAME`), from the modules listed in `$CATTLE_GAMES` (comma-separated;
each defines `GAME` or calls `register`), or from `register` called by a script or notebook.

A module that cannot be loaded (missing, broken, raising at import, or claiming a name or
event tags another game holds) costs only its own game: it is left out, and asking for its
game raises `UnknownGame` with the module and the reason. Built-in games always load before
games from elsewhere, so they keep their names and tags.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import msgspec

from events.suggest import did_you_mean

#: Tags every game shares, so that generic views find the start and the end of any game:
#: the first event (`seed`, `config`, `seats`, `engine_version`, `game`) and the last one
#: (`reason`, `scores`, `ranks`, one entry per seat).
START_TAG = "game_started"
END_TAG = "game_ended"

DEFAULT_GAME = "cattle-trade"
"""The game of commands that are not told `--game`, and of logs stored before games had names."""

#: Built-in games: name -> module whose `GAME` attribute is the definition.
_BUILTIN: dict[str, str] = {
    "cattle-trade": "agents.cattle.game",
    "pact": "agents.pact.game",
    "openspiel": "agents.openspiel.game",
    "gamebench:pit": "agents.gamebench.pit",
    "gamebench:santorini": "agents.gamebench.santorini",
    "gamebench:hive": "agents.gamebench.hive",
    "gamebench:codenames": "agents.gamebench.codenames",
    "gamebench:sea_battle": "agents.gamebench.sea_battle",
    "gamebench:two_rooms_and_a_boom": "agents.gamebench.two_rooms",
    "gamebench:arctic_scavengers": "agents.gamebench.arctic_scavengers",
    "gamebench:air_land_sea": "agents.gamebench.air_land_sea",
    "gamebench:are_you_the_traitor": "agents.gamebench.traitor",
    "textarena": "agents.textarena.game",
}

#: The SQL view files of each built-in game (relative to this directory), the same files as
#: its definition's `sql`: a store's views are set up from them without importing every game
#: module (tests/games/test_contract.py checks that the two agree).
_BUILTIN_SQL: dict[str, tuple[str, ...]] = {
    "cattle-trade": ("cattle/views.sql",),
    "pact": ("pact/views.sql",),
    "openspiel": ("openspiel/views.sql",),
    "gamebench:pit": ("gamebench/pit.sql",),
    "gamebench:santorini": ("gamebench/santorini.sql",),
    "gamebench:hive": ("gamebench/hive.sql",),
    "gamebench:codenames": ("gamebench/codenames.sql",),
    "gamebench:sea_battle": ("gamebench/sea_battle.sql",),
    "gamebench:two_rooms_and_a_boom": ("gamebench/two_rooms.sql",),
    "gamebench:arctic_scavengers": ("gamebench/arctic_scavengers.sql",),
    "gamebench:air_land_sea": ("gamebench/air_land_sea.sql",),
    "gamebench:are_you_the_traitor": ("gamebench/traitor.sql",),
    "textarena": ("textarena/views.sql",),
}

#: Where each built-in game's configuration type lives ("module:Class", in the events layer):
#: a stored games row is read typed without importing the game's rules, agents and prompts
#: (tests/games/test_contract.py checks these against the definitions).
_BUILTIN_CONFIG: dict[str, str] = {
    "cattle-trade": "events.cattle.domain:GameConfig",
    "pact": "events.pact.game:PactConfig",
    "openspiel": "events.openspiel.game:OpenSpielConfig",
    "gamebench:pit": "events.gamebench.pit:PitConfig",
    "gamebench:santorini": "events.gamebench.santorini:SantoriniConfig",
    "gamebench:hive": "events.gamebench.hive:HiveConfig",
    "gamebench:codenames": "events.gamebench.codenames:CodenamesConfig",
    "gamebench:sea_battle": "events.gamebench.sea_battle:SeaBattleConfig",
    "gamebench:two_rooms_and_a_boom": "events.gamebench.two_rooms:TwoRoomsConfig",
    "gamebench:arctic_scavengers": "events.gamebench.arctic_scavengers:ArcticConfig",
    "gamebench:air_land_sea": "events.gamebench.air_land_sea:AlsConfig",
    "gamebench:are_you_the_traitor": "events.gamebench.traitor:TraitorConfig",
    "textarena": "events.textarena.game:TextArenaConfig",
}

#: Families of built-in games that some commands take as one (`cattle report --game gamebench`,
#: `cattle tournament --game gamebench`): the family's name -> the module whose `HOOKS` analyse
#: any selection of its games. A family's games are the games named `<family>:<game>`, so a
#: game added under the family's prefix joins it without being listed anywhere else.
_FAMILIES: dict[str, str] = {"gamebench": "projections.gamebench.report"}

#: Names that carry a configuration: the part before the first ':' names the built-in game
#: that reads the rest (`openspiel:breakthrough(columns=3)`, `gtbench:tic_tac_toe`).
_PREFIXES: dict[str, str] = {
    "openspiel": "openspiel",
    "gtbench": "openspiel",
    "textarena": "textarena",
    "mindgames": "textarena",
    "textarena-open": "textarena",
}


class Decision(Protocol):
    """What a game waits for: the seats asked (answering together when several)."""

    @property
    def seats(self) -> tuple[int, ...]:
        """The seats asked, in the order their actions are passed to `step`."""
        ...

    @property
    def kind(self) -> str:
        """A short name of the decision (e.g. "bid"), stored with model exchanges."""
        ...


class Rules(Protocol):
    """A game's rules as a decider over its own (opaque) state."""

    version: str
    """Stored with every game; bump when a rule change alters logs. Rules that can still
    replay games stamped with an earlier version either offer `for_version(version) -> Rules |
    None` (a rules object of that version) or list the versions in an optional `versions` tuple
    and take the one to play by as `start(..., version=...)`; the driver, replay and verify use
    both. Rules may also state `max_decisions(config) -> int`, the hard bound on decisions in
    one game (docs/bounds.md); the driver stops a game that asks more."""

    def start(self, config: Any, seed: int, seats: Sequence[Any]) -> tuple[Any, list[Any]]:
        """The state after set-up and the set-up events (the first one tagged `game_started`)."""
        ...

    def pending(self, state: Any) -> Decision | None:
        """The decision the game waits for, or None once it is over."""
        ...

    def step(self, state: Any, decision: Any, actions: Sequence[Any]) -> tuple[Any, list[Any]]:
        """Apply one action per seat of `decision.seats` (in that order); the state after,
        and the events (every automatic consequence included). Bad input never raises: it is
        recorded as a rejection event and handled by the game's documented fallback."""
        ...

    def evolve(self, state: Any, event: Any) -> Any:
        """Fold one event into the state (events the rules ignore leave it unchanged)."""
        ...

    def fold(self, events: Sequence[Any]) -> Any:
        """The state after a whole log (or a prefix of one)."""
        ...

    def turn_of(self, event: Any, turn: int) -> int:
        """The store's `turn` column for `event`, given the turn of the event before it."""
        ...

    def active(self, state: Any) -> int | None:
        """The seat whose turn is running (agents hear `after_turn` when it changes), if any."""
        ...

    def recorded_action(self, log: Sequence[Any], pos: int, seat: int, decision: Any) -> Any:
        """The action `seat` took for `decision`, read from `log[pos:]` (replays from a log
        need no agent); raises `LookupError` when the log does not hold it."""
        ...


class View(Protocol):
    """A seat's incremental fold of the events it may see."""

    seat: int
    seen: int
    """How many log events were consumed (visible or not)."""
    ended: bool

    @property
    def history(self) -> list[Any]:
        """The events this seat saw, in order (may be built when read)."""
        ...

    def sync(self, log: Sequence[Any], audiences: Sequence[Any] | None = None) -> Any:
        """Consume the events of `log` not seen yet; return the view."""
        ...

    def snapshot(self, pending: Any = None) -> Any:
        """What the seat knows, as a msgspec value (with the decision asked of it, if any)."""
        ...


class Prompter(Protocol):
    """How a model seat plays a game: prompts in, actions out. An optional
    `answer_schema(view, decision) -> dict` gives the JSON schema of an answer; seats with
    `output=json_schema` are refused in one line for a game whose prompter has none."""

    def system_prompt(self, config: Any, character: str | None, seat: int | None = None) -> str:
        """The standing instructions of a seat (`KeyError` for a character the game lacks)."""
        ...

    def decision_prompt(self, view: Any, decision: Any, memory: str, rejection: Any) -> str:
        """The question for one decision, from what the seat may see."""
        ...

    def rejection(self, view: Any, seat: int, kind: str) -> Any:
        """The rules' rejection of this seat's last answer when they ask again, else None."""
        ...

    def parse(self, text: str, decision: Any, seat: int) -> tuple[Any, str, str | None]:
        """(action or None, how it was read, error or None) from a model's answer."""
        ...

    def default_action(self, decision: Any, seat: int) -> Any:
        """The documented action played when no usable answer came."""
        ...

    def action_json(self, action: Any) -> str:
        """An action as JSON (stored in `ActionDefaulted`)."""
        ...

    def truncation_retry_prompt(self, kind: str) -> str:
        """Appended after an answer cut by the token limit."""
        ...

    def format_retry_prompt(self, kind: str, error: str) -> str:
        """The follow-up after an answer that yielded no action."""
        ...

    def notes_lines(self, events: Sequence[Any], seat: int) -> list[str]:
        """New events as lines for a scratchpad update ([] when the game keeps none)."""
        ...

    def notes_prompt(self, notes: str, lines: list[str]) -> str:
        """The scratchpad-update question."""
        ...

    def cap_notes(self, text: str) -> str:
        """A scratchpad answer trimmed to the allowed size."""
        ...


AgentMaker = Callable[[int, int, Any], Any]
"""Builds a code agent from (seat, game seed, config)."""


@dataclass(frozen=True, kw_only=True)
class GameDef:
    """Everything particular to one game. Fields are grouped by the layer that uses them."""

    name: str
    """Stored in `games.game` and in the `game_started` event."""
    title: str
    summary: str
    aliases: tuple[str, ...] = ()
    # events
    event_types: tuple[type, ...]
    """The game's event classes (tagged msgspec Structs with `audience()` and `actor()`)."""
    config_type: type
    """The configuration Struct (with `players`, `name` and `validate()`)."""
    # rules
    rules: Rules
    presets: Callable[[], Mapping[str, Any]]
    """Named configurations."""
    default_preset: str
    # projections
    new_view: Callable[[int], View]
    """A fresh view for a seat."""
    describe: Callable[[Any, int | None], str | None]
    """One line of text for an event, worded for a seat (None: everything); None hides it."""
    sql: tuple[Path, ...] = ()
    """Files of `CREATE OR REPLACE VIEW/MACRO` statements over the generic tables."""
    # agents
    code_agents: Mapping[str, AgentMaker] = field(default_factory=dict)
    prompter: Prompter | None = None
    # runner and analysis (optional)
    extras: Mapping[str, Any] = field(default_factory=dict)
    """Parts only some commands use (metrics, report section, tournament seating)."""

    def preset(self, name: str) -> Any:
        """A named configuration; `KeyError` lists the names."""
        presets = self.presets()
        if name not in presets:
            raise KeyError(
                f"unknown preset {name!r} for {self.name}{did_you_mean(name, presets)};"
                f" known: {', '.join(sorted(presets))}"
            )
        return presets[name]

    @property
    def decoder(self) -> msgspec.json.Decoder[Any]:
        """Decodes any event of this game's logs (its own and the agents' events)."""
        return _decoder(self)


class UnknownGame(KeyError):
    """A game name the catalogue does not know."""

    def __str__(self) -> str:
        return str(self.args[0])


_GAMES: dict[str, GameDef] = {}
_ALIASES: dict[str, str] = {}
_DECODERS: dict[str, msgspec.json.Decoder[Any]] = {}
_LOCK = threading.RLock()
_loaded_entry_points = False


def register(game: GameDef) -> GameDef:
    """Add a game to the catalogue (again with the same definition is harmless).

    Event tags must be unique across games, except the shared start and end tags, so that
    a view filtering on a tag sees one game's events only.
    """
    with _LOCK:
        old = _GAMES.get(game.name)
        if old is game:
            return game
        if old is not None:
            raise ValueError(f"a different game is already registered as {game.name!r}")
        tags = {_tag(t) for t in game.event_types} - {START_TAG, END_TAG}
        for other in _GAMES.values():
            shared = tags & ({_tag(t) for t in other.event_types} - {START_TAG, END_TAG})
            if shared:
                raise ValueError(
                    f"{game.name} reuses event tags of {other.name}: {', '.join(sorted(shared))}"
                )
        for alias in (game.name, *game.aliases):
            if _ALIASES.get(alias, game.name) != game.name:
                raise ValueError(f"game name {alias!r} is taken by {_ALIASES[alias]}")
        _GAMES[game.name] = game
        for alias in (game.name, *game.aliases):
            _ALIASES[alias] = game.name
        return game


def unregister(name: str) -> None:
    """Remove a game (tests that define games of their own clean up with this)."""
    with _LOCK:
        game = _GAMES.pop(name, None)
        _DECODERS.pop(name, None)
        if game is not None:
            for alias in (game.name, *game.aliases):
                _ALIASES.pop(alias, None)


def get(name: str | None = None) -> GameDef:
    """The definition of game `name` (or an alias); the default game for None."""
    key = DEFAULT_GAME if name is None else _base(name)
    failures: list[str] = []
    with _LOCK:
        real = _ALIASES.get(key)
        if real is None:
            failures = _load(key)
            real = _ALIASES.get(key)
        if real is None and key in _PREFIXES:
            raise UnknownGame(
                f"{_shown(key)} names a set of games, not one: give one as {key}:NAME"
            )
        if real is None:
            known = (
                f"unknown game {_shown(key)}{did_you_mean(key, [*names(), *_ALIASES])};"
                f" known: {', '.join(names())}; families (report,"
                f" metrics, tournament): {', '.join(_FAMILIES)}"
            )
            raise UnknownGame("; ".join((known, *failures)))
        return _GAMES[real]


def config_type(name: str) -> type:
    """The configuration type of game `name` (or an alias): a built-in game's is imported on
    its own, without the game's module; any other game is loaded (`UnknownGame` if none)."""
    with _LOCK:
        real = _ALIASES.get(name)
        if real is not None:
            return _GAMES[real].config_type
    where = _BUILTIN_CONFIG.get(name)
    if where is None:
        return get(name).config_type
    module, _, cls = where.partition(":")
    found: type = getattr(importlib.import_module(module), cls)
    return found


def _base(name: str) -> str:
    """The game a name asks for: the game itself, or the game its prefix names."""
    prefix, colon, _ = name.partition(":")
    return _PREFIXES.get(prefix, name) if colon else name


def resolve(name: str | None) -> tuple[GameDef, Any | None]:
    """The game a name asks for and the configuration the name carries (None when it carries
    none: `pact`, `openspiel`); a carried configuration the game refuses raises `ValueError`."""
    game = get(name)
    configure = game.extras.get("configure")
    if name is None or configure is None or ":" not in name:
        return game, None
    return game, configure(name)


def is_family(name: str | None) -> bool:
    """True if `name` names a family of games (`gamebench`) rather than one game."""
    return name is not None and name.strip() in _FAMILIES


def family(name: str) -> list[GameDef]:
    """The games of family `name`, by name: every built-in or registered game named
    `name:...` (a member that cannot be loaded is left out, as `loaded` leaves it out)."""
    prefix = f"{name.strip()}:"
    return [g for g in loaded() if g.name.startswith(prefix)]


def family_of(name: str) -> str | None:
    """The family a game name belongs to (`gamebench:pit` -> `gamebench`), or None."""
    prefix, colon, _ = name.partition(":")
    return prefix if colon and prefix in _FAMILIES else None


def family_analysis(name: str) -> str | None:
    """The module path of the analysis hooks of family `name` (None: no such family)."""
    return _FAMILIES.get(name)


def for_config(config: Any) -> GameDef:
    """The game whose configuration type `config` is."""
    with _LOCK:
        found = _by_config(config)
        if found is not None:
            return found
        # Import games one at a time, stopping at the one that knows this configuration.
        for module in (*_BUILTIN.values(), *_env_modules()):
            with contextlib.suppress(UnknownGame):  # another module's game: not this one
                _import(module)
            found = _by_config(config)
            if found is not None:
                return found
        _load_all()
        found = _by_config(config)
        if found is not None:
            return found
    raise UnknownGame(f"no game is configured by {type(config).__name__}")


def _by_config(config: Any) -> GameDef | None:
    for game in _GAMES.values():
        if type(config) is game.config_type:
            return game
    return None


def names() -> list[str]:
    """Every game name the catalogue can provide."""
    with _LOCK:
        _load_all()
        return sorted(_GAMES)


def loaded() -> list[GameDef]:
    """Every game registered so far plus the built-in ones (imported on the way)."""
    with _LOCK:
        _load_all()
        return [_GAMES[n] for n in sorted(_GAMES)]


def sql_files() -> list[Path]:
    """The SQL view files of every game `loaded` lists, games in name order (each file once).

    Built-in games are not imported for this: their files are known by name. Games from
    elsewhere (entry points, `$CATTLE_GAMES`) are loaded, and the built-in ones with them,
    as `loaded` does, so that they cannot take a built-in game's name or tags.
    """
    with _LOCK:
        if _entry_points() or _env_modules():
            games = {g.name: g.sql for g in loaded()}
        else:
            here = Path(__file__).resolve().parent
            games = {
                name: tuple(here / p for p in paths)
                for name, paths in _BUILTIN_SQL.items()
                if _BUILTIN[name] not in _FAILED
            }
            games.update((name, game.sql) for name, game in _GAMES.items())
        files: list[Path] = []
        for name in sorted(games):
            files.extend(p for p in games[name] if p not in files)
        return files


def _tag(cls: type) -> str:
    return str(cls.__struct_config__.tag)  # type: ignore[attr-defined]


GAMES_ENV = "CATTLE_GAMES"
"""Environment variable naming extra game modules (comma-separated)."""


_FAILED: dict[str, str] = {}
"""Modules that could not be loaded, with the reason (given again each time one is needed)."""


def _import(module: str) -> None:
    """Import a game module and register the `GAME` it defines; `UnknownGame` names the
    module and the reason when it cannot be loaded."""
    failed = _FAILED.get(module)
    if failed is not None:
        raise UnknownGame(failed)
    try:
        loaded = importlib.import_module(module)
        game = getattr(loaded, "GAME", None)
        if game is not None:
            if not isinstance(game, GameDef):
                raise TypeError(f"its GAME is a {type(game).__name__}, not a GameDef")
            register(game)
    # A game module is code from elsewhere: whatever stops it from loading (no such module, a
    # syntax error, an exception or sys.exit at import, a name or tags another game holds)
    # becomes one error that names the module, raised whenever its game is needed.
    except (Exception, SystemExit) as exc:
        reason = f"cannot load the game module {_shown(module)}: {_why(exc)}"
        _FAILED[module] = reason
        raise UnknownGame(reason) from None


def _why(exc: BaseException) -> str:
    if isinstance(exc, SystemExit):
        return f"it called sys.exit({exc.code!r})"
    text = str(exc) if isinstance(exc, ImportError) else f"{type(exc).__name__}: {exc}"
    return text if len(text) <= 300 else text[:297] + "..."


def _shown(name: str) -> str:
    """A name as typed, quoted, shortened to keep messages on one line."""
    return repr(name if len(name) <= 60 else name[:57] + "...")


def _env_modules() -> list[str]:
    return [m.strip() for m in os.environ.get(GAMES_ENV, "").split(",") if m.strip()]


def _load(key: str) -> list[str]:
    """Import what may define game `key`; the reasons of the modules that failed on the way.

    Built-in games load first, so that a game from elsewhere can never take a built-in
    game's name or event tags (it is refused instead), and built-in aliases are found.
    """
    module = _BUILTIN.get(key)
    if module is not None:
        _import(module)
        return []
    failures: list[str] = []
    entry_points = _entry_points()
    for path in (*_BUILTIN.values(), *entry_points.get(key, ())):
        _try(path, failures)
    if key not in _ALIASES:
        # A game named otherwise than its entry point (or asked for by an alias) is found
        # only by loading every module.
        every = [p for ps in entry_points.values() for p in ps]
        for path in (*every, *_env_modules()):
            _try(path, failures)
    return list(dict.fromkeys(failures))


def _try(module: str, failures: list[str]) -> None:
    try:
        _import(module)
    except UnknownGame as exc:
        failures.append(str(exc))


def _load_all() -> None:
    """Import every game module it can; one that fails leaves out its own game only."""
    paths = [p for ps in _entry_points().values() for p in ps]
    for module in (*_BUILTIN.values(), *paths, *_env_modules()):
        with contextlib.suppress(UnknownGame):
            _import(module)


def _entry_points() -> dict[str, list[str]]:
    """Games other packages declare under the `cattle.games` entry point group."""
    found: dict[str, list[str]] = {}
    # Imported here: importlib.metadata (with email and zipfile) is most of what reading
    # the catalogue costs, and only a game not built in needs it.
    from importlib import metadata

    for ep in metadata.entry_points(group="cattle.games"):
        found.setdefault(ep.name, []).append(ep.value.split(":", 1)[0])
    return found


def _decoder(game: GameDef) -> msgspec.json.Decoder[Any]:
    with _LOCK:
        dec = _DECODERS.get(game.name)
        if dec is None:
            from events.agent import AgentEvent

            union = Any if not game.event_types else _union((*game.event_types,), AgentEvent)
            dec = msgspec.json.Decoder(union)
            _DECODERS[game.name] = dec
        return dec


def _union(types: tuple[type, ...], extra: Any) -> Any:
    import functools
    import operator

    return functools.reduce(operator.or_, types, extra)
