"""Several processes writing one file in turns lose nothing.

Writers let the file go between transactions (when a reader waits) and take it back later, so
on a busy store the file changes hands between processes hundreds of times a minute. Each
hand-over must carry every commit made before it: a writer that opened the file before the
previous one had finished closing it saw an older state and, writing over it, erased the last
commits of the other (seen as a hole in a finished game with model seats).
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from events.store import DuckStore, connect

ROOT = Path(__file__).resolve().parents[2]

WRITER = """
import sys
from engine.cattle.presets import load_preset
from engine.cattle.rules import ENGINE_VERSION
from runner.session import seat_specs
from events.cattle import game as ev
from events.store import DuckStore, GameRow

path, game_id, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
config = load_preset("micro-duel")
seats = seat_specs(["random"] * config.players)
store = DuckStore(path)
store.begin_game(
    GameRow(game_id=game_id, seed=1, config=config, seats=seats, engine_version=ENGINE_VERSION)
)
for i in range(n):
    store.append(game_id, [ev.TurnStarted(turn=i, seat=0, deck_left=0)], [i])
    if i % 2:
        store.release()  # as when a reader waits: the file changes hands here
store.close()
"""

READER = """
import sys, time
from events.store import DuckStore

path, seconds = sys.argv[1], float(sys.argv[2])
end = time.monotonic() + seconds
while time.monotonic() < end:
    with DuckStore(path, read_only=True) as store:
        store.list_games()
    time.sleep(0.005)
"""


def test_commits_survive_the_file_changing_hands(tmp_path: Path) -> None:
    db = tmp_path / "turns.duckdb"
    DuckStore(db).close()
    # 4 x 100 commits, half of them followed by a hand-over: hundreds of changes of hands,
    # each one a chance to lose the commits before it.
    writers, appends = 4, 100
    procs = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(db), f"w{i}", str(appends)], cwd=ROOT)
        for i in range(writers)
    ]
    reader = subprocess.Popen([sys.executable, "-c", READER, str(db), "600"], cwd=ROOT)
    try:
        deadline = time.monotonic() + 900  # a guard against a hang, not a speed limit
        for p in procs:
            assert p.wait(timeout=max(1.0, deadline - time.monotonic())) == 0
    finally:
        reader.kill()
        reader.wait()
        for p in procs:
            p.kill()
            p.wait()
    con = connect(str(db), read_only=True, wait=30)
    try:
        rows = con.execute(
            "SELECT game_id, seq, payload FROM events ORDER BY game_id, seq"
        ).fetchall()
    finally:
        con.close()
    turns: dict[str, list[int]] = {}
    for gid, seq, payload in rows:
        assert seq == len(turns.setdefault(gid, []))
        turns[gid].append(json.loads(payload)["turn"])
    lost = {g: appends - len(t) for g, t in turns.items() if t != list(range(appends))}
    assert sorted(turns) == [f"w{i}" for i in range(writers)]
    assert not lost, f"commits lost per writer: {lost}"
