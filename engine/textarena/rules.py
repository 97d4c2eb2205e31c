"""The rules of any TextArena environment as a decider: TextArena plays, we record.

A game is an environment id, a player count and a seed: the environment is made afresh
(`textarena.make`, with the wrappers its registration names) and reset with
`reset(num_players=players, seed=seed)`. Each decision hands the current player's action
string to `env.step` unchanged; what TextArena then shows each seat (through its
observation wrapper), its verdicts on invalid moves and the rewards `close()` returns are
recorded. Rebuilding a state is making the environment again and re-applying the stored
action strings in order.

TextArena draws its chance from Python's global `random` (and reseeds it in `reset`).
Every game here owns a generator state of its own: around every call into the
environment the global state is saved, the game's state put in place, and after the call
the game's state taken back and the global one restored (numpy's global state likewise).
So games interleaved in one process draw exactly what each would draw alone.

TextArena never downloads here: its modules that fetch NLTK corpora at import are
imported with `nltk.download` stubbed, and Codenames takes its words from
`engine.textarena.words` (docs/textarena.md).

`textarena` is imported on first use, so that this module (and the catalogue) loads
without it.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import random
import re
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.textarena.words import word_list
from events.config import ConfigError, SeatSpec
from events.textarena.game import (
    ActionTaken,
    EnvFailed,
    InvalidMove,
    Observed,
    RoleDealt,
    TextArenaConfig,
    TextArenaEnded,
    TextArenaStarted,
)

VERSION = "1.2.0"
VERSIONS = ("1.0.0", "1.1.0")
"""Older rules versions still replayed: 1.0.0 recorded only the verdicts TextArena gives
through `set_invalid_move`, not those it only tells in a game message (`MESSAGE_VERDICTS`);
1.1.0 not those it gives only as the reason a game ends (`END_VERDICTS`)."""

MESSAGE_VERDICTS = (re.compile(r"\bdid not provide a valid (?:clue|guess)\b"),)
"""Game messages by which an environment refuses a move without calling `set_invalid_move`
(Codenames skips the team's turn after a clue or guess it cannot read); since rules 1.1.0
each is recorded as an invalid-move verdict on the player whose move it was."""

END_VERDICTS = (re.compile(r"\bmentioned a clue that is a subset/ exact match of words\b"),)
"""Reasons by which an environment ends a game on a move its rules forbid, without calling
`set_invalid_move` (Codenames gives the game to the other team when a spymaster's clue is a
board word or part of one: textarena 0.7.4, envs/Codenames/env.py, `step`); since rules
1.2.0 each is recorded as an invalid-move verdict on the player whose move it was."""

INSTALL_HINT = (
    "TextArena is not installed; install the extra: uv sync --extra textarena "
    "(or pip install 'cattle-trade[textarena]')"
)

MAX_ACTION = 10_000
"""Longest action string handed to TextArena; a longer answer is cut to this (its whole
text kept in the event's `raw`)."""


class TextArenaMissing(ConfigError):
    """TextArena is not installed."""


_TA: Any = None


def _no_download(*args: Any, **kwargs: Any) -> bool:
    """Stands in for `nltk.download`: never fetch anything."""
    return False


@contextlib.contextmanager
def _offline() -> Iterator[None]:
    """Import TextArena modules with NLTK's downloader stubbed out."""
    try:
        import nltk
    except ImportError:  # TextArena needs it; its absence shows when textarena imports
        yield
        return
    saved = nltk.download
    nltk.download = _no_download
    try:
        yield
    finally:
        nltk.download = saved


def textarena() -> Any:
    """The `textarena` module; `TextArenaMissing` if it is not installed."""
    global _TA
    if _TA is None:
        try:
            # Importing the package downloads nothing; its environment modules, imported
            # one by one when an environment is made, are what call `nltk.download`.
            import textarena as ta
        except ImportError:
            raise TextArenaMissing(INSTALL_HINT) from None
        _TA = ta
    return _TA


@functools.cache
def textarena_version() -> str:
    """The installed textarena version ("" if unknown)."""
    from importlib import metadata

    try:
        return metadata.version("textarena")
    except metadata.PackageNotFoundError:
        return ""


def registry() -> dict[str, Any]:
    """TextArena's registered environments: id -> spec."""
    ta = textarena()
    return dict(ta.envs.registration.ENV_REGISTRY)


def _entry_class(env_id: str) -> Any:
    spec = registry().get(env_id)
    if spec is None:
        raise ConfigError(
            f"TextArena has no environment {env_id[:60]!r} (its ids: python -c 'import "
            "textarena; print(sorted(textarena.envs.registration.ENV_REGISTRY))')"
        )
    entry = spec.entry_point
    if isinstance(entry, str):
        module_path, class_name = entry.split(":")
        try:
            with _offline():
                module = importlib.import_module(module_path)
        # TextArena's module for this environment is broken here (a syntax newer than this
        # Python, a missing dependency): that environment only is unavailable.
        except (ImportError, SyntaxError) as exc:
            text = " ".join(f"{type(exc).__name__}: {exc}".split())[:160]
            raise ConfigError(f"TextArena's {env_id} cannot be loaded here: {text}") from None
        except (LookupError, OSError) as exc:  # data its module reads as it is imported
            raise unusable(env_id, exc) from None
        entry = getattr(module, class_name)
    return entry


def _module_of(env_id: str) -> str:
    """The module of an environment's class ("" when it is not named by a string)."""
    entry = registry()[env_id].entry_point if env_id in registry() else ""
    return entry.split(":")[0] if isinstance(entry, str) else ""


@functools.cache
def _offline_codenames() -> Any:
    """Codenames with the harness's word list in place of NLTK's."""
    base = _entry_class("Codenames-v0")

    class OfflineCodenames(base):  # type: ignore[misc, valid-type]
        """TextArena's Codenames drawing its board from `engine.textarena.words`."""

        def _load_word_list(self, hardcore: bool = False) -> None:
            self.word_list = list(word_list())

    return OfflineCodenames


def unusable(env_id: str, exc: BaseException) -> ConfigError:
    """The one-line refusal of an environment that cannot be set up here, from what it raised
    while being built or reset."""
    first = " ".join(str(exc).split()).strip("* ")[:160] or type(exc).__name__
    if isinstance(exc, LookupError) and not isinstance(exc, KeyError):
        why = "needs data it downloads at run time, which the harness does not do"
    elif isinstance(exc, OSError):
        why = "reads a data file that the installed textarena package does not hold"
    else:
        why = "cannot be set up here"
    return ConfigError(f"TextArena's {env_id} {why}: {first}")


def make_env(env_id: str) -> Any:
    """A fresh environment for `env_id`, wrapped as TextArena's registration says;
    `ConfigError` in one line when TextArena has no such id or cannot build it."""
    textarena()
    cls = _entry_class(env_id)
    spec = registry()[env_id]
    if cls.__name__ == "CodenamesEnv":
        cls = _offline_codenames()
    try:
        env = cls(**spec.kwargs)
    except Exception as exc:  # any failure to build refuses the id
        raise unusable(env_id, exc) from None
    env.env_id = env_id
    env.entry_point = spec.entry_point
    for wrapper in spec.default_wrappers or ():
        env = wrapper(env)
    return env


def players_of(env_id: str, players: int | None = None) -> int:
    """A player count the environment accepts: `players` if given, else the first of 2, 1,
    3, 4, 5, 6 its `reset` takes (`ConfigError` when none does)."""
    for n in (players,) if players is not None else (2, 1, 3, 4, 5, 6):
        assert n is not None
        env = make_env(env_id)
        try:
            with GameRandom(0).active():
                env.reset(num_players=n, seed=0)
        except AssertionError:  # TextArena refuses a player count with an assertion
            continue
        except Exception as exc:  # a reset that fails for any other reason
            raise unusable(env_id, exc) from None
        return n
    which = f"{players} players" if players is not None else "2, 1, 3, 4, 5 or 6 players"
    raise ConfigError(f"TextArena's {env_id} does not play with {which}")


# ---------------------------------------------------------------------------- randomness


_RANDOM_NAMES = (
    "seed", "random", "uniform", "triangular", "randint", "choice", "randrange", "sample",
    "shuffle", "choices", "normalvariate", "lognormvariate", "expovariate", "vonmisesvariate",
    "gammavariate", "gauss", "betavariate", "paretovariate", "weibullvariate", "getstate",
    "setstate", "getrandbits", "randbytes", "binomialvariate",
)  # fmt: skip
"""The functions of the `random` module that use its hidden shared generator."""


@functools.cache
def _uses_numpy(module: str) -> bool:
    """True when a TextArena environment module draws from numpy's global generator."""
    import importlib.util

    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None:
        return False
    text = Path(spec.origin).read_text(encoding="utf-8", errors="replace")
    return "np.random." in text or "numpy.random." in text


class GameRandom:
    """One game's generator for Python's `random` module (and numpy's global one, for the
    environments that draw from it), put in place around each call into the environment.

    The module functions (`random.choice`, `random.seed`, ...) are methods of one hidden
    generator; for the duration of a call they are pointed at this game's own generator and
    then pointed back, so that nothing else's draws and this game's draws ever mix."""

    __slots__ = ("methods", "np_state")

    def __init__(self, seed: int, numpy: bool = False) -> None:
        own = random.Random(f"{seed}:textarena")
        self.methods = {n: getattr(own, n) for n in _RANDOM_NAMES if hasattr(own, n)}
        self.np_state: Any = None
        np: Any = sys.modules.get("numpy") if numpy else None
        if np is not None:
            self.np_state = np.random.RandomState(seed % 2**32).get_state()

    @contextlib.contextmanager
    def active(self) -> Iterator[None]:
        """Run the block with this game's generators as the global ones."""
        module = random.__dict__
        saved = {n: module[n] for n in self.methods}
        module.update(self.methods)
        np: Any = sys.modules.get("numpy") if self.np_state is not None else None
        np_saved = None
        if np is not None:
            np_saved = np.random.get_state()
            np.random.set_state(self.np_state)
        try:
            yield
        finally:
            module.update(saved)
            if np_saved is not None:
                self.np_state = np.random.get_state()
                np.random.set_state(np_saved)


# ---------------------------------------------------------------------------- state


def _ranks(scores: Sequence[float]) -> tuple[int, ...]:
    return tuple(1 + sum(o > s for o in scores) for s in scores)


class TextArenaState:
    """A game in progress: the wrapped environment, the game's generator state, the step
    count, and per seat the observation text it was last shown. Mutable: `step` advances
    it in place (the driver keeps the state it returns)."""

    __slots__ = (
        "config",
        "env",
        "over",
        "players",
        "rng",
        "seed",
        "shown",
        "steps",
        "verdicts",
    )

    def __init__(self, config: TextArenaConfig, seed: int, version: str = VERSION) -> None:
        self.config = config
        self.seed = seed
        self.players = config.players
        self.rng = GameRandom(seed, numpy=_uses_numpy(_module_of(config.env_id)))
        self.steps = 0
        self.over = False
        self.shown = [""] * self.players
        self.verdicts: list[tuple[int, str]] = []
        """TextArena's invalid-move verdicts of the running call: (player, reason)."""
        with self.rng.active():
            self.env = make_env(config.env_id)
            self.env.reset(num_players=self.players, seed=seed)
        inner = self.env.state
        original = inner.set_invalid_move

        def judged(*args: Any, **kwargs: Any) -> Any:
            reason = kwargs.get("reason", args[0] if args else "")
            self.verdicts.append((int(inner.current_player_id), str(reason)))
            return original(*args, **kwargs)

        inner.set_invalid_move = judged
        if version == "1.0.0":
            return
        told = inner.add_observation

        def announced(*args: Any, **kwargs: Any) -> Any:
            message = kwargs.get("message", args[0] if args else "")
            sender = kwargs.get("from_id", args[2] if len(args) > 2 else -1)
            if sender == -1 and any(rx.search(str(message)) for rx in MESSAGE_VERDICTS):
                self.verdicts.append((int(inner.current_player_id), str(message)))
            return told(*args, **kwargs)

        inner.add_observation = announced
        if version == "1.1.0":
            return
        settled = inner.set_winners

        def ended(*args: Any, **kwargs: Any) -> Any:
            reason = str(kwargs.get("reason", args[1] if len(args) > 1 else ""))
            if any(rx.search(reason) for rx in END_VERDICTS):
                self.verdicts.append((int(inner.current_player_id), reason))
            return settled(*args, **kwargs)

        inner.set_winners = ended

    @property
    def current(self) -> int:
        """The player TextArena waits for."""
        return int(self.env.state.current_player_id)


@dataclass(frozen=True, slots=True)
class TextArenaTurn:
    """A decision: the player TextArena waits for, at environment step `step`."""

    seats: tuple[int, ...]
    step: int
    env_id: str
    seed: int

    @property
    def kind(self) -> str:
        """The decision's name."""
        return "action"


def _observe(st: TextArenaState, seat: int, text: str, events: list[Any]) -> None:
    """Record what the seat is shown now (only the new part when it continues the last)."""
    before = st.shown[seat]
    st.shown[seat] = text
    if before and text.startswith(before):
        events.append(Observed(seat=seat, text=text[len(before) :], extends=True, step=st.steps))
    else:
        events.append(Observed(seat=seat, text=text, step=st.steps))


def _ask(st: TextArenaState, events: list[Any]) -> None:
    """Record the observation of the player TextArena now waits for."""
    with st.rng.active():
        seat, text = st.env.get_observation()
    _observe(st, int(seat), str(text), events)


def _sender(inner: Any, sender: int) -> str:
    """How TextArena's chat-style observations name a message's sender."""
    if sender < 0:
        return "GAME"
    return str(inner.role_mapping.get(sender, f"Player {sender}"))


def _finish(st: TextArenaState, events: list[Any], reason: str | None = None) -> None:
    """Record every seat's last observation and the rewards; the game is over."""
    env = st.env
    inner = env.state
    scores: tuple[float, ...]
    roles: tuple[str, ...] = ()
    invalid: tuple[bool, ...] = ()
    if reason is None:
        with st.rng.active():
            for p in range(st.players):
                pending = list(inner.observations.get(p) or ())
                if not pending:
                    continue
                inner.current_player_id = p
                try:
                    _, text = env.get_observation()
                except Exception:  # a wrapper that cannot draw a seat that never acted
                    text = st.shown[p] + "".join(
                        f"\n[{_sender(inner, m[0])}] {m[1]}" for m in pending
                    )
                _observe(st, p, str(text), events)
            closed = env.close()
        rewards, info = closed if isinstance(closed, tuple) else (closed, {})
        rewards = rewards or {}
        info = info or {}
        scores = tuple(float(rewards.get(p, 0.0)) for p in range(st.players))
        roles = tuple(str(info.get(p, {}).get("role", "")) for p in range(st.players))
        invalid = tuple(bool(info.get(p, {}).get("invalid_move", False)) for p in range(st.players))
        reasons = [str(info.get(p, {}).get("reason", "")) for p in range(st.players)]
        reason = next((r for r in reasons if r), "terminal")
    else:
        scores = (0.0,) * st.players
    events.append(
        TextArenaEnded(
            reason=reason,
            scores=scores,
            ranks=_ranks(scores),
            roles=roles,
            invalid=invalid,
            steps=st.steps,
        )
    )
    st.over = True


def _roles(st: TextArenaState) -> list[RoleDealt]:
    """Secret roles TextArena dealt (its game info names them; a plain "Player N" is none)."""
    info = st.env.state.game_info
    out = []
    for p in range(st.players):
        role = str(info.get(p, {}).get("role", ""))
        if role and role != f"Player {p}":
            out.append(RoleDealt(seat=p, role=role))
    return out


def _error(exc: Exception) -> str:
    return f"{type(exc).__name__}: {' '.join(str(exc).split())}"[:300]


class TextArenaRules:
    """Any TextArena environment as a decider (see the module docstring)."""

    version = VERSION
    versions = VERSIONS
    """Every older rules version these rules replay (a log names the one it was played by)."""

    @staticmethod
    def max_decisions(config: TextArenaConfig) -> int:
        """The hard bound on decisions per game: the configuration's step limit."""
        return config.max_steps

    def start(
        self,
        config: TextArenaConfig,
        seed: int,
        seats: Sequence[SeatSpec],
        version: str | None = None,
    ) -> tuple[TextArenaState, list[Any]]:
        """Make and reset the environment; record the start, secret roles and the first
        player's observation (by the rules of `version`, default the current ones)."""
        version = version or self.version
        st = TextArenaState(config, seed, version)
        events: list[Any] = [
            TextArenaStarted(
                seed=seed,
                config=config,
                seats=tuple(seats),
                engine_version=version,
                env_id=config.env_id,
                textarena_version=textarena_version(),
            ),
            *_roles(st),
        ]
        _ask(st, events)
        return st, events

    def pending(self, st: TextArenaState) -> TextArenaTurn | None:
        """The player TextArena waits for, or None once the game is over."""
        if st.over:
            return None
        return TextArenaTurn(
            seats=(st.current,), step=st.steps, env_id=st.config.env_id, seed=st.seed
        )

    def step(
        self, st: TextArenaState, d: TextArenaTurn, actions: Sequence[Any]
    ) -> tuple[TextArenaState, list[Any]]:
        """Hand the action to `env.step` (cut to `MAX_ACTION` characters), record it, the
        verdicts TextArena gave, and then the next observation or the end."""
        seat = d.seats[0]
        given = actions[0]
        raw = given if isinstance(given, str) else str(given)
        action = raw if len(raw) <= MAX_ACTION else raw[:MAX_ACTION]
        events: list[Any] = [
            ActionTaken(
                step=st.steps, player=seat, action=action, raw=None if action == raw else raw
            )
        ]
        st.verdicts.clear()
        failed = None
        try:
            with st.rng.active():
                done, _ = st.env.step(action=action)
        # The environment is code from elsewhere: whatever it raises ends this game with
        # the error recorded, instead of a crash that would lose the game.
        except Exception as exc:
            failed = _error(exc)
            done = True
        for player, reason in st.verdicts:
            events.append(InvalidMove(step=st.steps, player=player, reason=reason))
        st.steps += 1
        if failed is None and not done and st.steps < st.config.max_steps:
            try:
                _ask(st, events)
                return st, events
            except Exception as exc:  # as above, for the observation of the next player
                failed = _error(exc)
        if failed is not None:
            events.append(EnvFailed(step=st.steps - 1, player=seat, error=failed))
            _finish(st, events, reason=f"environment error: {failed}")
        elif done:
            _finish(st, events)
        else:
            _finish(st, events, reason="step limit")
        return st, events

    def evolve(self, st: Any, event: Any) -> Any:
        """Agent events (model exchanges) leave the game unchanged."""
        return st

    def fold(self, events: Sequence[Any]) -> TextArenaState:
        """The state after a log (or a prefix): a fresh environment, the stored actions."""
        start = events[0]
        st = TextArenaState(start.config, start.seed, start.engine_version or VERSION)
        for e in events:
            if isinstance(e, ActionTaken):
                with st.rng.active():
                    try:
                        st.env.step(action=e.action)
                    except Exception:  # recorded as EnvFailed when it happened
                        break
                st.steps += 1
            elif isinstance(e, Observed):
                st.shown[e.seat] = st.shown[e.seat] + e.text if e.extends else e.text
            elif isinstance(e, TextArenaEnded):
                st.over = True
        return st

    def turn_of(self, event: Any, turn: int) -> int:
        """The store's turn is the environment step of the action."""
        if isinstance(event, ActionTaken):
            return int(event.step)
        return turn

    def active(self, st: Any) -> int | None:
        """No scratchpad turns: a seat's observation text is its whole record."""
        return None

    def recorded_action(
        self, log: Sequence[Any], pos: int, seat: int, decision: TextArenaTurn
    ) -> str:
        """The answer `seat` gave at this step (its whole text when it was cut)."""
        for e in log[pos:]:
            if isinstance(e, ActionTaken) and e.step == decision.step and e.player == seat:
                return e.raw if e.raw is not None else e.action
        raise LookupError(f"no action of seat {seat} at step {decision.step}")


def state_data(st: TextArenaState) -> dict[str, Any]:
    """The state as plain data (for `cattle replay`): the step, who is to act, every seat's
    latest observation text."""
    return {
        "env_id": st.config.env_id,
        "steps": st.steps,
        "over": st.over,
        "current_player": None if st.over else st.current,
        "observations": [s.splitlines() for s in st.shown],
    }


RULES = TextArenaRules()
"""The rules every TextArena game shares."""
