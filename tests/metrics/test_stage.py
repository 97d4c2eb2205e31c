"""The fast staging of a rebuild gives exactly what the analysis views give."""

from __future__ import annotations

from pathlib import Path

import pytest

from events.store import DuckStore
from projections.cattle.metrics.build import stage
from runner.cattle.sample import sample_store

# (staged table, view, rows of the view that are staged)
PAIRS = [
    ("seats", "seats", "TRUE"),
    ("scores", "scores", "TRUE"),
    ("auctions", "auctions", "TRUE"),
    ("payments", "payments", "TRUE"),
    ("bids_detail", "bids_detail", "amount IS NOT NULL"),
    ("trade_offers", "trade_offers", "TRUE"),
    ("trades", "trades", "TRUE"),
    ("set_completions", "set_completions", "TRUE"),
    ("wealth_by_turn", "wealth_by_turn", "TRUE"),
    ("donkey_payouts", "donkey_payouts", "TRUE"),
    ("rejections", "rejections", "TRUE"),
    ("fallbacks", "fallbacks", "TRUE"),
    ("llm_calls", "llm_calls", "TRUE"),
]


@pytest.fixture(scope="module")
def staged(tmp_path_factory: pytest.TempPathFactory) -> DuckStore:
    path: Path = tmp_path_factory.mktemp("stage") / "s.duckdb"
    sample_store(path, 6, tournament="stage")
    store = DuckStore(path)
    stage(store.con)
    return store


@pytest.mark.parametrize(("table", "view", "where"), PAIRS)
def test_staged_table_equals_view(staged: DuckStore, table: str, view: str, where: str) -> None:
    con = staged.con
    staged_cols = [r[0] for r in con.execute(f"DESCRIBE stage.{table}").fetchall()]
    view_cols = {r[0]: r[1] for r in con.execute(f"DESCRIBE main.{view}").fetchall()}
    cols = [c for c in staged_cols if c in view_cols]
    assert len(cols) == len(staged_cols), f"stage.{table} has columns the view lacks"
    sel = ", ".join(cols)
    a = con.execute(f"SELECT {sel} FROM stage.{table} ORDER BY ALL").fetchall()
    b = con.execute(f"SELECT {sel} FROM main.{view} WHERE {where} ORDER BY ALL").fetchall()
    assert a == b
    if table not in ("rejections", "fallbacks", "llm_calls"):
        assert a, f"the sample games should fill {table}"
    # Same types too.
    staged_types = {r[0]: r[1] for r in con.execute(f"DESCRIBE stage.{table}").fetchall()}
    assert {c: staged_types[c] for c in cols} == {c: view_cols[c] for c in cols}


def test_pass_counts(staged: DuckStore) -> None:
    con = staged.con
    a = con.execute("SELECT game_id, seat, passes FROM stage.bid_passes ORDER BY ALL").fetchall()
    b = con.execute(
        "SELECT game_id, seat, count(*) FROM main.bids_detail WHERE passed GROUP BY ALL ORDER BY ALL"
    ).fetchall()
    assert a == b
