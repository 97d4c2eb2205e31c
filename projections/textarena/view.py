"""What a seat of a TextArena game sees, the timeline's lines, and model prompts.

A seat's view is a fold of the events it may see: the observation texts TextArena gave its
player (joined back from the stored increments), its own actions, TextArena's verdicts on
them, its secret role, and the public start and end. A model seat's prompt is a short
paragraph of rules in this project's words followed by TextArena's own observation text,
unchanged; its answer goes to TextArena unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import msgspec

from events.textarena.game import (
    ActionTaken,
    EnvFailed,
    InvalidMove,
    Observed,
    RoleDealt,
    TextArenaConfig,
    TextArenaEnded,
    TextArenaStarted,
)
from projections import editions
from projections.textarena.chat import SHOWN, chat_board


class Snapshot(msgspec.Struct, frozen=True, kw_only=True):
    """What one seat knows at a point of the game."""

    seat: int
    env_id: str
    observation: str
    """TextArena's latest observation text for this seat."""
    role: str | None = None
    actions: tuple[str, ...] = ()
    """The seat's own actions so far, in order."""
    invalid: tuple[str, ...] = ()
    """TextArena's reasons for each of the seat's actions it judged invalid."""
    to_act: bool = False
    rewards: tuple[float, ...] | None = None


class TextArenaView:
    """A seat's fold of a TextArena game (only the events it may see)."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.seen = 0
        self.history: list[Any] = []
        self.ended = False
        self.start: TextArenaStarted | None = None
        self.observation = ""
        self.role: str | None = None
        self.actions: list[str] = []
        self.invalid: list[str] = []
        self.rewards: tuple[float, ...] | None = None
        self.end: TextArenaEnded | None = None

    def sync(self, log: Sequence[Any], audiences: Sequence[Any] | None = None) -> TextArenaView:
        """Consume the events not seen yet."""
        seat = self.seat
        for i in range(self.seen, len(log)):
            e = log[i]
            aud = audiences[i] if audiences is not None else e.audience()
            if aud is not None and seat not in aud:
                continue
            self.history.append(e)
            if isinstance(e, TextArenaStarted):
                self.start = e
            elif isinstance(e, Observed):
                self.observation = self.observation + e.text if e.extends else e.text
            elif isinstance(e, ActionTaken):
                self.actions.append(e.action)
            elif isinstance(e, InvalidMove):
                self.invalid.append(e.reason)
            elif isinstance(e, RoleDealt):
                self.role = e.role
            elif isinstance(e, TextArenaEnded):
                self.ended = True
                self.rewards = e.scores
                self.end = e
        self.seen = len(log)
        return self

    def snapshot(self, pending: Any = None) -> Snapshot:
        """The view as a value (with whether the seat is asked to act)."""
        seats = getattr(pending, "seats", ())
        return Snapshot(
            seat=self.seat,
            env_id=self.start.env_id if self.start else "",
            observation=self.observation,
            role=self.role,
            actions=tuple(self.actions),
            invalid=tuple(self.invalid),
            to_act=self.seat in seats,
            rewards=self.rewards,
        )


# ---------------------------------------------------------------------------- timeline


def _flat(text: str, limit: int = 160) -> str:
    one = " | ".join(line.strip() for line in text.strip().splitlines() if line.strip())
    return one if len(one) <= limit else one[: limit - 3] + "..."


def describe(e: Any, viewer: int | None) -> str | None:
    """One line per event."""
    match e:
        case TextArenaStarted():
            preset = f" (MindGames {e.config.preset})" if e.config.preset else ""
            return f"TextArena {e.env_id}{preset}, {e.config.players} players, seed {e.seed}"
        case RoleDealt():
            return f"Player {e.seat} is dealt the role {e.role}"
        case Observed():
            return f"Player {e.seat} is shown: {_flat(e.text) or '(nothing new)'}"
        case ActionTaken():
            cut = f" (cut from {len(e.raw)} characters)" if e.raw is not None else ""
            return f"[{e.step}] Player {e.player}: {_flat(e.action)}{cut}"
        case InvalidMove():
            return f"! Player {e.player}'s move at step {e.step} is invalid: {_flat(e.reason)}"
        case EnvFailed():
            return f"! The environment failed at step {e.step}: {e.error}"
        case TextArenaEnded():
            return f"Game over ({_flat(e.reason, 100)}): rewards " + ", ".join(
                f"{s:g}" for s in e.scores
            )
    return None


def render(events: Sequence[Any], seat: int | None) -> list[str]:
    """The end of the game as text: the rewards, or what `seat` was shown last."""
    if not events or not isinstance(events[0], TextArenaStarted):
        return []
    if seat is None:
        end = next((e for e in events if isinstance(e, TextArenaEnded)), None)
        if end is None:
            return ["The game is running."]
        return [f"Rewards: {list(end.scores)}", f"Roles: {list(end.roles)}"]
    view = TextArenaView(seat).sync(events)
    return [f"What seat {seat} was shown last:", *view.observation.strip("\n").splitlines()]


def frames(viewer: int | str | None) -> tuple[Callable[[Any], dict[str, Any]], dict[str, Any]]:
    """The viewer's frame after each event: the seat's latest observation text for a seat,
    the event's own line otherwise (events come filtered for `viewer`). A seat's frame draws
    the conversation its text holds (`chat_board`); the other views' frames draw the events
    they see as one (`log_board`: every move for everyone, the start and the end in public)."""
    seat = viewer if isinstance(viewer, int) else None
    view = TextArenaView(seat if seat is not None else -1)
    seen: list[Any] = []
    said: list[dict[str, Any]] = []

    def step(e: Any) -> dict[str, Any]:
        seen.append(e)
        if seat is not None:
            view.sync(seen, [None] * len(seen))
            text = view.observation.strip("\n")
            board = chat_board(text, seat, view.role) if text else None
            if board is None:
                return {"kind": "text", "text": text}
            return {"kind": "text", "text": text, "board": board}
        line = describe(e, None) or ""
        if isinstance(e, ActionTaken):
            said.append({"who": f"Player {e.player}", "text": e.action.strip(), "phase": False})
        elif line and not isinstance(e, Observed):
            ends = isinstance(e, TextArenaStarted | TextArenaEnded)
            said.append({"who": "GAME", "text": line, "phase": ends})
        return {"kind": "text", "text": line, "board": log_board(said)}

    return step, {}


def log_board(said: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The conversation of a view that is no seat's (everyone's, or the public's): each move
    as its player's words, the game's other events (roles dealt, invalid moves, the start
    and the end) as the game's lines; no seat's own text."""
    shown = list(said[-SHOWN:])
    return {
        "game": "chat",
        "allocations": [],
        "seat": None,
        "role": None,
        "earlier": len(said) - len(shown),
        "messages": shown,
    }


# ---------------------------------------------------------------------------- prompts

RULES: dict[str, str] = {
    "blotto": (
        "Colonel Blotto for two commanders over several rounds. Each round you split all "
        "your units among the fields A, B and C; the other commander does the same without "
        "seeing your split. Whoever puts more units on a field takes it, and whoever takes "
        "more fields wins the round. Winning the most rounds wins the game. Write your "
        "split in square brackets, e.g. [A7 B7 C6], using every unit exactly once."
    ),
    "ipd3": (
        "A prisoner's dilemma for three players over several rounds. Each round opens with "
        "free chat, then each player decides, for each of the other two separately, to "
        "cooperate or defect, written as [1 cooperate] [2 defect] with the other players' "
        "numbers. Each pair scores by the usual dilemma: mutual cooperation pays both "
        "well, mutual defection little, and a lone defector takes the most from a "
        "cooperator. The highest total at the end wins."
    ),
    "codenames": (
        "Codenames, two teams of two. Each team's spymaster sees which of the 25 board "
        "words belong to which team and gives a one-word clue with a number, e.g. [ocean "
        "2]; the clue may not be part of any board word. The team's operative then "
        "guesses words one at a time, e.g. [wave], or passes with [pass]. Guessing the "
        "other team's word or a neutral one ends the turn; the assassin word loses the "
        "game. The first team to find all its words wins."
    ),
    "mafia": (
        "Secret Mafia. Each player holds a hidden role: villager, doctor, detective or "
        "mafia; the mafia know each other. At night the mafia choose a victim, the doctor "
        "protects one player and the detective checks one player, each naming the player in "
        "square brackets, e.g. [3] or [Player 3]. By day everyone talks in turn, then votes "
        "the same way to eliminate someone. The village wins when every mafia member is gone, the mafia "
        "when they match the villagers in number."
    ),
}
"""A paragraph of rules per MindGames game, in this project's words."""

GENERIC_RULES = (
    "A TextArena game ({env_id}) for {players} players. Below is what the game shows you; "
    "answer in the format it asks for."
)


def rules_text(config: TextArenaConfig) -> str:
    """The rules paragraph of a configuration (its preset's, or a generic one)."""
    if config.preset in RULES:
        return RULES[config.preset]
    return GENERIC_RULES.format(env_id=config.env_id, players=config.players)


SYSTEM = (
    "You are a player in a text game. Each turn you are given a short summary of the rules "
    "and everything the game has told you so far. Reply with your move in exactly the "
    "format the game asks for; your reply is passed to the game as you write it."
)


CORRECTIONS: dict[str, tuple[str, str]] = {
    "blotto": (
        "Format: '[A4 B2 C2]'",
        "Note: the game's format example above shows only how to write a split: its units add"
        " up to 8, while your split must use all 20 of your units, as [A7 B7 C6] does.",
    ),
}
"""Per preset: a text of TextArena's own prompt whose example contradicts the game's rules,
and the line that corrects it (shown after what the game shows, from edition 2 of the
prompts; docs/textarena.md, What a seat is told)."""


def correction(config: TextArenaConfig, observation: str) -> str | None:
    """The correcting line for what the game shows a seat, if its example misleads."""
    found = CORRECTIONS.get(config.preset or "")
    if found is None or found[0] not in observation:
        return None
    return found[1]


def decision_text(
    config: TextArenaConfig, snap: Snapshot, seat: int, edition: int = editions.CURRENT
) -> str:
    """The question of one decision: rules, then TextArena's observation for the seat (and,
    from edition 2, a line correcting an example of TextArena's that contradicts the rules)."""
    shown = snap.observation.strip(chr(10))
    note = correction(config, shown) if edition >= 2 else None
    return (
        f"RULES\n{rules_text(config)}\n\n"
        f"You are Player {seat}.\n\n"
        f"WHAT THE GAME SHOWS YOU\n{shown}\n\n" + (f"{note}\n\n" if note else "") + "Your move:"
    )


@dataclass(frozen=True)
class TextArenaPrompter:
    """Prompts and answer reading of model seats in TextArena games."""

    edition: int = editions.CURRENT
    """The edition of the prompts (projections.editions)."""

    def for_seat(self, options: Any) -> TextArenaPrompter:
        """The prompter of a seat with these options (its edition)."""
        return replace(self, edition=editions.of(options))

    def system_prompt(self, config: Any, character: str | None, seat: int | None = None) -> str:
        """The standing instructions (one character: the default)."""
        if character not in (None, "optimal"):
            raise KeyError(f"TextArena games have no character {character!r}; known: optimal")
        return SYSTEM

    def decision_prompt(self, view: Any, decision: Any, memory: str, rejection: Any) -> str:
        """The question for one decision, from what the seat may see."""
        assert view.start is not None
        return decision_text(view.start.config, view.snapshot(decision), view.seat, self.edition)

    def rejection(self, view: Any, seat: int, kind: str) -> Any:
        """The rules never ask again here: TextArena's own invalid-move rules apply."""
        return None

    def parse(self, text: str, decision: Any, seat: int) -> tuple[Any, str, str | None]:
        """The answer itself, unchanged (only an empty answer is unusable)."""
        if not text.strip():
            return None, "empty", "the answer was empty"
        return text, "raw", None

    def default_action(self, decision: Any, seat: int) -> Any:
        """An empty action: TextArena's own invalid-move rules then apply to it."""
        return ""

    def action_json(self, action: Any) -> str:
        """An action string as JSON."""
        return msgspec.json.encode(action).decode()

    def truncation_retry_prompt(self, kind: str) -> str:
        """Appended after an answer cut by the token limit."""
        return "Your previous answer was cut off by the length limit. Reply with your move only."

    def format_retry_prompt(self, kind: str, error: str) -> str:
        """The follow-up after an unusable answer."""
        return f"Your answer could not be used: {error}. Reply with your move only."

    def notes_lines(self, events: Sequence[Any], seat: int) -> list[str]:
        """No scratchpad: the observation holds everything the seat was told."""
        return []

    def notes_prompt(self, notes: str, lines: list[str]) -> str:
        """Unused (no scratchpad)."""
        return ""

    def cap_notes(self, text: str) -> str:
        """Unused (no scratchpad)."""
        return ""
