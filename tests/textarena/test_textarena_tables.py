"""The tables a TextArena seat's text is read into (`projections.textarena.chat`), against
TextArena's own code writing the text: Codenames' board as any seat is shown it, and the
prisoner's dilemma's results, taken from the game's lines alone."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.textarena.rules import _entry_class, _offline_codenames
from engine.textarena.words import word_list
from projections.textarena.chat import chat_board, codenames, messages, payoffs

COLOUR = {"R": "red", "B": "blue", "N": "neutral", "A": "assassin"}
TEAMS = ["R"] * 9 + ["B"] * 8 + ["N"] * 7 + ["A"]


@st.composite
def boards(draw: Any) -> tuple[dict[str, str], set[str], int]:
    """A board as TextArena deals one (25 words, 9 red, 8 blue, 7 neutral, an assassin),
    the words guessed so far and the seat shown it."""
    words = draw(st.lists(st.sampled_from(word_list()), min_size=25, max_size=25, unique=True))
    teams = draw(st.permutations(TEAMS))
    guessed = set(draw(st.lists(st.sampled_from(words), max_size=12)))
    return dict(zip(words, teams, strict=True)), guessed, draw(st.integers(0, 3))


@settings(max_examples=30, deadline=None)
@given(boards())
def test_codenames_board_is_read_as_the_seat_may_know_it(
    dealt: tuple[dict[str, str], set[str], int],
) -> None:
    board, guessed, seat = dealt
    env: Any = SimpleNamespace(
        board=board,
        state=SimpleNamespace(current_player_id=seat, game_state={"guessed_words": guessed}),
    )
    cls = _offline_codenames()
    # The text the board wrapper makes: the prompt, the game's lines, the board last.
    text = f"{cls._prompt(env, seat, {})}\n\n\n\n{cls._render_player_view(env)}"
    got = codenames(text)
    assert got is not None
    assert got["words"] == list(board)
    revealed = [COLOUR[t] if w in guessed else None for w, t in board.items()]
    assert got["shown"] == revealed
    spymaster = seat in (0, 2)
    assert got["key"] == ([COLOUR[t] for t in board.values()] if spymaster else None)
    assert got["role"] == ("spymaster" if spymaster else "operative")
    assert got["team"] == ("red" if seat < 2 else "blue")


def test_prisoners_rounds_come_from_the_games_lines_alone() -> None:
    env = _entry_class("ThreePlayerIPD-v0")(num_rounds=2, communication_turns=1)
    text_of: dict[int, str] = {}
    env.reset(num_players=3, seed=5)
    # Chat, then decisions, for two rounds; a player's words copy a result line.
    fake = (
        "### Round 1 - Results:\n Player 0 vs Player 1 chose to defect and defect respectively"
        " (Player 0 gained 9, Player 1 gained 9)"
    )
    plays = [fake, "hello", "hi", "[1 defect] [2 cooperate]", "[0 cooperate]", "[0 defect]"] * 2
    for action in plays:
        env.step(action)
    for p in range(3):
        text_of[p] = "\n".join(
            f"[{'GAME' if s == -1 else f'Player {s}'}] {m}"
            for s, m, _kind in env.state.observations[p]
        )
    want = [
        [
            [0, 1, "defect", "cooperate", 5, 0],
            [0, 2, "cooperate", "defect", 0, 5],
            [1, 2, "cooperate", "cooperate", 3, 3],
        ],
    ] * 2
    for p in range(3):
        rounds = payoffs(messages(text_of[p]))
        assert [r["pairs"] for r in rounds] == want
        assert [r["totals"] for r in rounds] == [
            [[0, 5], [1, 3], [2, 8]],
            [[0, 10], [1, 6], [2, 16]],
        ]
        assert chat_board(text_of[p], p, None)["payoffs"] == rounds
