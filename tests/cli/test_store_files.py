"""Database files that are damaged, foreign, unreachable or left behind: one clear line, nothing lost."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import duckdb
import pytest
from clikit import ENV, ROOT, cattle

from events.store import DuckStore, StoreDamaged, sweep_temp_files


def check(result: subprocess.CompletedProcess[str], code: int, *phrases: str) -> None:
    assert result.returncode == code, (result.args, result.returncode, result.stderr)
    assert "Traceback" not in result.stderr + result.stdout
    assert len(result.stderr.strip().splitlines()) <= 3, result.stderr
    text = (result.stderr + result.stdout).lower()
    for phrase in phrases:
        assert phrase.lower() in text, (phrase, result.stderr)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store with a few standard games (about 2 MB)."""
    db = tmp_path_factory.mktemp("files") / "games.duckdb"
    for seed in (1, 2, 3):
        made = cattle("play", "--seed", str(seed), "--db", db)
        assert made.returncode == 0, made.stderr
    return db


READS = [
    ("games",),
    ("sql", "SELECT count(*) FROM events"),
    ("ratings",),
    ("metrics",),
    ("verify", "--all"),
]


def damaged_copies(src: Path, tmp: Path) -> dict[str, Path]:
    data = src.read_bytes()
    out = {}
    cut = tmp / "truncated.duckdb"
    cut.write_bytes(data[: 1 << 20] if len(data) > 1 << 20 else data[: len(data) // 2])
    out["truncated"] = cut
    flipped = bytearray(data)
    for off in range(len(data) // 2, min(len(data), len(data) // 2 + 64 * 1024), 97):
        flipped[off] ^= 0xFF
    flip = tmp / "flipped.duckdb"
    flip.write_bytes(bytes(flipped))
    out["flipped"] = flip
    junk = tmp / "junk.duckdb"
    junk.write_bytes(b"not a database at all\n" * 100)
    out["junk"] = junk
    empty = tmp / "empty.duckdb"
    empty.write_bytes(b"")
    out["empty"] = empty
    return out


@pytest.mark.parametrize("kind", ["truncated", "flipped", "junk", "empty"])
def test_a_damaged_file_gives_one_clear_line_and_is_not_changed(
    stored: Path, tmp_path: Path, kind: str
) -> None:
    path = damaged_copies(stored, tmp_path)[kind]
    before = digest(path)
    commands = [*READS, ("show", "x"), ("play", "--preset", "micro-duel")]
    for args in commands:
        result = cattle(*args, "--db", path)
        if result.returncode != 0:
            check(result, result.returncode)
            assert "error" in result.stderr.lower()
        else:
            # Damage in pages a command never reads cannot be seen by it.
            assert kind == "flipped", (args, result.stdout)
        if args[0] != "play" or result.returncode != 0:
            assert digest(path) == before, args


def test_a_damaged_file_is_named_as_damaged(stored: Path, tmp_path: Path) -> None:
    copies = damaged_copies(stored, tmp_path)
    for kind in ("junk", "empty", "truncated"):
        result = cattle("games", "--db", copies[kind])
        check(result, 1, "damaged")
    with pytest.raises(StoreDamaged):
        DuckStore(copies["junk"], read_only=True)


def test_a_foreign_database_is_refused_unless_init(tmp_path: Path) -> None:
    db = tmp_path / "theirs.duckdb"
    con = duckdb.connect(str(db))
    con.execute("CREATE TABLE customers (id INTEGER, name VARCHAR)")
    con.execute("INSERT INTO customers VALUES (1, 'Ada')")
    con.close()
    before = digest(db)
    for args in (("play", "--preset", "micro-duel"), ("games",), ("sql", "SELECT 1")):
        result = cattle(*args, "--db", db)
        check(result, 1, "other tables", "customers")
    assert digest(db) == before
    adopted = cattle("play", "--preset", "micro-duel", "--init", "--json", "--db", db)
    assert adopted.returncode == 0, adopted.stderr
    gid = json.loads(adopted.stdout)["game_id"]
    con = duckdb.connect(str(db), read_only=True)
    assert con.execute("SELECT * FROM customers").fetchall() == [(1, "Ada")]
    assert con.execute("SELECT count(*) FROM games WHERE game_id = ?", [gid]).fetchone() == (1,)
    con.close()
    # Once adopted, no --init is needed any more.
    check(cattle("games", "--db", db), 0)


def test_an_unreadable_schema_version_is_reported(stored: Path, tmp_path: Path) -> None:
    db = tmp_path / "version.duckdb"
    db.write_bytes(stored.read_bytes())
    con = duckdb.connect(str(db))
    con.execute("UPDATE meta SET value = 'two' WHERE key = 'schema_version'")
    con.close()
    for args in (("games",), ("play", "--preset", "micro-duel")):
        check(cattle(*args, "--db", db), 1, "schema version", "'two'")
    con = duckdb.connect(str(db))
    con.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    con.close()
    check(cattle("games", "--db", db), 1, "schema version 99")


def test_db_paths_that_cannot_be_used(tmp_path: Path) -> None:
    regular = tmp_path / "plain.txt"
    regular.write_text("a file")
    check(
        cattle("play", "--preset", "micro-duel", "--db", regular / "sub" / "g.duckdb"),
        1,
        "is a file, not a folder",
    )
    check(cattle("play", "--preset", "micro-duel", "--db", tmp_path), 1, "is a directory")
    assert regular.read_text() == "a file"


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes through file permissions")
def test_db_on_a_read_only_folder(tmp_path: Path) -> None:
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        check(
            cattle("play", "--preset", "micro-duel", "--db", ro / "new" / "g.duckdb"),
            1,
            "cannot create",
        )
    finally:
        ro.chmod(stat.S_IRWXU)


def _read_only_mount(folder: Path) -> list[str] | None:
    """A command prefix under which `folder` is mounted read-only (root only), or None."""
    unshare = shutil.which("unshare")
    if os.geteuid() != 0 or unshare is None:
        return None
    script = 'mount --bind "$0" "$0" && mount -o remount,ro,bind "$0" "$0" && exec "$@"'
    probe = subprocess.run([unshare, "-m", "sh", "-c", script, str(folder), "true"])
    return [unshare, "-m", "sh", "-c", script, str(folder)] if probe.returncode == 0 else None


def test_every_read_command_works_on_a_read_only_file(stored: Path, tmp_path: Path) -> None:
    folder = tmp_path / "media"
    folder.mkdir()
    db = folder / "ro.duckdb"
    db.write_bytes(stored.read_bytes())
    gid = json.loads(cattle("games", "--json", "--db", db).stdout)[0]["game_id"]
    db.chmod(stat.S_IRUSR)
    # As root, permissions do not stop writes: mount the folder read-only for the commands.
    prefix = _read_only_mount(folder) or []
    before = digest(db)
    out = tmp_path / "out"
    for args in (
        ("games",),
        ("show", gid),
        ("replay", gid),
        ("replay", gid, "--verify"),
        ("sql", "SELECT count(*) FROM bids"),
        ("ratings",),
        ("metrics",),
        ("costs",),
        ("report", "--out", out / "r.html", "--resamples", "20"),
        ("export", "--out", out / "export", "--format", "jsonl"),
        ("verify", "--all"),
        ("recover", "--dry-run"),
    ):
        result = subprocess.run(
            [*prefix, sys.executable, "-m", "cli.main", *map(str, args), "--db", str(db)],
            cwd=ROOT,
            env=ENV,
            capture_output=True,
            text=True,
            timeout=180,
        )
        check(result, 0)
    assert digest(db) == before
    assert sorted(p.name for p in folder.iterdir()) == ["ro.duckdb"]  # no WAL, no temp file
    assert (out / "r.html").stat().st_size > 1000
    assert (out / "export" / "metric_values.jsonl").exists()
    if prefix:
        # The mount is real: a writing command is refused on it with one line.
        play = subprocess.run(
            [*prefix, sys.executable, "-m", "cli.main", "play", "--db", str(db)],
            cwd=ROOT,
            env=ENV,
            capture_output=True,
            text=True,
            timeout=180,
        )
        assert play.returncode == 1, play.stderr
        assert "Traceback" not in play.stderr and "error" in play.stderr.lower()
        assert digest(db) == before


def test_bulk_load_files_of_a_killed_writer_are_removed(tmp_path: Path) -> None:
    tmp = Path(tempfile.gettempdir())
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    dead_pid = int(dead.stdout)
    left = tmp / f"cattle-events-{dead_pid}-abc123.csv"
    left.write_text("x" * 1000)
    live = tmp / f"cattle-events-{os.getpid()}-def456.csv"
    live.write_text("mine")
    try:
        # Any store opened afterwards cleans up after the dead writer, never after a live one.
        check(cattle("play", "--preset", "micro-duel", "--db", tmp_path / "g.duckdb"), 0)
        assert not left.exists()
        assert live.exists()
        assert sweep_temp_files() == []
    finally:
        live.unlink(missing_ok=True)
        left.unlink(missing_ok=True)


def test_a_killed_tournament_leaves_no_bulk_load_files(tmp_path: Path) -> None:
    tmp = Path(tempfile.gettempdir())
    db = tmp_path / "t.duckdb"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "cli.main",
            "tournament",
            "--agents",
            "tracker,setrace,economy,random",
            "--games",
            "400",
            "--seed",
            "3",
            "--quiet",
            "--db",
            str(db),
        ],
        cwd=Path(__file__).resolve().parents[2],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    pid = proc.pid
    import time

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if list(tmp.glob(f"cattle-events-{pid}-*.csv")):
            break
        time.sleep(0.001)
    proc.kill()
    proc.wait()
    # Whatever the kill left, the next command sweeps it away.
    check(cattle("games", "--db", db), 0)
    assert not list(tmp.glob(f"cattle-events-{pid}-*.csv"))
