"""Re-simulating a stored game of any registered game: exact replay and its comparison.

`verify` rebuilds a game from its seed and the actions recorded in its own log (plus any
events its agents recorded) and checks that the rules produce the same events, byte for
byte. Code agents are deterministic given their spec and the seed, so their seats are played
again by the agent itself: every decision, chat line and action string it stored must be what
it makes now (a seat relabelled with another agent, or an edited move, shows as a difference).
Seat kinds that registered a *replayer* (model seats, people) run their agent code again,
prompts and answer parsing included, fed with the answers the log recorded: what the model
or the person said cannot be produced again, so those seats are checked for legality and for
following from their recorded answers. Any other seat is answered from the log (the game
reads actions back with its `recorded_action`) and checked for legality only. No network is
involved either way.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from typing import Any, Literal

import msgspec

from agents import make_agent, replayer_for
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


SeatCheck = Literal["rerun", "answers", "legality"]
"""How a replay checks a seat: ``rerun``, a code agent played again from its spec and the
seed (every decision must be the one it makes); ``answers``, a seat whose recorded answers
(a model's replies, a person's lines) are read again by its agent code, which must reach the
moves stored, each legal; ``legality``, a seat answered from the log, each move checked by the
rules only."""


class SeatReplay(msgspec.Struct, frozen=True, kw_only=True):
    """How a replay checked one seat, and why that way."""

    seat: int
    agent: str
    check: SeatCheck
    why: str


def is_code_agent(game: catalog.GameDef, agent: str) -> bool:
    """True when `agent` names one of `game`'s code agents (with or without options)."""
    return agent.split(":", 1)[0].split("?", 1)[0] in game.code_agents


def seat_checks(events: Sequence[Any], *, rerun: bool = True) -> list[SeatReplay]:
    """How re-simulating `events` checks each seat (see `SeatCheck`)."""
    start = events[0]
    game = catalog.get(start.game)
    out = []
    for i, spec in enumerate(start.seats):
        check: SeatCheck
        if rerun and is_code_agent(game, spec.agent):
            check, why = "rerun", "a code agent, from its spec and the seed"
        elif rerun and replayer_for(spec.agent) is not None:
            check, why = "answers", "its recorded answers read again, each move checked"
        else:
            check, why = "legality", "its moves read from the log, each checked"
        out.append(SeatReplay(seat=i, agent=spec.agent, check=check, why=why))
    return out


def earlier_versions(game: catalog.GameDef, agent: str) -> list[str]:
    """The frozen earlier versions of a code agent the game still offers, newest first
    (`tracker` -> `tracker-v3`, `tracker-v2`, `tracker-v1`)."""
    found = []
    for name in game.code_agents:
        head, _, number = name.rpartition("-v")
        if head == agent and number.isdigit():
            found.append((int(number), name))
    return [name for _, name in sorted(found, reverse=True)]


def replay_agents(
    events: Sequence[Any], *, rerun: bool = True, played_as: Sequence[str] | None = None
) -> list[Agent]:
    """One agent per seat for re-simulating `events` (`rerun`: play code agents again and
    use registered replayers; else every seat answers from the log). `played_as` names, per
    seat, the code agent to play it with when not the one its spec names (an earlier
    version of it)."""
    start = events[0]
    game = catalog.get(start.game)
    agents: list[Agent] = []
    for i, spec in enumerate(start.seats):
        if rerun and is_code_agent(game, spec.agent):
            name = played_as[i] if played_as is not None else spec.agent
            agents.append(make_agent(name, i, start.seed, start.config))
            continue
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
    played_as: tuple[str, ...] | None = None
    """Per seat, the code agent that reproduced the game when it was an earlier version of
    the one the seat names (None: every seat played as named)."""


def resimulate(
    events: Sequence[Any], *, rerun: bool = True, played_as: Sequence[str] | None = None
) -> list[Any]:
    """Play the stored game again from its seed and recorded actions; return the new log.

    With `rerun`, code agents play again and seats whose kind registered a replayer run their
    own code again; without it every seat answers from the log.
    """
    if not events or events[0].__struct_config__.tag != START_TAG:
        raise ReplayError("the log does not start with game_started")
    start = events[0]
    game_def = catalog.get(start.game)
    agents = replay_agents(events, rerun=rerun, played_as=played_as)
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
        if all(type(a) is RecordedAgent or not a.is_async for a in agents) and all(
            map(is_game_event, events)
        ):
            # Recorded actions and code agents, and no agent events: the synchronous loop (the
            # one code agents play with) gives the same log without the event loop's overhead.
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


def verify(
    events: Sequence[Any],
    *,
    rerun: bool = True,
    prefix: bool = False,
    encoded: bytes | None = None,
) -> Verification:
    """Re-simulate `events` and compare the result with them byte for byte.

    With `prefix`, `events` are the part of a game that was written before its writer
    stopped: the re-simulation may go on past them, and may stop short of them only by
    agent events (model exchanges recorded for a decision whose step never applied).

    A game stored before a code agent's code changed was played by what is now a frozen
    earlier version (`tracker-v2`): when the seats as named do not reproduce it, each
    earlier generation is tried in turn, every code seat that has one played by it (the
    agents of one game are of one time); the first that reproduces the game verifies it, and
    the result names it. A seat relabelled with another agent reproduces under none.

    `encoded` may pass `encode_log(events)` when the caller already has those bytes (a
    verifier that checked every stored payload is its event's canonical encoding joins them).
    """
    first = _compare(events, rerun=rerun, prefix=prefix, encoded=encoded)
    if first.ok or not rerun or not events or first.error is not None:
        return first
    start = events[0]
    if start.__struct_config__.tag != START_TAG:
        return first
    game = catalog.get(start.game)
    names = [s.agent for s in start.seats]
    older = {n: earlier_versions(game, n) for n in set(names) if is_code_agent(game, n)}
    generations = sorted(
        {v.rpartition("-v")[2] for vs in older.values() for v in vs}, key=int, reverse=True
    )
    for number in generations:
        played_as = tuple(
            f"{n}-v{number}" if f"{n}-v{number}" in older.get(n, ()) else n for n in names
        )
        again = _compare(events, rerun=rerun, prefix=prefix, played_as=played_as, encoded=encoded)
        if again.ok:
            return msgspec.structs.replace(again, played_as=played_as)
    return first


def _compare(
    events: Sequence[Any],
    *,
    rerun: bool,
    prefix: bool,
    played_as: Sequence[str] | None = None,
    encoded: bytes | None = None,
) -> Verification:
    try:
        replayed = resimulate(events, rerun=rerun, played_as=played_as)
    except Exception as exc:  # a corrupt log must produce a report, not a crash
        return Verification(
            ok=False, stored=len(events), replayed=0, error=f"{type(exc).__name__}: {exc}"
        )
    # One encoding call per side; when the two logs are the same bytes, one comparison.
    if len(replayed) == len(events) and encode_log(replayed) == (
        encode_log(events) if encoded is None else encoded
    ):
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
