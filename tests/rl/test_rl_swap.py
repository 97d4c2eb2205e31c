"""Swap tests: what a learner's seat is shown depends on what that seat may know only. Changing
another seat's hidden information leaves the seat's observation and mask as they were; changing
what it may see changes them (so the comparison can fail)."""

from __future__ import annotations

from typing import Any

import msgspec
import numpy as np
import pytest

from events import catalog
from runner.rl import make_env


def _bump(value: Any) -> Any:
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return value + 10
    if isinstance(value, tuple) and value and all(isinstance(v, int) for v in value):
        return tuple(v + 10 for v in value)
    if isinstance(value, tuple) and len(set(value)) > 1:
        return value[::-1]  # the hidden deck order, reversed
    return value


def _mutated(event: Any, keep: frozenset[str]) -> Any:
    fields = {f: _bump(getattr(event, f)) for f in event.__struct_fields__ if f not in keep}
    return msgspec.structs.replace(event, **fields)


def _seen(event: Any, seat: int) -> bool:
    aud = event.audience()
    return aud is None or seat in aud


def _observe(env: Any, log: list[Any], seat: int) -> tuple[np.ndarray, np.ndarray]:
    view = env.game.new_view(seat)
    view.sync(log, [e.audience() for e in log])
    d = env._decision
    return env.codec.observe(view, d, seat), env.codec.mask(view, d, seat)


def _play(env: Any, steps: int, rng: np.random.Generator) -> None:
    for _ in range(steps):
        obs, _, done, cut, _ = env.last()
        if done or cut:
            break
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


@pytest.mark.parametrize("steps", [15, 60, 140])
def test_cattle_hidden_facts_of_other_seats_do_not_reach_an_observation(steps: int) -> None:
    env = make_env("cattle-trade", seed=21)
    env.reset()
    _play(env, steps, np.random.default_rng(steps))
    log = list(env.game_log)
    seat = int(env.agent_selection.rsplit("_", 1)[1])
    hidden = [i for i, e in enumerate(log) if not _seen(e, seat)]
    swapped = list(log)
    changed = 0
    for i in hidden:
        e = _mutated(log[i], frozenset({"seat", "seats", "initiator", "target", "payer", "payee"}))
        if not _seen(e, seat) and e != log[i]:
            swapped[i] = e
            changed += 1
    assert changed > 0, "nothing hidden from the seat was changed"
    obs, mask = _observe(env, log, seat)
    got_obs, got_mask = _observe(env, swapped, seat)
    assert np.array_equal(obs, got_obs) and np.array_equal(mask, got_mask)
    # The same change to what the seat sees shows.
    seen = [i for i, e in enumerate(log) if _seen(e, seat) and type(e).__name__ == "HandsDealt"]
    assert seen
    if seen:
        shown = list(log)
        dealt = log[seen[0]]
        more = tuple(50 if v == 10 else v for v in dealt.money)
        shown[seen[0]] = msgspec.structs.replace(dealt, money=more)
        assert not np.array_equal(obs, _observe(env, shown, seat)[0])


def test_kuhn_the_opponents_card_does_not_reach_an_observation() -> None:
    firsts: dict[tuple[int, int], np.ndarray] = {}
    for seed in range(40):
        env = make_env("openspiel:kuhn_poker", seed=seed)
        env.reset()
        cards = [e.action for e in env.game_log if type(e).__name__ == "ChanceSampled"]
        obs, *_ = env.last()
        assert env.agent_selection == "player_0"
        firsts[(cards[0], cards[1])] = obs["observation"]
        if len(firsts) == 6:
            break
    for (mine, theirs), obs in firsts.items():
        for (mine2, theirs2), obs2 in firsts.items():
            same = np.array_equal(obs, obs2)
            assert same == (mine == mine2), (mine, theirs, mine2, theirs2)


def test_a_policy_seat_is_shown_what_the_environment_shows() -> None:
    from runner.rl.policy import PolicyAgent

    for game in ("cattle-trade", "openspiel:kuhn_poker"):
        env = make_env(game, seed=5)
        env.reset()
        _play(env, 10 if game == "cattle-trade" else 1, np.random.default_rng(1))
        obs, *_ = env.last()
        seat = int(env.agent_selection.rsplit("_", 1)[1])
        got: dict[str, Any] = {}

        def keep(o: dict[str, Any], info: dict[str, Any], got: dict[str, Any] = got) -> int:
            got.update(o)
            return int(np.flatnonzero(o["action_mask"])[0])

        agent = PolicyAgent.__new__(PolicyAgent)
        agent.seat, agent.policy = seat, keep
        agent.codec = env.codec
        agent.act(env._game.view(seat), env._decision)
        assert np.array_equal(got["observation"], obs["observation"])
        assert np.array_equal(got["action_mask"], obs["action_mask"])
    assert catalog.get("cattle-trade").extras["rl"] == "runner.cattle.rl"
