"""The rules of any OpenSpiel game as a decider: OpenSpiel (`pyspiel`) plays, we record.

A game is the game string as loaded plus the seed. Chance outcomes are drawn here, never by
OpenSpiel: each chance node takes its outcome from `random.Random(f"{seed}:chance:{ply}")`
with the node's own probabilities, and the outcome is recorded. A game whose randomness lives
inside the game object (a `rng_seed` parameter, as negotiation has) gets that parameter from
the seed when the game string leaves it unset, so the stored game string fixes it. Rebuilding a
state is loading the stored game string afresh and re-applying the stored actions in order.

What a seat may see is what OpenSpiel shows that player. In a game of perfect information
with turns (an "open" game) every seat sees every event. Otherwise (rules 2.0.0: imperfect
information, or simultaneous moves, whose outcome OpenSpiel may show only in part) chance
outcomes and moves are recorded for nobody, and each seat gets an `Observed` event holding its
information-state string (or observation string, for games without one) whenever that string
changes and after each of its own moves, with the move. Rules 1.0.0 (kept, to replay and
verify the games stored by it) showed a seat every action that some other action at that node
would have told apart, which showed seats opponents' moves their strings do not reveal.

`pyspiel` is imported on first use, so that this module (and the catalogue) loads without it.
"""

from __future__ import annotations

import contextlib
import functools
import os
import random
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.openspiel import guard
from events.config import ConfigError, SeatSpec
from events.openspiel.game import (
    ChanceSampled,
    MovePlayed,
    MoveRejected,
    Observed,
    OpenSpielConfig,
    OpenSpielEnded,
    OpenSpielStarted,
)

VERSION = "2.0.0"
"""Rules 2.0.0: per-seat `Observed` events in every game that is not open."""
LEGACY = "1.0.0"
"""The first rules: audiences from trial actions (`seen_by`), no per-seat observations."""
VERSIONS = (LEGACY, VERSION)

INSTALL_HINT = (
    "OpenSpiel is not installed; install the extra: uv sync --extra openspiel "
    "(or pip install 'cattle-trade[openspiel]')"
)

ALTERNATIVES = 8
"""How many other actions the visibility check of rules 1.0.0 tries at a node."""


class OpenSpielMissing(ConfigError):
    """OpenSpiel (pyspiel) is not installed."""


_PYSPIEL: Any = None


def pyspiel() -> Any:
    """The `pyspiel` module with OpenSpiel's Python games registered; `OpenSpielMissing` if
    it is not installed."""
    global _PYSPIEL
    if _PYSPIEL is None:
        try:
            import pyspiel as ps
        except ImportError:
            raise OpenSpielMissing(INSTALL_HINT) from None
        # Python games (the iterated prisoner's dilemma) register on import.
        with contextlib.suppress(ImportError):
            import open_spiel.python.games  # noqa: F401
        _PYSPIEL = ps
    return _PYSPIEL


@functools.cache
@functools.cache
def openspiel_version() -> str:
    """The installed open_spiel version ("" if unknown; looked up once per process)."""
    from importlib import metadata

    try:
        return metadata.version("open_spiel")
    except metadata.PackageNotFoundError:
        return ""


@contextlib.contextmanager
def _quiet_stderr() -> Iterator[None]:
    """OpenSpiel's C++ side prints its errors on file descriptor 2 before raising them; the
    raised error is what we report, in one line, so the print goes to /dev/null."""
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), 2)
            yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


_LOADED: dict[str, str] = {}
"""Game strings that loaded once (checked again only when they failed)."""


def _near(name: str, known: Sequence[str]) -> str:
    """The end of the unknown-game message: the names closest to `name`, else a few of all."""
    import difflib

    close = difflib.get_close_matches(name, sorted(known), n=5, cutoff=0.6)
    if close:
        return f"; did you mean {', '.join(close)}?"
    return f"; it has {len(known)}, such as {', '.join(sorted(known)[:8])}"


def load(game_string: str) -> Any:
    """A fresh pyspiel game for `game_string`; `ConfigError` in one line if OpenSpiel refuses it
    or it is beyond the bounds of `engine.openspiel.guard`."""
    ps = pyspiel()
    if game_string in _LOADED:
        return ps.load_game(game_string)
    short = game_string.split("(", 1)[0].strip()
    if short not in ps.registered_names():
        raise ConfigError(
            f"OpenSpiel has no game {short[:60]!r}{_near(short, ps.registered_names())}"
        )
    with _quiet_stderr():  # OpenSpiel's parser prints what it then raises
        key = guard.key_of(ps, game_string)
    guard.check(ps, game_string, key)  # a game string off the defaults is loaded by a probe first
    try:
        with _quiet_stderr():
            game = ps.load_game(game_string)
            refused = guard.check_sizes(game_string, guard.sizes_of(game))
    except Exception as exc:  # pyspiel raises plain RuntimeError / SpielError with its reason
        text = " ".join(str(exc).split())
        raise ConfigError(f"OpenSpiel cannot load {game_string[:80]!r}: {text[:160]}") from None
    if refused is not None:
        raise guard.GameRefused(refused)
    _LOADED[game_string] = short
    return game


@functools.lru_cache(maxsize=256)
def _canonical(game_string: str) -> tuple[str, bool]:
    """OpenSpiel's canonical form of a game string, and whether it leaves `rng_seed` unset."""
    game = load(game_string)
    return str(game), game.get_parameters().get("rng_seed") == -1


def effective_game_string(game_string: str, seed: int) -> str:
    """The game string to store: OpenSpiel's canonical form, with a seed-derived `rng_seed`
    when the game has that parameter and the string leaves it at its default (-1)."""
    canonical, unseeded = _canonical(game_string)
    if not unseeded:
        return canonical
    game = load(game_string)
    params = dict(game.get_parameters())
    params["rng_seed"] = random.Random(f"{seed}:openspiel:rng_seed").randrange(2**31 - 1)
    return str(pyspiel().load_game(game.get_type().short_name, params))


_SHARED: dict[str, Any] = {}
"""Loaded games that hold no state of their own, shared by every state of that game string."""


def game_for(game_string: str) -> Any:
    """A pyspiel game to start a state from: a shared one, or a fresh one for games that draw
    chance inside the game object (an `rng_seed` parameter), whose every state needs its own."""
    game = _SHARED.get(game_string)
    if game is None:
        game = load(game_string)
        if "rng_seed" in game.get_parameters():
            return game
        _SHARED[game_string] = game
    return game


@functools.lru_cache(maxsize=256)
def _max_length(game_string: str) -> int:
    """OpenSpiel's longest history for a game string (loaded once per string)."""
    return int(load(game_string).max_game_length())


def players_of(game_string: str) -> int:
    """How many players the game has."""
    return int(load(game_string).num_players())


# ---------------------------------------------------------------------------- information


def info_string(state: Any, player: int) -> str:
    """What OpenSpiel shows `player`: the information-state string where the game provides
    one, else the observation string, else (perfect information) the whole state."""
    return _shown_by(state.get_game())(state, player)


def _shown_by(game: Any) -> Callable[[Any, int], str]:
    """`info_string` for the states of `game`, with the game's kind looked at once."""
    kind = game.get_type()
    if kind.provides_information_state_string:
        return _information_state_string
    if kind.provides_observation_string:
        return _observation_string
    if is_perfect(game):
        return _whole_state
    return _nothing  # hidden information without a string for it: show nothing rather than all


def _information_state_string(state: Any, player: int) -> str:
    return str(state.information_state_string(player))


def _observation_string(state: Any, player: int) -> str:
    return str(state.observation_string(player))


def _whole_state(state: Any, player: int) -> str:
    return str(state)


def _nothing(state: Any, player: int) -> str:
    return ""


def seat_string(state: Any, player: int) -> str:
    """What a seat's prompt and view show of the position: in a game of perfect information
    the board as the observation string draws it (the whole state where there is none); in
    any other game `info_string`, everything the player knows (its own cards and the moves it
    saw, as in poker) and nothing it does not. Visibility of moves stays with `info_string`."""
    game = state.get_game()
    if is_perfect(game):
        if game.get_type().provides_observation_string:
            return str(state.observation_string(player))
        return str(state)
    return info_string(state, player)


def seat_tensor(state: Any, player: int) -> list[float]:
    """`player`'s information-state tensor, else its observation tensor, else []."""
    kind = state.get_game().get_type()
    if kind.provides_information_state_tensor:
        return list(state.information_state_tensor(player))
    if kind.provides_observation_tensor:
        return list(state.observation_tensor(player))
    return []


def is_perfect(game: Any) -> bool:
    """True for games of perfect information (every seat sees every action)."""
    ps = pyspiel()
    return bool(game.get_type().information == ps.GameType.Information.PERFECT_INFORMATION)


_PERFECT: dict[str, bool] = {}
_SHOWS: dict[str, Callable[[Any, int], str]] = {}


def is_open(game: Any) -> bool:
    """True for games of perfect information with turns, whose every event every seat sees
    (rules 2.0.0; simultaneous games show a seat only its own string)."""
    ps = pyspiel()
    return is_perfect(game) and game.get_type().dynamics == ps.GameType.Dynamics.SEQUENTIAL


def _perfect(game_string: str, game: Any) -> bool:
    found = _PERFECT.get(game_string)
    if found is None:
        found = _PERFECT[game_string] = is_perfect(game)
    return found


def _seen_by(
    state: Any, actor: int, chosen: int, others: Sequence[int], players: int
) -> tuple[int, ...]:
    """Rules 1.0.0: the seats whose string some tried alternative to the action taken at
    `state` (not yet applied) would change. The actor always sees its own move."""
    after = state.child(chosen)
    seen = []
    alternatives = [state.child(a) for a in others if a != chosen][:ALTERNATIVES]
    for p in range(players):
        if p == actor:
            seen.append(p)
            continue
        mine = info_string(after, p)
        if any(info_string(alt, p) != mine for alt in alternatives):
            seen.append(p)
    return tuple(seen)


def _ranks(scores: Sequence[float]) -> tuple[int, ...]:
    return tuple(1 + sum(o > s for o in scores) for s in scores)


# ---------------------------------------------------------------------------- state, decisions


class OpenSpielState:
    """A game in progress: the pyspiel state, the seed and the next ply. Mutable: `step`
    advances it in place (the driver keeps the state it returns)."""

    __slots__ = (
        "game",
        "game_string",
        "legacy",
        "open",
        "over",
        "perfect",
        "players",
        "ply",
        "seed",
        "shown",
        "shows",
        "state",
    )

    def __init__(self, game_string: str, seed: int, legacy: bool = False) -> None:
        self.game_string = game_string
        self.seed = seed
        self.game = game_for(game_string)
        self.state = self.game.new_initial_state()
        self.players = int(self.game.num_players())
        self.perfect = _perfect(game_string, self.game)
        self.open = self.perfect and self.game.get_type().dynamics == _sequential()
        self.ply = 0
        self.over = False
        self.legacy = legacy
        """Rules 1.0.0: audiences from trial actions, no `Observed` events."""
        self.shown = [""] * self.players
        """Per seat, the string its last `Observed` event holds ("" before the first)."""
        shows = _SHOWS.get(game_string)
        if shows is None:
            shows = _SHOWS[game_string] = _shown_by(self.game)
        self.shows = shows
        """`info_string` for this game's states."""


def observe(st: OpenSpielState, events: list[Any], actions: dict[int, tuple[int, str]]) -> None:
    """Record, for each seat whose string changed or who just moved (`actions`: seat ->
    (action, text)), what OpenSpiel now shows it (not in open games, nor under rules 1.0.0)."""
    if st.open or st.legacy:
        return
    state, shows = st.state, st.shows
    for p in range(st.players):
        text = shows(state, p)
        own = actions.get(p)
        if own is None and text == st.shown[p]:
            continue
        st.shown[p] = text
        if own is None:
            events.append(Observed(seat=p, text=text))
        else:
            events.append(Observed(seat=p, text=text, action=own[0], action_text=own[1]))


_NOBODY: tuple[int, ...] = ()


def _sequential() -> Any:
    return pyspiel().GameType.Dynamics.SEQUENTIAL


@dataclass(frozen=True, slots=True)
class OpenSpielTurn:
    """A decision: the seats asked (every player of a simultaneous node), with their legal
    actions and the actions' texts, at history position `ply`."""

    seats: tuple[int, ...]
    ply: int
    legal: tuple[tuple[int, ...], ...]
    """Per seat of `seats`: its legal action ids."""
    seed: int
    texts: tuple[tuple[str, ...], ...] | None = None
    """Per seat of `seats`: the text of each legal action, as OpenSpiel writes it (None:
    read from `position` when first asked for, by `options`)."""
    simultaneous: bool = False
    position: OpenSpielState | None = field(default=None, compare=False, repr=False)
    """The game the decision is asked in (never stored): the actions' texts and the seats'
    tensors are read from it while it is still at this decision's ply."""
    _named: Any = field(default=None, init=False, compare=False, repr=False)

    @property
    def kind(self) -> str:
        """The decision's name."""
        return "move"

    def options(self, seat: int) -> tuple[tuple[int, ...], tuple[str, ...]]:
        """(legal action ids, their texts) of `seat`."""
        i = self.seats.index(seat)
        return self.legal[i], self.named()[i]

    def named(self) -> tuple[tuple[str, ...], ...]:
        """Per seat of `seats`, the texts of its legal actions."""
        if self.texts is not None:
            return self.texts
        if self._named is None:
            st = self._here()
            texts = tuple(
                tuple(st.state.action_to_string(p, a) for a in acts)
                for p, acts in zip(self.seats, self.legal, strict=True)
            )
            object.__setattr__(self, "_named", texts)
        named: tuple[tuple[str, ...], ...] = self._named
        return named

    def _here(self) -> OpenSpielState:
        st = self.position
        if st is None or st.ply != self.ply:
            raise LookupError("a decision's texts and tensors are read before its move applies")
        return st

    def fallback(self, seat: int) -> int:
        """The seeded random legal action played for `seat` when its own choice is unusable."""
        legal = self.legal[self.seats.index(seat)]
        return random.Random(f"{self.seed}:fallback:{self.ply}:{seat}").choice(legal)

    def tensor(self, seat: int) -> list[float]:
        """What OpenSpiel shows `seat` at this decision as numbers: its information-state
        tensor where the game has one, else its observation tensor ([] for neither, or for a
        decision made without its state). Only that player's information goes into either."""
        return seat_tensor(self._here().state, seat) if self.position is not None else []


def draw_outcome(seed: int, ply: int, outcomes: Sequence[tuple[int, float]]) -> tuple[int, float]:
    """The outcome of the chance node at `ply`, drawn from the game seed with the node's odds:
    (action, its probability)."""
    u = random.Random(f"{seed}:chance:{ply}").random()
    total = 0.0
    for a, p in outcomes:
        total += p
        if u < total:
            return a, p
    return outcomes[-1]


def _chance(st: OpenSpielState, events: list[Any]) -> None:
    """Resolve chance nodes: draw each outcome from the seed, apply and record it."""
    state = st.state
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        action, prob = draw_outcome(st.seed, st.ply, outcomes)
        seen = None if st.open else _NOBODY
        # A single outcome tells nobody anything (and negotiation draws its hidden values
        # from the game object when the node is applied, so no trial child is made there).
        if st.legacy:
            seen = None
            if not st.perfect and len(outcomes) > 1:
                seen = _seen_by(state, -1, action, [a for a, _ in outcomes], st.players)
                seen = None if len(seen) == st.players else seen
        text = state.action_to_string(-1, action)
        state.apply_action(action)
        events.append(
            ChanceSampled(ply=st.ply, action=action, text=text, probability=prob, seen_by=seen)
        )
        st.ply += 1
        observe(st, events, {})


def _finish(st: OpenSpielState, events: list[Any]) -> None:
    if st.state.is_terminal():
        scores = tuple(float(r) for r in st.state.returns())
        events.append(OpenSpielEnded(reason="terminal", scores=scores, ranks=_ranks(scores)))
        st.over = True


class OpenSpielRules:
    """Any OpenSpiel game as a decider (see the module docstring); `version` picks the
    rules the games are recorded by (the current ones, or 1.0.0 to replay its games)."""

    TURN_TYPES = frozenset({ChanceSampled, MovePlayed})
    """The events `turn_of` reads a turn from (the driver passes over the rest)."""

    def __init__(self, version: str = VERSION) -> None:
        if version not in VERSIONS:
            raise ValueError(f"no OpenSpiel rules {version!r} (known: {', '.join(VERSIONS)})")
        self.version = version

    def for_version(self, version: str) -> OpenSpielRules | None:
        """The rules that recorded games stamped with `version` (None: no such rules)."""
        if version == self.version:
            return self
        return OpenSpielRules(version) if version in VERSIONS else None

    @staticmethod
    def max_decisions(config: OpenSpielConfig) -> int:
        """The hard bound on decisions per game: OpenSpiel's longest history for the game
        (every decision applies a move, an illegal answer the seeded fallback, so each one
        adds at least one action to the history)."""
        return _max_length(config.game_string)

    def start(
        self, config: OpenSpielConfig, seed: int, seats: Sequence[SeatSpec]
    ) -> tuple[OpenSpielState, list[Any]]:
        """Load the game, record its string and seed, resolve the opening chance nodes."""
        game_string = effective_game_string(config.game_string, seed)
        st = OpenSpielState(game_string, seed, legacy=self.version == LEGACY)
        if st.players != config.players:
            raise ConfigError(
                f"{game_string} has {st.players} players, the configuration {config.players}"
            )
        events: list[Any] = [
            OpenSpielStarted(
                seed=seed,
                config=config,
                seats=tuple(seats),
                engine_version=self.version,
                game_string=game_string,
                openspiel_version=openspiel_version(),
            )
        ]
        observe(st, events, {})
        _chance(st, events)
        _finish(st, events)
        return st, events

    def pending(self, st: OpenSpielState) -> OpenSpielTurn | None:
        """The players to move, or None once the game is over."""
        if st.over:
            return None
        state = st.state
        if state.is_simultaneous_node():
            seats = tuple(range(st.players))
            legal = tuple(tuple(state.legal_actions(p)) for p in seats)
            return OpenSpielTurn(
                seats=seats, ply=st.ply, legal=legal, seed=st.seed, simultaneous=True, position=st
            )
        p = int(state.current_player())
        return OpenSpielTurn(
            seats=(p,), ply=st.ply, legal=(tuple(state.legal_actions()),), seed=st.seed, position=st
        )

    def _checked(
        self, st: OpenSpielState, d: OpenSpielTurn, seat: int, action: Any, ply: int
    ) -> tuple[int, MoveRejected | None]:
        legal = d.legal[d.seats.index(seat)]
        if isinstance(action, int) and not isinstance(action, bool) and action in legal:
            return action, None
        used = d.fallback(seat)
        raw = action if isinstance(action, int) and not isinstance(action, bool) else -1
        reason = "not a legal action here" if raw != -1 else "not an action id"
        return used, MoveRejected(ply=ply, player=seat, raw=raw, used=used, reason=reason)

    def step(
        self, st: OpenSpielState, d: OpenSpielTurn, actions: Sequence[Any]
    ) -> tuple[OpenSpielState, list[Any]]:
        """Apply the seats' actions (an illegal one is recorded and replaced by the seeded
        fallback), then resolve chance, then end the game if it is over."""
        events: list[Any] = []
        state = st.state
        if d.simultaneous:
            joint = []
            for i, (seat, action) in enumerate(zip(d.seats, actions, strict=True)):
                used, rejected = self._checked(st, d, seat, action, st.ply + i)
                if rejected is not None:
                    events.append(rejected)
                joint.append(used)
            texts = [state.action_to_string(p, a) for p, a in zip(d.seats, joint, strict=True)]
            state.apply_actions(joint)
            hidden = None if st.open or st.legacy else _NOBODY
            for i, (seat, a) in enumerate(zip(d.seats, joint, strict=True)):
                events.append(
                    MovePlayed(
                        ply=st.ply + i,
                        player=seat,
                        action=a,
                        text=texts[i],
                        simultaneous=True,
                        seen_by=hidden,
                    )
                )
            st.ply += len(joint)
            observe(st, events, {s: (a, t) for s, a, t in zip(d.seats, joint, texts, strict=True)})
        else:
            seat = d.seats[0]
            used, rejected = self._checked(st, d, seat, actions[0], st.ply)
            if rejected is not None:
                events.append(rejected)
            seen = None if st.open else _NOBODY
            if st.legacy:
                seen = None
                if not st.perfect:
                    seen = _seen_by(state, seat, used, d.legal[0], st.players)
                    seen = None if len(seen) == st.players else seen
            text = state.action_to_string(seat, used)
            state.apply_action(used)
            events.append(MovePlayed(ply=st.ply, player=seat, action=used, text=text, seen_by=seen))
            st.ply += 1
            observe(st, events, {seat: (used, text)})
        _chance(st, events)
        _finish(st, events)
        return st, events

    def evolve(self, st: Any, event: Any) -> Any:
        """Agent events (model exchanges) leave the game unchanged."""
        return st

    def fold(self, events: Sequence[Any]) -> OpenSpielState:
        """The state after a log (or a prefix): the stored game string, the stored actions."""
        start = events[0]
        st = OpenSpielState(start.game_string, start.seed, legacy=start.engine_version == LEGACY)
        apply_recorded(st.state, events)
        for e in events:
            if isinstance(e, Observed):
                st.shown[e.seat] = e.text
        st.ply = sum(isinstance(e, ChanceSampled | MovePlayed) for e in events)
        st.over = any(isinstance(e, OpenSpielEnded) for e in events)
        return st

    def turn_of(self, event: Any, turn: int) -> int:
        """The store's turn is the history position (ply) of the action."""
        if isinstance(event, ChanceSampled | MovePlayed):
            return int(event.ply)
        return turn

    def active(self, st: Any) -> int | None:
        """No scratchpad turns: model seats keep no notes in these games."""
        return None

    def recorded_action(
        self, log: Sequence[Any], pos: int, seat: int, decision: OpenSpielTurn
    ) -> int:
        """The action `seat` asked for at this decision (the refused one, if it was refused)."""
        ply = decision.ply + (decision.seats.index(seat) if decision.simultaneous else 0)
        for e in log[pos:]:
            if isinstance(e, MoveRejected) and e.ply == ply and e.player == seat:
                return e.raw
            if isinstance(e, MovePlayed) and e.ply == ply and e.player == seat:
                return e.action
        raise LookupError(f"no move of seat {seat} at ply {ply}")


def state_data(st: OpenSpielState) -> dict[str, Any]:
    """The whole state as plain data (for `cattle replay`): OpenSpiel's own text of it."""
    state = st.state
    return {
        "game_string": st.game_string,
        "ply": st.ply,
        "over": st.over,
        "current_player": int(state.current_player()),
        "state": str(state).rstrip("\n").splitlines(),
        "returns": [float(r) for r in state.returns()] if state.is_terminal() else None,
    }


def apply_recorded(state: Any, events: Sequence[Any]) -> None:
    """Re-apply the recorded chance outcomes and moves of `events` to a fresh pyspiel state
    (the moves of a simultaneous node go together, in player order)."""
    joint: list[int] = []
    for e in events:
        if isinstance(e, ChanceSampled):
            state.apply_action(e.action)
        elif isinstance(e, MovePlayed):
            if e.simultaneous:
                joint.append(e.action)
                if len(joint) == state.num_players():
                    state.apply_actions(joint)
                    joint = []
            else:
                state.apply_action(e.action)


RULES = OpenSpielRules()
"""The rules every OpenSpiel game shares."""
