"""Commands that write files (report, export, publish) never write over a database, by name
or through a link, nor over a file they did not write unless told to with --force."""

from __future__ import annotations

import hashlib
import subprocess
from pathlib import Path

import pytest
from clikit import cattle


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def refused(done: subprocess.CompletedProcess[str], *phrases: str) -> None:
    assert done.returncode == 2, (done.args, done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    text = " ".join(done.stderr.split())
    for phrase in phrases:
        assert phrase in text, (phrase, done.stderr)


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("outfiles") / "games.duckdb"
    for seed in ("1", "2"):
        made = cattle("play", "--preset", "micro-duel", "--seed", seed, "--db", db)
        assert made.returncode == 0, made.stderr
    return db


def run(command: str, out: Path, db: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    more = ("--resamples", "10") if command == "report" else ()
    return cattle(command, "--out", out, *more, *extra, "--db", db, env={"COLUMNS": "400"})


def test_report_never_replaces_a_database(store: Path, tmp_path: Path) -> None:
    before = digest(store)
    link = tmp_path / "link.html"
    link.symlink_to(store)
    other = tmp_path / "other.duckdb"
    other.write_bytes(store.read_bytes())
    for target in (store, link, other):
        for force in ((), ("--force",)):
            refused(run("report", target, store, *force), "is a database")
    assert digest(store) == before and digest(other) == before


def test_report_leaves_a_file_it_did_not_write_unless_forced(store: Path, tmp_path: Path) -> None:
    notes = tmp_path / "notes.html"
    notes.write_text("my notes")
    refused(run("report", notes, store), "was not written by this command", "--force")
    assert notes.read_text() == "my notes"
    linked = tmp_path / "to-notes.html"
    linked.symlink_to(notes)
    refused(run("report", linked, store), "was not written by this command")
    assert notes.read_text() == "my notes"
    assert run("report", notes, store, "--force").returncode == 0
    assert "<html" in notes.read_text()
    # A report this command wrote is written over without being told.
    notes.write_text(notes.read_text() + "<!-- stale -->")
    assert run("report", notes, store).returncode == 0
    assert "<html" in notes.read_text() and "stale" not in notes.read_text()


@pytest.mark.parametrize("command", ["export", "publish"])
def test_a_folder_command_never_writes_over_a_database(
    store: Path, tmp_path: Path, command: str
) -> None:
    before = digest(store)
    for force in ((), ("--force",)):
        refused(run(command, store, store, *force), "is a file")
    # A link in a folder the command wrote before, pointing at the store, is never followed.
    folder = tmp_path / "out"
    assert run(command, folder, store).returncode == 0
    name = "events.parquet" if command == "export" else "index.html"
    (folder / name).unlink()
    (folder / name).symlink_to(store)
    for force in ((), ("--force",)):
        refused(run(command, folder, store, *force), "is a database")
    assert digest(store) == before


@pytest.mark.parametrize("command", ["export", "publish"])
def test_a_folder_command_leaves_other_folders_alone_unless_forced(
    store: Path, tmp_path: Path, command: str
) -> None:
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine")
    refused(run(command, folder, store), "holds other files", "--force")
    assert sorted(p.name for p in folder.iterdir()) == ["notes.txt"]
    assert run(command, folder, store, "--force").returncode == 0
    assert (folder / "notes.txt").read_text() == "mine"
    # Written once, the folder is the command's own: no --force needed again.
    assert run(command, folder, store).returncode == 0
    fresh = tmp_path / "new" / "deeper"
    assert run(command, fresh, store).returncode == 0
