"""A damaged store is never written into: every command that opens the file for writing
first reads every block of every table (DuckDB checks each against its checksum), so damage
that a reader meets stops a writer before it writes anything."""

from __future__ import annotations

import hashlib
from pathlib import Path

import duckdb
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from events.store import DuckStore, StoreDamaged, StoreError
from tests.cli.clikit import cattle


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store of three standard games (about 2 MB)."""
    db = tmp_path_factory.mktemp("damaged") / "games.duckdb"
    for seed in ("1", "2", "3"):
        made = cattle("play", "--seed", seed, "--db", db)
        assert made.returncode == 0, made.stderr
    return db


def damaged_at(clean: Path, dest: Path, fraction: float) -> Path:
    """A copy of `clean` with 2 KB of bytes flipped at `fraction` of its length."""
    data = bytearray(clean.read_bytes())
    start = int(len(data) * fraction) // 4096 * 4096 + 1000
    for off in range(start, min(len(data), start + 2000), 97):
        data[off] ^= 0xFF
    dest.write_bytes(bytes(data))
    return dest


def a_reader_finds_damage(path: Path) -> bool:
    """True if reading every table of the file whole fails (what `cattle games`, `sql` and
    the viewer may meet)."""
    try:
        con = duckdb.connect(str(path), read_only=True)
    except duckdb.Error:
        return True
    try:
        for (table,) in con.execute(
            "SELECT table_name FROM duckdb_tables() WHERE database_name = current_database()"
        ).fetchall():
            con.execute(f'SELECT * FROM "{table}"').fetchall()
    except duckdb.Error:
        return True
    finally:
        con.close()
    return False


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(fraction=st.floats(0.0, 0.99))
def test_damage_a_reader_meets_stops_every_writer(
    clean: Path, tmp_path: Path, fraction: float
) -> None:
    path = damaged_at(clean, tmp_path / "copy.duckdb", fraction)
    before = digest(path)
    if not a_reader_finds_damage(path):
        return  # the bytes flipped lie where nothing reads (free blocks)
    with pytest.raises(StoreError) as caught:
        DuckStore(path).close()
    assert isinstance(caught.value, StoreDamaged) or "damaged" in str(caught.value)
    assert digest(path) == before


def test_play_and_tournament_refuse_a_damaged_store(clean: Path, tmp_path: Path) -> None:
    """Damage at every twentieth of the file that a reader meets: no command writes."""
    for step in range(20):
        path = damaged_at(clean, tmp_path / f"copy-{step}.duckdb", step / 20)
        if not a_reader_finds_damage(path):
            continue
        before = digest(path)
        for args in (
            ("play", "--preset", "micro-duel", "--seed", "4"),
            ("tournament", "--agents", "random,economy", "--games", "50", "--preset",
             "micro-duel", "--quiet"),
        ):  # fmt: skip
            done = cattle(*args, "--db", path, env={"COLUMNS": "400"})
            assert done.returncode == 1, (step, args, done.stdout, done.stderr)
            assert "damaged" in done.stderr and "Traceback" not in done.stderr
            assert digest(path) == before, (step, args)
