"""GameBench's own action keys under `style=gamebench` (docs/gamebench.md, GameBench's model
protocol, "Action keys"): each key is built the way GameBench's code built the key of the same
choice, and an answer naming it is read back into the action the key stands for. Games are
walked with `random` seats, in process, and every decision's menu is checked."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from engine.gamebench.codenames import Guess, Pass
from engine.gamebench.hive import Move, Pick, Place
from engine.gamebench.pit import Accept, Offer
from engine.gamebench.santorini import Place as SPlace
from engine.gamebench.santorini import Play
from events import catalog
from events.config import SeatSpec
from projections.gamebench import protocol as gp
from projections.gamebench.santorini import direction


def menus(name: str, preset: str, seed: int, limit: int = 400) -> Iterator[tuple[Any, Any, Any]]:
    """(view, decision, menu) at every decision of a random game, up to `limit` decisions."""
    game = catalog.get(name)
    config = game.presets()[preset]
    n = config.players
    agents = [game.code_agents["random"](s, seed, config) for s in range(n)]
    state, log = game.rules.start(config, seed, [SeatSpec(agent="random")] * n)
    log = list(log)
    prompter = game.prompter.for_seat(type("Options", (), {"mode": "prompt"})())
    for _ in range(limit):
        d = game.rules.pending(state)
        if d is None:
            return
        actions = []
        for s in d.seats:
            view = game.new_view(s)
            view.sync(log)
            yield view, d, gp.menu(prompter, view, d, s)
            actions.append(agents[s].act(view, d))
        state, events = game.rules.step(state, d, actions)
        log += events


def _read(m: gp.Menu, key: str) -> Any:
    reading = gp.read(json.dumps({"action": key}), m, {}, gp.RuleBook("t", "s", ()))
    assert reading.kind == "action", (key, reading)
    return reading.action


PIT = {"Barley": "Barley", "Corn": "Corn", "Soyabeans": "Soybeans", "Wheat": "Wheat"}
PIT |= {"Bull": "Bull", "Bear": "Bear"}


def test_pit_keys_are_gamebenchs_offers_and_accepts() -> None:
    """`Offer_<commodity>_<n>` in GameBench's commodity order (Soybeans spelt `Soyabeans`),
    `Accept_<i>_<commodity>_<n>` with i the offer's place among every standing offer; each key
    reads back as the action it names, and every legal action has one key."""
    accepts = 0
    for view, d, m in menus("gamebench:pit", "quick", 3, limit=120):
        keys = [c.key for c in m.predefined]
        assert len(set(keys)) == len(keys) == len(d.legal)
        offers = [k for k in keys if k.startswith("Offer_")]
        assert offers[:5] == [f"Offer_Barley_{n}" for n in (1, 2, 3, 4)] + ["Offer_Corn_1"]
        assert "Offer_Soyabeans_4" in offers and len(offers) == 24
        places = {s: i for i, (s, _, _) in enumerate(view.proposals, 1)}
        for key in keys:
            action = _read(m, key)
            parts = key.split("_")
            if parts[0] == "Offer":
                assert action == Offer(kind=PIT[parts[1]], count=int(parts[2]))
            else:
                accepts += 1
                assert isinstance(action, Accept)
                assert int(parts[1]) == places[action.offerer]
                assert (PIT[parts[2]], int(parts[3])) == (action.kind, action.count)
    assert accepts > 0


def test_santorini_keys_are_squares_and_compass_pairs() -> None:
    """A placement is keyed `(row, col)`, a turn `Move <dir>, build <dir>`, directions from
    GameBench's compass (row 0 north); every key reads back as its action."""
    kinds = set()
    for _, d, m in menus("gamebench:santorini", "standard", 2, limit=40):
        for c in m.predefined:
            action = _read(m, c.key)
            if isinstance(action, SPlace):
                kinds.add("place")
                assert c.key == f"({action.row}, {action.col})"
            else:
                kinds.add("play")
                assert isinstance(action, Play)
                move = (action.row, action.col)
                build = (action.build_row, action.build_col)
                assert c.key == f"Move {direction(d.at, move)}, build {direction(move, build)}"
    assert kinds == {"place", "play"}


CELL = re.compile(r"\((-?\d+),(-?\d+)\)")


def test_hive_keys_are_gamebenchs_two_steps() -> None:
    """`list_place_<bug>` / `list_move_<bug>_<cell>` first, then `place_<cell>_<bug>` /
    `move_<from>_<to>`, with GameBench's bug names (Hopper, Ant); cells as GameBench writes
    them, `(q,r)`; each key reads back as its action."""
    names = {"Q": "Queen", "S": "Spider", "G": "Hopper", "A": "Ant"}
    seen = set()
    for view, _, m in menus("gamebench:hive", "short", 4, limit=120):
        where = {p: cell for cell, (o, p) in view.board.items() if o == view.seat}
        for c in m.predefined:
            action = _read(m, c.key)
            if isinstance(action, Pick) and action.kind == "place":
                assert c.key == f"list_place_{names[action.piece]}"
            elif isinstance(action, Pick):
                q, r = where[action.piece]
                assert c.key == f"list_move_{names[action.piece[0]]}_({q},{r})"
            elif isinstance(action, Place):
                assert c.key == f"place_({action.q},{action.r})_{names[action.bug]}"
                assert c.description == ""
            elif isinstance(action, Move):
                cells = CELL.findall(c.key)
                assert c.key.startswith("move_")
                assert [tuple(map(int, x)) for x in cells] == [
                    where[action.piece],
                    (action.q, action.r),
                ]
            else:
                assert c.key == "pass"
            seen.add(c.key.split("_")[0] + ("_" + c.key.split("_")[1] if "list" in c.key else ""))
    assert {"list_place", "list_move", "place", "move"} <= seen


def test_codenames_guesses_are_keyed_by_the_cards_place() -> None:
    """An operative's keys are `guess_<i>` (i the card's place on the board, from 0) and
    `end_turn`; each reads back as the guess of that card, or the pass."""
    guesses = 0
    for view, _, m in menus("gamebench:codenames", "standard", 5, limit=60):
        if not m.predefined:
            assert [c.key for c in m.openended] == ["submit_clue"]
            continue
        assert m.predefined[-1].key == "end_turn"
        assert isinstance(_read(m, "end_turn"), Pass)
        for c in m.predefined[:-1]:
            action = _read(m, c.key)
            assert isinstance(action, Guess)
            assert c.key == f"guess_{view.words.index(action.word)}"
            guesses += 1
    assert guesses > 0


def test_traitor_answers_under_gamebenchs_openended_key() -> None:
    """Are You the Traitor?'s answer is GameBench's one open-ended key, `openended`, with no
    description, so `Explain(<action>)` is not offered there."""
    from engine.gamebench.traitor import AnswerDecision

    found = 0
    for _, d, m in menus("gamebench:are_you_the_traitor", "quick", 1, limit=60):
        if isinstance(d, AnswerDecision):
            found += 1
            assert [(c.key, c.description) for c in m.openended] == [("openended", "")]
            text = gp.first_message("t", "s", {}, m)
            assert "Explain(<action>)" not in text
    assert found > 0


def test_air_land_sea_keys_are_gamebenchs_numbers() -> None:
    """A turn: card i of the hand face up to its theatre is `i`, face down to Air, Land, Sea
    `n + i`, `2n + i`, `3n + i`, Withdraw `4n`; an ability's options are numbered from 0 with
    not using it last; every key reads back as its action, each described by its label."""
    from engine.gamebench.air_land_sea import Deploy, Improvise, Skip, Withdraw
    from events.gamebench.air_land_sea import CARDS, THEATRES

    abilities = 0
    for view, d, m in menus("gamebench:air_land_sea", "standard", 3, limit=300):
        keys = [c.key for c in m.predefined]
        assert len(keys) == len(d.legal) and all(c.description for c in m.predefined)
        if d.kind != "turn":
            abilities += 1
            assert keys == [str(i) for i in range(len(keys))]
            skips = [i for i, c in enumerate(m.predefined) if isinstance(c.action, Skip)]
            assert skips in ([], [len(keys) - 1])
            continue
        hand = view.hand()
        n = len(hand)
        for i, card in enumerate(hand):
            assert _read(m, str(i)) == Deploy(card=card, theatre=CARDS[card].theatre)
            for t, theatre in enumerate(THEATRES):
                assert _read(m, str(n * (t + 1) + i)) == Improvise(card=card, theatre=theatre)
        assert _read(m, str(4 * n)) == Withdraw()
    assert abilities > 0


def test_arctic_scavengers_keys_are_gamebenchs_open_ended_actions() -> None:
    """Gathering offers GameBench's six open-ended keys; a response listing the cards (and,
    for HIRE, the medicine and the mercenary) reads back as the listed action that spends
    them; STOP stops; a dig's keep is keyed by the dug card's title."""
    from engine.gamebench.arctic_scavengers import Gather, Hire, Keep, Stop

    book = gp.RuleBook("t", "s", ())
    read = 0
    keeps = 0
    for _, d, m in menus("gamebench:arctic_scavengers", "standard", 2, limit=200):
        if d.kind == "keep":
            keeps += 1
            for a in d.legal:
                key = "Keep nothing" if a.card is None else a.card
                assert isinstance(a, Keep) and _read(m, key) == a
            continue
        if d.kind != "gather":
            assert [c.key for c in m.openended] == ["SNIPER", "SABOTEUR", "STOP"]
            continue
        assert [c.key for c in m.openended] == ["DIG", "DRAW", "HIRE", "HUNT", "TRASH", "STOP"]
        for a in d.legal:
            if isinstance(a, Gather):
                key, response = a.kind.upper(), json.dumps([a.kind.upper(), list(a.cards)])
            elif isinstance(a, Hire):
                key, response = "HIRE", json.dumps(["HIRE", list(a.cards), a.mercenary])
            else:
                assert isinstance(a, Stop)
                key, response = "STOP", '["STOP", []]'
            answer = json.dumps({"action": key, "openended_response": response})
            reading = gp.read(answer, m, {}, book)
            assert reading.kind == "action" and reading.action == a
            read += 1
    assert read > 0 and keeps > 0


def test_edition_two_seats_keep_the_labels_and_verify(tmp_path: Any) -> None:
    """GameBench's keys are edition 3 of the prompts: a seat stored with `prompts=2` was shown
    the project's labels as keys, and its game, stored and verified from its log, renders them
    again (here Pit's offers), while a seat of the current edition names GameBench's."""
    from agents.llm.loopback import Answer, LoopbackServer
    from events.agent import LLMCall
    from events.store import DuckStore
    from runner.session import play_and_store
    from runner.verify import check_game

    from .helpers import seat

    def first_key(req: Any) -> str:
        from agents.gamebench.standin import _lists

        users = "\n".join(
            str(m.get("content", "")) for m in req.messages if m.get("role") == "user"
        )
        return json.dumps({"action": _lists(users)[0][0]})

    from msgspec.structs import replace

    config = replace(catalog.get("gamebench:pit").presets()["quick"], max_turns=6)
    seen: dict[str, str] = {}
    with (
        LoopbackServer(lambda req: Answer(text=first_key(req))) as srv,
        DuckStore(tmp_path / "g.duckdb") as store,
    ):
        for edition in ("2", "3"):
            spec = seat(srv, "openai", opts=f"style=gamebench&prompts={edition}&max_calls=4")
            gid, record = play_and_store(store, config, 1, [spec, "random"])
            check = check_game(store.load_rows(gid))
            assert check.outcome == "verified", check.problem
            calls = [e for e in record.events if isinstance(e, LLMCall)]
            seen[edition] = str(calls[0].messages[1].content)
    assert "['Offer 1 Wheat'," in seen["2"] and "Offer_Barley_1" not in seen["2"]
    assert "['Offer_Barley_1'," in seen["3"]
