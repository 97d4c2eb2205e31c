"""Editions of the prompts model seats are shown.

A model seat's prompts are stored inside its `llm_call` events, and a replay renders them
again and compares byte for byte; so a prompt that changes keeps its old text under the old
edition, and every seat stores the edition it was shown (its option `prompts`; a seat stored
without it was shown edition 1).

1. The prompts as first written.
2. Limits a prompt names come from the seat's own options (Cattle Trade's notes); rounds and
   seats are numbered as everywhere else in the harness (Cattle Trade's bid rounds from 1,
   GameBench seats from 0); notations and symbols a game prints are explained or made
   unambiguous (Kuhn poker's moves, Sea Battle's axes and turns, Pit's offers); TextArena
   prompts whose own example contradicts their rules get a correcting line.
3. GameBench's protocol (`style=gamebench`) names GameBench's own action keys in Pit,
   Santorini, Hive, Air, Land and Sea, Arctic Scavengers, Codenames' guesses and Are You the
   Traitor?'s answer (docs/gamebench.md, Action keys); every other prompt is edition 2's.
4. GameBench's protocol asks Are You the Traitor?'s question and stop poll in GameBench's two
   calls each, under GameBench's keys (whom, then `skip` or `openended`; `STOP` or `Pass`,
   then whom); every other prompt is edition 3's.
"""

from __future__ import annotations

from typing import Any

CURRENT = 4
"""The edition new model seats are shown (and people, whose prompts are not stored)."""


def of(options: Any) -> int:
    """The edition a seat with these options is shown."""
    return int(getattr(options, "prompts", CURRENT))
