"""Numbers are read as each game's own grammar writes them (docs/llm.md, error handling):
a Cattle Trade amount that is not a whole number is refused, not cut to its whole part, and a
PACT quote picked out of prose inside a JSON string is a lenient reading (`repaired`)."""

from __future__ import annotations

import pytest

from agents.cattle.parse import parse_answer as parse_cattle
from agents.llm.outcome import classify
from agents.pact.bots import parse_answer as parse_pact
from engine.cattle.decisions import BidDecision
from engine.pact.rules import QuoteDecision
from events.agent import LLMCall

BID = BidDecision(
    seats=(1,), auction=1, animal="cow", auctioneer=0, mode="canonical", round=0,
    price=20, leader=None,
)  # fmt: skip
QUOTE = QuoteDecision(seats=(0, 1), round=1, rounds=20, low=0, high=100)


def _class(text: str, stage: str) -> str:
    """The outcome class of a decision whose one answer was read at `stage`."""
    call = LLMCall(
        seat=1, decision="quote", stage="ask", attempt=1, provider="openai", model="m",
        response=text, parse_stage=stage,
    )  # fmt: skip
    return classify([call], None)


@pytest.mark.parametrize(
    "text",
    [
        '{"action": "bid", "amount": 45.9}',
        '{"action": "bid", "amount": "45.9"}',
        '{"action": "bid", "amount": "45.9 coins"}',
        "action: bid, amount: 45.9",
        '{"action": "bid", "amount": 0.5}',
    ],
)
def test_a_cattle_amount_that_is_not_whole_is_refused(text: str) -> None:
    action, _, error = parse_cattle(text, BID, 1)
    assert action is None and error is not None and "whole number" in error


@pytest.mark.parametrize(
    ("text", "amount"),
    [('{"action": "bid", "amount": 45.0}', 45), ('{"action": "bid", "amount": "50"}', 50)],
)
def test_a_whole_cattle_amount_is_its_value(text: str, amount: int) -> None:
    action, stage, error = parse_cattle(text, BID, 1)
    assert error is None and stage == "json" and getattr(action, "amount", None) == amount


@pytest.mark.parametrize(
    ("text", "price"),
    [
        ('{"quote": "about 50"}', 50),
        ('{"quote": "I bid 42 coins"}', 42),
        ('Sure: {"quote": "maybe 17"}', 17),
    ],
)
def test_a_pact_quote_read_out_of_words_in_a_json_string_is_repaired(text: str, price: int) -> None:
    action, stage, error = parse_pact(text, QUOTE, 1)
    assert error is None and getattr(action, "price", None) == price
    assert stage == "number" and _class(text, stage) == "repaired"


@pytest.mark.parametrize(
    ("text", "stage", "outcome"),
    [
        ('{"quote": "50"}', "json", "ok"),
        ('{"quote": 50}', "json", "ok"),
        ('x {"quote": " 50 "}', "last_object", "repaired"),
    ],
)
def test_a_pact_quote_that_is_only_a_number_keeps_its_stage(
    text: str, stage: str, outcome: str
) -> None:
    action, got, error = parse_pact(text, QUOTE, 1)
    assert error is None and getattr(action, "price", None) == 50
    assert got == stage and _class(text, got) == outcome
