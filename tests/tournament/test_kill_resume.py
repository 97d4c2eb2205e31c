"""Model-seat games survive kills: what was answered is stored, and resuming pays only for the rest.

Every test runs the real `cattle` command in a subprocess against a loopback model server that
counts the requests it receives, and stops it with real signals.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from agents.llm.loopback import LegalPolicy, LoopbackServer
from events.store import connect
from tests.cli.clikit import hints, run_hint

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    """Fake keys, no config file, fast backoff, a write after every decision."""
    return make_env(tmp_path)


def make_env(folder: Path) -> dict[str, str]:
    """The environment of the commands under test, with an empty model config in `folder`."""
    cfg = folder / "llm.toml"
    cfg.write_text("")
    base = {k: v for k, v in os.environ.items() if k != "CATTLE_DB"}
    base.update(
        {
            "OPENAI_API_KEY": "sk-test-kill",
            "ANTHROPIC_API_KEY": "sk-ant-test-kill",
            "CATTLE_LLM_CONFIG": str(cfg),
            "CATTLE_LLM_BACKOFF": "0.001",
            "CATTLE_WRITE_INTERVAL": "0",
            "COLUMNS": "200",
            "NO_COLOR": "1",
        }
    )
    return base


SLOW = 0.03
"""Seconds the model waits before each answer while a command is to be stopped mid-game (so
a game lasts a few seconds); the runs that only play on answer at once."""


@pytest.fixture
def server() -> Iterator[LoopbackServer]:
    """A model that answers legal moves after `SLOW` seconds."""
    with LoopbackServer(LegalPolicy(), delay=SLOW) as s:
        yield s


def _ctrl_c(disposition: signal.Handlers) -> Callable[[], None]:
    def set_it() -> None:
        signal.signal(signal.SIGINT, disposition)

    return set_it


def start(
    args: list[str], env: dict[str, str], *, ignore_ctrl_c: bool = False
) -> subprocess.Popen[str]:
    """The command in a subprocess; Ctrl-C (SIGINT) reaches it as it does a command typed in
    a terminal, whatever this test process inherited, unless `ignore_ctrl_c` starts it the
    way a script starts a job in the background (SIGINT ignored)."""
    return subprocess.Popen(
        [sys.executable, "-m", "cli.main", *args],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_ctrl_c(signal.SIG_IGN if ignore_ctrl_c else signal.SIG_DFL),
    )


def run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cli.main", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def wait_for_requests(srv: LoopbackServer, n: int, proc: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 120
    while len(srv.requests) < n:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the game never reached the model"
        time.sleep(0.01)


def games(db: Path) -> dict[str, tuple[str, list[str]]]:
    """Each game's status and its event payloads (waiting while a writer holds the file)."""
    con = connect(str(db), read_only=True, wait=30)
    try:
        status = dict(con.execute("SELECT game_id, status FROM games").fetchall())
        out: dict[str, tuple[str, list[str]]] = {g: (s, []) for g, s in status.items()}
        for gid, payload in con.execute(
            "SELECT game_id, payload FROM events ORDER BY game_id, seq"
        ).fetchall():
            out[gid][1].append(payload)
        return out
    finally:
        con.close()


def timeless(events: list[str]) -> list[str]:
    """Event payloads without the measured latency of model calls (the one thing a rerun of
    the same answers cannot repeat)."""
    out = []
    for e in events:
        doc = json.loads(e)
        doc.pop("latency_ms", None)
        out.append(json.dumps(doc, sort_keys=True))
    return out


def tournament_args(srv: LoopbackServer, db: Path) -> list[str]:
    model = f"openai:loop@{srv.openai_url}"
    return [
        "tournament",
        "--format",
        "round-robin",
        "--preset",
        "micro-duel",
        "--agents",
        f"{model},random",
        "--games",
        "4",
        "--seed",
        "11",
        "--name",
        "kill",
        "--workers",
        "2",
        "--quiet",
        "--db",
        str(db),
    ]


def test_a_killed_model_tournament_resumes_without_asking_again(
    tmp_path: Path, env: dict[str, str], server: LoopbackServer
) -> None:
    # The same tournament played without interruption: what it costs and what it stores.
    ref_db = tmp_path / "ref.duckdb"
    server.delay = 0.0
    ref = run(tournament_args(server, ref_db), env)
    assert ref.returncode == 0, ref.stderr
    full = len(server.requests)
    reference = games(ref_db)
    assert full > 20 and all(s == "finished" for s, _ in reference.values())

    db = tmp_path / "killed.duckdb"
    before = len(server.requests)
    server.delay = SLOW
    proc = start(tournament_args(server, db), env)
    wait_for_requests(server, before + full // 3, proc)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    paid = len(server.requests) - before
    server.delay = 0.0

    kept = games(db)
    unfinished = {g: evs for g, (s, evs) in kept.items() if s != "finished"}
    assert unfinished, "the kill came after the tournament ended; slow the server down"
    assert sum(len(evs) for evs in unfinished.values()) > 0, "nothing was stored before the kill"
    stored_calls = sum(
        1 for _, evs in kept.values() for e in evs if json.loads(e)["type"] == "llm_call"
    )
    # Every answered call of the killed run is in the store, except the ones in flight: at most
    # one per game being played (two at a time, one model seat each).
    assert paid - stored_calls <= 2, (paid, stored_calls)

    mid = len(server.requests)
    resumed = run(["tournament", "--resume", "kill", "--quiet", "--db", str(db)], env)
    assert resumed.returncode == 0, resumed.stderr
    again = len(server.requests) - mid
    # The resumed run asks only for what was not stored: the total is the uninterrupted cost
    # plus the calls lost in flight.
    assert again < full
    assert full <= paid + again <= full + 2, (full, paid, again)

    # And the games are exactly those of the uninterrupted tournament (model latencies aside).
    final = games(db)
    assert set(final) == set(reference)
    for gid, (status, events) in reference.items():
        assert final[gid][0] == status == "finished"
        assert timeless(final[gid][1]) == timeless(events), gid


@pytest.mark.parametrize(
    ("sig", "ignore_ctrl_c"),
    [
        (signal.SIGTERM, False),
        (signal.SIGHUP, False),
        (signal.SIGINT, False),
        # Started in the background by a script: Ctrl-C is ignored, a kill still stops it.
        (signal.SIGTERM, True),
        (signal.SIGHUP, True),
    ],
)
def test_a_signal_stops_a_model_game_cleanly(
    tmp_path: Path,
    env: dict[str, str],
    server: LoopbackServer,
    sig: signal.Signals,
    ignore_ctrl_c: bool,
) -> None:
    db = tmp_path / "sig.duckdb"
    agents = f"openai:loop@{server.openai_url},random,random,random"
    proc = start(
        ["play", "--preset", "standard", "--seed", "5", "--agents", agents, "--db", str(db)],
        env,
        ignore_ctrl_c=ignore_ctrl_c,
    )
    wait_for_requests(server, 15, proc)
    proc.send_signal(sig)
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 128 + sig, stderr
    assert "Traceback" not in stderr
    ((gid, (status, events)),) = games(db).items()
    assert status == "abandoned"
    calls = [e for e in events if json.loads(e)["type"] == "llm_call"]
    assert len(server.requests) - len(calls) <= 1  # only the call in flight is lost

    # The game can be continued from where it stopped, without asking for those calls again.
    mid = len(server.requests)
    server.delay = 0.0  # nothing stops the rest of the game
    cont = run(["resume", gid, "--db", str(db)], env)
    assert cont.returncode == 0, cont.stderr
    ((status, events2),) = games(db).values()
    assert status == "finished"
    assert events2[: len(events)] == events
    new_calls = [e for e in events2 if json.loads(e)["type"] == "llm_call"][len(calls) :]
    assert len(server.requests) - mid == len(new_calls)


def test_a_game_whose_process_was_killed_is_recovered(
    tmp_path: Path, env: dict[str, str], server: LoopbackServer
) -> None:
    db = tmp_path / "orphan.duckdb"
    agents = f"openai:loop@{server.openai_url},random,random,random"
    proc = start(
        ["play", "--preset", "standard", "--seed", "6", "--agents", agents, "--db", str(db)], env
    )
    wait_for_requests(server, 10, proc)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    ((gid, (status, events)),) = games(db).items()
    assert status == "running" and events  # nothing could mark it

    listed = run(["recover", "--dry-run", "--json", "--db", str(db)], env)
    assert listed.returncode == 0, listed.stderr
    assert [g["game_id"] for g in json.loads(listed.stdout)] == [gid]
    assert games(db)[gid][0] == "running"  # a dry run changes nothing

    fixed = run(["recover", "--db", str(db)], env)
    assert fixed.returncode == 0, fixed.stderr
    assert gid in fixed.stdout and "abandoned" in fixed.stdout
    assert games(db)[gid] == ("abandoned", events)
    # The step it suggests runs as printed, from another folder: the game is finished.
    (step,) = hints(fixed.stdout)
    assert step.endswith(f"resume {gid} --db {db}"), step
    resumed = run_hint(step, tmp_path, env)
    assert resumed.returncode == 0, resumed.stderr
    assert games(db)[gid][0] == "finished"
    again = run(["recover", "--db", str(db)], env)
    assert "No game was left behind" in again.stdout


def test_a_live_game_is_not_taken_over(tmp_path: Path, env: dict[str, str]) -> None:
    db = tmp_path / "live.duckdb"
    with LoopbackServer(LegalPolicy(), delay=0.3) as slow:
        agents = f"openai:loop@{slow.openai_url},random,random,random"
        proc = start(
            ["play", "--preset", "standard", "--seed", "7", "--agents", agents, "--db", str(db)],
            env,
        )
        try:
            wait_for_requests(slow, 3, proc)
            gid = next(iter(games(db)))
            rec = run(["recover", "--db", str(db)], env)
            assert rec.returncode == 0 and "No game was left behind" in rec.stdout
            res = run(["resume", gid, "--db", str(db)], env)
            assert res.returncode == 2 and "still being played" in res.stderr
            assert proc.poll() is None, "the game ended before the checks; slow the server"
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.communicate(timeout=60)


def test_a_tournament_run_by_a_live_process_is_not_resumed_twice(
    tmp_path: Path, env: dict[str, str]
) -> None:
    db = tmp_path / "twice.duckdb"
    with LoopbackServer(LegalPolicy(), delay=0.3) as slow:
        proc = start(tournament_args(slow, db), env)
        try:
            wait_for_requests(slow, 3, proc)
            second = run(["tournament", "--resume", "kill", "--quiet", "--db", str(db)], env)
            assert second.returncode == 1, second.stderr
            assert "tournament:kill is being written by pid" in second.stderr
            assert proc.poll() is None, "the tournament ended before the check; slow the server"
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.communicate(timeout=60)
    # Stopped, its games are continued by the next --resume.
    assert {s for s, _ in games(db).values()} <= {"abandoned", "finished"}


TAMPERS = {
    "type": "UPDATE events SET type = 'bid_placed' WHERE seq = 5",
    "visible_to": "UPDATE events SET visible_to = NULL WHERE visible_to = []",
    "turn": "UPDATE events SET turn = turn + 1 WHERE seq = 40",
    "encoding": "UPDATE events SET payload = replace(payload, '\"seat\":', '\"seat\": ')"
    " WHERE seq = (SELECT min(seq) FROM events WHERE type = 'llm_call')",
}


@pytest.fixture(scope="module")
def stopped(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[Path, str, LoopbackServer]]:
    """A game with a model seat, stopped by SIGTERM after a few calls (status abandoned): its
    store (each test tampers with a copy), its id, and the model's server (still up, so that a
    resume that asked it anything would be seen)."""
    folder = tmp_path_factory.mktemp("stopped")
    db = folder / "stopped.duckdb"
    with LoopbackServer(LegalPolicy(), delay=SLOW) as srv:
        agents = f"openai:loop@{srv.openai_url},random,random,random"
        proc = start(
            ["play", "--preset", "standard", "--seed", "8", "--agents", agents, "--db", str(db)],
            make_env(folder),
        )
        wait_for_requests(srv, 12, proc)
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=60)
        ((gid, (status, _)),) = games(db).items()
        assert status == "abandoned"
        yield db, gid, srv


@pytest.mark.parametrize("check", sorted(TAMPERS))
def test_a_tampered_game_is_not_continued(
    tmp_path: Path,
    env: dict[str, str],
    stopped: tuple[Path, str, LoopbackServer],
    check: str,
) -> None:
    db = tmp_path / "tampered.duckdb"
    for suffix in ("", ".wal"):  # the file, and its log should one be left
        if Path(f"{stopped[0]}{suffix}").exists():
            shutil.copy(f"{stopped[0]}{suffix}", f"{db}{suffix}")
    gid, server = stopped[1], stopped[2]
    con = connect(str(db), read_only=False, wait=30)
    try:
        con.execute(TAMPERS[check])
    finally:
        con.close()
    before = games(db)
    asked = len(server.requests)
    res = run(["resume", gid, "--db", str(db)], env)
    assert res.returncode == 1, res.stdout + res.stderr
    assert "Traceback" not in res.stderr
    assert f"{gid} cannot be continued" in res.stderr and check in res.stderr, res.stderr
    assert games(db) == before  # nothing appended, status untouched
    assert len(server.requests) == asked


def test_a_tournament_with_a_tampered_game_is_not_resumed(
    tmp_path: Path, env: dict[str, str], server: LoopbackServer
) -> None:
    db = tmp_path / "tour.duckdb"
    proc = start(tournament_args(server, db), env)
    wait_for_requests(server, 20, proc)
    proc.send_signal(signal.SIGTERM)
    proc.communicate(timeout=60)
    kept = games(db)
    victim = next(g for g, (s, evs) in kept.items() if s == "abandoned" and len(evs) > 10)
    con = connect(str(db), read_only=False, wait=30)
    try:
        con.execute("UPDATE events SET turn = turn + 1 WHERE game_id = ? AND seq = 9", [victim])
    finally:
        con.close()
    before = games(db)
    res = run(["tournament", "--resume", "kill", "--quiet", "--db", str(db)], env)
    assert res.returncode == 1, res.stdout + res.stderr
    assert f"{victim} cannot be continued" in res.stderr and "turn" in res.stderr, res.stderr
    assert {g: v for g, v in games(db).items() if g in before} == before


def test_sigterm_while_a_game_is_continued_stops_it_cleanly(
    tmp_path: Path, env: dict[str, str], server: LoopbackServer
) -> None:
    db = tmp_path / "cont.duckdb"
    agents = f"openai:loop@{server.openai_url},random,random,random"
    proc = start(
        ["play", "--preset", "standard", "--seed", "9", "--agents", agents, "--db", str(db)], env
    )
    wait_for_requests(server, 40, proc)
    proc.send_signal(signal.SIGTERM)
    proc.communicate(timeout=60)
    ((gid, (_, stored)),) = games(db).items()
    # Signals at many moments: while the program starts, while the log is played again (a
    # busy loop of recorded answers), while the model client loads, while it plays live.
    for delay in (0.4, 0.7, 1.0, 1.3, 1.6, 1.9, 2.2, 2.6):
        cont = start(["resume", gid, "--db", str(db)], env)
        time.sleep(delay)
        cont.send_signal(signal.SIGTERM)
        _, stderr = cont.communicate(timeout=60)
        if cont.returncode == 0:
            break  # the game finished before the signal
        if cont.returncode == -signal.SIGTERM:
            # Killed while Python was still starting, before any handler (nothing was opened),
            # or on the way out, once the finished game was stored and the handlers given back.
            ((status, events),) = games(db).values()
            if status == "finished":
                assert events[: len(stored)] == stored
                break
            assert events == stored, status
            continue
        assert cont.returncode == 128 + signal.SIGTERM, stderr
        assert "Traceback" not in stderr and "Task" not in stderr, (delay, stderr)
        ((status, events),) = games(db).values()
        assert events[: len(stored)] == stored
        if status == "finished":
            break  # the game ended and was stored just before the signal, which cut the output
        assert status == "abandoned", delay
        stored = events


def test_sigterm_at_any_moment_of_a_code_tournament_stops_it_cleanly(
    tmp_path: Path, env: dict[str, str]
) -> None:
    db = tmp_path / "code.duckdb"
    args = ["--agents", "tracker,setrace,economy,random", "--games", "2000", "--seed", "3"]
    # Signals land anywhere, often in a DuckDB statement (a batch commit takes a while). The
    # first two are timed from the process start (on a slow machine they may land before any
    # handler); the others are timed from the line announcing the tournament, which is printed
    # once the store is open and the tournament recorded, so they land while it plays.
    moments = [("start", 0.3), ("start", 1.0)]
    moments += [("announced", d) for d in (0.0, 0.05, 0.2, 0.4, 0.7, 1.0)]
    for i, (since, delay) in enumerate(moments):
        name = f"code{i}"
        proc = start(["tournament", *args, "--name", name, "--quiet", "--db", str(db)], env)
        if since == "announced":
            assert proc.stdout is not None
            first = proc.stdout.readline()
            assert "Tournament" in first, first
        time.sleep(delay)
        proc.send_signal(signal.SIGTERM)
        _, stderr = proc.communicate(timeout=60)
        if proc.returncode == -signal.SIGTERM and since == "start":
            continue  # still starting, before any handler: nothing was opened
        assert proc.returncode == 128 + signal.SIGTERM, (since, delay, stderr)
        assert "Traceback" not in stderr, (since, delay, stderr)
    check = run(["verify", "--all", "--allow-unfinished", "--db", str(db)], env)
    assert check.returncode == 0, check.stdout + check.stderr
