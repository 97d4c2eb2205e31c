"""GameBench's "Are You the Traitor?" as the catalogue knows it, with its code agents.

* `random`: GameBench's random baseline. It asks a random other player a line from a short
  list, answers with another, and in the stop poll passes or calls stop half the time each,
  pointing at a random other player.
* `sleuth`: talks in suspicions and stops only with a reason. Its questions and answers name
  the player it suspects (`I suspect Player X.`). A good seat suspects the non-wizard that the
  others' words point at most, and counts a player who points at itself (it knows it is
  innocent) as suspect. The evil seats deflect: the traitor points at the guard (the
  non-wizard that is neither itself nor the key holder, so the key holder stays hidden), the
  evil wizard joins whoever is pointed at most. It calls stop when one candidate for its
  target leads the others by two, or by one in the round's last poll; the evil wizard takes
  for the key holder the non-wizard pointed at least (good seats point at the traitor, the
  traitor at the guard), the key holder the wizard pointed at least. A wrong accusation
  hands the round to the other team, so waiting beats guessing.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from agents.base import Agent
from agents.gamebench import common
from engine.gamebench.traitor import (
    RULES,
    AnswerDecision,
    Ask,
    AskDecision,
    Pass,
    Say,
    Stop,
    StopDecision,
)
from events.catalog import GameDef
from events.gamebench.traitor import (
    EVENT_TYPES,
    EVIL_WIZARD,
    GOOD_WIZARD,
    GUARD,
    KEY_HOLDER,
    NAME,
    TEAM_OF_SEAT,
    TRAITOR,
    TraitorConfig,
)
from projections.gamebench.common import END_REASONS
from projections.gamebench.protocol import SPLIT_EDITION
from projections.gamebench.traitor import TraitorPrompter, TraitorView, describe
from projections.gamebench.traitor_frames import frames

SQL = Path(__file__).resolve().parents[2] / "events" / "gamebench" / "traitor.sql"
"""The `gb_ayt_rounds` and `gb_ayt_talk` views."""

LINES: tuple[str, ...] = (
    "Who do you trust here?",
    "Are you a wizard?",
    "What is your role?",
    "I am just a guard.",
    "I trust nobody yet.",
    "Why so quiet?",
    "I know what I am doing.",
)
"""What the random agent says."""


class RandomAgent(common.RandomAgent):
    """Random questions and answers; stops half the time at a random player."""

    label = "gamebench:are_you_the_traitor:random"

    def act(self, view: Any, decision: Any) -> Any:
        if isinstance(decision, AskDecision):
            to = self.rng.choice(decision.names)
            return Ask(seat=self.seat, to=to, text=self.rng.choice(LINES))
        if isinstance(decision, AnswerDecision):
            return Say(seat=self.seat, text=self.rng.choice(LINES))
        assert isinstance(decision, StopDecision)
        if self.rng.random() < 0.5:
            return Pass(seat=self.seat)
        return self.rng.choice(decision.legal[1:])


class GameBenchRandomAgent(common.RandomAgent):
    """GameBench's own random agent at Are You the Traitor?: the player to ask uniformly,
    every question and answer the empty string; at a stop poll `STOP` or `Pass` with even
    odds (its two keys), and after `STOP` the accused uniformly among the others."""

    spec = "gamebench-random"
    label = "gamebench:are_you_the_traitor:gamebench-random"

    def act(self, view: Any, decision: Any) -> Any:
        if isinstance(decision, AskDecision):
            return Ask(seat=self.seat, to=self.rng.choice(decision.names), text="")
        if isinstance(decision, AnswerDecision):
            return Say(seat=self.seat, text="")
        assert isinstance(decision, StopDecision)
        stops = [a for a in decision.legal if isinstance(a, Stop)]
        if not stops or self.rng.random() < 0.5:
            return Pass(seat=self.seat)
        return self.rng.choice(stops)


_SUSPECT = re.compile(r"suspect player ([A-E])\b", re.IGNORECASE)


def pointings(view: TraitorView) -> list[tuple[str, str]]:
    """(speaker, name pointed at) of each speaker's last `I suspect Player X` this round (a
    speaker who repeats itself counts once)."""
    last: dict[str, str] = {}
    for _, _, speaker, _, text in view.talk:
        for m in _SUSPECT.finditer(text):
            last[speaker] = m.group(1).upper()
    return sorted(last.items())


class SleuthAgent(Agent):
    """Names its suspicions, deflects when evil, and stops only with a reason."""

    spec = "sleuth"

    def __init__(self, seat: int, seed: int, config: Any) -> None:
        super().__init__(seat, seed, config)
        self.rng = random.Random(f"{seed}:{NAME}:sleuth:{seat}")

    # what it believes --------------------------------------------------------------------

    def _non_wizards(self, view: TraitorView) -> list[str]:
        return [n for n in "ABCDE" if n not in view.wizards]

    def _said(self, view: TraitorView) -> dict[str, int]:
        """How often others pointed at each name this round."""
        counts = dict.fromkeys("ABCDE", 0)
        for speaker, name in pointings(view):
            if speaker != view.name:
                counts[name] += 1
        return counts

    def _traitor_scores(self, view: TraitorView) -> dict[str, int]:
        """Suspicion of each traitor candidate (good seats): the others' pointing, plus two
        for every time a player pointed at this seat, which it knows to be false."""
        said = self._said(view)
        scores = {n: said[n] for n in self._non_wizards(view) if n != view.name}
        for speaker, name in pointings(view):
            if name == view.name and speaker in scores:
                scores[speaker] += 2
        return scores

    def _candidates(self, view: TraitorView) -> dict[str, int]:
        """Candidates for the role this seat's stop must find, higher is likelier."""
        role = view.role
        said = self._said(view)
        if role in (GOOD_WIZARD, GUARD):
            return self._traitor_scores(view)
        if role == KEY_HOLDER:
            return {n: -said[n] for n in view.wizards}
        if role == EVIL_WIZARD:
            return {n: -said[n] for n in self._non_wizards(view)}
        return {}

    def _suspect(self, view: TraitorView) -> str | None:
        """The name this seat says it suspects, None when it has no reason to name one."""
        others = [n for n in self._non_wizards(view) if n != view.name]
        if view.role == TRAITOR:
            guard = [n for n in others if n != view.key_holder]
            return guard[0] if guard else None
        scores = self._said(view) if view.role == EVIL_WIZARD else self._traitor_scores(view)
        best = max(others, key=lambda n: (scores[n], n))
        return best if scores[best] > 0 else None

    # what it does --------------------------------------------------------------------------

    def act(self, view: Any, decision: Any) -> Any:
        suspect = self._suspect(view)
        said = f"I suspect Player {suspect}." if suspect else "I have no suspect yet."
        if isinstance(decision, AskDecision):
            if suspect in decision.names:
                return Ask(seat=self.seat, to=suspect, text=f"{said} What do you say to that?")
            to = self.rng.choice(decision.names)
            return Ask(seat=self.seat, to=to, text="Whom do you suspect, and why?")
        if isinstance(decision, AnswerDecision):
            return Say(seat=self.seat, text=said)
        assert isinstance(decision, StopDecision)
        scores = self._candidates(view)
        if not scores:
            return Pass(seat=self.seat)
        ranked = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))
        lead = ranked[0][1] - (ranked[1][1] if len(ranked) > 1 else ranked[0][1] - 2)
        if lead >= 2 or (decision.last and lead >= 1):
            return Stop(seat=self.seat, accused=ranked[0][0])
        return Pass(seat=self.seat)


CODE_AGENTS: dict[str, Any] = {
    "random": RandomAgent,
    "gamebench-random": GameBenchRandomAgent,
    "sleuth": SleuthAgent,
    "heuristic": SleuthAgent,
}
"""Code agents by spec."""


def presets() -> Mapping[str, TraitorConfig]:
    """GameBench's game (10 points), and a short one for quick tests."""
    return {
        "standard": TraitorConfig().validate(),
        "quick": TraitorConfig(target=5, max_rounds=4, max_exchanges=3, name="quick").validate(),
    }


GAME = GameDef(
    name=NAME,
    title="Are You the Traitor? (GameBench)",
    summary=(
        "Hidden-role talk for five: two evil (traitor, evil wizard) against three good (good"
        " wizard, key holder, guard); stop and point at the right role to win treasure."
    ),
    event_types=EVENT_TYPES,
    config_type=TraitorConfig,
    rules=RULES,
    presets=presets,
    default_preset="standard",
    new_view=TraitorView,
    describe=describe,
    sql=(SQL,),
    code_agents=dict(CODE_AGENTS),
    prompter=TraitorPrompter(),
    extras={
        # Under style=gamebench a question and a stop poll take two calls from this edition.
        "two_calls_from_edition": SPLIT_EDITION,
        "end_reasons": END_REASONS[NAME],
        "teams": TEAM_OF_SEAT,
        "match_scores": True,
        # A seat's pages number its own events: the count of events it did not see (who was
        # polled, a ring theft between two other players) is hidden too.
        "seat_numbering": True,
        # Teams are fixed by seat with one agent per team: the lineup would tell a seat which
        # agents are on its side, so seat pages show it only once the game is over.
        "hidden_lineup": True,
        "frames": frames,
        "drawing": "cli.gamebench.draw",
    },
)
"""GameBench's Are You the Traitor?, as the catalogue knows it."""
