"""Bounds on the size of an OpenSpiel game, checked before the game is used in this process.

OpenSpiel builds what a game string asks for: `blotto(coins=1000000,fields=50)` enumerates
its actions for ever, `first_sealed_auction(max_value=1000000000)` has a chance node of a
billion outcomes, `connect_four(rows=0)` crashes the process. Its C++ code holds the
interpreter while it works, so no signal handler runs until it returns. So a game string whose
parameters differ from the game's defaults (other than a seed) is first loaded by a probe: a
short-lived child process (`engine/openspiel/probe.py`) limited to `PROBE_MEMORY` bytes of
address space and `PROBE_CPU` seconds of CPU, which reports the game's sizes after playing a
short opening. A game beyond the bounds below, or one the probe could not load, is refused
in one line (`ConfigError`). The answer is kept per game string (seeds aside) for the life of
the process. Games at their defaults (every registered game keeps to the bounds with them)
and GTBench's presets are not probed; their sizes are still checked once loaded.
docs/openspiel.md gives the bounds and the reasons.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

from events.config import ConfigError

MAX_ACTIONS = 100_000
"""Most distinct actions (colored_trails, the largest default, has 93,123)."""
MAX_LENGTH = 100_000
"""Longest history (cursor_go's default is 72,922; chess's 17,695)."""
MAX_CHANCE = 10_000
"""Most outcomes of one chance node (yacht's 7,776 rolls of five dice is the largest default)."""
MAX_TENSOR = 1_000_000
"""Largest observation or information-state tensor (chat_game's 31,610 is the largest default)."""
MAX_STRING = 100_000
"""Longest string a seat is shown in the probe's opening (defaults stay under 2,000 chars)."""

PROBE_STEPS = 30
"""Actions the probe plays after loading."""
PROBE_MEMORY = 1 << 30
"""Address space of the probe process, in bytes (Python with pyspiel and numpy takes ~0.2 GB)."""
PROBE_CPU = 2
"""CPU seconds the probe may use (loading any default game takes under 0.5 s)."""
PROBE_WALL = 20
"""Seconds of wall time after which the probe is killed (a busy machine, or a game that waits)."""

PROBE = Path(__file__).with_name("probe.py")
SEEDS = ("rng_seed", "seed")
"""Parameters that choose a draw, not a size: left out of the key of the probe's answer."""

_ANSWERS: dict[str, str | None] = {}
"""Per key (see `key_of`), None for a game within bounds, else the line that refuses it."""


class GameRefused(ConfigError):
    """An OpenSpiel game beyond the bounds, or one its probe could not load."""


_NONE = object()


def _same(default: Any, value: Any) -> bool:
    """True if `value` is the default itself (of its type: `1` is not the default `True`)."""
    return type(default) is type(value) and default == value


def key_of(ps: Any, game_string: str) -> str | None:
    """What the probe's answer is kept under: the game's name with its parameters other than
    the defaults and seeds; None for a game at its defaults (or a string OpenSpiel cannot
    parse, which loading then refuses without building anything)."""
    try:
        params = dict(ps.game_parameters_from_string(game_string))
    except Exception:  # the parser's own error is what loading reports
        return None
    name = str(params.pop("name", ""))
    defaults = {}
    for gt in ps.registered_games():
        if gt.short_name == name:
            defaults = dict(gt.parameter_specification)
            break
    rest = {
        k: v
        for k, v in params.items()
        if not (k in SEEDS and type(v) is int) and not _same(defaults.get(k, _NONE), v)
    }
    if not rest:
        return None
    return f"{name}{json.dumps(rest, sort_keys=True, default=str)}"


_TRUSTED: set[str | None] = set()


def _trusted(ps: Any) -> set[str | None]:
    """The keys of GTBench's presets (loaded without a probe)."""
    if not _TRUSTED:
        from engine.openspiel.gtbench import GTBENCH

        _TRUSTED.update(key_of(ps, text) for text in GTBENCH.values())
    return _TRUSTED


def check_sizes(game_string: str, sizes: dict[str, Any]) -> str | None:
    """The line refusing a game with these sizes (None: within the bounds)."""
    bounds = (
        ("actions", "distinct actions", MAX_ACTIONS),
        ("length", "moves in its longest game", MAX_LENGTH),
        ("chance", "outcomes of a chance node", MAX_CHANCE),
        ("outcomes", "outcomes of a chance node", MAX_CHANCE),
        ("observation", "numbers in an observation tensor", MAX_TENSOR),
        ("information", "numbers in an information-state tensor", MAX_TENSOR),
        ("string", "characters in a seat's string", MAX_STRING),
    )
    if sizes.get("length") == 0:  # nothing to decide: the driver would stop it as a runaway
        return f"{game_string[:80]!r} cannot be played: OpenSpiel gives it no moves"
    for key, what, limit in bounds:
        value = sizes.get(key)
        if value is None:
            continue
        if value < 0:
            return (
                f"{game_string[:80]!r} is too large: its {what} overflow OpenSpiel's count"
                " (see docs/openspiel.md for the bounds)"
            )
        if value > limit:
            return (
                f"{game_string[:80]!r} is too large: {value:,} {what}, the bound is {limit:,}"
                " (see docs/openspiel.md)"
            )
    return None


def sizes_of(game: Any) -> dict[str, Any]:
    """The sizes of a loaded game that the bounds apply to (a tensor the game does not
    implement, though its type says it does, is left out)."""
    kind = game.get_type()
    sizes: dict[str, Any] = {
        "actions": int(game.num_distinct_actions()),
        "length": int(game.max_game_length()),
        "chance": int(game.max_chance_outcomes()),
    }
    for key, provided, name in (
        ("observation", kind.provides_observation_tensor, "observation_tensor_size"),
        ("information", kind.provides_information_state_tensor, "information_state_tensor_size"),
    ):
        try:
            sizes[key] = int(getattr(game, name)()) if provided else None
        except Exception:  # pyspiel.SpielError: "... unimplemented"
            sizes[key] = None
    return sizes


def _release(
    handlers: dict[signal.Signals, Any], held: set[int | signal.Signals], noted: list[int]
) -> None:
    """Give the stopping signals back their handlers and mask, then raise the first one noted
    meanwhile, to be handled as it would have been."""
    for signum, handler in handlers.items():
        if handler is not None:  # None: set outside Python, cannot be set back from here
            signal.signal(signum, handler)
    signal.pthread_sigmask(signal.SIG_SETMASK, held)
    for first in noted[:1]:
        signal.raise_signal(first)


def run_probe(game_string: str) -> dict[str, Any]:
    """Load `game_string` in a limited child process: its answer, or `{"died": SIGNAL}` /
    `{"timeout": True}`. A signal that stops the caller meanwhile kills the child first."""
    args = [sys.executable, str(PROBE), game_string, str(PROBE_STEPS)]
    args += [str(PROBE_MEMORY), str(PROBE_CPU)]
    # A signal that lands while the child is being started would leave it running unseen: the
    # stopping signals wait until `proc` exists, and are taken inside the `try` below. Blocking
    # them holds for this thread only, and the process's other threads (DuckDB's) may take
    # one, whose handler then runs here in the middle of `Popen`: so the handlers only note
    # a signal until `proc` exists, and it is raised again inside the `try`.
    stopping = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
    noted: list[int] = []
    handlers: dict[signal.Signals, Any] = {}
    if threading.current_thread() is threading.main_thread():
        handlers = {s: signal.signal(s, lambda signum, _f: noted.append(signum)) for s in stopping}
    held = signal.pthread_sigmask(signal.SIG_BLOCK, stopping)
    try:
        proc = subprocess.Popen(
            args,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env={**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"},
        )
    except BaseException:
        _release(handlers, held, noted)
        raise
    try:
        _release(handlers, held, noted)  # a signal raised here: the child is killed below
        out, _ = proc.communicate(timeout=PROBE_WALL)
    except subprocess.TimeoutExpired:
        return {"timeout": True}
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    if proc.returncode < 0:
        return {"died": -proc.returncode}
    lines = out.decode("utf-8", "replace").strip().splitlines()
    try:
        answer = json.loads(lines[-1]) if lines else None
    except ValueError:
        answer = None
    return answer if isinstance(answer, dict) else {"died": 0}


def _refusal(game_string: str, answer: dict[str, Any]) -> str | None:
    """The line refusing the game the probe answered about (None: within the bounds)."""
    shown = f"{game_string[:80]!r}"
    if answer.get("timeout") or answer.get("died") == signal.SIGXCPU:
        return (
            f"OpenSpiel took over {PROBE_CPU} s of CPU to load {shown} and play its opening"
            " (see docs/openspiel.md for the bounds)"
        )
    if answer.get("memory"):
        return (
            f"OpenSpiel needs over {PROBE_MEMORY >> 30} GiB of memory to load {shown}"
            " (see docs/openspiel.md for the bounds)"
        )
    if "died" in answer:
        died = answer["died"]
        how = f"by {signal.Signals(died).name}" if died > 0 else "without an answer"
        return f"OpenSpiel crashed loading {shown} (stopped {how})"
    if "error" in answer:
        text = str(answer["error"])[:160]
        if answer.get("opening"):
            return f"OpenSpiel fails on the opening moves of {shown}: {text}"
        return f"OpenSpiel cannot load {shown}: {text}"
    return check_sizes(game_string, answer)


def sign_refusal(ps: Any, game_string: str) -> str | None:
    """The line refusing a whole-number parameter given below zero where its default is zero
    or more (a size or a count: OpenSpiel takes `hex(board_size=-6)` and builds a board whose
    games never end), or None."""
    try:
        params = dict(ps.game_parameters_from_string(game_string))
    except Exception:  # the parser's own error is what loading reports
        return None
    name = str(params.pop("name", ""))
    defaults = next(
        (dict(gt.parameter_specification) for gt in ps.registered_games() if gt.short_name == name),
        {},
    )
    for k, v in params.items():
        default = defaults.get(k)
        if type(v) is int and type(default) is int and default >= 0 > v:
            return (
                f"{game_string[:80]!r}: {k}={v} is below zero (a size or count; its default"
                f" is {default})"
            )
    return None


def check(ps: Any, game_string: str, key: str | None) -> None:
    """Raise `GameRefused` (one line) unless `game_string` is within the bounds; probe it in
    a child process first when its parameters are not the defaults (`key`: `key_of` it)."""
    if key is None or key in _trusted(ps):
        return
    refused = sign_refusal(ps, game_string)
    if refused is not None:
        raise GameRefused(refused)
    if key not in _ANSWERS:
        _ANSWERS[key] = _refusal(game_string, run_probe(game_string))
    refused = _ANSWERS[key]
    if refused is not None:
        raise GameRefused(refused)
