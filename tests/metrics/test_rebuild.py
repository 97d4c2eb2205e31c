"""Derived tables carry their definition version and are rebuilt from the untouched log."""

from __future__ import annotations

import dataclasses

import pytest

from events.cattle.domain import ANIMAL_VALUES
from events.store import DuckStore
from projections.cattle.metrics import build
from projections.cattle.metrics.registry import REGISTRY, get, metrics


def log_digest(store: DuckStore) -> list[tuple]:
    return store.con.execute(
        "SELECT game_id, seq, type, turn, actor, visible_to, payload FROM events ORDER BY ALL"
    ).fetchall()


def test_changed_definition_rebuilds_with_new_version(
    hand_store: DuckStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    con = hand_store.con
    before = log_digest(hand_store)
    build.rebuild(con)
    assert build.is_fresh(con)
    old = dict(
        con.execute(
            "SELECT game_id || '/' || agent, value FROM metric_values WHERE metric = 'bluff_rate'"
        ).fetchall()
    )
    assert old == {"g1/b": 0.5, "g2/b": 0.0}
    assert {
        v
        for (v,) in con.execute(
            "SELECT DISTINCT version FROM metric_values WHERE metric = 'bluff_rate'"
        ).fetchall()
    } == {1}

    # A new definition: an offer worth nothing is a bluff, even when it has no cards.
    v1 = get("bluff_rate")
    v2 = dataclasses.replace(
        v1,
        version=2,
        sql="""SELECT game_id, seat, '' AS key, count(*) FILTER (WHERE value = 0) AS num,
                      count(*) AS den
               FROM stage.trade_offers WHERE role = 'offer' GROUP BY ALL""",
        definition="Bluff % (v2): share of initiating offers worth 0, empty ones included.",
    )
    monkeypatch.setitem(REGISTRY, "bluff_rate", v2)
    assert not build.is_fresh(con), "a new version makes the derived tables stale"
    stats = build.ensure(con)
    assert stats is not None and stats.games == 2

    new = con.execute(
        "SELECT game_id || '/' || agent, version, value FROM metric_values"
        " WHERE metric = 'bluff_rate' ORDER BY 1"
    ).fetchall()
    assert new == [("g1/b", 2, 0.5), ("g2/b", 2, 1.0)]
    assert con.execute(
        "SELECT version, definition FROM metric_defs WHERE metric = 'bluff_rate'"
    ).fetchall() == [(2, v2.definition)]
    # Other metrics keep their own version; the log is byte for byte what it was.
    assert con.execute(
        "SELECT DISTINCT version FROM metric_values WHERE metric = 'eta'"
    ).fetchall() == [(1,)]
    assert log_digest(hand_store) == before
    assert build.ensure(con) is None, "fresh tables are not rebuilt again"


def test_new_game_makes_tables_stale(hand_store: DuckStore) -> None:
    from metrics_support import extra_game

    build.rebuild(hand_store.con)
    extra_game(hand_store)
    assert not build.is_fresh(hand_store.con)
    stats = build.ensure(hand_store.con)
    assert stats is not None and stats.games == 3


def test_every_metric_is_documented_and_versioned() -> None:
    names = [m.name for m in metrics()]
    assert len(names) == len(set(names))
    for m in metrics():
        assert m.version >= 1
        assert len(m.definition.split()) >= 12, m.name
        assert m.agg in ("ratio", "median")


def test_animal_value_macro_matches_domain(hand_store: DuckStore) -> None:
    for animal, value in ANIMAL_VALUES.items():
        assert hand_store.con.execute("SELECT animal_value(?)", [animal]).fetchall() == [(value,)]
