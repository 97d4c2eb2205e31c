"""PACT's SQL views over a real DuckDB store, checked against the logs they come from."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pactkit import play_any

from engine.pact.rules import ENGINE_VERSION
from events.catalog import GameDef
from events.pact import game as pe
from events.pact.game import PactConfig
from events.store import DuckStore, GameRow

QUICK = PactConfig(rounds=5, name="quick").validate()
PAIRINGS = [
    ("truthful", "anchor"),
    ("anchor", "mirror"),
    ("mirror", "mirror"),
    ("random", "noisy"),
    ("noisy", "truthful"),
]


def statements(path: Path) -> list[str]:
    """The statements of a view file (separated by ';')."""
    out = []
    for chunk in path.read_text().split(";"):
        code = [line for line in chunk.splitlines() if not line.strip().startswith("--")]
        if "".join(code).strip():
            out.append(chunk)
    return out


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory, game: GameDef) -> Any:
    """A DuckDB store holding PACT games, with PACT's views; and the games' logs by id."""
    path = tmp_path_factory.mktemp("pact") / "pact.duckdb"
    store = DuckStore(path)
    logs: dict[str, list[Any]] = {}
    batch = []
    for i in range(20):
        names = PAIRINGS[i % len(PAIRINGS)]
        played = play_any(QUICK, 1000 + i, names)
        first = played.log[0]
        row = GameRow(
            game_id=f"g{i:02d}",
            game="pact",
            seed=first.seed,
            config=first.config,
            seats=first.seats,
            engine_version=ENGINE_VERSION,
        )
        batch.append((row, played.log, played.turns))
        logs[row.game_id] = played.log
    store.save_games(batch)
    for path_sql in game.sql:
        for sql in statements(path_sql):
            store.con.execute(sql)
    yield store, logs
    store.close()


def test_the_view_files_are_statements_duckdb_runs(game: GameDef) -> None:
    assert [p.relative_to(p.parents[2]).as_posix() for p in game.sql] == ["events/pact/views.sql"]
    found = [s for p in game.sql for s in statements(p)]
    assert len(found) == 2
    assert all("CREATE OR REPLACE VIEW" in s for s in found)


def test_pact_rounds_matches_the_logs(stored: Any) -> None:
    store, logs = stored
    cols, rows = store.query("SELECT * FROM pact_rounds ORDER BY game_id, round")
    assert cols == [
        "game_id",
        "round",
        "buyer_seat",
        "seller_seat",
        "value",
        "cost",
        "bid",
        "ask",
        "traded",
        "price",
        "buyer_profit",
        "seller_profit",
    ]
    want = []
    for game_id, log in sorted(logs.items()):
        drawn = next(e for e in log if isinstance(e, pe.PactValuesDrawn))
        for e in log:
            if isinstance(e, pe.PactQuotesRevealed):
                gain_b = drawn.value - e.price if e.price is not None else 0.0
                gain_s = e.price - drawn.cost if e.price is not None else 0.0
                want.append(
                    (
                        game_id,
                        e.round,
                        0,
                        1,
                        drawn.value,
                        drawn.cost,
                        e.bid,
                        e.ask,
                        e.traded,
                        e.price,
                        gain_b,
                        gain_s,
                    )
                )
    assert rows == want
    assert any(r[8] for r in rows) and not all(r[8] for r in rows)


def test_round_profits_add_up_to_the_final_scores(stored: Any) -> None:
    store, logs = stored
    _, rows = store.query(
        "SELECT game_id, sum(buyer_profit), sum(seller_profit) FROM pact_rounds"
        " GROUP BY game_id ORDER BY game_id"
    )
    for game_id, buyer, seller in rows:
        end = logs[game_id][-1]
        assert isinstance(end, pe.PactGameEnded)
        assert (buyer, seller) == end.scores


def test_pact_messages_matches_the_logs(stored: Any) -> None:
    store, logs = stored
    cols, rows = store.query(
        "SELECT m.* FROM pact_messages m JOIN events e ON e.game_id = m.game_id"
        " AND e.type = 'pact_message_sent' AND CAST(e.payload->>'round' AS INTEGER) = m.round"
        " AND CAST(e.payload->>'seat' AS SMALLINT) = m.seat ORDER BY m.game_id, e.seq"
    )
    assert cols == ["game_id", "round", "seat", "text", "cut"]
    want = [
        (game_id, e.round, e.seat, e.text, e.cut)
        for game_id, log in sorted(logs.items())
        for e in log
        if isinstance(e, pe.PactMessageSent)
    ]
    assert rows == want
    assert any(r[4] for r in rows)  # the noisy player's long messages were cut
