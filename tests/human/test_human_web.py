"""A seat taken in the browser: `cattle play --agents human?via=web,...` in a subprocess, its
questions answered through the viewer's /seats pages (the real app, over HTTP in process)."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path

from starlette.testclient import TestClient

from agents.human.mailbox import LEAVE_GRACE, waiting, write_json
from cli.web.app import create_app
from events.store import DuckStore
from runner.replay import verify
from tests.cli.clikit import ENV, ROOT


def next_question(seats: Path, proc: subprocess.Popen[str], seen: set[str]) -> str | None:
    """The token of the next question not answered yet, or None once the game is over."""
    while proc.poll() is None:
        for q in waiting(seats):
            if q["token"] not in seen:
                return str(q["token"])
        time.sleep(0.05)
    return None


def test_a_browser_seat_plays_a_whole_game(tmp_path: Path) -> None:
    db, seats = tmp_path / "g.duckdb", tmp_path / "seats"
    args = ["play", "--game", "openspiel", "--preset", "tic_tac_toe", "--seed", "3"]
    args += ["--agents", "human?via=web,random", "--db", str(db), "--init", "--json"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "cli.main", *args],
        cwd=ROOT,
        env={**ENV, "CATTLE_SEATS": str(seats)},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    seen: set[str] = set()
    try:
        first = next_question(seats, proc, seen)
        assert first is not None
        app = create_app(db, seats=seats)
        with TestClient(app, base_url="http://127.0.0.1") as client:
            listed = client.get("/seats", params={"key": app.state.operator_key})
            (desk,) = {q["desk"] for q in waiting(seats)}
            assert f"/seats/desk/{desk}" in listed.text  # the seat's page, for every decision
            assert client.get(f"/api/seats/{desk}").json()["token"] == first
            page = client.get(f"/seats/{first}")
            assert 'name="f_action"' in page.text and "x(1,1)" in page.text
            # Another site's page cannot answer for the person.
            forged = client.post(
                f"/seats/{first}", data={"line": "1"}, headers={"origin": "http://evil.test"}
            )
            assert forged.status_code == 403
            # A bad answer is refused with the reason, on the page; then a form answer.
            client.post(f"/seats/{first}", data={"line": "nowhere"})
            deadline = time.monotonic() + 30
            while "Refused" not in client.get(f"/seats/{first}").text:
                assert time.monotonic() < deadline
                time.sleep(0.05)
            done = client.post(f"/seats/{first}", data={"f_action": "x(1,1)"})
            assert done.status_code in (200, 303)
            seen.add(first)
            while (token := next_question(seats, proc, seen)) is not None:
                client.post(f"/seats/{token}", data={"line": "1"})
                seen.add(token)
            assert "Nothing waits here now" in client.get(f"/seats/{first}").text
            proc.wait(timeout=60)
            assert client.get(f"/api/seats/{desk}").json() == {
                "token": None,
                "over": True,
                "gone": False,
            }
            assert 'id="seat-over"' in client.get(f"/seats/desk/{desk}").text
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, proc.stderr.read() if proc.stderr else ""
    with DuckStore(db) as store:
        (row,) = store.list_games()
        events = store.load_events(row.game_id)
    answers = [e for e in events if e.__struct_config__.tag == "human_answer"]
    assert [a.text for a in answers[:2]] == ["nowhere", '{"action": "x(1,1)"}']
    assert re.search(r"x\(1,1\)", answers[1].text)
    assert verify(events).ok
    assert not list(seats.glob("*.json"))


def test_questions_of_a_stopped_process_are_removed(tmp_path: Path) -> None:
    stopped = subprocess.Popen([sys.executable, "-c", "pass"])
    stopped.wait()
    seats = tmp_path / "seats"
    seats.mkdir()
    token, desk = "a" * 32, "b" * 32
    write_json(seats / f"{token}.json", {"token": token, "desk": desk, "pid": stopped.pid})
    write_json(seats / f"{desk}.desk", {"desk": desk, "token": token, "pid": stopped.pid})
    write_json(seats / f"{token}.answer", {"line": "1"})
    DuckStore(tmp_path / "g.duckdb").close()
    app = create_app(tmp_path / "g.duckdb", seats=seats)
    with TestClient(app, base_url="http://127.0.0.1") as c:
        assert c.get(f"/api/seats/{desk}").json()["gone"] is True
        listed = c.get("/seats", params={"key": app.state.operator_key})
        assert "No game waits on a person" in listed.text
    assert not list(seats.iterdir())


def test_a_closed_page_leaves_the_seat_and_a_reload_keeps_it(tmp_path: Path) -> None:
    db, seats = tmp_path / "g.duckdb", tmp_path / "seats"
    args = ["play", "--game", "openspiel", "--preset", "tic_tac_toe", "--seed", "3"]
    args += ["--agents", "human?via=web&timeout=60,random", "--db", str(db), "--init"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "cli.main", *args],
        cwd=ROOT,
        env={**ENV, "CATTLE_SEATS": str(seats)},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        first = next_question(seats, proc, set())
        assert first is not None
        (desk,) = {q["desk"] for q in waiting(seats)}
        mark = seats / f"{desk}.left"
        with TestClient(create_app(db, seats=seats), base_url="http://127.0.0.1") as client:
            leave = f"/api/seats/{desk}/leave"
            assert client.post(leave, headers={"origin": "http://evil.test"}).status_code == 403
            assert client.post("/api/seats/" + "c" * 32 + "/leave").json() == {"marked": False}
            assert not mark.exists()  # no page of this seat ever closed
            # The page closes; a look it sent just before, arriving after, takes nothing back;
            # the page comes back (a reload, a new page): its look takes the mark back.
            assert client.post(leave + "?page=p1").json() == {"marked": True}
            client.get(f"/api/seats/{desk}?page=p1")
            assert mark.exists()
            client.get(f"/api/seats/{desk}?page=p2")
            assert not mark.exists()
            client.post(f"/seats/{first}", data={"line": "1"})
            second = next_question(seats, proc, {first})
            assert second is not None
            # Closed for longer than the grace: the seat leaves, the game plays on.
            write_json(mark, {"at": time.time() - LEAVE_GRACE - 1})
            proc.wait(timeout=30)
            assert client.get(f"/api/seats/{desk}").json()["over"] is True
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 4, proc.stderr.read() if proc.stderr else ""  # the person left
    with DuckStore(db) as store:
        (row,) = store.list_games()
        events = store.load_events(row.game_id)
    tags = [e.__struct_config__.tag for e in events]
    assert tags.count("human_answer") == 1
    (left,) = [e for e in events if e.__struct_config__.tag == "seat_abandoned"]
    assert left.reason == "page closed"
    assert verify(events).ok
