"""Pit's definition for the catalogue, and its code agents.

* `random`: a uniformly random legal action (offers, and taking or passing offers).
* `cornerer`: aims at the commodity it holds most of (the more valuable one on a tie). It
  offers the Bear first, else as many cards as it may of the commodity it holds most of among
  the others; it takes an offer when it can give cards it does not want (the Bear first, else
  the unwanted commodity it holds fewest of, with enough cards), never its aim nor the Bull.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from agents.base import Agent
from agents.gamebench.common import RandomAgent
from engine.gamebench.pit import RULES, Give, Offer, Pass, PitDecision
from events.catalog import GameDef
from events.gamebench.pit import (
    BEAR,
    BULL,
    COMMODITIES,
    KINDS,
    MAX_OFFER,
    NAME,
    PIT_EVENT_TYPES,
    PitConfig,
)
from projections.gamebench.pit import SQL, PitPrompter, PitView, describe

_BEAR = KINDS.index(BEAR)
_BULL = KINDS.index(BULL)


def aim(hand: list[int]) -> int:
    """The commodity a hand collects: the most cards, then the higher value."""
    return max(range(len(COMMODITIES)), key=lambda i: (hand[i], COMMODITIES[i][1]))


class Cornerer(Agent):
    """Collects one commodity (see the module docstring); deterministic."""

    spec = "cornerer"

    def act(self, view: PitView, decision: PitDecision) -> Any:
        hand = view.hand
        target = aim(hand)
        if decision.kind == "offer":
            if hand[_BEAR]:
                return Offer(kind=BEAR, count=1)
            spare = [i for i in range(len(COMMODITIES)) if i != target and hand[i]]
            if not spare:
                return decision.legal[0]
            k = max(spare, key=lambda i: (hand[i], -i))
            return Offer(kind=KINDS[k], count=min(hand[k], MAX_OFFER))
        count = decision.count
        if count == 1 and hand[_BEAR]:
            return Give(kind=BEAR)
        spare = [
            i for i in range(len(COMMODITIES)) if i != target and i != _BULL and hand[i] >= count
        ]
        if not spare:
            return Pass()
        k = min(spare, key=lambda i: (hand[i], i))
        return Give(kind=KINDS[k])


CODE_AGENTS: dict[str, Any] = {
    "random": lambda seat, seed, config: RandomAgent(seat, seed, config),
    "cornerer": lambda seat, seed, config: Cornerer(seat, seed, config),
}

PRESETS: dict[str, PitConfig] = {
    "standard": PitConfig(),
    "four": PitConfig(players=4, name="four"),
    "quick": PitConfig(target=200, max_turns=40, name="quick"),
}
"""GameBench's two-player game; four players; a short game for quick checks."""


def presets() -> Mapping[str, PitConfig]:
    """Pit's named configurations."""
    return PRESETS


GAME = GameDef(
    name=NAME,
    title="Pit (GameBench)",
    summary=(
        "Commodity trading: offer cards of one kind face down, swap with whoever takes the "
        "offer, corner a commodity for points; the match score is the share of all points."
    ),
    event_types=PIT_EVENT_TYPES,
    config_type=PitConfig,
    rules=RULES,
    presets=presets,
    default_preset="standard",
    new_view=PitView,
    describe=describe,
    sql=(SQL,),
    code_agents=CODE_AGENTS,
    prompter=PitPrompter(),
    extras={"match_scores": True},
)
"""Pit, as the catalogue knows it."""
