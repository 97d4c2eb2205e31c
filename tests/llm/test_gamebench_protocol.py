"""GameBench's own model protocol (`style=gamebench`) against the loopback stand-in: its
prompt shape per game (snapshots), three tries then the default, chain of thought as two
calls, RAP's calls, `Explain(heading)` only where GameBench offers it and only inside the
decision, `Explain(action)`; and every game so played verifies from its log."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from syrupy.assertion import SnapshotAssertion

from agents.gamebench.standin import _lists
from agents.llm.loopback import Answer, Incoming, LegalPolicy, LoopbackServer
from agents.llm.spec import SpecError
from events import catalog
from events.agent import ActionDefaulted, LLMCall, ModelDecision
from events.config import SeatSpec
from events.store import DuckStore
from projections.gamebench import protocol as gp
from runner.session import play_and_store, play_game
from runner.verify import check_game

from .helpers import seat

GAMES: dict[str, tuple[str, int]] = {
    "gamebench:air_land_sea": ("standard", 2),
    "gamebench:arctic_scavengers": ("standard", 2),
    "gamebench:are_you_the_traitor": ("quick", 5),
    "gamebench:codenames": ("standard", 4),
    "gamebench:hive": ("short", 2),
    "gamebench:pit": ("quick", 2),
    "gamebench:santorini": ("standard", 2),
    "gamebench:sea_battle": ("standard", 6),
    "gamebench:two_rooms_and_a_boom": ("short", 6),
}
"""Each game, the preset played and its number of seats."""


def _config(name: str) -> Any:
    return catalog.get(name).presets()[GAMES[name][0]]


def _lineup(server: LoopbackServer, name: str, opts: str) -> list[str]:
    """The model in seat 0 (seat 2 in Are You the Traitor?, whose seat 0 is never polled and
    may never be asked), `random` elsewhere."""
    n = GAMES[name][1]
    out = ["random"] * n
    out[2 if name == "gamebench:are_you_the_traitor" else 0] = seat(
        server, "openai", opts=f"style=gamebench&{opts}"
    )
    return out


def _calls(events: Any) -> list[LLMCall]:
    return [e for e in events if isinstance(e, LLMCall)]


def _by_decision(events: Any) -> list[list[LLMCall]]:
    """The calls of each decision, in order (a decision's calls end at its ModelDecision)."""
    out: list[list[LLMCall]] = []
    cur: list[LLMCall] = []
    for e in events:
        if isinstance(e, LLMCall):
            cur.append(e)
        elif isinstance(e, ModelDecision):
            out.append(cur)
            cur = []
    return out


@pytest.fixture
def scripted() -> Iterator[Callable[[Callable[[Incoming], str]], LoopbackServer]]:
    """A loopback server answering with a function of the request."""
    servers: list[LoopbackServer] = []

    def make(fn: Callable[[Incoming], str]) -> LoopbackServer:
        srv = LoopbackServer(lambda req: Answer(text=fn(req)))
        srv.__enter__()
        servers.append(srv)
        return srv

    yield make
    for srv in servers:
        srv.__exit__(None, None, None)


def _keys(req: Incoming) -> tuple[list[str], list[str]]:
    users = "\n".join(str(m.get("content", "")) for m in req.messages if m.get("role") == "user")
    return _lists(users)


def _valid(req: Incoming) -> str:
    predefined, openended = _keys(req)
    if predefined:
        return json.dumps({"action": predefined[0]})
    return json.dumps({"action": openended[0], "openended_response": "zebra,1"})


# ---------------------------------------------------------------------------- every game


def first_prompt(name: str, seed: int = 1) -> tuple[str, str]:
    """The system message and first user message of the GameBench style at the model seat's
    first decision: the rules run with `random` seats until that seat is asked (no server,
    no whole game)."""
    game = catalog.get(name)
    config = _config(name)
    n = GAMES[name][1]
    me = 2 if name == "gamebench:are_you_the_traitor" else 0
    agents = [game.code_agents["random"](s, seed, config) for s in range(n)]
    state, log = game.rules.start(config, seed, [SeatSpec(agent="random")] * n)
    log = list(log)
    view = game.new_view(me)
    prompter = game.prompter.for_seat(type("Options", (), {"mode": "prompt"})())
    while (d := game.rules.pending(state)) is not None:
        if me in d.seats:
            view.sync(log)
            m = gp.menu(prompter, view, d, me)
            book = gp.rule_book(prompter, view)
            keys = gp.headings(name, book)
            return gp.SYSTEM, gp.first_message(book.title, book.summary, keys, m) + gp.closing(m)
        actions = []
        for s in d.seats:
            others = game.new_view(s).sync(log) if agents[s].reads_view else None
            actions.append(agents[s].act(others, d))
        state, events = game.rules.step(state, d, actions)
        log += events
    raise AssertionError(f"seat {me} was never asked")


@pytest.mark.parametrize("name", sorted(GAMES))
def test_prompt_shape(name: str, snapshot: SnapshotAssertion) -> None:
    """The first exchange of a model seat in each game: GameBench's system message, then
    the title and summary, the headings (four games only), `# Observation`, `# Actions`, the
    JSON form, the keys as Python lists and the closing summary."""
    system, user = first_prompt(name)
    assert system == gp.SYSTEM
    assert "\n# Observation\n" in user and "\n# Actions\n" in user
    assert ("Explain(<heading key>)" in user) == (name in gp.HEADINGS_OFFERED)
    assert [("system", system), ("user", user)] == snapshot


def test_prompt_shape_is_what_the_seat_sends(server: LoopbackServer) -> None:
    """The rendering above is the seat's real first request (one game, cheap to play)."""
    name = "gamebench:pit"
    record = play_game(_config(name), 1, _lineup(server, name, "mode=prompt&max_calls=1"))
    first = _calls(record.events)[0]
    assert (first.messages[0].content, first.messages[1].content) == first_prompt(name)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_plays_and_verifies(name: str, server: LoopbackServer, tmp_path: Path) -> None:
    """A stored game of each, the model in the GameBench style (its first 8 calls, then
    the budget's defaults), verifies offline."""
    with DuckStore(tmp_path / "g.duckdb") as store:
        lineup = _lineup(server, name, "mode=cot&max_calls=8")
        gid, record = play_and_store(store, _config(name), 2, lineup)
        check = check_game(store.load_rows(gid))
    assert check.outcome == "verified", check.problem
    calls = _calls(record.events)
    assert calls and all(c.messages[0].content == gp.SYSTEM for c in calls)


# ---------------------------------------------------------------------------- tries


def test_three_tries_then_the_default(scripted: Any, tmp_path: Path) -> None:
    """Unreadable, then an unknown key, then unreadable again: three calls, the default.
    Nothing is said after an unreadable answer; an unknown key gets the valid keys."""
    answers = iter(["no json here", json.dumps({"action": "fly away"}), "{'action'"] * 1000)
    srv = scripted(lambda req: next(answers))
    name = "gamebench:pit"
    lineup = _lineup(srv, name, "mode=prompt&max_calls=10")  # three decisions, then the budget
    with DuckStore(tmp_path / "g.duckdb") as store:
        gid, record = play_and_store(store, _config(name), 1, lineup)
        check = check_game(store.load_rows(gid))
    assert check.outcome == "verified", check.problem
    decisions = [calls for calls in _by_decision(record.events) if calls][:3]
    defaults = [e for e in record.events if isinstance(e, ActionDefaulted)][:3]
    assert len(decisions) == 3
    for calls in decisions:
        assert [c.stage for c in calls] == ["ask", "retry", "retry"]
        assert [len(c.messages) for c in calls] == [2, 3, 5]
        assert calls[1].messages[2].role == "assistant"  # nothing said after "no json here"
        assert "fly away is not a valid action" in calls[2].messages[4].content
    assert all("in 3 answers" in d.reason for d in defaults)


def test_cot_is_two_calls(server: LoopbackServer) -> None:
    """Chain of thought: a call that only reasons, then the closing summary as a new user
    message after the reasoning."""
    name = "gamebench:pit"
    record = play_game(_config(name), 1, _lineup(server, name, "mode=cot"))
    for calls in _by_decision(record.events):
        assert [c.stage for c in calls] == ["reason", "ask"]
        reason, ask = calls
        assert reason.messages[1].content.endswith(gp.REASON)
        assert "In short:" not in reason.messages[1].content
        roles = [m.role for m in ask.messages]
        assert roles == ["system", "user", "assistant", "user"]
        assert ask.messages[2].content == reason.response
        assert ask.messages[3].content.lstrip().startswith("In short:")


# ---------------------------------------------------------------------------- explain


def _explaining(first: str) -> Callable[[Incoming], str]:
    """Asks `first` once per decision (when the conversation holds one user message),
    then answers the first valid key."""

    def fn(req: Incoming) -> str:
        users = [m for m in req.messages if m.get("role") == "user"]
        return json.dumps({"action": first}) if len(users) == 1 else _valid(req)

    return fn


def test_explain_heading_lives_in_the_decision(scripted: Any) -> None:
    """Hive offers headings: `Explain(H1)` uses a try and brings the first heading's rules
    as the next user message; the next decision starts without them and the rules record
    nothing of it."""
    from projections.gamebench.hive import BOOK

    srv = scripted(_explaining("Explain(H1)"))
    name = "gamebench:hive"
    record = play_game(_config(name), 1, _lineup(srv, name, "mode=prompt&max_calls=8"))
    rules = BOOK.text(BOOK.headings[0])
    decisions = [calls for calls in _by_decision(record.events) if calls]
    assert len(decisions) > 2
    for calls in decisions:
        assert [c.stage for c in calls] == ["ask", "retry"]
        assert calls[0].parse_stage == "explain"
        assert calls[1].messages[3].content == rules
        assert rules not in calls[0].messages[1].content
    assert not any("explained" in type(e).__struct_config__.tag for e in record.events)
    defaults = [e for e in record.events if isinstance(e, ActionDefaulted)]
    assert all(d.reason.startswith("budget spent") for d in defaults)


def test_explain_heading_refused_where_gamebench_has_none(scripted: Any) -> None:
    """Pit's rules have no sections in GameBench: no headings are listed and `Explain(H1)`
    is an invalid Explain that uses a try."""
    srv = scripted(_explaining("Explain(H1)"))
    name = "gamebench:pit"
    record = play_game(_config(name), 1, _lineup(srv, name, "mode=prompt&max_calls=8"))
    decisions = [calls for calls in _by_decision(record.events) if calls]
    assert len(decisions) == 4
    for calls in decisions:
        assert "Explain(<heading key>)" not in calls[0].messages[1].content
        assert calls[0].parse_error == "invalid Explain"
        assert calls[1].messages[3].content == "That Explain action cannot be answered."


def test_explain_action_describes_it(scripted: Any) -> None:
    """`Explain(<key>)` answers with the key's description (Codenames' guesses describe
    themselves), in the decision's conversation only."""
    seen: list[str] = []

    def fn(req: Incoming) -> str:
        users = [m for m in req.messages if m.get("role") == "user"]
        predefined = _keys(req)[0]
        if len(users) == 1 and predefined:
            return json.dumps({"action": f"Explain({predefined[0]})"})
        if len(users) == 2:
            seen.append(str(users[1].get("content")))
        return _valid(req)

    srv = scripted(fn)
    name = "gamebench:codenames"
    opts = "style=gamebench&mode=prompt"
    lineup = [seat(srv, "openai", opts=opts)] * 2 + ["random"] * 2
    play_game(_config(name), 1, lineup)
    assert seen and all(s.startswith("Reveal the hidden card ") for s in seen)


# ---------------------------------------------------------------------------- data-era rules


def _stored(name: str, config: Any, seed: int, lineup: list[str], tmp_path: Path) -> Any:
    """Play and store a game; it must verify from its log."""
    with DuckStore(tmp_path / f"{seed}.duckdb") as store:
        gid, record = play_and_store(store, config, seed, lineup)
        check = check_game(store.load_rows(gid))
    assert check.outcome == "verified", check.problem
    return record


def test_sea_battle_turn_is_gamebenchs_eight_actions(scripted: Any, tmp_path: Path) -> None:
    """Under the data-era rules (the default) every turn offers GameBench's eight predefined
    actions by the names its observation gives them, and no open-ended one; the key answered
    is the plan the ship seals, and the prompt shows GameBench's observation (no map)."""
    from engine.gamebench.sea_battle import CHOICES
    from projections.gamebench.sea_battle import LABELS

    seen: list[tuple[list[str], list[str], str]] = []

    def fn(req: Incoming) -> str:
        predefined, openended = _keys(req)
        seen.append((predefined, openended, str(req.messages[1].get("content", ""))))
        return json.dumps({"action": predefined[len(seen) % 8] if predefined else "none"})

    srv = scripted(fn)
    name = "gamebench:sea_battle"
    record = _stored(
        name, _config(name), 1, _lineup(srv, name, "mode=prompt&max_calls=6"), tmp_path
    )
    assert len(seen) == 6
    assert all(p == [LABELS[t] for t in CHOICES] and o == [] for p, o, _ in seen)
    assert all("Further rocks:" in u and "SEA (x across" not in u for _, _, u in seen)
    plans = [e.plan for e in record.events if type(e).__name__ == "SbPlanSealed" and e.seat == 0]
    assert plans[:6] == [CHOICES[(i + 1) % 8] for i in range(6)]
    assert not any(isinstance(e, ActionDefaulted) and e.seat == 0 for e in record.events[:40])


def test_two_rooms_asks_in_gamebenchs_three_calls(scripted: Any, tmp_path: Path) -> None:
    """Under GameBench's talk (the default) a seat picks the room-mate to ask among
    predefined keys, then asks and answers through one open-ended key each; what it answers
    is what the room-mate hears, and nothing defaults."""
    counter = iter(range(1000))
    keys_seen: list[tuple[list[str], list[str]]] = []

    def fn(req: Incoming) -> str:
        predefined, openended = _keys(req)
        keys_seen.append((predefined, openended))
        if predefined:
            return json.dumps({"action": predefined[-1]})
        return json.dumps({"action": openended[0], "openended_response": f"words {next(counter)}"})

    srv = scripted(fn)
    name = "gamebench:two_rooms_and_a_boom"
    record = _stored(name, _config(name), 1, _lineup(srv, name, "mode=prompt"), tmp_path)
    events = list(record.events)
    assert not any(isinstance(e, ActionDefaulted) for e in events)
    opened = {tuple(o) for p, o in keys_seen if not p}
    assert opened == {("question",), ("answer",)}
    names = next(e for e in events if type(e).__name__ == "TrSetUp").names
    picks = [e for e in events if type(e).__name__ == "TrAskedWhom" and e.seat == 0]
    asks = [p for p, _ in keys_seen if p and p[0].startswith("Ask ")]
    assert picks and [f"Ask {names[e.to]}" for e in picks] == [p[-1] for p in asks]
    spoken = [e for e in events if type(e).__name__ in ("TrAsked", "TrAnswered") and e.seat == 0]
    assert spoken and all(e.text.startswith("words ") for e in spoken)


def test_air_land_sea_abilities_in_the_style(scripted: Any, tmp_path: Path) -> None:
    """Under GameBench's program's rules (the default) every ability a seat is asked about
    is a decision of predefined keys, numbered from 0 as GameBench numbers them, the
    Disrupt's choice of the other player's flip included, and the seat's answers play without
    a default."""
    srv = scripted(lambda req: json.dumps({"action": (_keys(req)[0] or ["none"])[0]}))
    name = "gamebench:air_land_sea"
    other = []
    for seed in (1, 2, 6):
        lineup = _lineup(srv, name, "mode=prompt&max_calls=40")
        record = _stored(name, _config(name), seed, lineup, tmp_path)
        assert not any(isinstance(e, ActionDefaulted) for e in record.events)
        calls = _calls(record.events)
        assert {c.decision for c in calls} - {"turn"}
        for c in calls:
            keys = _lists(c.messages[1].content)[0]
            assert keys == [str(i) for i in range(len(keys))] or c.decision in ("turn", "play")
            assert all(k.isdigit() for k in keys)
        other += [
            c
            for c in calls
            if c.decision == "disrupt"
            and "uncovered card of the other player's" in str(c.messages[1].content)
        ]
    assert other


# ---------------------------------------------------------------------------- RAP


def _planner(req: Incoming) -> str:
    """A stand-in whose predictions never change: the same next state, two actions, yes, and
    always the first action listed."""
    last = req.last
    if last.rstrip().endswith(("yes/no.", "yes/no")):
        return "yes"
    if "write its number" in last:
        return "0"
    if "between <actions> and </actions>" in last:
        return "<actions>\nPlay on\nWait\n</actions>"
    if "between <others> and </others>" in last:
        return "<others>They wait.</others>"
    if "between <state> and </state>" in last:
        return "<state>\nThe same board.\n</state>"
    return "a move"


def _one_round(preset: str = "short") -> Any:
    """A Two Rooms game of one round (RAP's calls make each decision dear)."""
    from msgspec.structs import replace

    return replace(catalog.get("gamebench:two_rooms_and_a_boom").presets()[preset], rounds=1)


def test_rap_calls(scripted: Any, tmp_path: Path) -> None:
    """With predictions that never change, each decision of N actions costs N + 1 calls to
    weigh the root's actions (one pick, N evaluations), 7 to expand the first (the others'
    actions, the next state, the chance of winning, its two actions, one pick, two
    evaluations) and 3 to step once more; every later iteration follows the same path from
    the cache. The first action is played."""
    srv = scripted(_planner)
    name = "gamebench:two_rooms_and_a_boom"
    with DuckStore(tmp_path / "g.duckdb") as store:
        gid, record = play_and_store(store, _one_round(), 1, _lineup(srv, name, "mode=rap"))
        check = check_game(store.load_rows(gid))
    assert check.outcome == "verified", check.problem  # the search replays from its log
    decisions = _by_decision(record.events)
    assert len(decisions) >= 2
    for calls in decisions:
        root = next(c for c in calls if c.stage == "rap_select")
        stages = [c.stage for c in calls]
        opened = stages.count("rap_openended")  # an open-ended key's response, asked first
        assert stages.count("rap_eval") == _root_size(root) + 2
        assert len(calls) == opened + _root_size(root) + 11, stages
    assert not any(isinstance(e, ActionDefaulted) for e in record.events)


def _root_size(select: LLMCall) -> int:
    """The number of actions the root's pick lists."""
    text = select.messages[1].content
    return len([ln for ln in text.splitlines() if ln[:1].isdigit()])


def test_rap_plays_the_first_action_and_fails_to_the_default(scripted: Any) -> None:
    """The search's path starts with the action the model picks; predicted actions that
    cannot be read below the root end the decision in its default, as GameBench's agent
    returns no action then."""
    from engine.gamebench.two_rooms import RULES, AskWhomTurn

    srv = scripted(_planner)
    name = "gamebench:two_rooms_and_a_boom"
    record = play_game(_one_round(), 1, _lineup(srv, name, "mode=rap"))
    events = list(record.events)
    # The pick is always 0: under GameBench's talk (the default) the first listed key is the
    # room-mate first by name, and a question or an answer is the open-ended key's response.
    picks = [i for i, e in enumerate(events) if type(e).__name__ == "TrAskedWhom" and e.seat == 0]
    assert picks
    for i in picks:
        d = RULES.pending(RULES.fold(events[:i]))
        assert isinstance(d, AskWhomTurn)
        assert events[i].to == min(d.legal, key=lambda a: d.names[a.to]).to
    spoken = [e for e in events if type(e).__name__ in ("TrAsked", "TrAnswered") and e.seat == 0]
    assert spoken and all(e.text == "a move" for e in spoken)
    # Under open talk the first listed key is keeping quiet.
    record = play_game(_one_round("open_short"), 1, _lineup(srv, name, "mode=rap"))
    quiet = [e for e in record.events if type(e).__name__ == "TrKeptQuiet" and e.seat == 0]
    said = [e for e in record.events if type(e).__name__ == "TrSaid" and e.seat == 0]
    assert quiet and not said

    def broken(req: Incoming) -> str:
        if "between <actions> and </actions>" in req.last:
            return "I cannot tell."
        return _planner(req)

    srv2 = scripted(broken)
    record2 = play_game(_one_round(), 1, _lineup(srv2, name, "mode=rap"))
    defaults = [e for e in record2.events if isinstance(e, ActionDefaulted)]
    assert defaults and all("planner failed" in d.reason for d in defaults)


# ---------------------------------------------------------------------------- options


def test_style_is_part_of_the_name_and_checked(server: LoopbackServer) -> None:
    """`style=gamebench` names another agent; the project's own style stays the default and
    is left out of names; the style refuses other families, sc-cot and structured output,
    and `mode=rap` needs it."""
    from agents.llm.spec import parse_model_spec

    assert parse_model_spec("openai:m?style=gamebench").agent == "openai:m?style=gamebench"
    assert parse_model_spec("openai:m?style=cattle").agent == "openai:m"
    with pytest.raises(SpecError):
        parse_model_spec("openai:m?style=textarena")
    name = "gamebench:pit"
    for opts in ("mode=sc-cot", "output=json_schema"):
        with pytest.raises(SpecError):
            play_game(_config(name), 1, _lineup(server, name, opts))
    with pytest.raises(SpecError):
        play_game(_config(name), 1, [seat(server, "openai", opts="mode=rap"), "random"])
    from engine.cattle.presets import load_preset

    with pytest.raises(SpecError):
        play_game(
            load_preset("micro-duel"), 1, [seat(server, "openai", opts="style=gamebench"), "random"]
        )
    assert LegalPolicy  # the default stand-in plays the style (test_every_game_plays_...)


def test_reparse_leaves_the_style_alone(server: LoopbackServer) -> None:
    """`cattle reparse` rereads answers with the game's own parser, which is not how the
    style reads them: a seat of the style plays its record and is not reread."""
    from runner.reparse import reparse

    name = "gamebench:pit"
    record = play_game(_config(name), 1, _lineup(server, name, "mode=prompt&max_calls=4"))
    assert _calls(record.events)
    assert reparse([("g", list(record.events))]) == []


def test_a_prompter_without_labels_lists_the_actions_as_json() -> None:
    """A game whose prompter has no labels but whose decision lists its actions (as Sea
    Battle's eight a turn may) is shown its whole prompt, each action's JSON a key."""
    from types import SimpleNamespace

    from engine.gamebench.hive import Pass, Place
    from projections.gamebench.common import PrompterBase, RuleBook

    class Bare(PrompterBase):
        def decision_prompt(self, view: Any, decision: Any, memory: str, rejection: Any) -> str:
            return "the whole prompt"

    d = SimpleNamespace(legal=(Pass(), Place(bug="Q", q=0, r=0)), kind="turn")
    m = gp.menu(Bare(), None, d, 0)
    assert m.observation == "the whole prompt"
    assert [c.key for c in m.predefined] == [
        '{"type":"pass"}',
        '{"type":"place","bug":"Q","q":0,"r":0}',
    ]
    book = RuleBook(title="t", summary="s", sections=())
    read = gp.read(json.dumps({"action": m.predefined[1].key}), m, {}, book)
    assert (read.kind, read.action) == ("action", Place(bug="Q", q=0, r=0))


def _small_menu() -> gp.Menu:
    return gp.Menu(
        observation="o",
        instructions="i",
        predefined=(gp.Choice("go", "Go on.", "GO"),),
        openended=(gp.Choice("say", "Say something."),),
        read=lambda key, text: (("SAY", text), None) if text else (None, "empty"),
    )


def test_reading_answers_as_gamebench_does() -> None:
    """A Python literal with `action`; an open-ended key needs its response; JSON's `true`
    is no Python literal; headings only where the game has them; an unknown key is an
    error naming the valid keys."""
    from projections.gamebench.common import RuleBook

    m = _small_menu()
    book = RuleBook(title="t", summary="s", sections=(("Moving", "Bugs move."),))
    keys = {"H1": "Moving"}
    assert gp.read("{'action': 'go'}", m, keys, book).action == "GO"
    assert gp.read('{"action": "say", "openended_response": "hi"}', m, keys, book).action == (
        "SAY",
        "hi",
    )
    assert gp.read('{"action": "say"}', m, keys, book).kind == "error"
    assert gp.read('{"action": "go", "x": true}', m, keys, book).kind == "invalid"
    assert gp.read('{"action": "Explain(H1)"}', m, keys, book).reply == "Bugs move."
    assert gp.read('{"action": "Explain(H1)"}', m, {}, book).error == "invalid Explain"
    assert gp.read('{"action": "Explain(go)"}', m, keys, book).reply == "Go on."
    assert gp.read('{"action": "say", "openended_response": ""}', m, keys, book).kind == "unread"
    wrong = gp.read('{"action": "stay"}', m, keys, book)
    assert wrong.kind == "error" and "['go', 'say']" in (wrong.reply or "")


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300) | st.builds(lambda a: json.dumps({"action": a}), st.text(max_size=40)))
def test_reading_never_raises(text: str) -> None:
    """Whatever a model answers, the reading says what it was (never an exception)."""
    from projections.gamebench.common import RuleBook

    book = RuleBook(title="t", summary="s", sections=(("Moving", "Bugs move."),))
    reading = gp.read(text, _small_menu(), {"H1": "Moving"}, book)
    assert reading.kind in ("action", "unread", "explain", "invalid", "error")


def test_calls_per_decision_bounds_every_style(server: LoopbackServer) -> None:
    """The dry run's bound per decision: the project's 3 (x samples), GameBench's three
    tries, four with chain of thought, none for RAP; and a played decision keeps to it."""
    from agents.llm.spec import calls_per_decision, parse_model_spec, resolve

    def per(opts: str) -> int | None:
        return calls_per_decision(resolve(parse_model_spec(f"openai:m?{opts}")), "gamebench:pit")

    assert per("mode=prompt") == 3 and per("mode=sc-cot&samples=4") == 12
    assert per("style=gamebench") == 3 and per("style=gamebench&mode=cot") == 4
    assert per("style=gamebench&mode=rap") is None
    name = "gamebench:pit"
    record = play_game(_config(name), 1, _lineup(server, name, "mode=cot&max_calls=12"))
    assert all(len(calls) <= 4 for calls in _by_decision(record.events))
