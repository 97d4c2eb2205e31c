"""How a typed line becomes an action: numbers, words, fields in order, the parser's reasons."""

from __future__ import annotations

from typing import Any

import pytest

from agents import make_agents, parse_spec
from agents.human.agent import HumanSpecError, parse_human_spec, read_line
from events import catalog
from runner.driver import Game


def first_decision(game: str, preset: str, seat_after: int = 0) -> tuple[Any, Any, Any, int]:
    """(prompter, schema, decision, seat) of the first decision after `seat_after` steps."""
    g = catalog.get(game)
    config = g.preset(preset)
    run = Game(config, 1, make_agents(["random"] * config.players, 1, config))
    run._start()
    for _ in range(seat_after):
        d = run.rules.pending(run.state)
        run._apply(d, [run.agents[s].act(run.view(s), d) for s in d.seats])
    d = run.rules.pending(run.state)
    seat = d.seats[0]
    assert g.prompter is not None
    schema = g.prompter.answer_schema(run.view(seat), d)  # type: ignore[attr-defined]
    return g.prompter, schema, d, seat


@pytest.fixture(scope="module")
def bid() -> tuple[Any, Any, Any, int]:
    return first_decision("cattle-trade", "micro-duel")


def test_a_number_picks_a_listed_choice_and_words_fill_the_fields(bid: Any) -> None:
    prompter, schema, d, seat = bid
    assert d.kind == "bid"
    assert (
        read_line(prompter, "2", d, seat, schema)[0]
        == read_line(prompter, "pass", d, seat, schema)[0]
    )
    assert read_line(prompter, "1 30", d, seat, schema)[0].amount == 30
    assert read_line(prompter, "bid 40", d, seat, schema)[0].amount == 40
    assert read_line(prompter, '{"action": "bid", "amount": 20}', d, seat, schema)[0].amount == 20


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("", "empty answer"),
        ("3", "no choice numbered 3 (1 to 2)"),
        ("bid", '"amount" is missing for a bid'),
        ("foo 20", '"action" must be "bid" or "pass"'),
    ],
)
def test_a_refused_line_says_why(bid: Any, line: str, reason: str) -> None:
    prompter, schema, d, seat = bid
    action, _, error = read_line(prompter, line, d, seat, schema)
    assert action is None
    assert error is not None and error.startswith(reason)


def test_human_specs() -> None:
    spec = parse_spec("human:ann?timeout=30", "openspiel")
    assert spec.agent == "human:ann" and spec.options == {"timeout": 30.0}
    assert parse_spec("human", "pact").options == {"timeout": 300.0}
    for bad in ("human?timeout=-1", "human?speed=2", "human:a b", "human?timeout=x"):
        with pytest.raises(HumanSpecError):
            parse_human_spec(bad)
