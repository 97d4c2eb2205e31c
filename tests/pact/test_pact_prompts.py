"""Snapshots of what a PACT model seat reads: system prompts, decision prompts with the
history table, retry prompts, and the timeline lines of a game."""

from __future__ import annotations

from typing import Any

import pytest
from pactkit import play, play_names, setup_events
from syrupy.assertion import SnapshotAssertion

from engine.pact.rules import SendMessage, SubmitQuote
from events.pact.game import PactConfig
from projections.pact.view import PactPrompter, PactView, timeline

PROMPTER = PactPrompter()
STANDARD = PactConfig(name="standard").validate()
QUICK = PactConfig(rounds=5, name="quick").validate()


class Script:
    """Plays a fixed message and quote per round."""

    def __init__(self, seat: int, messages: list[str], quotes: list[Any]) -> None:
        self.seat = seat
        self.messages = messages
        self.quotes = quotes

    def act(self, view: PactView, d: Any) -> Any:
        if d.kind == "message":
            return SendMessage(seat=self.seat, text=self.messages[d.round - 1])
        return SubmitQuote(seat=self.seat, price=self.quotes[d.round - 1])


BUYER_SAYS = [
    "Hello. I am looking for a fair price, somewhere around 40.",
    " ".join(["Please"] + ["really"] * 110 + ["lower."]),
    "45 then?",
    "Last offer from me: 52.",
    "Fine.",
]
SELLER_SAYS = [
    "Good day. My costs are high; I cannot go below 70.",
    "No.\nStill no.",
    "I could take 60.",
    "55 and we have a deal.",
    "Done.",
]
BIDS: list[Any] = [40, 42.5, 45, 52, 55]
ASKS: list[Any] = [70, 150, 60, "fifty-five", 55]


def prompts_of_game() -> dict[tuple[int, str, int], str]:
    """Every decision prompt of a scripted quick game, by (round, kind, seat)."""
    out: dict[tuple[int, str, int], str] = {}

    def before(seat: int, view: PactView, d: Any, log: list[Any]) -> None:
        out[(d.round, d.kind, seat)] = PROMPTER.decision_prompt(view, d)

    agents = [Script(0, BUYER_SAYS, BIDS), Script(1, SELLER_SAYS, ASKS)]
    play(QUICK, 9, agents, ["a", "b"], before=before, start=setup_events(63, 38, QUICK))
    return out


@pytest.mark.parametrize("seat", [None, 0, 1])
def test_system_prompt(seat: int | None, snapshot: SnapshotAssertion) -> None:
    assert PROMPTER.system_prompt(STANDARD, None, seat) == snapshot


def test_system_prompt_of_other_settings(snapshot: SnapshotAssertion) -> None:
    config = PactConfig(rounds=8, max_words=40, first_speaker="seller", quote_high=120)
    assert PROMPTER.system_prompt(config.validate(), "optimal", 1) == snapshot


def test_an_unknown_character_is_refused() -> None:
    with pytest.raises(KeyError, match="optimal"):
        PROMPTER.system_prompt(STANDARD, "bluffer", 0)


@pytest.mark.parametrize(
    "key",
    [
        (1, "message", 0),
        (1, "message", 1),
        (1, "quote", 0),
        (4, "message", 1),
        (4, "quote", 0),
        (4, "quote", 1),
        (5, "message", 0),
    ],
    ids=lambda k: f"round{k[0]}-{k[1]}-seat{k[2]}",
)
def test_decision_prompt(key: tuple[int, str, int], snapshot: SnapshotAssertion) -> None:
    assert prompts_of_game()[key] == snapshot


def test_retry_prompts(snapshot: SnapshotAssertion) -> None:
    assert [
        PROMPTER.format_retry_prompt("quote", "no number found in the answer"),
        PROMPTER.format_retry_prompt("message", '"message" is missing'),
        PROMPTER.truncation_retry_prompt("quote"),
        PROMPTER.truncation_retry_prompt("message"),
    ] == snapshot


def test_a_scratchpad_is_not_kept() -> None:
    assert PROMPTER.notes_lines([], 0) == []
    assert PROMPTER.rejection(PactView(0), 0, "quote") is None
    assert PROMPTER.cap_notes("  notes ") == "notes"


@pytest.mark.parametrize("seat", [None, 0, 1])
def test_timeline(seat: int | None, snapshot: SnapshotAssertion) -> None:
    agents = [Script(0, BUYER_SAYS, BIDS), Script(1, SELLER_SAYS, ASKS)]
    played = play(QUICK, 9, agents, ["a", "b"], start=setup_events(63, 38, QUICK))
    assert timeline(played.log, seat) == snapshot


def test_every_event_of_a_game_has_a_line() -> None:
    log = play_names(STANDARD, 4, ["anchor", "mirror"]).log
    lines = timeline(log)
    assert len(lines) == len(log)
    assert all(line and not line.startswith("pact_") for line in lines)
