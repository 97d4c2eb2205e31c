"""`cattle serve` answers only requests addressed to a name it serves: a page elsewhere whose
name is made to resolve to this machine (DNS rebinding) gets nothing."""

from __future__ import annotations

import http.client
from collections.abc import Iterator
from urllib.parse import urlsplit

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
