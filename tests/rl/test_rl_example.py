"""The worked example of docs/rl.md learns through the API: a table trained on Kuhn poker
against the random agent beats a random policy over the same evaluation games, and plays as a
`policy:` callable."""

from __future__ import annotations

import numpy as np

from bench.rl_example import Table, evaluate, random_policy, train
from runner.rl import make_env


def test_a_tabular_learner_improves_on_random_play() -> None:
    table = train(600, seed=1)
    learned = evaluate(table, 400, 10_000_001)
    baseline = evaluate(random_policy(1), 400, 10_000_001)
    assert learned > baseline + 0.2, (learned, baseline)
    untrained = evaluate(Table(), 400, 10_000_001)
    assert learned > untrained + 0.2, (learned, untrained)


def test_the_table_answers_with_a_legal_id() -> None:
    env = make_env("openspiel:kuhn_poker", seed=2)
    env.reset()
    obs, *_, info = env.last()
    assert obs["action_mask"][Table()(obs, info)] == 1
    assert np.count_nonzero(obs["action_mask"]) == 2
