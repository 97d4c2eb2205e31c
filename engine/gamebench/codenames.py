"""The rules of GameBench's Codenames as a decider: `start`, `pending`, `step`, `evolve`.

Red (seats 0 and 1) opens. A team's turn: its spymaster gives a clue (one word and a number
N), then its operative guesses one card at a time: its own card lets it go on (up to N + 1
guesses; N = 0 means no limit), any other card ends the turn, the assassin ends the game
(the guessing team loses). A team whose last card is revealed wins, whoever revealed it.
After `max_turns` clues the game stops without a winner.

Bad input never raises. An unusable clue (not one plain word, a form of a word on the board,
a number outside 0..max_clue) is refused and an empty clue for 1 stands in; an unusable guess
(a word not hidden on the board) is refused and ends the turn; an action of the wrong kind is
refused and the decision's fallback plays (the empty clue, or a pass). Every refusal is an
event seen by its seat only. `Explain(heading)` shows a seat the rules under a heading and asks
again (docs/gamebench.md).
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from functools import reduce
from typing import Any, assert_never

import msgspec
from msgspec.structs import replace

from engine.gamebench.codenames_words import WORDS
from engine.gamebench.common import (
    Explain,
    IllegalAction,
    count_request,
    explain,
    raw_text,
)
from events import agent as ae
from events.config import SeatSpec
from events.gamebench import codenames as ce
from events.gamebench.codenames import (
    ASSASSIN,
    BLUE,
    HEADINGS,
    NEUTRAL,
    RED,
    TEAMS,
    CodenamesConfig,
    operative_of,
    spymaster_of,
)
from events.gamebench.common import ranks, seat_scores, share_scores

VERSION = "1.0.0"
"""Stored with every game; bump when a rule change alters logs."""
WIN_BONUS = 3
"""Points a winning team adds to its revealed cards (GameBench)."""


# --------------------------------------------------------------------------- actions


class GiveClue(msgspec.Struct, frozen=True, kw_only=True, tag="clue"):
    """A spymaster's clue: one word and how many cards it points to (0: no limit)."""

    seat: int
    word: str
    number: int


class Guess(msgspec.Struct, frozen=True, kw_only=True, tag="guess"):
    """An operative's guess: a hidden word on the board."""

    seat: int
    word: str


class Pass(msgspec.Struct, frozen=True, kw_only=True, tag="pass"):
    """An operative ends its team's turn."""

    seat: int


Action = GiveClue | Guess | Pass | Explain
"""Every Codenames action."""

_DEC: msgspec.json.Decoder[Action] = msgspec.json.Decoder(Action)


action_json = raw_text
"""An action as recorded in a refusal (deterministic JSON)."""


def action_from_json(text: str) -> Action:
    """The action `action_json` wrote."""
    return _DEC.decode(text)


# --------------------------------------------------------------------------- decisions


class ClueDecision(msgspec.Struct, frozen=True, kw_only=True):
    """The spymaster of `team` gives a clue."""

    seats: tuple[int, ...]
    team: str
    turn: int

    @property
    def kind(self) -> str:
        """The decision's name."""
        return "clue"


class GuessDecision(msgspec.Struct, frozen=True, kw_only=True):
    """The operative of `team` guesses a card or passes."""

    seats: tuple[int, ...]
    team: str
    turn: int
    clue: str
    number: int
    guesses: int
    """Guesses made this turn."""
    options: tuple[str, ...] = ()
    """The words still hidden on the board."""

    @property
    def kind(self) -> str:
        """The decision's name."""
        return "guess"

    @property
    def left(self) -> int | None:
        """Guesses still allowed this turn (None: no limit)."""
        return None if self.number == 0 else self.number + 1 - self.guesses


Decision = ClueDecision | GuessDecision


# --------------------------------------------------------------------------- state


class CnState(msgspec.Struct, frozen=True, kw_only=True):
    """Everything the rules need, folded from the events (the key included)."""

    config: CodenamesConfig
    seed: int = 0
    words: tuple[str, ...] = ()
    key: tuple[str, ...] = ()
    revealed: tuple[bool, ...] = ()
    turn: int = 0
    """The clue in progress, 1-based (both teams' clues counted)."""
    team: str = RED
    phase: str = "new"
    """new, clue, guess, over."""
    clue: str = ""
    number: int = 0
    guesses: int = 0
    explained: tuple[tuple[str, ...], ...] = ((), (), (), ())
    """Headings explained to each seat."""
    requests: tuple[int, ...] = (0, 0, 0, 0)
    """Explain requests each seat made (granted or refused)."""

    def left(self, team: str) -> int:
        """Hidden cards of a team."""
        return sum(1 for k, r in zip(self.key, self.revealed, strict=True) if k == team and not r)

    def found(self, team: str) -> int:
        """Revealed cards of a team."""
        return sum(1 for k, r in zip(self.key, self.revealed, strict=True) if k == team and r)


def deal(config: CodenamesConfig, seed: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(words in grid order, key) drawn from the seed alone."""
    rng = random.Random(f"{seed}:gamebench:codenames:deal")
    words = tuple(rng.sample(WORDS, config.cards))
    key = (
        [RED] * config.red
        + [BLUE] * config.blue
        + [NEUTRAL] * config.neutral
        + [ASSASSIN] * config.assassin
    )
    rng.shuffle(key)
    return words, tuple(key)


_WORD = re.compile(r"[a-z]+(?:-[a-z]+)?")


def clue_problem(word: Any, number: Any, state: CnState) -> str | None:
    """Why a clue cannot stand, or None. One plain word (letters, one inner hyphen at most),
    not a word hidden on the board nor part of one nor containing one; a whole number in
    0..max_clue."""
    if not isinstance(word, str) or not _WORD.fullmatch(word.strip().lower()):
        return "a clue is exactly one word of letters"
    w = word.strip().lower()
    if len(w) > 30:
        return "a clue word has at most 30 letters"
    for board, shown in zip(state.words, state.revealed, strict=True):
        if not shown and (w in board or board in w):
            return f"the clue {w!r} is a form of the board word {board!r}"
    if isinstance(number, bool) or not isinstance(number, int):
        return "the number of a clue is a whole number"
    if not 0 <= number <= state.config.max_clue:
        return f"the number of a clue is 0..{state.config.max_clue}"
    return None


class CodenamesRules:
    """GameBench's Codenames (the `events.catalog.Rules` protocol)."""

    version = VERSION

    @staticmethod
    def max_decisions(config: CodenamesConfig) -> int:
        """Every clue asks one clue and at most one guess per card plus a pass; every seat may
        ask for each heading once."""
        return config.max_turns * (config.cards + 2) + config.players * len(HEADINGS)

    def start(
        self, config: CodenamesConfig, seed: int, seats: Sequence[SeatSpec]
    ) -> tuple[CnState, list[Any]]:
        """Deal the words and the key; the red spymaster is asked first."""
        config.validate()
        if len(seats) != 4:
            raise IllegalAction(f"Codenames seats 4 players, got {len(seats)}")
        words, key = deal(config, seed)
        events: list[Any] = [
            ce.CnStarted(seed=seed, config=config, seats=tuple(seats), engine_version=VERSION),
            ce.CnBoardDealt(words=words),
            ce.CnKeyDealt(key=key),  # type: ignore[arg-type]
        ]
        return reduce(self.evolve, events, CnState(config=config)), events

    def pending(self, state: CnState) -> Decision | None:
        """The spymaster's clue or the operative's guess; None once over."""
        if state.phase == "clue":
            return ClueDecision(seats=(spymaster_of(state.team),), team=state.team, turn=state.turn)
        if state.phase == "guess":
            return GuessDecision(
                seats=(operative_of(state.team),),
                team=state.team,
                turn=state.turn,
                clue=state.clue,
                number=state.number,
                guesses=state.guesses,
                options=tuple(w for w, r in zip(state.words, state.revealed, strict=True) if not r),
            )
        return None

    def active(self, state: CnState) -> int | None:
        """No seat keeps a turn of its own across decisions."""
        return None

    def turn_of(self, event: Any, turn: int) -> int:
        """The clue an event belongs to."""
        t = getattr(event, "turn", None)
        return t if isinstance(t, int) else turn

    # ---- actions ---------------------------------------------------------------------------

    def step(
        self, state: CnState, decision: Any, actions: Sequence[Any]
    ) -> tuple[CnState, list[Any]]:
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
                return self._apply(
                    state, [ce.CnRuleExplained(seat=seat, heading=heading, turn=state.turn)]
                )
            events.append(
                ce.CnRequestRefused(
                    seat=seat, turn=state.turn, raw=action_json(a), reason=why or "", explain=True
                )
            )
            if again:
                return self._apply(state, events)
            a = None  # no requests left: the decision's fallback plays
        if isinstance(d, ClueDecision):
            events.extend(self._clue(state, seat, a))
        else:
            events.extend(self._guess(state, seat, a))
        return self._apply(state, events)

    def _apply(self, state: CnState, events: list[Any]) -> tuple[CnState, list[Any]]:
        for e in events:
            state = self.evolve(state, e)
        end = self._end(state)
        if end is not None:
            events.append(end)
            state = self.evolve(state, end)
        return state, events

    def _clue(self, s: CnState, seat: int, a: Any) -> list[Any]:
        team = s.team
        if isinstance(a, GiveClue):
            why = clue_problem(a.word, a.number, s)
            if why is None:
                return [
                    ce.CnClueGiven(
                        seat=seat,
                        team=team,
                        turn=s.turn,
                        word=a.word.strip().lower(),
                        number=a.number,
                    )
                ]
        else:
            why = "a clue was asked" if a is not None else None
        out: list[Any] = []
        if why is not None:
            out.append(ce.CnRequestRefused(seat=seat, turn=s.turn, raw=action_json(a), reason=why))
        out.append(
            ce.CnClueGiven(seat=seat, team=team, turn=s.turn, word="", number=1, refused=True)
        )
        return out

    def _guess(self, s: CnState, seat: int, a: Any) -> list[Any]:
        team = s.team
        if isinstance(a, Pass):
            return [ce.CnTurnEnded(team=team, turn=s.turn, reason="pass", guesses=s.guesses)]
        index = None
        if isinstance(a, Guess) and isinstance(a.word, str):
            w = a.word.strip().lower()
            index = next(
                (
                    i
                    for i, (x, r) in enumerate(zip(s.words, s.revealed, strict=True))
                    if x == w and not r
                ),
                None,
            )
        if index is None:
            out: list[Any] = []
            if a is not None:
                why = (
                    "a guess or a pass was asked"
                    if not isinstance(a, Guess)
                    else f"{str(a.word)[:40]!r} is not a hidden word on the board"
                )
                out.append(
                    ce.CnRequestRefused(seat=seat, turn=s.turn, raw=action_json(a), reason=why)
                )
            out.append(ce.CnTurnEnded(team=team, turn=s.turn, reason="refused", guesses=s.guesses))
            return out
        card = s.key[index]
        out = [
            ce.CnCardRevealed(
                seat=seat,
                team=team,
                turn=s.turn,
                index=index,
                word=s.words[index],
                card=card,  # type: ignore[arg-type]
            )
        ]
        if card == ASSASSIN:
            return out
        revealed = (*s.revealed[:index], True, *s.revealed[index + 1 :])
        after = replace(s, revealed=revealed)
        if after.left(RED) == 0 or after.left(BLUE) == 0:
            return out
        guesses = s.guesses + 1
        if card != team:
            out.append(ce.CnTurnEnded(team=team, turn=s.turn, reason="miss", guesses=guesses))
        elif s.number > 0 and guesses >= s.number + 1:
            out.append(ce.CnTurnEnded(team=team, turn=s.turn, reason="limit", guesses=guesses))
        return out

    def _end(self, s: CnState) -> ce.CnEnded | None:
        """The end of the game, when the state just reached it."""
        if s.phase == "over":
            return None
        assassin = next(
            (
                i
                for i, (k, r) in enumerate(zip(s.key, s.revealed, strict=True))
                if k == ASSASSIN and r
            ),
            None,
        )
        points = [s.found(RED), s.found(BLUE)]
        winner: str | None = None
        if assassin is not None:
            winner = BLUE if s.team == RED else RED
            points[TEAMS.index(s.team)] = 0
            reason = "assassin"
        elif s.left(RED) == 0 or s.left(BLUE) == 0:
            winner = RED if s.left(RED) == 0 else BLUE
            reason = "all_found"
        elif s.phase == "clue" and s.turn > s.config.max_turns:
            reason = "turn_limit"
        else:
            return None
        if winner is not None:
            points[TEAMS.index(winner)] += WIN_BONUS
        scores = seat_scores(share_scores(points), (0, 0, 1, 1))
        return ce.CnEnded(
            reason=reason,  # type: ignore[arg-type]
            winner=winner,
            points=(points[0], points[1]),
            scores=scores,
            ranks=ranks(scores),
        )

    # ---- the fold --------------------------------------------------------------------------

    def evolve(self, s: CnState, e: ce.CnEvent | ae.AgentEvent) -> CnState:
        """Apply one event to the state (pure; trusts the rules made it)."""
        match e:
            case ce.CnCardRevealed():
                i = e.index
                revealed = (*s.revealed[:i], True, *s.revealed[i + 1 :])
                guesses = s.guesses + 1
                return replace(s, revealed=revealed, guesses=guesses)
            case ce.CnTurnEnded():
                team = BLUE if s.team == RED else RED
                return replace(
                    s, team=team, turn=s.turn + 1, phase="clue", clue="", number=0, guesses=0
                )
            case ce.CnClueGiven():
                return replace(s, phase="guess", clue=e.word, number=e.number, guesses=0)
            case ce.CnRuleExplained():
                explained, requests = count_request(s.explained, s.requests, e.seat, e.heading)
                return replace(s, explained=explained, requests=requests)
            case ce.CnRequestRefused():
                if e.explain:
                    _, requests = count_request(s.explained, s.requests, e.seat, None)
                    return replace(s, requests=requests)
                return s
            case ce.CnStarted():
                return replace(s, config=e.config, seed=e.seed)
            case ce.CnBoardDealt():
                return replace(s, words=e.words, revealed=(False,) * len(e.words))
            case ce.CnKeyDealt():
                return replace(s, key=e.key, turn=1, team=RED, phase="clue")
            case ce.CnEnded():
                return replace(s, phase="over")
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

    def fold(self, events: Sequence[Any]) -> CnState:
        """The state after a log or a prefix of one."""
        if not events or not isinstance(events[0], ce.CnStarted):
            raise ValueError("a Codenames log starts with its game_started event")
        return reduce(self.evolve, events, CnState(config=events[0].config))

    def recorded_action(self, log: Sequence[Any], pos: int, seat: int, decision: Any) -> Any:
        """The action `seat` took for `decision`, read from `log[pos:]`."""
        for i in range(pos, len(log)):
            e = log[i]
            match e:
                case ce.CnRequestRefused() if e.seat == seat:
                    try:
                        return action_from_json(e.raw)
                    except msgspec.DecodeError:
                        raise LookupError(
                            f"seat {seat} submitted no action: {e.raw[:60]}"
                        ) from None
                case ce.CnRuleExplained() if e.seat == seat:
                    return Explain(heading=e.heading)
                case ce.CnClueGiven() if e.seat == seat:
                    return GiveClue(seat=seat, word=e.word, number=e.number)
                case ce.CnCardRevealed() if e.seat == seat:
                    return Guess(seat=seat, word=e.word)
                case ce.CnTurnEnded() if e.reason == "pass":
                    return Pass(seat=seat)
        raise LookupError(f"no action of seat {seat} for {decision!r} after event {pos}")


RULES = CodenamesRules()
"""The rules object the game's definition names."""
