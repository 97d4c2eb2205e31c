"""A tiny PACT driver for tests: start, then ask the seats of each pending decision and step.

It stands in for the generic driver: the same loop any game runs (views synced with the
audiences computed once per event, actions passed in seat order).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from agents.pact.bots import CODE_AGENTS
from engine.pact.rules import ENGINE_VERSION, RULES, PactState, SendMessage, SubmitQuote
from events.config import SeatSpec
from events.pact import game as pe
from events.pact.game import PactConfig
from projections.pact.view import PactView

Hook = Callable[[int, PactView, Any, list[Any]], None]
"""Called as (seat, view, decision, log) before a seat is asked (tests look at prompts here)."""


def seats_of(names: Sequence[str]) -> tuple[SeatSpec, ...]:
    """Seat specs for agent names."""
    return tuple(SeatSpec(agent=n) for n in names)


def agents_for(names: Sequence[str], seed: int, config: PactConfig) -> list[Any]:
    """Code agents by name, seated in order (seat 0 buys)."""
    return [CODE_AGENTS[n](seat, seed, config) for seat, n in enumerate(names)]


class Played:
    """A finished game: its log, each event's turn and the final state."""

    def __init__(self, log: list[Any], turns: list[int], state: PactState) -> None:
        self.log = log
        self.turns = turns
        self.state = state


def play(
    config: PactConfig,
    seed: int,
    agents: Sequence[Any],
    names: Sequence[str] | None = None,
    *,
    before: Hook | None = None,
    start: list[Any] | None = None,
) -> Played:
    """Play one game to the end (from hand-made set-up events `start`, if given)."""
    seats = seats_of(names or [getattr(a, "spec", "agent") for a in agents])
    if start is None:
        state, events = RULES.start(config, seed, seats)
    else:
        state, events = RULES.fold(start), list(start)
    log: list[Any] = list(events)
    audiences: list[Any] = [e.audience() for e in events]
    turns: list[int] = []
    turn = 0
    for e in events:
        turn = RULES.turn_of(e, turn)
        turns.append(turn)
    views = [PactView(0), PactView(1)]
    while (d := RULES.pending(state)) is not None:
        actions = []
        for seat in d.seats:
            view = views[seat].sync(log, audiences)
            if before is not None:
                before(seat, view, d, log)
            actions.append(agents[seat].act(view, d))
        state, events = RULES.step(state, d, actions)
        for e in events:
            log.append(e)
            audiences.append(e.audience())
            turn = RULES.turn_of(e, turn)
            turns.append(turn)
    for v in views:
        v.sync(log, audiences)
    return Played(log, turns, state)


def play_names(config: PactConfig, seed: int, names: Sequence[str]) -> Played:
    """Play one game between code agents named in seat order."""
    return play(config, seed, agents_for(names, seed, config), names)


# ---------------------------------------------------------------------------- positions


def setup_events(value: int, cost: int, config: PactConfig, seed: int = 1) -> list[Any]:
    """The set-up events of a game whose values are chosen (as the rules would write them)."""
    return [
        pe.PactGameStarted(
            seed=seed, config=config, seats=seats_of(["a", "b"]), engine_version=ENGINE_VERSION
        ),
        pe.PactValuesDrawn(distribution="uniform", value=value, cost=cost),
        pe.PactValueDealt(seat=0, role="buyer", amount=value),
        pe.PactValueDealt(seat=1, role="seller", amount=cost),
    ]


def position(value: int, cost: int, config: PactConfig | None = None) -> PactState:
    """The state at the start of round 1 with these values."""
    return RULES.fold(setup_events(value, cost, config or PactConfig().validate()))


def talk(state: PactState, text: str = "hello") -> tuple[PactState, list[Any]]:
    """Both messages of the round in progress (the same text from each side)."""
    out: list[Any] = []
    for _ in range(2):
        d = RULES.pending(state)
        assert d is not None and d.kind == "message"
        state, events = RULES.step(state, d, [SendMessage(seat=d.seats[0], text=text)])
        out += events
    return state, out


def quote(state: PactState, bid: Any, ask: Any) -> tuple[PactState, list[Any]]:
    """The quotes of the round in progress (after its messages)."""
    d = RULES.pending(state)
    assert d is not None and d.kind == "quote"
    return RULES.step(state, d, [SubmitQuote(seat=0, price=bid), SubmitQuote(seat=1, price=ask)])


def round_of(state: PactState, bid: Any, ask: Any) -> tuple[PactState, list[Any]]:
    """One whole round: two messages, then these quotes; the events of the quotes."""
    state, _ = talk(state)
    return quote(state, bid, ask)


# ---------------------------------------------------------------------------- test agents


class Noisy:
    """A random player that also sends bad input: quotes that are not numbers, fractions or out
    of range, and messages that are too long or hold control characters."""

    spec = "noisy"

    def __init__(self, seat: int, seed: int, config: PactConfig) -> None:
        import random

        self.seat = seat
        self.config = config
        self.rng = random.Random(f"{seed}:{seat}:noisy")

    def act(self, view: PactView, d: Any) -> Any:
        rng = self.rng
        c = self.config
        if d.kind == "message":
            pick = rng.random()
            if pick < 0.2:
                text = " ".join("word" for _ in range(rng.randint(90, 130)))
            elif pick < 0.4:
                text = "line one\nline\ttwo\x00 \x1b[1m"
            else:
                text = rng.choice(("deal?", "no", "", "a  b"))
            return SendMessage(seat=self.seat, text=text)
        bad: list[Any] = [
            float("nan"),
            "fifty",
            None,
            c.quote_high + rng.randint(1, 50),
            c.quote_low - rng.randint(1, 50),
            rng.randint(c.quote_low, c.quote_high - 1) + 0.5,
        ]
        if rng.random() < 0.3:
            return SubmitQuote(seat=self.seat, price=rng.choice(bad))
        return SubmitQuote(seat=self.seat, price=rng.randint(c.quote_low, c.quote_high))


def make(name: str, seat: int, seed: int, config: PactConfig) -> Any:
    """A code agent, or the noisy test player, by name."""
    if name == "noisy":
        return Noisy(seat, seed, config)
    return CODE_AGENTS[name](seat, seed, config)


def play_any(config: PactConfig, seed: int, names: Sequence[str], **kw: Any) -> Played:
    """Play one game between agents named in seat order (code agents or `noisy`)."""
    agents = [make(n, seat, seed, config) for seat, n in enumerate(names)]
    return play(config, seed, agents, names, **kw)


def replay(log: Sequence[Any]) -> list[Any]:
    """Re-run a game from its first event with every action read back from the log itself."""
    first = log[0]
    assert isinstance(first, pe.PactGameStarted)
    state, events = RULES.start(first.config, first.seed, first.seats)
    out: list[Any] = list(events)
    while (d := RULES.pending(state)) is not None:
        actions = [RULES.recorded_action(log, len(out), seat, d) for seat in d.seats]
        state, events = RULES.step(state, d, actions)
        out += events
    return out
