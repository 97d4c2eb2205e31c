"""The rules of GameBench's Two Rooms and a Boom as a decider.

Set-up (from the seed): every seat gets a name (a letter), the seats are split evenly and
at random between room 0 and room 1, one blue seat is the President and one red seat the
Bomber, and one player of each room is its leader for the whole game.

A round: first the talk. Under `talk = "ask"` (the default; rules 1.2.0), as GameBench's
`play` has it (games/two_rooms_and_a_boom/two_rooms.py at 4f1a3de): in room 0, then room 1,
each player in turn (in the order of their names) picks one room-mate, asks it a question,
and the room-mate answers; the question and answer are the two players' own, and the room's
leader hears the exchange too when the asker is not the leader and shares the leader's
colour. A pick that names no room-mate is drawn from the seed (GameBench picks at random), a
question that cannot be read ends the exchange unasked (GameBench skips it), and an answer
that cannot be read is a stock reply (GameBench's fallback). Under `talk = "open"` (rules
1.0.0 and 1.1.0): in each room, the players take turns in the order of their names,
`talks` times round: a turn is one message to the room (cut at `max_message` characters),
showing one's card (colour and role) or only one's colour to another player of the room,
or keeping quiet. Then the leader of room 0 and the leader of room 1 each choose
`hostages` players of their room (never themselves); each choice stays the leader's own
until both are made, then the hostages cross to the other room. After the last round red
wins if the Bomber is in the President's room, else blue.

Bad input never raises: an action the rules cannot apply is a seat-private refusal event
and the decision's fallback plays (silence at a turn to talk; a leader's hostages drawn
from the seed, as GameBench draws a random one); a message is kept to one line of printable
characters, one that is too long is cut, and the cut recorded as a refusal. `Explain(heading)` shows a seat the rules under a heading and
asks again (docs/gamebench.md).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from functools import reduce
from typing import Any, Literal, assert_never

import msgspec
from msgspec.structs import replace

from engine.chat import one_line
from engine.gamebench.common import (
    Explain,
    IllegalAction,
    count_request,
    fallback,
    raw_text,
    screened,
)
from events import agent as ae
from events.config import SeatSpec
from events.gamebench import two_rooms as te
from events.gamebench.common import ranks, seat_scores
from events.gamebench.two_rooms import (
    BLUE,
    BOMBER,
    HEADINGS,
    LETTERS,
    NAME,
    PRESIDENT,
    RED,
    TwoRoomsConfig,
    team_of,
    team_seats,
)

VERSION = "1.2.0"
"""Stored with every game; bump when a rule change alters logs. 1.1.0: the `roles` knob,
hidden by default (1.0.0 dealt every role to its holder). 1.2.0: the `talk` knob, GameBench's
questions and answers by default (1.0.0 and 1.1.0 talked openly); older versions are kept
to replay their games."""

VERSIONS: tuple[str, ...] = ("1.0.0", "1.1.0", VERSION)

NO_ANSWER = "I cannot answer that now."
"""The reply heard when an answer cannot be read (GameBench's code has a stock reply too)."""
"""Every rules version these rules replay (a log names the one it was played by)."""


# --------------------------------------------------------------------------- actions


class Say(msgspec.Struct, frozen=True, kw_only=True, tag="say"):
    """Speak to the players of one's room."""

    seat: int
    text: str


class KeepQuiet(msgspec.Struct, frozen=True, kw_only=True, tag="keep_quiet"):
    """Let this turn to talk pass."""

    seat: int


class Show(msgspec.Struct, frozen=True, kw_only=True, tag="show"):
    """Show one's card (`what="card"`: colour and role) or only its colour to `to`, a player
    of the same room."""

    seat: int
    to: int
    what: Literal["card", "colour"]


class Send(msgspec.Struct, frozen=True, kw_only=True, tag="send"):
    """A leader's hostages: the players of its room it sends across (sorted seats)."""

    seat: int
    hostages: tuple[int, ...]


class Ask(msgspec.Struct, frozen=True, kw_only=True, tag="ask"):
    """Pick the room-mate to question (`talk = "ask"`)."""

    seat: int
    to: int


Action = Say | KeepQuiet | Show | Send | Ask | Explain
"""Every Two Rooms action."""

_DEC: msgspec.json.Decoder[Action] = msgspec.json.Decoder(Action)


# --------------------------------------------------------------------------- decisions


class TalkTurn(msgspec.Struct, frozen=True, kw_only=True):
    """A player's turn to talk: say something (any text), or one of `legal` (keep quiet,
    show its card or its colour to another player of the room)."""

    seats: tuple[int, ...]
    round: int
    room: int
    turn: int
    """1..talks: the player's turn to talk within this round."""
    legal: tuple[KeepQuiet | Show, ...]
    max_message: int
    names: tuple[str, ...]
    """Every seat's name (public), for the labels of the actions."""

    @property
    def kind(self) -> str:
        """The decision's name."""
        return "talk"


class HostageTurn(msgspec.Struct, frozen=True, kw_only=True):
    """A leader chooses its room's hostages: one of `legal`."""

    seats: tuple[int, ...]
    round: int
    room: int
    legal: tuple[Send, ...]
    names: tuple[str, ...]
    """Every seat's name (public), for the labels of the actions."""
    seed: int
    """The game seed (the fallback draws from it)."""

    @property
    def kind(self) -> str:
        """The decision's name."""
        return "hostages"


class AskWhomTurn(msgspec.Struct, frozen=True, kw_only=True):
    """A player picks the room-mate it questions: one of `legal`."""

    seats: tuple[int, ...]
    round: int
    room: int
    legal: tuple[Ask, ...]
    names: tuple[str, ...]
    seed: int

    @property
    def kind(self) -> str:
        """The decision's name."""
        return "ask_whom"


class QuestionTurn(msgspec.Struct, frozen=True, kw_only=True):
    """A player asks its chosen room-mate `to` one question (any text)."""

    seats: tuple[int, ...]
    round: int
    room: int
    to: int
    max_message: int
    names: tuple[str, ...]
    legal: tuple[()] = ()

    @property
    def kind(self) -> str:
        """The decision's name."""
        return "question"


class AnswerTurn(msgspec.Struct, frozen=True, kw_only=True):
    """A player answers the question `asker` put to it (any text)."""

    seats: tuple[int, ...]
    round: int
    room: int
    asker: int
    question: str
    max_message: int
    names: tuple[str, ...]
    legal: tuple[()] = ()

    @property
    def kind(self) -> str:
        """The decision's name."""
        return "answer"


Decision = TalkTurn | HostageTurn | AskWhomTurn | QuestionTurn | AnswerTurn


# --------------------------------------------------------------------------- state


class TrState(msgspec.Struct, frozen=True, kw_only=True):
    """Everything the rules need, folded from the events (every card included)."""

    config: TwoRoomsConfig
    seed: int = 0
    names: tuple[str, ...] = ()
    rooms: tuple[int, ...] = ()
    leaders: tuple[int, int] = (0, 0)
    cards: tuple[tuple[str, str], ...] = ()
    """Every seat's (colour, role), in seat order."""
    round: int = 0
    """The round in progress, 1-based (0 before the set-up)."""
    pos: int = 0
    """Turns to talk taken this round."""
    chosen: tuple[tuple[int, ...], ...] = ()
    """The hostages chosen this round, room by room."""
    over: bool = False
    explained: tuple[tuple[str, ...], ...] = ()
    requests: tuple[int, ...] = ()
    roles: str = "hidden"
    """How the cards deal roles (`TwoRoomsConfig.roles`; always `dealt` in rules 1.0.0)."""
    talk: str = "open"
    """How the players talk (`talk_of` the start)."""
    stage: int = 0
    """Within an exchange (`talk = "ask"`): 0 pick, 1 question, 2 answer."""
    target: int = -1
    question: str = ""

    def occupants(self, room: int) -> tuple[int, ...]:
        """The seats in a room, in the order of their names."""
        return tuple(sorted((s for s, r in enumerate(self.rooms) if r == room), key=self.name))

    def name(self, seat: int) -> str:
        """A seat's name."""
        return self.names[seat]

    def queue(self) -> tuple[tuple[int, int, int], ...]:
        """This round's turns to talk: (seat, room, turn), room 0's first."""
        out: list[tuple[int, int, int]] = []
        talks = 1 if self.talk == "ask" else self.config.talks
        for room in (0, 1):
            occupants = self.occupants(room)
            for turn in range(1, talks + 1):
                out.extend((s, room, turn) for s in occupants)
        return tuple(out)


def set_up(
    config: TwoRoomsConfig, seed: int
) -> tuple[tuple[str, ...], tuple[int, ...], tuple[int, int], tuple[tuple[str, str], ...]]:
    """(names, rooms, leaders, cards) drawn from the seed alone."""
    rng = random.Random(f"{seed}:{NAME}:set-up")
    n = config.players
    names = list(LETTERS[:n])
    rng.shuffle(names)
    order = list(range(n))
    rng.shuffle(order)
    rooms = [0] * n
    for s in order[n // 2 :]:
        rooms[s] = 1
    president = rng.randrange(n // 2)
    bomber = n // 2 + rng.randrange(n // 2)
    cards = tuple(
        (
            team_of(s, n),
            PRESIDENT if s == president else BOMBER if s == bomber else "",
        )
        for s in range(n)
    )
    leaders = tuple(rng.choice([s for s in range(n) if rooms[s] == room]) for room in (0, 1))
    return tuple(names), tuple(rooms), (leaders[0], leaders[1]), cards


def hostage_options(state: TrState, room: int) -> tuple[Send, ...]:
    """Every legal choice of a room's leader: `hostages` of its room's other players."""
    leader = state.leaders[room]
    others = sorted(s for s in state.occupants(room) if s != leader)
    return tuple(
        Send(seat=leader, hostages=combo)
        for combo in itertools.combinations(others, state.config.hostages)
    )


def talk_options(state: TrState, seat: int, room: int) -> tuple[KeepQuiet | Show, ...]:
    """The listed actions of a turn to talk (a message is any text besides); a card that
    tells only its colour is shown as a colour."""
    out: list[KeepQuiet | Show] = [KeepQuiet(seat=seat)]
    for other in state.occupants(room):
        if other != seat:
            if state.roles == "dealt":
                out.append(Show(seat=seat, to=other, what="card"))
            out.append(Show(seat=seat, to=other, what="colour"))
    return tuple(out)


def message(text: str) -> str:
    """A message as the room hears it: one line of printable characters, spaces collapsed
    (a control character, a terminal escape or a bidi override becomes a space)."""
    return one_line(text)


def _normalised(action: Any) -> Any:
    """A `Send` with its hostages sorted and unique (the rules compare with sorted choices)."""
    if (
        isinstance(action, Send)
        and isinstance(action.hostages, tuple | list)
        and all(isinstance(h, int) and not isinstance(h, bool) for h in action.hostages)
    ):
        return Send(seat=action.seat, hostages=tuple(sorted(set(action.hostages))))
    return action


_SKIP = object()
"""The fallback of a question that cannot be read: the exchange ends unasked."""


def hostage_fallback(d: HostageTurn) -> Send:
    """A leader's hostages when no usable answer came: a legal choice drawn from the seed
    and the decision (GameBench sends a random player)."""
    return fallback(d.seed, NAME, 2 * d.round + d.room, d.legal)


class TwoRoomsRules:
    """GameBench's Two Rooms and a Boom (the `events.catalog.Rules` protocol); `version`
    picks the rules games are recorded by (the current ones, or 1.0.0 to replay its games)."""

    versions = VERSIONS

    def __init__(self, version: str = VERSION) -> None:
        if version not in VERSIONS:
            raise ValueError(f"no Two Rooms rules {version!r} (known: {', '.join(VERSIONS)})")
        self.version = version

    def for_version(self, version: str) -> TwoRoomsRules | None:
        """The rules that recorded games stamped with `version` (None: no such rules)."""
        if version == self.version:
            return self
        return TwoRoomsRules(version) if version in VERSIONS else None

    @staticmethod
    def max_decisions(config: TwoRoomsConfig) -> int:
        """Every round: each player's turns to talk and the two leaders' choices; every seat
        may ask for each heading once."""
        per_round = config.players * max(config.talks, 3) + 2
        return config.rounds * per_round + config.players * len(HEADINGS)

    def start(
        self, config: TwoRoomsConfig, seed: int, seats: Sequence[SeatSpec]
    ) -> tuple[TrState, list[Any]]:
        """Name the players, split them between the rooms, deal the cards, pick the leaders."""
        config.validate()
        if len(seats) != config.players:
            raise IllegalAction(f"this game seats {config.players} players, got {len(seats)}")
        names, rooms, leaders, cards = set_up(config, seed)
        started = te.TrStarted(
            seed=seed, config=config, seats=tuple(seats), engine_version=self.version
        )
        dealt = te.roles_of(started) == "dealt"
        events: list[Any] = [started, te.TrSetUp(names=names, rooms=rooms, leaders=leaders)]
        events += [
            te.TrCardDealt(seat=s, colour=c, role=r if dealt else "")  # type: ignore[arg-type]
            for s, (c, r) in enumerate(cards)
        ]
        if not dealt:
            roles = [r for _, r in cards]
            events.append(
                te.TrRolesDrawn(president=roles.index(PRESIDENT), bomber=roles.index(BOMBER))
            )
        return reduce(self.evolve, events, TrState(config=config)), events

    def pending(self, state: TrState) -> Decision | None:
        """The next turn to talk, else the next leader's choice; None once over."""
        if state.over or state.round == 0:
            return None
        queue = state.queue()
        if state.pos < len(queue) and state.talk == "ask":
            seat, room, _ = queue[state.pos]
            names = state.names
            if state.stage == 0:
                mates = (s for s in state.occupants(room) if s != seat)
                return AskWhomTurn(
                    seats=(seat,),
                    round=state.round,
                    room=room,
                    legal=tuple(Ask(seat=seat, to=s) for s in mates),
                    names=names,
                    seed=state.seed,
                )
            if state.stage == 1:
                return QuestionTurn(
                    seats=(seat,),
                    round=state.round,
                    room=room,
                    to=state.target,
                    max_message=state.config.max_message,
                    names=names,
                )
            return AnswerTurn(
                seats=(state.target,),
                round=state.round,
                room=room,
                asker=seat,
                question=state.question,
                max_message=state.config.max_message,
                names=names,
            )
        if state.pos < len(queue):
            seat, room, turn = queue[state.pos]
            return TalkTurn(
                seats=(seat,),
                round=state.round,
                room=room,
                turn=turn,
                legal=talk_options(state, seat, room),
                max_message=state.config.max_message,
                names=state.names,
            )
        room = len(state.chosen)
        if room > 1:  # both leaders chose: the crossing follows within the same step
            return None
        return HostageTurn(
            seats=(state.leaders[room],),
            round=state.round,
            room=room,
            legal=hostage_options(state, room),
            names=state.names,
            seed=state.seed,
        )

    def active(self, state: TrState) -> int | None:
        """No seat keeps a turn of its own across decisions."""
        return None

    def turn_of(self, event: Any, turn: int) -> int:
        """The store's turn is the round."""
        r = event.turn if isinstance(event, te.TrRequestRefused) else getattr(event, "round", None)
        return r if isinstance(r, int) else turn

    # ---- actions ---------------------------------------------------------------------------

    def step(
        self, state: TrState, decision: Any, actions: Sequence[Any]
    ) -> tuple[TrState, list[Any]]:
        """Apply the one action of the seat asked."""
        d = self.pending(state)
        if d is None or len(actions) != 1:
            raise IllegalAction("the game waits for no such action")
        seat = d.seats[0]
        a = _normalised(actions[0])
        events: list[Any] = []
        if isinstance(d, TalkTurn) and isinstance(a, Say) and a.seat == seat:
            return self._apply(state, self._say(state, d, seat, a))
        if isinstance(d, QuestionTurn | AnswerTurn) and isinstance(a, Say) and a.seat == seat:
            return self._apply(state, self._exchange(state, d, seat, a))
        hearers = state.occupants(d.room)

        def draw() -> Any:
            if isinstance(d, TalkTurn):
                return KeepQuiet(seat=seat)
            if isinstance(d, AskWhomTurn):
                return fallback(d.seed, NAME, 100 * d.round + d.room * 10 + state.pos, d.legal)
            if isinstance(d, QuestionTurn):
                return _SKIP
            if isinstance(d, AnswerTurn):
                return Say(seat=seat, text=NO_ANSWER)
            return hostage_fallback(d)

        played, events = screened(
            a,
            d.legal,
            headings=te.headings_for(state.talk),
            explained=state.explained[seat],
            requests=state.requests[seat],
            granted=lambda h: te.TrRuleExplained(seat=seat, heading=h, round=state.round),
            refused=lambda raw, why, asked: te.TrRequestRefused(
                seat=seat, turn=state.round, raw=raw, reason=why, explain=asked
            ),
            fold=lambda e: None,
            draw=draw,
        )
        if played is _SKIP:
            events.append(te.TrAskSkipped(seat=seat, round=d.round, room=d.room))
            return self._apply(state, events)
        if played is None:
            return self._apply(state, events)
        match played:
            case Ask():
                events.append(te.TrAskedWhom(seat=seat, to=played.to, round=d.round, room=d.room))
            case Say() if isinstance(d, AnswerTurn):
                events += self._exchange(state, d, seat, played)
            case KeepQuiet():
                events.append(
                    te.TrKeptQuiet(seat=seat, round=d.round, room=d.room, hearers=hearers)
                )
            case Show():
                colour, role = state.cards[seat]
                events.append(
                    te.TrShown(
                        seat=seat,
                        to=played.to,
                        round=d.round,
                        room=d.room,
                        what=played.what,
                        colour=colour,  # type: ignore[arg-type]
                        role=role if played.what == "card" else "",  # type: ignore[arg-type]
                    )
                )
            case Send():
                events.append(
                    te.TrHostagesChosen(
                        seat=seat, round=d.round, room=d.room, hostages=played.hostages
                    )
                )
                if d.room == 1:
                    first = state.chosen[0]
                    events.append(
                        te.TrHostagesSwapped(round=d.round, sent=(first, played.hostages))
                    )
        return self._apply(state, events)

    @staticmethod
    def _exchange(state: TrState, d: QuestionTurn | AnswerTurn, seat: int, a: Say) -> list[Any]:
        """A question or an answer: the text kept to one line and `max_message` characters
        (an empty text is heard as empty, as GameBench's random player speaks)."""
        events: list[Any] = []
        if not isinstance(a.text, str):
            events.append(
                te.TrRequestRefused(
                    seat=seat, turn=state.round, raw=raw_text(a), reason="a question is text"
                )
            )
            if isinstance(d, QuestionTurn):
                events.append(te.TrAskSkipped(seat=seat, round=d.round, room=d.room))
                return events
            text = NO_ANSWER
        else:
            text = message(a.text)
        if len(text) > d.max_message:
            events.append(
                te.TrRequestRefused(
                    seat=seat,
                    turn=state.round,
                    raw=raw_text(a),
                    reason=f"at most {d.max_message} characters; it was cut",
                )
            )
            text = text[: d.max_message].rstrip()
        if isinstance(d, QuestionTurn):
            events.append(te.TrAsked(seat=seat, to=d.to, round=d.round, room=d.room, text=text))
            return events
        leader = state.leaders[d.room]
        told = (
            leader
            if d.asker != leader and state.cards[d.asker][0] == state.cards[leader][0]
            else -1
        )
        events.append(
            te.TrAnswered(
                seat=seat,
                asker=d.asker,
                round=d.round,
                room=d.room,
                question=d.question,
                text=text,
                leader=told,
            )
        )
        return events

    @staticmethod
    def _say(state: TrState, d: TalkTurn, seat: int, a: Say) -> list[Any]:
        events: list[Any] = []
        if not isinstance(a.text, str):
            events.append(
                te.TrRequestRefused(
                    seat=seat, turn=state.round, raw=raw_text(a), reason="a message is text"
                )
            )
        text = message(a.text) if isinstance(a.text, str) else ""
        if len(text) > d.max_message:
            events.append(
                te.TrRequestRefused(
                    seat=seat,
                    turn=state.round,
                    raw=raw_text(a),
                    reason=f"a message has at most {d.max_message} characters; it was cut",
                )
            )
            text = text[: d.max_message].rstrip()
        hearers = state.occupants(d.room)
        if not text:
            events.append(te.TrKeptQuiet(seat=seat, round=d.round, room=d.room, hearers=hearers))
        else:
            events.append(
                te.TrSaid(seat=seat, round=d.round, room=d.room, text=text, hearers=hearers)
            )
        return events

    def _apply(self, state: TrState, events: list[Any]) -> tuple[TrState, list[Any]]:
        for e in events:
            state = self.evolve(state, e)
        if not state.over and state.round > state.config.rounds:
            end = self._end(state)
            events.append(end)
            state = self.evolve(state, end)
        return state, events

    @staticmethod
    def _end(s: TrState) -> te.TrEnded:
        president = next(i for i, (_, r) in enumerate(s.cards) if r == PRESIDENT)
        bomber = next(i for i, (_, r) in enumerate(s.cards) if r == BOMBER)
        winner = RED if s.rooms[president] == s.rooms[bomber] else BLUE
        teams = team_seats(s.config.players)
        scores = seat_scores(
            (1.0, 0.0) if winner == BLUE else (0.0, 1.0), [0 if t == BLUE else 1 for t in teams]
        )
        return te.TrEnded(
            reason="rounds_over",
            winner=winner,
            president_room=s.rooms[president],
            bomber_room=s.rooms[bomber],
            rooms=s.rooms,
            cards=s.cards,
            scores=scores,
            ranks=ranks(scores),
        )

    # ---- the fold --------------------------------------------------------------------------

    def evolve(self, s: TrState, e: te.TrEvent | ae.AgentEvent) -> TrState:
        """Apply one event to the state (pure; trusts the rules made it)."""
        match e:
            case te.TrSaid() | te.TrKeptQuiet() | te.TrShown():
                return replace(s, pos=s.pos + 1)
            case te.TrAskedWhom():
                return replace(s, stage=1, target=e.to)
            case te.TrAsked():
                return replace(s, stage=2, question=e.text)
            case te.TrAnswered() | te.TrAskSkipped():
                return replace(s, pos=s.pos + 1, stage=0, target=-1, question="")
            case te.TrHostagesChosen():
                return replace(s, chosen=(*s.chosen, e.hostages))
            case te.TrHostagesSwapped():
                rooms = list(s.rooms)
                for room, sent in enumerate(e.sent):
                    for seat in sent:
                        rooms[seat] = 1 - room
                return replace(s, rooms=tuple(rooms), round=s.round + 1, pos=0, chosen=())
            case te.TrRuleExplained():
                explained, requests = count_request(s.explained, s.requests, e.seat, e.heading)
                return replace(s, explained=explained, requests=requests)
            case te.TrRequestRefused():
                if e.explain:
                    _, requests = count_request(s.explained, s.requests, e.seat, None)
                    return replace(s, requests=requests)
                return s
            case te.TrCardDealt():
                cards = list(s.cards)
                cards[e.seat] = (e.colour, e.role)
                return replace(s, cards=tuple(cards))
            case te.TrRolesDrawn():
                cards = list(s.cards)
                for seat, role in ((e.president, PRESIDENT), (e.bomber, BOMBER)):
                    cards[seat] = (cards[seat][0], role)
                return replace(s, cards=tuple(cards))
            case te.TrSetUp():
                return replace(s, names=e.names, rooms=e.rooms, leaders=e.leaders, round=1)
            case te.TrStarted():
                n = e.config.players
                return replace(
                    s,
                    config=e.config,
                    seed=e.seed,
                    roles=te.roles_of(e),
                    talk=te.talk_of(e),
                    cards=(("", ""),) * n,
                    explained=((),) * n,
                    requests=(0,) * n,
                )
            case te.TrEnded():
                return replace(s, over=True)
            case (
                ae.LLMCall()
                | ae.ActionDefaulted()
                | ae.ScratchpadUpdated()
                | ae.AgentNote()
                | ae.ModelDecision()
                | ae.HumanAnswer()
                | ae.SeatAbandoned()
            ):
                return s  # agent-side facts lie outside the rules
            case _:
                assert_never(e)

    def fold(self, events: Sequence[Any]) -> TrState:
        """The state after a log or a prefix of one."""
        if not events or not isinstance(events[0], te.TrStarted):
            raise ValueError("a Two Rooms log starts with its game_started event")
        return reduce(self.evolve, events, TrState(config=events[0].config))

    def recorded_action(self, log: Sequence[Any], pos: int, seat: int, decision: Any) -> Any:
        """The action `seat` took for `decision`, read from `log[pos:]`."""
        for i in range(pos, len(log)):
            e = log[i]
            match e:
                case te.TrRequestRefused() if e.seat == seat:
                    try:
                        return _DEC.decode(e.raw)
                    except msgspec.DecodeError:
                        return e.raw
                case te.TrRuleExplained() if e.seat == seat:
                    return Explain(heading=e.heading)
                case te.TrSaid() if e.seat == seat:
                    return Say(seat=seat, text=e.text)
                case te.TrKeptQuiet() if e.seat == seat:
                    return KeepQuiet(seat=seat)
                case te.TrShown() if e.seat == seat:
                    return Show(seat=seat, to=e.to, what=e.what)
                case te.TrHostagesChosen() if e.seat == seat:
                    return Send(seat=seat, hostages=e.hostages)
                case te.TrAskedWhom() if e.seat == seat:
                    return Ask(seat=seat, to=e.to)
                case te.TrAsked() if e.seat == seat:
                    return Say(seat=seat, text=e.text)
                case te.TrAnswered() if e.seat == seat:
                    return Say(seat=seat, text=e.text)
        raise LookupError(f"no action of seat {seat} for {decision!r} after event {pos}")


RULES = TwoRoomsRules()
"""The rules object the game's definition names."""
