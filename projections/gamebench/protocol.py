"""GameBench's own model protocol as a prompt style (`style=gamebench`): what a seat is shown
and how its answers are read (docs/gamebench.md, GameBench's model protocol).

GameBench's text agent (`agents/gpt.py` at f5ffba2) sends one system message and, per
decision, one user message in four parts: the game's title and summary (and, in the games
whose rules carry extra sections, a JSON object of headings keyed `H1`, `H2`, ... that the
model may expand with `Explain(<key>)`), `# Observation` (what the player sees), `# Actions`
(the decision's instructions, the JSON form of an answer, the predefined and the open-ended
action keys as Python lists, and `Explain(<action>)` when an action has a description), then
a summary naming the keys again. A model answers a JSON object with `action` (and
`openended_response` for an open-ended key). This module builds those parts from each game's
own views and reads an answer back into the game's actions; `agents.gamebench.protocol`
holds the conversation (three tries, chain of thought, RAP). Where GameBench asks one choice
of the game here in two calls (Are You the Traitor?'s question and stop poll), a key of the
first menu plays a `Step`, and `Menu.then` gives the second call's menu. Only the system message is
GameBench's wording (it is the protocol); every other sentence is the project's.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.gamebench.common import raw_text
from projections import editions
from projections.gamebench.common import GameBenchPrompter, RuleBook, instruction

SYSTEM = (
    "You are an agent playing a game. Select the action that maximizes your probability of winning."
)
"""GameBench's system message, word for word (`agents/gpt.py` at f5ffba2,
`OpenAITextAgent.system_message`): the protocol is defined by it."""

TRIES = 3
"""Answers asked per decision (GameBench's `max_retries`)."""

HEADINGS_OFFERED = frozenset(
    {
        "gamebench:air_land_sea",
        "gamebench:codenames",
        "gamebench:hive",
        "gamebench:sea_battle",
    }
)
"""The games whose GameBench rules carry extra sections (`additional_details` is a dict in
`games/air_land_sea/game.py`, `games/codenames/config.py`, `games/hive/config.py` and
`games/sea_battle.py` at f5ffba2; it is None in the other five), so only their prompts list
headings to expand."""

REASON = (
    "Before you answer, think aloud about which of these actions gives you the best chance"
    " of winning."
)
"""The first of chain of thought's two calls asks for reasoning only (the project's words)."""

STANDIN_MARK = "\n# Observation\n"
"""Every first user message of the style holds this line (the loopback stand-in's cue)."""


@dataclass(frozen=True)
class Choice:
    """One key of a decision's menu."""

    key: str
    description: str
    action: Any = None
    """The action a predefined key plays (None for an open-ended key)."""


@dataclass(frozen=True)
class Step:
    """What a key of a decision's first call plays when GameBench asks the decision in two
    calls: no action yet, but the second call (`Menu.then`) asked with `value`."""

    value: Any


@dataclass(frozen=True)
class Menu:
    """A decision as GameBench's protocol shows it."""

    observation: str
    instructions: str
    predefined: tuple[Choice, ...]
    openended: tuple[Choice, ...] = ()
    read: Callable[[str, str], tuple[Any, str | None]] | None = field(default=None)
    """(open-ended key, response) -> (action or None, error or None)."""
    then: Callable[[Any], Menu] | None = field(default=None)
    """The decision's second call, for a menu whose keys lead to one (`Step`): the menu of
    that call from the first call's `Step.value`."""

    @property
    def keys(self) -> list[str]:
        """Every key a valid answer may name, predefined first."""
        return [c.key for c in self.predefined] + [c.key for c in self.openended]

    def description(self, key: str) -> str:
        """What `Explain(<key>)` shows: the key's description (empty for an unknown key)."""
        return "".join(c.description for c in (*self.predefined, *self.openended) if c.key == key)


# ------------------------------------------------------------------------------ rule books


def rule_book(prompter: Any, view: Any) -> RuleBook:
    """The rules a seat of this game reads (title, summary, sections), as its own prompts
    show them."""
    module = type(prompter).__module__
    name = module.rsplit(".", 1)[-1]
    if name == "hive":
        from projections.gamebench import hive

        return hive.book_of(view)
    if name == "two_rooms":
        from projections.gamebench import two_rooms

        return two_rooms.book_of(view)
    if name == "sea_battle":
        from projections.gamebench import sea_battle

        if view.rules == "gamebench":
            return sea_battle.gamebench_book(view.config)
        return sea_battle.book(view.config, prompter.edition)
    if name == "traitor":
        from projections.gamebench import traitor

        return traitor.book(view.config)
    if name == "codenames":
        from projections.gamebench import codenames

        return codenames.BOOK
    if name == "arctic_scavengers":
        from projections.gamebench import arctic_scavengers

        return arctic_scavengers.book_of(view)
    book: RuleBook = prompter.book
    return book


def headings(game: str, book: RuleBook) -> dict[str, str]:
    """The headings a seat may expand, keyed `H1`, `H2`, ... (none outside the four games
    GameBench gave sections)."""
    if game not in HEADINGS_OFFERED:
        return {}
    return {f"H{i + 1}": h for i, h in enumerate(book.headings)}


# ------------------------------------------------------------------------------ menus


def _strip_instruction(text: str, mode: str) -> str:
    """A game's question without its closing `Action:` instruction."""
    for m in ("prompt", "cot"):
        text = text.removesuffix("\n" + instruction(m)).removesuffix(instruction(m))
    del mode
    return text.rstrip()


KEYS_EDITION = 3
"""The edition of the prompts (projections.editions) from which the style shows GameBench's
own action keys; seats stored with an earlier edition were shown the project's labels as keys
in Pit, Santorini, Hive, Air, Land and Sea, Arctic Scavengers, Codenames' guesses and Are You
the Traitor?'s answer, and replay with them."""


def own_keys(prompter: Any) -> bool:
    """Whether a seat's prompts name GameBench's own action keys (edition 3 on)."""
    return int(getattr(prompter, "edition", editions.CURRENT)) >= KEYS_EDITION


SPLIT_EDITION = 4
"""The edition of the prompts from which the style asks Are You the Traitor?'s question and
stop poll in two calls each, as GameBench does (whom, then the question; STOP or Pass, then
whom); seats stored with an earlier edition were asked each in one call, under the project's
keys, and replay so."""

TWO_CALL_GAMES = frozenset({"gamebench:are_you_the_traitor"})
"""The games of which a decision may take two calls in the style (from `SPLIT_EDITION`)."""


def split_calls(prompter: Any) -> bool:
    """Whether a seat's decisions that GameBench asked in two calls take two here (edition 4
    on)."""
    return int(getattr(prompter, "edition", editions.CURRENT)) >= SPLIT_EDITION


def menu(prompter: Any, view: Any, decision: Any, seat: int) -> Menu:
    """The decision's menu: the observation, the instructions and the keys."""
    name = type(prompter).__module__.rsplit(".", 1)[-1]
    new = own_keys(prompter)
    if name == "codenames":
        return _codenames(prompter, view, decision, seat, new)
    if name == "traitor":
        if split_calls(prompter):
            return _traitor_split(prompter, view, decision, seat)
        return _traitor(prompter, view, decision, seat, new)
    if name == "two_rooms":
        return _two_rooms(prompter, view, decision, seat)
    if name == "sea_battle" and getattr(decision, "rules", None) == "gamebench":
        return _sea_battle_choice(view, seat)
    if name == "sea_battle" and not getattr(decision, "legal", None):
        return _sea_battle_plan(prompter, view, decision, seat)
    if name == "arctic_scavengers" and new:
        return _arctic(prompter, view, decision)
    if isinstance(prompter, GameBenchPrompter):
        own = GAMEBENCH_KEYS.get(name) if new else None
        listed = own(prompter, view, decision) if own is not None else None
        return Menu(
            observation=prompter.situation(view, decision),
            instructions="Choose one of the actions listed below.",
            predefined=listed
            if listed is not None
            else tuple(Choice(k, k, a) for k, a in prompter.options(decision)),
        )
    # A game whose prompter lists no labels of its own but whose decision lists its actions:
    # its whole prompt as the observation, each action's JSON as its key.
    legal = getattr(decision, "legal", None) or ()
    return Menu(
        observation=prompter.decision_prompt(view, decision, "none", None),
        instructions="Choose one of the actions listed below.",
        predefined=tuple(Choice(raw_text(a), raw_text(a), a) for a in legal),
    )


# ------------------------------------------------------------------ GameBench's own keys
#
# Each function below keys a decision's legal actions as GameBench's code keyed the same
# choice at the commit that played its data (docs/gamebench.md, GameBench's model protocol,
# "Action keys"), and describes each key with the facts GameBench's description gives, in
# the project's words. None: the decision is one GameBench never asked (a preset of the
# project's own), and the project's labels stay.

PIT_ORDER: tuple[tuple[str, str], ...] = (
    ("Barley", "Barley"),
    ("Corn", "Corn"),
    ("Soyabeans", "Soybeans"),
    ("Wheat", "Wheat"),
    ("Bull", "Bull"),
    ("Bear", "Bear"),
)
"""GameBench's Pit commodities in its list's order, each with the name of its kind here
(`games/pit/pit.py` at 59dd736, `__post_init__`: it spells Soybeans `Soyabeans`)."""


def _pit_keys(prompter: Any, view: Any, decision: Any) -> tuple[Choice, ...] | None:
    """Pit's open trading: `Offer_<commodity>_<n>` for every commodity and 1..4 cards, then
    `Accept_<i>_<commodity>_<n>` for every standing offer of another player (i its place,
    from 1, in the list of every standing offer, the player's own included) and every kind
    the first hand holds, 1 card up to all of them (`get_observation` at 59dd736)."""
    from engine.gamebench.pit import Accept, Offer, OpenTurn

    if not isinstance(decision, OpenTurn):
        return None
    ours = dict((g, k) for g, k in PIT_ORDER)
    place = {s: i for i, (s, _, _) in enumerate(view.proposals, 1)}
    out: list[Choice] = []
    for gb, kind in PIT_ORDER:
        for n in range(1, 5):
            action = Offer(kind=kind, count=n)
            if action in decision.legal:
                out.append(Choice(f"Offer_{gb}_{n}", f"Offer {n} {kind}.", action))
    for s, _, _ in view.proposals:
        for gb, _ in PIT_ORDER:
            for a in decision.legal:
                if isinstance(a, Accept) and a.offerer == s and a.kind == ours[gb]:
                    out.append(
                        Choice(
                            f"Accept_{place[s]}_{gb}_{a.count}",
                            f"Take standing offer {place[s]}, giving {a.count} {a.kind} for it.",
                            a,
                        )
                    )
    if len(out) != len(decision.legal):
        return None
    return tuple(out)


def _santorini_keys(prompter: Any, view: Any, decision: Any) -> tuple[Choice, ...] | None:
    """Santorini: a placement keyed by its square, `(row, col)`; a turn by the two compass
    directions, `Move north, build east` (`games/santorini/santorini.py` at db8edbd,
    `get_pawn_placement_observation` and `get_move_build_observation`)."""
    from engine.gamebench.santorini import Place
    from projections.gamebench.santorini import direction

    out: list[Choice] = []
    for a in decision.legal:
        if isinstance(a, Place):
            cell = (a.row, a.col)
            out.append(Choice(f"{cell}", f"Put pawn {decision.pawn} on {cell}.", a))
            continue
        move, build = (a.row, a.col), (a.build_row, a.build_col)
        out.append(
            Choice(
                f"Move {direction(decision.at, move)}, build {direction(move, build)}",
                f"Pawn {decision.pawn} goes from {decision.at} to {move}, then a block is built"
                f" on {build}.",
                a,
            )
        )
    return tuple(out)


HIVE_TYPES: dict[str, str] = {"Q": "Queen", "S": "Spider", "G": "Hopper", "A": "Ant"}
"""GameBench's name of each bug (`games/hive/pieces.py` at 087c06f: no beetles)."""


def _hive_cell(q: int, r: int) -> str:
    """A cell as GameBench writes one (`Hex.__str__`, `games/hive/board.py` at 087c06f):
    no space; the numbers are the axial coordinates the board here is shown in."""
    return f"({q},{r})"


def _hive_keys(prompter: Any, view: Any, decision: Any) -> tuple[Choice, ...] | None:
    """Hive: the first step `list_place_<bug>` and `list_move_<bug>_<cell>`, the second
    `place_<cell>_<bug>` and `move_<from>_<to>`, and `pass` (`games/hive/game.py` at 087c06f,
    `list_actionable_pieces`, `list_possible_moves_for_unplaced_piece`,
    `list_possible_moves_for_placed_piece`, `get_observation`). GameBench describes a placed
    bug's cell with nothing (an empty description)."""
    from engine.gamebench.hive import Move, Pass, Pick, Place

    where = {piece: cell for cell, (owner, piece) in view.board.items() if owner == view.seat}
    out: list[Choice] = []
    for a in decision.legal:
        if isinstance(a, Pick) and a.kind == "place":
            bug = HIVE_TYPES[a.piece]
            out.append(Choice(f"list_place_{bug}", f"Choose a {bug} from your hand to place.", a))
        elif isinstance(a, Pick):
            bug = HIVE_TYPES[a.piece[0]]
            cell = _hive_cell(*where[a.piece])
            out.append(Choice(f"list_move_{bug}_{cell}", f"Choose your {bug} to move.", a))
        elif isinstance(a, Place):
            out.append(Choice(f"place_{_hive_cell(a.q, a.r)}_{HIVE_TYPES[a.bug]}", "", a))
        elif isinstance(a, Move):
            frm, to = _hive_cell(*where[a.piece]), _hive_cell(a.q, a.r)
            out.append(Choice(f"move_{frm}_{to}", f"The piece goes to {to}.", a))
        elif isinstance(a, Pass):
            out.append(Choice("pass", "Let the turn go by.", a))
    return tuple(out)


def _als_keys(prompter: Any, view: Any, decision: Any) -> tuple[Choice, ...] | None:
    """Air, Land and Sea: GameBench keys every choice by a number (`games/air_land_sea/game.py`
    at 1b8b24e). A turn: the hand's cards face up to their own theatre 0..n-1, face down to
    Air n..2n-1, to Land 2n..3n-1, to Sea 3n..4n-1, Withdraw 4n (`get_observation`; Redeploy's
    extra play drops Withdraw), then the face-up plays to another theatre that Air Drop or
    Aerodrome allow, two a card, numbered on from the count so far
    (`effect_manager.py`, `modify_available_actions`). An ability's choice: its options
    0, 1, ..., with not using it last (`resolve_effect`). The hand is numbered in the order the
    seat is shown it. Each key is described by the action's label."""
    from engine.gamebench.air_land_sea import Deploy, Improvise, Skip, Withdraw
    from events.gamebench.air_land_sea import CARDS, THEATRES

    labels = {id(a): t for t, a in prompter.options(decision)}
    if decision.kind not in ("turn", "play"):
        ordered = [a for a in decision.legal if not isinstance(a, Skip)]
        ordered += [a for a in decision.legal if isinstance(a, Skip)]
        return tuple(Choice(str(i), labels[id(a)], a) for i, a in enumerate(ordered))
    hand = view.hand()
    n = len(hand)
    keyed: dict[str, Any] = {}
    for i, card in enumerate(hand):
        keyed[str(i)] = Deploy(card=card, theatre=CARDS[card].theatre)
    for t, theatre in enumerate(THEATRES):
        for i, card in enumerate(hand):
            keyed[str(n * (t + 1) + i)] = Improvise(card=card, theatre=theatre)
    if decision.kind == "turn":
        keyed[str(4 * n)] = Withdraw()
    extra = len(keyed)
    for card in hand:
        for theatre in THEATRES:
            action = Deploy(card=card, theatre=theatre)
            if theatre != CARDS[card].theatre and action in decision.legal:
                keyed[str(extra)] = action
                extra += 1
    by_action = {id(a): a for a in decision.legal}
    out: list[Choice] = []
    for key, action in keyed.items():
        match = next((a for a in decision.legal if a == action), None)
        if match is None:
            return None
        out.append(Choice(key, labels[id(match)], match))
    if len(out) != len(by_action):
        return None
    return tuple(out)


GAMEBENCH_KEYS: dict[str, Callable[[Any, Any, Any], tuple[Choice, ...] | None]] = {
    "pit": _pit_keys,
    "santorini": _santorini_keys,
    "hive": _hive_keys,
    "air_land_sea": _als_keys,
}
"""The games whose predefined keys are GameBench's own, by prompter module."""


ARC_GATHER: dict[str, str] = {
    "DIG": "Spend cards that dig: turn up as many cards from the junkyard as their dig adds up"
    " to, and keep at most one of them.",
    "DRAW": "Spend cards that draw: take as many cards from your deck into your hand as their"
    " draw adds up to.",
    "HIRE": "Pay a mercenary's price (food from hunting and medicine cards) and add it to your"
    " deck.",
    "HUNT": "Spend cards that hunt: gain as much food for this round as their hunt adds up to.",
    "TRASH": "Put cards from your hand into the junkyard for good.",
    "STOP": "End gathering; the rest of your hand goes to the skirmish.",
}
"""GameBench's open-ended gathering keys with the facts of their descriptions
(`games/arctic_scavengers/arctic_scavengers.py` at 92a1cea, `observation_resource_gather`)."""

ARC_SKIRMISH: dict[str, str] = {
    "SNIPER": "Snipe a card with people in another player's skirmish pile: it leaves the fight.",
    "SABOTEUR": "Sabotage a card without people (a tool) in another player's skirmish pile: it"
    " leaves the fight.",
    "STOP": "Take no further action in the skirmish.",
}
"""GameBench's open-ended skirmish keys (`observation_skirmish` at 92a1cea)."""


def _titles(response: str) -> list[Any]:
    """An open-ended response read as GameBench reads it (`ast.literal_eval`), as a list."""
    try:
        value = ast.literal_eval(response.strip())
    except Exception:
        return [response.strip()] if response.strip() else []
    return list(value) if isinstance(value, list | tuple) else [value]


def _arctic(prompter: Any, view: Any, decision: Any) -> Menu:
    """Arctic Scavengers in GameBench's keys (`games/arctic_scavengers/arctic_scavengers.py`
    at 92a1cea): gathering offers six open-ended keys, DIG, DRAW, HIRE, HUNT, TRASH and STOP,
    whose response lists the cards (`["DIG", ["Brawler", "Shovel"]]`, `["HIRE", ["Pills"],
    "Saboteur"]`); the skirmish SNIPER, SABOTEUR and STOP, whose response names the other
    player's card; a dig's keep is one predefined key per dug card's title, with no
    description (GameBench's keep has no "nothing"; the rules here allow it, so the project's
    `Keep nothing` is listed too)."""
    from engine.gamebench.arctic_scavengers import Gather, Hire, Keep, Stop, Strike

    legal = decision.legal
    observation = prompter.situation(view, decision)
    if decision.kind == "keep":
        keys = [
            Choice(str(a.card), "", a) for a in legal if isinstance(a, Keep) and a.card is not None
        ]
        keys += [Choice("Keep nothing", "Keep nothing", a) for a in legal if a == Keep(card=None)]
        return Menu(
            observation=observation,
            instructions="Choose the dug card to put in your deck.",
            predefined=tuple(keys),
        )

    def read(key: str, response: str) -> tuple[Any, str | None]:
        if key == "STOP":
            return next((a for a in legal if isinstance(a, Stop)), None), None
        items = _titles(response)
        if decision.kind == "skirmish":
            card = items[-1] if items else ""
            kind = "snipe" if key == "SNIPER" else "sabotage"
            hit: list[Any] = [
                a for a in legal if isinstance(a, Strike) and a.kind == kind and a.card == card
            ]
            return (hit[0], None) if hit else (None, f"no {key} on {str(card)[:40]!r}")
        if key == "HIRE":
            if len(items) < 3 or not isinstance(items[1], list | tuple):
                return None, 'HIRE needs ["HIRE", [medicine cards], mercenary]'
            paid = sorted(map(str, items[1]))
            hit = [
                a
                for a in legal
                if isinstance(a, Hire) and a.mercenary == items[2] and sorted(a.cards) == paid
            ]
            return (hit[0], None) if hit else (None, "no such hire")
        cards = items[-1] if items else []
        if not isinstance(cards, list | tuple):
            return None, f"{key} needs a list of cards"
        want = sorted(map(str, cards))
        hit = [
            a
            for a in legal
            if isinstance(a, Gather) and a.kind == key.lower() and sorted(a.cards) == want
        ]
        return (hit[0], None) if hit else (None, f"no {key} with {want}")

    table = ARC_SKIRMISH if decision.kind == "skirmish" else ARC_GATHER
    return Menu(
        observation=observation,
        instructions=(
            "Take one action. For DIG, DRAW, HUNT or TRASH the response is the action and the"
            ' list of the cards you spend, e.g. ["DIG", ["Brawler", "Shovel"]]; for HIRE the'
            ' action, the medicine cards you pay with and the mercenary, e.g. ["HIRE",'
            ' ["Pills"], "Saboteur"]; for STOP, ["STOP", []].'
            if decision.kind != "skirmish"
            else "Strike a card of the other player's skirmish pile, or stop. For SNIPER or"
            " SABOTEUR the response is the title of the card you strike; for STOP, an empty"
            " string."
        ),
        predefined=(),
        openended=tuple(Choice(k, d) for k, d in table.items()),
        read=read,
    )


def _codenames(prompter: Any, view: Any, decision: Any, seat: int, new: bool = True) -> Menu:
    from engine.gamebench.codenames import ClueDecision, Guess, Pass
    from projections.gamebench import codenames

    question = _strip_instruction(codenames.decision_text(view, decision, "prompt"), "prompt")
    if isinstance(decision, ClueDecision):

        def read(key: str, response: str) -> tuple[Any, str | None]:
            action, _, error = codenames.parse_answer(response, decision, seat)
            return action, error

        clue = "Your clue, written as word,number (e.g. ocean,2); 0 allows any number of guesses."
        return Menu(
            observation=codenames.observation_text(view),
            instructions=question,
            predefined=(),
            openended=(Choice("submit_clue", clue),),
            read=read,
        )
    # GameBench keys a guess by the card's place on the board, `guess_<i>` (from 0), and
    # describes it by the word (`games/codenames/game.py` at 8feafb3, `_get_operative_actions`).
    words = tuple(
        Choice(
            f"guess_{view.words.index(w)}" if new else w,
            f"Reveal the hidden card {w}.",
            Guess(seat=seat, word=w),
        )
        for w in (sorted(decision.options, key=view.words.index) if new else decision.options)
    )
    end = Choice("end_turn", "Stop guessing and end your team's turn.", Pass(seat=seat))
    return Menu(
        observation=codenames.observation_text(view),
        instructions=question,
        predefined=(*words, end),
    )


def _sea_battle_choice(view: Any, seat: int) -> Menu:
    """Sea Battle under the gamebench rules: GameBench's eight predefined actions a turn,
    keyed by the names its `get_observation` gives them (games/sea_battle.py at 8721bb9),
    each described in the project's words, after GameBench's observation."""
    from engine.gamebench.sea_battle import CHOICES, SetPlan
    from projections.gamebench import sea_battle

    return Menu(
        observation=sea_battle.gamebench_observation(view),
        instructions="Choose how your ship moves and which side it fires to this turn.",
        predefined=tuple(
            Choice(
                sea_battle.LABELS[t],
                f"{sea_battle.MOVE_TEXT[t[0]]}, then {sea_battle.SIDE_TEXT[t[1]]}.",
                SetPlan(seat=seat, plan=t),
            )
            for t in CHOICES
        ),
    )


def _sea_battle_plan(prompter: Any, view: Any, decision: Any, seat: int) -> Menu:
    from projections.gamebench import sea_battle

    question = _strip_instruction(sea_battle.decision_text(view, decision, "prompt"), "prompt")

    def read(key: str, response: str) -> tuple[Any, str | None]:
        action, _, error = sea_battle.parse_answer(response, decision, seat)
        return action, error

    return Menu(
        observation=sea_battle.observation_text(view, prompter.edition),
        instructions=question,
        predefined=(),
        openended=(Choice("plan", "The turn's eight tokens, e.g. FnLlFrWn."),),
        read=read,
    )


def _traitor(prompter: Any, view: Any, decision: Any, seat: int, new: bool = True) -> Menu:
    from engine.gamebench.traitor import AnswerDecision, Ask, AskDecision, Say
    from projections.gamebench import traitor

    observation = traitor.observation_text(view)
    if isinstance(decision, AskDecision):
        keys = tuple(
            Choice(f"Ask Player {n}", f"Put a question to Player {n}.") for n in decision.names
        )

        def ask(key: str, response: str) -> tuple[Any, str | None]:
            words = response.strip()
            if not words:
                return None, "the question is empty"
            return Ask(seat=seat, to=key.rsplit(" ", 1)[-1], text=words), None

        return Menu(
            observation=observation,
            instructions=f"Question {decision.exchange} of the round: ask one other player"
            " one question.",
            predefined=(),
            openended=keys,
            read=ask,
        )
    if isinstance(decision, AnswerDecision):

        def say(key: str, response: str) -> tuple[Any, str | None]:
            words = response.strip()
            if not words:
                return None, "the answer is empty"
            return Say(seat=seat, text=words), None

        return Menu(
            observation=observation,
            instructions=f"Player {decision.asker} asked you: {decision.question!r}. Answer it.",
            predefined=(),
            # GameBench's one open-ended key, `openended`, with an empty description
            # (`games/are_you_the_traitor/aytt.py` at 4f1a3de, `observation_give_answer`).
            openended=(
                Choice("openended", "")
                if new
                else Choice("answer", "Your answer to the question."),
            ),
            read=say,
        )
    question = _strip_instruction(traitor.decision_text(view, decision, "prompt"), "prompt")
    question = question.split("\nLegal actions:", 1)[0]
    return Menu(
        observation=observation,
        instructions=question,
        predefined=tuple(
            Choice(traitor.stop_label(a), traitor.stop_label(a), a) for a in decision.legal
        ),
    )


def _traitor_split(prompter: Any, view: Any, decision: Any, seat: int) -> Menu:
    """Are You the Traitor? as GameBench asks it (`games/are_you_the_traitor/aytt.py` at
    4f1a3de, `play`): a question in two calls, the player to ask (a predefined key per other
    player, `observation_get_target`), then the question (the predefined `skip` and the
    open-ended `openended`, `observation_get_question`); an answer in one, as in edition 3
    (`_traitor`); the stop poll in two, `STOP` or `Pass`
    (`observation_shout_stop`), then after `STOP` the player accused (a predefined key per
    other player, `observation_get_accused`). GameBench keys a player by its number and
    describes the key by the same number; a player here is keyed by its round name (the
    letter its observation calls it by) and described as `Player <name>`."""
    from engine.gamebench.traitor import Ask, AskDecision, Pass, Stop, StopDecision
    from projections.gamebench import traitor

    if not isinstance(decision, AskDecision | StopDecision):
        return _traitor(prompter, view, decision, seat)
    observation = traitor.observation_text(view)
    if isinstance(decision, AskDecision):

        def question(to: Any) -> Menu:
            def read(key: str, response: str) -> tuple[Any, str | None]:
                # Any text is a question, the empty one too: GameBench hands the response on
                # as written.
                return Ask(seat=seat, to=str(to), text=response.strip()), None

            return Menu(
                observation=observation,
                instructions=f"You chose to put question {decision.exchange} of the round to"
                f" Player {to}. Write the question, or skip it to ask nothing.",
                predefined=(
                    Choice(
                        "skip",
                        "Ask nothing: the question is heard as an empty one.",
                        Ask(seat=seat, to=str(to), text=""),
                    ),
                ),
                openended=(
                    Choice(
                        "openended",
                        "The question you put to them, for instance whom they work for.",
                    ),
                ),
                read=read,
            )

        return Menu(
            observation=observation,
            instructions=f"Question {decision.exchange} of the round is yours: choose the"
            " player you will ask. Everyone hears the question and its answer.",
            predefined=tuple(Choice(n, f"Player {n}", Step(n)) for n in decision.names),
            then=question,
        )
    stops = [a for a in decision.legal if isinstance(a, Stop)]
    passing = next(a for a in decision.legal if isinstance(a, Pass))

    def accused(_: Any) -> Menu:
        return Menu(
            observation=observation,
            instructions="You called stop. Point at the player you accuse.",
            predefined=tuple(Choice(a.accused, f"Player {a.accused}", a) for a in stops),
        )

    last = " This is the round's last chance to stop." if decision.last else ""
    return Menu(
        observation=observation,
        instructions="The stop poll has reached you: call stop and then point at a player, or"
        " pass and let the talk go on. An accusation that misses gives the round to the other"
        " team, so call stop only when you are sure of your target." + last,
        predefined=(
            Choice("STOP", "Call stop; you are then asked whom you accuse.", Step(None)),
            Choice("Pass", "Let the talk go on.", passing),
        ),
        then=accused,
    )


def _two_rooms(prompter: Any, view: Any, decision: Any, seat: int) -> Menu:
    from engine.gamebench.two_rooms import AnswerTurn, AskWhomTurn, QuestionTurn, Say, TalkTurn

    if isinstance(decision, AskWhomTurn | QuestionTurn | AnswerTurn):
        return _two_rooms_ask(view, decision, seat)
    situation = prompter.situation(view, decision)
    predefined = tuple(Choice(k, k, a) for k, a in prompter.options(decision))
    if not isinstance(decision, TalkTurn):
        return Menu(
            observation=situation,
            instructions="Choose one of the actions listed below.",
            predefined=predefined,
        )

    def say(key: str, response: str) -> tuple[Any, str | None]:
        return Say(seat=seat, text=response.strip()), None

    return Menu(
        observation=situation,
        instructions="Talk to your room, show something to one player, or keep quiet.",
        predefined=predefined,
        openended=(Choice("say", "Say one message to the players of your room."),),
        read=say,
    )


def _two_rooms_ask(view: Any, decision: Any, seat: int) -> Menu:
    """Two Rooms' questions and answers (`talk = "ask"`) in GameBench's three calls
    (games/two_rooms_and_a_boom/two_rooms.py at 4f1a3de, `play`): the room-mate to ask as a
    predefined key per player, then the question and the answer each as one open-ended key.
    Any text is a question or an answer (the rules keep it to one line and cut it), the empty
    one too, as GameBench hands its random player's empty response on."""
    from engine.gamebench.two_rooms import AskWhomTurn, QuestionTurn, Say
    from projections.gamebench import two_rooms

    observation = two_rooms.observation_text(view, decision)

    def say(key: str, response: str) -> tuple[Any, str | None]:
        return Say(seat=seat, text=response.strip()), None

    if isinstance(decision, AskWhomTurn):
        return Menu(
            observation=observation,
            instructions=(
                f"Your turn to ask (room {decision.room}): choose the player of your room you"
                " will put one question to. Only the two of you hear the question and its"
                " answer."
            ),
            predefined=tuple(Choice(k, k, a) for k, a in two_rooms.labelled(decision)),
        )
    if isinstance(decision, QuestionTurn):
        to = decision.names[decision.to]
        return Menu(
            observation=observation,
            instructions=(
                f"Put one short question to {to} (at most {decision.max_message} characters)."
            ),
            predefined=(),
            openended=(Choice("question", f"Your question to {to}."),),
            read=say,
        )
    asker = decision.names[decision.asker]
    return Menu(
        observation=observation,
        instructions=(
            f"{asker} asks you: {decision.question!r}. Answer in a few words (at most"
            f" {decision.max_message} characters)."
        ),
        predefined=(),
        openended=(Choice("answer", f"Your answer to {asker}."),),
        read=say,
    )


# ------------------------------------------------------------------------------ the prompt


def _pylist(keys: Sequence[str]) -> str:
    """Keys as GameBench prints them: a Python list's repr."""
    return str(list(keys))


def first_message(title: str, summary: str, keys: dict[str, str], m: Menu) -> str:
    """The decision's first user message, up to (not including) the closing summary."""
    text = f"The game you are playing is {title}. Its rules in short:\n{summary}\n"
    if keys:
        text += (
            "More rules are written under the headings below; to read one, answer with the"
            " action Explain(<heading key>).\n"
        )
        text += json.dumps(keys, indent=4)
    text += f"\n# Observation\nThis is the game as you see it now:\n{m.observation}\n"
    text += f"\n# Actions\n{m.instructions}\n"
    if m.openended:
        text += (
            "Answer with a JSON object with these keys.\n"
            '{\n    "action": str,\n    "openended_response": Optional[str],\n}\n'
            "Give the openended_response only when your action is an open-ended one.\n"
            "These are the open-ended actions:\n" + _pylist([c.key for c in m.openended]) + "\n"
        )
    else:
        text += 'Answer with a JSON object with these keys.\n{\n    "action": str,\n}\n'
    if m.predefined:
        text += "These are the predefined actions:\n"
        text += _pylist([c.key for c in m.predefined]) + "\n"
    # GameBench offers it when any predefined key has a description (all do) or an
    # open-ended one has a non-empty description.
    if m.predefined or any(c.description for c in m.openended):
        text += "To learn more about what one of these actions does, answer Explain(<action>).\n"
    return text


def closing(m: Menu) -> str:
    """The closing summary: the keys again and the JSON each kind of action takes."""
    return (
        "\nIn short: for a predefined action, answer a JSON object whose 'action' is one of"
        " these:\n"
        + _pylist([c.key for c in m.predefined])
        + "\nFor an open-ended action, answer a JSON object whose 'action' is one of these and"
        " whose 'openended_response' holds your response:\n" + _pylist([c.key for c in m.openended])
    )


# ------------------------------------------------------------------------------ answers


@dataclass(frozen=True)
class Reading:
    """What one answer was, and what the conversation does next.

    `kind`: `action` (the decision's action is `action`), `unread` (the open-ended response
    could not be read into an action: the tries end and the default plays, as GameBench hands
    such an answer to the game), `explain` (`reply` is the text shown next), `invalid` (the
    answer is no JSON object with an action, and nothing is said), or `error` (`reply` is the
    error shown next)."""

    kind: str
    action: Any = None
    reply: str | None = None
    stage: str = "json"
    error: str | None = None


_EXPLAIN_HEADING = re.compile(r"Explain\((H\d+)\)")
_EXPLAIN_ANY = re.compile(r"Explain\((.+)\)")


def read(text: str, m: Menu, keys: dict[str, str], book: RuleBook) -> Reading:
    """One answer read as GameBench's agent reads it: a Python literal holding `action`;
    an open-ended key needs `openended_response`; `Explain(H<n>)` shows the rules under
    heading n, `Explain(<key>)` a key's description; any other key is an error."""
    try:
        answer = ast.literal_eval(text.strip())
        chosen = answer["action"]
    except Exception:
        return Reading("invalid", stage="failed", error="no JSON object with an 'action'")
    open_keys = [c.key for c in m.openended]
    if chosen in open_keys and "openended_response" not in answer:
        return Reading(
            "error",
            reply="Your action is open-ended, so your JSON needs an 'openended_response' key.",
            stage="failed",
            error="open-ended action without a response",
        )
    try:
        asked = _EXPLAIN_HEADING.findall(chosen)
        if asked:
            if asked[0] not in keys:
                raise KeyError(asked[0])
            return Reading("explain", reply=book.text(keys[asked[0]]), stage="explain")
        asked = _EXPLAIN_ANY.findall(chosen)
        if asked:
            return Reading("explain", reply=m.description(asked[0]), stage="explain")
    except Exception:
        return Reading(
            "error",
            reply="That Explain action cannot be answered.",
            stage="failed",
            error="invalid Explain",
        )
    if chosen in open_keys:
        assert m.read is not None
        response = answer["openended_response"]
        action, error = m.read(chosen, response if isinstance(response, str) else str(response))
        if action is None:
            return Reading("unread", stage="failed", error=error or "unreadable response")
        return Reading("action", action=action)
    for c in m.predefined:
        if c.key == chosen:
            return Reading("action", action=c.action)
    return Reading(
        "error",
        reply=(
            f"{chosen} is not a valid action. The valid actions are:\n"
            + _pylist(m.keys)
            + "\nAnswer a JSON object with the action under 'action' (and, for an open-ended"
            " action, your response under 'openended_response')."
        ),
        stage="failed",
        error=f"{str(chosen)[:60]!r} is not one of the valid actions",
    )
