"""Two Rooms and a Boom as the catalogue knows it, with its code agents.

* `random`: GameBench's random baseline. Under `talk = "ask"` it questions a room-mate drawn
  uniformly and asks and answers with empty strings, as GameBench's `agents/random_agent.py`
  does at f5ffba2 (a listed key drawn uniformly, `openended_response=""`). Under
  `talk = "open"` it picks uniformly among keeping quiet, each listed show and a few stock
  messages. A leader sends a random choice.
* `sleuth`: trusts only cards and colours shown to it, never talk. At a turn to talk it
  shows its whole card to a player known to be its teammate who has not seen it, else its
  colour to its room's leader, else (blue only: red keeps its colour from strangers) to a
  player whose colour it does not know yet, else it says it is blue (true or not). As a
  leader it scores every choice of hostages from what it knows: blue sends the Bomber and
  known reds away from a President it knows is in its room and otherwise keeps reds and
  sends blues; red weighs where the President may be (not a known red nor a known plain
  card; a player of unknown colour half as likely as a known blue), keeps likely Presidents
  with its Bomber or sends them towards a Bomber it knows is in the other room, and sends
  its Bomber across in the last round when the President is more likely over there. Ties
  by its seeded generator. Under `talk = "ask"` it questions the first room-mate (by name)
  whose colour it was not shown, asks for it, answers "I am blue." whatever its colour, and
  leads from what it was shown (nothing, in this talk): it never trusts words.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from agents.gamebench import common
from engine.gamebench.two_rooms import (
    RULES,
    AnswerTurn,
    AskWhomTurn,
    HostageTurn,
    KeepQuiet,
    QuestionTurn,
    Say,
    Send,
    Show,
    TalkTurn,
)
from events.catalog import GameDef
from events.gamebench.two_rooms import (
    BLUE,
    BOMBER,
    EVENT_TYPES,
    NAME,
    PRESIDENT,
    RED,
    TwoRoomsConfig,
    team_seats,
)
from projections.gamebench.common import END_REASONS
from projections.gamebench.two_rooms import TwoRoomsPrompter, TwoRoomsView, describe, seat_lens
from projections.gamebench.two_rooms_frames import frames

SQL = Path(__file__).resolve().parents[2] / "events" / "gamebench" / "two_rooms.sql"
"""The `gb_two_rooms_talk` and `gb_two_rooms_hostages` views."""

STOCK = ("I am blue.", "I am red.", "Who is the leader's friend?", "Show me your colour.")
"""The random agent's messages."""


class RandomAgent(common.RandomAgent):
    """Uniformly random moves (GameBench's random baseline)."""

    label = "gamebench:two_rooms:random"

    def act(self, view: Any, decision: Any) -> Any:
        if isinstance(decision, QuestionTurn | AnswerTurn):
            return Say(seat=self.seat, text="")
        if isinstance(decision, TalkTurn):
            pick = self.rng.randrange(len(decision.legal) + len(STOCK))
            if pick < len(decision.legal):
                return decision.legal[pick]
            return Say(seat=self.seat, text=STOCK[pick - len(decision.legal)])
        return self.rng.choice(decision.legal)


class GameBenchRandomAgent(common.RandomAgent):
    """GameBench's own random agent at Two Rooms: every open-ended action answered with the
    empty string. Under `talk = "ask"` it picks the room-mate to question uniformly (its
    predefined keys) and asks and answers "" (GameBench's `play` at 4f1a3de offers the
    question and the answer as one open-ended key each); under `talk = "open"` it says "" at
    its turn to talk and never shows a card (GameBench's game offers no showing). As a
    leader, one of the listed hostages, uniformly."""

    spec = "gamebench-random"
    label = "gamebench:two_rooms:gamebench-random"

    def act(self, view: Any, decision: Any) -> Any:
        if isinstance(decision, TalkTurn | QuestionTurn | AnswerTurn):
            return Say(seat=self.seat, text="")
        return self.rng.choice(decision.legal)


class SleuthAgent(common.RandomAgent):
    """Shares its card with teammates it found, and leads by what it was shown."""

    spec = "sleuth"
    reads_view = True
    label = "gamebench:two_rooms:sleuth"

    def act(self, view: Any, decision: Any) -> Any:
        if isinstance(decision, AskWhomTurn):
            known = getattr(view, "known", {})
            fresh = [a for a in decision.legal if a.to not in known]
            return min(fresh or list(decision.legal), key=lambda a: decision.names[a.to])
        if isinstance(decision, QuestionTurn):
            return Say(seat=self.seat, text="Which team are you on?")
        if isinstance(decision, AnswerTurn):
            return Say(seat=self.seat, text="I am blue.")
        if isinstance(decision, TalkTurn):
            return self.talk(view, decision)
        assert isinstance(decision, HostageTurn)
        return self.lead(view, decision)

    # ---- talking -----------------------------------------------------------------------

    def talk(self, view: TwoRoomsView, d: TalkTurn) -> Any:
        """Show the card to a known teammate, else the colour to the leader or a stranger."""
        shown = {(to, what) for to, what in view.shown_by_me}
        others = [s for s in view.occupants(d.room) if s != self.seat]
        for s in others:
            k = view.known.get(s)
            if (
                view.roles == "dealt"
                and k is not None
                and k.colour == view.colour
                and (s, "card") not in shown
            ):
                return Show(seat=self.seat, to=s, what="card")
        leader = view.leaders[d.room]
        told = {to for to, _ in view.shown_by_me}
        if leader != self.seat and leader not in told:
            return Show(seat=self.seat, to=leader, what="colour")
        for s in others:
            if s not in view.known and s not in told and view.colour == BLUE:
                return Show(seat=self.seat, to=s, what="colour")
        if d.turn == 1:
            return Say(seat=self.seat, text="I am blue.")
        return KeepQuiet(seat=self.seat)

    # ---- leading -----------------------------------------------------------------------

    def lead(self, view: TwoRoomsView, d: HostageTurn) -> Send:
        """The choice of hostages that scores best (ties by the seeded generator)."""
        last = view.config is not None and d.round == view.config.rounds
        worth = self.worth(view, d.room, last)
        best = max(sum(worth[s] for s in a.hostages) for a in d.legal)
        return self.rng.choice([a for a in d.legal if sum(worth[s] for s in a.hostages) == best])

    def worth(self, view: TwoRoomsView, room: int, last: bool) -> dict[int, float]:
        """How much the leader wants each player of its room sent across."""
        here = view.occupants(room)
        role = {s: k.role for s, k in view.known.items()}
        colour = {s: k.colour for s, k in view.known.items()}
        role[self.seat], colour[self.seat] = view.role, view.colour

        def where(r: str) -> int | None:
            found = [s for s, x in role.items() if x == r]
            return view.rooms[found[0]] if found else None

        worth: dict[int, float] = {}
        if view.colour == BLUE:
            together = where(PRESIDENT) == room
            for s in here:
                if role.get(s) == PRESIDENT:
                    worth[s] = -10.0
                elif role.get(s) == BOMBER:
                    worth[s] = 5.0 if together else -5.0
                elif colour.get(s) == RED:
                    worth[s] = 2.0 if together else 0.0
                elif colour.get(s) == BLUE:
                    worth[s] = 0.0 if together else 2.0
                else:
                    worth[s] = 1.0
            return worth
        # Where the President may be: nowhere among known reds and known plain cards;
        # a player of unknown colour counts half as likely as one known to be blue.
        chance = {
            s: 0.0
            if colour.get(s) == RED or role.get(s) in ("", BOMBER)
            else 100.0
            if role.get(s) == PRESIDENT
            else 1.0
            if s in colour
            else 0.5
            for s in range(len(view.names))
        }
        total = sum(chance.values()) or 1.0
        chance_here = sum(chance[s] for s in here) / total
        top = max(chance.values()) or 1.0
        bomber = where(BOMBER)
        for s in here:
            if role.get(s) == BOMBER:
                worth[s] = 5.0 if last and chance_here < 0.5 else -10.0
            elif bomber is not None and bomber != room:
                worth[s] = 2.0 * chance[s] / top
            else:
                worth[s] = 1.0 - chance[s] / top
        return worth


CODE_AGENTS: dict[str, Any] = {
    "random": RandomAgent,
    "gamebench-random": GameBenchRandomAgent,
    "sleuth": SleuthAgent,
    "heuristic": SleuthAgent,
}
"""Code agents by spec."""


def presets() -> Mapping[str, TwoRoomsConfig]:
    """GameBench's game (6 players, 3 rounds, 1 hostage, roles told to nobody), a short one
    for tests, one where each leader sends 2 of its 3 players, and `dealt`, where each card
    tells its holder its role as in the board game; `open`, where players talk to the whole
    room and show colours (rules 1.1.0's talk) instead of GameBench's questions and answers."""
    return {
        "standard": TwoRoomsConfig().validate(),
        "dealt": TwoRoomsConfig(roles="dealt", name="dealt").validate(),
        "short": TwoRoomsConfig(rounds=2, talks=1, name="short").validate(),
        "two": TwoRoomsConfig(hostages=2, name="two").validate(),
        "open": TwoRoomsConfig(talk="open", name="open").validate(),
        "open_short": TwoRoomsConfig(talk="open", rounds=2, talks=1, name="open_short").validate(),
    }


GAME = GameDef(
    name=NAME,
    title="Two Rooms and a Boom (GameBench)",
    summary=(
        "Blue and red players in two rooms talk, show cards and swap hostages for three"
        " rounds; red wins if the Bomber ends in the President's room."
    ),
    event_types=EVENT_TYPES,
    config_type=TwoRoomsConfig,
    rules=RULES,
    presets=presets,
    default_preset="standard",
    new_view=TwoRoomsView,
    describe=describe,
    sql=(SQL,),
    code_agents=dict(CODE_AGENTS),
    prompter=TwoRoomsPrompter(),
    extras={
        "end_reasons": END_REASONS[NAME],
        "teams": team_seats(TwoRoomsConfig().players),
        "match_scores": True,
        "seat_numbering": True,
        "seat_lens": seat_lens,
        "hidden_lineup": True,
        "frames": frames,
        "drawing": "cli.gamebench.draw",
    },
)
"""GameBench's Two Rooms and a Boom, as the catalogue knows it."""
