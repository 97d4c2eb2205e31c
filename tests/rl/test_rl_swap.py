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


@pytest.mark.parametrize(
    ("steps", "preset", "mode"),
    [
        (15, "standard", None), (60, "standard", None), (140, "standard", None),
        (60, "micro-duel", "legacy"), (90, "marathon", "fast"), (120, "standard", "fast"),
    ],
)  # fmt: skip
def test_cattle_hidden_facts_of_other_seats_do_not_reach_an_observation(
    steps: int, preset: str, mode: str | None
) -> None:
    config = catalog.get("cattle-trade").preset(preset)
    if mode is not None:
        config = msgspec.structs.replace(config, auction_mode=mode)
    env = make_env("cattle-trade", preset=config, seed=21)
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
        more = (*dealt.money, 0)  # one more card than dealt: later payments still fold
        shown[seen[0]] = msgspec.structs.replace(dealt, money=more)
        assert not np.array_equal(obs, _observe(env, shown, seat)[0])


@pytest.mark.parametrize(
    "game", ["openspiel:kuhn_poker", "openspiel:leduc_poker", "openspiel:liars_dice"]
)
@pytest.mark.parametrize("seat", [0, 1])
def test_the_opponents_private_deal_does_not_reach_an_observation(game: str, seat: int) -> None:
    """At the first decision each seat's private deal (the first two chance outcomes: seat
    0's, then seat 1's) is all that tells games apart; a seat's observation and mask are
    equal exactly when its own deal is, whatever the other's (asked or not)."""
    seen: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}
    for seed in range(30):
        env = make_env(game, seed=seed)
        env.reset()
        deal = [e.action for e in env.game_log if type(e).__name__ == "ChanceSampled"]
        assert env.agent_selection == "player_0" and len(deal) == 2
        obs = env.observe(f"player_{seat}")
        seen[(deal[0], deal[1])] = (obs["observation"], obs["action_mask"])
    assert len({k[seat] for k in seen}) > 1 and len({k[1 - seat] for k in seen}) > 1
    for k, (obs, mask) in seen.items():
        for k2, (obs2, mask2) in seen.items():
            same = np.array_equal(obs, obs2) and np.array_equal(mask, mask2)
            assert same == (k[seat] == k2[seat]), (k, k2)


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
