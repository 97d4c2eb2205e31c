"""Pit as a decider (the rules GameBench's description gives, turn by turn; see
docs/gamebench.md for each decision).

A round deals the shuffled deck to the players in turn. Turns go round the table: the seat
whose turn it is offers 1 to 4 cards of one kind it holds, face down; the others, in seat
order from its left, either take the offer by giving as many cards of one kind they hold, or
pass. The first to take it trades (each receives the other's cards); if all pass, nothing
moves. After a deal and after a trade every hand concerned is checked (the offerer first):
all nine cards of a commodity, or eight and the Bull, is a corner: its holder scores the
commodity's value, twice that with all nine and the Bull, minus 20 when it also holds the
Bear; then a new round is dealt. The game ends when a seat reaches the target, or after
`max_turns` offers. Match scores are each seat's share of all points.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import msgspec

from engine.gamebench.common import Explain, fallback, screened
from events.config import SeatSpec
from events.gamebench.common import ranks, share_scores
from events.gamebench.pit import (
    BEAR,
    BEAR_PENALTY,
    BULL,
    COMMODITIES,
    KINDS,
    MAX_OFFER,
    NAME,
    PER_COMMODITY,
    VERSION,
    PitConfig,
    PitCornered,
    PitDealt,
    PitEnded,
    PitOffered,
    PitOfferKind,
    PitPassed,
    PitRejected,
    PitRuleExplained,
    PitShuffled,
    PitStarted,
    PitSwapped,
    PitTraded,
)

HEADINGS: tuple[str, ...] = ("Trading", "Corners", "Bull and Bear", "End of the game")
"""The headings of the rules a model seat may ask to have explained."""

BULL_I = KINDS.index(BULL)
BEAR_I = KINDS.index(BEAR)
DECK: tuple[int, ...] = (
    *(i for i in range(len(COMMODITIES)) for _ in range(PER_COMMODITY)),
    BULL_I,
    BEAR_I,
)
"""The unshuffled deck, as kind indices."""


class Offer(msgspec.Struct, frozen=True, kw_only=True, tag="offer"):
    """Offer `count` cards of `kind`, face down."""

    kind: str
    count: int


class Give(msgspec.Struct, frozen=True, kw_only=True, tag="give"):
    """Take the standing offer, giving as many cards of `kind`."""

    kind: str


class Pass(msgspec.Struct, frozen=True, kw_only=True, tag="pass"):
    """Let the standing offer go by."""


PitAction = Offer | Give | Pass | Explain
"""Every action of a Pit seat."""

ACTION_DECODER = msgspec.json.Decoder(PitAction)


class PitDecision(msgspec.Struct, frozen=True, kw_only=True):
    """One seat is asked: to make its offer, or to answer the standing one."""

    seats: tuple[int, ...]
    turn: int
    offerer: int
    count: int
    """Cards in the standing offer (0 while the offer is being made)."""
    legal: tuple[Offer, ...] | tuple[Give | Pass, ...]
    """Every legal action of the seat asked (known from its own hand only)."""
    seed: int = 0

    @property
    def kind(self) -> str:
        """`offer` or `respond`."""
        return "offer" if self.count == 0 else "respond"


class PitState:
    """Where the game stands (mutable: the rules change it in place)."""

    __slots__ = (
        "config",
        "explained",
        "hands",
        "offer",
        "over",
        "points",
        "queue",
        "requests",
        "round",
        "seed",
        "turn",
    )

    def __init__(self, config: PitConfig, seed: int) -> None:
        self.config = config
        self.seed = seed
        n = config.players
        self.hands: list[list[int]] = [[0] * len(KINDS) for _ in range(n)]
        self.points = [0] * n
        self.round = 0
        self.turn = 0
        self.offer: tuple[int, int] | None = None
        """(kind index, count) of the standing offer."""
        self.queue: list[int] = []
        """Seats still to answer the standing offer, in order."""
        self.over = False
        self.explained: list[set[str]] = [set() for _ in range(n)]
        self.requests = [0] * n
        """`Explain` requests each seat made (granted or refused)."""

    def offerer(self) -> int:
        """The seat whose turn it is."""
        return self.turn % self.config.players


def corner(hand: Sequence[int]) -> tuple[int, int, int] | None:
    """(commodity index, cards held, points) of the corner in a hand, or None."""
    bull = hand[BULL_I] > 0
    for i, (_, value) in enumerate(COMMODITIES):
        held = hand[i]
        if held == PER_COMMODITY or (held == PER_COMMODITY - 1 and bull):
            gained = value * (2 if bull and held == PER_COMMODITY else 1)
            if hand[BEAR_I]:
                gained -= BEAR_PENALTY
            return i, held, gained
    return None


def offers(hand: Sequence[int]) -> tuple[Offer, ...]:
    """Every offer a hand can make."""
    return tuple(
        Offer(kind=KINDS[k], count=c)
        for k in range(len(KINDS))
        for c in range(1, min(hand[k], MAX_OFFER) + 1)
    )


def answers(hand: Sequence[int], count: int) -> tuple[Give | Pass, ...]:
    """Every answer a hand can give to an offer of `count` cards (passing first)."""
    gives = tuple(Give(kind=KINDS[k]) for k in range(len(KINDS)) if hand[k] >= count)
    return (Pass(), *gives)


class PitRules:
    """Pit as a decider (see the module docstring)."""

    version = VERSION

    @staticmethod
    def max_decisions(config: PitConfig) -> int:
        """Each turn asks the offerer and at most every other seat once, and each heading
        can be explained once per seat."""
        return config.max_turns * config.players + len(HEADINGS) * config.players

    def start(
        self, config: PitConfig, seed: int, seats: Sequence[SeatSpec]
    ) -> tuple[PitState, list[Any]]:
        """Announce the game and deal the first round."""
        st = PitState(config.validate(), seed)
        events: list[Any] = [
            PitStarted(seed=seed, config=config, seats=tuple(seats), engine_version=VERSION)
        ]
        self._deal(st, events)
        return st, events

    def _deal(self, st: PitState, events: list[Any]) -> None:
        """Deal rounds until one starts without a corner (or the game ends)."""
        while not st.over:
            deck = list(DECK)
            random.Random(f"{st.seed}:{NAME}:deal:{st.round}").shuffle(deck)
            fresh: list[Any] = [PitShuffled(round=st.round, deck=tuple(deck))]
            n = st.config.players
            for seat in range(n):
                hand = [0] * len(KINDS)
                for k in deck[seat::n]:
                    hand[k] += 1
                fresh.append(PitDealt(round=st.round, seat=seat, hand=tuple(hand)))
            for e in fresh:
                self.evolve(st, e)
            events.extend(fresh)
            if not self._corners(st, range(n), events):
                return

    def _corners(self, st: PitState, seats: Sequence[int], events: list[Any]) -> bool:
        """Score the first corner among `seats` (in order); True if one was found."""
        for seat in seats:
            found = corner(st.hands[seat])
            if found is None:
                continue
            i, held, gained = found
            points = list(st.points)
            points[seat] += gained
            e = PitCornered(
                round=st.round,
                seat=seat,
                commodity=COMMODITIES[i][0],
                held=held,
                bull=st.hands[seat][BULL_I] > 0,
                bear=st.hands[seat][BEAR_I] > 0,
                gained=gained,
                points=tuple(points),
            )
            self.evolve(st, e)
            events.append(e)
            if points[seat] >= st.config.target:
                self._end(st, "target", events)
            return True
        return False

    def _end(self, st: PitState, reason: Any, events: list[Any]) -> None:
        scores = share_scores(st.points)
        e = PitEnded(
            reason=reason,
            turns=st.turn,
            points=tuple(st.points),
            scores=scores,
            ranks=ranks(st.points),
        )
        self.evolve(st, e)
        events.append(e)

    def pending(self, st: PitState) -> PitDecision | None:
        """The offerer, or the next seat to answer its offer; None once the game is over."""
        if st.over:
            return None
        if st.offer is None:
            seat = st.offerer()
            return PitDecision(
                seats=(seat,),
                turn=st.turn,
                offerer=seat,
                count=0,
                legal=offers(st.hands[seat]),
                seed=st.seed,
            )
        seat = st.queue[0]
        count = st.offer[1]
        return PitDecision(
            seats=(seat,),
            turn=st.turn,
            offerer=st.offerer(),
            count=count,
            legal=answers(st.hands[seat], count),
            seed=st.seed,
        )

    def step(
        self, st: PitState, d: PitDecision, actions: Sequence[Any]
    ) -> tuple[PitState, list[Any]]:
        """Explain a heading, or play the action (an unusable one replaced by the fallback)."""
        seat = d.seats[0]
        n = st.config.players
        ply = st.turn * n + (seat - d.offerer) % n
        played, events = screened(
            actions[0],
            d.legal,
            headings=HEADINGS,
            explained=st.explained[seat],
            requests=st.requests[seat],
            granted=lambda h: PitRuleExplained(seat=seat, heading=h),
            refused=lambda raw, why, asked: PitRejected(
                turn=st.turn, seat=seat, raw=raw, reason=why, explain=asked
            ),
            fold=lambda e: self.evolve(st, e),
            draw=lambda: fallback(st.seed, NAME, ply, d.legal),
        )
        if played is None:
            return st, events
        action = played
        if isinstance(action, Offer):
            made = [
                PitOffered(turn=st.turn, seat=seat, count=action.count),
                PitOfferKind(turn=st.turn, seat=seat, kind=action.kind),
            ]
            for e in made:
                self.evolve(st, e)
            events.extend(made)
        elif isinstance(action, Pass):
            e = PitPassed(turn=st.turn, seat=seat)
            self.evolve(st, e)
            events.append(e)
        else:
            assert isinstance(action, Give) and st.offer is not None
            offerer = d.offerer
            kind, count = st.offer
            traded = [
                PitTraded(turn=st.turn, offerer=offerer, responder=seat, count=count),
                PitSwapped(
                    turn=st.turn,
                    offerer=offerer,
                    responder=seat,
                    count=count,
                    offered=KINDS[kind],
                    given=action.kind,
                ),
            ]
            for e in traded:
                self.evolve(st, e)
            events.extend(traded)
            if self._corners(st, (offerer, seat), events) and not st.over:
                self._deal(st, events)
        if st.offer is None and not st.over and st.turn >= st.config.max_turns:
            self._end(st, "turn_limit", events)
        return st, events

    def evolve(self, st: PitState, event: Any) -> PitState:
        """Fold one event into the state (in place; other events leave it unchanged)."""
        if isinstance(event, PitDealt):
            st.hands[event.seat] = list(event.hand)
            st.offer = None
            st.queue = []
        elif isinstance(event, PitOffered):
            n = st.config.players
            st.offer = (-1, event.count)
            st.queue = [(event.seat + i) % n for i in range(1, n)]
        elif isinstance(event, PitOfferKind):
            assert st.offer is not None
            st.offer = (KINDS.index(event.kind), st.offer[1])
        elif isinstance(event, PitPassed):
            st.queue.pop(0)
            if not st.queue:
                st.offer = None
                st.turn += 1
        elif isinstance(event, PitTraded):
            st.offer = None
            st.queue = []
            st.turn += 1
        elif isinstance(event, PitSwapped):
            o, g, c = KINDS.index(event.offered), KINDS.index(event.given), event.count
            st.hands[event.offerer][o] -= c
            st.hands[event.offerer][g] += c
            st.hands[event.responder][g] -= c
            st.hands[event.responder][o] += c
        elif isinstance(event, PitCornered):
            st.points = list(event.points)
            st.round += 1
        elif isinstance(event, PitRuleExplained):
            st.explained[event.seat].add(event.heading)
            st.requests[event.seat] += 1
        elif isinstance(event, PitRejected):
            st.requests[event.seat] += event.explain
        elif isinstance(event, PitEnded):
            st.over = True
        return st

    def fold(self, events: Sequence[Any]) -> PitState:
        """The state after a log (or a prefix of one)."""
        start = events[0]
        st = PitState(start.config, start.seed)
        for e in events[1:]:
            self.evolve(st, e)
        return st

    def turn_of(self, event: Any, turn: int) -> int:
        """The store's turn is the offer's number (deals count to the turn they follow)."""
        t = getattr(event, "turn", None)
        return int(t) if isinstance(t, int) and not isinstance(event, PitEnded) else turn

    def active(self, st: Any) -> int | None:
        """Model seats keep no scratchpad here."""
        return None

    def recorded_action(
        self, log: Sequence[Any], pos: int, seat: int, decision: PitDecision
    ) -> Any:
        """The action the seat answered with at this decision, as the rules received it."""
        for e in log[pos:]:
            if isinstance(e, PitRuleExplained) and e.seat == seat:
                return Explain(heading=e.heading)
            if isinstance(e, PitRejected) and e.seat == seat and e.turn == decision.turn:
                try:
                    return ACTION_DECODER.decode(e.raw)
                except msgspec.DecodeError:
                    return e.raw
            if isinstance(e, PitOfferKind) and e.seat == seat and e.turn == decision.turn:
                return Offer(kind=e.kind, count=decision_count(log, pos, e.turn))
            if isinstance(e, PitPassed) and e.seat == seat and e.turn == decision.turn:
                return Pass()
            if isinstance(e, PitSwapped) and e.responder == seat and e.turn == decision.turn:
                return Give(kind=e.given)
        raise LookupError(f"no action of seat {seat} at turn {decision.turn}")


def decision_count(log: Sequence[Any], pos: int, turn: int) -> int:
    """The count of the offer made at `turn`, read from the log."""
    for e in log[pos:]:
        if isinstance(e, PitOffered) and e.turn == turn:
            return int(e.count)
    raise LookupError(f"no offer at turn {turn}")


RULES = PitRules()
"""The rules of Pit."""


def state_data(st: PitState) -> dict[str, Any]:
    """The whole state as plain data (for `cattle replay`): every hand included."""
    return {
        "round": st.round,
        "turn": st.turn,
        "hands": [{k: n for k, n in zip(KINDS, h, strict=True) if n} for h in st.hands],
        "points": list(st.points),
        "offer": None
        if st.offer is None
        else {"seat": st.offerer(), "kind": KINDS[st.offer[0]], "count": st.offer[1]},
        "waiting": list(st.queue),
        "explained": [sorted(s) for s in st.explained],
        "over": st.over,
    }
