"""The engine's shortcuts agree with the plain definitions on random games.

Shortcuts under test: `engine.cattle.state.fold` skips events that leave the state unchanged; the
rules step on the state folded so far, a sealed bid round straight through `step_bids`; the
driver folds each seat's view incrementally, handing it only the positions of the event types
it folds (and no view at all to seats that only read the log position); verification encodes
whole logs at once. Each is compared with the plain fold (`evolve` over every event), a seat's view built
from scratch (`observe`), and a replay, on random games of every preset and auction mode,
with agents that send bad input (rejections with retries) and record agent-side events.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents.base import Agent
from agents.cattle.random_agent import RandomAgent
from engine.cattle import actions as act
from engine.cattle import decisions as dec
from engine.cattle import rules
from engine.cattle import state as state_module
from engine.cattle.presets import load_preset, preset_names
from engine.cattle.state import evolve, fold, fold_plain, initial_state, unchanged_by
from engine.chance import chance
from events import agent as ae
from events.cattle import game as ev
from events.cattle.domain import AUCTION_MODES, GameConfig
from events.codec import encode, encode_each
from projections.cattle.observation import SeatView, observe
from runner.driver import Game, LogPosition
from runner.replay import RecordedAgent, resimulate, verify

CHECK_EVERY = 29
"""Compare a seat's view with one built from scratch at every this-many-th decision."""


class Sloppy(RandomAgent):
    """A random agent that sometimes offers cards it does not hold (the rules then ask again,
    counting the retry) and sometimes rewrites its notes (an agent-side event; always when
    asked again, so that such events arrive while a retry is counted)."""

    spec = "sloppy"

    def __init__(self, seat: int, seed: int, config: GameConfig) -> None:
        super().__init__(seat, seed, config)
        self.noise = chance(seed, "agent", seat, "sloppy")
        self.game: Game | None = None
        self.asked = 0
        self.checked = 0

    def act(self, view: Any, decision: dec.AnyDecision) -> act.AnyAction:
        self.asked += 1
        if self.game is not None and self.asked % CHECK_EVERY == 0:
            self._check(view, decision)
        action = super().act(view, decision)
        r = self.noise
        retried = bool(view.history) and getattr(view.history[-1], "retry", False)
        # Notes only for decisions asked of one seat: the order of notes several seats write
        # during one sealed round is not something a replay reproduces.
        if len(decision.seats) == 1 and (retried or r.random() < 0.1):
            self.record(ae.ScratchpadUpdated(seat=self.seat, notes=f"note {self.asked}"))
        if r.random() < 0.15:
            match action:
                case act.InitiateTrade():
                    return act.InitiateTrade(
                        seat=self.seat,
                        target=action.target,
                        animal=action.animal,
                        cards=(*action.cards, 500, 500, 500),
                    )
                case act.CounterTrade():
                    return act.CounterTrade(seat=self.seat, cards=(*action.cards, 7))
                case act.OfferAgain():
                    return act.OfferAgain(seat=self.seat, cards=(*action.cards, 200, 200))
        return action

    def _check(self, view: Any, decision: dec.AnyDecision) -> None:
        game = self.game
        assert game is not None
        log = game.log
        assert view.seen == len(log)
        # The view handed out equals the seat's fold built from scratch over the same log.
        fresh = observe(log, self.seat, decision)
        assert view.snapshot(decision) == fresh
        assert encode(view.snapshot(decision)) == encode(fresh)
        # The money total the view keeps beside its cards, and the history it builds when
        # read, are those of the definition.
        assert view.wealth == sum(view.money)
        assert view.history == [e for e in log if _sees(e, self.seat)]
        # The rules' state equals the plain fold of the log, and so does the shortcut fold.
        plain = fold_plain(log)
        assert game.state == plain
        assert fold(log) == plain
        # The bound the rules check before counting the money for the bid-round cap holds.
        assert rules.least_round_cap(plain.config) <= rules.bid_round_cap(plain)
        # Whether a seat has a trade target, asked without listing them, is the list's answer.
        for seat in range(plain.players if plain.animals else 0):
            assert plain.has_target(seat) == bool(plain.targets(seat))
        self.checked += 1


def play(config: GameConfig, seed: int) -> tuple[Game, list[Sloppy]]:
    agents = [Sloppy(i, seed, config) for i in range(config.players)]
    game = Game(config, seed, agents)
    for a in agents:
        a.game = game
    game.run()
    return game, agents


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    preset=st.sampled_from(preset_names()),
    mode=st.sampled_from(AUCTION_MODES),
    seed=st.integers(0, 2**32),
    max_turns=st.integers(1, 60),
)
def test_shortcuts_agree_with_the_plain_fold(
    preset: str, mode: str, seed: int, max_turns: int
) -> None:
    config = load_preset(preset, auction_mode=mode, max_turns=max_turns)
    game, _ = play(config, seed)
    log = game.log
    plain = fold_plain(log)
    assert game.state == plain
    assert fold(log) == plain
    # Every prefix, folded with the shortcut, is the plain fold of that prefix.
    rng = random.Random(f"{seed}:prefixes")
    for k in sorted(rng.sample(range(1, len(log) + 1), min(12, len(log)))):
        assert fold(log[:k]) == fold_plain(log[:k])
    # The driver's per-event columns equal asking each event and the rules directly.
    assert game.audiences == [e.audience() for e in log]
    turn, turns = 0, []
    for e in log:
        turn = game.rules.turn_of(e, turn)
        turns.append(turn)
    assert game.turns == turns
    # Each seat's final view equals the one built from scratch.
    for seat in range(config.players):
        assert game.view(seat).snapshot() == observe(log, seat)
        assert game.views[seat].history == [e for e in log if _sees(e, seat)]
    # Replays (whose seats read only the log position) give the same bytes, whole-log
    # encoding included.
    again = resimulate(log)
    assert encode_each(again) == [encode(e).decode() for e in log]
    assert verify(log).ok


def _sees(e: Any, seat: int) -> bool:
    aud = e.audience()
    return aud is None or seat in aud


def test_the_sloppy_agents_reach_retries_and_agent_events() -> None:
    """The agents above do exercise the cases the shortcuts must respect."""
    config = load_preset("standard")
    game, agents = play(config, 11)
    kinds = {type(e).__name__ for e in game.log}
    assert {"ActionRejected", "ScratchpadUpdated"} <= kinds
    assert any(getattr(e, "retry", False) for e in game.log)
    assert sum(a.checked for a in agents) > 10
    # A state counting a retry is folded through every event, skipped types included.
    state = initial_state(config)
    seen_retry_skip = False
    skip = unchanged_by(config)
    for e in game.log:
        if state.attempts and type(e) in skip:
            seen_retry_skip = True
        state = evolve(state, e)
    assert seen_retry_skip


def test_unchanged_types_leave_the_state_as_it_is() -> None:
    """Every event of a skipped type, in the games above, leaves the state equal."""
    for mode in AUCTION_MODES:
        config = load_preset("micro-duel", auction_mode=mode)
        game, _ = play(config, 5)
        skip = unchanged_by(config)
        state = initial_state(config)
        for e in game.log:
            after = evolve(state, e)
            if type(e) in skip and not state.attempts:
                assert after == state, type(e).__name__
            state = after


class _Counting(Agent):
    """Plays the recorded log, and says what it was handed."""

    def __init__(self, inner: RecordedAgent) -> None:
        super().__init__(inner.seat, inner.seed, inner.config)
        self.inner = inner
        self.reads_view = inner.reads_view
        self.handed: list[type] = []

    def act(self, view: Any, decision: Any) -> Any:
        self.handed.append(type(view))
        action = self.inner.act(view, decision)
        for e in self.inner.drain():
            self.record(e)
        return action


def test_seats_that_read_only_the_position_get_no_view() -> None:
    config = load_preset("micro-duel")
    game, _ = play(config, 3)
    log = [e for e in game.log if not isinstance(e, ae.ScratchpadUpdated)]
    # Without agent events, re-play the game's actions through the synchronous loop.
    config_log = game.log[0]
    from events import catalog

    rules = catalog.get(config_log.game).rules
    agents = [
        _Counting(RecordedAgent(i, config_log.seed, config_log.config, log, rules))
        for i in range(config.players)
    ]
    replay = Game(config_log.config, config_log.seed, agents, config_log.seats)
    replay.run()
    assert all(t is LogPosition for a in agents for t in a.handed)
    assert all(v.seen == 0 and not v.history for v in replay.views)


class _BothWays(Game):
    """A driver that steps every decision both ways: the sealed-bid shortcut the rules take
    and the general command path, and checks they give the same state and events."""

    compared = 0

    def _apply(self, decision: Any, actions: Any) -> None:
        if len(actions) > 1:
            general = rules.step(self.state, act.Simultaneous(actions=tuple(actions)), decision)
            short = rules.step_bids(self.state, decision, tuple(actions))
            assert short == general
            assert [encode(e) for e in short[1]] == [encode(e) for e in general[1]]
            self.compared += 1
        super()._apply(decision, actions)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mode=st.sampled_from(AUCTION_MODES), seed=st.integers(0, 2**32))
def test_the_sealed_bid_shortcut_equals_the_command_path(mode: str, seed: int) -> None:
    config = load_preset("standard", auction_mode=mode, max_turns=40)
    agents = [Sloppy(i, seed, config) for i in range(config.players)]
    game = _BothWays(config, seed, agents)
    game.run()
    if mode != "legacy":  # legacy mode asks one bidder at a time: no sealed rounds
        assert game.compared > 0


def test_evolve_has_a_step_for_every_game_event_and_refuses_other_values() -> None:
    assert set(state_module._EVOLVE) == set(ev.GAME_EVENT_TYPES)
    state = initial_state(load_preset("standard"))
    with pytest.raises(TypeError, match="not an event"):
        evolve(state, act.Pass(seat=0))
    # Agent-side events leave the state as it is.
    note = ae.ScratchpadUpdated(seat=0, notes="x")
    assert evolve(state, note) is state


def test_views_that_start_late_or_change_logs_catch_up_with_marks() -> None:
    """A view first synced halfway through a game, and one moved to a copy of the log,
    fold exactly what `observe` folds (the marks are found again by position)."""
    config = load_preset("standard")
    game, _ = play(config, 21)
    log, audiences, marks = game.log, game.audiences, game.marks
    assert marks == [i for i, e in enumerate(log) if type(e) in SeatView.FOLDS]
    half = len(log) // 2
    for seat in range(config.players):
        late = SeatView(seat)
        late.sync(log[:half], audiences[:half])  # without marks for the first half
        late.sync(log, audiences, marks)
        assert late.snapshot() == observe(log, seat)
        assert late.history == [e for e in log if _sees(e, seat)]
        moved = SeatView(seat)
        moved.sync(log[:half], audiences, [m for m in marks if m < half])
        moved.sync(list(log), audiences, marks)
        assert moved.snapshot() == observe(log, seat)
