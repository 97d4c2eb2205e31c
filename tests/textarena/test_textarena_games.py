"""TextArena games on the core: MindGames' four and other environments play with code agents,
are stored, replay and verify; games interleaved in one process give the bytes each gives
alone; Codenames never touches the network; bad input stops in one line."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.textarena.mindgames import PRESETS
from engine.textarena.rules import MAX_ACTION, RULES
from events import catalog
from events.codec import encode
from events.config import ConfigError, SeatSpec
from events.store import DuckStore
from events.textarena.game import ActionTaken, InvalidMove, RoleDealt, TextArenaEnded
from runner.session import play_and_store, play_game
from runner.verify import check_game
from tests.cli.clikit import cattle

GAME = catalog.get("textarena")

LINEUPS: dict[str, list[str]] = {
    "blotto": ["blotto-uniform", "blotto-concentrate"],
    "ipd3": ["ipd-tft", "ipd-grim", "ipd-defect"],
    "codenames": ["codenames-topics", "codenames-topics", "codenames-random", "random"],
    "mafia": ["mafia-accuser"] * 3 + ["mafia-random"] * 2 + ["random"],
}

OTHERS = (
    "TicTacToe-v0",  # two players, turns
    "ConnectFour-v0",
    "KuhnPoker-v0",  # hidden cards
    "Battleship-v0",  # hidden boards
    "LiarsDice-v0",  # hidden dice
    "IteratedRockPaperScissors-v0",  # simultaneous
    "IteratedMatchingPennies-v0",  # simultaneous
    "IteratedPrisonersDilemma-v0",  # chat then simultaneous
    "ThreePlayerTicTacToe-v0",  # three players
    "ThreePlayerGOPS-v0",  # three players, simultaneous bids
    "Snake-v0",  # simultaneous moves
)


def _events_bytes(events: list[Any]) -> list[bytes]:
    return [encode(e) for e in events]


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """Every competition game (code agents) and the other environments (random seats)."""
    db = tmp_path_factory.mktemp("ta") / "ta.duckdb"
    ids: dict[str, str] = {}
    with DuckStore(db) as store:
        for i, (name, lineup) in enumerate(LINEUPS.items()):
            ids[name], _ = play_and_store(store, PRESETS[name], 10 + i, lineup)
        for i, env_id in enumerate(OTHERS):
            _, config = catalog.resolve(f"textarena:{env_id}")
            ids[env_id], _ = play_and_store(store, config, 30 + i, ["random"] * config.players)
    return db, ids


def test_every_game_plays_to_the_end_and_verifies(stored: tuple[Path, dict[str, str]]) -> None:
    db, ids = stored
    with DuckStore(db) as store:
        for name, gid in ids.items():
            check = check_game(store.load_rows(gid))
            assert check.outcome == "verified", (name, check.problem)
            events = store.load_events(gid)
            assert isinstance(events[-1], TextArenaEnded), name


def test_the_views_hold_games_and_actions(stored: tuple[Path, dict[str, str]]) -> None:
    db, ids = stored
    with DuckStore(db) as store:
        _, rows = store.query(
            "SELECT env_id, num_players, seed, rewards FROM textarena_games "
            f"WHERE game_id = '{ids['mafia']}'"
        )
        assert rows == [("SecretMafia-v0-train", 6, 13, rows[0][3])]
        assert len(rows[0][3]) == 6
        _, acts = store.query(
            f"SELECT step, player, action FROM textarena_actions WHERE game_id = '{ids['blotto']}'"
            " ORDER BY step"
        )
        events = store.load_events(ids["blotto"])
        taken = [(e.step, e.player, e.action) for e in events if isinstance(e, ActionTaken)]
        assert [tuple(r) for r in acts] == taken
        assert [s for s, _, _ in taken] == list(range(len(taken)))
        _, roles = store.query(
            f"SELECT seat, role FROM textarena_roles WHERE game_id = '{ids['mafia']}' ORDER BY seat"
        )
        assert sorted(r for _, r in roles).count("Mafia") == 2


def test_the_error_lens_counts_each_seats_verdicts(stored: tuple[Path, dict[str, str]]) -> None:
    db, ids = stored
    with DuckStore(db) as store:
        for gid in ids.values():
            events = store.load_events(gid)
            end = events[-1]
            _, rows = store.query(
                "SELECT seat, actions, invalid_moves, first_invalid_step, "
                "actions_before_first_error, ended_by_error, won, won_after_opponent_error "
                f"FROM textarena_errors WHERE game_id = '{gid}' ORDER BY seat"
            )
            assert [r[0] for r in rows] == list(range(len(end.scores)))
            for seat, acts, bad, first, before, ended, won, after in rows:
                mine = [e for e in events if isinstance(e, ActionTaken) and e.player == seat]
                verdicts = [e for e in events if isinstance(e, InvalidMove) and e.player == seat]
                assert acts == len(mine) and bad == len(verdicts)
                if verdicts:
                    assert first == verdicts[0].step
                    assert before == sum(e.step < first for e in mine)
                else:
                    assert first is None and before is None
                assert ended == end.invalid[seat]
                assert won == (end.scores[seat] > min(end.scores))
                others = any(end.invalid[o] for o in range(len(end.scores)) if o != seat)
                assert after == (won and others)


def _replay_rewards(events: list[Any]) -> tuple[float, ...]:
    """Step a fresh TextArena environment with the stored action strings; its rewards."""
    from engine.textarena.rules import GameRandom, make_env

    start = events[0]
    env = make_env(start.env_id)
    rng = GameRandom(start.seed)
    with rng.active():
        env.reset(num_players=start.config.players, seed=start.seed)
        for e in events:
            if isinstance(e, ActionTaken):
                env.step(action=e.action)
        rewards, _ = env.close()
    return tuple(float(rewards.get(p, 0.0)) for p in range(start.config.players))


@pytest.mark.parametrize("name", ["codenames", "mafia"])
def test_stored_actions_give_the_stored_rewards_in_a_fresh_environment(name: str) -> None:
    record = play_game(PRESETS[name], 4, LINEUPS[name])
    assert _replay_rewards(record.events) == record.events[-1].scores


def test_interleaved_games_give_the_bytes_each_gives_alone() -> None:
    specs = {n: [SeatSpec(agent="random")] * PRESETS[n].players for n in ("mafia", "codenames")}
    from agents import make_agents

    def alone(name: str, seed: int) -> list[bytes]:
        return _events_bytes(play_game(PRESETS[name], seed, specs[name]).events)

    want = {("mafia", 1): alone("mafia", 1), ("codenames", 2): alone("codenames", 2)}
    games = {}
    for key in want:
        name, seed = key
        st, events = RULES.start(PRESETS[name], seed, specs[name])
        games[key] = (st, events, make_agents(specs[name], seed, PRESETS[name]))
    views = {k: [GAME.new_view(s) for s in range(PRESETS[k[0]].players)] for k in want}
    noise = random.Random(99)
    live = set(want)
    while live:
        for key in sorted(live):
            random.seed(noise.random())  # someone else uses the global generator between steps
            st, events, agents = games[key]
            d = RULES.pending(st)
            if d is None:
                live.discard(key)
                continue
            seat = d.seats[0]
            action = agents[seat].act(views[key][seat].sync(events), d)
            _, more = RULES.step(st, d, [action])
            events.extend(more)
    for key, (_, events, _) in games.items():
        assert _events_bytes(events) == want[key], key


def test_codenames_never_touches_the_network_and_another_process_gives_the_same_bytes() -> None:
    code = (
        "import socket\n"
        "def refuse(*a, **k):\n"
        "    raise OSError('network closed')\n"
        "socket.socket.connect = refuse\n"
        "socket.create_connection = refuse\n"
        "from engine.textarena.mindgames import PRESETS\n"
        "from runner.session import play_game\n"
        "from events.codec import encode\n"
        "r = play_game(PRESETS['codenames'], 3, ['codenames-topics'] * 4)\n"
        "print(b''.join(encode(e) for e in r.events).hex())\n"
    )
    got = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert got.returncode == 0, got.stderr[-2000:]
    assert "nltk" not in got.stderr.lower()
    # Another process (as a tournament's workers are) gives the bytes this one gives.
    here = play_game(PRESETS["codenames"], 3, ["codenames-topics"] * 4).events
    assert got.stdout.strip() == b"".join(encode(e) for e in here).hex()


def test_a_huge_action_is_cut_and_kept_whole() -> None:
    st, events = RULES.start(PRESETS["blotto"], 1, [SeatSpec(agent="random")] * 2)
    d = RULES.pending(st)
    assert d is not None
    huge = "[A7 B7 C6]" + "x" * 1_000_000
    _, more = RULES.step(st, d, [huge])
    taken = more[0]
    assert isinstance(taken, ActionTaken)
    assert len(taken.action) == MAX_ACTION and taken.raw == huge
    assert RULES.recorded_action([*events, *more], len(events), d.seats[0], d) == huge


def test_invalid_moves_are_events_of_their_player() -> None:
    record = play_game(PRESETS["blotto"], 2, ["random", "random"])
    st, _ = RULES.start(PRESETS["blotto"], 2, record.events[0].seats)
    d = RULES.pending(st)
    assert d is not None
    _, more = RULES.step(st, d, ["nonsense"])
    (bad,) = [e for e in more if isinstance(e, InvalidMove)]
    assert bad.player == d.seats[0] and bad.audience() == (d.seats[0],)
    assert "format" in bad.reason.lower()


def test_roles_are_dealt_to_their_seat_only() -> None:
    record = play_game(PRESETS["mafia"], 6, ["random"] * 6)
    roles = [e for e in record.events if isinstance(e, RoleDealt)]
    assert [r.seat for r in roles] == list(range(6))
    assert all(r.audience() == (r.seat,) for r in roles)
    assert tuple(r.role for r in roles) == record.events[-1].roles


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("textarena:NoSuchGame-v0", "no environment"),
        ("mindgames:chess", "unknown MindGames game"),
        pytest.param(
            "textarena:Chess-v0",
            "cannot be loaded here",
            marks=pytest.mark.skipif(
                sys.version_info >= (3, 12),
                reason="TextArena's chess module is written for Python 3.12 and loads there",
            ),
        ),
    ],
)
def test_bad_names_stop_in_one_line(name: str, words: str) -> None:
    with pytest.raises(ConfigError, match=words):
        catalog.resolve(name)


@pytest.mark.parametrize(
    ("env_id", "words"),
    [
        ("ScorableGames-v0", "reads a data file that the installed textarena package does not"),
        ("UsedCarNegotiation-v0", "reads a data file"),
        ("LetterAuction-v0", "needs data it downloads at run time"),
        ("TwentyQuestions-v0", "cannot be set up here: OpenRouter API key not found"),
    ],
)
def test_an_environment_that_cannot_be_set_up_is_refused_in_one_line(
    monkeypatch: pytest.MonkeyPatch, env_id: str, words: str
) -> None:
    """Environments whose upstream package lacks a data file, or that want a download or a
    model service of their own, are refused by name before a game starts."""
    monkeypatch.delenv("OPENROUTER_API_KEY", raising=False)
    with pytest.raises(ConfigError, match=words) as got:
        catalog.resolve(f"textarena:{env_id}")
    assert "\n" not in str(got.value) and len(str(got.value)) < 300


def test_the_command_line_refuses_an_environment_missing_its_data(tmp_path: Path) -> None:
    got = cattle("play", "--game", "textarena:ScorableGames-v0", "--db", tmp_path / "g.duckdb")
    assert got.returncode != 0
    assert "Traceback" not in got.stderr
    (line,) = got.stderr.strip().splitlines()
    assert "ScorableGames-v0 reads a data file" in line


def test_the_command_line_plays_lists_and_refuses(tmp_path: Path) -> None:
    db = tmp_path / "cli.duckdb"
    got = cattle("play", "--game", "mindgames:mafia", "--seed", "2", "--json", "--db", db)
    assert got.returncode == 0, got.stderr
    assert [s["agent"] for s in json.loads(got.stdout)["scores"]] == ["random"] * 6
    agents = cattle("agents", "--game", "mindgames:ipd3")
    listed = agents.stdout.split()
    assert {"random", "ipd-tft", "ipd-grim", "ipd-defect", "ipd-cooperate"} <= set(listed)
    assert "blotto-uniform" not in listed  # it refuses the IPD
    missing = cattle(
        "play", "--game", "mindgames:blotto", "--db", db,
        env={"PYTHONPATH": str(_blocker(tmp_path))},
    )  # fmt: skip
    assert missing.returncode != 0
    assert "uv sync --extra textarena" in missing.stderr
    assert len(missing.stderr.strip().splitlines()) == 1, missing.stderr


def _blocker(tmp_path: Path) -> Path:
    """A directory whose `textarena` package refuses to import (as if it were missing)."""
    pkg = tmp_path / "blocked" / "textarena"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("raise ImportError('textarena is not installed')\n")
    return pkg.parent


def test_an_environment_that_raises_ends_its_game_with_the_error_recorded() -> None:
    from events.textarena.game import EnvFailed

    st, _ = RULES.start(PRESETS["blotto"], 1, [SeatSpec(agent="random")] * 2)

    def broken(action: str) -> None:
        raise KeyError("a bug inside the environment")

    st.env.step = broken
    d = RULES.pending(st)
    assert d is not None
    _, more = RULES.step(st, d, ["[A7 B7 C6]"])
    failed = [e for e in more if isinstance(e, EnvFailed)]
    assert [f.player for f in failed] == [d.seats[0]]
    assert "a bug inside the environment" in failed[0].error
    end = more[-1]
    assert isinstance(end, TextArenaEnded) and end.reason.startswith("environment error")
    assert RULES.pending(st) is None
