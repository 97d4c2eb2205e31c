"""Which Kuhhandel peer engine a directory holds: the fingerprint of its first hundred games.

    uv run python bench/peer.py PEER_DIR

Speed ratios against the public kuhhandel-ml engine mean something only if everyone times the
same rebuild of it. This plays seeds 0 to 99 of the directory's engine (four of its random
agents, four players, its controller stepping until the game is over), writes down how every
game ends (each player's animals, sorted by name, and money total), and prints the first 16
hex digits of a SHA-256 over those endings, with the mean number of agent decisions a game.
A rebuild with other file versions or other end rules plays other games and prints another
fingerprint. The peer seeds Python's global `random` and needs numpy; `fingerprint` runs it in
a child process so that neither touches the caller.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

CANONICAL = "82e0e307b10a29c2"
"""The fingerprint of the peer rebuilt as the shared recipe says (453.1 decisions a game)."""
SEEDS = 100
STEP_LIMIT = 200_000
"""Controller steps after which a game counts as endless (the canonical peer never needs it)."""


class PeerError(RuntimeError):
    """The peer directory could not be played."""


def _ending(game: Any) -> str:
    """How a finished peer game ends: per player, sorted animal names, then money total."""
    parts = []
    for player in game.players:
        names = []
        for card in player.animals:
            kind = getattr(card, "animal_type", card)
            names.append(kind.name if hasattr(kind, "name") else str(kind))
        money = sum(getattr(m, "value", 0) for m in getattr(player, "money", []))
        parts.append(",".join(sorted(names)) + f"|{money}")
    return ";".join(parts)


def _play_all(folder: str) -> dict[str, Any]:
    """Play the fingerprint's games in this process (it seeds the global `random`)."""
    sys.path.insert(0, folder)
    from gameengine import Game
    from gameengine.controller import GameController
    from rl.agents.random_agent import RandomAgent

    decisions = 0
    choose = RandomAgent.get_action

    def counted(self: Any, game: Any, valid: Any) -> Any:
        nonlocal decisions
        decisions += 1
        return choose(self, game, valid)

    RandomAgent.get_action = counted
    endings = hashlib.sha256()
    for seed in range(SEEDS):
        game = Game(num_players=4, seed=seed)
        game.setup()
        controller = GameController(game, [RandomAgent(f"r{i}") for i in range(4)])
        for _ in range(STEP_LIMIT):
            if game.is_game_over():
                break
            controller.step()
        else:
            raise SystemExit(f"seed {seed}: no end after {STEP_LIMIT:,} steps")
        endings.update(_ending(game).encode())
    return {"digest": endings.hexdigest()[:16], "decisions_per_game": decisions / SEEDS}


def fingerprint(folder: Path) -> dict[str, Any]:
    """The fingerprint of the peer in `folder` (`digest`, `decisions_per_game`), computed in
    a child process; `PeerError` if it cannot be played."""
    if not (folder / "gameengine").is_dir():
        raise PeerError(f"{folder}: no gameengine package there")
    done = subprocess.run(
        [sys.executable, __file__, str(folder), "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["(no message)"])[-1]
        raise PeerError(f"{folder}: the peer did not play its games: {last}")
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def main() -> None:
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    got = _play_all(str(Path(sys.argv[1]).resolve()))
    if "--json" in sys.argv[2:]:
        print(json.dumps(got))
        return
    verdict = "the canonical peer" if got["digest"] == CANONICAL else "NOT the canonical peer"
    print(f"digest {got['digest']}  decisions/game {got['decisions_per_game']:.1f}  ({verdict})")


if __name__ == "__main__":
    main()
