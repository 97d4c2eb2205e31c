"""A writer that was killed but never reaped (a zombie: it ended, and no parent collected its
exit status, as in a container without an init) writes nothing: its claim on a tournament
lapses, and `cattle tournament --resume` takes the tournament over."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from engine.cattle.presets import load_preset
from events.process import pid_running, process_start
from events.store import DuckStore, Writer
from runner.tournament import create, ensure_schema
from tests.cli.clikit import cattle

_PARENT = """
import os, time
child = os.fork()
if child == 0:
    os._exit(0)
print(child, flush=True)
time.sleep(300)  # never waits for the child: it stays a zombie while this runs
"""


def _state(pid: int) -> str:
    stat = Path(f"/proc/{pid}/stat").read_text()
    return stat[stat.rfind(")") + 2 :].split()[0]


@contextmanager
def zombie() -> Iterator[int]:
    """The pid of a real zombie: a child that exited while its parent, alive, never reaps it."""
    parent = subprocess.Popen([sys.executable, "-c", _PARENT], stdout=subprocess.PIPE, text=True)
    try:
        assert parent.stdout is not None
        pid = int(parent.stdout.readline())
        deadline = time.monotonic() + 60
        while _state(pid) != "Z":  # the child is still on its way out
            assert time.monotonic() < deadline, "the child never became a zombie"
            time.sleep(0.01)
        yield pid
    finally:
        parent.kill()
        parent.wait()


def _claim_for(db: Path, key: str, pid: int) -> None:
    """Write the claim on `key` as the process `pid` would have written it."""
    with DuckStore(db) as store:
        store.con.execute(
            "INSERT OR REPLACE INTO writers VALUES (?, ?, ?, ?, now(), now())",
            [key, socket.gethostname(), pid, process_start(pid)],
        )


def test_a_zombie_is_not_running_and_its_claim_lapses(tmp_path: Path) -> None:
    db = tmp_path / "z.duckdb"
    with DuckStore(db) as store:
        ensure_schema(store)
    with zombie() as pid:
        assert not pid_running(pid)
        _claim_for(db, "tournament:kt", pid)
        stored = Writer(host=socket.gethostname(), pid=pid, started=process_start(pid))
        assert stored.alive() is False
        with DuckStore(db) as store:
            store.claim("tournament:kt")  # taken over, not refused
            found = store.writer("tournament:kt")
        assert found is not None and found[0] == Writer.me()
    assert pid_running(os.getppid())  # a process that runs still counts


def test_resume_takes_over_a_tournament_whose_writer_is_a_zombie(tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    with DuckStore(db) as store:
        ensure_schema(store)
        create(store, "kt", "round-robin", ("random", "tracker"), 2, 8, load_preset("micro-duel"))
    with zombie() as pid:
        _claim_for(db, "tournament:kt", pid)
        done = cattle("tournament", "--resume", "kt", "--quiet", "--db", db)
    assert done.returncode == 0, done.stderr
    assert "being written by" not in done.stderr
    with DuckStore(db, read_only=True) as store:
        _, rows = store.query(
            "SELECT count(*) FROM games WHERE tournament = 'kt' AND status = 'finished'"
        )
    assert rows == [(2,)]
