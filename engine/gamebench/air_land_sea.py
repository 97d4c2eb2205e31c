"""Air, Land and Sea as GameBench plays it, as a decider (see docs/gamebench.md).

A match is a series of battles. Each battle lays the three theatres in a row (the first
battle's order drawn from the seed, then rotated), deals six cards to each player and
alternates turns from the 1st player. On a turn a player either deploys a card face up to
its own theatre, improvises a card face down to any theatre (strength 2), or withdraws. A
card played face up, or flipped face up, sets off its instant ability; the abilities that
need a choice (Maneuver, Ambush, Transport, Redeploy, Reinforce, Disrupt) are decisions of
their own, resolved in the order they were set off before the turn passes. Ongoing
abilities act while their card is face up.

A battle ends when a player withdraws (the other scores 2 to 6 points, fewer the more cards
the withdrawing player still holds) or when both hands are empty: the player who controls
more theatres (higher strength; ties and empty theatres to the 1st player) scores 6. The
1st player alternates between battles. The first to 12 points ends the match; after
`max_battles` battles it stops anyway.

Two sets of rules (`AlsConfig.rules`): `code` (the default) plays as GameBench's program at
1b8b24e does, its quirks included (the leftmost theatre moves right between battles, the
Disrupt's owner chooses both flips, Reinforce's card escapes Containment and Blockade,
Escalation and Cover Fire do nothing in the leftmost theatre, destroyed cards leave the
game, a battle counts strengths as last refreshed); `cards` plays the cards as written
(rules 1.0.0). The match score (`AlsConfig.score`) is each seat's share of the points
(`share`, the default) or 1 / 0 (`win`, level points 0.5 each).

An answer that is no legal action is recorded and replaced by a random legal one drawn from
the seed (GameBench's fallback).
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from typing import Any, Literal

import msgspec

from engine.gamebench.common import Explain, fallback, screened
from events.config import SeatSpec
from events.gamebench.air_land_sea import (
    BATTLE_WIN,
    CARDS,
    HAND,
    MAX_ABILITIES,
    NAME,
    THEATRES,
    VERSION,
    VERSIONS,
    AlsBattleBegan,
    AlsBattleEnded,
    AlsConfig,
    AlsDealt,
    AlsDrew,
    AlsEnded,
    AlsFlipped,
    AlsHiddenCard,
    AlsMoved,
    AlsPlayed,
    AlsRejected,
    AlsReturned,
    AlsRuleExplained,
    AlsShuffled,
    AlsSkipped,
    AlsStarted,
    AlsWithdrew,
    rules_of,
)
from events.gamebench.common import ranks, share_scores, winner_scores

HEADINGS: tuple[str, ...] = (
    "Theaters",
    "Battle Cards",
    "Facedown Cards",
    "Possible actions",
    "Supreme Commander Cards",
    "Tactical Abilities",
    "Ending Battles",
    "Scoring Victory Points",
)
"""The headings of the rules a model seat may ask to have explained (Appendix K's)."""

WITHDRAW_POINTS: dict[int, tuple[tuple[int, int], ...]] = {
    0: ((4, 2), (2, 3), (1, 4), (0, 6)),
    1: ((5, 2), (3, 3), (2, 4), (0, 6)),
}
"""Points the other player scores when the 1st (0) or 2nd (1) player withdraws holding at
least so many cards: (fewest cards, points), most cards first."""

Stack = list[tuple[str, bool]]
"""One side of a theatre: (card, face up), bottom first; the last card is uncovered."""


class Deploy(msgspec.Struct, frozen=True, kw_only=True, tag="deploy"):
    """Play a card from the hand face up to a theatre."""

    card: str
    theatre: str


class Improvise(msgspec.Struct, frozen=True, kw_only=True, tag="improvise"):
    """Play a card from the hand face down to any theatre."""

    card: str
    theatre: str


class Withdraw(msgspec.Struct, frozen=True, kw_only=True, tag="withdraw"):
    """Give up the battle."""


class Flip(msgspec.Struct, frozen=True, kw_only=True, tag="flip"):
    """Flip the uncovered card of seat `owner` in a theatre."""

    owner: int
    theatre: str


class Move(msgspec.Struct, frozen=True, kw_only=True, tag="move"):
    """Transport: move one of the own cards (its place in the own stack of a theatre, 0 the
    bottom) to the top of another theatre."""

    theatre: str
    index: int
    to: str


class Return(msgspec.Struct, frozen=True, kw_only=True, tag="return"):
    """Redeploy: take one of the own face-down cards back to the hand."""

    theatre: str
    index: int


class Reinforce(msgspec.Struct, frozen=True, kw_only=True, tag="reinforce"):
    """Reinforce: play the drawn card face down to this (adjacent) theatre."""

    theatre: str


class Skip(msgspec.Struct, frozen=True, kw_only=True, tag="skip"):
    """Do not use an ability that says "may"."""


AlsMove = Deploy | Improvise | Withdraw | Flip | Move | Return | Reinforce | Skip
AlsAction = Deploy | Improvise | Withdraw | Flip | Move | Return | Reinforce | Skip | Explain
"""Every action of a seat."""

ACTION_DECODER = msgspec.json.Decoder(AlsAction)


class Task(msgspec.Struct, frozen=True):
    """An ability waiting for its decision: its kind, the seat that decides, the card that
    set it off and the theatre that card was in."""

    kind: str
    """`maneuver`, `ambush`, `transport`, `redeploy`, `reinforce`, `disrupt` (flip one of
    the own uncovered cards) or `play` (Redeploy's extra play)."""
    seat: int
    card: str
    theatre: str
    side: int = -1
    """Disrupt: whose uncovered cards the decider flips (-1: its own). GameBench's program
    lets the Disrupt's owner choose the other player's flip too."""


ABILITY_TASKS: dict[str, str] = {
    "Maneuver": "maneuver",
    "Ambush": "ambush",
    "Transport": "transport",
    "Redeploy": "redeploy",
    "Reinforce": "reinforce",
    "Disrupt": "disrupt",
}


class AlsDecision(msgspec.Struct, frozen=True, kw_only=True):
    """One seat is asked: its turn, or a choice of an ability."""

    seats: tuple[int, ...]
    kind: str
    """`turn`, or the ability's task kind (`maneuver`, ..., `play`)."""
    n: int
    battle: int
    legal: tuple[AlsMove, ...]
    labels: tuple[str, ...]
    """How each legal action is shown to the seat asked (its own knowledge only)."""
    card: str | None = None
    """The card whose ability asks (None on a turn)."""
    seed: int = 0


def adjacent(order: Sequence[str], theatre: str) -> list[str]:
    """The theatres next to `theatre` in the row."""
    i = list(order).index(theatre)
    return [order[j] for j in (i - 1, i + 1) if 0 <= j < len(order)]


def card_name(card: str) -> str:
    """`Maneuver (Air 3)`."""
    info = CARDS[card]
    return f"{info.name} ({info.theatre} {info.strength})"


def faceup_cards(lanes: dict[str, list[Stack]]) -> list[tuple[str, int, str]]:
    """(card, owner, theatre) of every face-up card."""
    return [
        (c, s, t)
        for t, sides in lanes.items()
        for s, stack in enumerate(sides)
        for c, up in stack
        if up and c
    ]


def strengths(
    order: Sequence[str],
    lanes: dict[str, list[Stack]],
    inert: Collection[str] = (),
    left_void: bool = False,
) -> list[tuple[int, int]]:
    """Each theatre's strength of seat 0 and seat 1, in `order`. A face-up card has its
    strength, a face-down one 2 (4 for a seat with Escalation face up); cards under a face-up
    Cover Fire have 4; a face-up Support gives its owner 3 in each adjacent theatre. Face-down
    cards may be unknown (an empty code): their strength does not depend on what they are.
    Cards in `inert` keep their strength but not their ability. With `left_void`, Escalation
    and Cover Fire do nothing in the leftmost theatre (GameBench's program at 1b8b24e finds
    them by their theatre's index and skips index 0 as if it were missing)."""
    escalated = [False, False]
    bonus = [[0, 0] for _ in order]
    for i, t in enumerate(order):
        for s in (0, 1):
            for c, u in lanes[t][s]:
                if not u or c in inert:
                    continue
                if c == "S2" and not (left_void and i == 0):
                    escalated[s] = True
                elif c == "A1":
                    for j in (i - 1, i + 1):
                        if 0 <= j < len(order):
                            bonus[j][s] += 3
    out = []
    for i, t in enumerate(order):
        pair = [0, 0]
        for s in (0, 1):
            stack = lanes[t][s]
            down = 4 if escalated[s] else 2
            total = bonus[i][s]
            cover = -1
            for k, (c, u) in enumerate(stack):
                if u and c == "L4" and c not in inert and not (left_void and i == 0):
                    cover = k
            for k, (c, u) in enumerate(stack):
                total += 4 if k < cover else (CARDS[c].strength if u else down)
            pair[s] = total
        out.append((pair[0], pair[1]))
    return out


def control(strength: Sequence[tuple[int, int]], first: int) -> tuple[int, ...]:
    """The seat controlling each theatre: the stronger side, the 1st player on a tie."""
    return tuple(first if a == b else (0 if a > b else 1) for a, b in strength)


def withdraw_points(withdrawer_is_first: bool, cards_left: int) -> int:
    """Points the other player scores when a player withdraws holding `cards_left` cards."""
    for fewest, points in WITHDRAW_POINTS[0 if withdrawer_is_first else 1]:
        if cards_left >= fewest:
            return points
    return WITHDRAW_POINTS[0][-1][1]


class AlsState:
    """Where the match stands (mutable: the rules change it in place)."""

    __slots__ = (
        "abilities",
        "air_drop",
        "battle",
        "battle_over",
        "config",
        "current",
        "deck",
        "drawn",
        "explained",
        "first",
        "gone",
        "hands",
        "held",
        "hidden",
        "lanes",
        "n",
        "order",
        "over",
        "queue",
        "requests",
        "rules",
        "score",
        "seed",
        "to_move",
        "vp",
        "withdrawn",
    )

    def __init__(self, config: AlsConfig, seed: int, version: str = VERSION) -> None:
        self.config = config
        self.seed = seed
        self.rules, self.score = rules_of(config, version)
        """`code` or `cards`; `share` or `win` (see `AlsConfig`)."""
        self.order: list[str] = list(THEATRES)
        self.first = 0
        self.battle = -1
        self.vp = [0, 0]
        self.hands: list[list[str]] = [[], []]
        self.deck: list[str] = []
        self.current: dict[str, int] = {}
        """Under the `code` rules, each card's strength as GameBench's program last set it
        (`Card.current_strength`), which the end of a battle counts (`counted`)."""
        self.gone: list[str] = []
        """Cards destroyed this battle under the `code` rules (GameBench's program drops a
        destroyed card from the game instead of putting it under the deck)."""
        self.lanes: dict[str, list[Stack]] = {t: [[], []] for t in THEATRES}
        self.to_move = 0
        self.queue: list[Task] = []
        self.held: list[Task] = []
        """Under the `code` rules, abilities set off by a Disrupt's first flip, waiting for
        its second."""
        self.abilities = 0
        """Instant abilities set off during the current turn."""
        self.air_drop = [False, False]
        self.drawn: list[str | None] = [None, None]
        """The card Reinforce drew for each seat, until it is played."""
        self.hidden: str | None = None
        """The face-down card announced by the last `AlsHiddenCard`."""
        self.n = 0
        """Decisions answered so far (the number of the next one)."""
        self.battle_over = False
        self.withdrawn: int | None = None
        self.over = False
        self.explained: tuple[set[str], set[str]] = (set(), set())
        self.requests = [0, 0]

    def aerodrome(self, seat: int) -> bool:
        """Whether the seat has Aerodrome face up."""
        return any(c == "A4" and s == seat for c, s, _ in self.active())

    def active(self) -> list[tuple[str, int, str]]:
        """(card, owner, theatre) of every face-up card whose ability acts in this match."""
        inert = self.config.inert
        return [x for x in faceup_cards(self.lanes) if x[0] not in inert]

    def strengths(self) -> list[tuple[int, int]]:
        """Each theatre's strength of both seats now, by this match's rules."""
        return strengths(self.order, self.lanes, self.config.inert, self.rules == "code")

    def counted(self) -> list[tuple[int, int]]:
        """The strengths the end of a battle counts: under the `code` rules each card's
        strength as GameBench's program last set it (`current`, see `_refresh`) plus
        Support's +3, which its `get_theater_strengths` adds afresh; else `strengths`."""
        if self.rules != "code":
            return self.strengths()
        bonus = [[0, 0] for _ in self.order]
        for i, t in enumerate(self.order):
            for s in (0, 1):
                if any(c == "A1" and u and c not in self.config.inert for c, u in self.lanes[t][s]):
                    for j in (i - 1, i + 1):
                        if 0 <= j < len(self.order):
                            bonus[j][s] += 3
        out = []
        for i, t in enumerate(self.order):
            a, b = (
                bonus[i][s] + sum(self.current.get(c, 2) for c, _ in self.lanes[t][s])
                for s in (0, 1)
            )
            out.append((a, b))
        return out


def _refresh(st: AlsState) -> None:
    """GameBench's `apply_strength_effects` (game.py at 1b8b24e), which its program runs each
    time it builds an observation: with Escalation face up outside the leftmost theatre its
    owner's face-down cards become 4, and with no Escalation face up every face-down card
    becomes 2; with Cover Fire face up outside the leftmost theatre the cards under it become
    4, and with no Cover Fire face up every face-up card gets its printed strength. Face up in
    the leftmost theatre (index 0, which the program's `if theater_ind` skips) either card
    changes nothing, not even the reset."""
    inert = st.config.inert
    for code, reset_up in (("S2", False), ("L4", True)):
        found = [
            (i, s)
            for i, t in enumerate(st.order)
            for s in (0, 1)
            for c, u in st.lanes[t][s]
            if c == code and u and c not in inert
        ]
        if not found:
            for t in st.order:
                for side in st.lanes[t]:
                    for c, u in side:
                        if u == reset_up:
                            st.current[c] = CARDS[c].strength if u else 2
            continue
        i, s = found[0]
        if not i:
            continue
        if code == "S2":
            for t in st.order:
                for c, u in st.lanes[t][s]:
                    if not u:
                        st.current[c] = 4
        else:
            stack = st.lanes[st.order[i]][s]
            k = next(k for k, (c, _) in enumerate(stack) if c == code)
            for c, _ in stack[:k]:
                st.current[c] = 4


def play_actions(st: AlsState, seat: int, withdraw: bool) -> list[tuple[AlsMove, str]]:
    """(action, label) of every card the seat may play now, and `Withdraw` on a turn."""
    out: list[tuple[AlsMove, str]] = []
    aerodrome = st.aerodrome(seat)
    for card in sorted(st.hands[seat]):
        info = CARDS[card]
        for t in st.order:
            if t == info.theatre or st.air_drop[seat] or (aerodrome and info.strength <= 3):
                out.append((Deploy(card=card, theatre=t), f"Deploy {card_name(card)} to {t}"))
    for card in sorted(st.hands[seat]):
        for t in st.order:
            out.append(
                (Improvise(card=card, theatre=t), f"Improvise {card_name(card)} face down to {t}")
            )
    if withdraw:
        out.append((Withdraw(), "Withdraw"))
    return out


def _player(seat: int) -> str:
    return f"Player {seat + 1}"


def _flip_label(seat: int, owner: int, t: str, card: str, up: bool) -> str:
    whose = "your" if owner == seat else f"{_player(owner)}'s"
    if up:
        return f"Flip {whose} {card_name(card)} in {t} face down"
    if owner == seat:
        return f"Flip your face-down {card_name(card)} in {t} face up"
    return f"Flip {whose} face-down card in {t} face up"


def task_actions(st: AlsState, task: Task) -> list[tuple[AlsMove, str]]:
    """(action, label) of every choice an ability offers (none: it is ignored)."""
    seat = task.seat
    out: list[tuple[AlsMove, str]] = []
    if task.kind in ("maneuver", "ambush", "disrupt"):
        where = adjacent(st.order, task.theatre) if task.kind == "maneuver" else st.order
        mine = seat if task.side < 0 else task.side
        owners = (mine,) if task.kind == "disrupt" else (0, 1)
        for t in st.order:
            if t not in where:
                continue
            for o in owners:
                stack = st.lanes[t][o]
                if stack:
                    c, up = stack[-1]
                    out.append((Flip(owner=o, theatre=t), _flip_label(seat, o, t, c, up)))
    elif task.kind == "transport":
        for t in st.order:
            for i, (c, up) in enumerate(st.lanes[t][seat]):
                side = "" if up else "face-down "
                for to in st.order:
                    if to != t:
                        label = f"Move your {side}{card_name(c)} from {t} to {to}"
                        out.append((Move(theatre=t, index=i, to=to), label))
        if out:
            out.append((Skip(), "Do not move a card"))
    elif task.kind == "redeploy":
        for t in st.order:
            for i, (c, up) in enumerate(st.lanes[t][seat]):
                if not up:
                    label = f"Return your face-down {card_name(c)} in {t} to your hand"
                    out.append((Return(theatre=t, index=i), label))
        if out or st.rules == "code":
            # GameBench's program asks even with nothing to return (one option).
            out.append((Skip(), "Do not return a card"))
    elif task.kind == "reinforce":
        drawn = st.drawn[seat]
        if drawn is not None:
            for t in adjacent(st.order, task.theatre):
                out.append((Reinforce(theatre=t), f"Reinforce {t} with {card_name(drawn)}"))
    elif task.kind == "play":
        out = play_actions(st, seat, withdraw=False)
    return out


def _trigger(st: AlsState, owner: int, card: str, theatre: str, hold: bool = False) -> None:
    """A card of `owner` just turned face up in `theatre`: set off its instant ability. By
    the `cards` rules it waits behind the abilities already set off. By the `code` rules it
    acts at once, before them (GameBench's program resolves it inside the ability that set it
    off), except that the abilities set off by a Disrupt's flips (`hold`) wait until both
    flips are made, then act in order (its `effect_stack`)."""
    if card in st.config.inert:
        return
    name = CARDS[card].name
    if name == "Air Drop":
        st.air_drop[owner] = True
        return
    kind = ABILITY_TASKS.get(name)
    if kind is None or st.abilities >= MAX_ABILITIES:
        return
    st.abilities += 1
    tasks = [Task(kind, owner, card, theatre)]
    if kind == "disrupt":
        if st.rules == "code":
            tasks.append(Task(kind, owner, card, theatre, side=1 - owner))
        else:
            tasks.append(Task(kind, 1 - owner, card, theatre))
    if st.rules != "code":
        st.queue.extend(tasks)
    elif hold:
        st.held.extend(tasks)
    else:
        st.queue[0:0] = tasks


def _release(st: AlsState) -> None:
    """Once a Disrupt's flips are both made (or the second is not possible), the abilities
    they set off come first, in the order they were set off."""
    if st.held and not (st.queue and st.queue[0].kind == "disrupt"):
        st.queue[0:0] = st.held
        st.held = []


def _settle(st: AlsState) -> None:
    """After an answered decision: drop abilities that offer no choice (a Reinforce with an
    empty deck draws nothing), draw for a Reinforce that comes up, and pass the turn once no
    ability is waiting."""
    code = st.rules == "code"
    while st.queue:
        task = st.queue[0]
        if code:
            _refresh(st)  # GameBench builds an observation as each ability starts
        if task.kind == "reinforce" and st.drawn[task.seat] is None and st.deck:
            st.drawn[task.seat] = st.deck.pop(0)
        if task_actions(st, task):
            return
        st.queue.pop(0)
        _release(st)
    st.abilities = 0
    mover, other = st.to_move, 1 - st.to_move
    if st.hands[other]:
        st.to_move = other
    elif not st.hands[mover]:
        st.battle_over = True
    if code and not st.battle_over:
        _refresh(st)  # and as each turn starts


def destroyed_by(st: AlsState, theatre: str, faceup: bool) -> str | None:
    """Which ongoing ability destroys a card played now to `theatre` (None: it stays)."""
    up = st.active()
    if not faceup and any(c == "A5" for c, _, _ in up):
        return "Containment"
    occupied = sum(len(side) for side in st.lanes[theatre])
    for c, _, t in up:
        if c == "S5" and theatre in adjacent(st.order, t) and occupied >= 3:
            return "Blockade"
    return None


class AlsRules:
    """Air, Land and Sea as a decider (see the module docstring); `version` picks the rules
    games are recorded by (the current ones, or 1.0.0 to replay its games)."""

    versions = VERSIONS

    def __init__(self, version: str = VERSION) -> None:
        if version not in VERSIONS:
            raise ValueError(
                f"no Air, Land and Sea rules {version!r} (known: {', '.join(VERSIONS)})"
            )
        self.version = version

    def for_version(self, version: str) -> AlsRules | None:
        """The rules that recorded games stamped with `version` (None: no such rules)."""
        if version == self.version:
            return self
        return AlsRules(version) if version in VERSIONS else None

    @staticmethod
    def max_decisions(config: AlsConfig) -> int:
        """Each battle has at most 12 turns (every turn plays one card from a hand, or
        withdraws); each turn sets off at most `MAX_ABILITIES` abilities of at most two
        decisions each; and each heading is explained once per seat."""
        per_turn = 1 + 2 * MAX_ABILITIES
        return config.max_battles * 2 * HAND * per_turn + 2 * len(HEADINGS)

    def start(
        self, config: AlsConfig, seed: int, seats: Sequence[SeatSpec]
    ) -> tuple[AlsState, list[Any]]:
        """Announce the match, draw the theatres' order and the 1st player, deal."""
        st = AlsState(config.validate(), seed, self.version)
        events: list[Any] = [
            AlsStarted(seed=seed, config=config, seats=tuple(seats), engine_version=self.version)
        ]
        rng = random.Random(f"{seed}:{NAME}:setup")
        order = list(THEATRES)
        rng.shuffle(order)
        self._battle(st, tuple(order), rng.randrange(2), events)
        return st, events

    def _battle(self, st: AlsState, order: tuple[str, ...], first: int, events: list[Any]) -> None:
        battle = st.battle + 1
        cards = sorted(CARDS)
        random.Random(f"{st.seed}:{NAME}:deal:{battle}").shuffle(cards)
        fresh: list[Any] = [
            AlsBattleBegan(battle=battle, order=order, first=first, vp=tuple(st.vp)),
            AlsShuffled(battle=battle, cards=tuple(cards)),
            *(
                AlsDealt(battle=battle, seat=s, hand=tuple(cards[s * HAND : (s + 1) * HAND]))
                for s in (0, 1)
            ),
        ]
        for e in fresh:
            self.evolve(st, e)
        events.extend(fresh)

    def pending(self, st: AlsState) -> AlsDecision | None:
        """The seat asked now (an ability's choice first, else the turn); None once over."""
        if st.over or st.battle_over:
            return None
        if st.queue:
            task = st.queue[0]
            pairs = task_actions(st, task)
            seat, kind, card = task.seat, task.kind, task.card
        else:
            seat, kind, card = st.to_move, "turn", None
            pairs = play_actions(st, seat, withdraw=True)
        return AlsDecision(
            seats=(seat,),
            kind=kind,
            n=st.n,
            battle=st.battle,
            legal=tuple(a for a, _ in pairs),
            labels=tuple(label for _, label in pairs),
            card=card,
            seed=st.seed,
        )

    def step(
        self, st: AlsState, d: AlsDecision, actions: Sequence[Any]
    ) -> tuple[AlsState, list[Any]]:
        """Explain a heading, or play the action (an unusable one replaced by the fallback)."""
        seat = d.seats[0]
        played, events = screened(
            actions[0],
            d.legal,
            headings=HEADINGS,
            explained=st.explained[seat],
            requests=st.requests[seat],
            granted=lambda h: AlsRuleExplained(seat=seat, heading=h),
            refused=lambda raw, why, asked: AlsRejected(
                n=st.n, seat=seat, raw=raw, reason=why, explain=asked
            ),
            fold=lambda e: self.evolve(st, e),
            draw=lambda: fallback(st.seed, NAME, st.n, d.legal),
        )
        if played is None:
            return st, events
        before = list(st.drawn)
        for e in self._events(st, d, seat, played):
            self.evolve(st, e)
            events.append(e)
        for s in (0, 1):
            card = st.drawn[s]
            if card is not None and before[s] != card:
                e = AlsDrew(n=st.n, seat=s, card=card)
                self.evolve(st, e)
                events.append(e)
        if st.battle_over:
            self._end_battle(st, events)
        return st, events

    def _events(self, st: AlsState, d: AlsDecision, seat: int, action: AlsMove) -> list[Any]:
        n = st.n
        if isinstance(action, Deploy | Improvise):
            up = isinstance(action, Deploy)
            via: Literal["turn", "redeploy"] = "turn" if d.kind == "turn" else "redeploy"
            played = AlsPlayed(
                n=n,
                seat=seat,
                card=action.card if up else None,
                theatre=action.theatre,
                faceup=up,
                via=via,
                destroyed=destroyed_by(st, action.theatre, up),
            )
            if up:
                return [played]
            return [AlsHiddenCard(n=n, seat=seat, card=action.card), played]
        if isinstance(action, Withdraw):
            return [AlsWithdrew(n=n, seat=seat, cards_left=len(st.hands[seat]))]
        if isinstance(action, Flip):
            card, up = st.lanes[action.theatre][action.owner][-1]
            return [
                AlsFlipped(
                    n=n,
                    seat=seat,
                    owner=action.owner,
                    theatre=action.theatre,
                    card=card,
                    faceup=not up,
                    ability=CARDS[d.card or ""].name,
                )
            ]
        if isinstance(action, Move):
            card, up = st.lanes[action.theatre][seat][action.index]
            return [
                AlsMoved(
                    n=n,
                    seat=seat,
                    theatre=action.theatre,
                    index=action.index,
                    to=action.to,
                    card=card if up else None,
                )
            ]
        if isinstance(action, Return):
            return [AlsReturned(n=n, seat=seat, theatre=action.theatre, index=action.index)]
        if isinstance(action, Reinforce):
            drawn = st.drawn[seat]
            assert drawn is not None
            return [
                AlsHiddenCard(n=n, seat=seat, card=drawn),
                AlsPlayed(
                    n=n,
                    seat=seat,
                    card=None,
                    theatre=action.theatre,
                    faceup=False,
                    via="reinforce",
                    # GameBench's program plays Reinforce's card without its checks.
                    destroyed=None
                    if st.rules == "code"
                    else destroyed_by(st, action.theatre, False),
                ),
            ]
        return [AlsSkipped(n=n, seat=seat, ability=CARDS[d.card or ""].name)]

    def _end_battle(self, st: AlsState, events: list[Any]) -> None:
        strength = st.counted()
        held = control(strength, st.first)
        if st.withdrawn is not None:
            loser = st.withdrawn
            winner, reason = 1 - loser, "withdrew"
            gained = withdraw_points(loser == st.first, len(st.hands[loser]))
        else:
            winner = 0 if sum(1 for s in held if s == 0) >= 2 else 1
            reason, gained = "theatres", BATTLE_WIN
        vp = list(st.vp)
        vp[winner] += gained
        ended = AlsBattleEnded(
            battle=st.battle,
            reason=reason,  # type: ignore[arg-type]
            winner=winner,
            gained=gained,
            strengths=tuple(strength),
            control=held,
            vp=tuple(vp),
        )
        self.evolve(st, ended)
        events.append(ended)
        if max(vp) >= st.config.target or st.battle + 1 >= st.config.max_battles:
            top = max(vp)
            leaders = [s for s in (0, 1) if vp[s] == top]
            win = leaders[0] if len(leaders) == 1 else None
            if st.score == "share":
                scores = share_scores(vp)
            else:
                scores = winner_scores(2, win) if win is not None else (0.5, 0.5)
            end = AlsEnded(
                reason="target" if top >= st.config.target else "battle_cap",
                winner=win,
                battles=st.battle + 1,
                vp=tuple(vp),
                scores=scores,
                ranks=ranks(scores),
            )
            self.evolve(st, end)
            events.append(end)
            return
        if st.rules == "code":
            # GameBench's `rotate_theaters` moves the leftmost theatre to the far right.
            order = (*st.order[1:], st.order[0])
        else:
            order = (st.order[-1], *st.order[:-1])
        self._battle(st, order, 1 - st.first, events)

    def evolve(self, st: AlsState, event: Any) -> AlsState:
        """Fold one event into the state (in place; other events leave it unchanged)."""
        if isinstance(event, AlsBattleBegan):
            st.battle = event.battle
            st.order = list(event.order)
            st.first = event.first
            st.to_move = event.first
            st.lanes = {t: [[], []] for t in THEATRES}
            st.gone = []
            st.current = {}
            st.queue = []
            st.held = []
            st.abilities = 0
            st.air_drop = [False, False]
            st.drawn = [None, None]
            st.battle_over = False
            st.withdrawn = None
        elif isinstance(event, AlsShuffled):
            st.deck = list(event.cards[2 * HAND :])
        elif isinstance(event, AlsDealt):
            st.hands[event.seat] = list(event.hand)
        elif isinstance(event, AlsHiddenCard):
            st.hidden = event.card
        elif isinstance(event, AlsPlayed):
            self._played(st, event)
        elif isinstance(event, AlsFlipped):
            task = st.queue.pop(0)
            stack = st.lanes[event.theatre][event.owner]
            stack[-1] = (stack[-1][0], event.faceup)
            st.current[event.card] = CARDS[event.card].strength if event.faceup else 2
            if event.faceup:
                hold = st.rules == "code" and task.kind == "disrupt"
                _trigger(st, event.owner, event.card, event.theatre, hold)
            _release(st)
            self._answered(st)
        elif isinstance(event, AlsMoved):
            st.queue.pop(0)
            moved = st.lanes[event.theatre][event.seat].pop(event.index)
            st.lanes[event.to][event.seat].append(moved)
            self._answered(st)
        elif isinstance(event, AlsReturned):
            st.queue.pop(0)
            card, _ = st.lanes[event.theatre][event.seat].pop(event.index)
            st.hands[event.seat].append(card)
            st.current.pop(card, None)
            st.queue.insert(0, Task("play", event.seat, "S4", event.theatre))
            self._answered(st)
        elif isinstance(event, AlsSkipped):
            st.queue.pop(0)
            self._answered(st)
        elif isinstance(event, AlsWithdrew):
            st.withdrawn = event.seat
            st.battle_over = True
            st.n += 1
        elif isinstance(event, AlsRuleExplained):
            st.explained[event.seat].add(event.heading)
            st.requests[event.seat] += 1
        elif isinstance(event, AlsRejected):
            st.requests[event.seat] += event.explain
        elif isinstance(event, AlsBattleEnded):
            st.vp = list(event.vp)
        elif isinstance(event, AlsEnded):
            st.over = True
        return st

    @staticmethod
    def _answered(st: AlsState) -> None:
        st.n += 1
        _settle(st)

    def _played(self, st: AlsState, e: AlsPlayed) -> None:
        card = e.card if e.card is not None else st.hidden
        assert card is not None
        st.hidden = None
        if e.via == "reinforce":
            st.drawn[e.seat] = None
        else:
            st.hands[e.seat].remove(card)
            st.air_drop[e.seat] = False
        if e.via != "turn":
            st.queue.pop(0)
        if e.destroyed is not None:
            if st.rules == "cards":
                st.deck.append(card)
            else:
                st.gone.append(card)
        else:
            st.lanes[e.theatre][e.seat].append((card, e.faceup))
            st.current[card] = CARDS[card].strength if e.faceup else 2
            if e.faceup:
                _trigger(st, e.seat, card, e.theatre)
        self._answered(st)

    def fold(self, events: Sequence[Any]) -> AlsState:
        """The state after a log (or a prefix of one)."""
        start = events[0]
        st = AlsState(start.config, start.seed, start.engine_version)
        for e in events[1:]:
            self.evolve(st, e)
        return st

    def turn_of(self, event: Any, turn: int) -> int:
        """The store's turn is the number of the decision an event answers."""
        n = getattr(event, "n", None)
        return int(n) if isinstance(n, int) else turn

    def active(self, st: Any) -> int | None:
        """Model seats keep no scratchpad here."""
        return None

    def recorded_action(
        self, log: Sequence[Any], pos: int, seat: int, decision: AlsDecision
    ) -> Any:
        """The action the seat answered with at this decision, as the rules received it."""
        hidden: str | None = None
        for e in log[pos:]:
            if isinstance(e, AlsRuleExplained) and e.seat == seat:
                return Explain(heading=e.heading)
            if getattr(e, "n", None) != decision.n:
                continue
            if isinstance(e, AlsRejected):
                try:
                    return ACTION_DECODER.decode(e.raw)
                except msgspec.DecodeError:
                    return e.raw
            if isinstance(e, AlsHiddenCard):
                hidden = e.card
            elif isinstance(e, AlsPlayed):
                if e.via == "reinforce":
                    return Reinforce(theatre=e.theatre)
                if e.faceup:
                    return Deploy(card=e.card or "", theatre=e.theatre)
                return Improvise(card=hidden or "", theatre=e.theatre)
            elif isinstance(e, AlsFlipped):
                return Flip(owner=e.owner, theatre=e.theatre)
            elif isinstance(e, AlsMoved):
                return Move(theatre=e.theatre, index=e.index, to=e.to)
            elif isinstance(e, AlsReturned):
                return Return(theatre=e.theatre, index=e.index)
            elif isinstance(e, AlsSkipped):
                return Skip()
            elif isinstance(e, AlsWithdrew):
                return Withdraw()
        raise LookupError(f"no action of seat {seat} at decision {decision.n}")


RULES = AlsRules()
"""The rules of Air, Land and Sea."""


def state_data(st: AlsState) -> dict[str, Any]:
    """The whole state as plain data (for `cattle replay`): every hand and card included."""
    return {
        "battle": st.battle,
        "order": list(st.order),
        "first": st.first,
        "vp": list(st.vp),
        "to_move": st.to_move,
        "hands": [sorted(h) for h in st.hands],
        "deck": list(st.deck),
        "destroyed": list(st.gone),
        "theatres": {
            t: [[{"card": c, "faceup": up} for c, up in side] for side in st.lanes[t]]
            for t in st.order
        },
        "waiting": [{"ability": CARDS[t.card].name, "seat": t.seat} for t in st.queue],
        "explained": [sorted(s) for s in st.explained],
        "over": st.over,
    }
