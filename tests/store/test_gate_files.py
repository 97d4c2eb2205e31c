"""The files that keep processes opening one store apart (its gate, the waiting readers'
notes) live beside the store and are gone once nobody needs them: nothing is left in the
shared temporary folder, under names anyone could predict."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from events import store as store_module
from events.store import DuckStore, _gate, _knock, readers_waiting
from tests.cli.clikit import cattle, held_open


@pytest.fixture
def private_tmp(tmp_path: Path) -> Path:
    """A temporary folder of the test's own, given to the commands as $TMPDIR."""
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    return tmp


def test_commands_leave_no_files_in_the_temporary_folder_or_beside_the_store(
    tmp_path: Path, private_tmp: Path
) -> None:
    folder = tmp_path / "data"
    db = folder / "games.duckdb"
    env = {"TMPDIR": str(private_tmp)}
    for args in (
        ("play", "--preset", "micro-duel", "--seed", "1"),
        ("tournament", "--agents", "random,economy", "--games", "4", "--preset", "micro-duel",
         "--quiet"),
        ("games",),
        ("sql", "SELECT count(*) FROM games"),
        ("verify", "--all"),
    ):  # fmt: skip
        done = cattle(*args, "--db", db, env=env)
        assert done.returncode == 0, (args, done.stderr)
        assert sorted(p.name for p in private_tmp.iterdir()) == [], args
        assert sorted(p.name for p in folder.iterdir()) == ["games.duckdb"], args


def test_a_link_in_the_gates_place_is_not_followed(tmp_path: Path) -> None:
    db = tmp_path / "games.duckdb"
    victim = tmp_path / "victim.txt"
    victim.write_text("keep")
    (tmp_path / "games.duckdb.gate").symlink_to(victim)
    done = cattle("play", "--preset", "micro-duel", "--seed", "2", "--db", db)
    assert done.returncode == 0, done.stderr
    assert victim.read_text() == "keep"


def test_the_gate_keeps_a_closing_writer_apart_and_is_removed_after(tmp_path: Path) -> None:
    db = tmp_path / "g.duckdb"
    DuckStore(db).close()
    gate = tmp_path / "g.duckdb.gate"
    order: list[str] = []

    def reader() -> None:
        with _gate(str(db), exclusive=False):
            order.append("reader")

    with _gate(str(db), exclusive=True):
        assert gate.exists()
        t = threading.Thread(target=reader)
        t.start()
        t.join(0.5)
        assert t.is_alive()  # the reader waits as long as the writer holds the gate
        order.append("writer")
    t.join(30)
    assert order == ["writer", "reader"]
    assert not gate.exists()


def test_a_readers_note_is_taken_back_with_its_folder(tmp_path: Path) -> None:
    db = tmp_path / "g.duckdb"
    DuckStore(db).close()
    with held_open(db):  # another process holds the file: this one waits, leaving a note
        note = _knock(str(db))
        assert note is not None and note.parent == tmp_path / "g.duckdb.readers"
        assert not readers_waiting(str(db))  # its own note does not count
    store_module._unknock(note)
    assert sorted(os.listdir(tmp_path)) == ["g.duckdb"]
