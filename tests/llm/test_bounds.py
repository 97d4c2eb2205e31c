"""Every game ends within its stated bound on decisions, whatever its model seats answer
(docs/bounds.md): adversarial answers from the loopback server (always unusable, always the
same text, always the smallest move, random junk), played through the real model seats, and
every such game verifies offline from its log."""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents.llm.loopback import Answer, Incoming, LoopbackServer
from agents.openspiel.standin import prompt_legal_actions
from events import catalog
from events.cattle import game as ev
from events.cattle.domain import GameConfig
from events.store import DuckStore
from runner.driver import Game, decision_limit
from runner.replay import verify
from runner.session import make_agents, play_and_store, seat_specs
from runner.verify import verify_stored

from .helpers import seat, set_env

GAMES: dict[str, tuple[str, Any]] = {
    "micro-duel": ("cattle-trade", "micro-duel"),
    "three-seat cattle": (
        "cattle-trade",
        GameConfig(
            players=3,
            set_size=2,
            animals=("cat", "dog"),
            auction_mode="canonical",
            max_turns=12,
            name="custom",
        ),
    ),
    "legacy three-seat": (
        "cattle-trade",
        GameConfig(players=3, set_size=2, animals=("cat",), auction_mode="legacy", max_turns=8),
    ),
    "pact": ("pact", "quick"),
    "tic_tac_toe": ("openspiel", "tic_tac_toe"),
    "kuhn_poker": ("openspiel", "kuhn_poker"),
    "nim": ("openspiel", "nim"),
    "liars_dice": ("openspiel", "liars_dice"),
    "prisoners_dilemma": ("openspiel", "prisoners_dilemma"),
    "connect_four": ("openspiel", "connect_four"),
    "breakthrough": ("openspiel", "breakthrough"),
    "negotiation": ("openspiel", "negotiation"),
    "blind_auction": ("openspiel", "blind_auction"),
}
"""Built-in games, small enough for many examples: name -> (game, preset or configuration)."""

SAME = (
    '{"action":"bid","amount":10}',
    '{"action":"bid","amount":100000}',
    '{"action":"kuhhandel"}',
    '{"quote": -5}',
    "0",
    "x(1,2)",
    "",
)
"""Fixed answers a seat may repeat forever (several are valid for some decision, none for all)."""


def _invalid(req: Incoming) -> Answer:
    return Answer(text="I would rather not say.")


def _same(text: str) -> Callable[[Incoming], Answer]:
    return lambda req: Answer(text=text)


def _minimum(req: Incoming) -> Answer:
    """The smallest move the prompt allows: the minimum bid, the first legal action, a zero
    quote, an empty message; elsewhere the first choice of the decision."""
    p = req.prompt
    kind = req.kind
    if kind == "bid":
        found = re.search(r"Minimum bid: (\d+)", p)
        return Answer(text=json.dumps({"action": "bid", "amount": int(found[1]) if found else 10}))
    if kind == "openspiel":
        legal = prompt_legal_actions(p)
        return Answer(text=f"Action: {legal[0] if legal else 0}")
    if kind == "quote":
        return Answer(text=json.dumps({"quote": 0}))
    if kind == "message":
        return Answer(text=json.dumps({"message": ""}))
    if kind == "turn":
        return Answer(text=json.dumps({"action": "auction"}))
    if kind == "sale":
        return Answer(text=json.dumps({"decision": "sell"}))
    if kind == "respond_trade":
        return Answer(text=json.dumps({"action": "accept"}))
    return Answer(text=json.dumps({"offer_cards": []}))


def _junk(seed: int) -> Callable[[Incoming], Answer]:
    def answer(req: Incoming) -> Answer:
        rng = random.Random(f"{seed}:junk:{req.n}")
        alphabet = '{}[]":,0123456789 abcxyz-\n'
        return Answer(text="".join(rng.choice(alphabet) for _ in range(rng.randint(0, 60))))

    return answer


class Switch:
    """A loopback policy that can be swapped between examples."""

    def __init__(self) -> None:
        self.policy: Callable[[Incoming], Answer] = _invalid

    def __call__(self, req: Incoming) -> Answer:
        return self.policy(req)


@pytest.fixture(scope="module")
def switch(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Switch, LoopbackServer]]:
    """One loopback server for the module, its policy set by each example."""
    with pytest.MonkeyPatch.context() as mp:
        set_env(mp, tmp_path_factory.mktemp("bounds"))
        sw = Switch()
        with LoopbackServer(sw) as srv:
            yield sw, srv


def _config(name: str) -> tuple[catalog.GameDef, Any]:
    game_name, preset = GAMES[name]
    game = catalog.get(game_name)
    return game, game.preset(preset) if isinstance(preset, str) else preset


def _play(game: catalog.GameDef, config: Any, seed: int, specs: list[str]) -> Game:
    seats = seat_specs(specs, game)
    g = Game(config, seed, make_agents(seats, seed, config), seats, game=game)

    async def run() -> None:
        try:
            await g.run_async()
        finally:
            for a in g.agents:
                await a.close()

    asyncio.run(run())
    return g


POLICIES = ("invalid", "same", "minimum", "junk")


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    name=st.sampled_from(sorted(GAMES)),
    policy=st.sampled_from(POLICIES),
    same=st.sampled_from(SAME),
    seed=st.integers(0, 2**31 - 1),
)
def test_every_game_ends_within_its_bound_whatever_its_seats_answer(
    switch: tuple[Switch, LoopbackServer], name: str, policy: str, same: str, seed: int
) -> None:
    sw, srv = switch
    sw.policy = {
        "invalid": _invalid,
        "same": _same(same),
        "minimum": _minimum,
        "junk": _junk(seed),
    }[policy]
    game, config = _config(name)
    bound = game.rules.max_decisions(config)  # type: ignore[attr-defined]
    assert decision_limit(game, config) == min(bound, 100_000)
    g = _play(game, config, seed, [seat(srv, "openai")] * config.players)
    record = g.record()
    assert record.result is not None, "the game did not end"
    assert g.decisions <= bound
    check = verify(record.events)
    assert check.ok, check


def test_the_bounds_are_stated_per_game() -> None:
    """The numbers docs/bounds.md states."""
    cattle = catalog.get("cattle-trade")
    assert cattle.rules.max_decisions(cattle.preset("micro-duel")) == 100 * 50  # type: ignore[attr-defined]
    assert cattle.rules.max_decisions(cattle.preset("standard")) == 400 * 50  # type: ignore[attr-defined]
    pact = catalog.get("pact")
    assert pact.rules.max_decisions(pact.preset("standard")) == 3 * 20  # type: ignore[attr-defined]
    openspiel = catalog.get("openspiel")
    lengths = {
        name: openspiel.rules.max_decisions(openspiel.preset(name))  # type: ignore[attr-defined]
        for name in ("tic_tac_toe", "connect_four", "nim", "prisoners_dilemma")
    }
    assert lengths == {"tic_tac_toe": 9, "connect_four": 42, "nim": 16, "prisoners_dilemma": 9999}


def test_a_seat_answering_the_same_low_bid_forever_finishes_a_micro_duel_and_verifies(
    switch: tuple[Switch, LoopbackServer], tmp_path: Path
) -> None:
    """The runaway of issue 22 again: both seats answer `{"action":"bid","amount":10}` to
    every prompt. Each auction now ends within two bid rounds (the leader's bid stands), the
    game ends within its bound, and it verifies offline from the store."""
    sw, srv = switch
    sw.policy = _same('{"action":"bid","amount":10}')
    game = catalog.get("cattle-trade")
    config = game.preset("micro-duel")
    with DuckStore(tmp_path / "runaway.duckdb") as store:
        game_id, record = play_and_store(store, config, 22, [seat(srv, "openai")] * 2)
        check = verify_stored(store, game_id)
        calls = store.con.execute(
            "SELECT count(*) FROM llm_calls WHERE game_id = ?", [game_id]
        ).fetchall()[0][0]
    assert check.outcome == "verified", check
    assert record.result is not None
    events = record.events
    rounds: dict[int, int] = {}
    for e in events:
        if isinstance(e, ev.BidRoundClosed):
            rounds[e.auction] = rounds.get(e.auction, 0) + 1
    assert rounds and max(rounds.values()) <= 2
    standing = [
        e for e in events if isinstance(e, ev.FallbackApplied) and e.reason == "standing bid kept"
    ]
    assert standing  # the leader's repeated 10 was kept as its standing bid
    decisions = sum(1 for e in events if isinstance(e, ev.BidRoundOpened | ev.TurnStarted))
    assert decisions <= game.rules.max_decisions(config)  # type: ignore[attr-defined]
    assert calls < 10 * decisions


def test_capped_auctions_show_in_the_auctions_view(
    switch: tuple[Switch, LoopbackServer], tmp_path: Path
) -> None:
    """Three seats that always bid the minimum raise each other to the cap on bid rounds."""
    sw, srv = switch
    sw.policy = _minimum
    _, config = _config("three-seat cattle")
    with DuckStore(tmp_path / "capped.duckdb") as store:
        game_id, record = play_and_store(store, config, 5, [seat(srv, "openai")] * 3)
        assert verify_stored(store, game_id).outcome == "verified"
        rows = store.con.execute(
            "SELECT auction, rounds, capped FROM auctions WHERE game_id = ? ORDER BY auction",
            [game_id],
        ).fetchall()
    capped = [e for e in record.events if isinstance(e, ev.BidRoundsCapped)]
    assert capped
    assert sorted({e.auction for e in capped}) == [a for a, _, c in rows if c]
    assert all(r >= c.rounds for (a, r, _), c in zip(rows, capped, strict=False) if a == c.auction)
