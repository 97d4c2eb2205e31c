"""The viewer's pages and API over a real store: filtering by audience, hostile input."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest
from starlette.testclient import TestClient
from webkit import HOSTILE_NAME, ONERROR, SCRIPT, Games

from cli.web.app import create_app


@pytest.fixture(scope="module")
def client(games: Games) -> Iterator[TestClient]:
    """The app over the test store."""
    with TestClient(create_app(games.db), base_url="http://127.0.0.1") as c:
        yield c


def visible_seqs(db: Path, game_id: str, seat: int | None) -> list[int]:
    """The seqs a seat may see, read straight from the log."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        rows = con.execute(
            "SELECT seq, visible_to FROM events WHERE game_id = ? ORDER BY seq", [game_id]
        ).fetchall()
    finally:
        con.close()
    return [s for s, vis in rows if seat is None or vis is None or seat in vis]


def page_data(html: str) -> dict:
    """The game data embedded in a viewer page."""
    m = re.search(r'<script type="application/json" id="game-data">(.*?)</script>', html, re.S)
    assert m is not None
    return json.loads(m.group(1))


@pytest.mark.parametrize("which", ["cattle", "pact", "model"])
def test_a_seat_gets_exactly_the_events_it_may_see(
    client: TestClient, games: Games, which: str
) -> None:
    game_id = getattr(games, which)
    players = len(client.get(f"/api/games/{game_id}/events").json()[0]["fields"]["seats"])
    for seat in [None, *range(players)]:
        query = "" if seat is None else f"?seat={seat}"
        api = client.get(f"/api/games/{game_id}/events{query}")
        assert api.status_code == 200
        expected = visible_seqs(games.db, game_id, seat)
        assert [e["seq"] for e in api.json()] == expected
        page = client.get(f"/games/{game_id}{query}")
        assert page.status_code == 200
        assert [e["seq"] for e in page_data(page.text)["events"]] == expected


@pytest.mark.parametrize(("which", "seat"), [("cattle", 1), ("pact", 0), ("model", 1)])
def test_a_seat_view_depends_on_nothing_it_may_not_see(
    client: TestClient, games: Games, tmp_path: Path, which: str, seat: int
) -> None:
    """Rewrite every event hidden from the seat: its page and API answer stay byte-identical,
    and the marker written into the hidden events appears nowhere."""
    game_id = getattr(games, which)
    before_page = client.get(f"/games/{game_id}?seat={seat}").text
    before_api = client.get(f"/api/games/{game_id}/events?seat={seat}").text
    copy = tmp_path / "changed.duckdb"
    shutil.copy(games.db, copy)
    con = duckdb.connect(str(copy))
    hidden = con.execute(
        "UPDATE events SET payload = json_object('type', type, 'secret', 'LEAKMARK' || seq)"
        " WHERE game_id = ? AND visible_to IS NOT NULL AND NOT list_contains(visible_to, ?)",
        [game_id, seat],
    ).fetchall()
    con.close()
    assert hidden[0][0] > 0  # the game has events this seat may not see
    with TestClient(create_app(copy), base_url="http://127.0.0.1") as other:
        after_page = other.get(f"/games/{game_id}?seat={seat}").text
        after_api = other.get(f"/api/games/{game_id}/events?seat={seat}").text
        everyone = other.get(f"/api/games/{game_id}/events").text
    assert "LEAKMARK" in everyone  # the rewrite happened and the omniscient view shows it
    assert after_page == before_page
    assert after_api == before_api
    assert "LEAKMARK" not in after_page + after_api


def test_pact_private_values_stay_with_their_seat(client: TestClient, games: Games) -> None:
    everyone = client.get(f"/api/games/{games.pact}/events").json()
    dealt = {e["fields"]["seat"]: e for e in everyone if e["type"] == "pact_value_dealt"}
    assert set(dealt) == {0, 1}
    for seat in (0, 1):
        data = page_data(client.get(f"/games/{games.pact}?seat={seat}").text)
        last = data["frames"][data["index"][-1]]
        values = {s["seat"]: s["value"] for s in last["seats"]}
        assert values[seat] == dealt[seat]["fields"]["amount"]
        assert values[1 - seat] is None


def test_model_text_is_data_never_markup(client: TestClient, games: Games) -> None:
    html = client.get(f"/games/{games.model}").text
    data = page_data(html)
    calls = [e for e in data["events"] if e["type"] == "llm_call"]
    assert calls and any(SCRIPT in (c["llm"]["reasoning"] or "") for c in calls)
    # The raw markup never appears in the page; only its JSON-escaped form does.
    assert SCRIPT not in html and ONERROR not in html
    assert "\\u003cscript\\u003e" in html
    assert (
        "script-src 'self'"
        in client.get(f"/games/{games.model}").headers["content-security-policy"]
    )


def test_markup_in_agent_names_is_escaped(client: TestClient, games: Games) -> None:
    listing = client.get("/", params={"q": games.named}).text
    assert HOSTILE_NAME not in listing
    assert "&lt;b onmouseover=" in listing
    page = client.get(f"/games/{games.named}").text
    assert HOSTILE_NAME not in page


@pytest.mark.parametrize(
    ("url", "status", "says"),
    [
        ("/games/no-such-game", 404, "no game"),
        ("/games/<script>", 404, "no game"),
        ("/api/games/no-such-game/events", 404, "no game"),
        ("/games/{cattle}?seat=4", 400, "not a seat of this game"),
        ("/games/{cattle}?seat=-1", 400, "seat must be"),
        ("/games/{cattle}?seat=abc", 400, "seat must be"),
        ("/api/games/{cattle}/events?seat=99999999999999", 400, "seat must be"),
        ("/games/{cattle}?at=x", 400, "at must be"),
        ("/games/{cattle}?at=-5", 400, "at must be"),
        ("/games/{cattle}?at=99999999999999999999999", 400, "at must be"),
        ("/?page=0", 400, "page must be"),
        ("/?page=123456789012345678901234567890", 400, "page must be"),
        ("/?sort=drop table", 400, "sort must be"),
        ("/?status=lost", 400, "status must be"),
        ("/tournaments/nope", 404, "no tournament"),
        ("/?q=" + "x" * 201, 400, "too long"),
        ("/?agent=" + "%3Cscript%3E", 200, "0 games"),
        ("/nowhere", 404, "no such page"),
    ],
)
def test_hostile_requests_get_one_clear_answer(
    client: TestClient, games: Games, url: str, status: int, says: str
) -> None:
    got = client.get(url.format(cattle=games.cattle))
    assert got.status_code == status
    assert says in got.text
    assert "Traceback" not in got.text


def test_a_position_past_the_end_is_kept_for_the_script(client: TestClient, games: Games) -> None:
    data = page_data(client.get(f"/games/{games.cattle}?at=999999").text)
    assert data["at"] == 999999  # the script clamps it to the last event


def test_list_filters_sorts_and_pages(client: TestClient, games: Games) -> None:
    all_rows = re.findall(r'data-id="([^"]+)"', client.get("/").text)
    assert {games.cattle, games.pact, games.model, games.named} <= set(all_rows)
    pact = client.get("/", params={"game": "pact"}).text
    assert re.findall(r'data-id="([^"]+)"', pact) == [games.pact]
    cup = client.get("/", params={"tournament": "cup", "sort": "id", "order": "asc"}).text
    ids = re.findall(r'data-id="([^"]+)"', cup)
    assert len(ids) == 4 and ids == sorted(ids)
    con = duckdb.connect(str(games.db), read_only=True)
    try:
        with_economy = {
            gid
            for gid, seats in con.execute("SELECT game_id, seats FROM games").fetchall()
            if any(s["agent"] == "economy" for s in json.loads(seats))
        }
    finally:
        con.close()
    agent = client.get("/", params={"agent": "economy"}).text
    assert with_economy and set(re.findall(r'data-id="([^"]+)"', agent)) == with_economy
    far = client.get("/", params={"page": "9999999"})
    assert far.status_code == 200 and "There is no page" in far.text


def test_tournament_page_shows_ratings_with_intervals(client: TestClient, games: Games) -> None:
    page = client.get("/tournaments/cup").text
    assert "random" in page and "economy" in page
    info = client.get("/api/tournaments/cup").json()
    assert info["finished"] == 4
    for r in info["ratings"]:
        assert r["low"] < r["mu"] < r["high"]
    assert 'id="figure-ratings"' in page
    assert 'data-running="no"' in page


def test_tournament_page_refreshes_while_games_run(games: Games, tmp_path: Path) -> None:
    copy = tmp_path / "running.duckdb"
    shutil.copy(games.db, copy)
    con = duckdb.connect(str(copy))
    con.execute(
        "UPDATE games SET status = 'running' WHERE game_id = (SELECT min(game_id) FROM games"
        " WHERE tournament = 'cup')"
    )
    con.close()
    with TestClient(create_app(copy), base_url="http://127.0.0.1") as other:
        page = other.get("/tournaments/cup").text
    assert 'data-running="yes"' in page and "tournament.js" in page
    assert "3 finished of 4 planned" in page
