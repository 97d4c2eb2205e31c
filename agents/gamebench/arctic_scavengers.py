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
    """GameBench's own random agent at Arctic Scavengers, following GameBench's program
    (`games/arctic_scavengers/arctic_scavengers.py` at 92a1cea, `update_resource_gather`;
    docs/gamebench.md, GameBench's random agent). Its gathering menu holds six open-ended
    keys and it answers each with an empty string, which names no cards; so, per draw of a key:

    * `STOP` stops;
    * `TRASH`, the first trash of the round: the empty answer fails to parse and the program
      trashes one hand card drawn uniformly;
    * anything else (`DIG`, `DRAW`, `HUNT`, `HIRE`, or a second `TRASH`) fails the program's
      checks, and it plays its own fallback: the first card of the hand with people (the first
      card, trashed, if none has people), with one of that card's actions not yet used this
      round, or `TRASH`, drawn uniformly. A `FIGHT` so drawn does nothing in GameBench's
      program, and the menu is drawn from again, as here.

    A draw that leads to an action the rules here do not list (a zero-value dig or hunt with
    a Refugee or a Tribe Family, a second trash) is drawn again too; `unlisted` counts them.

    That is how it plays under the `legal` fallback (rules 1.0.0, the `tribe` preset). Under
    GameBench's fallback (rules 1.1.0's default) the rules themselves play GameBench's
    procedure for an answer they cannot take, so the agent answers as GameBench's agent
    does: one of the six keys drawn uniformly, naming no card (`Stop` for STOP, an empty
    gather or hire for the others), which the rules refuse and replace.
    From a dig it keeps one of the dug titles uniformly (GameBench's keys are the titles); in
    a skirmish its strikes name no card and do nothing, so it holds."""

    label = "gamebench:arctic_scavengers:gamebench-random"
    reads_view = True

    def __init__(self, seat: int, seed: int, config: Any = None) -> None:
        super().__init__(seat, seed, config)
        self.unlisted: dict[str, int] = {}
        """Draws GameBench's program would have played that the rules here do not list, by
        action (`fight` is not among them: GameBench plays it as nothing)."""

    def act(self, view: Any, decision: Any) -> Any:
        assert isinstance(decision, ArcDecision)
        legal = decision.legal
        if decision.kind == "keep":
            cards = [a for a in legal if isinstance(a, Keep) and a.card is not None]
            return self.rng.choice(cards or list(legal))
        stop = next(a for a in legal if isinstance(a, Stop))
        if decision.kind == "skirmish":
            return stop
        if view.fallback_rule == "gamebench":
            # The rules play GameBench's fallback: answer as GameBench's agent does, a key
            # with nothing named.
            key = self.rng.choice(GATHER_KEYS)
            if key == "stop":
                return stop
            if key == "hire":
                return Hire(mercenary="", cards=())
            return Gather(kind=key, cards=())
        hand = list(view.hand)
        used = set(view.used)
        for _ in range(MAX_DRAWS):
            key = self.rng.choice(GATHER_KEYS)
            if key == "stop":
                return stop
            if key == "trash" and "trash" not in used:
                kind, card = "trash", self.rng.choice(hand)
            else:
                people = [t for t in hand if CARDS[t].people > 0]
                if not people:
                    kind, card = "trash", hand[0]
                else:
                    card = people[0]
                    info = CARDS[card]
                    kinds = [a for a, _ in (*info.standard, *info.modifier) if a not in used]
                    kind = self.rng.choice([*kinds, "trash"])
                    if kind == "fight":
                        continue
            action = Gather(kind=kind, cards=(card,))
            if action in legal:
                return action
            self.unlisted[kind] = self.unlisted.get(kind, 0) + 1
        return stop


MAX_DRAWS = 1000
"""Draws of the menu before the agent stops (it stops on a sixth of them, so never reached)."""


class ArcGameBenchRandomV1(GameBenchRandom):
    """`gamebench-random-v1`, the first version of `ArcGameBenchRandom`, kept unchanged so
    that games stored with it still verify: `stop` one time in six, else a one-card gather
    drawn uniformly (never a hire); from a dig one of the dug cards uniformly; in a skirmish
    it holds."""

    label = "gamebench:arctic_scavengers:gamebench-random-v1"

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
    "gamebench-random-v1": lambda seat, seed, config: ArcGameBenchRandomV1(seat, seed, config),
    "warlord": lambda seat, seed, config: Warlord(seat, seed, config),
    "heuristic": lambda seat, seed, config: Warlord(seat, seed, config),
}

PRESETS: dict[str, ArcticConfig] = {
    "standard": ArcticConfig(),
    "three": ArcticConfig(players=3, name="three"),
    "four": ArcticConfig(players=4, name="four"),
    "tribe": ArcticConfig(winner="tribe", fallback="legal", name="tribe"),
}
"""GameBench's two-player game, three or four players, and `tribe`: rules 1.0.0's game, the
largest tribe (people on all its cards) winning with tied leaders sharing (Appendix J's
"largest tribe") and an unusable answer replaced by a legal one."""


def presets() -> Mapping[str, ArcticConfig]:
    """Arctic Scavengers' named configurations."""
    return PRESETS


GAME = GameDef(
    name=NAME,
    title="Arctic Scavengers (GameBench)",
    summary=(
        "Deck building over five rounds: spend cards to dig, draw, hunt, hire and trash, "
        "fight a skirmish for each contested resource; the most people in the last "
        "skirmish win."
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
