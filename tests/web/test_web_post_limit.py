"""A seat's answer is read no further than its 64 KB limit, over real HTTP: a body that says
it is larger is refused before any of it is read, and one sent in chunks without a length
is cut as soon as it passes the limit (either way the client never has to send the rest)."""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from webkit import Games, served_here

from agents.human.mailbox import write_json
from cli.web.app import MAX_FORM, create_app

TOKEN = "e5" * 16


@pytest.fixture()
def seat(games: Games, tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A viewer over HTTP with one question waiting; its address and the question folder."""
    seats = tmp_path / "seats"
    seats.mkdir()
    write_json(seats / f"{TOKEN}.json", {"token": TOKEN, "desk": None, "pid": os.getpid(),
                                         "seat": 0, "schema": None, "notes": []})  # fmt: skip
    with served_here(create_app(games.db, seats=seats)) as url:
        yield url, seats


def answer_to(url: str, head: str, body: bytes) -> bytes:
    """Send a POST to the question with headers `head` and the start of a body, send no
    more, and return what the server answers (a server that waits for the rest of the body
    answers nothing, and the read times out)."""
    parts = urlsplit(url)
    with socket.create_connection((parts.hostname, parts.port), timeout=30) as conn:
        conn.sendall(
            f"POST /seats/{TOKEN} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            "Content-Type: application/x-www-form-urlencoded\r\n"
            f"{head}\r\n".encode()
            + body
        )
        got = b""
        try:
            while b"\r\n\r\n" not in got:
                chunk = conn.recv(65536)
                if not chunk:
                    break
                got += chunk
        except TimeoutError:
            return b"(no answer: the server waits for the rest of the body)"
        return got


def test_a_declared_length_over_the_limit_is_refused_unread(seat: tuple[str, Path]) -> None:
    url, seats = seat
    t0 = time.monotonic()
    got = answer_to(url, "Content-Length: 600000000\r\n", b"line=" + b"x" * 1000)
    assert got.startswith(b"HTTP/1.1 413"), got[:200]
    assert time.monotonic() - t0 < 30
    assert not (seats / f"{TOKEN}.answer").exists()


def test_a_chunked_body_is_cut_at_the_limit(seat: tuple[str, Path]) -> None:
    url, seats = seat
    piece = b"x" * 8192
    chunks = b"5\r\nline=\r\n" + b"".join(
        f"{len(piece):x}\r\n".encode() + piece + b"\r\n" for _ in range(MAX_FORM // 8192 + 2)
    )
    got = answer_to(url, "Transfer-Encoding: chunked\r\n", chunks)
    assert got.startswith(b"HTTP/1.1 413"), got[:200]
    assert not (seats / f"{TOKEN}.answer").exists()
