"""The viewer over a standing league: its finished games are shown (a league never ends), its
table is live, and a game whose deal is still played elsewhere stays closed."""

from __future__ import annotations

from pathlib import Path

from starlette.testclient import TestClient

from cli.web.app import create_app
from cli.web.publish import write_site
from events.store import DuckStore
from runner import league as L

LEAGUE = """
[league]
name = "open"
seed = 5
round_games = 4

[[games]]
game = "pact"
preset = "quick"

[[agents]]
name = "rnd"
spec = "random"

[[agents]]
name = "bot"
spec = "truthful"

[[agents]]
name = "bot2"
spec = "anchor"
"""


def test_league_games_show_once_their_deal_is_played_out(tmp_path: Path) -> None:
    path = tmp_path / "open.toml"
    path.write_text(LEAGUE)
    db = tmp_path / "open.duckdb"
    with DuckStore(db) as store:
        L.run(store, path, games=4, day=lambda: "2026-12-07")
        # The last game of the last match was not played yet: its twin's deal is in play.
        rows = store.con.execute(
            "SELECT idx, game_id FROM tournament_games WHERE tournament = 'open' ORDER BY idx"
        ).fetchall()
        last = rows[-1][1]
        store.con.execute("DELETE FROM events WHERE game_id = ?", [last])
        store.con.execute("DELETE FROM games WHERE game_id = ?", [last])
    twin, other = rows[-2][1], rows[0][1]
    with TestClient(create_app(db), base_url="http://127.0.0.1") as client:
        assert client.get(f"/api/games/{other}").status_code == 200
        closed = client.get(f"/api/games/{twin}")
        assert closed.status_code == 403
        assert "a game dealt from its seed is in play" in closed.text
        info = client.get("/api/tournaments/open").json()
        league = client.get("/api/leagues/open").json()
        page = client.get("/leagues/open")
        agents = {a: client.get(f"/leagues/open/agents/{a}").text for a in ("rnd", "bot", "bot2")}
        assert client.get("/leagues/open/agents/nobody").status_code == 404
    assert not info["closed"], info
    assert sum(r["games"] for r in info["ratings"]) == 2 * 2  # two games shown, two seats each
    # The league's own page: its table over the games shown, each agent's games linked.
    assert league["rated"] == 2 and page.status_code == 200
    (table,) = [t for t in league["tables"] if t["game"] == "pact"]
    assert sum(r["games"] for r in table["rows"]) == 2 * 2
    linked = "".join(agents.values())
    assert f"/games/{other}" in linked and f"/games/{twin}" not in linked
    # Published as a static site, the league's table comes along, over the same games.
    with DuckStore(db, read_only=True) as store:
        write_site(store.con, tmp_path / "site")
    page = (tmp_path / "site" / "leagues" / "open.html").read_text()
    assert "bot2" in page and "/league/join" not in page
    assert "2 games rated" in page


def test_the_league_posts_refuse_big_and_cross_site_bodies(tmp_path: Path) -> None:
    db = tmp_path / "empty.duckdb"
    DuckStore(db).close()
    seats = tmp_path / "seats"
    big = b'{"name": "' + b"a" * 70_000 + b'"}'
    here = {"origin": "http://127.0.0.1", "content-type": "application/json"}
    with TestClient(create_app(db, seats=seats), base_url="http://127.0.0.1") as client:
        for route in ("/api/league/join", "/api/league/seat"):
            got = client.post(route, content=big, headers=here)
            assert got.status_code == 413, (route, got.status_code)
            # Sent in chunks, without a declared length: refused all the same.
            chunks = iter([big[:40_000], big[40_000:]])
            got = client.post(route, content=chunks, headers=here)
            assert got.status_code == 413, (route, got.status_code)
        join = {"name": "ann", "league": "x", "game": "pact", "secret": "s" * 32}
        for origin in ("null", "http://elsewhere.example"):
            got = client.post("/api/league/join", json=join, headers={"origin": origin})
            assert got.status_code == 403
        got = client.post(
            "/api/league/join", json=join, headers={**here, "sec-fetch-site": "cross-site"}
        )
        assert got.status_code == 403


def test_the_league_pages_say_when_the_store_cannot_be_read(tmp_path: Path) -> None:
    db = tmp_path / "store.duckdb"
    DuckStore(db).close()
    join = {"name": "ann", "league": "x", "game": "pact", "secret": "s" * 32}
    here = {"origin": "http://127.0.0.1"}
    app = create_app(db, seats=tmp_path / "seats")
    with TestClient(app, base_url="http://127.0.0.1", raise_server_exceptions=False) as client:
        db.write_bytes(b"not a store" * 100)  # damaged under a running viewer
        assert client.get("/league/join").status_code == 503
        assert client.post("/api/league/join", json=join, headers=here).status_code == 503
        assert client.post("/api/league/seat", json=join).status_code == 503
