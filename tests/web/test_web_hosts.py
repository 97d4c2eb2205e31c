"""`cattle serve` over real HTTP: it answers only requests addressed to a name it serves (a
page elsewhere whose name is made to resolve to this machine gets nothing), and its search
matches game ids and agent names literally."""

from __future__ import annotations

import html
import http.client
import json
import re
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import duckdb
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from webkit import Games, serving


def status(url: str, host: str) -> tuple[int, bytes]:
    """The status and body of GET / at `url` sent with `host` as its Host header."""
    parts = urlsplit(url)
    con = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=30)
    try:
        con.putrequest("GET", "/", skip_host=True)
        con.putheader("Host", host)
        con.endheaders()
        got = con.getresponse()
        return got.status, got.read()
    finally:
        con.close()


@pytest.fixture(scope="module")
def served(games: Games) -> Iterator[str]:
    with serving(games.db) as url:
        yield url


def test_the_served_names_are_answered(served: str) -> None:
    port = urlsplit(served).port
    for host in ("127.0.0.1", "localhost", "LOCALHOST", "[::1]"):
        for shown in (host, f"{host}:{port}"):
            code, body = status(served, shown)
            assert code == 200 and b"<html" in body, shown


NAMES = st.from_regex(r"[a-z0-9][a-z0-9-]{0,20}(\.[a-z0-9-]{1,10}){0,3}", fullmatch=True)


@settings(max_examples=40, deadline=None)
@given(name=NAMES, port=st.none() | st.integers(1, 65535))
def test_any_other_name_is_refused(served: str, name: str, port: int | None) -> None:
    if name in ("127.0.0.1", "localhost"):
        return
    code, body = status(served, name if port is None else f"{name}:{port}")
    assert code == 400, name
    assert b"game" not in body.lower()


def test_the_address_given_with_host_is_served(games: Games) -> None:
    with serving(games.db, host="127.0.0.2") as url:
        port = urlsplit(url).port
        assert status(url, f"127.0.0.2:{port}")[0] == 200
        assert status(url, f"localhost:{port}")[0] == 200
        assert status(url, f"rebound.example:{port}")[0] == 400


def stored_games(db: Path) -> list[tuple[str, list[str]]]:
    """Every game's id and agent names, read straight from the store."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        rows = con.execute("SELECT game_id, seats FROM games").fetchall()
    finally:
        con.close()
    return [(gid, [s["agent"] for s in json.loads(seats)]) for gid, seats in rows]


def listed(url: str, q: str) -> set[str]:
    """The game ids the list shows for the search `q` (every page)."""
    found: set[str] = set()
    for page in range(1, 100):
        query = urlencode({"q": q, "page": page})
        with urllib.request.urlopen(f"{url}/?{query}", timeout=30) as r:
            ids = re.findall(r'data-id="([^"]+)"', r.read().decode())
        if not ids:
            return found
        found.update(html.unescape(i) for i in ids)
    return found


@settings(max_examples=30, deadline=None)
@given(q=st.text(alphabet='_%\\"{}[]:,.*?aeiorstxyz0-9 <>', min_size=1, max_size=4))
def test_search_matches_ids_and_agent_names_literally(served: str, games: Games, q: str) -> None:
    """A LIKE wildcard, a JSON key or escape in the search box matches only itself."""
    if not q.strip():
        return
    want = {
        gid
        for gid, agents in stored_games(games.db)
        if gid.startswith(q.strip()) or any(q.strip().lower() in a.lower() for a in agents)
    }
    assert listed(served, q) == want


def test_search_for_an_underscore_or_a_backslash_is_literal(served: str, games: Games) -> None:
    for q in ("_", "\\", '"', "agent"):
        want = {
            gid
            for gid, agents in stored_games(games.db)
            if gid.startswith(q) or any(q in a.lower() for a in agents)
        }
        assert listed(served, q) == want, q
