"""Answers nested without end or longer than any game asks: every game's parser, and the human
seat's line reader over it, give an unparsable answer with a reason, never an exception."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents import make_agents
from agents.human.agent import read_line
from events import catalog
from projections.answers import MAX_JSON_CHARS, MAX_JSON_DEPTH, AnswerBoundsError, load_json
from projections.openspiel.view import _named
from runner.driver import Game

GAMES: dict[str, str] = {
    "cattle-trade": "micro-duel",
    "pact": "quick",
    "openspiel": "tic_tac_toe",
    "textarena": "blotto",
    **{n: catalog.get(n).default_preset for n in catalog.names() if n.startswith("gamebench:")},
}

DEEP = 5_000
"""Far deeper than any decoder recurses (Python stops at about a thousand)."""


def _shapes() -> dict[str, str]:
    objects = '{"action":' * DEEP + "1" + "}" * DEEP
    return {
        "arrays": "[" * DEEP + "]" * DEEP,
        "objects": objects,
        "action of arrays": '{"action":' + "[" * DEEP + "]" * DEEP + "}",
        "fenced": "```json\n" + objects + "\n```",
        "after words": "My move:\n" + objects,
        "action line": "Action: " + objects,
    }


def _first_decision(name: str) -> tuple[Any, Any, Any, int]:
    """(prompter, answer schema or None, decision, seat) of a game's first decision."""
    game = catalog.get(name)
    config = game.preset(GAMES[name])
    run = Game(config, 1, make_agents(["random"] * config.players, 1, config))
    run._start()
    d = run.rules.pending(run.state)
    seat = d.seats[0]
    prompter: Any = game.prompter
    make = getattr(prompter, "answer_schema", None)
    return prompter, make(run.view(seat), d) if make else None, d, seat


def test_every_game_with_a_prompter_is_covered() -> None:
    assert {n for n in catalog.names() if catalog.get(n).prompter is not None} <= set(GAMES)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_deeply_nested_answer_is_an_unparsable_answer(name: str) -> None:
    prompter, schema, d, seat = _first_decision(name)
    for shape, text in _shapes().items():
        action, stage, error = prompter.parse(text, d, seat)
        if name.startswith(("openspiel", "gamebench:")):
            assert action is None, shape
            if shape in ("objects", "action of arrays"):
                assert stage == "failed" and error is not None
                assert f"nested more than {MAX_JSON_DEPTH} levels" in error, (shape, error)
        # The same text typed by a person goes through the same parser, then the schema's
        # fields; either way it ends as an action or a reason.
        action, stage, error = read_line(prompter, text, d, seat, schema)
        assert action is not None or error, (shape, stage)


@settings(max_examples=40, deadline=None)
@given(
    depth=st.integers(1, 3 * MAX_JSON_DEPTH),
    opens=st.lists(st.sampled_from(["[", '{"k":', '["s]{",']), min_size=1, max_size=4),
)
def test_load_json_reads_within_its_bounds_and_refuses_beyond(depth: int, opens: list[str]) -> None:
    """Nesting up to the bound reads as `json.loads` reads it; deeper is refused with a
    reason (brackets inside strings do not count)."""
    heads = [opens[i % len(opens)] for i in range(depth)]
    closes = {"[": "]", '{"k":': "}", '["s]{",': "]"}
    text = "".join(heads) + "0" + "".join(closes[h] for h in reversed(heads))
    if depth <= MAX_JSON_DEPTH:
        assert load_json(text) == json.loads(text)
    else:
        with pytest.raises(AnswerBoundsError, match="nested more than"):
            load_json(text)


def test_load_json_refuses_a_text_longer_than_its_bound() -> None:
    text = json.dumps({"action": "x" * MAX_JSON_CHARS})
    with pytest.raises(AnswerBoundsError, match="characters long"):
        load_json(text)
    assert load_json(json.dumps({"action": "x" * (MAX_JSON_CHARS - 20)}))["action"]


@settings(max_examples=60, deadline=None)
@given(
    texts=st.lists(st.sampled_from(["a", "b", "ab", "ba", "a b", "b(1)", "1"]), min_size=1),
    words=st.lists(st.sampled_from(["a", "b", "ab", " ", "(1)", "ba", "x"]), max_size=12),
)
def test_naming_counts_only_the_longest_matches(texts: list[str], words: list[str]) -> None:
    """The legal actions an answer names: a match inside a longer match does not count (the
    definition, checked pair by pair, against the reader's single pass)."""
    text = "".join(words)
    legal = list(range(len(texts)))
    spans = []
    low = text.lower()
    for action, t in zip(legal, texts, strict=True):
        start = low.find(t)
        while start != -1:
            end = start + len(t)
            before = low[start - 1] if start else " "
            after = low[end] if end < len(low) else " "
            if not (before.isalnum() and t[0].isalnum()) and not (
                after.isalnum() and t[-1].isalnum()
            ):
                spans.append((start, end, action))
            start = low.find(t, start + 1)
    expected = {
        a
        for s, e, a in spans
        if not any(s2 <= s and e <= e2 and (e2 - s2) > (e - s) for s2, e2, _ in spans)
    }
    assert _named(text, legal, texts) == expected
