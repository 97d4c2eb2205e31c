"""Re-simulating a stored game of any registered game: exact replay and its comparison.

`verify` rebuilds a game from its seed and the actions recorded in its own log (plus any
events its agents recorded) and checks that the rules produce the same events, byte for
byte. Code-agent seats are answered from the log (the game reads actions back with its
`recorded_action`). Seat kinds that registered a *replayer* (model seats) run their real
agent code again, prompts and answer parsing included, fed with the model answers the log
recorded: no network is involved either way.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from typing import Any

import msgspec

from agents import replayer_for
from agents.base import Agent
from events import catalog
from events.agent import AgentEvent
from events.catalog import START_TAG
from events.codec import encode_each, encode_log
from runner.driver import Game

_AGENT_TYPES = frozenset(AgentEvent.__args__)


class ReplayError(ValueError):
    """A stored log does not contain what a replay needs."""


def is_game_event(e: Any) -> bool:
    """True for events the rules made (not those agents added)."""
    return type(e) not in _AGENT_TYPES


def replay_agents(events: Sequence[Any], *, rerun: bool = True) -> list[Agent]:
    """One agent per seat for re-simulating `events` (`rerun`: use registered replayers)."""
    start = events[0]
    game = catalog.get(start.game)
    agents: list[Agent] = []
    for i, spec in enumerate(start.seats):
        replayer = replayer_for(spec.agent) if rerun else None
        if replayer is not None:
            agents.append(replayer(spec, i, start.seed, start.config, events))
        else:
            agents.append(RecordedAgent(i, start.seed, start.config, events, game.rules))
    return agents


class RecordedAgent(Agent):
    """Answers every decision with the action the stored log shows for this seat."""

    spec = "replay"
    is_async = True
    reads_view = False

    def __init__(
        self, seat: int, seed: int, config: Any, log: Sequence[Any], rules: catalog.Rules
    ) -> None:
        super().__init__(seat, seed, config)
        self.log = log
        self.rules = rules

    def _take_records(self, pos: int) -> int:
        """Queue this seat's agent events stored at `pos`; return where game events resume."""
        log = self.log
        while pos < len(log) and not is_game_event(log[pos]):
            if log[pos].actor() == self.seat:
                self.record(log[pos])
            pos += 1
        return pos

    async def after_turn(self, view: Any) -> None:
        self._take_records(view.seen)

    def act(self, view: Any, decision: Any) -> Any:
        pos = self._take_records(view.seen)
        return self.rules.recorded_action(self.log, pos, self.seat, decision)


class Verification(msgspec.Struct, kw_only=True):
    """The outcome of re-simulating a stored game."""

    ok: bool
    stored: int
    replayed: int
    mismatch: int | None = None
    """First seq where the streams differ."""
    expected: str | None = None
    got: str | None = None
    error: str | None = None


def resimulate(events: Sequence[Any], *, rerun: bool = True) -> list[Any]:
    """Play the stored game again from its seed and recorded actions; return the new log.

    With `rerun`, seats whose kind registered a replayer run their own code again.
    """
    if not events or events[0].__struct_config__.tag != START_TAG:
        raise ReplayError("the log does not start with game_started")
    start = events[0]
    game_def = catalog.get(start.game)
    agents = replay_agents(events, rerun=rerun)
    game = Game(
        start.config,
        start.seed,
        agents,
        start.seats,
        game=game_def,
        version=getattr(start, "engine_version", None),
    )
    # A replay that runs out of recorded actions stops; the comparison reports where.
    with contextlib.suppress(LookupError):
        if all(type(a) is RecordedAgent for a in agents) and all(map(is_game_event, events)):
            # Only recorded actions and no agent events: the synchronous loop (the one code
            # agents play with) gives the same log without the event loop's overhead.
            game.run()
        else:
            asyncio.run(_run(game))
    return game.log


async def _run(game: Game) -> None:
    try:
        await game.run_async()
    finally:
        for a in game.agents:
            await a.close()


def verify(events: Sequence[Any], *, rerun: bool = True, prefix: bool = False) -> Verification:
    """Re-simulate `events` and compare the result with them byte for byte.

    With `prefix`, `events` are the part of a game that was written before its writer
    stopped: the re-simulation may go on past them, and may stop short of them only by
    agent events (model exchanges recorded for a decision whose step never applied).
    """
    try:
        replayed = resimulate(events, rerun=rerun)
    except Exception as exc:  # a corrupt log must produce a report, not a crash
        return Verification(
            ok=False, stored=len(events), replayed=0, error=f"{type(exc).__name__}: {exc}"
        )
    # One encoding call per side; when the two logs are the same bytes, one comparison.
    if len(replayed) == len(events) and encode_log(replayed) == encode_log(events):
        return Verification(ok=True, stored=len(events), replayed=len(replayed))
    stored, again = encode_each(events), encode_each(replayed)
    for i, (ea, eb) in enumerate(zip(stored, again, strict=False)):
        if ea != eb:
            return Verification(
                ok=False,
                stored=len(events),
                replayed=len(replayed),
                mismatch=i,
                expected=ea,
                got=eb,
            )
    if prefix and (
        len(replayed) >= len(events) or not any(is_game_event(e) for e in events[len(replayed) :])
    ):
        return Verification(ok=True, stored=len(events), replayed=len(replayed))
    if len(events) != len(replayed):
        n = min(len(events), len(replayed))
        return Verification(ok=False, stored=len(events), replayed=len(replayed), mismatch=n)
    return Verification(ok=True, stored=len(events), replayed=len(replayed))
