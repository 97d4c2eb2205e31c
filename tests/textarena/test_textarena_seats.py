"""What a seat of a TextArena game sees and is asked: TextArena's observation for its player
and nothing else (swap tests), the prompts of MindGames' four games (snapshots), and model
seats on the loopback server with the real SDKs, verified with the network closed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest

from agents.llm.loopback import FaultPolicy, LegalPolicy, LoopbackServer
from engine.textarena.mindgames import PRESETS
from engine.textarena.rules import RULES, TextArenaState, TextArenaTurn
from events import catalog
from events.agent import ActionDefaulted, LLMCall
from events.config import SeatSpec
from events.store import DuckStore
from events.textarena.game import ActionTaken, InvalidMove, Observed, RoleDealt
from projections.textarena.view import TextArenaPrompter, TextArenaView
from runner.session import play_and_store, play_game
from runner.verify import check_game
from tests.llm.helpers import no_network, seat, set_env

GAME = catalog.get("textarena")
PROMPTER = TextArenaPrompter()

LINEUPS: dict[str, list[str]] = {
    "blotto": ["blotto-concentrate", "blotto-uniform"],
    "ipd3": ["ipd-tft", "ipd-grim", "ipd-defect"],
    "codenames": ["codenames-topics"] * 4,
    "mafia": ["mafia-accuser"] * 6,
}


def _decisions(events: list[Any], seat: int) -> Iterator[tuple[int, Any]]:
    """(log position, decision) of every decision `seat` was asked (the first one checked
    against the real rules folded up to it)."""
    start = events[0]
    for i, e in enumerate(events):
        if isinstance(e, ActionTaken) and e.player == seat:
            d = TextArenaTurn(seats=(seat,), step=e.step, env_id=start.env_id, seed=start.seed)
            if e.step == min(
                x.step for x in events if isinstance(x, ActionTaken) and x.player == seat
            ):
                assert RULES.pending(RULES.fold(events[:i])) == d
            yield i, d


def _seat_record(events: list[Any], seat: int, asked: list[tuple[int, Any]]) -> list[bytes]:
    """Everything the seat's view gives out at each of its decisions (`asked`: log position
    and decision, which tells the seat only that it is its turn): snapshot and prompt."""
    out = []
    for i, d in asked:
        view = TextArenaView(seat).sync(events[:i])
        out.append(msgspec.json.encode(view.snapshot(d)))
        out.append(PROMPTER.decision_prompt(view, d, "", None).encode())
    return out


def _scramble(events: list[Any], seat: int) -> list[Any]:
    """The log with everything `seat` may not see changed: other seats' roles, observations,
    actions and verdicts."""
    out = []
    for e in events:
        aud = e.audience()
        if aud is None or seat in aud:
            out.append(e)
        elif isinstance(e, RoleDealt):
            out.append(msgspec.structs.replace(e, role="Mafia" if e.role != "Mafia" else "Doctor"))
        elif isinstance(e, Observed):
            out.append(msgspec.structs.replace(e, text=e.text[::-1] + "[secret key]"))
        elif isinstance(e, ActionTaken):
            out.append(msgspec.structs.replace(e, action="[Player 0] I am the detective"))
        elif isinstance(e, InvalidMove):
            out.append(msgspec.structs.replace(e, reason="something else"))
        else:
            out.append(e)
    return out


@pytest.mark.parametrize("name", ["mafia", "codenames"])
def test_a_seat_sees_nothing_of_what_others_are_shown(name: str) -> None:
    events = play_game(PRESETS[name], 8, LINEUPS[name]).events
    for who in (1, 3):
        asked = list(_decisions(events, who))
        mine = _seat_record(events, who, asked)
        assert mine, (name, who)
        assert _seat_record(_scramble(events, who), who, asked) == mine


def test_each_observation_is_what_textarena_shows_that_player() -> None:
    # The stored increments join back to the exact text TextArena's wrapper returns.
    config = PRESETS["mafia"]
    st, events = RULES.start(config, 5, [SeatSpec(agent="random")] * 6)
    agents = [GAME.code_agents["mafia-random"](s, 5, config) for s in range(6)]
    views = [TextArenaView(s) for s in range(6)]
    twin = TextArenaState(config, 5)  # the same game, stepped by hand
    while (d := RULES.pending(st)) is not None:
        seat = d.seats[0]
        with twin.rng.active():
            pid, text = twin.env.get_observation()
        assert pid == seat
        assert views[seat].sync(events).observation == text
        action = agents[seat].act(views[seat], d)
        _, more = RULES.step(st, d, [action])
        events.extend(more)
        with twin.rng.active():
            twin.env.step(action=action)


def _innermost(env: Any) -> Any:
    while hasattr(env, "env"):
        env = env.env
    return env


def test_an_operative_is_shown_the_same_whatever_the_key() -> None:
    # Swap the labels of the board's words (the key only spymasters see): the red operative's
    # observation stays byte-identical, the red spymaster's does not.
    config = PRESETS["codenames"]
    seats = [SeatSpec(agent="random")] * 4

    def shown(swap: bool) -> tuple[list[Observed], list[Observed]]:
        st, events = RULES.start(config, 3, seats)
        env = _innermost(st.env)
        if swap:
            words = list(env.board)
            labels = [env.board[w] for w in words]
            env.board = dict(zip(words, labels[1:] + labels[:1], strict=True))
        for action in ("[beast 2]", "[pass]", "[metal 1]", "[pass]", "[ocean 1]"):
            d = RULES.pending(st)
            assert d is not None
            _, more = RULES.step(st, d, [action])
            events.extend(more)
        obs = [e for e in events if isinstance(e, Observed)]
        return [e for e in obs if e.seat == 1], [e for e in obs if e.seat == 0]

    operative, spymaster = shown(False)
    operative2, spymaster2 = shown(True)
    assert operative and operative == operative2
    assert spymaster != spymaster2


@pytest.mark.parametrize("name", list(PRESETS))
def test_the_prompts_of_the_four_games(name: str, snapshot: Any) -> None:
    events = play_game(PRESETS[name], 1, LINEUPS[name]).events
    seat = 1
    i, d = next(_decisions(events, seat))
    view = TextArenaView(seat).sync(events[:i])
    system = PROMPTER.system_prompt(PRESETS[name], None, seat)
    assert {"system": system, "decision": PROMPTER.decision_prompt(view, d, "", None)} == snapshot


# ---------------------------------------------------------------------------- model seats


@pytest.fixture(autouse=True)
def llm_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Fake keys, no config file, millisecond backoff."""
    set_env(monkeypatch, tmp_path)


def test_a_model_seat_plays_the_four_games_and_they_verify_offline(tmp_path: Path) -> None:
    db = tmp_path / "models.duckdb"
    ids = {}
    with LoopbackServer(LegalPolicy()) as server, DuckStore(db) as store:
        for i, (name, lineup) in enumerate(LINEUPS.items()):
            provider = "openai" if i % 2 == 0 else "anthropic"
            agents = [seat(server, provider), *lineup[1:]]
            ids[name], record = play_and_store(store, PRESETS[name], 20 + i, agents)
            calls = [e for e in record.events if isinstance(e, LLMCall) and e.seat == 0]
            taken = [e for e in record.events if isinstance(e, ActionTaken) and e.player == 0]
            assert calls and len(calls) == len(taken), name
            # The answer goes to TextArena unchanged.
            assert [c.response for c in calls] == [t.action for t in taken], name
    with no_network(), DuckStore(db) as store:
        for name, gid in ids.items():
            check = check_game(store.load_rows(gid))
            assert check.outcome == "verified", (name, check.problem)


def test_an_empty_answer_gets_one_retry_then_the_recorded_fallback(tmp_path: Path) -> None:
    policy = FaultPolicy(LegalPolicy(), [("textarena", "empty")] * 2)
    with LoopbackServer(policy) as srv, DuckStore(tmp_path / "f.duckdb") as store:
        gid, record = play_and_store(
            store, PRESETS["blotto"], 5, [seat(srv, "openai"), "blotto-uniform"]
        )
        with no_network():
            assert check_game(store.load_rows(gid)).outcome == "verified"
    events = record.events
    calls = [e for e in events if isinstance(e, LLMCall)]
    assert [c.stage for c in calls[:2]] == ["ask", "format_retry"]
    (defaulted,) = [e for e in events if isinstance(e, ActionDefaulted)]
    first = next(e for e in events if isinstance(e, ActionTaken))
    assert defaulted.seat == 0 and first.action == ""
    assert any(isinstance(e, InvalidMove) and e.player == 0 for e in events)


OTHERS = (
    "TicTacToe-v0",
    "ConnectFour-v0",
    "KuhnPoker-v0",
    "Battleship-v0",
    "LiarsDice-v0",
    "IteratedRockPaperScissors-v0",
    "IteratedMatchingPennies-v0",
    "IteratedPrisonersDilemma-v0",
    "ThreePlayerTicTacToe-v0",
    "ThreePlayerGOPS-v0",
    "Snake-v0",
)
"""Other TextArena environments: two and three players, hidden information, simultaneous
moves, chat."""


def test_a_model_seat_plays_other_environments_and_they_verify_offline(tmp_path: Path) -> None:
    db = tmp_path / "others.duckdb"
    ids = {}
    asked: list[str] = []
    with LoopbackServer(LegalPolicy()) as server, DuckStore(db) as store:
        for i, env_id in enumerate(OTHERS):
            _, config = catalog.resolve(f"textarena:{env_id}")
            provider = "openai" if i % 2 == 0 else "anthropic"
            agents = [seat(server, provider), *["random"] * (config.players - 1)]
            ids[env_id], record = play_and_store(store, config, 50 + i, agents)
            if any(isinstance(e, LLMCall) for e in record.events):
                asked.append(env_id)
    # A random opponent may lose a game before the model's first turn (two invalid moves).
    assert len(asked) >= 10, asked
    with no_network(), DuckStore(db) as store:
        for env_id, gid in ids.items():
            check = check_game(store.load_rows(gid))
            assert check.outcome == "verified", (env_id, check.problem)
