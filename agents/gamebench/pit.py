"""Pit's definition for the catalogue, and its code agents.

* `random`: a uniformly random legal action (offers, and taking or passing offers).
* `cornerer`: aims at the commodity it holds most of (the more valuable one on a tie) and
  never gives away its aim nor the Bull. For the first `PATIENCE` offers of a round it also
  keeps the last two cards of every other commodity (the last one when it holds the Bull),
  so that it never completes someone else's corner; after that it trades them too, as
  players racing for a corner do (two players who both hold back every corner would trade
  forever: with two seats every card one lacks is in the other's hand). It offers all (up to
  4) of the spare commodity it holds fewest of, clearing odd cards so that its hand narrows
  to its aim, else the Bear; it takes an offer when it can give as many spare cards of one
  kind (the Bear for a single card, else the spare kind it holds fewest of), else passes.
  Under open trading it takes a standing offer of its aim, or of a commodity the offer would
  make its new aim (any commodity once `PATIENCE` turns of a round have gone by), that does
  not carry it past a corner, paying one card (the Bear if it holds it, else the spare
  commodity it holds fewest of); otherwise it offers the spare commodity it holds fewest of (all of it, up to
  4), or the cards of its aim beyond a corner.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from agents.base import Agent
from agents.gamebench.common import GameBenchRandom, RandomAgent
from engine.gamebench.pit import (
    RULES,
    Accept,
    Give,
    Offer,
    OpenTurn,
    Pass,
    PitDecision,
    state_data,
)
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
from projections.gamebench.common import END_REASONS
from projections.gamebench.pit import SQL, PitPrompter, PitView, describe, frames

_BEAR = KINDS.index(BEAR)
_BULL = KINDS.index(BULL)


def aim(hand: list[int]) -> int:
    """The commodity a hand collects: the most cards, then the higher value."""
    return max(range(len(COMMODITIES)), key=lambda i: (hand[i], COMMODITIES[i][1]))


PATIENCE = 8
"""Offers of a round during which a cornerer holds back other seats' corners."""


def spare(hand: list[int], target: int, guard: bool = True) -> list[int]:
    """Cards of each commodity the hand may give away: all but the aim, and with `guard` of
    the others all but the last two (the last one when it holds the Bull), so that giving
    never completes someone else's corner (with the Bull elsewhere, eight cards and the Bull
    are one)."""
    keep = (1 if hand[_BULL] else 2) if guard else 0
    return [0 if i == target else max(hand[i] - keep, 0) for i in range(len(COMMODITIES))]


class Cornerer(Agent):
    """Collects one commodity (see the module docstring); deterministic."""

    spec = "cornerer"

    def __init__(self, seat: int, seed: int, config: Any) -> None:
        super().__init__(seat, seed, config)
        self.round = -1
        self.since = 0
        """The turn the current round's first offer was made at."""

    def act(self, view: PitView, decision: PitDecision | OpenTurn) -> Any:
        if isinstance(decision, OpenTurn):
            return self.trade(view, decision)
        if view.round != self.round:
            self.round, self.since = view.round, view.turn
        hand = view.hand
        target = aim(hand)
        free = spare(hand, target, guard=view.turn - self.since < PATIENCE)
        if decision.kind == "offer":
            odd = [i for i in range(len(free)) if free[i]]
            if odd:
                k = min(odd, key=lambda i: (free[i], i))
                return Offer(kind=KINDS[k], count=min(free[k], MAX_OFFER))
            if hand[_BEAR]:
                return Offer(kind=BEAR, count=1)
            others = [i for i in range(len(COMMODITIES)) if i != target and hand[i]]
            k = max(others, key=lambda i: (hand[i], -i)) if others else target
            return Offer(kind=KINDS[k], count=1)
        count = decision.count
        if count == 1 and hand[_BEAR]:
            return Give(kind=BEAR)
        able = [i for i in range(len(free)) if free[i] >= count]
        if not able:
            return Pass()
        k = min(able, key=lambda i: (free[i], i))
        return Give(kind=KINDS[k])

    def trade(self, view: PitView, d: OpenTurn) -> Any:
        """A turn of open trading (see the module docstring)."""
        if view.round != self.round:
            self.round, self.since = view.round, view.turn
        eager = view.turn - self.since >= PATIENCE
        hand = view.hand
        target = aim(hand)
        need = view.corner - (1 if hand[_BULL] else 0)
        odd = [i for i in range(len(COMMODITIES)) if i != target and hand[i] > 0]
        for seat, kind, count in d.proposals:
            k = KINDS.index(kind)
            if k >= len(COMMODITIES) or hand[k] + count > need:
                continue
            if k != target and hand[k] + count <= hand[target] and not eager:
                continue
            pay = [i for i in odd if i != k]
            give = _BEAR if hand[_BEAR] else min(pay, key=lambda i: (hand[i], i)) if pay else None
            if give is not None:
                take = Accept(offerer=seat, kind=KINDS[give], count=1)
                if take in d.legal:
                    return take
        if hand[target] > need:
            return Offer(kind=KINDS[target], count=min(hand[target] - need, MAX_OFFER))
        if odd:
            k = min(odd, key=lambda i: (hand[i], i))
            return Offer(kind=KINDS[k], count=min(hand[k], MAX_OFFER))
        return Offer(kind=BEAR if hand[_BEAR] else KINDS[target], count=1)


CODE_AGENTS: dict[str, Any] = {
    "random": lambda seat, seed, config: RandomAgent(seat, seed, config),
    # GameBench's menu at Pit is the decision's list (docs/gamebench.md, its random agent).
    "gamebench-random": lambda seat, seed, config: GameBenchRandom(seat, seed, config),
    "cornerer": lambda seat, seed, config: Cornerer(seat, seed, config),
    # GameBench's suite names every game's own heuristic alike (docs/gamebench.md).
    "heuristic": lambda seat, seed, config: Cornerer(seat, seed, config),
}

PRESETS: dict[str, PitConfig] = {
    "standard": PitConfig(),
    "four": PitConfig(players=4, name="four"),
    "quick": PitConfig(target=200, max_turns=40, name="quick"),
    "blind": PitConfig(max_turns=100, trading="blind", corner=9, name="blind"),
}
"""GameBench's two-player game as its code played it; four players; a short game for quick
checks; `blind`, classic Pit's face-down trades of equal counts with corners of all 9 cards
(rules 1.0.0's game)."""


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
    extras={
        "end_reasons": END_REASONS[NAME],
        "match_scores": True,
        "state_data": state_data,
        "frames": frames,
        "drawing": "cli.gamebench.draw",
        "pools": "runner.gamebench.pools",
    },
)
"""Pit, as the catalogue knows it."""
