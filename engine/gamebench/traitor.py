"""The rules of GameBench's "Are You the Traitor?" as a decider: `start`, `pending`, `step`,
`evolve`.

Five seats: 0-1 the evil team, 2-4 the good team. Every round deals the roles inside the teams
and a name per seat (Player A to E), from the seed. A round is talk in exchanges: a player
drawn from the seed asks another player a question, that player answers, then every player but
the traitor, in an order drawn from the seed, may call stop and point at someone or pass. The
first stop decides the round: the accuser's team wins it when the accused holds the role the
accuser's role looks for (the good wizard and the guards the traitor, the key holder the good
wizard, the evil wizard the key holder), the other team otherwise. Nobody stopping within
`max_exchanges` ends the round without treasure. Each player of the winning team draws the
top treasure card; then every magic ring held takes a card from a player of the other team
(the gilded statue first) and is spent. A player with `target` points ends the game: its team
wins (1 to each of its seats, 0 to the others); after `max_rounds` the team of the player with
the most points wins, a tie is a draw (0.5 each).

Bad input never raises: an action of the wrong kind, a stop naming nobody at the table or a
text that is not a string is refused (a seat-private event) and the decision's fallback plays
(a question to a player drawn from the seed with no words, no answer, a pass); a message over
`max_message` characters is cut and the cut is recorded the same way.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from functools import reduce
from typing import Any, assert_never

import msgspec
from msgspec.structs import replace

from engine.chat import one_line
from engine.gamebench.common import (
    Explain,
    IllegalAction,
    count_request,
    explain,
    fallback,
    raw_text,
)
from events import agent as ae
from events.config import SeatSpec
from events.gamebench import traitor as te
from events.gamebench.common import ranks
from events.gamebench.traitor import (
    EVIL,
    EVIL_ROLES,
    GOOD,
    GOOD_ROLES,
    HEADINGS,
    LETTERS,
    NAME,
    POINTS,
    RING,
    STATUE,
    TARGET,
    TEAM_OF_SEAT,
    TRAITOR,
    TREASURE,
    TraitorConfig,
)

VERSION = "1.0.0"
"""Stored with every game; bump when a rule change alters logs."""


# --------------------------------------------------------------------------- actions


class Ask(msgspec.Struct, frozen=True, kw_only=True, tag="ask"):
    """Ask the player named `to` (a round name: `B` or `Player B`) a question."""

    seat: int
    to: str
    text: str


class Say(msgspec.Struct, frozen=True, kw_only=True, tag="say"):
    """Answer the question put to this seat."""

    seat: int
    text: str


class Stop(msgspec.Struct, frozen=True, kw_only=True, tag="stop"):
    """Call stop and point at the player named `accused`."""

    seat: int
    accused: str


class Pass(msgspec.Struct, frozen=True, kw_only=True, tag="pass"):
    """Let the talk go on."""

    seat: int


Action = Ask | Say | Stop | Pass | Explain
"""Every action of the game."""

_DEC: msgspec.json.Decoder[Action] = msgspec.json.Decoder(Action)
action_json = raw_text
"""An action as recorded in a refusal (deterministic JSON)."""


def action_from_json(text: str) -> Action:
    """The action `action_json` wrote."""
    return _DEC.decode(text)


# --------------------------------------------------------------------------- decisions


class AskDecision(msgspec.Struct, frozen=True, kw_only=True):
    """The seat drawn for this exchange asks someone a question."""

    seats: tuple[int, ...]
    round: int
    exchange: int
    names: tuple[str, ...]
    """The names the seat may ask (every other player)."""

    @property
    def kind(self) -> str:
        """The decision's name."""
        return "ask"


class AnswerDecision(msgspec.Struct, frozen=True, kw_only=True):
    """The seat asked answers the question."""

    seats: tuple[int, ...]
    round: int
    exchange: int
    asker: str
    question: str

    @property
    def kind(self) -> str:
        """The decision's name."""
        return "answer"


class StopDecision(msgspec.Struct, frozen=True, kw_only=True):
    """The stop poll reached this seat: call stop on someone, or pass."""

    seats: tuple[int, ...]
    round: int
    exchange: int
    legal: tuple[Pass | Stop, ...]
    last: bool
    """This is the last chance of the round: the last exchange's poll."""

    @property
    def kind(self) -> str:
        """The decision's name."""
        return "stop"


Decision = AskDecision | AnswerDecision | StopDecision


# --------------------------------------------------------------------------- state


class AytState(msgspec.Struct, frozen=True, kw_only=True):
    """Everything the rules need, folded from the events (every role included)."""

    config: TraitorConfig
    seed: int = 0
    deck: tuple[str, ...] = ()
    drawn: int = 0
    """Cards drawn from the deck so far."""
    hands: tuple[tuple[str, ...], ...] = ((), (), (), (), ())
    round: int = 0
    names: tuple[str, ...] = ()
    roles: tuple[str, ...] = ()
    askers: tuple[int, ...] = ()
    polls: tuple[tuple[int, ...], ...] = ()
    exchange: int = 0
    phase: str = "new"
    """new, ask, answer, poll, over."""
    asked: int = -1
    """The seat the exchange's question was put to."""
    question: str = ""
    polled: int = 0
    """Seats of the exchange's poll that passed so far."""
    stop: tuple[int, int] | None = None
    """(accuser, accused) seats once someone called stop this round."""
    explained: tuple[tuple[str, ...], ...] = ((), (), (), (), ())
    requests: tuple[int, ...] = (0, 0, 0, 0, 0)

    def points(self, seat: int) -> int:
        """A seat's treasure points."""
        return sum(POINTS[c] for c in self.hands[seat])

    def seat_named(self, name: str) -> int | None:
        """The seat holding a round name, or None."""
        return self.names.index(name) if name in self.names else None


def shuffled_deck(seed: int) -> tuple[str, ...]:
    """GameBench's 42 treasure cards in an order drawn from the seed."""
    deck = [name for name, copies, _ in TREASURE for _ in range(copies)]
    random.Random(f"{seed}:{NAME}:deck").shuffle(deck)
    return tuple(deck)


def deal_round(config: TraitorConfig, seed: int, rnd: int) -> te.AytRoundDealt:
    """A round's names, roles, askers and poll orders, from the seed and the round alone."""
    rng = random.Random(f"{seed}:{NAME}:round:{rnd}")
    names = list(LETTERS)
    rng.shuffle(names)
    evil, good = list(EVIL_ROLES), list(GOOD_ROLES)
    rng.shuffle(evil)
    rng.shuffle(good)
    roles = (*evil, *good)
    askers = tuple(rng.randrange(config.players) for _ in range(config.max_exchanges))
    pollers = [s for s in range(config.players) if roles[s] != TRAITOR]
    polls = []
    for _ in range(config.max_exchanges):
        rng.shuffle(pollers)
        polls.append(tuple(pollers))
    return te.AytRoundDealt(
        round=rnd,
        names=tuple(names),
        roles=roles,  # type: ignore[arg-type]
        askers=askers,
        polls=tuple(polls),
    )


def round_events(deal: te.AytRoundDealt) -> list[Any]:
    """The events that open a round: its deal, the public wizard names, and each seat's name
    and role (the traitor also learns the key holder's name)."""
    wizards = sorted(n for n, r in zip(deal.names, deal.roles, strict=True) if "wizard" in r)
    keyholder = deal.names[deal.roles.index(te.KEY_HOLDER)]
    out: list[Any] = [deal, te.AytRoundStarted(round=deal.round, wizards=(wizards[0], wizards[1]))]
    for seat, (name, role) in enumerate(zip(deal.names, deal.roles, strict=True)):
        out.append(
            te.AytRoleTold(
                seat=seat,
                round=deal.round,
                name=name,
                role=role,
                key_holder=keyholder if role == TRAITOR else None,
            )
        )
    return out


def name_of(text: Any, names: Sequence[str]) -> str | None:
    """The round name `text` means (`B`, `b`, `Player B`), if it is one of `names`."""
    if not isinstance(text, str):
        return None
    t = re.sub(r"[^a-z]", "", text.casefold())
    t = t.removeprefix("player")
    letter = t.upper()
    return letter if letter in names else None


def clean_text(text: Any, limit: int) -> tuple[str | None, str | None]:
    """(the message as recorded, why it was changed): one line, spaces collapsed, cut at
    `limit` characters; (None, why) for anything that is not text."""
    if not isinstance(text, str):
        return None, "a message is text"
    one = one_line(text)
    if len(one) > limit:
        return one[:limit].rstrip(), f"a message has at most {limit} characters; cut"
    return one, None


class TraitorRules:
    """GameBench's "Are You the Traitor?" (the `events.catalog.Rules` protocol)."""

    version = VERSION

    @staticmethod
    def max_decisions(config: TraitorConfig) -> int:
        """Every exchange asks one question, one answer and at most four stop decisions
        (everyone but the traitor); every seat may ask for each heading once."""
        return config.max_rounds * config.max_exchanges * 6 + config.players * len(HEADINGS)

    def start(
        self, config: TraitorConfig, seed: int, seats: Sequence[SeatSpec]
    ) -> tuple[AytState, list[Any]]:
        """Shuffle the treasure and deal the first round."""
        config.validate()
        if len(seats) != config.players:
            raise IllegalAction(f"Are You the Traitor? seats 5 players, got {len(seats)}")
        events: list[Any] = [
            te.AytStarted(seed=seed, config=config, seats=tuple(seats), engine_version=VERSION),
            te.AytDeckShuffled(deck=shuffled_deck(seed)),
        ]
        state = reduce(self.evolve, events, AytState(config=config))
        more = self._new_round(state, 1)
        return reduce(self.evolve, more, state), events + more

    def _new_round(self, s: AytState, rnd: int) -> list[Any]:
        return round_events(deal_round(s.config, s.seed, rnd))

    def pending(self, s: AytState) -> Decision | None:
        """The question, the answer or the stop poll; None once over."""
        if s.phase == "ask":
            seat = s.askers[s.exchange - 1]
            others = tuple(sorted(n for i, n in enumerate(s.names) if i != seat))
            return AskDecision(seats=(seat,), round=s.round, exchange=s.exchange, names=others)
        if s.phase == "answer":
            asker = s.names[s.askers[s.exchange - 1]]
            return AnswerDecision(
                seats=(s.asked,),
                round=s.round,
                exchange=s.exchange,
                asker=asker,
                question=s.question,
            )
        if s.phase == "poll":
            poll = s.polls[s.exchange - 1]
            seat = poll[s.polled]
            targets = sorted(n for i, n in enumerate(s.names) if i != seat)
            legal: tuple[Pass | Stop, ...] = (
                Pass(seat=seat),
                *(Stop(seat=seat, accused=n) for n in targets),
            )
            return StopDecision(
                seats=(seat,),
                round=s.round,
                exchange=s.exchange,
                legal=legal,
                last=s.exchange == s.config.max_exchanges and s.polled == len(poll) - 1,
            )
        return None

    def active(self, state: AytState) -> int | None:
        """No seat keeps a turn of its own across decisions."""
        return None

    def turn_of(self, event: Any, turn: int) -> int:
        """The round an event belongs to."""
        t = getattr(event, "round", None)
        return t if isinstance(t, int) else turn

    # ---- actions ---------------------------------------------------------------------------

    def step(
        self, state: AytState, decision: Any, actions: Sequence[Any]
    ) -> tuple[AytState, list[Any]]:
        """Apply the one action of the seat asked."""
        d = self.pending(state)
        if d is None or len(actions) != 1:
            raise IllegalAction("the game waits for no such action")
        seat = d.seats[0]
        a = actions[0]
        if getattr(a, "seat", seat) != seat:
            raise IllegalAction(f"seat {seat} is asked, got an action of seat {a.seat}")
        events: list[Any] = []
        if isinstance(a, Explain):
            heading, why, again = explain(a, HEADINGS, state.explained[seat], state.requests[seat])
            if heading is not None:
                ev = te.AytRuleExplained(seat=seat, heading=heading, turn=state.round)
                return self.evolve(state, ev), [ev]
            events.append(
                te.AytRequestRefused(
                    seat=seat, turn=state.round, raw=action_json(a), reason=why or "", explain=True
                )
            )
            if again:
                return self.evolve(state, events[0]), events
            a = None  # no requests left: the decision's fallback plays
        if isinstance(d, AskDecision):
            events.extend(self._ask(state, seat, d, a))
        elif isinstance(d, AnswerDecision):
            events.extend(self._answer(state, seat, a))
        else:
            events.extend(self._poll(state, seat, a))
        for e in events:
            state = self.evolve(state, e)
        if state.phase == "resolve":
            more = self._resolve(state)
            for e in more:
                state = self.evolve(state, e)
            events.extend(more)
        return state, events

    def _refused(self, s: AytState, seat: int, a: Any, why: str) -> te.AytRequestRefused:
        return te.AytRequestRefused(seat=seat, turn=s.round, raw=action_json(a), reason=why)

    def _ask(self, s: AytState, seat: int, d: AskDecision, a: Any) -> list[Any]:
        out: list[Any] = []
        to = name_of(a.to, d.names) if isinstance(a, Ask) else None
        text, why = clean_text(a.text, s.config.max_message) if isinstance(a, Ask) else (None, "")
        if to is None or text is None:
            if a is not None:
                reason = (
                    "a question was asked"
                    if not isinstance(a, Ask)
                    else f"{str(a.to)[:20]!r} is not another player's name"
                    if to is None
                    else why or "a message is text"
                )
                out.append(self._refused(s, seat, a, reason))
            ply = s.round * 1000 + s.exchange
            to, text = fallback(s.seed, NAME, ply, d.names), ""
        elif why is not None:
            out.append(self._refused(s, seat, a, why))
        out.append(
            te.AytAsked(round=s.round, exchange=s.exchange, speaker=s.names[seat], to=to, text=text)
        )
        return out

    def _answer(self, s: AytState, seat: int, a: Any) -> list[Any]:
        out: list[Any] = []
        text, why = clean_text(a.text, s.config.max_message) if isinstance(a, Say) else (None, "")
        if text is None:
            if a is not None:
                out.append(self._refused(s, seat, a, why or "an answer was asked"))
            text = ""
        elif why is not None:
            out.append(self._refused(s, seat, a, why))
        out.append(
            te.AytAnswered(round=s.round, exchange=s.exchange, speaker=s.names[seat], text=text)
        )
        return out

    def _poll(self, s: AytState, seat: int, a: Any) -> list[Any]:
        if isinstance(a, Stop):
            others = [n for i, n in enumerate(s.names) if i != seat]
            accused = name_of(a.accused, others)
            if accused is not None:
                return [
                    te.AytStopped(
                        round=s.round,
                        exchange=s.exchange,
                        accuser=s.names[seat],
                        accused=accused,
                    )
                ]
            why = f"{str(a.accused)[:20]!r} is not another player's name; passed"
        else:
            why = "stop or pass was asked; passed"
        out: list[Any] = []
        if a is not None and not isinstance(a, Pass):
            out.append(self._refused(s, seat, a, why))
        out.append(te.AytPassed(seat=seat, round=s.round, exchange=s.exchange))
        return out

    def _resolve(self, s: AytState) -> list[Any]:
        """The end of a round (the state's phase is `resolve`): its winner, the treasure, the
        magic rings, then the end of the game or the next round."""
        out: list[Any] = []
        roles = tuple(sorted(zip(s.names, s.roles, strict=True)))
        if s.stop is not None:
            accuser_seat, accused_seat = s.stop
            accuser_role, accused_role = s.roles[accuser_seat], s.roles[accused_seat]
            own = TEAM_OF_SEAT[accuser_seat]
            winner = (
                own if TARGET[accuser_role] == accused_role else (GOOD if own == EVIL else EVIL)
            )
            out.append(
                te.AytRoundEnded(
                    round=s.round,
                    reason="stop",
                    winner=winner,
                    accuser_role=accuser_role,  # type: ignore[arg-type]
                    accused_role=accused_role,  # type: ignore[arg-type]
                    roles=roles,  # type: ignore[arg-type]
                )
            )
            drawn = s.drawn
            for seat in range(s.config.players):
                if TEAM_OF_SEAT[seat] == winner and drawn < len(s.deck):
                    out.append(te.AytTreasureDrawn(seat=seat, round=s.round, card=s.deck[drawn]))
                    drawn += 1
        else:
            out.append(
                te.AytRoundEnded(round=s.round, reason="silence", winner=None, roles=roles)  # type: ignore[arg-type]
            )
        after = reduce(self.evolve, out, s)
        users = [seat for seat in range(s.config.players) if RING in after.hands[seat]]
        for thief in users:
            if RING not in after.hands[thief]:
                continue
            victims = [
                v
                for v in range(s.config.players)
                if TEAM_OF_SEAT[v] != TEAM_OF_SEAT[thief] and after.hands[v]
            ]
            if not victims:
                continue
            rng = random.Random(f"{s.seed}:{NAME}:ring:{s.round}:{thief}")
            victim = rng.choice(victims)
            hand = after.hands[victim]
            card = STATUE if STATUE in hand else rng.choice(hand)
            ev = te.AytRingUsed(
                round=s.round,
                thief=thief,
                victim=victim,
                thief_name=s.names[thief],
                victim_name=s.names[victim],
                card=card,
            )
            out.append(ev)
            after = self.evolve(after, ev)
        end = self._end(after)
        if end is not None:
            out.append(end)
        else:
            out.extend(self._new_round(after, s.round + 1))
        return out

    def _end(self, s: AytState) -> te.AytEnded | None:
        points = tuple(s.points(seat) for seat in range(s.config.players))
        reached = [seat for seat, p in enumerate(points) if p >= s.config.target]
        if reached:
            reason = "target"
            pool = reached
        elif s.round >= s.config.max_rounds:
            reason = "round_limit"
            pool = list(range(s.config.players))
        else:
            return None
        best = max(points[seat] for seat in pool)
        teams = {TEAM_OF_SEAT[seat] for seat in pool if points[seat] == best}
        winner = teams.pop() if len(teams) == 1 else None
        scores = tuple(
            0.5 if winner is None else 1.0 if TEAM_OF_SEAT[seat] == winner else 0.0
            for seat in range(s.config.players)
        )
        return te.AytEnded(
            reason=reason,  # type: ignore[arg-type]
            winner=winner,
            points=points,
            scores=scores,
            ranks=ranks(scores),
        )

    # ---- the fold --------------------------------------------------------------------------

    def evolve(self, s: AytState, e: te.AytEvent | ae.AgentEvent) -> AytState:
        """Apply one event to the state (pure; trusts the rules made it)."""
        match e:
            case te.AytAsked():
                return replace(
                    s, phase="answer", asked=s.names.index(e.to), question=e.text, polled=0
                )
            case te.AytAnswered():
                return replace(s, phase="poll", polled=0)
            case te.AytPassed():
                polled = s.polled + 1
                if polled < len(s.polls[s.exchange - 1]):
                    return replace(s, polled=polled)
                if s.exchange < s.config.max_exchanges:
                    return replace(s, phase="ask", exchange=s.exchange + 1, polled=0)
                return replace(s, phase="resolve", polled=polled)
            case te.AytStopped():
                stop = (s.names.index(e.accuser), s.names.index(e.accused))
                return replace(s, phase="resolve", stop=stop)
            case te.AytRoundEnded():
                return replace(s, phase="between")
            case te.AytTreasureDrawn():
                hands = tuple((*h, e.card) if i == e.seat else h for i, h in enumerate(s.hands))
                return replace(s, hands=hands, drawn=s.drawn + 1)
            case te.AytRingUsed():
                held = list(s.hands)
                victim = list(held[e.victim])
                victim.remove(e.card)
                thief = [*held[e.thief], e.card]
                thief.remove(RING)
                held[e.victim], held[e.thief] = tuple(victim), tuple(thief)
                return replace(s, hands=tuple(held))
            case te.AytRoundDealt():
                return replace(
                    s,
                    round=e.round,
                    names=e.names,
                    roles=e.roles,
                    askers=e.askers,
                    polls=e.polls,
                    exchange=1,
                    phase="ask",
                    polled=0,
                    asked=-1,
                    question="",
                    stop=None,
                )
            case te.AytRuleExplained():
                explained, requests = count_request(s.explained, s.requests, e.seat, e.heading)
                return replace(s, explained=explained, requests=requests)
            case te.AytRequestRefused():
                if e.explain:
                    _, requests = count_request(s.explained, s.requests, e.seat, None)
                    return replace(s, requests=requests)
                return s
            case te.AytStarted():
                return replace(s, config=e.config, seed=e.seed)
            case te.AytDeckShuffled():
                return replace(s, deck=e.deck, drawn=0)
            case te.AytEnded():
                return replace(s, phase="over")
            case te.AytRoundStarted() | te.AytRoleTold():
                return s
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

    def fold(self, events: Sequence[Any]) -> AytState:
        """The state after a log or a prefix of one."""
        if not events or not isinstance(events[0], te.AytStarted):
            raise ValueError("an Are You the Traitor? log starts with its game_started event")
        return reduce(self.evolve, events, AytState(config=events[0].config))

    def recorded_action(self, log: Sequence[Any], pos: int, seat: int, decision: Any) -> Any:
        """The action `seat` took for `decision`, read from `log[pos:]`."""
        for i in range(pos, len(log)):
            e = log[i]
            match e:
                case te.AytRequestRefused() if e.seat == seat:
                    try:
                        return action_from_json(e.raw)
                    except msgspec.DecodeError:
                        raise LookupError(
                            f"seat {seat} submitted no action: {e.raw[:60]}"
                        ) from None
                case te.AytRuleExplained() if e.seat == seat:
                    return Explain(heading=e.heading)
                case te.AytAsked():
                    return Ask(seat=seat, to=e.to, text=e.text)
                case te.AytAnswered():
                    return Say(seat=seat, text=e.text)
                case te.AytPassed() if e.seat == seat:
                    return Pass(seat=seat)
                case te.AytStopped():
                    return Stop(seat=seat, accused=e.accused)
        raise LookupError(f"no action of seat {seat} for {decision!r} after event {pos}")


RULES = TraitorRules()
"""The rules object the game's definition names."""
