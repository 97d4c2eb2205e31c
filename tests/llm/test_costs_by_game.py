"""`cattle costs` keeps kinds of game apart by default (a usage and an outcome table per
kind; JSON rows name their game) and puts them together with --merge-games."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.llm.loopback import LegalPolicy, LoopbackServer
from agents.llm.outcome import classify
from engine.cattle.presets import load_preset
from events import catalog
from events.agent import OUTCOMES, ActionDefaulted, LLMCall
from events.store import DuckStore
from projections.costs import usage
from runner.session import play_and_store
from tests.cli.clikit import cattle

from .helpers import seat, set_env


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """One Cattle Trade and one tic-tac-toe game, the same model agent in every seat."""
    tmp = tmp_path_factory.mktemp("costs")
    db = tmp / "m.duckdb"
    with pytest.MonkeyPatch.context() as mp:
        set_env(mp, tmp)
        with LoopbackServer(LegalPolicy()) as srv, DuckStore(db) as store:
            spec = seat(srv, "openai", opts="memory=none")
            play_and_store(store, load_preset("micro-duel"), 1, [spec, spec])
            ttt = catalog.get("openspiel").preset("tic_tac_toe")
            play_and_store(store, ttt, 1, [spec, spec])
    yield db


def test_each_kind_of_game_is_its_own_section(mixed: Path) -> None:
    rows = json.loads(cattle("costs", "--json", "--db", mixed).stdout)
    assert sorted(r["game"] for r in rows) == ["cattle-trade", "openspiel"]
    assert all(r["agent"] == "openai:loop?memory=none" and r["games"] == 1 for r in rows)
    for r in rows:
        assert sum(r["outcomes"].values()) == r["decided"] > 0
        assert r["outcome_rates"]["ok"] == pytest.approx(r["outcomes"]["ok"] / r["decided"])
    text = cattle("costs", "--db", mixed, env={"COLUMNS": "80"}).stdout
    for kind in ("cattle-trade", "openspiel"):
        assert f"Model usage by agent ({kind})" in text
        assert f"Decision outcomes by agent ({kind})" in text
    assert all(len(line) <= 80 for line in text.splitlines())


def test_merge_games_puts_every_kind_in_one_row(mixed: Path) -> None:
    with DuckStore(mixed, read_only=True) as store:
        apart = usage(store.con, prices={})
        (row,) = usage(store.con, prices={}, separate=False)
    assert row["game"] == "cattle-trade, openspiel" and row["games"] == 2
    assert row["calls"] == sum(r["calls"] for r in apart)
    assert row["decided"] == sum(r["decided"] for r in apart)


def _call(stage: str, parse_stage: str | None, error: str | None, finish: str | None) -> LLMCall:
    return LLMCall(
        seat=0,
        decision="bid",
        stage=stage,
        attempt=1,
        provider="openai",
        model="m",
        parse_stage=parse_stage,
        parse_error="bad" if parse_stage == "failed" else None,
        error=error,
        finish_reason=finish,
    )


calls = st.lists(
    st.builds(
        _call,
        st.sampled_from(["ask", "format_retry", "truncation_retry", "card_retry"]),
        st.sampled_from(
            [None, "json", "last_object", "key_value", "lenient", "failed", "truncated"]
        ),
        st.sampled_from([None, None, "timeout", "server_error (500)"]),
        st.sampled_from([None, "stop", "length", "content_filter", "refusal"]),
    ),
    max_size=4,
)


@settings(max_examples=200, deadline=None)
@given(made=calls, defaulted=st.booleans(), budget=st.booleans())
def test_every_decision_gets_one_known_class(
    made: list[LLMCall], defaulted: bool, budget: bool
) -> None:
    reason = "budget spent: 3 model calls (max_calls=3)" if budget else "unreadable"
    default = ActionDefaulted(seat=0, decision="bid", action="{}", reason=reason)
    got = classify(made, default if defaulted else None)
    assert got in OUTCOMES
    # A played model move is ok or repaired; a default is never either.
    assert (got in ("ok", "repaired")) == (not defaulted)
    if defaulted and budget:
        assert got == "budget"
