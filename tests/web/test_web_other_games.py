"""A game the viewer has no drawing for (the toy auction of tests/games) is shown as a timeline
and state text, filtered by audience like any other; a game whose module is missing is shown
as stored."""

from __future__ import annotations

import importlib
import json
import re
import shutil
import sys
from pathlib import Path

import duckdb
from starlette.testclient import TestClient

from cli.web.app import create_app
from events import catalog
from events.store import DuckStore
from runner.session import play_and_store

TESTS = Path(__file__).resolve().parents[1]


def toy_game() -> catalog.GameDef:
    """The toy auction of tests/games, imported under the module name the other tests and
    `CATTLE_GAMES` use (`games.toy_auction`), so that it is registered once."""
    if str(TESTS) not in sys.path:
        sys.path.insert(0, str(TESTS))
    catalog.register(importlib.import_module("games.toy_auction").GAME)
    return catalog.get("toy-auction")


def page_data(html: str) -> dict:
    m = re.search(r'<script type="application/json" id="game-data">(.*?)</script>', html, re.S)
    assert m is not None
    return json.loads(m.group(1))


def test_toy_game_as_text_and_filtered(tmp_path: Path) -> None:
    db = tmp_path / "toy.duckdb"
    toy = toy_game()
    with DuckStore(db) as store:
        gid, _ = play_and_store(store, toy.preset("standard"), 4, ["honest", "wild", "honest"])
    with TestClient(create_app(db), base_url="http://127.0.0.1") as client:
        everyone = page_data(client.get(f"/games/{gid}").text)
        assert {f["kind"] for f in everyone["frames"]} == {"text"}
        assert len(everyone["frames"]) > 1
        seat = page_data(client.get(f"/games/{gid}?seat=1").text)
        con = duckdb.connect(str(db), read_only=True)
        rows = con.execute(
            "SELECT seq, visible_to FROM events WHERE game_id = ? ORDER BY seq", [gid]
        ).fetchall()
        con.close()
        hidden = [s for s, vis in rows if vis is not None and 1 not in vis]
        assert hidden, "the toy game has events seat 1 may not see"
        assert [e["seq"] for e in seat["events"]] == [
            s for s, vis in rows if vis is None or 1 in vis
        ]
        before = client.get(f"/games/{gid}?seat=1").text
    # Rewrite what seat 1 may not see: its page does not change.
    copy = tmp_path / "changed.duckdb"
    shutil.copy(db, copy)
    con = duckdb.connect(str(copy))
    con.execute(
        "UPDATE events SET payload = json_object('type', type, 'secret', 'LEAKMARK')"
        " WHERE visible_to IS NOT NULL AND NOT list_contains(visible_to, 1)"
    )
    con.close()
    with TestClient(create_app(copy), base_url="http://127.0.0.1") as client:
        assert client.get(f"/games/{gid}?seat=1").text == before
    # A game whose module is not available here: shown as stored, with a note.
    con = duckdb.connect(str(copy))
    con.execute("UPDATE games SET game = 'ghost-game'")
    con.close()
    with TestClient(create_app(copy), base_url="http://127.0.0.1") as client:
        ghost = client.get(f"/games/{gid}")
        assert ghost.status_code == 200
        data = page_data(ghost.text)
        assert "not available here" in data["note"]
        assert len(data["events"]) == len(rows)
        listing = client.get("/", params={"game": "ghost-game"})
        assert gid in listing.text


def test_winner_column_matches_the_results_view(tmp_path: Path) -> None:
    db = tmp_path / "w.duckdb"
    pact = catalog.get("pact").preset("quick")
    with DuckStore(db) as store:
        for seed in range(4):
            play_and_store(store, pact, seed, ["truthful", "anchor"])
        _, rows = store.query(
            "SELECT game_id, list(agent ORDER BY seat) FILTER (WHERE rank = 1) FROM results"
            " GROUP BY game_id"
        )
    expected = {gid: ", ".join(w or []) for gid, w in rows}
    with TestClient(create_app(db), base_url="http://127.0.0.1") as client:
        html = client.get("/").text
    shown = dict(
        re.findall(r'data-id="([^"]+)".*?<td>finished</td>\s*<td>([^<]*)</td>', html, re.S)
    )
    assert shown == expected
