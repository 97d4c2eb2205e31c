"""Prompts checked against the seat, in edition 2 of the prompts (projections.editions): limits
come from the seat's own options, notations and symbols are explained or unambiguous, a
misleading upstream example is corrected, nothing is said twice, and GameBench games number
seats from 0 in every text; games stored with edition 1 still verify byte for byte."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from agents.llm.loopback import LegalPolicy, LoopbackServer
from agents.llm.spec import parse_model_spec, resolve
from cli.web.frames import build
from events import catalog
from events.agent import LLMCall
from events.base import visible
from events.config import SeatSpec
from events.store import DuckStore
from projections.timeline import timeline
from runner.session import play_and_store
from runner.verify import verify_stored

from .helpers import set_env

FIXTURE = Path(__file__).parents[1] / "store" / "data" / "prompts_edition1.duckdb"
"""One game with model seats of every game whose prompts edition 2 changed, written by the
harness as it stood before editions (every seat stored without the option `prompts`)."""


@pytest.fixture(scope="module")
def server() -> Iterator[LoopbackServer]:
    with LoopbackServer(LegalPolicy()) as srv:
        yield srv


@pytest.fixture(autouse=True)
def _env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    set_env(monkeypatch, tmp_path)


def _play(
    server: LoopbackServer, tmp: Path, name: str, preset: str | None, seats: list[str]
) -> tuple[str, Any]:
    """Play one game with `M` seats on the loopback server; its id and record."""
    game, carried = catalog.resolve(name)
    config = carried if carried is not None else game.preset(preset or game.default_preset)
    specs = [s.replace("M", f"openai:loop@{server.openai_url}", 1) for s in seats]
    with DuckStore(tmp / "g.duckdb") as store:
        return play_and_store(store, config, 3, specs)


def _prompts(events: list[Any], seat: int | None = None, decision: str | None = None) -> list[str]:
    """The user prompts of the model calls a game stored (of one seat, of one decision)."""
    return [
        e.messages[-1].content
        for e in events
        if isinstance(e, LLMCall)
        and (seat is None or e.seat == seat)
        and (decision is None or e.decision == decision)
    ]


def test_new_seats_store_the_current_edition_and_stored_seats_keep_the_first() -> None:
    from agents.llm.spec import PROMPTS

    fresh = parse_model_spec("openai:m")
    assert fresh.options["prompts"] == PROMPTS == 4 and resolve(fresh).prompts == 4
    assert fresh.agent == "openai:m"  # not part of the agent's name
    stored = type(fresh)(
        agent=fresh.agent, options={k: v for k, v in fresh.options.items() if k != "prompts"}
    )
    assert resolve(stored).prompts == 1
    assert resolve(parse_model_spec("openai:m?prompts=1")).prompts == 1


def test_games_stored_before_editions_still_verify(tmp_path: Path) -> None:
    copy = tmp_path / "old.duckdb"
    shutil.copyfile(FIXTURE, copy)
    with DuckStore(copy, read_only=True) as store:
        ids = [r[0] for r in store.con.execute("SELECT game_id FROM games ORDER BY 1").fetchall()]
        seats = store.con.execute("SELECT seats::VARCHAR FROM games").fetchall()
        checks = [verify_stored(store, game_id) for game_id in ids]
    assert len(ids) == 9 and not any('"prompts"' in s for (s,) in seats)
    assert [(c.outcome, c.problem) for c in checks] == [("verified", None)] * len(ids)


def test_cattle_notes_fit_the_seats_answer_limit_and_rounds_count_from_one(
    tmp_path: Path, server: LoopbackServer
) -> None:
    _, record = _play(server, tmp_path, "cattle-trade", "micro-duel", ["M?max_tokens=160", "M"])
    short = _prompts(record.events, 0, "scratchpad")
    long = _prompts(record.events, 1, "scratchpad")
    assert short and long
    limits = {int(m) for p in short for m in re.findall(r"under (\d+) tokens", p)}
    assert limits == {120}  # three quarters of the seat's 160, never more than it
    assert {int(m) for p in long for m in re.findall(r"under (\d+) tokens", p)} == {300}
    bids = _prompts(record.events, decision="bid")
    rounds = {int(m) for p in bids for m in re.findall(r"^Round (\d+)$", p, re.M)}
    assert bids and 1 in rounds and 0 not in rounds
    assert all("nobody bid in round 0" not in p for p in bids)


def test_kuhn_poker_names_every_bet_in_words(tmp_path: Path, server: LoopbackServer) -> None:
    prompts: list[str] = []
    for seed in range(4):
        _, config = catalog.resolve("openspiel:kuhn_poker")
        with DuckStore(tmp_path / f"k{seed}.duckdb") as store:
            _, record = play_and_store(
                store, config, seed, [f"openai:loop@{server.openai_url}", "random"]
            )
        prompts += _prompts(record.events)
    letters = {"p": "pass", "b": "bet"}
    seen = set()
    for p in prompts:
        said = re.search(r"Bets so far, the first player's first: ([a-z, ]+)\.", p)
        record = re.search(r"\(p: pass, b: bet\):\n([0-2][pb]*)\n", p)
        assert said and record, p
        words = [letters[c] for c in record.group(1)[1:]] or ["none yet"]
        assert said.group(1).split(", ") == words
        seen.update(words)
    assert "pass" in seen  # the opponent's pass is told in words, not only as a `p`


def test_sea_battle_numbers_every_column_whole_and_marks_rocks_apart_from_turns() -> None:
    from engine.gamebench.sea_battle import RULES
    from projections.gamebench.sea_battle import SeaBattlePrompter, SeaBattleView

    game = catalog.get("gamebench:sea_battle")
    config = game.preset("prototype")  # the grid is the prototype rules' prompt
    assert config.size > 10
    seats = [SeatSpec(agent="random") for _ in range(config.players)]
    state, log = RULES.start(config, 1, seats)
    d = RULES.pending(state)
    view = SeaBattleView(0).sync(log)
    prompt = SeaBattlePrompter().decision_prompt(view, d, "", None)
    lines = prompt.splitlines()
    i = lines.index("SEA (x across, y down; # rock, . water):")
    assert lines[i + 1].split() == [str(x) for x in range(config.size)]
    grid = [row.split()[1:] for row in lines[i + 2 : i + 2 + config.size]]
    assert all(cell != "R" for row in grid for cell in row)
    assert grid[0] == ["#"] * config.size
    assert "R forward-turn right-forward" in prompt  # R means one thing only


def test_blotto_corrects_textarenas_own_example(tmp_path: Path, server: LoopbackServer) -> None:
    _, record = _play(server, tmp_path, "textarena", "blotto", ["M", "M"])
    prompts = _prompts(record.events)
    assert prompts and all("Format: '[A4 B2 C2]'" in p for p in prompts)
    for p in prompts:
        note = p.split("Format: '[A4 B2 C2]'", 1)[1]
        assert "its units add up to 8, while your split must use all 20" in note
        example = re.search(r"as \[A(\d+) B(\d+) C(\d+)\] does", note)
        assert example and sum(map(int, example.groups())) == 20


def test_pit_tells_an_offer_once(tmp_path: Path, server: LoopbackServer) -> None:
    # Face-down offers to answer are the blind preset's (open Pit, the default, has none).
    _, record = _play(server, tmp_path, "gamebench:pit", "blind", ["M", "random"])
    answers = [p for p in _prompts(record.events) if "Your answer to Player" in p]
    assert answers
    for p in answers:
        question = p.split("Recent events:", 1)[1]
        offer = re.search(r"Your answer to (Player \d)'s offer", question)
        assert offer
        last_event = question.split("Your answer to", 1)[0].strip().splitlines()[-1]
        assert re.fullmatch(rf"{offer.group(1)} offers \d+ cards? face down", last_event)
        assert "face down. Take it" not in p


NUMBERED = ["pit", "santorini", "hive", "air_land_sea", "arctic_scavengers"]
"""GameBench games that name seats by number."""


@pytest.mark.parametrize("name", NUMBERED)
def test_gamebench_seats_have_one_number_in_every_text(
    name: str, tmp_path: Path, server: LoopbackServer
) -> None:
    game = catalog.get(f"gamebench:{name}")
    _, record = _play(server, tmp_path, game.name, None, ["random", "M"])
    events = list(record.events)
    everyone = [t for _, _, t in timeline(events)]
    mine = [t for _, _, t in timeline(events, 1)]
    prompts = _prompts(events, 1)
    frames = build(game, [e for e in events if visible(e, 1)], 1).frames
    shown = [str(f.get("text", "")) for f in frames]
    texts = everyone + mine + prompts + shown
    numbers = {int(n) for t in texts for n in re.findall(r"\bPlayer (\d+)", t)}
    assert numbers == {0, 1}, numbers  # two seats: 0 and 1, never a Player 2
    assert any("Player 1 (you)" in t for t in mine)
    assert any(re.search(r"You are Player 1\b", p) for p in prompts)
