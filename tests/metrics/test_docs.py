"""The example queries of docs/analysis.md run and return rows on sample games."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from events.store import DuckStore
from runner.cattle.sample import sample_store

DOC = Path(__file__).parents[2] / "docs" / "analysis.md"
QUERIES = re.findall(r"```sql\n(.*?)```", DOC.read_text(), flags=re.S)


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> DuckStore:
    path = tmp_path_factory.mktemp("docs") / "docs.duckdb"
    sample_store(path, 3)
    return DuckStore(path)


def test_there_are_examples() -> None:
    assert len(QUERIES) >= 5


@pytest.mark.parametrize("sql", QUERIES, ids=[f"q{i}" for i in range(len(QUERIES))])
def test_example_query_runs(store: DuckStore, sql: str) -> None:
    rows = store.con.execute(sql).fetchall()
    assert rows
