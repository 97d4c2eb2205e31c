"""Load one OpenSpiel game in a short-lived process of its own and report its sizes.

Run as a script by `engine.openspiel.guard` (`python probe.py GAME_STRING STEPS MEMORY CPU`):
it caps its own address space and CPU time first, so a game string whose loading would take
all memory, crash or never finish costs a child process, not the caller. It loads the game,
makes the initial state and plays `STEPS` actions (the first chance outcome, the middle legal
action), reading every seat's string on the way, and a game declared short on to its end,
then prints one JSON object on its standard
output: the game's sizes, or the error that stopped it. It needs only `pyspiel` and the
standard library.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import signal
import sys
from typing import Any


def _limit(memory: int, cpu: int) -> None:
    """Cap the address space and CPU seconds of this process; no core file on a crash."""
    for kind, soft in (
        (resource.RLIMIT_AS, memory),
        (resource.RLIMIT_CPU, cpu),
        (resource.RLIMIT_CORE, 0),
    ):
        _, hard = resource.getrlimit(kind)
        if hard != resource.RLIM_INFINITY:
            soft = min(soft, hard)
        # A system that refuses a limit (macOS and RLIMIT_AS) probes without it.
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(kind, (soft, hard if kind != resource.RLIMIT_CPU else soft + 1))


def _strings(game: Any, state: Any) -> int:
    """The longest string the harness would read for a seat at `state`."""
    kind = game.get_type()
    longest = len(str(state))
    for p in range(game.num_players()):
        if kind.provides_information_state_string:
            longest = max(longest, len(state.information_state_string(p)))
        elif kind.provides_observation_string:
            longest = max(longest, len(state.observation_string(p)))
    return longest


def _tensor(game: Any, provided: bool, name: str) -> int | None:
    """A tensor's size (None where the game has none, or does not implement it)."""
    try:
        return int(getattr(game, name)()) if provided else None
    except Exception:  # pyspiel.SpielError: "... unimplemented"
        return None


def probe(game_string: str, steps: int) -> dict[str, Any]:
    """The sizes of `game_string` and what an opening of `steps` actions showed."""
    import pyspiel as ps

    short = game_string.split("(", 1)[0].strip()
    if short not in ps.registered_names():
        import open_spiel.python.games  # noqa: F401  (Python games register on import)
    game = ps.load_game(game_string)
    kind = game.get_type()
    out: dict[str, Any] = {
        "actions": int(game.num_distinct_actions()),
        "length": int(game.max_game_length()),
        "chance": int(game.max_chance_outcomes()),
        "players": int(game.num_players()),
        "observation": _tensor(game, kind.provides_observation_tensor, "observation_tensor_size"),
        "information": _tensor(
            game, kind.provides_information_state_tensor, "information_state_tensor_size"
        ),
    }
    for key in ("actions", "length", "chance", "observation", "information"):
        if out[key] is not None and not 0 <= out[key] <= 10**9:
            return out  # sizes past any bound: the caller refuses without an opening
    try:
        return {**out, **_opening(game, steps)}
    except MemoryError:
        raise
    except Exception as exc:  # the game fails on a move: the caller refuses it
        return {**out, "error": " ".join(str(exc).split()) or type(exc).__name__, "opening": True}


def _opening(game: Any, steps: int) -> dict[str, Any]:
    """Play the first `steps` actions; the longest seat string seen and how many were played."""
    state = game.new_initial_state()
    longest = _strings(game, state)
    played, chance = 0, 0
    while played < steps and not state.is_terminal():
        if state.is_chance_node():
            chance = max(chance, len(state.chance_outcomes()))
        error = _step(game, state)
        if error is not None:
            return {"error": error, "opening": True}
        played += 1
        longest = max(longest, _strings(game, state))
    # A short game is played on to its end, which must come within the length the game
    # declares (parameters OpenSpiel takes without sense can build a game that never ends).
    length = int(game.max_game_length())
    while not state.is_terminal() and played <= min(length, ENDGAME):
        error = _step(game, state)
        if error is not None:
            return {"error": error, "opening": True}
        played += 1
    if played > length and not state.is_terminal():
        return {"error": f"it goes on past its own longest game ({length} moves)", "opening": True}
    return {"string": longest, "played": played, "outcomes": chance}


def _step(game: Any, state: Any) -> str | None:
    """Play one action at `state` (the first chance outcome, the middle legal action), or
    say why none can be played."""
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        if not outcomes:
            return "a chance node has no outcomes"
        state.apply_action(outcomes[0][0])
    elif state.is_simultaneous_node():
        joint = [state.legal_actions(p) for p in range(game.num_players())]
        if not all(joint):
            return "a player has no legal action"
        state.apply_actions([acts[len(acts) // 2] for acts in joint])
    else:
        acts = state.legal_actions()
        if not acts:
            return "the player to move has no legal action"
        state.apply_action(acts[len(acts) // 2])
    return None


ENDGAME = 2_000
"""Moves a probe plays to find the end of a game whose declared length is at most this."""


def main() -> None:
    """Limit this process, probe the game, print the answer as one JSON line."""
    game_string, steps, memory, cpu = sys.argv[1], *map(int, sys.argv[2:5])
    _limit(memory, cpu)
    # The caller held its stopping signals while it started this process, which inherits that.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM, signal.SIGHUP})
    # Only the answer goes to standard output; OpenSpiel's own prints go to standard error.
    answer = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    try:
        result = probe(game_string, steps)
    except MemoryError:
        result = {"memory": True}
    except (
        Exception
    ) as exc:  # pyspiel raises SpielError / RuntimeError / ValueError with its reason
        result = {"error": " ".join(str(exc).split()) or type(exc).__name__}
    answer.write(json.dumps(result) + "\n")
    answer.flush()


if __name__ == "__main__":
    main()
