"""What a seat of an OpenSpiel game sees, the timeline's lines, the board, and model prompts.

A seat's view keeps the game's pyspiel state privately (rebuilt from the stored actions, on
first use) and shows the seat only what OpenSpiel shows that player: for games of perfect
information the board as OpenSpiel's observation string draws it, for the others the
information-state string (all the player knows), the moves it may see, and its legal actions
by their text. The prompts follow GTBench's layout in our own
words: a paragraph of rules per game, a paragraph of observation per decision, the moves so
far, the legal actions, and an instruction that depends on the seat's reasoning mode.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import msgspec

from engine.openspiel.rules import (
    LEGACY,
    OpenSpielMissing,
    OpenSpielState,
    OpenSpielTurn,
    apply_recorded,
    game_for,
    is_open,
    is_perfect,
    seat_string,
)
from events.openspiel.game import (
    ChanceSampled,
    MovePlayed,
    MoveRejected,
    Observed,
    OpenSpielConfig,
    OpenSpielEnded,
    OpenSpielStarted,
)
from projections import editions
from projections.answers import json_bounds_error, load_json
from projections.openspiel.board import board_of

MODES = ("prompt", "cot", "sc-cot")
"""Reasoning modes of a model seat: answer at once, think first, or think several times and
take the majority (GTBench's Prompt, CoT and SC-CoT agents)."""


# ---------------------------------------------------------------------------- view


class Snapshot(msgspec.Struct, frozen=True, kw_only=True):
    """What one seat knows at a point of the game."""

    seat: int
    game_string: str
    observation: str
    """What OpenSpiel shows this seat (`engine.openspiel.rules.seat_string`): the board in
    perfect-information games, the information-state string in the others."""
    moves: tuple[tuple[int, str], ...]
    """(player, action text) of every move this seat saw, in order (chance as player -1);
    in games of imperfect information (rules 2.0.0) the seat's own moves only."""
    legal: tuple[str, ...] = ()
    """The seat's legal actions by their text, when it is asked to move."""
    returns: tuple[float, ...] | None = None
    own_moves_only: bool = False
    """True where the others' moves and chance show only through `observation`."""


def _open_game(game_string: str, legacy: bool) -> bool:
    game = game_for(game_string)
    return is_perfect(game) if legacy else is_open(game)


class OpenSpielView:
    """A seat's fold of an OpenSpiel game.

    Games of rules 2.0.0 are folded from the seat's own events only: in a game of perfect
    information with turns the board is rebuilt from the (public) actions; otherwise the seat
    is shown the text of its latest `Observed` event and its own moves. Logs of rules 1.0.0
    are folded as they were (the state rebuilt from every action, shown through
    `info_string`), so that their model seats' prompts replay unchanged."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.seen = 0
        self.history: list[Any] = []
        """The events this seat may see, in order."""
        self.ended = False
        self.start: OpenSpielStarted | None = None
        self.legacy = False
        """The log was recorded by rules 1.0.0."""
        self.actions: list[Any] = []
        """The chance outcomes and moves the state is rebuilt from: every one for a log of
        rules 1.0.0 (its seat is only ever shown `seat_string` of it), else the visible ones."""
        self.observed: list[Observed] = []
        """This seat's `Observed` events, in order."""
        self.returns: tuple[float, ...] | None = None
        self._st: OpenSpielState | None = None
        self._applied = 0
        self._open: bool | None = None

    def sync(self, log: Sequence[Any], audiences: Sequence[Any] | None = None) -> OpenSpielView:
        """Consume the events not seen yet."""
        seat = self.seat
        for i in range(self.seen, len(log)):
            e = log[i]
            aud = audiences[i] if audiences is not None else e.audience()
            visible = aud is None or seat in aud
            if isinstance(e, OpenSpielStarted):
                self.start = e
                self.legacy = e.engine_version == LEGACY
            elif isinstance(e, ChanceSampled | MovePlayed):
                if visible or self.legacy:
                    self.actions.append(e)
            elif isinstance(e, Observed):
                if visible:
                    self.observed.append(e)
            elif isinstance(e, OpenSpielEnded):
                self.ended = True
                self.returns = e.scores
            if visible:
                self.history.append(e)
        self.seen = len(log)
        return self

    @property
    def open(self) -> bool:
        """True where every seat sees every action: a game of perfect information with turns
        (rules 1.0.0: of perfect information)."""
        if self._open is None:
            assert self.start is not None, "the view has not seen the game start"
            self._open = _open_game(self.start.game_string, self.legacy)
        return self._open

    @property
    def hidden(self) -> bool:
        """True where the seat knows only its `Observed` strings and its own moves."""
        return self.start is not None and not self.legacy and not self.open

    def state(self) -> OpenSpielState:
        """The game's state after the actions this view holds (agents see `observation`);
        not available to a seat of a game of imperfect information (rules 2.0.0)."""
        assert self.start is not None, "the view has not seen the game start"
        if self.hidden:
            raise LookupError("a seat of a game of imperfect information holds no state")
        if self._st is None:
            self._st = OpenSpielState(self.start.game_string, self.start.seed, self.legacy)
        if self._applied < len(self.actions):
            apply_recorded(self._st.state, self.actions[self._applied :])
            self._applied = len(self.actions)
        return self._st

    @property
    def observation(self) -> str:
        """What OpenSpiel shows this seat now (the board, or all it knows)."""
        if self.hidden:
            return self.observed[-1].text if self.observed else ""
        return seat_string(self.state().state, self.seat)

    def moves(self) -> tuple[tuple[int, str], ...]:
        """(player, text) of the moves and chance outcomes this seat saw."""
        if self.hidden:
            return tuple((self.seat, e.action_text) for e in self.observed if e.action is not None)
        out = []
        for e in self.history:
            if isinstance(e, MovePlayed):
                out.append((e.player, e.text))
            elif isinstance(e, ChanceSampled):
                out.append((-1, e.text))
        return tuple(out)

    def snapshot(self, pending: Any = None) -> Snapshot:
        """The view as a value (with the seat's legal actions if it is asked to move)."""
        legal: tuple[str, ...] = ()
        if isinstance(pending, OpenSpielTurn) and self.seat in pending.seats:
            legal = pending.options(self.seat)[1]
        return Snapshot(
            seat=self.seat,
            game_string=self.start.game_string if self.start else "",
            observation=self.observation if self.start else "",
            moves=self.moves(),
            legal=legal,
            returns=self.returns,
            own_moves_only=self.hidden,
        )


# ---------------------------------------------------------------------------- timeline


def _p(player: int) -> str:
    return "Chance" if player < 0 else f"Player {player}"


def _flat(text: str) -> str:
    """A multi-line OpenSpiel string on one line (lines joined by " | ")."""
    return " | ".join(text.rstrip("\n").splitlines()) or "(nothing)"


def describe(e: Any, viewer: int | None) -> str | None:
    """One line per event."""
    match e:
        case OpenSpielStarted():
            preset = f" (GTBench {e.config.preset})" if e.config.preset else ""
            return f"OpenSpiel game {e.game_string}{preset}, seed {e.seed}"
        case ChanceSampled():
            return f"[{e.ply}] Chance: {e.text} (p={e.probability:.3g})"
        case MovePlayed():
            return f"[{e.ply}] {_p(e.player)}: {e.text} (action {e.action})"
        case Observed():
            if e.action is not None:
                return (
                    f"{_p(e.seat)} plays {e.action_text} (action {e.action}) and sees: "
                    f"{_flat(e.text)}"
                )
            return f"{_p(e.seat)} sees: {_flat(e.text)}"
        case MoveRejected():
            return (
                f"! {_p(e.player)} asked for action {e.raw} ({e.reason}); played {e.used} instead"
            )
        case OpenSpielEnded():
            return "Game over: returns " + ", ".join(f"{s:g}" for s in e.scores)
    return None


def _whole_state(events: Sequence[Any]) -> Any:
    """The pyspiel state after `events` (every action of the log must be among them)."""
    start = events[0]
    st = OpenSpielState(start.game_string, start.seed, start.engine_version == LEGACY)
    apply_recorded(st.state, events)
    return st.state


def render(events: Sequence[Any], seat: int | None) -> list[str]:
    """The final position as text: OpenSpiel's board (the whole state), or what `seat` sees."""
    if not events or not isinstance(events[0], OpenSpielStarted):
        return []
    if seat is None:
        state = _whole_state(events)
        title = "Final position" if state.is_terminal() else "Position"
        return [f"{title}:", *str(state).rstrip("\n").splitlines()]
    view = OpenSpielView(seat).sync(events)
    return [f"What seat {seat} sees:", *view.observation.rstrip("\n").splitlines()]


# ---------------------------------------------------------------------------- viewer frames

PUBLIC_HIDDEN = (
    "Every seat is shown only its own observations in this game; the record every seat "
    "shares holds its start and its end."
)
LEGACY_SEAT = (
    "This game was stored by OpenSpiel rules 1.0.0, which kept no per-seat observations; "
    "the moves this seat was shown:"
)


def frames(viewer: int | str | None) -> tuple[Callable[[Any], dict[str, Any]], dict[str, Any]]:
    """The viewer's frame after each event (`extras["frames"]`): OpenSpiel's whole state for
    everyone (None), the seat's own string for a seat, the board of an open game (perfect
    information, turns; else a note) for the public view. The events come filtered for `viewer`."""
    seen: list[Any] = []
    whole: list[Any] = []  # the state everyone sees, built as the actions come
    joint: list[int] = []

    def text(e: Any) -> str:
        seen.append(e)
        start = seen[0]
        if not isinstance(start, OpenSpielStarted):
            return "(the log does not start with game_started)"
        if viewer is None:
            if not whole:
                legacy = start.engine_version == LEGACY
                whole.append(OpenSpielState(start.game_string, start.seed, legacy).state)
            state = whole[0]
            if isinstance(e, ChanceSampled):
                state.apply_action(e.action)
            elif isinstance(e, MovePlayed):
                if e.simultaneous:
                    joint.append(e.action)
                    if len(joint) == state.num_players():
                        state.apply_actions(joint)
                        joint.clear()
                else:
                    state.apply_action(e.action)
            if joint:
                return "(a simultaneous move is being recorded)"
            return str(state).rstrip("\n")
        seat = viewer if isinstance(viewer, int) else -1
        view = OpenSpielView(seat).sync(seen)
        if seat < 0 and not view.open:
            ended = "" if view.returns is None else f"\nReturns: {list(view.returns)}"
            return PUBLIC_HIDDEN + ended
        if view.legacy and not view.open:
            return "\n".join([LEGACY_SEAT, *(f"{_p(p)}: {t}" for p, t in view.moves())])
        if seat < 0:
            return str(view.state().state).rstrip("\n")
        return view.observation.rstrip("\n")

    def step(e: Any) -> dict[str, Any]:
        try:
            body = text(e)
        except OpenSpielMissing as exc:
            body = str(exc)
        start = seen[0] if seen else None
        game = start.game_string if isinstance(start, OpenSpielStarted) else ""
        # The board is read from the string shown, so a drawing holds what the seat was told.
        board = board_of(game, body) if game else None
        if board is None:
            return {"kind": "text", "text": body}
        return {"kind": "text", "text": body, "board": board}

    return step, {}


# ---------------------------------------------------------------------------- prompts

RULES: dict[str, str] = {
    "tic_tac_toe": (
        "Tic-tac-toe on a 3 by 3 grid. Player 0 marks 'x', player 1 marks 'o', taking turns. "
        "Whoever first has three marks in one row, column or diagonal wins; a full grid with "
        "no line is a draw. A move names the mark and the cell as (row,column), counted from "
        "0 at the top left, e.g. x(1,1) is the centre."
    ),
    "connect_four": (
        "Connect Four on a grid of 6 rows and 7 columns. Players take turns dropping a disc "
        "into a column; it falls to the lowest empty cell. Whoever first lines up four discs "
        "horizontally, vertically or diagonally wins; a full grid is a draw. Player 0 plays "
        "'x', player 1 plays 'o'; a move names the disc and the column from 0 on the left, "
        "e.g. x3 is the middle column."
    ),
    "breakthrough": (
        "Breakthrough on a board of 8 rows and 3 columns (a to c). Black (player 0, 'b') starts "
        "on rows 7 and 8 and moves down; white (player 1, 'w') starts on rows 1 and 2 and "
        "moves up. A piece steps one square forward, straight or diagonally, onto an empty "
        "square, or captures an enemy piece diagonally forward. The first to reach the far "
        "row, or to capture every enemy piece, wins; there are no draws. A move names the "
        "start and end squares, e.g. a7a6; a '*' marks a capture."
    ),
    "kuhn_poker": (
        "Kuhn poker with three cards: Jack (0), Queen (1) and King (2). Each player antes 1 "
        "chip and gets one card; the third stays hidden. Player 0 acts first. Pass means "
        "check or fold, Bet means bet 1 chip or call a bet. If both pass, or a bet is called, "
        "the higher card takes the pot; a player who folds to a bet loses the ante. Your "
        "return is the chips you win or lose."
    ),
    "liars_dice": (
        "Liar's dice for two players with one six-sided die each; you see only your own. "
        "Players take turns bidding 'q-f': at least q dice among both show face f (a 6 counts "
        "as any face). Each bid must be higher than the last: more dice, or the same number "
        "with a higher face. Instead of bidding you may call Liar: if the last bid holds, the "
        "caller loses, otherwise the bidder loses. Winner +1, loser -1."
    ),
    "blind_auction": (
        "A first-price sealed-bid auction for one object between two bidders. Each bidder "
        "privately learns what the object is worth to them (1 to 10), then bids without "
        "seeing the other's bid. The higher bid wins and pays its bid (a tie is settled by "
        "a coin); the winner's return is value minus bid, the loser's 0. You may not bid "
        "above your value."
    ),
    "negotiation": (
        "Negotiation over a pool of three kinds of items (peppers, strawberries, cherries). "
        "Each player privately values each kind. Turns alternate; on a turn a player first "
        "makes a proposal, [a, b, c] being the quantities it takes for itself (the rest goes "
        "to the other), or agrees to the other's last proposal, then sends a non-binding "
        "utterance of the same form. An agreement pays each player the value of its share; "
        "no agreement within the step limit pays nothing."
    ),
    "nim": (
        "Nim with four piles of 1, 3, 5 and 7 matches, played misere: whoever takes the last "
        "match loses. On a turn a player takes one or more matches from a single pile. A "
        "move reads 'pile:p, take:n;', piles counted from 1. Winner +1, loser -1."
    ),
    "pig": (
        "Pig, a dice race to 100 points. On your turn you roll a die as often as you like, "
        "adding each roll to a turn total; rolling a 1 loses the turn total and ends the "
        "turn. 'stop' banks the turn total into your score and passes the turn. The first to "
        "reach 100 wins (+1), the other loses (-1)."
    ),
    "prisoners_dilemma": (
        "The iterated prisoner's dilemma. Each round both players choose at the same time to "
        "COOPERATE or DEFECT. Both cooperate: 5 points each; both defect: 1 each; one defects "
        "while the other cooperates: the defector gets 10 and the cooperator 0. After each "
        "round the game goes on with probability 7/8. Your return is the sum of your points."
    ),
}
"""A paragraph of rules per GTBench game, in this project's words."""

GENERIC_RULES = (
    "An OpenSpiel game ({game}) for {players} players. You are shown what the rules let you "
    "see of the position and the legal actions; your return at the end is your score."
)


def rules_text(config: OpenSpielConfig) -> str:
    """The rules paragraph of a configuration (its preset's, or a generic one)."""
    if config.preset in RULES:
        return RULES[config.preset]
    return GENERIC_RULES.format(game=config.game_string, players=config.players)


SYSTEM = (
    "You are a player in a game against another player and try to end with the highest "
    "possible return. Every turn you are given the rules, what you can see, the moves so "
    "far, and the legal actions. Always answer with exactly one of the legal actions, "
    "written as it is listed."
)

INSTRUCTIONS = {
    "prompt": (
        "Choose your action. Reply with one line and nothing else:\nAction: <one legal action>"
    ),
    "cot": (
        "First think about the situation step by step. Then finish with a last line of "
        "the form:\nAction: <one legal action>"
    ),
}
INSTRUCTIONS["sc-cot"] = INSTRUCTIONS["cot"]


def _num(rx: str, text: str) -> str | None:
    m = re.search(rx, text)
    return m.group(1) if m else None


KUHN_BETS = {"p": "pass", "b": "bet"}
"""The letters of OpenSpiel's Kuhn poker record, in words."""


def _kuhn(raw: str, edition: int) -> str:
    """What a Kuhn poker seat's record says: its card and, from edition 2, the bets so far in
    words with the record's letters explained (the record alone shows a pass as a `p`)."""
    card = ("Jack", "Queen", "King")[int(raw[0])]
    if edition < 2:
        return f"Your card is the {card}. OpenSpiel's record of your hand (card, then bets):"
    bets = ", ".join(KUHN_BETS.get(c, c) for c in raw[1:]) or "none yet"
    return (
        f"Your card is the {card}. Bets so far, the first player's first: {bets}."
        " OpenSpiel's record of your hand: your card's number, then one letter per bet"
        " (p: pass, b: bet):"
    )


def explain(
    preset: str | None, seat: int, raw: str, snap: Snapshot, edition: int = editions.CURRENT
) -> str | None:
    """One sentence in plain words about what OpenSpiel's string shows a GTBench game's seat."""
    match preset:
        case "tic_tac_toe":
            return f"You play '{'xo'[seat]}'; the grid as it stands, row 0 on top ('.' is empty):"
        case "connect_four":
            return (
                f"You play '{'xo'[seat]}'; the grid as it stands, the bottom row last ('.' is "
                "empty):"
            )
        case "breakthrough":
            return f"You play '{'bw'[seat]}'; the board as it stands ('.' is empty):"
        case "kuhn_poker" if raw[:1] in ("0", "1", "2"):
            return _kuhn(raw, edition)
        case "liars_dice" if raw.split():
            return f"Your die shows {raw.split()[0]}. OpenSpiel's record (your die, then bids):"
        case "blind_auction" if (value := _num(r"val (\d+)", raw)) is not None:
            return f"The object is worth {value} to you. OpenSpiel's record:"
        case "nim":
            return (
                "The player to move in brackets, then the matches left in piles 1 to 4, as "
                "OpenSpiel writes them:"
            )
        case "pig":
            scores = re.search(r"Scores: (\d+) (\d+), Turn total: (\d+)", raw)
            if scores:
                mine, theirs = scores.group(1 + seat), scores.group(2 - seat)
                return (
                    f"Your score is {mine}, the other player's {theirs}; this turn has "
                    f"gathered {scores.group(3)} so far. OpenSpiel's view:"
                )
        case "negotiation":
            return "The item pool, your own values per item and the latest offers:"
        case "prisoners_dilemma":
            rounds = sum(1 for p, _ in snap.moves if p == seat)
            return f"Rounds played so far: {rounds}. The last round as OpenSpiel writes it:"
    return None


def decision_text(
    config: OpenSpielConfig, snap: Snapshot, seat: int, mode: str, edition: int = editions.CURRENT
) -> str:
    """The question of one decision."""
    if snap.own_moves_only:
        moves = [t for _, t in snap.moves] or ["none yet"]
        heading = "YOUR MOVES SO FAR (the others' moves show only in what you see above)"
    else:
        moves = [f"{_p(p)}: {t}" for p, t in snap.moves] or ["none yet"]
        heading = "MOVES SO FAR (that you saw)"
    raw = snap.observation.rstrip("\n")
    words = explain(config.preset, seat, raw, snap, edition)
    parts = [
        "RULES",
        rules_text(config),
        "",
        f"WHAT YOU SEE (you are Player {seat})",
        *([words] if words else []),
        raw or "(nothing yet)",
        "",
        heading,
        *moves,
        "",
        "LEGAL ACTIONS",
        *(f"- {t}" for t in snap.legal),
        "",
        INSTRUCTIONS[mode],
    ]
    return "\n".join(parts)


_ACTION_RE = re.compile(r"action\s*[:=]\s*(.+)", re.IGNORECASE)


def _clean(text: str) -> str:
    return text.strip().strip("`*\"'<>[]. ").strip().lower()


def _json_body(text: str) -> str | None:
    """The text of an answer that is one JSON object (code fence aside), else None."""
    body = text.strip()
    if body.startswith("```"):
        body = body.strip("`").removeprefix("json").strip()
    return body if body.startswith("{") and body.endswith("}") else None


def _json_action(text: str) -> str | None:
    """The `action` field of an answer that is one JSON object (structured output)."""
    body = _json_body(text)
    if body is None:
        return None
    try:
        data = load_json(body)
    except ValueError:
        return None
    value = data.get("action") if isinstance(data, dict) else None
    return value if isinstance(value, str) else None


def _named(text: str, legal: Sequence[int], texts: Sequence[str]) -> set[int]:
    """The legal actions whose text stands in `text` as a whole token (not inside a longer
    word or a longer legal action's text), compared without case."""
    low = text.lower()
    spans: list[tuple[int, int, int]] = []
    for action, t in zip(legal, texts, strict=True):
        key = t.strip().lower()
        if not key:
            continue
        start = low.find(key)
        while start != -1:
            end = start + len(key)
            before = low[start - 1] if start else " "
            after = low[end] if end < len(low) else " "
            # A token boundary on each side: no letter or digit glued to the text.
            if not (before.isalnum() and key[0].isalnum()) and not (
                after.isalnum() and key[-1].isalnum()
            ):
                spans.append((start, end, action))
            start = low.find(key, start + 1)
    # A span inside a longer one is not counted. Sorted by start, longest first, a span lies
    # inside a longer one exactly when an earlier span (other than its equals) reaches as far.
    kept: set[int] = set()
    reach = -1
    group: tuple[int, int] | None = None
    group_reach = -1
    for s, e, a in sorted(spans, key=lambda x: (x[0], -x[1])):
        if (s, e) != group:
            group, group_reach = (s, e), reach
        if group_reach < e:
            kept.add(a)
        reach = max(reach, e)
    return kept


def parse_answer(text: str, decision: OpenSpielTurn, seat: int) -> tuple[Any, str, str | None]:
    """The legal action an answer names; (action id or None, how it was read, error or None).

    Stages, in order: `json` (a JSON object's `action`, as structured output gives),
    `action_line` (the last `Action: ...` line), `last_line` (the last line), and `lenient`:
    an answer that names exactly one legal action somewhere, in a sentence ("You can choose
    to play x(1,2)."), first in its action line or last line, else anywhere in it. An answer
    naming two or more legal actions there is not guessed at.
    """
    legal, texts = decision.options(seat)
    by_text = {_clean(t): a for a, t in zip(legal, texts, strict=True)}
    text = text or ""
    body = _json_body(text)
    why = json_bounds_error(body) if body is not None else None
    if why is not None:
        return None, "failed", f"the answer cannot be read: {why}"
    chosen = _json_action(text)
    if chosen is not None and _clean(chosen) in by_text:
        return by_text[_clean(chosen)], "json", None
    found = _ACTION_RE.findall(text)
    stage = "action_line"
    if found:
        candidate = found[-1]
    else:
        lines = [ln for ln in text.strip().splitlines() if ln.strip()]
        if not lines:
            return None, "failed", "empty answer"
        candidate, stage = lines[-1], "last_line"
    key = _clean(candidate)
    if key in by_text:
        return by_text[key], stage, None
    for where in (candidate, text):
        named = _named(where, legal, texts)
        if len(named) == 1:
            return named.pop(), "lenient", None
        if len(named) > 1:
            shown = ", ".join(t for a, t in zip(legal, texts, strict=True) if a in named)
            return None, "failed", f"the answer names several legal actions ({shown[:80]})"
    shown = candidate.strip()[:60]
    return None, "failed", f"{shown!r}{NOT_LEGAL}"


NOT_LEGAL = " is not one of the legal actions"
"""How the parse error of an answer naming no legal action ends."""


def answer_schema(decision: OpenSpielTurn, seat: int, mode: str) -> dict[str, Any]:
    """The JSON schema of an answer (structured output): the seat's legal actions, by their
    text, as an enum; a reasoning field first in the modes that think before answering."""
    _, texts = decision.options(seat)
    props: dict[str, Any] = {}
    if mode != "prompt":
        props["reasoning"] = {"type": "string"}
    props["action"] = {"type": "string", "enum": list(dict.fromkeys(texts))}
    return {
        "type": "object",
        "properties": props,
        "required": list(props),
        "additionalProperties": False,
    }


@dataclass(frozen=True)
class OpenSpielPrompter:
    """Prompts and answer reading of model seats in OpenSpiel games."""

    mode: str = "prompt"
    edition: int = editions.CURRENT
    """The edition of the prompts (projections.editions)."""

    def for_seat(self, options: Any) -> OpenSpielPrompter:
        """The prompter of a seat with these options (its reasoning mode and edition)."""
        mode = getattr(options, "mode", None) or "prompt"
        return replace(self, mode=mode, edition=editions.of(options))

    def system_prompt(self, config: Any, character: str | None, seat: int | None = None) -> str:
        """The standing instructions (OpenSpiel games have one character: the default)."""
        if character not in (None, "optimal"):
            raise KeyError(f"OpenSpiel games have no character {character!r}; known: optimal")
        return SYSTEM

    def decision_prompt(self, view: Any, decision: Any, memory: str, rejection: Any) -> str:
        """The question for one decision, from what the seat may see."""
        snap = view.snapshot(decision)
        assert view.start is not None
        return decision_text(view.start.config, snap, view.seat, self.mode, self.edition)

    def answer_schema(self, view: Any, decision: Any) -> dict[str, Any]:
        """The JSON schema of the answer (seats with ``output=json_schema``): the legal
        actions as an enum."""
        return answer_schema(decision, view.seat, self.mode)

    def rejection(self, view: Any, seat: int, kind: str) -> Any:
        """The rules never ask again: an illegal action is replaced, not re-asked."""
        return None

    def parse(self, text: str, decision: Any, seat: int) -> tuple[Any, str, str | None]:
        """The legal action an answer names."""
        return parse_answer(text, decision, seat)

    def illegal_answer(self, text: str, error: str) -> bool:
        """Whether an unusable answer named a move, in its JSON or its `Action:` line, that
        is not legal (outcome ``illegal``) rather than no move at all (``unparsable``)."""
        named = _json_action(text or "") is not None or _ACTION_RE.search(text or "")
        return error.endswith(NOT_LEGAL) and bool(named)

    def default_action(self, decision: Any, seat: int) -> Any:
        """A random legal action drawn from the game seed (GTBench's fallback)."""
        return decision.fallback(seat)

    def action_json(self, action: Any) -> str:
        """An action id as JSON."""
        return msgspec.json.encode(action).decode()

    def truncation_retry_prompt(self, kind: str) -> str:
        """Appended after an answer cut by the token limit."""
        return (
            "Your previous answer was cut off by the length limit. Do not explain this time: "
            "reply with one line, Action: <one legal action>"
        )

    def format_retry_prompt(self, kind: str, error: str) -> str:
        """The follow-up after an answer that named no legal action."""
        return (
            f"Your answer could not be used: {error}.\n"
            "Reply with one line and nothing else: Action: <one of the LEGAL ACTIONS above>"
        )

    def notes_lines(self, events: Sequence[Any], seat: int) -> list[str]:
        """No scratchpad: the prompt holds every move the seat saw."""
        return []

    def notes_prompt(self, notes: str, lines: list[str]) -> str:
        """Unused (no scratchpad)."""
        return ""

    def cap_notes(self, text: str) -> str:
        """Unused (no scratchpad)."""
        return ""
