"""How OpenSpiel model seats' answers are read (the lenient stage among them) and the answer
schema their `output=json_schema` option sends; numbers in the other games' schemas carry
their bounds."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from agents.llm.loopback import Answer, Incoming, LoopbackServer
from agents.llm.spec import SpecError
from engine.openspiel.rules import RULES, OpenSpielTurn
from events import catalog
from events.agent import LLMCall
from events.config import SeatSpec
from projections.openspiel.view import OpenSpielPrompter, answer_schema, parse_answer
from runner.replay import verify
from runner.session import make_agents, play_game
from tests.llm.helpers import no_network, seat, set_env

GAME = catalog.get("openspiel")


@pytest.fixture(autouse=True)
def llm_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Fake keys, no config file, millisecond backoff."""
    set_env(monkeypatch, tmp_path)


def _decision(preset: str, moves: int = 0) -> OpenSpielTurn:
    """The decision after `moves` first-legal moves of a GTBench game."""
    st, _ = RULES.start(GAME.preset(preset), 1, [SeatSpec(agent="random")] * 2)
    for _ in range(moves):
        d = RULES.pending(st)
        assert d is not None
        st, _ = RULES.step(st, d, [d.legal[0][0]])
    d = RULES.pending(st)
    assert d is not None
    return d


def _id(d: OpenSpielTurn, text: str) -> int:
    legal, texts = d.options(d.seats[0])
    return legal[texts.index(text)]


# ---------------------------------------------------------------------------- reading answers


def test_a_sentence_naming_exactly_one_legal_move_is_read_leniently() -> None:
    d = _decision("tic_tac_toe", moves=1)  # o to move; x(0,0) is taken
    seat_ = d.seats[0]
    assert "o(1,2)" in d.options(seat_)[1]
    got = parse_answer("You can choose to play o(1,2).", d, seat_)
    assert got == (_id(d, "o(1,2)"), "lenient", None)
    # In the action line of a thought, too.
    text = "Thought: the centre is strong.\nAction: I will take o(1,1) now"
    assert parse_answer(text, d, seat_) == (_id(d, "o(1,1)"), "lenient", None)


def test_an_answer_naming_two_legal_moves_is_not_guessed() -> None:
    d = _decision("tic_tac_toe", moves=1)
    action, stage, error = parse_answer("Either o(1,2) or o(2,2) would do.", d, d.seats[0])
    assert (action, stage) == (None, "failed")
    assert error is not None and "several legal actions" in error
    # A move that is not legal any more does not count as a second one.
    text = "x(0,0) is taken, so o(2,2)."
    assert parse_answer(text, d, d.seats[0]) == (_id(d, "o(2,2)"), "lenient", None)


def test_lenient_reading_needs_a_whole_token() -> None:
    d = OpenSpielTurn(seats=(0,), ply=0, legal=((0, 1),), texts=(("Pass", "Bet"),), seed=1)
    assert parse_answer("I bet.", d, 0) == (1, "lenient", None)
    assert parse_answer("Betting is for fools; I pass!", d, 0) == (0, "lenient", None)
    assert parse_answer("I'll check or bet", d, 0)[0] == 1
    assert parse_answer("I would pass or bet", d, 0)[1] == "failed"
    assert parse_answer("Abet", d, 0)[1] == "failed"
    # Nested texts: the longer one holds the shorter, and only the longer is named.
    liars = OpenSpielTurn(
        seats=(0,), ply=0, legal=((0, 1, 2),), texts=(("1-1", "1-1*", "Liar"),), seed=1
    )
    assert parse_answer("I bid 1-1* here", liars, 0) == (1, "lenient", None)


def test_strict_stages_come_first_and_json_is_read() -> None:
    d = OpenSpielTurn(seats=(0,), ply=0, legal=((0, 1),), texts=(("Pass", "Bet"),), seed=1)
    assert parse_answer('{"action": "Bet"}', d, 0) == (1, "json", None)
    assert parse_answer('{"reasoning": "pass is weak", "action": "Bet"}', d, 0) == (
        1,
        "json",
        None,
    )
    assert parse_answer("Action: Pass", d, 0) == (0, "action_line", None)
    assert parse_answer("Bet", d, 0) == (1, "last_line", None)


@pytest.mark.parametrize("preset", ["nim", "liars_dice", "connect_four", "breakthrough"])
def test_every_legal_text_in_a_sentence_reads_as_itself(preset: str) -> None:
    """No legal action's text is read as another one, in GTBench's games."""
    d = _decision(preset, moves=2 if preset != "liars_dice" else 0)
    seat_ = d.seats[0]
    legal, texts = d.options(seat_)
    for a, t in zip(legal, texts, strict=True):
        got = parse_answer(f"After some thought I choose {t} this time.", d, seat_)
        assert got == (a, "lenient", None), (t, got)


# ---------------------------------------------------------------------------- the schema


def test_the_schema_lists_the_legal_actions_as_an_enum() -> None:
    d = _decision("tic_tac_toe", moves=2)
    seat_ = d.seats[0]
    schema = answer_schema(d, seat_, "prompt")
    assert schema == {
        "type": "object",
        "properties": {"action": {"type": "string", "enum": list(d.options(seat_)[1])}},
        "required": ["action"],
        "additionalProperties": False,
    }
    assert list(answer_schema(d, seat_, "cot")["properties"]) == ["reasoning", "action"]


def _schema_of(r: Incoming) -> dict[str, Any] | None:
    fmt = r.body.get("response_format")
    return None if fmt is None else dict(fmt["json_schema"]["schema"])


def _enum_policy(r: Incoming) -> Answer:
    """Answers with the last action the request's schema allows."""
    schema = _schema_of(r)
    assert schema is not None
    return Answer(text=json.dumps({"action": schema["properties"]["action"]["enum"][-1]}))


@pytest.fixture
def enum_server() -> Iterator[LoopbackServer]:
    """A loopback model that picks from the schema's enum."""
    with LoopbackServer(_enum_policy) as s:
        yield s


@pytest.mark.parametrize("preset", ["tic_tac_toe", "kuhn_poker"])
def test_json_schema_seats_get_the_enum_and_their_answers_are_read_as_json(
    enum_server: LoopbackServer, preset: str
) -> None:
    specs = [seat(enum_server, "openai", opts="output=json_schema"), "random"]
    record = play_game(GAME.preset(preset), 4, specs)
    assert record.seats[0].options["output"] == "json_schema"
    requests = list(enum_server.requests)
    assert requests and all(_schema_of(r) is not None for r in requests)
    calls = [e for e in record.events if isinstance(e, LLMCall)]
    assert calls and {c.parse_stage for c in calls} == {"json"}
    with no_network():
        check = verify(record.events)
    assert check.ok, check


def test_a_game_without_an_answer_schema_refuses_the_option_in_one_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delattr(OpenSpielPrompter, "answer_schema")
    config = GAME.preset("tic_tac_toe")
    spec = "openai:m@http://127.0.0.1:9/v1?output=json_schema"
    from runner.session import seat_specs

    with pytest.raises(SpecError) as info:
        make_agents(seat_specs([spec, "random"], GAME), 1, config)
    message = str(info.value)
    assert message == "openspiel has no answer schema: its model seats take output=text only"
    # Without the option the seat is made as usual.
    make_agents(seat_specs(["openai:m@http://127.0.0.1:9/v1", "random"], GAME), 1, config)


# ---------------------------------------------------------------------------- bounds in schemas


def test_numbers_in_schemas_carry_the_games_bounds() -> None:
    from engine.cattle import decisions as dec
    from projections.cattle.observation import SeatView
    from projections.cattle.prompts import answer_schema as cattle_schema
    from projections.pact.view import PactPrompter, PactView

    bid = dec.BidDecision(
        seats=(1, 2),
        auction=1,
        animal="cat",
        auctioneer=0,
        mode="canonical",
        round=2,
        price=40,
        leader=2,
        caps=((1, 60),),
    )
    free = cattle_schema(SeatView(2), bid)["properties"]["amount"]
    assert free == {"type": "integer", "minimum": 50, "multipleOf": 10}
    capped = cattle_schema(SeatView(1), bid)["properties"]["amount"]
    assert capped == {"type": "integer", "minimum": 50, "multipleOf": 10, "maximum": 60}

    pact = catalog.get("pact")
    config = pact.preset("quick")
    from engine.pact.rules import QuoteDecision

    quote = QuoteDecision(seats=(0, 1), round=1, rounds=config.rounds, low=0, high=100)
    schema = PactPrompter().answer_schema(PactView(0), quote)
    assert schema["properties"]["quote"] == {"type": "integer", "minimum": 0, "maximum": 100}
