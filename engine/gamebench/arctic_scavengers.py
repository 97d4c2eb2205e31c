"""Arctic Scavengers as GameBench plays it, as a decider (see docs/gamebench.md for each
decision).

The game has one round per contested resource (five). A round:

* Deal: every player's whole tribe (all the cards it owns) is shuffled and five cards are
  dealt; the rest is its deck for the round.
* Gathering: the players in turn, from the round's first player (seat round mod players),
  take actions until they stop: dig, draw, hunt, hire and trash, each once per round. Dig,
  draw and hunt spend cards that can do the action, at least one of them a card that
  performs it (a tribe member; tools only add to it); their values add up. Dig turns up
  that many junkyard cards, of which the digger may keep one (the rest go under the
  junkyard); draw takes that many cards from the deck into the hand; hunt gives that much
  food for the round. Hire spends food and medicine cards to take the top card of a
  mercenary pile; trash puts hand cards into the junkyard at random places. Spent and new
  cards sit out until the next round's shuffle. A player with nothing left to do stops at
  once.
* Skirmish: the rest of each hand is its skirmish pile, face down until every player has
  stopped; then all are revealed. In turn from the first player, each unused Sniper Team in
  a pile may snipe (remove) a card with people from another pile, and each Saboteur
  sabotage a card without people. The pile with the highest fight (every card's fight value
  added) takes the top contested resource; a tie goes to the most people in the tied piles;
  a tie there sends the resource under the junkyard.
* End: when the contested resources are gone, the player with the most people in its last
  skirmish pile (after the strikes) wins (1), a tie going to the later seat, as GameBench's
  code decides (`ArcticConfig.winner` = `hand`, the default of rules 1.1.0). Under the
  `tribe` rule (rules 1.0.0, the `tribe` preset) the tribe with the most people on all its
  cards wins; tied leaders share the point.

An answer that is no legal action is recorded and replaced by a legal one drawn from the
seed (GameBench's fallback). A game asks at most `max_decisions` decisions.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import msgspec

from engine.gamebench.common import Explain, fallback, screened
from events.config import SeatSpec
from events.gamebench.arctic_scavengers import (
    ACTIONS,
    CARDS,
    CONTESTED,
    HAND,
    JUNKYARD,
    MERCENARIES,
    NAME,
    START,
    STRIKERS,
    VERSION,
    VERSIONS,
    ArcDealt,
    ArcDrew,
    ArcDug,
    ArcEnded,
    ArcHeld,
    ArcJunked,
    ArcKept,
    ArcPlayed,
    ArcRejected,
    ArcRevealed,
    ArcRoundStarted,
    ArcRuleExplained,
    ArcShuffled,
    ArcSkirmished,
    ArcStarted,
    ArcStopped,
    ArcStruck,
    ArcSupplied,
    ArcticConfig,
    fallback_rule,
    fallback_setting,
    sort_titles,
    winner_rule,
)
from events.gamebench.common import ranks

HEADINGS: tuple[str, ...] = ("Cards", "Gathering", "Digging and hiring", "Skirmish", "End")
"""The headings of the rules a model seat may ask to have explained."""

ALL_CARDS = (
    sum(k for _, k in START) * 4 + sum(k for _, k in JUNKYARD) + sum(k for _, k in MERCENARIES)
) + len(CONTESTED)
"""More cards than any hand can ever hold (every card of the game)."""

MISSES = 50
"""Refused answers in a round after which GameBench's fallback no longer draws a fight (which
does nothing and asks again)."""

GATHER_DECISIONS = len(ACTIONS) + 2
"""Most gathering decisions of a seat in a round: each action once, the dig's keep, stop."""

SKIRMISH_DECISIONS = sum(n for t, n in MERCENARIES if t in STRIKERS) + 1
"""Most skirmish decisions of a seat in a round: one strike per Sniper Team and Saboteur
there are, and holding."""


class Gather(msgspec.Struct, frozen=True, kw_only=True, tag="gather"):
    """Spend hand cards on dig, draw, hunt or trash."""

    kind: str
    cards: tuple[str, ...]


class Hire(msgspec.Struct, frozen=True, kw_only=True, tag="hire"):
    """Take the top card of a mercenary pile, paying its food and these medicine cards."""

    mercenary: str
    cards: tuple[str, ...]


class Keep(msgspec.Struct, frozen=True, kw_only=True, tag="keep"):
    """Keep one of the dug cards (None: none)."""

    card: str | None


class Strike(msgspec.Struct, frozen=True, kw_only=True, tag="strike"):
    """Snipe or sabotage a card of another player's skirmish pile."""

    kind: str
    target: int
    card: str


class Stop(msgspec.Struct, frozen=True, kw_only=True, tag="stop"):
    """End gathering (the rest of the hand goes to the skirmish), or end striking."""


ArcAction = Gather | Hire | Keep | Strike | Stop | Explain
"""Every action of an Arctic Scavengers seat."""

ACTION_DECODER = msgspec.json.Decoder(ArcAction)


class ArcDecision(msgspec.Struct, frozen=True, kw_only=True):
    """One seat is asked: to gather (or stop), to keep a dug card, or to strike (or hold)."""

    seats: tuple[int, ...]
    round: int
    kind: str
    """`gather`, `keep` or `skirmish`."""
    legal: tuple[Gather | Hire | Keep | Strike | Stop, ...]
    seed: int = 0
    ply: int = 0
    """Actions played before this decision (the fallback's draw)."""


class ArcState:
    """Where the game stands (mutable: the rules change it in place)."""

    __slots__ = (
        "config",
        "contested",
        "dig",
        "explained",
        "fallback_rule",
        "first",
        "food",
        "hand",
        "held",
        "junkyard",
        "mercs",
        "misses",
        "over",
        "phase",
        "pile",
        "ply",
        "requests",
        "reserve",
        "round",
        "seed",
        "spent",
        "stopped",
        "strikes",
        "used",
        "winner_rule",
    )

    def __init__(self, config: ArcticConfig, seed: int, version: str = VERSION) -> None:
        self.config = config
        self.seed = seed
        begun = ArcStarted(seed=seed, config=config, seats=(), engine_version=version)
        self.winner_rule = winner_rule(begun)
        """`hand` or `tribe` (`ArcticConfig.winner`; rules 1.0.0 always `tribe`)."""
        self.fallback_rule = fallback_rule(begun)
        """`gamebench` or `legal` (`ArcticConfig.fallback`; rules 1.0.0 always `legal`)."""
        self.misses = 0
        """Refused answers this round (the draw of GameBench's fallback)."""
        n = config.players
        start = [t for t, k in START for _ in range(k)]
        self.reserve: list[list[str]] = [list(start) for _ in range(n)]
        """Each seat's deck, top first (the whole tribe between rounds)."""
        self.hand: list[list[str]] = [[] for _ in range(n)]
        self.spent: list[list[str]] = [[] for _ in range(n)]
        """Cards out of play until the next shuffle (spent, hired, kept, struck, won)."""
        self.pile: list[list[str]] = [[] for _ in range(n)]
        """Skirmish piles."""
        self.food = [0] * n
        self.used: list[set[str]] = [set() for _ in range(n)]
        self.stopped = 0
        """Seats that ended their gathering this round."""
        self.held = [False] * n
        self.strikes: list[Counter[str]] = [Counter() for _ in range(n)]
        self.junkyard: list[str] = []
        self.contested: list[str] = []
        self.mercs: dict[str, int] = dict(MERCENARIES)
        self.round = -1
        self.first = 0
        self.phase = "deal"
        self.dig: list[str] | None = None
        self.ply = 0
        """Actions played so far (the fallback's draw)."""
        self.over = False
        self.explained: list[set[str]] = [set() for _ in range(n)]
        self.requests = [0] * n

    def gatherer(self) -> int:
        """The seat gathering now."""
        return (self.first + self.stopped) % self.config.players

    def owned(self, seat: int) -> list[str]:
        """Every card the seat owns."""
        return [*self.reserve[seat], *self.hand[seat], *self.spent[seat], *self.pile[seat]]


def tribe(cards: Sequence[str]) -> int:
    """People on the cards."""
    return sum(CARDS[t].people for t in cards)


def fight(cards: Sequence[str]) -> int:
    """Fight value of the cards (every card's, tools included)."""
    return sum(CARDS[t].value("fight") for t in cards)


def _multisets(counts: Counter[str]) -> tuple[tuple[str, ...], ...]:
    """Every non-empty sub-multiset of `counts`, titles in card order."""
    return _sub_multisets(tuple((t, counts[t]) for t in sort_titles(list(counts))))


@functools.lru_cache(maxsize=4096)
def _sub_multisets(counts: tuple[tuple[str, int], ...]) -> tuple[tuple[str, ...], ...]:
    out = []
    for picks in itertools.product(*(range(k + 1) for _, k in counts)):
        chosen = tuple(t for (t, _), k in zip(counts, picks, strict=True) for _ in range(k))
        if chosen:
            out.append(chosen)
    return tuple(out)


def uses(hand: Sequence[str], kind: str) -> tuple[Gather, ...]:
    """Every way to dig, draw or hunt with the hand: cards that can, one of them a card that
    performs the action, worth at least 1."""
    return _uses(sort_titles([t for t in hand if CARDS[t].does(kind)]), kind)


@functools.lru_cache(maxsize=4096)
def _uses(able: tuple[str, ...], kind: str) -> tuple[Gather, ...]:
    return tuple(
        Gather(kind=kind, cards=cards)
        for cards in _multisets(Counter(able))
        if any(CARDS[t].leads(kind) for t in cards) and sum(CARDS[t].value(kind) for t in cards) > 0
    )


def payments(hand: Sequence[str], cost: int) -> list[tuple[str, ...]]:
    """The medicine cards that pay `cost` without a card to spare (none for 0)."""
    kits, pills = hand.count("Medkit"), hand.count("Pills")
    out = []
    for k in range(kits + 1):
        for p in range(pills + 1):
            total = 2 * k + p
            if total >= cost and (k == 0 or total - 2 < cost) and (p == 0 or total - 1 < cost):
                out.append(("Medkit",) * k + ("Pills",) * p)
    return out


def gather_options(st: ArcState, seat: int) -> tuple[Gather | Hire | Stop, ...]:
    """The legal gathering actions of a seat (stopping last)."""
    hand, used = st.hand[seat], st.used[seat]
    out: list[Gather | Hire | Stop] = []
    if hand:
        for kind in ("dig", "draw", "hunt"):
            if kind not in used:
                out.extend(uses(hand, kind))
        if "hire" not in used:
            for merc, left in st.mercs.items():
                card = CARDS[merc]
                if left and card.food <= st.food[seat]:
                    out.extend(
                        Hire(mercenary=merc, cards=pay) for pay in payments(hand, card.medicine)
                    )
        if "trash" not in used:
            out.extend(Gather(kind="trash", cards=c) for c in _multisets(Counter(hand)))
    out.append(Stop())
    return tuple(out)


def can_gather(st: ArcState, seat: int) -> bool:
    """Whether the seat has a gathering action left (anything but stopping). Under
    GameBench's fallback a seat is asked while its hand holds a card, as GameBench's program
    asks it (its fallback can still play a card when every action is used)."""
    if not st.hand[seat]:
        return False
    if st.fallback_rule == "gamebench":
        return True
    return "trash" not in st.used[seat] or len(gather_options(st, seat)) > 1


def trash_loop(hand: Sequence[str], title: str) -> tuple[str, ...]:
    """The cards GameBench's trash takes when it is told to trash `title`: its loop removes
    every card of that title it meets from the list it walks, so it skips the card after each
    one removed (`update_resource_gather` at 92a1cea). In card order."""
    left = list(hand)
    for card in left:
        if card == title:
            left.remove(card)
    gone = Counter(hand)
    gone.subtract(left)
    return sort_titles(list(gone.elements()))


def passes_gamebench(st: ArcState, seat: int, action: Any) -> bool:
    """Whether GameBench's checks take a dig, draw or hunt as named: the action unused this
    round, every card in the hand and able to do it, one of them a tribe member (its value
    may be 0: a Refugee's dig)."""
    if not isinstance(action, Gather) or action.kind not in ("dig", "draw", "hunt"):
        return False
    if action.kind in st.used[seat] or not action.cards:
        return False
    if Counter(action.cards) - Counter(st.hand[seat]):
        return False
    cards = [CARDS[t] for t in action.cards]
    return all(c.does(action.kind) for c in cards) and any(c.leads(action.kind) for c in cards)


def gamebench_fallback(st: ArcState, seat: int, answer: Any) -> Gather | None:
    """What GameBench's program plays for a gathering answer it cannot take
    (`update_resource_gather` at 92a1cea): an empty trash while trashing is unused trashes a
    hand card drawn at random; anything else plays its fallback, the first card of the hand
    with people (the first card, trashed, if none has people) on one of its actions not used
    this round, or a trash, used or not, drawn uniformly. A fight so drawn does nothing and
    its player is asked again (None), as in GameBench's program, until `MISSES` answers of the
    round were refused; after that fight is left out of the draw, which bounds the game.
    Draws come from the seed, the round and the refusals so far."""
    rng = random.Random(f"{st.seed}:{NAME}:gamebench-fallback:{st.round}:{st.misses}")
    hand, used = st.hand[seat], st.used[seat]
    empty_trash = isinstance(answer, Gather) and answer.kind == "trash" and not answer.cards
    if empty_trash and "trash" not in used:
        return Gather(kind="trash", cards=trash_loop(hand, rng.choice(hand)))
    people = [t for t in hand if CARDS[t].people > 0]
    if not people:
        return Gather(kind="trash", cards=trash_loop(hand, hand[0]))
    card = people[0]
    info = CARDS[card]
    kinds = [a for a, _ in (*info.standard, *info.modifier) if a not in used]
    if st.misses > MISSES:
        kinds = [a for a in kinds if a != "fight"]
    kind = rng.choice([*kinds, "trash"])
    if kind == "fight":
        return None
    if kind == "trash":
        return Gather(kind="trash", cards=trash_loop(hand, card))
    return Gather(kind=kind, cards=(card,))


def strike_options(st: ArcState, seat: int) -> tuple[Strike | Stop, ...]:
    """The strikes a seat's skirmish pile can still make (holding last)."""
    out: list[Strike | Stop] = []
    for striker, kind in STRIKERS.items():
        if st.pile[seat].count(striker) <= st.strikes[seat][kind]:
            continue
        for target in range(st.config.players):
            if target == seat:
                continue
            for title in sort_titles(list(set(st.pile[target]))):
                if (CARDS[title].people > 0) == (kind == "snipe"):
                    out.append(Strike(kind=kind, target=target, card=title))
    out.append(Stop())
    return tuple(out)


def last_hand_end(tribes: tuple[int, ...], hands: tuple[int, ...]) -> ArcEnded:
    """The end under the `hand` rule: the seat with the most people in its last skirmish pile
    wins, and among equals the later seat. GameBench's `play` returns (1, 0) only when player
    1's last hand holds more people than player 2's, else (0, 1)
    (`games/arctic_scavengers/arctic_scavengers.py` at 92a1cea); with more players the seats
    rank by (people, seat), so each tie goes the same way. Every seat has its own rank (1 = best)."""
    order = sorted(range(len(hands)), key=lambda s: (hands[s], s), reverse=True)
    place = {s: i for i, s in enumerate(order)}
    return ArcEnded(
        reason="contested_gone",
        tribes=tribes,
        winner=order[0],
        scores=tuple(1.0 if s == order[0] else 0.0 for s in range(len(hands))),
        ranks=tuple(1 + place[s] for s in range(len(hands))),
        hands=hands,
    )


class ArcRules:
    """Arctic Scavengers as a decider (see the module docstring); `version` picks the rules
    games are recorded by (the current ones, or 1.0.0 to replay its games)."""

    versions = VERSIONS

    def __init__(self, version: str = VERSION) -> None:
        if version not in VERSIONS:
            raise ValueError(
                f"no Arctic Scavengers rules {version!r} (known: {', '.join(VERSIONS)})"
            )
        self.version = version

    def for_version(self, version: str) -> ArcRules | None:
        """The rules that recorded games stamped with `version` (None: no such rules)."""
        if version == self.version:
            return self
        return ArcRules(version) if version in VERSIONS else None

    @staticmethod
    def max_decisions(config: ArcticConfig) -> int:
        """Per round and seat, the gathering and skirmish decisions; each heading once per
        seat. Under GameBench's fallback every refused gathering answer takes at least one
        card from the hand or (at most `MISSES` + 1 times a round) does nothing, so a round adds
        at most as many as there are cards and those."""
        per_round = GATHER_DECISIONS + SKIRMISH_DECISIONS
        if fallback_setting(config) == "gamebench":
            per_round += ALL_CARDS + MISSES + 1
        return len(CONTESTED) * config.players * per_round + len(HEADINGS) * config.players

    def start(
        self, config: ArcticConfig, seed: int, seats: Sequence[SeatSpec]
    ) -> tuple[ArcState, list[Any]]:
        """Shuffle the junkyard and the contested resources; deal the first round."""
        st = ArcState(config.validate(), seed, self.version)
        rng = random.Random(f"{seed}:{NAME}:supply")
        junk = [t for t, k in JUNKYARD for _ in range(k)]
        rng.shuffle(junk)
        contested = list(CONTESTED)
        rng.shuffle(contested)
        events: list[Any] = [
            ArcStarted(seed=seed, config=config, seats=tuple(seats), engine_version=self.version),
            ArcSupplied(junkyard=tuple(junk), contested=tuple(contested)),
        ]
        for e in events[1:]:
            self.evolve(st, e)
        self._advance(st, events)
        return st, events

    def _emit(self, st: ArcState, events: list[Any], *made: Any) -> None:
        for e in made:
            self.evolve(st, e)
            events.append(e)

    def _deal(self, st: ArcState, events: list[Any]) -> None:
        n = st.config.players
        r = st.round + 1
        orders = []
        for seat in range(n):
            cards = sort_titles(st.owned(seat))
            order = list(cards)
            random.Random(f"{st.seed}:{NAME}:shuffle:{r}:{seat}").shuffle(order)
            orders.append(tuple(order))
        dealt = tuple(min(HAND, len(o)) for o in orders)
        self._emit(
            st,
            events,
            ArcRoundStarted(round=r, first=r % n, dealt=dealt, contested_left=len(st.contested)),
        )
        for seat, shuffled in enumerate(orders):
            self._emit(
                st,
                events,
                ArcShuffled(round=r, seat=seat, order=shuffled),
                ArcDealt(round=r, seat=seat, hand=shuffled[:HAND]),
            )

    def _advance(self, st: ArcState, events: list[Any]) -> None:
        """Play what needs no decision: deals, stops of seats with nothing to do, the reveal,
        the skirmish's outcome and the end."""
        n = st.config.players
        while not st.over:
            if st.phase == "deal":
                self._deal(st, events)
            elif st.phase == "gather":
                if st.dig is not None:
                    return
                if st.stopped == n:
                    piles = tuple(sort_titles(p) for p in st.pile)
                    self._emit(st, events, ArcRevealed(round=st.round, piles=piles))
                    continue
                seat = st.gatherer()
                if can_gather(st, seat):
                    return
                self._emit(
                    st,
                    events,
                    ArcStopped(round=st.round, seat=seat, committed=len(st.hand[seat])),
                )
            elif self._striker(st) is not None:
                return
            else:
                self._resolve(st, events)

    def _striker(self, st: ArcState) -> int | None:
        """The next seat that can still strike this skirmish."""
        n = st.config.players
        for k in range(n):
            seat = (st.first + k) % n
            if not st.held[seat] and len(strike_options(st, seat)) > 1:
                return seat
        return None

    def _resolve(self, st: ArcState, events: list[Any]) -> None:
        n = st.config.players
        fights = tuple(fight(p) for p in st.pile)
        people = tuple(tribe(p) for p in st.pile)
        best = [s for s in range(n) if fights[s] == max(fights)]
        if len(best) > 1:
            most = max(people[s] for s in best)
            best = [s for s in best if people[s] == most]
        winner = best[0] if len(best) == 1 else None
        card = st.contested[0]
        self._emit(
            st,
            events,
            ArcSkirmished(round=st.round, fight=fights, people=people, winner=winner, card=card),
        )
        if st.contested:
            return
        tribes = tuple(tribe(st.owned(s)) for s in range(n))
        if st.winner_rule == "hand":
            self._emit(st, events, last_hand_end(tribes, people))
            return
        top = [s for s in range(n) if tribes[s] == max(tribes)]
        scores = tuple(1.0 / len(top) if s in top else 0.0 for s in range(n))
        self._emit(
            st,
            events,
            ArcEnded(
                reason="contested_gone",
                tribes=tribes,
                winner=top[0] if len(top) == 1 else None,
                scores=scores,
                ranks=ranks(tribes),
            ),
        )

    def pending(self, st: ArcState) -> ArcDecision | None:
        """The seat asked now and its legal actions; None once the game is over (or, in a
        state folded from part of a step's events, when nobody is asked)."""
        if st.over or st.phase == "deal" or (st.phase == "gather" and st.stopped == len(st.pile)):
            return None
        if st.phase == "gather":
            seat = st.gatherer()
            if st.dig is not None:
                keeps = [Keep(card=t) for t in sort_titles(list(set(st.dig)))]
                legal: tuple[Any, ...] = (*keeps, Keep(card=None))
                kind = "keep"
            else:
                legal, kind = gather_options(st, seat), "gather"
        else:
            found = self._striker(st)
            if found is None:
                return None
            seat, kind = found, "skirmish"
            legal = strike_options(st, seat)
        return ArcDecision(
            seats=(seat,), round=st.round, kind=kind, legal=legal, seed=st.seed, ply=st.ply
        )

    def step(
        self, st: ArcState, d: ArcDecision, actions: Sequence[Any]
    ) -> tuple[ArcState, list[Any]]:
        """Explain a heading, or play the action (an unusable one replaced by the fallback)."""
        seat = d.seats[0]
        answer = actions[0]
        legal: tuple[Any, ...] = d.legal
        draw: Any = lambda: fallback(st.seed, NAME, st.ply, d.legal)  # noqa: E731
        if st.fallback_rule == "gamebench" and d.kind == "gather":
            if passes_gamebench(st, seat, answer):
                legal = (*legal, answer)
            draw = lambda: gamebench_fallback(st, seat, answer)  # noqa: E731
        played, events = screened(
            answer,
            legal,
            headings=HEADINGS,
            explained=st.explained[seat],
            requests=st.requests[seat],
            granted=lambda h: ArcRuleExplained(seat=seat, heading=h),
            refused=lambda raw, why, asked: ArcRejected(
                round=st.round, seat=seat, raw=raw, reason=why, explain=asked
            ),
            fold=lambda e: self.evolve(st, e),
            draw=draw,
        )
        if played is None:
            return st, events
        self._play(st, seat, played, events)
        self._advance(st, events)
        return st, events

    def _play(self, st: ArcState, seat: int, action: Any, events: list[Any]) -> None:
        r = st.round
        if isinstance(action, Keep):
            assert st.dig is not None
            back = len(st.dig) - (action.card is not None)
            self._emit(
                st,
                events,
                ArcKept(round=r, seat=seat, card=action.card, returned=back),
            )
        elif isinstance(action, Strike):
            self._emit(
                st,
                events,
                ArcStruck(
                    round=r,
                    seat=seat,
                    kind=action.kind,  # type: ignore[arg-type]
                    target=action.target,
                    card=action.card,
                ),
            )
        elif isinstance(action, Stop):
            if st.phase == "gather":
                made: Any = ArcStopped(round=r, seat=seat, committed=len(st.hand[seat]))
            else:
                made = ArcHeld(round=r, seat=seat)
            self._emit(st, events, made)
        elif isinstance(action, Hire):
            food = st.food[seat] - CARDS[action.mercenary].food
            self._emit(
                st,
                events,
                ArcPlayed(
                    round=r,
                    seat=seat,
                    action="hire",
                    cards=action.cards,
                    hired=action.mercenary,
                    food=food,
                ),
            )
        else:
            assert isinstance(action, Gather)
            kind, cards = action.kind, action.cards
            value = sum(CARDS[t].value(kind) for t in cards)
            if kind == "trash":
                rng = random.Random(f"{st.seed}:{NAME}:junk:{st.ply}")
                size = len(st.junkyard)
                spots = []
                for i in range(len(cards)):
                    spots.append(rng.randint(0, size + i))
                self._emit(
                    st,
                    events,
                    ArcPlayed(round=r, seat=seat, action="trash", cards=cards, food=st.food[seat]),
                    ArcJunked(round=r, cards=cards, positions=tuple(spots)),
                )
            elif kind == "hunt":
                self._emit(
                    st,
                    events,
                    ArcPlayed(
                        round=r,
                        seat=seat,
                        action="hunt",
                        cards=cards,
                        value=value,
                        food=st.food[seat] + value,
                    ),
                )
            elif kind == "draw":
                got = tuple(st.reserve[seat][:value])
                self._emit(
                    st,
                    events,
                    ArcPlayed(
                        round=r,
                        seat=seat,
                        action="draw",
                        cards=cards,
                        value=value,
                        food=st.food[seat],
                        drawn=len(got),
                    ),
                )
                if got:
                    self._emit(st, events, ArcDrew(round=r, seat=seat, cards=got))
            else:
                dug = tuple(st.junkyard[:value])
                self._emit(
                    st,
                    events,
                    ArcPlayed(
                        round=r,
                        seat=seat,
                        action="dig",
                        cards=cards,
                        value=value,
                        food=st.food[seat],
                        drawn=len(dug),
                    ),
                )
                if dug:
                    self._emit(st, events, ArcDug(round=r, seat=seat, cards=dug))

    def evolve(self, st: ArcState, event: Any) -> ArcState:
        """Fold one event into the state (in place; other events leave it unchanged)."""
        n = st.config.players
        if isinstance(event, ArcSupplied):
            st.junkyard = list(event.junkyard)
            st.contested = list(event.contested)
        elif isinstance(event, ArcRoundStarted):
            st.round, st.first = event.round, event.first
            st.phase, st.stopped, st.dig = "gather", 0, None
            st.food = [0] * n
            st.used = [set() for _ in range(n)]
            st.held = [False] * n
            st.strikes = [Counter() for _ in range(n)]
            st.misses = 0
        elif isinstance(event, ArcShuffled):
            s = event.seat
            st.reserve[s] = list(event.order)
            st.hand[s], st.spent[s], st.pile[s] = [], [], []
        elif isinstance(event, ArcDealt):
            s = event.seat
            st.hand[s] = list(event.hand)
            st.reserve[s] = st.reserve[s][len(event.hand) :]
        elif isinstance(event, ArcPlayed):
            s = event.seat
            for t in event.cards:
                st.hand[s].remove(t)
            if event.action != "trash":
                st.spent[s].extend(event.cards)
            if event.hired is not None:
                st.mercs[event.hired] -= 1
                st.spent[s].append(event.hired)
            st.used[s].add(event.action)
            st.food[s] = event.food
            st.ply += 1
        elif isinstance(event, ArcDrew):
            s = event.seat
            st.reserve[s] = st.reserve[s][len(event.cards) :]
            st.hand[s].extend(event.cards)
        elif isinstance(event, ArcDug):
            st.dig = list(event.cards)
            st.junkyard = st.junkyard[len(event.cards) :]
        elif isinstance(event, ArcKept):
            assert st.dig is not None
            back = list(st.dig)
            if event.card is not None:
                back.remove(event.card)
                st.spent[event.seat].append(event.card)
            st.junkyard.extend(back)
            st.dig = None
            st.ply += 1
        elif isinstance(event, ArcJunked):
            for t, at in zip(event.cards, event.positions, strict=True):
                st.junkyard.insert(at, t)
        elif isinstance(event, ArcStopped):
            s = event.seat
            st.pile[s], st.hand[s] = st.hand[s], []
            st.stopped += 1
            st.ply += 1
        elif isinstance(event, ArcRevealed):
            st.phase = "skirmish"
        elif isinstance(event, ArcStruck):
            st.pile[event.target].remove(event.card)
            st.spent[event.target].append(event.card)
            st.strikes[event.seat][event.kind] += 1
            st.ply += 1
        elif isinstance(event, ArcHeld):
            st.held[event.seat] = True
            st.ply += 1
        elif isinstance(event, ArcSkirmished):
            card = st.contested.pop(0)
            if event.winner is None:
                st.junkyard.append(card)
            else:
                st.spent[event.winner].append(card)
            st.phase = "deal"
        elif isinstance(event, ArcRuleExplained):
            st.explained[event.seat].add(event.heading)
            st.requests[event.seat] += 1
        elif isinstance(event, ArcRejected):
            st.requests[event.seat] += event.explain
            st.misses += 1
        elif isinstance(event, ArcEnded):
            st.over = True
        return st

    def fold(self, events: Sequence[Any]) -> ArcState:
        """The state after a log (or a prefix of one)."""
        start = events[0]
        st = ArcState(start.config, start.seed, start.engine_version)
        for e in events[1:]:
            self.evolve(st, e)
        return st

    def turn_of(self, event: Any, turn: int) -> int:
        """The store's turn is the round."""
        r = getattr(event, "round", None)
        return int(r) if isinstance(r, int) else turn

    def active(self, st: Any) -> int | None:
        """Model seats keep no scratchpad here."""
        return None

    def recorded_action(
        self, log: Sequence[Any], pos: int, seat: int, decision: ArcDecision
    ) -> Any:
        """The action the seat answered with at this decision, as the rules received it."""
        for e in log[pos:]:
            if getattr(e, "seat", None) != seat:
                continue
            if isinstance(e, ArcRuleExplained):
                return Explain(heading=e.heading)
            if isinstance(e, ArcRejected):
                try:
                    return ACTION_DECODER.decode(e.raw)
                except msgspec.DecodeError:
                    return e.raw
            if isinstance(e, ArcPlayed):
                if e.action == "hire":
                    assert e.hired is not None
                    return Hire(mercenary=e.hired, cards=e.cards)
                return Gather(kind=e.action, cards=e.cards)
            if isinstance(e, ArcKept):
                return Keep(card=e.card)
            if isinstance(e, ArcStruck):
                return Strike(kind=e.kind, target=e.target, card=e.card)
            if isinstance(e, ArcStopped | ArcHeld):
                return Stop()
        raise LookupError(f"no action of seat {seat} in round {decision.round}")


RULES = ArcRules()
"""The rules of Arctic Scavengers."""


def state_data(st: ArcState) -> dict[str, Any]:
    """The whole state as plain data (for `cattle replay`): every hand and deck included."""
    return {
        "round": st.round,
        "phase": st.phase,
        "players": [
            {
                "hand": list(st.hand[s]),
                "deck": len(st.reserve[s]),
                "out": list(st.spent[s]),
                "skirmish": list(st.pile[s]),
                "food": st.food[s],
                "used": sorted(st.used[s]),
                "tribe": tribe(st.owned(s)),
            }
            for s in range(st.config.players)
        ],
        "junkyard": len(st.junkyard),
        "contested": len(st.contested),
        "mercenaries": dict(st.mercs),
        "explained": [sorted(s) for s in st.explained],
        "over": st.over,
    }
