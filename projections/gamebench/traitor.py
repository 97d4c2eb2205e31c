"""What an "Are You the Traitor?" seat sees, how an event reads, and the prompts of a model
seat.

`TraitorView` folds exactly the events a seat may see: its own name and role each round (and
the key holder's name for the traitor), the wizards' names, the public talk, its own passes,
the accusations and the roles revealed at the end of each round, its own treasure and the ring
thefts it took part in. Other seats appear only under their round names, so changing the roles
of the other seats leaves a seat's view and prompt byte-identical (tests/gamebench).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from engine.gamebench.traitor import (
    AnswerDecision,
    Ask,
    AskDecision,
    Pass,
    Say,
    Stop,
    StopDecision,
)
from events import agent as ae
from events.gamebench import traitor as te
from events.gamebench.traitor import (
    POINTS,
    TARGET,
    TREASURE,
    TraitorConfig,
    team_of,
)
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


class AytObservation(msgspec.Struct, frozen=True, kw_only=True):
    """What one seat knows at a point of the game."""

    seat: int
    team: str
    round: int
    name: str
    role: str
    key_holder: str | None
    wizards: tuple[str, ...]
    talk: tuple[tuple[int, str, str, str, str], ...]
    """(exchange, kind `ask` or `answer`, speaker, addressee or '', text) this round."""
    rounds: tuple[tuple[int, str, str, str, str, str | None], ...]
    """(round, reason, accuser, accused, accused's role, winner) of every round over."""
    treasure: tuple[str, ...]
    explained: tuple[str, ...]
    ended: bool
    pending: Any = None


class TraitorView(ViewBase):
    """Incremental fold of the events visible to one seat."""

    def __init__(self, seat: int) -> None:
        super().__init__(seat)
        self.config: TraitorConfig | None = None
        self.round = 0
        self.name = ""
        self.role = ""
        self.key_holder: str | None = None
        self.wizards: tuple[str, ...] = ()
        self.talk: list[tuple[int, str, str, str, str]] = []
        self.stops: dict[int, te.AytStopped] = {}
        self.rounds: list[tuple[int, str, str, str, str, str | None]] = []
        self.treasure: list[str] = []
        self.thefts: list[te.AytRingUsed] = []
        self.refusals: list[te.AytRequestRefused] = []
        self.end: te.AytEnded | None = None

    @property
    def team(self) -> str:
        """This seat's team (the same all game)."""
        return team_of(self.seat)

    @property
    def points(self) -> int:
        """This seat's treasure points."""
        return sum(POINTS[c] for c in self.treasure)

    def fold(self, e: Any) -> None:
        """Take one visible event into the view."""
        match e:
            case te.AytAsked():
                self.talk.append((e.exchange, "ask", e.speaker, e.to, e.text))
            case te.AytAnswered():
                self.talk.append((e.exchange, "answer", e.speaker, "", e.text))
            case te.AytStopped():
                self.stops[e.round] = e
            case te.AytRoundEnded():
                stop = self.stops.get(e.round)
                self.rounds.append(
                    (
                        e.round,
                        e.reason,
                        stop.accuser if stop else "",
                        stop.accused if stop else "",
                        e.accused_role or "",
                        e.winner,
                    )
                )
            case te.AytRoundStarted():
                self.round = e.round
                self.wizards = e.wizards
                self.talk = []
            case te.AytRoleTold():
                self.name, self.role, self.key_holder = e.name, e.role, e.key_holder
            case te.AytTreasureDrawn():
                self.treasure.append(e.card)
            case te.AytRingUsed():
                self.thefts.append(e)
                if e.victim == self.seat:
                    self.treasure.remove(e.card)
                else:
                    self.treasure.append(e.card)
                    self.treasure.remove(te.RING)
            case te.AytRequestRefused():
                self.refusals.append(e)
            case te.AytStarted():
                self.config = e.config
            case te.AytEnded():
                self.ended = True
                self.end = e

    def snapshot(self, pending: Any = None) -> AytObservation:
        """The seat's knowledge as a value, with the decision asked of it (if any)."""
        asked = pending if pending is not None and self.seat in pending.seats else None
        return AytObservation(
            seat=self.seat,
            team=self.team,
            round=self.round,
            name=self.name,
            role=self.role,
            key_holder=self.key_holder,
            wizards=self.wizards,
            talk=tuple(self.talk),
            rounds=tuple(self.rounds),
            treasure=tuple(self.treasure),
            explained=tuple(self.explained),
            ended=self.ended,
            pending=asked,
        )


# --------------------------------------------------------------------------- timeline


def _quote(text: str) -> str:
    """A message in double quotes, its own quotes and backslashes escaped (JSON's string
    syntax), so that no message can close its quotes and read as another player's words."""
    return json.dumps(text, ensure_ascii=False) if text else "(says nothing)"


def describe(e: Any, viewer: int | None = None) -> str | None:
    """One line of text for an event, worded for `viewer` (None: omniscient). Public events
    name players by their round names only."""
    match e:
        case te.AytAsked():
            return f"  Player {e.speaker} asks Player {e.to}: {_quote(e.text)}"
        case te.AytAnswered():
            return f"  Player {e.speaker} answers: {_quote(e.text)}"
        case te.AytPassed():
            return "  you pass" if viewer is not None else f"  seat {e.seat} passes"
        case te.AytStopped():
            return f"Player {e.accuser} calls stop and points at Player {e.accused}"
        case te.AytRoundEnded():
            roles = ", ".join(f"{n}={r}" for n, r in e.roles)
            if e.reason == "silence":
                return f"Round {e.round} over: nobody stopped, no treasure ({roles})"
            return (
                f"Round {e.round} over: the {e.accuser_role} pointed at the {e.accused_role};"
                f" the {e.winner} team wins the round ({roles})"
            )
        case te.AytRoundStarted():
            return (
                f"Round {e.round}: the wizards are Player {e.wizards[0]} and Player {e.wizards[1]}"
            )
        case te.AytRoleTold():
            who = "you are" if viewer is not None else f"seat {e.seat} is"
            extra = f"; the key holder is Player {e.key_holder}" if e.key_holder else ""
            return f"  {who} Player {e.name}, the {e.role} ({team_of(e.seat)}){extra}"
        case te.AytTreasureDrawn():
            who = "you draw" if viewer is not None else f"seat {e.seat} draws"
            return f"  {who} {e.card} ({POINTS[e.card]})"
        case te.AytRingUsed():
            return f"  magic ring: Player {e.thief_name} takes {e.card} from Player {e.victim_name}"
        case te.AytRuleExplained():
            who = "you read" if viewer is not None else f"seat {e.seat} reads"
            return f"  {who} the rules on {e.heading!r}"
        case te.AytRequestRefused():
            who = "you" if viewer is not None else f"seat {e.seat}"
            return f"! {who}: refused ({e.reason})"
        case te.AytRoundDealt():
            pairs = ", ".join(
                f"{i}={n}:{r}" for i, (n, r) in enumerate(zip(e.names, e.roles, strict=True))
            )
            return f"Round {e.round} dealt: {pairs}"
        case te.AytDeckShuffled():
            return f"Treasure shuffled: {len(e.deck)} cards"
        case te.AytStarted():
            agents = ", ".join(f"{i}={s.agent}" for i, s in enumerate(e.seats))
            return f"Are You the Traitor? started ({e.config.name}, seed {e.seed}): {agents}"
        case te.AytEnded():
            who = f"the {e.winner} team wins" if e.winner else "a draw"
            return (
                f"Game over ({e.reason}): {who}; points {', '.join(map(str, e.points))};"
                f" scores {', '.join(f'{s:.1f}' for s in e.scores)}"
            )
        case ae.LLMCall():
            what = e.error or f"{e.finish_reason}, parsed: {e.parse_stage}"
            return f"  [{e.provider}:{e.model}] seat {e.seat} {e.decision}/{e.stage}: {what}"
        case ae.ActionDefaulted():
            return f"! seat {e.seat}'s {e.decision} defaulted to {e.action} ({e.reason})"
    return None


def timeline(events: Sequence[Any], seat: int | None = None) -> list[str]:
    """Every event `seat` may see (all when None), one line each."""
    return common.timeline(describe, events, seat)


# --------------------------------------------------------------------------- prompts

SUMMARY = (
    "The good team wants to destroy an evil magic key; the evil team wants to keep it. The key"
    " is destroyed by handing it to the good wizard, but the evil wizard looks just the same."
    " Talk to find out who is who, and beware: one of the guards of the key is a traitor."
)


def book(config: TraitorConfig) -> RuleBook:
    """The rules as a model sees them, with this game's numbers (the project's words)."""
    treasure = ", ".join(f"{n} {p}" for n, _, p in TREASURE)
    return RuleBook(
        title="Are You the Traitor?",
        summary=SUMMARY,
        sections=(
            (
                "Roles",
                "Five players in two teams. Evil: the traitor and the evil wizard. Good: the"
                " good wizard, the key holder and a guard. You keep your team all game, but"
                " roles and names (Player A to Player E) are dealt anew every round. Everyone"
                " knows which two players are the wizards, not which one is good. The traitor"
                " also knows who holds the key. Nobody is told anything else.",
            ),
            (
                "Talking",
                "A round is talk. A player drawn at random asks another player one question"
                " and that player answers; everyone hears both. Then comes the stop poll."
                f" A round has at most {config.max_exchanges} questions; a question or an"
                f" answer has at most {config.max_message} characters.",
            ),
            (
                "Stopping",
                "After each answer, every player but the traitor, one at a time in a random"
                " order, may call stop and point at one player, or pass. The good wizard and"
                " the guard look for the traitor; the key holder hands the key to the player it"
                " takes for the good wizard; the evil wizard looks for the key holder. If the"
                " player pointed at has that role, the accuser's team wins the round; if not,"
                " the other team wins it. If nobody stops after the last question, the round"
                " ends with no winner. The roles are shown when a round ends.",
            ),
            (
                "Treasure",
                "Every player of the team that wins a round draws one treasure card. Points:"
                f" {treasure}. After each round every magic ring takes one card from a random"
                " player of the other team (the gilded statue if that player has it) and is"
                " used up. You see only your own cards.",
            ),
            (
                "End of the game",
                f"When a player holds {config.target} points, that player's team wins: each of"
                " its players scores 1, the others 0. After"
                f" {config.max_rounds} rounds the team of the player with the most points wins;"
                " a tie is a draw (0.5 each).",
            ),
        ),
    )


def _article(role: str) -> str:
    return "a" if role == te.GUARD else "the"


def observation_text(view: TraitorView) -> str:
    """What the seat sees: its name and role, the wizards, its treasure, past rounds, the
    talk of this round."""
    c = view.config
    assert c is not None
    lines = [
        f"ROUND {view.round} (of at most {c.max_rounds}). Names are dealt anew every round.",
        f"You are Player {view.name}, {_article(view.role)} {view.role.upper()} (the"
        f" {view.team} team).",
        f"The wizards this round: Player {view.wizards[0]} and Player {view.wizards[1]} (one"
        " good, one evil).",
    ]
    if view.key_holder:
        lines.append(f"You know the key holder: Player {view.key_holder}.")
    target = TARGET.get(view.role)
    if target is None:
        lines.append("As the traitor you may not call stop; help your team by talking.")
    else:
        lines.append(
            f"Your stop must find the {target}: pointing at the {target} wins the round for"
            " your team, pointing at anyone else gives it to the other team."
        )
    cards = ", ".join(f"{c_} ({POINTS[c_]})" for c_ in view.treasure) or "none"
    lines.append(
        f"Your treasure: {cards}; {view.points} points. A player with {c.target} points wins"
        " the game for their team."
    )
    if view.rounds:
        lines += ["", "PAST ROUNDS:"]
        for rnd, reason, accuser, accused, role, winner in view.rounds:
            if reason == "silence":
                lines.append(f"Round {rnd}: nobody stopped; no treasure.")
            else:
                ours = "your team" if winner == view.team else "the other team"
                lines.append(
                    f"Round {rnd}: Player {accuser} pointed at Player {accused} (the {role});"
                    f" {ours} won the round."
                )
    lines += ["", "TALK THIS ROUND:"]
    if not view.talk:
        lines.append("Nothing said yet.")
    for ex, kind, speaker, to, text in view.talk:
        if kind == "ask":
            lines.append(f"{ex}. Player {speaker} asked Player {to}: {_quote(text)}")
        else:
            lines.append(f"   Player {speaker} answered: {_quote(text)}")
    return "\n".join(lines)


def stop_label(action: Pass | Stop) -> str:
    """A stop decision's action as listed."""
    return "Pass" if isinstance(action, Pass) else f"Stop Player {action.accused}"


def decision_text(view: TraitorView, d: Any, mode: str) -> str:
    """The question of one decision."""
    c = view.config
    limit = c.max_message if c is not None else 200
    if isinstance(d, AskDecision):
        names = ", ".join(f"Player {n}" for n in d.names)
        ask = [
            f"YOUR QUESTION (question {d.exchange}): ask one other player ({names}) one"
            f" question of at most {limit} characters, in this form:",
            f"Action: Ask Player {d.names[0]}: <your question>",
        ]
    elif isinstance(d, AnswerDecision):
        ask = [
            f"Player {d.asker} asked you: {_quote(d.question)}",
            f"YOUR ANSWER (at most {limit} characters), in this form:",
            "Action: Say: <your answer>",
        ]
    else:
        assert isinstance(d, StopDecision)
        last = " This is the round's last chance to stop." if d.last else ""
        ask = [
            "STOP POLL: call stop now and point at a player, or pass to let the talk go on." + last,
            "Legal actions:",
            *(stop_label(a) for a in d.legal),
        ]
    return "\n".join([*ask, instruction(mode)])


_ASK = re.compile(r"^(?:ask\W*)?(?:player\s*)?([a-e])\b\W*(.*)$", re.IGNORECASE | re.DOTALL)
_SAY = re.compile(r"^(?:say|answer)\s*:\s*(.*)$", re.IGNORECASE | re.DOTALL)
_STOP = re.compile(
    r"^(?:stop|accuse|point\s+at)\W*(?:player\s*)?([a-e])\W*$", re.IGNORECASE | re.DOTALL
)


def parse_answer(text: str, decision: Any, seat: int) -> tuple[Any, str, str | None]:
    """(action or None, how it was read, error or None) from a model's answer."""
    candidate, stage, error = read_line(text)
    if not isinstance(candidate, str):
        return candidate, stage, error
    if isinstance(decision, AskDecision):
        m = _ASK.match(candidate)
        if m is None or m.group(1).upper() not in decision.names:
            names = ", ".join(f"Player {n}" for n in decision.names)
            return None, "failed", f"{candidate[:40]!r} does not ask one of {names}"
        words = m.group(2).strip().strip("\"'").strip()
        if not words:
            return None, "failed", "the question is empty"
        return Ask(seat=seat, to=m.group(1).upper(), text=words), stage, None
    if isinstance(decision, AnswerDecision):
        m = _SAY.match(candidate)
        words = (m.group(1) if m else candidate).strip().strip("\"'").strip()
        if not words:
            return None, "failed", "the answer is empty"
        return Say(seat=seat, text=words), stage, None
    if common.key(candidate) == "pass":
        return Pass(seat=seat), stage, None
    m = _STOP.match(candidate)
    legal = getattr(decision, "legal", ())
    if m is not None:
        wanted = Stop(seat=seat, accused=m.group(1).upper())
        if wanted in legal:
            return wanted, stage, None
    return None, "failed", f"{candidate[:40]!r} is neither Pass nor Stop <another player>"


def default_action(decision: Any, seat: int) -> Any:
    """Played when no usable answer came: a question naming nobody (refused: the rules put a
    wordless question to a player drawn from the seed), an empty answer, or a pass."""
    if isinstance(decision, AskDecision):
        return Ask(seat=seat, to="", text="")
    if isinstance(decision, AnswerDecision):
        return Say(seat=seat, text="")
    return Pass(seat=seat)


@dataclass(frozen=True)
class TraitorPrompter(PrompterBase):
    """Prompts and answer reading of model seats (the `Prompter` protocol)."""

    title: str = "Are You the Traitor?"
    playing: str = "a social deduction game with other players"

    def decision_prompt(self, view: Any, decision: Any, memory: str, rejection: Any) -> str:
        """Rules (progressive), what the seat sees, and the question."""
        assert view.config is not None
        return "\n".join(
            [
                *rules_lines(book(view.config), view.explained),
                "",
                observation_text(view),
                "",
                decision_text(view, decision, self.mode),
            ]
        )

    def answer_schema(self, view: Any, decision: Any) -> dict[str, Any]:
        """The JSON schema of an answer (seats with ``output=json_schema``): a stop poll
        lists its actions and the headings left; a question or an answer is free text."""
        assert view.config is not None
        left = [h for h in book(view.config).headings if h not in view.explained]
        if isinstance(decision, StopDecision):
            options = [stop_label(a) for a in decision.legal]
            options += [f"Explain({h})" for h in left]
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
