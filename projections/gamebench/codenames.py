"""What a Codenames seat sees, how an event reads, and the prompts of a model seat.

`CodenamesView` folds exactly the events a seat may see: the words, the key (spymasters
only), every clue, every revealed card and the end of every turn, and its own refusals and
explained rules. An operative's view and prompt are built from public events and its own
only, so changing the hidden part of the key leaves them byte-identical (tests/gamebench).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from engine.gamebench.codenames import (
    ClueDecision,
    GiveClue,
    Guess,
    GuessDecision,
    Pass,
)
from events import agent as ae
from events.gamebench import codenames as ce
from events.gamebench.codenames import TEAMS, CodenamesConfig, team_of
from projections.gamebench import common
from projections.gamebench.common import (
    PrompterBase,
    RuleBook,
    ViewBase,
    answer_schema,
    instruction,
    read_line,
    rules_lines,
)

ROLE = ("spymaster", "operative")


def role_of(seat: int) -> str:
    """A seat's role."""
    return ROLE[seat % 2]


class CnObservation(msgspec.Struct, frozen=True, kw_only=True):
    """What one Codenames seat knows at a point of the game."""

    seat: int
    team: str
    role: str
    words: tuple[str, ...]
    key: tuple[str, ...] | None
    """Every card's type: spymasters only."""
    shown: tuple[str | None, ...]
    """The type of each revealed card (None while hidden)."""
    clues: tuple[tuple[int, str, str, int], ...]
    """(turn, team, word, number) of every clue."""
    explained: tuple[str, ...]
    ended: bool
    pending: Any = None


class CodenamesView(ViewBase):
    """Incremental fold of the events visible to one Codenames seat."""

    def __init__(self, seat: int) -> None:
        super().__init__(seat)
        self.config: CodenamesConfig | None = None
        self.words: tuple[str, ...] = ()
        self.key: tuple[str, ...] | None = None
        self.shown: list[str | None] = []
        self.clues: list[ce.CnClueGiven] = []
        self.reveals: list[ce.CnCardRevealed] = []
        self.turn_ends: list[ce.CnTurnEnded] = []
        self.refusals: list[ce.CnRequestRefused] = []
        self.end: ce.CnEnded | None = None

    @property
    def team(self) -> str:
        """This seat's team."""
        return team_of(self.seat)

    def fold(self, e: Any) -> None:
        """Take one visible event into the view."""
        match e:
            case ce.CnCardRevealed():
                self.shown[e.index] = e.card
                self.reveals.append(e)
            case ce.CnClueGiven():
                self.clues.append(e)
            case ce.CnTurnEnded():
                self.turn_ends.append(e)
            case ce.CnRequestRefused():
                self.refusals.append(e)
            case ce.CnStarted():
                self.config = e.config
            case ce.CnBoardDealt():
                self.words = e.words
                self.shown = [None] * len(e.words)
            case ce.CnKeyDealt():
                self.key = tuple(e.key)
            case ce.CnEnded():
                self.ended = True
                self.end = e

    def snapshot(self, pending: Any = None) -> CnObservation:
        """The seat's knowledge as a value, with the decision asked of it (if any)."""
        asked = pending if pending is not None and self.seat in pending.seats else None
        return CnObservation(
            seat=self.seat,
            team=self.team,
            role=role_of(self.seat),
            words=self.words,
            key=self.key,
            shown=tuple(self.shown),
            clues=tuple((c.turn, c.team, c.word, c.number) for c in self.clues),
            explained=tuple(self.explained),
            ended=self.ended,
            pending=asked,
        )


# --------------------------------------------------------------------------- timeline


def _who(seat: int, viewer: int | None) -> str:
    you = " (you)" if viewer == seat else ""
    return f"Player {seat}{you}, {team_of(seat)} {role_of(seat)}"


def describe(e: Any, viewer: int | None = None) -> str | None:
    """One line of text for a Codenames event, worded for `viewer` (None: omniscient)."""
    match e:
        case ce.CnClueGiven():
            if e.refused:
                return f"Clue {e.turn}: {_who(e.seat, viewer)}: no usable clue, 1 guess"
            n = "unlimited" if e.number == 0 else str(e.number)
            return f"Clue {e.turn}: {_who(e.seat, viewer)}: {e.word!r} for {n}"
        case ce.CnCardRevealed():
            return f"  {_who(e.seat, viewer)} guesses {e.word!r}: {e.card}"
        case ce.CnTurnEnded():
            return f"  {e.team} turn over ({e.reason}, {e.guesses} guess(es))"
        case ce.CnRuleExplained():
            return f"  {_who(e.seat, viewer)} reads the rules on {e.heading!r}"
        case ce.CnRequestRefused():
            return f"! {_who(e.seat, viewer)}: refused ({e.reason})"
        case ce.CnBoardDealt():
            return "Board: " + ", ".join(e.words)
        case ce.CnKeyDealt():
            return "Key: " + ", ".join(f"{i}={k}" for i, k in enumerate(e.key))
        case ce.CnStarted():
            agents = ", ".join(f"{i}={s.agent}" for i, s in enumerate(e.seats))
            return f"Codenames started ({e.config.name}, seed {e.seed}): {agents}"
        case ce.CnEnded():
            who = f"{e.winner} wins" if e.winner else "no winner"
            return (
                f"Game over ({e.reason}): {who}; points red {e.points[0]}, blue {e.points[1]};"
                f" scores {', '.join(f'{s:.3f}' for s in e.scores)}"
            )
        case ae.LLMCall():
            what = e.error or f"{e.finish_reason}, parsed: {e.parse_stage}"
            return f"  [{e.provider}:{e.model}] Player {e.seat} {e.decision}/{e.stage}: {what}"
        case ae.ActionDefaulted():
            return f"! Player {e.seat}'s {e.decision} defaulted to {e.action} ({e.reason})"
    return None


def timeline(events: Sequence[Any], seat: int | None = None) -> list[str]:
    """Every event `seat` may see (all when None), one line each."""
    return common.timeline(describe, events, seat)


# --------------------------------------------------------------------------- prompts

BOOK = RuleBook(
    title="Codenames",
    summary=(
        "Two teams, red and blue, each a spymaster and an operative, race to find their own"
        " words among the cards on the board, guided by one-word clues from their spymaster."
        " The game ends when one team's words are all found or the assassin word is chosen."
    ),
    sections=(
        (
            "Roles",
            "The spymaster knows which cards are red, blue, neutral or the assassin and gives"
            " clues: one word tied to any number of the team's cards. The operative knows only"
            " the words and the cards revealed so far, and guesses, trying to find the team's"
            " words and to avoid the others' and the assassin.",
        ),
        (
            "Turn Structure",
            "A turn: the spymaster gives a clue and a number N (how many of the team's cards it"
            " points to). The operative then guesses one card at a time. A card of its own"
            " team lets it guess again; any other card ends the turn; the assassin ends the"
            " game. At most N + 1 guesses per turn. The operative may pass to end the turn."
            " Red opens; the teams alternate.",
        ),
        (
            "Winning Conditions",
            "A team wins when all its cards are revealed (even by the other team's guess). A"
            " team that reveals the assassin loses at once.",
        ),
        (
            "Forbidden Actions",
            "A clue is exactly one word and one number. It may not be a word still hidden on"
            " the board, part of one, or contain one (nor sound like one). A forbidden clue is"
            " replaced by an empty clue good for one guess.",
        ),
        (
            "Scoring",
            "A team scores a point per card of its own revealed, and 3 more for winning. A"
            " team that reveals the assassin scores 0. Each side's result is its share of the"
            " two teams' points.",
        ),
        (
            "Special Rules",
            "A clue with the number 0 lets the operative guess without limit (until a miss or"
            " a pass).",
        ),
    ),
)
"""The rules as a model sees them (GameBench's headings, in the project's words)."""


def _board(view: CodenamesView) -> list[str]:
    lines = []
    for i, w in enumerate(view.words):
        shown = view.shown[i] if i < len(view.shown) else None
        if shown is not None:
            lines.append(f"{i + 1:>2}. {w} - revealed: {shown}")
        elif view.key is not None:
            lines.append(f"{i + 1:>2}. {w} - hidden, {view.key[i]}")
        else:
            lines.append(f"{i + 1:>2}. {w} - hidden")
    return lines


def _history(view: CodenamesView) -> list[str]:
    if not view.clues:
        return ["No clue yet."]
    lines = []
    for c in view.clues:
        n = "unlimited" if c.number == 0 else str(c.number)
        clue = "(no usable clue), 1" if c.refused else f"{c.word}, {n}"
        guesses = [f"{r.word} ({r.card})" for r in view.reveals if r.turn == c.turn]
        lines.append(
            f"Turn {c.turn}, {c.team}: clue {clue}; guesses: {', '.join(guesses) or 'none'}"
        )
    return lines


def observation_text(view: CodenamesView) -> str:
    """What the seat sees: its role, the board (with the key for a spymaster), the history."""
    c = view.config
    assert c is not None
    role = role_of(view.seat)
    left = {
        t: sum(1 for i, k in enumerate(view.key or ()) if k == t and view.shown[i] is None)
        for t in TEAMS
    }
    found = {t: sum(1 for s in view.shown if s == t) for t in TEAMS}
    own, other = view.team, TEAMS[1 - TEAMS.index(view.team)]
    total = {"red": c.red, "blue": c.blue}
    lines = [
        f"You are Player {view.seat}, the {own.upper()} {role.upper()}.",
        f"Cards: red {c.red}, blue {c.blue}, neutral {c.neutral}, assassin {c.assassin}.",
        f"Found so far: your team {found[own]} of {total[own]}, the {other} team"
        f" {found[other]} of {total[other]}.",
    ]
    if view.key is not None:
        lines.append(f"Still hidden: {left[own]} of yours, {left[other]} of theirs.")
    return "\n".join(
        [*lines, "", "BOARD:", *_board(view), "", "CLUES AND GUESSES:", *_history(view)]
    )


def decision_text(view: CodenamesView, d: Any, mode: str) -> str:
    """The question of one decision."""
    if isinstance(d, ClueDecision):
        ask = [
            f"YOUR CLUE (turn {d.turn}): one word and a number, e.g. Action: ocean 2.",
            "Use 0 to allow unlimited guesses.",
        ]
    else:
        assert isinstance(d, GuessDecision)
        n = "unlimited" if d.number == 0 else str(d.number)
        clue = "no usable clue (1 guess)" if not d.clue else f"{d.clue!r} for {n}"
        left = "no limit" if d.left is None else str(d.left)
        ask = [
            f"YOUR GUESS (turn {d.turn}): your spymaster's clue is {clue}; guesses made this"
            f" turn: {d.guesses}; guesses left: {left}.",
            "Name one hidden word (e.g. Action: "
            + (d.options[0] if d.options else "word")
            + "), or Action: pass to end your turn.",
        ]
    return "\n".join([*ask, instruction(mode)])


def _clue_parts(text: str) -> tuple[str, int] | None:
    parts = text.replace(",", " ").replace(":", " ").split()
    if parts and parts[0].lower() == "clue":
        parts = parts[1:]
    if len(parts) != 2:
        return None
    word, number = parts
    if number.lower() in ("unlimited", "infinity", "inf"):
        return word, 0
    try:
        return word, int(number)
    except ValueError:
        return None


def parse_answer(text: str, decision: Any, seat: int) -> tuple[Any, str, str | None]:
    """(action or None, how it was read, error or None) from a model's answer."""
    candidate, stage, error = read_line(text)
    if not isinstance(candidate, str):
        return candidate, stage, error
    if isinstance(decision, ClueDecision):
        parts = _clue_parts(candidate)
        if parts is None:
            return None, "failed", f"{candidate[:60]!r} is not one word and one number"
        return GiveClue(seat=seat, word=parts[0], number=parts[1]), stage, None
    words = candidate.lower().replace(":", " ").split()
    if words and words[0] == "guess":
        words = words[1:]
    if words in (["pass"], ["end", "turn"], ["end_turn"]):
        return Pass(seat=seat), stage, None
    options = getattr(decision, "options", ())
    if len(words) == 1 and words[0].strip(".") in options:
        return Guess(seat=seat, word=words[0].strip(".")), stage, None
    return None, "failed", f"{candidate[:60]!r} is neither a hidden word on the board nor pass"


def default_action(decision: Any, seat: int) -> Any:
    """Played when no usable answer came: an empty clue (refused, then one guess), or a pass."""
    if isinstance(decision, ClueDecision):
        return GiveClue(seat=seat, word="", number=1)
    return Pass(seat=seat)


@dataclass(frozen=True)
class CodenamesPrompter(PrompterBase):
    """Prompts and answer reading of model seats in Codenames (the `Prompter` protocol)."""

    title: str = "Codenames"
    playing: str = "a board game against other players"

    def decision_prompt(self, view: Any, decision: Any, memory: str, rejection: Any) -> str:
        """Rules (progressive), what the seat sees, and the question."""
        return "\n".join(
            [
                *rules_lines(BOOK, view.explained),
                "",
                observation_text(view),
                "",
                decision_text(view, decision, self.mode),
            ]
        )

    def answer_schema(self, view: Any, decision: Any) -> dict[str, Any]:
        """The JSON schema of an answer (seats with ``output=json_schema``): a guess names a
        hidden word, `pass` or a heading not explained yet; a clue is free text (the rules
        judge it)."""
        left = [h for h in BOOK.headings if h not in view.explained]
        if isinstance(decision, GuessDecision):
            options = [*decision.options, "pass", *(f"Explain({h})" for h in left)]
            action: dict[str, Any] = {"type": "string", "enum": options}
        else:
            action = {"type": "string"}
        return answer_schema(self.mode, action)

    def parse(self, text: str, decision: Any, seat: int) -> tuple[Any, str, str | None]:
        """A model's answer read into an action."""
        return parse_answer(text, decision, seat)

    def default_action(self, decision: Any, seat: int) -> Any:
        """The documented action when no usable answer came."""
        return default_action(decision, seat)


# --------------------------------------------------------------------------- viewer frames


def frames(viewer: int | str | None) -> tuple[Any, dict[str, list[Any]]]:
    """The viewer's frames (`extras["frames"]`): a seat's observation text and its board as
    the seat knows it (a spymaster with the key, an operative the revealed cards only). The
    events come filtered for `viewer`, so a seat's frame holds the key only if it saw it."""
    seat = viewer if isinstance(viewer, int) else 0
    view = CodenamesView(seat)
    seen: list[Any] = []

    def step(e: Any) -> dict[str, Any]:
        seen.append(e)
        view.sync(seen, [None] * len(seen))
        if view.config is None or not view.words:
            return {"kind": "text", "text": "(the board is not dealt yet)"}
        if isinstance(viewer, int):
            text = observation_text(view)
        else:
            text = "\n".join(["BOARD:", *_board(view), "", "CLUES AND GUESSES:", *_history(view)])
        last = view.clues[-1] if view.clues else None
        board = {
            "game": "codenames",
            "words": list(view.words),
            "key": list(view.key) if view.key is not None else None,
            "shown": list(view.shown),
            "clue": None if last is None or last.refused else [last.team, last.word, last.number],
            "seat": viewer if isinstance(viewer, int) else None,
            "role": role_of(seat) if isinstance(viewer, int) else None,
            "team": team_of(seat) if isinstance(viewer, int) else None,
            "winner": getattr(view.end, "winner", None) if view.end is not None else None,
        }
        return {"kind": "text", "text": text, "board": board}

    return step, {}
