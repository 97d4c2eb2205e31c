"""Counts in the tournament, league, serve, metrics and replay output and in the drawings of a
person's seat are written as words ("1 game", "2 games"), never as "game(s)"."""

from __future__ import annotations

import io
import tokenize
from pathlib import Path

import pytest

from cli.tournament import _pairings, _where

ROOT = Path(__file__).resolve().parents[2]
MODULES = (
    "cli/tournament.py",
    "cli/league.py",
    "cli/serve.py",
    "cli/metrics.py",
    "cli/commands.py",
    "cli/cattle/draw.py",
    "cli/gamebench/draw.py",
    "agents/human/board.py",
    "agents/human/drawn.py",
)
"""The command line's output and the drawings a person at a seat reads (a model's prompts
keep their stored wording)."""


@pytest.mark.parametrize("module", MODULES)
def test_no_string_of_the_module_counts_with_a_bracketed_plural(module: str) -> None:
    source = (ROOT / module).read_text()
    strings = [
        tok.string
        for tok in tokenize.generate_tokens(io.StringIO(source).readline)
        if tok.type in (tokenize.STRING, getattr(tokenize, "FSTRING_MIDDLE", -1))
    ]
    assert not [s for s in strings if "(s)" in s or "(es)" in s]


def test_a_round_robin_says_how_its_games_are_shared_in_words() -> None:
    assert _pairings(2, 1).startswith("1 pairing, 1 match each,")
    assert _pairings(3, 7).startswith("3 pairings, 2 or 3 matches each,")
    assert _pairings(3, 3).startswith("3 pairings, 1 match each,")


def test_local_workers_are_counted_in_words() -> None:
    assert _where("local", 1, None) == "1 worker"
    assert _where("local", 4, None) == "4 workers"
