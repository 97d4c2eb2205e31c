"""What the environments keep between steps to save work (the Cattle Trade codec's arrays of
what the players hold, the infos) gives what building everything afresh gives."""

from __future__ import annotations

from typing import Any

import msgspec
import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from runner.cattle.rl import CattleCodec
from runner.rl import make_env


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    mode=st.sampled_from(["canonical", "legacy", "fast"]),
    seed=st.integers(0, 10_000),
    picks=st.data(),
)
def test_cattle_observations_equal_ones_built_afresh(mode: str, seed: int, picks: Any) -> None:
    """Every seat's observation, at every step, equals the one a new codec (nothing kept)
    builds from the same view."""
    env = make_env("cattle-trade", "micro-duel")
    env = make_env("cattle-trade", msgspec.structs.replace(env.config, auction_mode=mode))
    env.reset(seed=seed)
    g = env._game
    assert g is not None
    for _ in range(150):
        obs, _, done, cut, info = env.last()
        if done or cut:
            return
        d = env._decision
        for seat in range(env.config.players):
            view = g.view(seat)
            fresh = CattleCodec(env.config).observe(view, d, seat)
            assert np.array_equal(env.codec.observe(view, d, seat), fresh)
        assert info == {"seat": env._seat_of[env.agent_selection], "decision": d.kind}
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[picks.draw(st.integers(0, len(legal) - 1))]))
