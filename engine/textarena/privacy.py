"""Which TextArena environments send one player another player's private facts.

TextArena addresses each message it adds to a game either to every player or to one
(`State.add_observation(..., to_id=...)`). A message addressed to one player is that player's
own: its hand, its secret role, its army. The check plays an environment for a few steps with
actions taken from the bracketed choices its observations list (else a guess), watches every
message as it is added, and looks at what each player is then handed: a line that TextArena
addressed to player j alone, and never to player i, must not reach player i (through a message
to everyone or to i). Stratego-v0, for one, hands every player a board drawn for the player
to move, so the other player reads the first player's army.

Lines shorter than `MIN_LINE` characters are left out (a bare number or "Round 2" is no
private fact). The check finds leaks in what it plays; an environment it finds nothing in
may still leak later in a game.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.textarena.rules import GameRandom, make_env, textarena

MIN_LINE = 12
"""Characters a line needs to count as a fact."""
STEPS = 12
"""Environment steps the check plays per seed."""
SEEDS = (0, 1)
"""Seeds the check plays each environment with."""
LEAKS_FILE = Path(__file__).resolve().parents[2] / "data" / "textarena_leaks.json"
"""The environments found to leak, with a reason each (written by
bench/textarena_privacy.py, read when a game is configured)."""

_OPTION = re.compile(r"\[[^\[\]\n]{1,40}\]")


@dataclass
class _Watch:
    """Lines addressed to each player alone, and the first leak seen."""

    players: int
    own: dict[int, set[str]] = field(default_factory=dict)
    leak: str | None = None

    def lines(self, message: str) -> list[str]:
        return [ln.strip() for ln in str(message).splitlines() if len(ln.strip()) >= MIN_LINE]

    def sent(self, to_id: int, message: str, kind: Any = None) -> None:
        """Note a message as TextArena adds it. A player's own action echoed back to it is
        no dealt fact: any player may type the same words."""
        if to_id >= 0 and getattr(kind, "name", "") != "PLAYER_ACTION":
            self.own.setdefault(to_id, set()).update(self.lines(message))

    def handed(self, player: int, message: str) -> None:
        """Look at a message handed to `player` for lines another player holds alone."""
        if self.leak is not None:
            return
        mine = self.own.get(player, set())
        for line in self.lines(message):
            if line in mine:
                continue
            for other, theirs in self.own.items():
                if other != player and line in theirs:
                    self.leak = (
                        f"player {player} is sent a line addressed to player {other} alone:"
                        f" {line[:80]!r}"
                    )
                    return


MASKS = ("?",)
"""What a board drawn for one player puts where another's piece is hidden from it."""


def _perspectives(env: Any, state: Any, players: int) -> str | None:
    """A message to everyone drawn from the view of the player to move: TextArena's
    `_observe_current_state` drawn for each player in turn, whose drawings differ where one
    hides what another shows (a line of one holds a mask, the same line of the other does
    not). Sent to everyone, a player reads the board of the player to move."""
    observe = getattr(
        env.unwrapped if hasattr(env, "unwrapped") else env, "_observe_current_state", None
    )
    if observe is None or players < 2:
        return None
    drawn: dict[int, list[str]] = {}
    keep = state.current_player_id
    saved = {p: list(q) for p, q in state.observations.items()}
    try:
        for p in range(players):
            got: list[str] = []

            def add(
                message: str,
                observation_type: Any,
                from_id: int = -1,
                to_id: int = -1,
                got: list[str] = got,
            ) -> None:
                if to_id == -1:
                    got.extend(str(message).splitlines())

            state.add_observation = add
            state.current_player_id = p
            try:
                observe()
            except Exception:  # drawing for a player not to move is not always possible:
                return None  # this look then tells nothing, and the message check goes on
            finally:
                vars(state).pop("add_observation", None)
            drawn[p] = got
    finally:
        state.current_player_id = keep
        for p, q in saved.items():
            state.observations[p] = q
    first = drawn[0]
    for p in range(1, players):
        other = drawn[p]
        if len(other) != len(first):
            continue
        for a, b in zip(first, other, strict=True):
            if a != b and any((m in a) != (m in b) for m in MASKS):
                return (
                    "every player is sent the board drawn for the player to move, which"
                    f" shows what the others' boards hide: {a.strip()[:60]!r}"
                    f" against {b.strip()[:60]!r}"
                )
    return None


def _action(text: str, rng: random.Random) -> str:
    """A choice the observation lists in brackets, else a plain guess."""
    found = _OPTION.findall(text[-4000:])
    if found:
        return rng.choice(found)
    return rng.choice(["[0]", "[1]", "[A]", "[yes]", "[pass]", "hello"])


def _play(env_id: str, players: int, seed: int, steps: int) -> str | None:
    rng = random.Random(f"{seed}:privacy")
    game = GameRandom(seed)
    watch = _Watch(players)
    base = textarena().State
    original = base.add_observation

    def add(
        self: Any, message: str, observation_type: Any, from_id: int = -1, to_id: int = -1
    ) -> Any:
        watch.sent(int(to_id), message, observation_type)
        return original(self, message, observation_type, from_id=from_id, to_id=to_id)

    # Every message TextArena adds goes through its base state's method (the players'
    # prompts at reset included); it is watched for the length of the check only.
    base.add_observation = add
    try:
        with game.active():
            env = make_env(env_id)
            env.reset(num_players=players, seed=seed)
            state = env.state
            seen = _perspectives(env, state, players)
            if seen is not None:
                return seen
            for _ in range(steps):
                player = int(state.current_player_id)
                for m in state.observations.get(player, ()):
                    watch.handed(player, m[1])
                if watch.leak is not None:
                    return watch.leak
                _, text = env.get_observation()
                try:
                    done, _ = env.step(action=_action(str(text), rng))
                except Exception:  # an environment's own failure ends the look, not the check
                    break
                if done:
                    break
            for pid, queue in state.observations.items():
                for m in queue:
                    watch.handed(int(pid), m[1])
    finally:
        base.add_observation = original
    return watch.leak


def leak(
    env_id: str, players: int, *, seeds: tuple[int, ...] = SEEDS, steps: int = STEPS
) -> str | None:
    """Why `env_id` sends a player another's private facts (the first case found), or None."""
    for seed in seeds:
        found = _play(env_id, players, seed, steps)
        if found is not None:
            return found
    return None


def known_leaks() -> dict[str, str]:
    """The environments the shipped check found leaking, with the reason for each."""
    try:
        data = json.loads(LEAKS_FILE.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    return {str(k): str(v) for k, v in data.get("leaks", {}).items()}
