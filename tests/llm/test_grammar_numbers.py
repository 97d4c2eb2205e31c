"""Numbers are read as each game's own grammar writes them (docs/llm.md, error handling):
a Cattle Trade amount that is not a whole number is refused, not cut to its whole part, and a
PACT quote picked out of prose inside a JSON string is a lenient reading (`repaired`)."""

from __future__ import annotations

import pytest

from agents.cattle.parse import parse_answer as parse_cattle
from engine.cattle.decisions import BidDecision

BID = BidDecision(
    seats=(1,), auction=1, animal="cow", auctioneer=0, mode="canonical", round=0,
    price=20, leader=None,
)  # fmt: skip


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
