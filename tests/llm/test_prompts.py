"""Prompt snapshots: the system prompt and every decision prompt, as each SDK sent them."""

from __future__ import annotations

import re

import pytest
from syrupy.assertion import SnapshotAssertion

from engine.cattle.presets import load_preset
from projections.cattle.prompts import CHARACTERS, format_retry_prompt, system_prompt

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


# The fields of the observation (App. C) and of each decision prompt (App. D), as worded here.
OBSERVATION_FIELDS = (
    "=== GAME STATE (you are Player ",  # who the seat is
    "Turn: ",  # turn number
    "Cards left in the deck: ",  # deck size
    "YOUR HAND:",
    "  Money: ",  # own money, total
    "  Money cards: ",  # own money cards, exact denominations
    "  Animals: ",  # own animals with counts
    "OTHER PLAYERS:",  # every opponent's animals and money-card count
    " money cards",
    "VALID KUHHANDEL TARGETS:",  # pre-computed trade targets
    "RECENT TURNS (as you saw them):",  # memory: recent history, turn by turn
    "YOUR NOTES:",  # memory: the scratchpad (full memory)
)
DECISION_FIELDS: dict[str, tuple[str | tuple[str, ...], ...]] = {
    "turn": ("It's your turn", "1. AUCTION", "2. KUHHANDEL", '"action": "auction" or "kuhhandel"'),
    "bid": (
        "CANONICAL AUCTION",
        ("Round ", "Confirmation round"),
        "- Card: ",
        "(set value: ",
        "- Current price: ",
        "- Current winner: ",
        "- You have: ",
        "- Your money: ",
        "You may bid more than you can pay",
        "the auction restarts from 0",
        "bids must be multiples of 10",
        '"action": "bid" or "pass", "amount": <multiple of 10>',
    ),
    "sale": (
        "BUY-RIGHT DECISION (you are the auctioneer)",
        "- Card: ",
        "- Highest bid: ",
        "- You have: ",
        "- Your money: ",
        "- SELL: ",
        "- BUY_RIGHT: ",
        '"decision": "sell" or "buy_right"',
    ),
    "initiate_trade": (
        "KUHHANDEL - choose a target and make your offer",
        "Valid targets:",
        "(you have ",
        "the target sees how many cards you offer, not their values",
        "0-coin cards make an offer look bigger",
        "ACCEPTS",
        "COUNTERS",
        "Your available card values: [",
        '"target_player": ',
        '"animal": ',
        '"offer_cards": ',
    ),
    "respond_trade": (
        "KUHHANDEL - you are being challenged!",
        " wants your ",
        "(set value: ",
        "- Trade size: ",
        "- Their offer is face-down (",
        "1. ACCEPT",
        "2. COUNTER",
        "Your available card values: [",
        '"action": "accept" or "counter", "counter_cards": ',
    ),
    "tie_offer": (
        "KUHHANDEL TIE - make a new offer!",
        "- Trading: ",
        "- The previous offers tied",
        "- Tie count: ",
        "after 3 ties the challenger wins",
        "Your available card values: [",
        '"offer_cards": ',
    ),
    "scratchpad": (
        "Update your private game notes",
        "Keep them under 300 tokens",
        "signs of each opponent's wealth",
        "how opponents behave",
        "progress toward complete sets",
        "how trades turned out",
        "Current notes:",
        "New events, turn by turn:",
        "Respond with ONLY the updated notes",
    ),
}


@pytest.mark.parametrize("kind", KINDS)
def test_every_paper_field_is_in_every_prompt(golden: Golden, kind: str) -> None:
    """Each field App. C and D list for a decision is in every request of that kind."""
    asked = [r for r in golden.requests if r.kind == kind and r.stage == "ask"]
    assert asked, kind
    fields = DECISION_FIELDS[kind] + (() if kind == "scratchpad" else OBSERVATION_FIELDS)
    for r in asked:
        missing = [
            f
            for f in fields
            if not any(alt in r.prompt for alt in ((f,) if isinstance(f, str) else f))
        ]
        assert not missing, (kind, missing, r.prompt)


def _recent(prompt: str) -> list[str]:
    section = prompt.split("RECENT TURNS (as you saw them):\n", 1)[1].split("\n\n", 1)[0]
    return [line.strip() for line in section.splitlines()]


def test_recent_history_is_turn_lines_reaching_back_ten_turns(golden: Golden) -> None:
    """Later prompts show the ten finished turns before the current one, one line each."""
    std = [r for r in golden.requests if str(r.body.get("model", "")).startswith("m")]
    checked = 0
    for r in std:
        if r.kind == "scratchpad" or r.stage != "ask":
            continue
        turn = int(re.search(r"^Turn: (\d+)$", r.prompt, re.M).group(1))  # type: ignore[union-attr]
        lines = _recent(r.prompt)
        numbers = [int(re.match(r"Turn (\d+): ", line).group(1)) for line in lines]  # type: ignore[union-attr]
        assert numbers == sorted(set(numbers)), lines
        # the turn in progress shows once something happened in it
        assert numbers[-1] in (turn - 1, turn), (turn, lines)
        if turn > 11:
            assert [n for n in numbers if n < turn] == list(range(turn - 10, turn)), lines
            checked += 1
    assert checked > 100


def test_scratchpad_updates_cover_every_turn_once(golden: Golden) -> None:
    """A seat's note updates, in order, name every turn since its previous update: no turn is
    left out (no cap) and none is told twice."""
    by_seat: dict[str, list[int]] = {}
    for r in golden.requests:
        model = str(r.body.get("model", ""))
        if r.kind != "scratchpad" or not model.startswith("m"):
            continue
        section = r.prompt.split("New events, turn by turn:\n", 1)[1].split("\n\n", 1)[0]
        turns = [int(t) for t in re.findall(r"^Turn (\d+): ", section, re.M)]
        assert turns, section
        by_seat.setdefault(model, []).extend(turns)
    assert len(by_seat) == 4
    for model, turns in by_seat.items():
        assert turns == list(range(1, len(turns) + 1)), model
