"""Are You the Traitor? under GameBench's protocol (`style=gamebench`, edition 4 of the
prompts): the question and the stop poll each take GameBench's two calls (whom, then `skip`
or `openended`; `STOP` or `Pass`, then whom), the first answer deciding the second call's
menu; tries and defaults as in every other call of the style; the stand-in answers both;
games so played verify offline; a seat of edition 3 keeps its one call."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from syrupy.assertion import SnapshotAssertion

from agents.gamebench.standin import _lists
from agents.llm.loopback import Answer, Incoming, LegalPolicy, LoopbackServer
from engine.gamebench.traitor import AskDecision, Pass, Stop, StopDecision
from events import catalog
from events.agent import ActionDefaulted, LLMCall, ModelDecision
from events.config import SeatSpec
from events.gamebench import traitor as te
from events.store import DuckStore
from projections.gamebench import protocol as gp
from runner.session import play_and_store
from runner.verify import check_game

from .helpers import seat

NAME = "gamebench:are_you_the_traitor"
ME = 2
"""The model's seat: the good wizard's team, so it is polled (the traitor never is)."""


def _config() -> Any:
    return catalog.get(NAME).presets()["quick"]


def _lineup(srv: LoopbackServer, opts: str) -> list[str]:
    out = ["random"] * 5
    out[ME] = seat(srv, "openai", opts=f"style=gamebench&{opts}")
    return out


def _decisions(events: Any) -> list[tuple[list[LLMCall], list[Any]]]:
    """Each decision of the model seat: its calls and the game events that followed it up to
    the next model call (the action's own events first)."""
    out: list[tuple[list[LLMCall], list[Any]]] = []
    cur: list[LLMCall] = []
    for e in events:
        if isinstance(e, LLMCall):
            cur.append(e)
        elif isinstance(e, ModelDecision):
            out.append((cur, []))
            cur = []
        elif out and not cur:
            out[-1][1].append(e)
    return out


@pytest.fixture
def scripted() -> Iterator[Callable[[Callable[[Incoming], str]], LoopbackServer]]:
    servers: list[LoopbackServer] = []

    def make(fn: Callable[[Incoming], str]) -> LoopbackServer:
        srv = LoopbackServer(lambda req: Answer(text=fn(req)))
        srv.__enter__()
        servers.append(srv)
        return srv

    yield make
    for srv in servers:
        srv.__exit__(None, None, None)


# ------------------------------------------------------------------------- the prompts


def _menus(seed: int) -> tuple[dict[str, gp.Menu], dict[str, Any]]:
    """The model seat's first question and first stop poll of a `random` game, each menu
    with the menu of its second call (the first key), rendered in process."""
    game = catalog.get(NAME)
    config = _config()
    agents = [game.code_agents["random"](s, seed, config) for s in range(5)]
    state, log = game.rules.start(config, seed, [SeatSpec(agent="random")] * 5)
    log = list(log)
    prompter = game.prompter.for_seat(type("Options", (), {"mode": "prompt"})())
    found: dict[str, gp.Menu] = {}
    asked: dict[str, Any] = {}
    while (d := game.rules.pending(state)) is not None and len(found) < 4:
        s = d.seats[0]
        view = game.new_view(s)
        view.sync(log)
        if s == ME and isinstance(d, AskDecision | StopDecision) and d.kind not in found:
            m = gp.menu(prompter, view, d, ME)
            step = next(c.action for c in m.predefined if isinstance(c.action, gp.Step))
            assert m.then is not None
            found[d.kind] = m
            asked[d.kind] = d
            found[d.kind + "2"] = m.then(step.value)
        state, events = game.rules.step(state, d, [agents[s].act(view, d)])
        log += events
    return found, asked


MENUS = _menus(2)
"""The menus of seed 2's first question and stop poll (rendered once for the module)."""


def _text(m: gp.Menu) -> str:
    """The call's user message as the seat sends it (no headings in this game)."""
    from projections.gamebench.traitor import book

    rules = book(_config())
    return gp.first_message(rules.title, rules.summary, {}, m) + gp.closing(m)


def test_both_calls_prompts(snapshot: SnapshotAssertion) -> None:
    """What the model reads in each of the two calls of a question and of a stop poll:
    GameBench's keys (the other players, then `skip` and `openended`; `STOP` and `Pass`,
    then the other players), the second call naming the first call's choice."""
    menus, decisions = MENUS
    assert sorted(menus) == ["ask", "ask2", "stop", "stop2"]
    ask, ask2, stop, stop2 = (menus[k] for k in ("ask", "ask2", "stop", "stop2"))
    chosen = ask.predefined[0].key
    assert all(re.fullmatch(r"[A-E]", c.key) for c in ask.predefined) and not ask.openended
    assert ([c.key for c in ask2.predefined], [c.key for c in ask2.openended]) == (
        ["skip"],
        ["openended"],
    )
    assert f"Player {chosen}." in ask2.instructions
    assert [c.key for c in stop.predefined] == ["STOP", "Pass"] and not stop.openended
    stops = [a for a in decisions["stop"].legal if isinstance(a, Stop)]
    assert [(c.key, c.action) for c in stop2.predefined] == [(a.accused, a) for a in stops]
    assert all(isinstance(c.action, Pass) for c in stop.predefined[1:])
    assert {k: _text(m) for k, m in menus.items()} == snapshot


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=80))
def test_any_text_is_the_question_to_the_player_chosen(text: str) -> None:
    """Whatever the second call's `openended` response, it is the question, put to the
    player the first call chose (GameBench hands the response on as written); `skip` is the
    question of no words to that player."""
    menus, _ = MENUS
    ask, ask2 = menus["ask"], menus["ask2"]
    chosen = ask.predefined[0].key
    book = gp.RuleBook("t", "s", ())
    # Characters written as they are: GameBench's reader (a Python literal) would read a JSON
    # escape of a character beyond the basic plane as two surrogates.
    answer = json.dumps({"action": "openended", "openended_response": text}, ensure_ascii=False)
    reading = gp.read(answer, ask2, {}, book)
    assert reading.kind == "action"
    assert (reading.action.to, reading.action.text) == (chosen, text.strip())
    skipped = gp.read(json.dumps({"action": "skip"}), ask2, {}, book).action
    assert (skipped.to, skipped.text) == (chosen, "")


# ------------------------------------------------------------------------- played games


def test_the_stand_in_plays_two_calls_and_the_game_verifies(tmp_path: Path) -> None:
    """Against the loopback stand-in (chain of thought): a question is two calls (`reason`,
    `ask`, then `reason2`, `ask2`), the player named in the first is the one asked, and the
    text of the second is the question; a stop poll is one call for `Pass`, two for `STOP`,
    the second naming the accused; the stored game verifies from its log."""
    with LoopbackServer(LegalPolicy()) as srv, DuckStore(tmp_path / "g.duckdb") as store:
        gid, record = play_and_store(store, _config(), 21, _lineup(srv, "mode=cot"))
        check = check_game(store.load_rows(gid))
    assert check.outcome == "verified", check.problem
    seen = {"ask": 0, "pass": 0, "stop": 0}
    for calls, after in _decisions(record.events):
        stages = [c.stage for c in calls]
        answers = [json.loads(c.response) for c in calls if c.stage.startswith("ask")]
        if calls[0].decision == "ask":
            seen["ask"] += 1
            assert stages == ["reason", "ask", "reason2", "ask2"]
            asked = next(e for e in after if isinstance(e, te.AytAsked))
            assert asked.to == answers[0]["action"]
            assert f"to Player {asked.to}." in calls[2].messages[1].content
            said = answers[1].get("openended_response", "")
            assert asked.text == (said if answers[1]["action"] == "openended" else "")
        elif calls[0].decision == "stop" and answers[0]["action"] == "Pass":
            seen["pass"] += 1
            assert stages == ["reason", "ask"]
            assert isinstance(after[0], te.AytPassed)
        elif calls[0].decision == "stop":
            seen["stop"] += 1
            assert stages == ["reason", "ask", "reason2", "ask2"]
            assert isinstance(after[0], te.AytStopped)
            assert after[0].accused == answers[1]["action"]
    assert all(seen.values()), seen


def test_rap_searches_each_call(tmp_path: Path) -> None:
    """Under RAP each of the two calls is a search of its own: after `STOP` the second search
    starts from the question of whom to accuse, and the accused is a key of that search; the
    stored game verifies."""
    with LoopbackServer(LegalPolicy()) as srv, DuckStore(tmp_path / "g.duckdb") as store:
        gid, record = play_and_store(store, _config(), 4, _lineup(srv, "mode=rap"))
        check = check_game(store.load_rows(gid))
    assert check.outcome == "verified", check.problem
    stops = 0
    for calls, after in _decisions(record.events):
        stopped = after[:1] if isinstance(after[0], te.AytStopped) else []
        if not stopped:
            continue
        stops += 1
        roots = [c for c in calls if c.stage == "rap_select"]
        second = [c for c in roots if any("You called stop." in m.content for m in c.messages)]
        assert roots[0] not in second and second  # the poll's search, then the accusation's
        listed = second[0].messages[1].content
        assert re.search(rf"^\d+\. {stopped[0].accused}$", listed, re.MULTILINE), listed
    assert stops > 0


def _answering(script: dict[str, list[str]]) -> Callable[[Incoming], str]:
    """Answers each kind of call (by its keys) with the next answer of its script, then with
    its first key."""

    def fn(req: Incoming) -> str:
        predefined, _ = _lists(req.prompt)  # the call's own keys, not an error's list
        kind = (
            "whom"
            if predefined and all(re.fullmatch(r"[A-E]", k) for k in predefined)
            else "question"
            if predefined == ["skip"]
            else "poll"
            if predefined == ["STOP", "Pass"]
            else "answer"
        )
        left = script.get(kind, [])
        if left:
            return left.pop(0)
        if kind == "answer":
            return json.dumps({"action": "openended", "openended_response": "no"})
        return json.dumps({"action": predefined[0]})

    return fn


def test_each_call_has_its_own_three_tries(scripted: Any, tmp_path: Path) -> None:
    """An unreadable answer and an unknown key cost the first call two tries; the second call
    starts a conversation of its own (`ask2`, `retry2`) with three tries; three bad answers
    there play the decision's default (a wordless question: the rules pick the player), and
    the game verifies."""
    bad = ["not json", json.dumps({"action": "Z"})]
    srv = scripted(
        _answering(
            {
                "whom": [*bad],
                "question": [json.dumps({"action": "openended"})] * 3,
                "poll": [json.dumps({"action": "STOP"})],
            }
        )
    )
    with DuckStore(tmp_path / "g.duckdb") as store:
        gid, record = play_and_store(store, _config(), 2, _lineup(srv, "mode=prompt"))
        check = check_game(store.load_rows(gid))
    assert check.outcome == "verified", check.problem
    asks = [
        (calls, after) for calls, after in _decisions(record.events) if calls[0].decision == "ask"
    ]
    calls, after = asks[0]
    assert [c.stage for c in calls] == ["ask", "retry", "retry", "ask2", "retry2", "retry2"]
    assert [len(c.messages) for c in calls] == [2, 3, 5, 2, 4, 6]
    assert "Z is not a valid action" in calls[2].messages[4].content
    assert calls[3].messages[1].content.count("# Observation") == 1  # a fresh conversation
    assert "needs an 'openended_response'" in calls[4].messages[3].content
    defaulted = next(e for e in record.events if isinstance(e, ActionDefaulted))
    assert defaulted.decision == "ask" and "in 3 answers" in defaulted.reason
    assert any(isinstance(e, te.AytRequestRefused) for e in after)  # the wordless question
    assert next(e for e in after if isinstance(e, te.AytAsked)).text == ""
    # Later questions answer at once: two calls.
    assert all([c.stage for c in calls] == ["ask", "ask2"] for calls, _ in asks[1:])


def test_a_seat_of_edition_three_asks_once_and_verifies(tmp_path: Path) -> None:
    """Stored seats of edition 3 were asked each decision in one call under the project's
    keys (`Ask Player B`, `Stop Player C`); their games replay so."""
    with LoopbackServer(LegalPolicy()) as srv, DuckStore(tmp_path / "g.duckdb") as store:
        gid, record = play_and_store(store, _config(), 5, _lineup(srv, "prompts=3"))
        check = check_game(store.load_rows(gid))
    assert check.outcome == "verified", check.problem
    decisions = _decisions(record.events)
    assert decisions and all([c.stage for c in calls] == ["ask"] for calls, _ in decisions)
    text = "\n".join(c.messages[1].content for calls, _ in decisions for c in calls)
    assert "'Stop Player" in text or "'Ask Player" in text
    assert "'STOP'" not in text and "'skip'" not in text


def test_calls_per_decision_counts_the_second_call() -> None:
    """The dry run's bound: two calls' tries in Are You the Traitor? from edition 4 (and in
    a game left unnamed), one call's elsewhere and in edition 3."""
    from agents.llm.spec import calls_per_decision, parse_model_spec, resolve

    def per(opts: str, game: str | None) -> int | None:
        return calls_per_decision(resolve(parse_model_spec(f"openai:m?{opts}")), game)

    assert per("style=gamebench", NAME) == 6 and per("style=gamebench&mode=cot", NAME) == 8
    assert per("style=gamebench", None) == 6
    assert per("style=gamebench", "gamebench:pit") == 3
    assert per("style=gamebench&prompts=3", NAME) == 3
    assert per("style=gamebench&mode=rap", NAME) is None
