"""Codenames as the catalogue knows it, with its code agents.

* `random`: GameBench's random baseline. A spymaster gives a random legal theme word for 1 to 3
  cards; an operative picks uniformly among the hidden words and passing.
* `gamebench-random`: GameBench's own random agent as its code plays Codenames (docs/gamebench.md):
  the spymaster always clues "None" for 1; the operative picks uniformly among the hidden words
  and ending the turn.
* `associate`: plays both roles from the project's word-association table
  (engine/gamebench/codenames_words.py). The spymaster picks the legal theme that covers the
  most of its hidden cards more strongly than any card it must avoid (never a theme the
  assassin carries) and gives that count; the operative guesses the hidden words of the
  clue's theme, strongest first, as many as the number says, then passes.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from agents.base import Agent
from agents.gamebench import common
from engine.gamebench.codenames import (
    RULES,
    ClueDecision,
    GiveClue,
    Guess,
    GuessDecision,
    Pass,
    clue_problem,
)
from engine.gamebench.codenames_words import THEMES, strength
from events.catalog import GameDef
from events.gamebench.codenames import ASSASSIN, EVENT_TYPES, NAME, TEAMS, CodenamesConfig
from projections.gamebench.codenames import CodenamesPrompter, CodenamesView, describe, frames
from projections.gamebench.common import END_REASONS

SQL = Path(__file__).resolve().parents[2] / "events" / "gamebench" / "codenames.sql"
"""The `gb_codenames_clues` and `gb_codenames_guesses` views."""


class _Board:
    """Just what `clue_problem` reads of a state: the words, which are revealed, the config."""

    def __init__(self, view: CodenamesView) -> None:
        assert view.config is not None
        self.words = view.words
        self.revealed = tuple(s is not None for s in view.shown)
        self.config = view.config


def legal_themes(view: CodenamesView) -> list[str]:
    """The themes the rules accept as a clue on this board now."""
    board = _Board(view)
    return [t for t in THEMES if clue_problem(t, 1, board) is None]  # type: ignore[arg-type]


class RandomAgent(common.RandomAgent):
    """Uniformly random legal moves (GameBench's random baseline)."""

    reads_view = True
    label = "gamebench:codenames:random"

    def act(self, view: Any, decision: Any) -> Any:
        if isinstance(decision, ClueDecision):
            word = self.rng.choice(legal_themes(view) or ["pass"])
            return GiveClue(seat=self.seat, word=word, number=self.rng.randint(1, 3))
        options = [*decision.options, None]
        pick = self.rng.choice(options)
        return Pass(seat=self.seat) if pick is None else Guess(seat=self.seat, word=pick)


class GameBenchRandomAgent(common.RandomAgent):
    """GameBench's own random agent at Codenames: the clue "None" for 1, random guesses."""

    spec = "gamebench-random"
    label = "gamebench:codenames:gamebench-random"

    def act(self, view: Any, decision: Any) -> Any:
        if isinstance(decision, ClueDecision):
            # GameBench's random agent answers the open-ended clue with an empty string, which
            # its Codenames reads as no clue and replaces by "None" for one card.
            return GiveClue(seat=self.seat, word="None", number=1)
        # One pick among every hidden word and ending the turn, as its menu lists them.
        options = [*decision.options, None]
        pick = self.rng.choice(options)
        return Pass(seat=self.seat) if pick is None else Guess(seat=self.seat, word=pick)


def theme_of(clue: str) -> str | None:
    """The theme a clue word stands for: itself, or a theme sharing its first four letters."""
    if clue in THEMES:
        return clue
    if len(clue) >= 4:
        for t in THEMES:
            if t[:4] == clue[:4]:
                return t
    return None


class AssociateAgent(Agent):
    """Clues and guesses from the word-association table."""

    spec = "associate"

    def act(self, view: Any, decision: Any) -> Any:
        if isinstance(decision, ClueDecision):
            word, number = self.clue(view)
            return GiveClue(seat=self.seat, word=word, number=number)
        assert isinstance(decision, GuessDecision)
        return self.guess(view, decision)

    def clue(self, view: CodenamesView) -> tuple[str, int]:
        """The best legal theme and how many own hidden cards it clearly points to."""
        key = view.key
        assert key is not None
        own = view.team
        hidden = [(w, k) for w, k, s in zip(view.words, key, view.shown, strict=True) if s is None]
        best: tuple[int, int, str] = (-1, 0, "")
        for theme in legal_themes(view):
            avoid = [strength(theme, w) for w, k in hidden if k != own]
            if any(strength(theme, w) for w, k in hidden if k == ASSASSIN):
                continue
            bar = max(avoid, default=0)
            mine = [strength(theme, w) for w, k in hidden if k == own]
            count = sum(1 for s in mine if s > bar)
            total = sum(s for s in mine if s > bar)
            if (count, total) > best[:2]:
                best = (count, total, theme)
        if best[0] <= 0:
            themes = legal_themes(view)
            return (themes[0] if themes else "pass"), 1
        return best[2], best[0]

    def guess(self, view: CodenamesView, d: GuessDecision) -> Any:
        """The strongest hidden word of the clue's theme while the number allows, else pass."""
        theme = theme_of(d.clue)
        limit = d.number if d.number > 0 else len(view.words)
        if theme is None or d.guesses >= limit:
            return Pass(seat=self.seat)
        ranked = sorted(
            ((strength(theme, w), -i, w) for i, w in enumerate(view.words) if w in d.options),
            reverse=True,
        )
        if not ranked or ranked[0][0] == 0:
            return Pass(seat=self.seat)
        return Guess(seat=self.seat, word=ranked[0][2])


CODE_AGENTS: dict[str, Any] = {
    "random": RandomAgent,
    "gamebench-random": GameBenchRandomAgent,
    "associate": AssociateAgent,
    # GameBench's suite names every game's own heuristic alike (docs/gamebench.md).
    "heuristic": AssociateAgent,
}
"""Code agents by spec."""


def presets() -> Mapping[str, CodenamesConfig]:
    """The standard game (GameBench's 21 cards: 9/8/3/1)."""
    return {"standard": CodenamesConfig().validate()}


GAME = GameDef(
    name=NAME,
    title="Codenames (GameBench)",
    summary=(
        "Two teams of spymaster and operative find their words on a 21-card board from"
        " one-word clues (9/8/3/1); scores are shares of GameBench's points."
    ),
    event_types=EVENT_TYPES,
    config_type=CodenamesConfig,
    rules=RULES,
    presets=presets,
    default_preset="standard",
    new_view=CodenamesView,
    describe=describe,
    sql=(SQL,),
    code_agents=dict(CODE_AGENTS),
    prompter=CodenamesPrompter(),
    extras={
        "end_reasons": END_REASONS[NAME],
        "teams": (TEAMS[0], TEAMS[0], TEAMS[1], TEAMS[1]),
        "match_scores": True,
        "frames": frames,
        "drawing": "cli.gamebench.draw",
    },
)
"""GameBench's Codenames, as the catalogue knows it."""
