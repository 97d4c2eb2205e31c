"""OpenSpiel games too large to play, through the real command line: each is refused in one
line (exit 2) soon after it is named, within a memory limit, and a signal still stops the
command while OpenSpiel is loading a game (the probe process goes with it)."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine.openspiel.guard as guard
from engine.openspiel.rules import load, pyspiel
from events.config import ConfigError
from tests.cli.clikit import ENV, ROOT, cattle_many

MEMORY = 2 << 30
"""The address space every command here runs in."""

REPRODUCTIONS = [
    ("first_sealed_auction(max_value=1000000000)", "1,000,000,000 distinct actions"),
    ("blotto(coins=1000000,fields=50)", "s of CPU to load"),
    ("liars_dice(numdice=100000)", "1,200,001 distinct actions"),
    ("goofspiel(num_cards=100000)", "100,000 outcomes of a chance node"),
    ("connect_four(rows=100000,columns=100000)", "moves in its longest game"),
    ("breakthrough(rows=100000,columns=100000)", "overflow OpenSpiel's count"),
]


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def _play(game: str, db: Path) -> subprocess.Popen[str]:
    """`cattle play --game openspiel:GAME` with random seats, in 2 GB of address space."""
    return subprocess.Popen(
        [sys.executable, "-m", "cli.main", "play", "--game", f"openspiel:{game}",
         "--agents", "random,random", "--seed", "1", "--db", str(db)],
        cwd=ROOT, env={**ENV, "COLUMNS": "400"}, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, preexec_fn=_limited,
    )  # fmt: skip


def _one_clear_line(stderr: str) -> str:
    assert "Traceback" not in stderr and "MemoryError" not in stderr, stderr
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    return lines[0]


def test_each_oversized_game_is_refused_in_one_line(tmp_path: Path) -> None:
    runs = [
        ("play", "--game", f"openspiel:{game}", "--agents", "random,random",
         "--db", tmp_path / f"{i}.duckdb")
        for i, (game, _) in enumerate(REPRODUCTIONS)
    ]  # fmt: skip
    for (game, message), got in zip(
        REPRODUCTIONS, cattle_many(runs, env={"COLUMNS": "400"}), strict=True
    ):
        assert got.returncode == 2, (game, got.returncode, got.stderr)
        line = _one_clear_line(got.stderr)
        assert message in line and game[:20] in line, line
        assert not got.stdout


def test_sigterm_while_a_game_loads_stops_the_command_and_its_probe(tmp_path: Path) -> None:
    game = "blotto(coins=1000007,fields=50)"  # the probe spins on it until its CPU limit
    proc = _play(game, tmp_path / "x.duckdb")
    probes: list[int] = []
    deadline = time.monotonic() + 30
    while not probes and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
        probes = _probes_of(game)
    assert probes, "the probe never started"
    proc.send_signal(signal.SIGTERM)
    sent = time.monotonic()
    _, stderr = proc.communicate(timeout=5)
    assert time.monotonic() - sent < 5
    assert proc.returncode == 128 + signal.SIGTERM, stderr
    assert _one_clear_line(stderr) == "stopped by SIGTERM"
    time.sleep(0.2)
    assert not _probes_of(game)


def test_sigterm_during_an_mcts_search_stops_the_command_at_once(tmp_path: Path) -> None:
    # A move of 200,000 simulations in chess runs for minutes in one OpenSpiel call.
    proc = subprocess.Popen(
        [sys.executable, "-m", "cli.main", "play", "--game", "openspiel:chess", "--agents",
         "mcts?simulations=200000,random", "--seed", "1", "--db", str(tmp_path / "x.duckdb")],
        cwd=ROOT, env={**ENV, "COLUMNS": "400"}, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    # Ready once its store exists (the command runs, its handlers are set) and it has spent a
    # second of CPU since (it is searching): CPU time, not the clock, on a loaded machine.
    store = tmp_path / "x.duckdb"
    deadline = time.monotonic() + 120
    while not store.exists():
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the command never opened its store"
        time.sleep(0.05)
    start = _cpu_seconds(proc.pid)
    while _cpu_seconds(proc.pid) - start < 1.0:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the command never searched"
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    # A search of minutes ends long before this: the signal stopped it.
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 128 + signal.SIGTERM, stderr
    assert _one_clear_line(stderr) == "stopped by SIGTERM"


def _cpu_seconds(pid: int) -> float:
    """User and system CPU time the process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[-1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _probes_of(game: str) -> list[int]:
    """The ids of running probe processes loading `game`."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if any(part.endswith(b"probe.py") for part in cmd) and game.encode() in cmd:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[-1].split()[0]
            if state != "Z":
                found.append(int(pid))
    return found


@pytest.mark.parametrize(
    ("game", "message"),
    [
        (
            "connect_four(rows=0)",
            "OpenSpiel crashed loading 'connect_four(rows=0)' (stopped by SIGSEGV)",
        ),
        (
            "first_sealed_auction(max_value=0)",
            "opening moves of 'first_sealed_auction(max_value=0)': a chance node has no outcomes",
        ),
        (
            "kuhn_poker(players=1)",
            "OpenSpiel cannot load 'kuhn_poker(players=1)': ",
        ),
        (
            "python_iterated_prisoners_dilemma(max_game_length=0)",
            "'python_iterated_prisoners_dilemma(max_game_length=0)' cannot be played: OpenSpiel"
            " gives it no moves",
        ),
    ],
)
def test_a_game_that_crashes_or_fails_at_once_is_refused_in_one_line(
    game: str, message: str
) -> None:
    with pytest.raises(ConfigError) as refused:
        load(game)
    assert message in str(refused.value) and "\n" not in str(refused.value)


def test_defaults_and_presets_are_not_probed_and_answers_are_kept() -> None:
    ps = pyspiel()
    assert guard.key_of(ps, "negotiation") is None
    # A seed chooses a draw, not a size; parameters at their defaults change nothing.
    assert guard.key_of(ps, "negotiation(rng_seed=12345)") is None
    assert guard.key_of(ps, "connect_four(rows=6,columns=7)") is None
    assert guard.key_of(ps, "connect_four(rows=5)") == guard.key_of(ps, "connect_four(rows=5)")
    assert guard.key_of(ps, "breakthrough(columns=3,rows=8)") in guard._trusted(ps)
    load("liars_dice(numdice=3)")
    key = guard.key_of(ps, "liars_dice(numdice=3)")
    assert guard._ANSWERS[key] is None
    with pytest.raises(ConfigError, match="distinct actions, the bound is 100,000"):
        load("liars_dice(numdice=9000)")
    # Refused again from the kept answer, without another probe.
    before = dict(guard._ANSWERS)
    with pytest.raises(ConfigError):
        load("liars_dice(numdice=9000)")
    assert before == guard._ANSWERS


def test_the_bounds_admit_every_registered_game_at_its_defaults() -> None:
    ps = pyspiel()
    for gt in ps.registered_games():
        try:
            game = ps.load_game(gt.short_name)
        except Exception:  # wrappers that need a game, games reading a file
            continue
        assert guard.check_sizes(gt.short_name, guard.sizes_of(game)) is None, gt.short_name


# ----------------------------------------------------------------------------- property

GAMES: dict[str, tuple[str, ...]] = {
    "connect_four": ("rows", "columns", "x_in_row"),
    "breakthrough": ("rows", "columns"),
    "goofspiel": ("num_cards", "num_turns", "players"),
    "liars_dice": ("numdice", "dice_sides", "players"),
    "first_sealed_auction": ("max_value", "players"),
    "blotto": ("coins", "fields", "players"),
    "kuhn_poker": ("players",),
    "leduc_poker": ("players",),
    "nim": ("pile_sizes",),
    "pig": ("winscore", "diceoutcomes", "horizon", "players"),
    "negotiation": ("num_items", "num_symbols", "utterance_dim"),
    "oshi_zumo": ("coins", "size", "horizon"),
    "python_iterated_prisoners_dilemma": ("max_game_length",),
    "hex": ("board_size",),
}
"""Games and the parameters the property test sets to hostile values."""

VALUES = st.one_of(
    st.integers(min_value=-(2**63), max_value=2**63),
    st.sampled_from([0, -1, 1, 2**31, 2**31 - 1, 10**6, 10**9, 10**18]),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.sampled_from(["x", "", "tic_tac_toe(rows=3)", "1;2;3", "((", "True", "1e400"]),
).map(str)


@st.composite
def game_strings(draw: st.DrawFn) -> str:
    """A hostile game string: a real game with odd parameter values, or garbage text."""
    if draw(st.integers(0, 5)) == 0:
        return draw(st.text(min_size=1, max_size=40).filter(lambda s: "\0" not in s))
    name = draw(st.sampled_from(sorted(GAMES)))
    keys = draw(st.lists(st.sampled_from(GAMES[name]), min_size=1, max_size=3, unique=True))
    return f"{name}({','.join(f'{k}={draw(VALUES)}' for k in keys)})"


# Each example is a real command (a second or two to start, up to 5 s to play): 8 a run,
# different ones every run; the fixed cases above cover each kind of refusal by name.
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=game_strings(), delay=st.one_of(st.none(), st.floats(0.2, 2.5)))
def test_hostile_game_strings_stay_in_memory_stop_on_sigterm_and_fail_in_one_line(
    game: str, delay: float | None, tmp_path_factory: pytest.TempPathFactory
) -> None:
    proc = _play(game, tmp_path_factory.mktemp("hostile") / "x.duckdb")
    # Without a signal the command is given 5 s (a game within the bounds plays to its end
    # or is stopped then); with one, it is sent after `delay`.
    try:
        proc.wait(timeout=5 if delay is None else delay)
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGTERM)
    _, stderr = proc.communicate(timeout=60)  # bounded: a game past its limits is stopped
    code = proc.returncode
    assert code in (0, 2, 128 + signal.SIGTERM, -signal.SIGTERM), (game, code, stderr)
    if code not in (0, -signal.SIGTERM):  # killed before its handler was set: no output
        line = _one_clear_line(stderr)
        assert code != 2 or line.startswith("error:"), line


def test_a_signal_taken_by_another_thread_while_the_probe_starts_kills_the_probe(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The stopping signals are blocked in this thread while the probe starts, but another
    # thread of the process (DuckDB's) may take one; its handler then runs here, in the middle
    # of `Popen`, after the child exists. That left the probe running once.
    from engine.openspiel import guard

    started: list[subprocess.Popen[bytes]] = []
    real = subprocess.Popen

    def popen(*args: object, **kwargs: object) -> subprocess.Popen[bytes]:
        proc = real(*args, **kwargs)  # type: ignore[call-overload]
        started.append(proc)
        handler = signal.getsignal(signal.SIGTERM)
        assert callable(handler)
        handler(signal.SIGTERM, None)  # what the interpreter runs when another thread took it
        return proc

    class Stop(Exception):
        pass

    def stop(_signum: int, _frame: object) -> None:
        raise Stop

    monkeypatch.setattr(guard.subprocess, "Popen", popen)
    before = signal.signal(signal.SIGTERM, stop)
    try:
        with pytest.raises(Stop):
            guard.run_probe("kuhn_poker(players=3)")
    finally:
        signal.signal(signal.SIGTERM, before)
    assert started, "the probe never started"
    assert started[0].poll() is not None, "the probe was left running"


def test_a_size_below_zero_is_refused_at_start_in_one_line(tmp_path: Path) -> None:
    proc = _play("hex(board_size=-6)", tmp_path / "h.duckdb")
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 2
    said = _one_clear_line(err)
    assert "board_size=-6 is below zero" in said and "default is 11" in said
    # a count at or above zero goes to the probe as before
    assert guard.sign_refusal(pyspiel(), "hex(board_size=5)") is None


def test_the_probe_plays_a_short_game_to_its_end() -> None:
    # (the sign check aside) a board OpenSpiel builds from nonsense runs out of moves after
    # the opening the probe used to stop at; within bounds, a game ends in time
    game = "hex(board_size=-6)"
    refused = guard._refusal(game, guard.run_probe(game))
    assert refused is not None and "the player to move has no legal action" in refused
    assert guard._refusal("hex(board_size=5)", guard.run_probe("hex(board_size=5)")) is None
