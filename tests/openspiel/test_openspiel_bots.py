"""Sanity of the code agents: MCTS (1000 simulations, as GTBench) crushes random at the two
board games, and Tit-for-Tat cooperates with itself in every round."""

from __future__ import annotations

import pytest

from events import catalog
from events.openspiel.game import MovePlayed
from runner.session import play_game

GAME = catalog.get("openspiel")
MATCHES = 20
"""Matches per game; MCTS sits first in half of them."""


def nra(mine: float, theirs: float) -> float:
    """GTBench's normalized relative advantage of one match (0 when both score 0)."""
    total = abs(mine) + abs(theirs)
    return 0.0 if total == 0 else (mine - theirs) / total


@pytest.mark.parametrize("preset", ["tic_tac_toe", "connect_four"])
def test_mcts_beats_random(preset: str) -> None:
    wins, advantage = 0, 0.0
    for i in range(MATCHES):
        mcts_seat = i % 2
        agents = ["mcts", "random"] if mcts_seat == 0 else ["random", "mcts"]
        scores = play_game(GAME.preset(preset), 1000 + i, agents).result.scores
        mine, theirs = scores[mcts_seat], scores[1 - mcts_seat]
        wins += mine > theirs
        advantage += nra(mine, theirs)
    assert wins >= 0.9 * MATCHES
    assert advantage / MATCHES > 0.8


def test_a_weak_mcts_is_weaker() -> None:
    # The same harness tells strengths apart: 2 simulations lose far more often than 1000.
    losses = 0
    for i in range(MATCHES):
        scores = play_game(GAME.preset("tic_tac_toe"), 2000 + i, ["random", "mcts?simulations=2"])
        losses += scores.result.scores[1] < 0
    assert losses >= 2


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_tit_for_tat_cooperates_with_itself_every_round(seed: int) -> None:
    record = play_game(GAME.preset("prisoners_dilemma"), seed, ["tft", "tft"])
    moves = [e for e in record.events if isinstance(e, MovePlayed)]
    assert moves and all(m.text == "COOPERATE" for m in moves)
    rounds = len(moves) // 2
    assert record.result.scores == (5.0 * rounds, 5.0 * rounds)


def test_tit_for_tat_answers_a_defection_in_the_next_round() -> None:
    for seed in range(10):
        record = play_game(GAME.preset("prisoners_dilemma"), seed, ["random", "tft"])
        moves = [e for e in record.events if isinstance(e, MovePlayed)]
        mine = [m.text for m in moves if m.player == 1]
        theirs = [m.text for m in moves if m.player == 0]
        assert mine[0] == "COOPERATE"
        assert mine[1:] == theirs[:-1]
