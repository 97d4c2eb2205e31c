"""Prompt snapshots: the system prompt and every decision prompt, as each SDK sent them."""

from __future__ import annotations

import pytest
from syrupy.assertion import SnapshotAssertion

from engine.presets import load_preset
from projections.prompts import CHARACTERS, format_retry_prompt, system_prompt

from .conftest import Golden

KINDS = ("turn", "bid", "sale", "initiate_trade", "respond_trade", "tie_offer", "scratchpad")


@pytest.mark.parametrize("preset", ["standard", "micro-duel", "marathon"])
def test_system_prompt(preset: str, snapshot: SnapshotAssertion) -> None:
    assert system_prompt(load_preset(preset)) == snapshot


def test_characters(snapshot: SnapshotAssertion) -> None:
    assert snapshot == CHARACTERS
    fast = system_prompt(load_preset("standard", auction_mode="fast"), "quartet_closer")
    legacy = system_prompt(load_preset("standard", auction_mode="legacy"), "bluffer")
    assert (fast, legacy) == snapshot


def test_retry_prompts(snapshot: SnapshotAssertion) -> None:
    assert [format_retry_prompt(k, '"amount" is missing') for k in KINDS[:-1]] == snapshot


@pytest.mark.parametrize("protocol", ["openai", "anthropic"])
@pytest.mark.parametrize("kind", KINDS)
def test_request_payloads(
    golden: Golden, protocol: str, kind: str, snapshot: SnapshotAssertion
) -> None:
    """An early request of each kind in the golden standard game, as received over HTTP.

    Bidders of a round are asked concurrently, so the server's arrival order varies between
    runs; each seat's own requests come in a fixed order, so the pick goes by seat (model).
    """
    per_model: dict[str, int] = {}
    candidates = []
    for r in golden.requests:
        model = str(r.body.get("model"))
        index = per_model.get(model, 0)
        per_model[model] = index + 1
        if r.protocol == protocol and r.kind == kind and r.stage == "ask" and index > 12:
            candidates.append((model, index, r))
    _, _, first = min(candidates, key=lambda c: (c[0], c[1]))
    assert first.body == snapshot
