"""`cattle serve` and `cattle publish` through the real command line: bad input gets one clear
line and a non-zero exit, a published site holds what it says."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest
from webkit import ROOT, Games


def cattle(*args: str | Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """The `cattle` command in a subprocess."""
    env = {k: v for k, v in os.environ.items() if k != "CATTLE_DB"}
    env.update({"COLUMNS": "300", "NO_COLOR": "1", "TERM": "dumb"})
    return subprocess.run(
        [sys.executable, "-m", "cli.main", *map(str, args)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def one_line(done: subprocess.CompletedProcess[str], code: int, says: str) -> None:
    assert done.returncode == code, done
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and says in lines[0], done.stderr
    assert "Traceback" not in done.stderr


def test_serve_refuses_bad_input(games: Games, tmp_path: Path) -> None:
    one_line(cattle("serve", "--db", games.db, "--port", "70000"), 2, "--port must be")
    one_line(cattle("serve", "--db", games.db, "--host", "no.such.host.invalid"), 2, "--host")
    for delay in ("-1", "1e9", "nan"):
        one_line(
            cattle("serve", "--db", games.db, "--port", "0", "--spectator-delay", delay),
            2,
            "--spectator-delay",
        )
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        one_line(cattle("serve", "--db", games.db, "--port", port), 2, "cannot listen")


def test_serve_looks_at_the_store_before_it_listens(tmp_path: Path) -> None:
    """A missing store is named as such, whatever holds the port (the default one
    included): no port is taken before the store has been opened."""
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        missing = tmp_path / "none.duckdb"
        one_line(cattle("serve", "--db", missing, "--port", port), 1, "no database")


def test_publish_refuses_bad_input(games: Games, tmp_path: Path) -> None:
    a_file = tmp_path / "file.txt"
    a_file.write_text("x")
    one_line(cattle("publish", "--out", a_file, "--db", games.db), 2, "is a file")
    one_line(
        cattle("publish", "--out", tmp_path / "s", "--tournament", "nope", "--db", games.db),
        2,
        "no games in tournament",
    )
    other = tmp_path / "busy"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    one_line(cattle("publish", "--out", other, "--db", games.db), 2, "holds other files")
    one_line(
        cattle("publish", "--out", tmp_path / "s", "--limit", "0", "--db", games.db), 2, "--limit"
    )


def test_publish_writes_public_views_only(games: Games, tmp_path: Path) -> None:
    out = tmp_path / "site"
    done = cattle("publish", "--out", out, "--tournament", "cup", "--db", games.db)
    assert done.returncode == 0, done.stderr
    pages = sorted(p.name for p in (out / "games").glob("*.html"))
    assert len(pages) == 4 and not any(".all." in p for p in pages)
    con = duckdb.connect(str(games.db), read_only=True)
    try:
        for page in (out / "games").glob("*.json"):
            data = json.loads(page.read_text())
            public = [
                r[0]
                for r in con.execute(
                    "SELECT seq FROM events WHERE game_id = ? AND visible_to IS NULL ORDER BY seq",
                    [data["game"]["game_id"]],
                ).fetchall()
            ]
            assert [e["seq"] for e in data["events"]] == public
    finally:
        con.close()
    again = cattle("publish", "--out", out, "--tournament", "cup", "--db", games.db)
    assert again.returncode == 0, again.stderr  # a site written before is rewritten


@pytest.mark.parametrize("ctrl_c_ignored", [False, True])
def test_serve_stops_cleanly_on_sigterm(games: Games, ctrl_c_ignored: bool) -> None:
    """Also when started the way a script starts a job in the background (SIGINT ignored)."""
    import signal
    import time

    disposition = signal.SIG_IGN if ctrl_c_ignored else signal.SIG_DFL
    proc = subprocess.Popen(
        [sys.executable, "-m", "cli.main", "serve", "--db", str(games.db), "--port", "0"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "COLUMNS": "300", "NO_COLOR": "1"},
        preexec_fn=lambda: signal.signal(signal.SIGINT, disposition),
    )
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        assert "http://127.0.0.1:" in first and ":0/" not in first
        time.sleep(0.5)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 128 + signal.SIGTERM
    assert err.strip() == "stopped by SIGTERM"


def test_publish_takes_a_limit_larger_than_any_store(games: Games, tmp_path: Path) -> None:
    out = tmp_path / "all"
    done = cattle("publish", "--out", out, "--limit", "9" * 20, "--db", games.db)
    assert done.returncode == 0, done.stderr
    con = duckdb.connect(str(games.db), read_only=True)
    try:
        stored = con.execute("SELECT count(*) FROM games").fetchall()[0][0]
    finally:
        con.close()
    assert len(list((out / "games").glob("*.json"))) == stored


def test_a_public_site_keeps_nothing_private_from_an_earlier_one(
    games: Games, tmp_path: Path
) -> None:
    """An omniscient site rewritten as a public one, then with fewer games: what the new
    site does not hold is gone (no `*.all.*` page, no game left out)."""
    out = tmp_path / "site"
    done = cattle("publish", "--out", out, "--omniscient", "--db", games.db)
    assert done.returncode == 0, done.stderr
    assert list((out / "games").glob("*.all.*"))
    done = cattle("publish", "--out", out, "--tournament", "cup", "--db", games.db)
    assert done.returncode == 0, done.stderr
    assert not list(out.rglob("*.all.*"))
    pages = sorted(p.name for p in (out / "games").glob("*.html"))
    assert len(pages) == 4, pages
    assert {p.stem for p in (out / "games").iterdir()} == {p[:-5] for p in pages}


def test_a_folder_with_a_page_of_its_own_is_no_site(games: Games, tmp_path: Path) -> None:
    other = tmp_path / "blog"
    other.mkdir()
    (other / "index.html").write_text("<p>my blog</p>")
    one_line(cattle("publish", "--out", other, "--db", games.db), 2, "holds other files")
    assert (other / "index.html").read_text() == "<p>my blog</p>"


def test_public_pages_leave_out_where_models_are_served(games: Games, tmp_path: Path) -> None:
    con = duckdb.connect(str(games.db), read_only=True)
    try:
        seats = json.loads(
            con.execute("SELECT seats FROM games WHERE game_id = ?", [games.model]).fetchone()[0]
        )
    finally:
        con.close()
    url = next(s["options"]["base_url"] for s in seats if "base_url" in s.get("options", {}))
    public, everything = tmp_path / "public", tmp_path / "all"
    assert cattle("publish", "--out", public, "--db", games.db).returncode == 0
    assert cattle("publish", "--out", everything, "--omniscient", "--db", games.db).returncode == 0
    for page in public.rglob("*"):
        if page.is_file():
            text = page.read_text(errors="replace")
            assert url not in text and "base_url" not in text, page
    shown = [p for p in everything.rglob("*.all.json") if url in p.read_text()]
    assert shown  # the omniscient view still has it
