"""Pit as a decider (see docs/gamebench.md for each decision).

Open trading (the default: GameBench's code, rule for rule). Each seat is dealt two hands
and sees only the first. Seats take turns; a turn is one action: an offer of 1 to 4 cards of
any kind, named for everyone (it stands, replacing the seat's earlier offer, if the first
hand holds the cards, else nothing happens), or taking another seat's standing offer by
giving any number of cards of one kind from the first hand. A trade moves the cards in both
hands of each trader (GameBench keeps a seat's two hands in step). After a trade and after
every turn all hands are checked in order: `corner` cards of a commodity, or one fewer and
the Bull, score its value (twice that with the Bull on a full corner, less 20 per Bear), and
every corner deals anew at once. The game ends after a turn that leaves a seat at the
target, or after `max_turns`.

Blind trading (the `blind` preset and rules 1.0.0). A round deals the shuffled deck to the players in turn. Turns go round the table: the seat
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
from msgspec import UNSET

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
    VERSIONS,
    PitConfig,
    PitCornered,
    PitDealt,
    PitEnded,
    PitHiddenDealt,
    PitOffered,
    PitOfferKind,
    PitPaid,
    PitPassed,
    PitProposalVoid,
    PitProposed,
    PitRejected,
    PitRuleExplained,
    PitShuffled,
    PitStarted,
    PitSwapped,
    PitTaken,
    PitTraded,
    rules_of,
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


class Accept(msgspec.Struct, frozen=True, kw_only=True, tag="accept"):
    """Open trading: take `offerer`'s standing offer, giving `count` cards of `kind`."""

    offerer: int
    kind: str
    count: int


PitAction = Offer | Give | Pass | Accept | Explain
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


class OpenTurn(msgspec.Struct, frozen=True, kw_only=True):
    """Open trading: the seat whose turn it is offers or takes a standing offer."""

    seats: tuple[int, ...]
    turn: int
    legal: tuple[Offer | Accept, ...]
    """Every offer (backed by the hand or not, as GameBench lists them) and every way to
    take another seat's standing offer with cards of the first hand."""
    proposals: tuple[tuple[int, str, int], ...]
    """The other seats' standing offers: (seat, kind, count), oldest first."""
    seed: int = 0

    @property
    def kind(self) -> str:
        """The decision's name."""
        return "trade"


class PitState:
    """Where the game stands (mutable: the rules change it in place)."""

    __slots__ = (
        "config",
        "corner",
        "explained",
        "hands",
        "hidden",
        "offer",
        "over",
        "points",
        "proposals",
        "queue",
        "requests",
        "round",
        "seed",
        "trading",
        "turn",
    )

    def __init__(self, config: PitConfig, seed: int, version: str = VERSION) -> None:
        self.config = config
        self.seed = seed
        n = config.players
        self.trading, self.corner = rules_of(
            PitStarted(seed=seed, config=config, seats=(), engine_version=version)
        )
        self.hands: list[list[int]] = [[0] * len(KINDS) for _ in range(n)]
        self.hidden: list[list[int]] = [[0] * len(KINDS) for _ in range(n)]
        """Open trading: every seat's second hand."""
        self.proposals: list[tuple[int, int, int]] = []
        """Open trading: the standing offers, (seat, kind index, count), oldest first."""
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


def corner(hand: Sequence[int], size: int = PER_COMMODITY) -> tuple[int, int, int] | None:
    """(commodity index, cards held, points) of the corner in a hand, or None."""
    bull = hand[BULL_I] > 0
    for i, (_, value) in enumerate(COMMODITIES):
        held = hand[i]
        if held == size or (held == size - 1 and bull):
            gained = value * (2 if bull and held == size else 1)
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


CHECK_ORDER: tuple[int, ...] = tuple(KINDS.index(k) for k in ("Barley", "Corn", "Soybeans"))
CHECK_ORDER = (*CHECK_ORDER, KINDS.index("Wheat"), BULL_I, BEAR_I)
"""The order GameBench's code looks through a hand for corners (its list of commodities)."""
VALUES: tuple[int, ...] = (*(v for _, v in COMMODITIES), 0, 0)
"""Points of a corner of each kind (the Bull and the Bear are worth 0 in GameBench's list)."""


def open_actions(st: PitState, seat: int) -> tuple[Offer | Accept, ...]:
    """GameBench's list: every kind in 1..4 cards, then for each standing offer of another
    seat every kind held in the first hand, 1 card up to all of them."""
    out: list[Offer | Accept] = [
        Offer(kind=k, count=c) for k in KINDS for c in range(1, MAX_OFFER + 1)
    ]
    hand = st.hands[seat]
    for offerer, _, _ in st.proposals:
        if offerer != seat:
            out.extend(
                Accept(offerer=offerer, kind=KINDS[k], count=c)
                for k in range(len(KINDS))
                for c in range(1, hand[k] + 1)
            )
    return tuple(out)


def answers(hand: Sequence[int], count: int) -> tuple[Give | Pass, ...]:
    """Every answer a hand can give to an offer of `count` cards (passing first)."""
    gives = tuple(Give(kind=KINDS[k]) for k in range(len(KINDS)) if hand[k] >= count)
    return (Pass(), *gives)


class PitRules:
    """Pit as a decider (see the module docstring); `version` picks the rules games are
    recorded by (the current ones, or 1.0.0 to replay its games)."""

    versions = VERSIONS

    def __init__(self, version: str = VERSION) -> None:
        if version not in VERSIONS:
            raise ValueError(f"no Pit rules {version!r} (known: {', '.join(VERSIONS)})")
        self.version = version

    def for_version(self, version: str) -> PitRules | None:
        """The rules that recorded games stamped with `version` (None: no such rules)."""
        if version == self.version:
            return self
        return PitRules(version) if version in VERSIONS else None

    @staticmethod
    def max_decisions(config: PitConfig) -> int:
        """Each turn asks the offerer and at most every other seat once, and each heading
        can be explained once per seat."""
        return config.max_turns * config.players + len(HEADINGS) * config.players

    def start(
        self, config: PitConfig, seed: int, seats: Sequence[SeatSpec]
    ) -> tuple[PitState, list[Any]]:
        """Announce the game and deal the first round (open trading checks for corners only
        after the first turn, as GameBench's game loop does)."""
        st = PitState(config.validate(), seed, self.version)
        events: list[Any] = [
            PitStarted(seed=seed, config=config, seats=tuple(seats), engine_version=self.version)
        ]
        if st.trading == "open":
            self._deal_open(st, events)
        else:
            self._deal(st, events)
        return st, events

    def _deal_open(self, st: PitState, events: list[Any]) -> None:
        """Shuffle and deal one card at a time to every seat's first hand, second hand, the
        next seat's first hand, and so on (GameBench's virtual players)."""
        deck = list(DECK)
        random.Random(f"{st.seed}:{NAME}:deal:{st.round}").shuffle(deck)
        n = st.config.players
        fresh: list[Any] = [PitShuffled(round=st.round, deck=tuple(deck))]
        for seat in range(n):
            for which, cls in ((0, PitDealt), (1, PitHiddenDealt)):
                hand = [0] * len(KINDS)
                for k in deck[2 * seat + which :: 2 * n]:
                    hand[k] += 1
                fresh.append(cls(round=st.round, seat=seat, hand=tuple(hand)))
        for e in fresh:
            self.evolve(st, e)
        events.extend(fresh)

    def _check_open(self, st: PitState, events: list[Any]) -> None:
        """GameBench's corner check: every hand in turn (each seat's first, then its second);
        each corner scores and deals anew at once, and the look goes on through the rest of
        the hand it was found in (as dealt before) and the next hands (as newly dealt)."""
        size = st.corner
        for seat in range(st.config.players):
            for which in (0, 1):
                hand = st.hands[seat] if which == 0 else st.hidden[seat]
                bull, bear = hand[BULL_I], hand[BEAR_I]
                for k in CHECK_ORDER:
                    held = hand[k]
                    if not (held == size or (held == size - 1 and bull)):
                        continue
                    gained = VALUES[k] * (2 if bull and held == size else 1)
                    if bear:
                        gained -= BEAR_PENALTY * bear
                    points = list(st.points)
                    points[seat] += gained
                    e = PitCornered(
                        round=st.round,
                        seat=seat,
                        commodity=KINDS[k],
                        held=held,
                        bull=bull != 0,
                        bear=bear != 0,
                        gained=gained,
                        points=tuple(points),
                        hand=which if which else UNSET,
                    )
                    self.evolve(st, e)
                    events.append(e)
                    self._deal_open(st, events)

    def _step_open(self, st: PitState, d: OpenTurn, action: Any) -> list[Any]:
        """One turn of open trading (the action already screened)."""
        seat = d.seats[0]
        events: list[Any] = []
        if isinstance(action, Offer):
            k = KINDS.index(action.kind)
            cls = PitProposed if st.hands[seat][k] >= action.count else PitProposalVoid
            events.append(cls(turn=st.turn, seat=seat, kind=action.kind, count=action.count))
            self.evolve(st, events[-1])
        else:
            assert isinstance(action, Accept)
            _, k, c = next(p for p in st.proposals if p[0] == action.offerer)
            made = [
                PitTaken(
                    turn=st.turn, offerer=action.offerer, responder=seat, kind=KINDS[k], count=c
                ),
                PitPaid(
                    turn=st.turn,
                    offerer=action.offerer,
                    responder=seat,
                    kind=action.kind,
                    count=action.count,
                ),
            ]
            for e in made:
                self.evolve(st, e)
            events.extend(made)
            self._check_open(st, events)
        self._check_open(st, events)
        if max(st.points) >= st.config.target:
            self._end(st, "target", events)
        elif st.turn >= st.config.max_turns:
            self._end(st, "turn_limit", events)
        return events

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
            found = corner(st.hands[seat], st.corner)
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

    def pending(self, st: PitState) -> PitDecision | OpenTurn | None:
        """The offerer, or the next seat to answer its offer; None once the game is over."""
        if st.over:
            return None
        if st.trading == "open":
            seat = st.turn % st.config.players
            return OpenTurn(
                seats=(seat,),
                turn=st.turn,
                legal=open_actions(st, seat),
                proposals=tuple((s, KINDS[k], c) for s, k, c in st.proposals if s != seat),
                seed=st.seed,
            )
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
        self, st: PitState, d: PitDecision | OpenTurn, actions: Sequence[Any]
    ) -> tuple[PitState, list[Any]]:
        """Explain a heading, or play the action (an unusable one replaced by the fallback)."""
        seat = d.seats[0]
        n = st.config.players
        if isinstance(d, OpenTurn):
            ply = st.turn
        else:
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
        if isinstance(d, OpenTurn):
            events.extend(self._step_open(st, d, action))
            return st, events
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
        if isinstance(event, PitHiddenDealt):
            st.hidden[event.seat] = list(event.hand)
        elif isinstance(event, PitProposed):
            k = KINDS.index(event.kind)
            st.proposals = [p for p in st.proposals if p[0] != event.seat]
            st.proposals.append((event.seat, k, event.count))
            st.turn += 1
        elif isinstance(event, PitProposalVoid):
            st.turn += 1
        elif isinstance(event, PitTaken | PitPaid):
            # The taker's cards go one way, the offer's the other, in both hands of each.
            k = KINDS.index(event.kind)
            giver, taker = (
                (event.offerer, event.responder)
                if isinstance(event, PitTaken)
                else (event.responder, event.offerer)
            )
            for hands in (st.hands, st.hidden):
                hands[giver][k] -= event.count
                hands[taker][k] += event.count
            if isinstance(event, PitTaken):
                st.proposals = [p for p in st.proposals if p[0] != event.offerer]
                st.turn += 1
        elif isinstance(event, PitDealt):
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
        st = PitState(start.config, start.seed, start.engine_version)
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
        for i in range(pos, len(log)):
            e = log[i]
            if isinstance(e, PitProposed | PitProposalVoid) and e.seat == seat:
                return Offer(kind=e.kind, count=e.count)
            if isinstance(e, PitPaid) and e.responder == seat:
                return Accept(offerer=e.offerer, kind=e.kind, count=e.count)
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
        "trading": st.trading,
        "corner": st.corner,
        "second_hands": [{k: n for k, n in zip(KINDS, h, strict=True) if n} for h in st.hidden]
        if st.trading == "open"
        else [],
        "proposals": [{"seat": s, "kind": KINDS[k], "count": c} for s, k, c in st.proposals],
        "over": st.over,
    }
