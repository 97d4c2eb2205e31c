"""What a Two Rooms seat sees, how an event reads, and the prompts of a model seat.

`TwoRoomsView` folds exactly the events a seat may see: the public set-up (names, rooms,
leaders), its own card, what was said in its room while it was there, the cards and colours
shown to it and by it, its own hostage choices, every exchange of hostages and the end. The
seat numbers fix the teams, so everything a seat is shown names the others by their letters
only: its observation (`TrObservation`), its prompts, and through `SeatLens` its timeline
lines and the event fields of its viewer pages. Changing another seat's card, the talk of
the other room, or which seats stand behind the letters leaves them byte-identical
(tests/gamebench/test_two_rooms.py).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from engine.gamebench.common import Explain
from engine.gamebench.two_rooms import (
    NO_ANSWER,
    AnswerTurn,
    Ask,
    AskWhomTurn,
    HostageTurn,
    KeepQuiet,
    QuestionTurn,
    Say,
    Send,
    Show,
    TalkTurn,
    hostage_fallback,
)
from events import agent as ae
from events.gamebench import two_rooms as te
from events.gamebench.two_rooms import BOMBER, PRESIDENT, TwoRoomsConfig
from projections.gamebench import common
from projections.gamebench.common import (
    GameBenchPrompter,
    RuleBook,
    ViewBase,
    answer_schema,
    explain_pattern,
    instruction,
    key,
    read_line,
    rules_lines,
)


class Known(msgspec.Struct, frozen=True, kw_only=True):
    """What a seat was shown of another player's card: its colour, and its role when the
    whole card was shown ('' for none; None when only the colour was shown)."""

    seat: int
    colour: str
    role: str | None


class KnownCard(msgspec.Struct, frozen=True, kw_only=True):
    """A card another player showed the seat, by that player's name (`role` None when only
    the colour was shown)."""

    name: str
    colour: str
    role: str | None


class Asked(msgspec.Struct, frozen=True, kw_only=True):
    """The decision a seat is asked, as it reads it: its kind, where and when, and the
    labels of its choices (players named by letter)."""

    kind: str
    round: int
    room: int
    turn: int
    options: tuple[str, ...]


class TrObservation(msgspec.Struct, frozen=True, kw_only=True):
    """What one Two Rooms seat knows at a point of the game, every other player named by
    its letter (seat numbers would tell the teams; `seat` is the seat's own)."""

    seat: int
    name: str
    colour: str
    role: str
    rooms: tuple[tuple[str, ...], tuple[str, ...]]
    """The players in room 0 and in room 1 now, by name."""
    leaders: tuple[str, str]
    known: tuple[KnownCard, ...]
    shown_by_me: tuple[tuple[str, str], ...]
    """(to whom, what) of every show of this seat."""
    talk: tuple[tuple[int, int, str, str | None], ...]
    """(round, room, speaker, text or None for keeping quiet) of every turn heard."""
    swaps: tuple[tuple[int, tuple[str, ...], tuple[str, ...]], ...]
    explained: tuple[str, ...]
    ended: bool
    pending: Asked | None = None


class TwoRoomsView(ViewBase):
    """Incremental fold of the events visible to one Two Rooms seat."""

    def __init__(self, seat: int) -> None:
        super().__init__(seat)
        self.config: TwoRoomsConfig | None = None
        self.names: tuple[str, ...] = ()
        self.rooms: list[int] = []
        self.leaders: tuple[int, int] = (0, 0)
        self.colour = ""
        self.role = ""
        self.roles = "hidden"
        """How the game deals roles (`TwoRoomsConfig.roles`)."""
        self.known: dict[int, Known] = {}
        self.shown_by_me: list[tuple[int, str]] = []
        self.talk: list[tuple[int, int, int, str | None]] = []
        self.talk_mode = "open"
        """How the game's players talk (`TwoRoomsConfig.talk`)."""
        self.exchanges: list[tuple[int, int, int, int, str | None, str | None]] = []
        """Questions heard (`talk = "ask"`): (round, room, asker, answerer, question, answer;
        None while unanswered or unasked)."""
        self.swaps: list[tuple[int, tuple[int, ...], tuple[int, ...]]] = []
        self.chosen: list[te.TrHostagesChosen] = []
        self.refusals: list[te.TrRequestRefused] = []
        self.end: te.TrEnded | None = None

    def name(self, seat: int) -> str:
        """A seat's name."""
        return self.names[seat] if 0 <= seat < len(self.names) else ""

    @property
    def room(self) -> int:
        """The room this seat is in now."""
        return self.rooms[self.seat]

    def occupants(self, room: int) -> list[int]:
        """The seats in a room now, in the order of their names."""
        return sorted((s for s, r in enumerate(self.rooms) if r == room), key=self.name)

    def fold(self, e: Any) -> None:
        """Take one visible event into the view."""
        match e:
            case te.TrSaid():
                self.talk.append((e.round, e.room, e.seat, e.text))
            case te.TrKeptQuiet():
                self.talk.append((e.round, e.room, e.seat, None))
            case te.TrAskedWhom():
                self.exchanges.append((e.round, e.room, e.seat, e.to, None, None))
            case te.TrAsked():
                if self.exchanges and self.exchanges[-1][2:4] == (e.seat, e.to):
                    self.exchanges.pop()
                self.exchanges.append((e.round, e.room, e.seat, e.to, e.text, None))
            case te.TrAnswered():
                if self.exchanges and self.exchanges[-1][2:4] == (e.asker, e.seat):
                    self.exchanges.pop()
                self.exchanges.append((e.round, e.room, e.asker, e.seat, e.question, e.text))
            case te.TrAskSkipped():
                if self.exchanges and self.exchanges[-1][2] == e.seat:
                    self.exchanges.pop()
            case te.TrShown():
                if e.to == self.seat:
                    old = self.known.get(e.seat)
                    role: str | None = e.role if e.what == "card" else None
                    if old is not None and role is None:
                        role = old.role
                    self.known[e.seat] = Known(seat=e.seat, colour=e.colour, role=role)
                if e.seat == self.seat:
                    self.shown_by_me.append((e.to, e.what))
            case te.TrHostagesChosen():
                self.chosen.append(e)
            case te.TrHostagesSwapped():
                for room, sent in enumerate(e.sent):
                    for s in sent:
                        self.rooms[s] = 1 - room
                self.swaps.append((e.round, e.sent[0], e.sent[1]))
            case te.TrRequestRefused():
                self.refusals.append(e)
            case te.TrCardDealt():
                self.colour, self.role = e.colour, e.role
            case te.TrSetUp():
                self.names = e.names
                self.rooms = list(e.rooms)
                self.leaders = e.leaders
            case te.TrStarted():
                self.config = e.config
                self.roles = te.roles_of(e)
                self.talk_mode = te.talk_of(e)
            case te.TrEnded():
                self.ended = True
                self.end = e

    def names_of(self, seats: Sequence[int]) -> tuple[str, ...]:
        """The names of some seats, in the given order."""
        return tuple(self.name(s) for s in seats)

    def snapshot(self, pending: Any = None) -> TrObservation:
        """The seat's knowledge as a value, with the decision asked of it (if any)."""
        asked = pending if pending is not None and self.seat in pending.seats else None
        rooms = (
            self.names_of(self.occupants(0)) if self.rooms else (),
            self.names_of(self.occupants(1)) if self.rooms else (),
        )
        return TrObservation(
            seat=self.seat,
            name=self.name(self.seat),
            colour=self.colour,
            role=self.role,
            rooms=rooms,
            leaders=self.names_of(self.leaders) if self.names else ("", ""),  # type: ignore[arg-type]
            known=tuple(
                KnownCard(name=self.name(k.seat), colour=k.colour, role=k.role)
                for k in sorted(self.known.values(), key=lambda k: self.name(k.seat))
            ),
            shown_by_me=tuple((self.name(to), what) for to, what in self.shown_by_me),
            talk=tuple((r, room, self.name(s), text) for r, room, s, text in self.talk)
            + tuple(
                (r, room, self.name(a), f"to {self.name(b)}: {q!r} / {ans!r}")
                for r, room, a, b, q, ans in self.exchanges
            ),
            swaps=tuple(
                (r, tuple(sorted(self.names_of(a))), tuple(sorted(self.names_of(b))))
                for r, a, b in self.swaps
            ),
            explained=tuple(self.explained),
            ended=self.ended,
            pending=None if asked is None else asked_of(asked),
        )


def asked_of(d: Any) -> Asked:
    """A decision as its seat reads it (no seat numbers)."""
    labels = [label for label, _ in labelled(d)]
    if isinstance(d, TalkTurn):
        return Asked(
            kind=d.kind, round=d.round, room=d.room, turn=d.turn, options=(SAY_LABEL, *labels)
        )
    if isinstance(d, QuestionTurn | AnswerTurn):
        return Asked(kind=d.kind, round=d.round, room=d.room, turn=0, options=(SAY_LABEL,))
    return Asked(kind=d.kind, round=d.round, room=d.room, turn=0, options=tuple(labels))


# --------------------------------------------------------------------------- timeline


def _seat(seat: int, viewer: int | None) -> str:
    return f"Seat {seat}{' (you)' if viewer == seat else ''}"


def _seats(seats: Sequence[int]) -> str:
    return ", ".join(str(s) for s in seats) or "nobody"


def describe(e: Any, viewer: int | None = None) -> str | None:
    """One line of text for a Two Rooms event, by seat number: the omniscient timeline's
    (a seat's and the public's lines come from `SeatLens`, which names players by letter)."""
    match e:
        case te.TrSaid():
            return f"  R{e.round} room {e.room}: {_seat(e.seat, viewer)} says {e.text!r}"
        case te.TrKeptQuiet():
            return f"  R{e.round} room {e.room}: {_seat(e.seat, viewer)} keeps quiet"
        case te.TrAskedWhom():
            return (
                f"  R{e.round} room {e.room}: {_seat(e.seat, viewer)} picks {_seat(e.to, viewer)}"
            )
        case te.TrAsked():
            return (
                f"  R{e.round} room {e.room}: {_seat(e.seat, viewer)} asks"
                f" {_seat(e.to, viewer)} {e.text!r}"
            )
        case te.TrAskSkipped():
            return f"  R{e.round} room {e.room}: {_seat(e.seat, viewer)} asks nothing"
        case te.TrAnswered():
            told = f" (told to {_seat(e.leader, viewer)})" if e.leader >= 0 else ""
            return (
                f"  R{e.round} room {e.room}: {_seat(e.seat, viewer)} answers"
                f" {_seat(e.asker, viewer)} {e.text!r}{told}"
            )
        case te.TrShown():
            role = f", {e.role or 'no role'}" if e.what == "card" else ""
            return (
                f"  R{e.round} room {e.room}: {_seat(e.seat, viewer)} shows its {e.what}"
                f" ({e.colour}{role}) to {_seat(e.to, viewer)}"
            )
        case te.TrHostagesChosen():
            return (
                f"  R{e.round}: {_seat(e.seat, viewer)}, leader of room {e.room}, picks"
                f" hostages {_seats(e.hostages)}"
            )
        case te.TrHostagesSwapped():
            return (
                f"Round {e.round} over: room 0 sends seats {_seats(e.sent[0])}, room 1 sends"
                f" seats {_seats(e.sent[1])}"
            )
        case te.TrRuleExplained():
            return f"  {_seat(e.seat, viewer)} reads the rules on {e.heading!r}"
        case te.TrRequestRefused():
            return f"! {_seat(e.seat, viewer)}: refused ({e.reason})"
        case te.TrCardDealt():
            role = f", the {e.role}" if e.role else ""
            return f"{_seat(e.seat, viewer)} holds a {e.colour} card{role}"
        case te.TrRolesDrawn():
            return f"Roles (told to nobody): President seat {e.president}, Bomber seat {e.bomber}"
        case te.TrSetUp():
            names = ", ".join(f"{s}={n}" for s, n in enumerate(e.names))
            rooms = " / ".join(
                _seats([s for s, r in enumerate(e.rooms) if r == room]) for room in (0, 1)
            )
            return (
                f"Names: {names}; rooms 0 / 1: {rooms}; leaders: seat {e.leaders[0]},"
                f" seat {e.leaders[1]}"
            )
        case te.TrStarted():
            agents = ", ".join(f"{i}={s.agent}" for i, s in enumerate(e.seats))
            return f"Two Rooms and a Boom started ({e.config.name}, seed {e.seed}): {agents}"
        case te.TrEnded():
            return (
                f"Game over: {e.winner} wins (President in room {e.president_room}, Bomber in"
                f" room {e.bomber_room}); scores {', '.join(f'{s:g}' for s in e.scores)}"
            )
        case ae.LLMCall():
            what = e.error or f"{e.finish_reason}, parsed: {e.parse_stage}"
            return f"  [{e.provider}:{e.model}] Seat {e.seat} {e.decision}/{e.stage}: {what}"
        case ae.ActionDefaulted():
            return f"! Seat {e.seat}'s {e.decision} defaulted to {e.action} ({e.reason})"
    return None


class SeatLens:
    """A Two Rooms log as a seat (or the public) reads it, event by event: the timeline
    line and the event's fields with every player named by its letter, never by seat number
    (the seat numbers fix the teams). Fed every event the reader sees, in order, it learns
    the names at the set-up (the `seat_lens` of the game's definition)."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.names: tuple[str, ...] = ()

    def who(self, seat: int) -> str:
        """A player as this reader names it: its letter, with "(you)" for the reader."""
        name = self.names[seat] if 0 <= seat < len(self.names) else "?"
        return f"{name} (you)" if seat == self.seat else name

    def some(self, seats: Sequence[int]) -> str:
        """Players by their letters in the order of the letters, or "nobody"."""
        return ", ".join(sorted(self.who(s) for s in seats)) or "nobody"

    def _letters(self, seats: Sequence[int]) -> list[str]:
        """The letters of some seats, in the given order."""
        return [self.names[s] if 0 <= s < len(self.names) else "?" for s in seats]

    def _group(self, seats: Sequence[int]) -> list[str]:
        """The letters of a group of seats, in the order of the letters."""
        return sorted(self._letters(seats))

    def _by_name(self, values: Sequence[Any]) -> dict[str, Any]:
        """A value per seat keyed by the seats' letters, in the order of the letters."""
        return {
            n: v for n, v in sorted(zip(self._letters(range(len(values))), values, strict=True))
        }

    def line(self, e: Any) -> str | None:
        """The timeline line of one event this reader sees."""
        if isinstance(e, te.TrSetUp):
            self.names = e.names
        match e:
            case te.TrStarted():
                return f"Two Rooms and a Boom started ({e.config.name}, seed {e.seed})"
            case te.TrSetUp():
                rooms = " / ".join(
                    self.some([s for s, r in enumerate(e.rooms) if r == room]) for room in (0, 1)
                )
                you = f"You are {self._letters([self.seat])[0]}; " if self.seat is not None else ""
                leaders = ", ".join(self.who(s) for s in e.leaders)  # room 0's, room 1's
                return f"{you}rooms 0 / 1: {rooms}; leaders: {leaders}"
            case te.TrCardDealt():
                role = f", the {e.role}" if e.role else ""
                return f"{self.who(e.seat)} holds a {e.colour} card{role}"
            case te.TrSaid():
                return f"  R{e.round} room {e.room}: {self.who(e.seat)} says {e.text!r}"
            case te.TrKeptQuiet():
                return f"  R{e.round} room {e.room}: {self.who(e.seat)} keeps quiet"
            case te.TrAskedWhom():
                return f"  R{e.round} room {e.room}: {self.who(e.seat)} picks {self.who(e.to)}"
            case te.TrAsked():
                return (
                    f"  R{e.round} room {e.room}: {self.who(e.seat)} asks {self.who(e.to)}"
                    f" {e.text!r}"
                )
            case te.TrAskSkipped():
                return f"  R{e.round} room {e.room}: {self.who(e.seat)} asks nothing"
            case te.TrAnswered():
                return (
                    f"  R{e.round} room {e.room}: {self.who(e.seat)} answers"
                    f" {self.who(e.asker)}'s {e.question!r} with {e.text!r}"
                )
            case te.TrShown():
                role = f", {e.role or 'no role'}" if e.what == "card" else ""
                return (
                    f"  R{e.round} room {e.room}: {self.who(e.seat)} shows its {e.what}"
                    f" ({e.colour}{role}) to {self.who(e.to)}"
                )
            case te.TrHostagesChosen():
                return (
                    f"  R{e.round}: {self.who(e.seat)}, leader of room {e.room}, picks"
                    f" hostages {self.some(e.hostages)}"
                )
            case te.TrHostagesSwapped():
                return (
                    f"Round {e.round} over: room 0 sends {self.some(e.sent[0])}, room 1 sends"
                    f" {self.some(e.sent[1])}"
                )
            case te.TrRuleExplained():
                return f"  {self.who(e.seat)} reads the rules on {e.heading!r}"
            case te.TrRequestRefused():
                return f"! {self.who(e.seat)}: refused ({e.reason})"
            case te.TrEnded():
                president = next(s for s, (_, r) in enumerate(e.cards) if r == PRESIDENT)
                bomber = next(s for s, (_, r) in enumerate(e.cards) if r == BOMBER)
                teams = "; ".join(
                    f"{team}: "
                    + self.some(
                        sorted((s for s, (c, _) in enumerate(e.cards) if c == team), key=self.who)
                    )
                    for team in te.TEAMS
                )
                return (
                    f"Game over: {e.winner} wins (President {self.who(president)} in room"
                    f" {e.president_room}, Bomber {self.who(bomber)} in room {e.bomber_room});"
                    f" {teams}"
                )
            case ae.ActionDefaulted():
                return f"! {self.who(e.seat)}'s {e.decision} defaulted to {self.action(e.action)} ({e.reason})"
        return None

    def action(self, raw: str) -> str:
        """A recorded action (its JSON) in the reader's words."""
        try:
            a = _ACTION.decode(raw)
        except msgspec.DecodeError:
            return "an unreadable action"
        match a:
            case Say():
                return f"saying {a.text!r}"
            case KeepQuiet():
                return "keeping quiet"
            case Show():
                return f"showing its {a.what} to {self.who(a.to)}"
            case Send():
                return f"sending {self.some(a.hostages)}"
            case Ask():
                return f"questioning {self.who(a.to)}"
        return f"asking for the rules on {getattr(a, 'heading', '?')!r}"

    def fields(self, e: Any) -> dict[str, Any]:
        """The event's fields as this reader is shown them: players by letter."""
        if isinstance(e, te.TrSetUp):
            self.names = e.names
        match e:
            case te.TrSetUp():
                rooms = [
                    sorted(n for n, r in zip(e.names, e.rooms, strict=True) if r == room)
                    for room in (0, 1)
                ]
                you = {"you": self._letters([self.seat])[0]} if self.seat is not None else {}
                return {**you, "rooms": rooms, "leaders": self._letters(e.leaders)}
            case te.TrCardDealt():
                return {"player": self._letters([e.seat])[0], "colour": e.colour, "role": e.role}
            case te.TrSaid() | te.TrKeptQuiet():
                out = {"player": self._letters([e.seat])[0], "round": e.round, "room": e.room}
                if isinstance(e, te.TrSaid):
                    out["text"] = e.text
                return {**out, "hearers": self._group(e.hearers)}
            case te.TrShown():
                return {
                    "player": self._letters([e.seat])[0],
                    "to": self._letters([e.to])[0],
                    "round": e.round,
                    "room": e.room,
                    "what": e.what,
                    "colour": e.colour,
                    "role": e.role,
                }
            case te.TrAskedWhom() | te.TrAsked():
                out = {
                    "player": self._letters([e.seat])[0],
                    "to": self._letters([e.to])[0],
                    "round": e.round,
                    "room": e.room,
                }
                return {**out, "text": e.text} if isinstance(e, te.TrAsked) else out
            case te.TrAskSkipped():
                return {"player": self._letters([e.seat])[0], "round": e.round, "room": e.room}
            case te.TrAnswered():
                return {
                    "player": self._letters([e.seat])[0],
                    "asker": self._letters([e.asker])[0],
                    "round": e.round,
                    "room": e.room,
                    "question": e.question,
                    "text": e.text,
                    "leader_told": e.leader >= 0,
                }
            case te.TrHostagesChosen():
                return {
                    "player": self._letters([e.seat])[0],
                    "round": e.round,
                    "room": e.room,
                    "hostages": self._group(e.hostages),
                }
            case te.TrHostagesSwapped():
                return {
                    "round": e.round,
                    "sent": [self._group(e.sent[0]), self._group(e.sent[1])],
                }
            case te.TrRuleExplained():
                return {
                    "player": self._letters([e.seat])[0],
                    "heading": e.heading,
                    "round": e.round,
                }
            case te.TrRequestRefused():
                # The raw answer is the action as the rules take it, by seat number: left out.
                return {
                    "player": self._letters([e.seat])[0],
                    "turn": e.turn,
                    "reason": e.reason,
                    "explain": e.explain,
                }
            case te.TrEnded():
                return {
                    "reason": e.reason,
                    "winner": e.winner,
                    "president_room": e.president_room,
                    "bomber_room": e.bomber_room,
                    "rooms": self._by_name(e.rooms),
                    "cards": self._by_name([list(c) for c in e.cards]),
                    "scores": self._by_name(e.scores),
                    "ranks": self._by_name(e.ranks),
                }
            case ae.ActionDefaulted():
                return {
                    "player": self._letters([e.seat])[0],
                    "decision": e.decision,
                    "action": self.action(e.action),
                    "reason": e.reason,
                }
        fields = msgspec.to_builtins(e)
        fields.pop("type", None)
        return fields


_ACTION: msgspec.json.Decoder[Say | KeepQuiet | Show | Send | Ask | Explain] = msgspec.json.Decoder(
    Say | KeepQuiet | Show | Send | Ask | Explain
)


def seat_lens(seat: int | None) -> SeatLens:
    """A fresh reader of the log for `seat` (None: the public, what every seat sees)."""
    return SeatLens(seat)


def timeline(events: Sequence[Any], seat: int | None = None) -> list[str]:
    """Every event `seat` may see (all when None), one line each; a seat's lines name the
    players by letter only."""
    if seat is None:
        return common.timeline(describe, events, seat)
    lens = SeatLens(seat)
    return common.timeline(lambda e, _viewer: lens.line(e), events, seat)


# --------------------------------------------------------------------------- prompts

_OUTLINE = (
    "Two teams, blue and red, are mixed across two rooms, and nobody knows anyone else's"
    " team at the start. The blue team has the President, the red team the Bomber. After the"
    " last round, red wins if the Bomber is in the same room as the President; blue wins if"
    " they are in different rooms."
)

SUMMARY = (
    _OUTLINE + " Each round the players of a room talk and may show their cards to each other;"
    " then the leader of each room sends hostages to the other room."
)
"""The summary under open talk (`talk = "open"`)."""

ASK_SUMMARY = (
    _OUTLINE + " Each round every player puts one question to another player of its room and"
    " hears the answer; then the leader of each room sends hostages to the other room."
)
"""The summary under GameBench's talk (`talk = "ask"`), where nobody shows a card."""

SECTIONS: dict[str, str] = {
    "Teams and cards": (
        "Half the players are blue and half red. Each player holds one card: its colour, and"
        " for one blue player the role President, for one red player the role Bomber. You"
        " see only your own card, and what others choose to show you. Every player on the"
        " winning team wins (score 1), every player on the other team loses (score 0)."
    ),
    "Rooms and leaders": (
        "The players start split evenly and at random between room 0 and room 1. Everyone"
        " knows who is in which room. Each room has a leader, drawn at the start and the same"
        " for the whole game; everyone knows who the leaders are. A leader never leaves its"
        " room."
    ),
    "Talking and showing": (
        "In each round every player gets a fixed number of turns to talk, in the order of"
        " the players' names. On a turn you may say one message to your room (heard only by"
        " the players in your room; anyone may lie), show your whole card (colour and role)"
        " to one player of your room, show only your colour to one player, or keep quiet. A"
        " card or colour you show is seen by that player only, and it cannot be faked."
    ),
    "Hostages": (
        "At the end of each round the leader of each room chooses players of its room (never"
        " itself) as hostages; neither leader knows the other's choice until both have"
        " chosen. Then the hostages of each room move to the other room, and everyone sees"
        " who moved."
    ),
    "Winning": (
        "The game lasts a fixed number of rounds. After the last exchange of hostages the"
        " cards are revealed: red wins if the Bomber and the President are in the same room,"
        " blue wins otherwise."
    ),
}
"""The rules under each heading (the project's words), when each card tells its role."""

HIDDEN_SECTIONS: dict[str, str] = {
    **SECTIONS,
    "Teams and cards": (
        "Half the players are blue and half red. Each player holds one card, which tells it"
        " only its colour. One blue player is the President and one red player the Bomber,"
        " but nobody is told who, not even the two themselves, until the cards are revealed"
        " at the end. Every player on the winning team wins (score 1), every player on the"
        " other team loses (score 0)."
    ),
    "Talking and showing": (
        "In each round every player gets a fixed number of turns to talk, in the order of"
        " the players' names. On a turn you may say one message to your room (heard only by"
        " the players in your room; anyone may lie), show your colour to one player of your"
        " room, or keep quiet. A colour you show is seen by that player only, and it cannot"
        " be faked."
    ),
}
"""The rules under each heading when the cards keep roles hidden (the default)."""

BOOK = RuleBook(
    title="Two Rooms and a Boom", summary=SUMMARY, sections=tuple(HIDDEN_SECTIONS.items())
)
"""The rules as a model sees them (roles hidden)."""

DEALT_BOOK = RuleBook(
    title="Two Rooms and a Boom", summary=SUMMARY, sections=tuple(SECTIONS.items())
)
"""The rules as a model sees them when each card tells its role."""


QUESTIONS = (
    "In each round, room 0 first, then room 1, every player in turn (in the order of the"
    " players' names) picks one other player of its room, asks it one question and hears its"
    " answer (anyone may lie). Only the two of them hear the question and the answer, except"
    " that the room's leader is also told of it when the player who asked is not the leader"
    " and is on the leader's team. Nobody can show a card."
)
"""The rules of GameBench's talk (`talk = "ask"`), in the project's words."""


def _ask_book(book: RuleBook) -> RuleBook:
    sections = tuple(
        ("Questions", QUESTIONS) if h == "Talking and showing" else (h, text)
        for h, text in book.sections
    )
    return RuleBook(title=book.title, summary=ASK_SUMMARY, sections=sections)


ASK_BOOK = _ask_book(BOOK)
ASK_DEALT_BOOK = _ask_book(DEALT_BOOK)


def book_of(view: TwoRoomsView) -> RuleBook:
    """The rule book of the game a view follows."""
    if view.talk_mode == "ask":
        return ASK_DEALT_BOOK if view.roles == "dealt" else ASK_BOOK
    return DEALT_BOOK if view.roles == "dealt" else BOOK


def _names(view: TwoRoomsView, seats: Sequence[int]) -> str:
    """Players by name, in the order of their names (seat order would tell the teams)."""
    return ", ".join(sorted(view.name(s) for s in seats)) or "nobody"


def _card(colour: str, role: str | None) -> str:
    if role is None:
        return f"{colour} (colour only)"
    if role in (PRESIDENT, BOMBER):
        return f"{colour}, the {role.capitalize()}"
    return f"{colour}, no role"


def observation_text(view: TwoRoomsView, decision: Any) -> str:
    """What the seat knows, in its own words: its card, the rooms, what it was shown and
    the talk it heard."""
    c = view.config
    assert c is not None
    me = view.name(view.seat)
    if view.roles == "dealt":
        role = f", the {view.role.upper()}" if view.role else ", no special role"
    else:
        role = " (it does not tell a role)"
    lines = [
        f"You are player {me}. Your card: {view.colour.upper()} team{role}.",
        f"Round {decision.round} of {c.rounds}; each leader sends {c.hostages} hostage(s)"
        " per round.",
    ]
    for room in (0, 1):
        here = " (you are here)" if view.room == room else ""
        leader = view.name(view.leaders[room])
        lines.append(f"Room {room}{here}: {_names(view, view.occupants(room))}; leader {leader}.")
    if view.swaps:
        lines.append("Hostages so far:")
        lines += [
            f"  round {r}: room 0 sent {_names(view, a)}, room 1 sent {_names(view, b)}"
            for r, a, b in view.swaps
        ]
    if view.known:
        lines.append("Cards shown to you:")
        lines += [
            f"  {view.name(k.seat)}: {_card(k.colour, k.role)}"
            for k in (view.known[s] for s in sorted(view.known, key=view.name))
        ]
    if view.shown_by_me:
        lines.append(
            "You have shown: "
            + "; ".join(f"your {what} to {view.name(to)}" for to, what in view.shown_by_me)
        )
    for e in view.chosen:
        lines.append(f"You sent as hostages in round {e.round}: {_names(view, e.hostages)}.")
    lines.append("")
    if view.talk_mode == "ask":
        lines.append("Questions you took part in or were told of (oldest first):")
        for rnd, room, asker, answerer, q, ans in view.exchanges:
            a_name = "you" if asker == view.seat else view.name(asker)
            b_name = "you" if answerer == view.seat else view.name(answerer)
            line = f"  round {rnd}, room {room}: {a_name} asked {b_name}"
            line += f" {q!r}" if q is not None else ""
            line += f"; the answer: {ans!r}" if ans is not None else ""
            lines.append(line)
        if not view.exchanges:
            lines.append("  none yet")
        return "\n".join(lines)
    lines.append("What you heard (oldest first):" if view.talk else "Nothing said yet.")
    for rnd, room, seat, text in view.talk:
        who = view.name(seat) + (" (you)" if seat == view.seat else "")
        said = f"says: {text!r}" if text is not None else "keeps quiet"
        lines.append(f"  round {rnd}, room {room}: {who} {said}")
    return "\n".join(lines)


def hostage_label(d: Any, a: Send) -> str:
    """The label of a leader's choice: `Send C` or `Send C and E`."""
    names = sorted(d.names[s] for s in a.hostages)
    if len(names) == 1:
        return f"Send {names[0]}"
    return "Send " + ", ".join(names[:-1]) + " and " + names[-1]


def option_label(d: Any, a: Any) -> str:
    """The label of a listed action."""
    if isinstance(a, Ask):
        return f"Ask {d.names[a.to]}"
    if isinstance(a, KeepQuiet):
        return "Keep quiet"
    if isinstance(a, Show):
        return f"Show {a.what} to {d.names[a.to]}"
    return hostage_label(d, a)


def labelled(d: Any) -> list[tuple[str, Any]]:
    """The listed actions of a decision with their labels, in an order that follows the
    players' names: a turn to talk lists them so already (the room in name order), a
    leader's choices (listed by the rules in seat order) are sorted by their labels."""
    out = [(option_label(d, a), a) for a in d.legal]
    return (
        sorted(out, key=lambda pair: pair[0]) if isinstance(d, HostageTurn | AskWhomTurn) else out
    )


SAY_LABEL = "Say: <your message>"


def _question(view: TwoRoomsView, d: Any) -> str:
    if isinstance(d, AskWhomTurn):
        return (
            f"YOUR TURN TO ASK (room {d.room}): pick the player of your room you will put one"
            " question to; only the two of you hear it and the answer."
        )
    if isinstance(d, QuestionTurn):
        return (
            f"YOUR QUESTION to {d.names[d.to]} (at most {d.max_message} characters): answer"
            " with Say: <your question>."
        )
    if isinstance(d, AnswerTurn):
        return (
            f"{d.names[d.asker]} ASKS YOU: {d.question!r}. Answer with Say: <your answer>"
            f" (at most {d.max_message} characters)."
        )
    if isinstance(d, TalkTurn):
        talks = view.config.talks if view.config is not None else d.turn
        return (
            f"YOUR TURN TO TALK (turn {d.turn} of {talks} this round, room {d.room}). Say"
            f" one message to your room (at most {d.max_message} characters), or show your"
            f" {'card or colour' if view.roles == 'dealt' else 'colour'} to one player, or"
            " keep quiet."
        )
    n = len(d.legal[0].hostages) if d.legal else 1
    return (
        f"YOU LEAD ROOM {d.room}: choose {n} hostage(s) to send to the other room (never yourself)."
    )


def _letters(text: str, names: Sequence[str]) -> list[str] | None:
    """The player names a `Send ...` answer lists, or None when it lists anything else."""
    words = [w for w in key_words(text) if w not in ("send", "and", "player", "players")]
    if not words or any(w.upper() not in names for w in words):
        return None
    return [w.upper() for w in words]


def key_words(text: str) -> list[str]:
    """The words of a text, lower case, letters and digits only."""
    return [w for w in (key(part) for part in text.replace(",", " ").split()) if w]


def _quote(text: str) -> str:
    """An answer quoted in an error: its repr, cut to 60 characters."""
    shown = repr(text)
    return shown if len(shown) <= 60 else shown[:57] + "..."


def parse_answer(text: str, decision: Any, seat: int) -> tuple[Any, str, str | None]:
    """(action or None, how it was read, error or None) from a model's answer."""
    candidate, stage, error = read_line(text)
    if not isinstance(candidate, str):
        return candidate, stage, error
    if isinstance(decision, QuestionTurn | AnswerTurn):
        head, sep, rest = candidate.partition(":")
        said = rest if sep and key(head) == "say" else candidate
        return Say(seat=seat, text=said.strip().strip("\"'")), stage, None
    if isinstance(decision, TalkTurn):
        head, _, rest = candidate.partition(":")
        if key(head) == "say":
            return Say(seat=seat, text=rest.strip().strip("\"'")), stage, None
        if key(candidate) in ("quiet", "pass", "keepquiet", "silent", "staysilent"):
            return KeepQuiet(seat=seat), stage, None
    wanted = key(candidate)
    for a in decision.legal:
        if key(option_label(decision, a)) == wanted:
            return a, stage, None
    if isinstance(decision, HostageTurn):
        names = _letters(candidate, decision.names)
        if names is not None:
            seats = tuple(sorted(decision.names.index(n) for n in set(names)))
            for a in decision.legal:
                if a.hostages == seats:
                    return a, stage, None
        return None, "failed", f"{_quote(candidate)} is not one of the listed choices"
    return (
        None,
        "failed",
        f"{_quote(candidate)} is neither 'Say: <message>' nor one of the listed actions",
    )


def default_action(decision: Any, seat: int) -> Any:
    """Played when no usable answer came: keeping quiet, or hostages drawn from the seed."""
    if isinstance(decision, TalkTurn):
        return KeepQuiet(seat=seat)
    if isinstance(decision, QuestionTurn):
        return Say(seat=seat, text="")
    if isinstance(decision, AnswerTurn):
        return Say(seat=seat, text=NO_ANSWER)
    if isinstance(decision, AskWhomTurn):
        return min(decision.legal, key=lambda a: decision.names[a.to])
    return hostage_fallback(decision)


@dataclass(frozen=True)
class TwoRoomsPrompter(GameBenchPrompter):
    """Prompts and answer reading of model seats in Two Rooms (the `Prompter` protocol)."""

    title: str = "Two Rooms and a Boom"
    playing: str = "a social deduction game in two teams"
    book: RuleBook = BOOK

    def situation(self, view: Any, decision: Any) -> str:
        """What the seat knows and what it is asked."""
        return observation_text(view, decision) + "\n\n" + _question(view, decision)

    def options(self, decision: Any) -> Sequence[tuple[str, Any]]:
        """The listed actions with their labels (a leader's choices in the order of the
        names, not of the seats)."""
        return labelled(decision)

    def decision_prompt(self, view: Any, decision: Any, memory: str, rejection: Any) -> str:
        """The rules (progressive), the situation, the actions and how to answer."""
        labels = [label for label, _ in self.options(decision)]
        if isinstance(decision, TalkTurn | QuestionTurn | AnswerTurn):
            labels = [SAY_LABEL, *labels]
        parts = [
            "\n".join(rules_lines(book_of(view), view.explained)),
            self.situation(view, decision),
            "Legal actions:\n" + "\n".join(labels),
            instruction(self.mode),
        ]
        return "\n\n".join(parts)

    def answer_schema(self, view: Any, decision: Any) -> dict[str, Any]:
        """The JSON schema of an answer: a listed choice or a heading not explained yet for
        a leader; for a turn to talk, `Say: ...`, a listed action or an `Explain`."""
        left = [h for h in book_of(view).headings if h not in view.explained]
        labels = [label for label, _ in self.options(decision)]
        if isinstance(decision, HostageTurn | AskWhomTurn):
            return answer_schema(
                self.mode,
                {"type": "string", "enum": [*labels, *(f"Explain({h})" for h in left)]},
            )
        alternatives = [r"Say: .+", *(re.escape(label) for label in labels)]
        if left:
            alternatives.append(explain_pattern(left))
        return answer_schema(
            self.mode, {"type": "string", "pattern": "^(" + "|".join(alternatives) + ")$"}
        )

    def parse(self, text: str, decision: Any, seat: int) -> tuple[Any, str, str | None]:
        """A model's answer read into an action."""
        return parse_answer(text, decision, seat)

    def default_action(self, decision: Any, seat: int) -> Any:
        """The documented action when no usable answer came."""
        return default_action(decision, seat)
