"""Today's answer parser over the stored model answers (`cattle reparse`).

Every stored game with model seats is re-simulated from its own log (each seat answers with
the action its log recorded, so the game follows the stored path whatever the parser says
now), and at each decision of a model seat the decision's recorded answers (`llm_call`
events) are read again by the game's parser as it is today. Nothing is called, nothing is
written: the store is opened read-only.

A decision *would now go otherwise* when its answers yielded no move then (the seat played
its default) but one of them reads as a move now (`fallback_to_move`), or the other way round
(`move_to_fallback`). A call whose parse stage or error changed is counted too (`changed`),
with the first examples.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from agents.llm.spec import PROVIDERS, resolve
from agents.llm.transport import cut_length
from events import catalog
from events.agent import ActionDefaulted, LLMCall
from runner.driver import Game
from runner.replay import RecordedAgent, is_game_event

EXAMPLES = 3
"""Examples kept per agent and game."""


@dataclass
class Tally:
    """What rereading found for one agent in one kind of game."""

    game: str
    agent: str
    decisions: int = 0
    calls: int = 0
    changed: int = 0
    fallback_to_move: int = 0
    move_to_fallback: int = 0
    examples: list[dict[str, Any]] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        """The tally as plain values (JSON)."""
        return dict(self.__dict__)


def _read(prompter: Any, call: LLMCall, decision: Any, seat: int) -> tuple[bool, str, str | None]:
    """(a move, stage, error) of one answer read by today's parser."""
    if cut_length(call.response) is not None:
        return False, "failed", call.parse_error  # stored cut for its size: never read
    try:
        action, stage, error = prompter.parse(call.response, decision, seat)
    except Exception as exc:  # a parser that raises reads nothing; say why
        return False, "failed", f"{type(exc).__name__}: {exc}"
    return action is not None, stage, error


class _Rereader(RecordedAgent):
    """Plays the recorded actions and rereads the recorded answers of each decision."""

    def __init__(
        self, seat: int, seed: int, config: Any, log: Sequence[Any], game_id: str, tally: Tally
    ) -> None:
        game = catalog.for_config(config)
        super().__init__(seat, seed, config, log, game.rules)
        self.game_id = game_id
        self.tally = tally
        self.spec: Any = None
        prompter = game.prompter
        self.prompter = prompter
        self.read: set[int] = set()
        """Positions in the log whose records a decision of this seat has taken."""

    def bind(self, spec: Any) -> None:
        """The seat's stored spec: its options choose the prompter (reasoning mode)."""
        for_seat = getattr(self.prompter, "for_seat", None)
        if for_seat is not None:
            self.prompter = for_seat(resolve(spec))

    def act(self, view: Any, decision: Any) -> Any:
        start = view.seen
        pos = self._take_records(start)
        # The answers to this decision are the seat's records in the run of agent events
        # before the next game event. Where seats answer at once, the driver may hand this
        # seat a position inside that run (after records another seat's turn added), so
        # the run is read from its beginning; an answer is counted once.
        lo = start
        while lo > 0 and not is_game_event(self.log[lo - 1]):
            lo -= 1
        mine = [
            e
            for i, e in enumerate(self.log[lo:pos], lo)
            if getattr(e, "seat", None) == self.seat and i not in self.read
        ]
        self.read.update(range(lo, pos))
        self._reread(mine, decision)
        return self.rules.recorded_action(self.log, pos, self.seat, decision)

    def _reread(self, records: Sequence[Any], decision: Any) -> None:
        calls = [
            e
            for e in records
            if isinstance(e, LLMCall)
            and e.stage != "scratchpad"
            and e.error is None
            and e.parse_stage not in (None, "truncated")
        ]
        if not calls:
            return  # no answer to read (a budget default, every attempt failed)
        t = self.tally
        t.decisions += 1
        was_move = not any(isinstance(e, ActionDefaulted) for e in records)
        now_move = False
        for c in calls:
            t.calls += 1
            move, stage, error = _read(self.prompter, c, decision, self.seat)
            now_move = now_move or move
            if (stage, error) != (c.parse_stage, c.parse_error):
                t.changed += 1
                if len(t.examples) < EXAMPLES:
                    t.examples.append(
                        {
                            "game_id": self.game_id,
                            "seat": self.seat,
                            "decision": c.decision,
                            "stage": c.stage,
                            "answer": c.response[:120],
                            "then": [c.parse_stage, c.parse_error],
                            "now": [stage, error],
                        }
                    )
            if move:
                break  # today the seat would have played this answer and asked no more
        if was_move and not now_move:
            t.move_to_fallback += 1
        elif now_move and not was_move:
            t.fallback_to_move += 1


def reread_game(game_id: str, events: Sequence[Any], tallies: dict[tuple[str, str], Tally]) -> None:
    """Reread the model answers of one stored game into `tallies` (by game and agent)."""
    start = events[0]
    game = catalog.get(start.game)
    agents: list[Any] = []
    for i, spec in enumerate(start.seats):
        # A seat of another prompt style (GameBench's own protocol) reads its answers its
        # own way, not by the game's parser: it plays its record and is not reread.
        if (
            spec.agent.partition(":")[0] in PROVIDERS
            and game.prompter is not None
            and resolve(spec).style == "cattle"
        ):
            key = (game.name, spec.agent)
            tally = tallies.setdefault(key, Tally(game=game.name, agent=spec.agent))
            agent = _Rereader(i, start.seed, start.config, events, game_id, tally)
            agent.bind(spec)
            agents.append(agent)
        else:
            agents.append(RecordedAgent(i, start.seed, start.config, events, game.rules))
    g = Game(
        start.config,
        start.seed,
        agents,
        start.seats,
        game=game,
        version=getattr(start, "engine_version", None),
    )
    with contextlib.suppress(LookupError):  # an unfinished game stops where its log does
        asyncio.run(g.run_async())


def reparse(games: Iterable[tuple[str, Sequence[Any]]]) -> list[Tally]:
    """Reread every game's model answers; one tally per kind of game and agent."""
    tallies: dict[tuple[str, str], Tally] = {}
    for game_id, events in games:
        if events:
            reread_game(game_id, events, tallies)
    return sorted(tallies.values(), key=lambda t: (t.game, t.agent))
