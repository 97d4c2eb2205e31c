"""Arctic Scavengers' definition for the catalogue, and its code agents.

* `random`: a uniformly random legal action (GameBench's baseline).
* `warlord`: keeps its fighters for the skirmish and grows its tribe. It gathers only with
  cards of fight 1 or less that do not strike (Refugees, Scavengers, Hunters, Shovels, nets,
  medicine...), in this order: draw, hunt (the most food), hire (the mercenary worth most:
  two per person, its fight, three more for a Sniper Team or Saboteur), dig (the most
  cards), trash its Junk, then stops. From a dig it keeps the card worth most to it (its
  fight or twice its medicine; never Junk). In a skirmish it snipes or sabotages the
  opposing card with the most fight (then people). It never trashes a card with people.
  Deterministic.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from agents.base import Agent
from agents.gamebench.common import GameBenchRandom, RandomAgent
from engine.gamebench.arctic_scavengers import (
    RULES,
    ArcDecision,
    Gather,
    Hire,
    Keep,
    Stop,
    Strike,
    fight,
    state_data,
)
from events.catalog import GameDef
from events.gamebench.arctic_scavengers import (
    ARC_EVENT_TYPES,
    CARDS,
    NAME,
    ORDER,
    STRIKERS,
    ArcticConfig,
)
from projections.gamebench.arctic_scavengers import SQL, ArcPrompter, ArcView, describe, frames
from projections.gamebench.common import END_REASONS

CHEAP = 1
"""The most fight a card may have for the warlord to spend it on gathering."""


def _spare(title: str) -> bool:
    """Whether the warlord spends the card on gathering: fight `CHEAP` or less, and not a
    Sniper Team or Saboteur (they strike in the skirmish)."""
    return CARDS[title].value("fight") <= CHEAP and title not in STRIKERS


def _worth(title: str) -> tuple[int, int]:
    """How much the warlord wants a dug card: (fight, or twice its medicine; people)."""
    c = CARDS[title]
    return (max(c.value("fight"), 2 * c.value("medicine")), c.people)


def _recruit(title: str) -> int:
    """How much the warlord wants a mercenary: two per person, its fight, three if it
    strikes in skirmishes."""
    c = CARDS[title]
    return 2 * c.people + c.value("fight") + (3 if title in STRIKERS else 0)


class Warlord(Agent):
    """Gathers with its weak cards and fights with its strong ones (see the module
    docstring)."""

    spec = "warlord"

    def act(self, view: ArcView, decision: ArcDecision) -> Any:
        legal = decision.legal
        if decision.kind == "keep":
            keeps = [a for a in legal if isinstance(a, Keep) and a.card and a.card != "Junk"]
            if not keeps:
                return Keep(card=None)
            return max(keeps, key=lambda a: (_worth(a.card or "Junk"), -ORDER[a.card or "Junk"]))
        if decision.kind == "skirmish":
            strikes = [a for a in legal if isinstance(a, Strike)]
            if not strikes:
                return Stop()
            return max(
                strikes,
                key=lambda a: (CARDS[a.card].value("fight"), CARDS[a.card].people, -a.target),
            )
        for kind in ("draw", "hunt", "hire", "dig", "trash"):
            pick = self._choose(legal, kind)
            if pick is not None:
                return pick
        return Stop()

    @staticmethod
    def _choose(legal: tuple[Any, ...], kind: str) -> Any:
        if kind == "hire":
            hires = [a for a in legal if isinstance(a, Hire)]
            if not hires:
                return None
            return max(hires, key=lambda a: (_recruit(a.mercenary), -len(a.cards)))
        options = [a for a in legal if isinstance(a, Gather) and a.kind == kind]
        if kind == "trash":
            junk = [a for a in options if set(a.cards) == {"Junk"}]
            return max(junk, key=lambda a: len(a.cards)) if junk else None
        cheap = [a for a in options if all(_spare(t) for t in a.cards)]
        if not cheap:
            return None
        return max(
            cheap,
            key=lambda a: (
                sum(CARDS[t].value(kind) for t in a.cards),
                -fight(a.cards),
                -len(a.cards),
            ),
        )


GATHER_KEYS = ("dig", "draw", "hire", "hunt", "trash", "stop")
"""The open-ended keys of GameBench's gathering menu, in its order."""


class ArcGameBenchRandom(GameBenchRandom):
    """GameBench's own random agent at Arctic Scavengers (docs/gamebench.md): its gathering
    menu holds six open-ended keys, and its empty answer names no cards, which GameBench's
    program replaces by a one-card action; so: `stop` one time in six, else a one-card gather
    drawn uniformly (hiring needs cards named, so it never hires). From a dig it keeps one of
    the dug cards uniformly; in a skirmish its strikes name no card and do nothing, so it
    holds."""

    label = "gamebench:arctic_scavengers:gamebench-random"

    def act(self, view: Any, decision: Any) -> Any:
        assert isinstance(decision, ArcDecision)
        legal = decision.legal
        if decision.kind == "skirmish":
            return next(a for a in legal if isinstance(a, Stop))
        if decision.kind == "keep":
            cards = [a for a in legal if isinstance(a, Keep) and a.card is not None]
            return self.rng.choice(cards or list(legal))
        key = self.rng.choice(GATHER_KEYS)
        singles = [a for a in legal if isinstance(a, Gather) and len(a.cards) == 1]
        if key == "stop" or not singles:
            return next(a for a in legal if isinstance(a, Stop))
        return self.rng.choice(singles)


CODE_AGENTS: dict[str, Any] = {
    "random": lambda seat, seed, config: RandomAgent(seat, seed, config),
    "gamebench-random": lambda seat, seed, config: ArcGameBenchRandom(seat, seed, config),
    "warlord": lambda seat, seed, config: Warlord(seat, seed, config),
    "heuristic": lambda seat, seed, config: Warlord(seat, seed, config),
}

PRESETS: dict[str, ArcticConfig] = {
    "standard": ArcticConfig(),
    "three": ArcticConfig(players=3, name="three"),
    "four": ArcticConfig(players=4, name="four"),
}
"""GameBench's two-player game, and three or four players."""


def presets() -> Mapping[str, ArcticConfig]:
    """Arctic Scavengers' named configurations."""
    return PRESETS


GAME = GameDef(
    name=NAME,
    title="Arctic Scavengers (GameBench)",
    summary=(
        "Deck building over five rounds: spend cards to dig, draw, hunt, hire and trash, "
        "fight a skirmish for each contested resource; the largest tribe wins."
    ),
    event_types=ARC_EVENT_TYPES,
    config_type=ArcticConfig,
    rules=RULES,
    presets=presets,
    default_preset="standard",
    new_view=ArcView,
    describe=describe,
    sql=(SQL,),
    code_agents=CODE_AGENTS,
    prompter=ArcPrompter(),
    extras={
        "end_reasons": END_REASONS[NAME],
        "match_scores": True,
        "state_data": state_data,
        "frames": frames,
        "drawing": "cli.gamebench.draw",
    },
)
"""Arctic Scavengers, as the catalogue knows it."""
