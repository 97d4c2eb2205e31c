"""End-to-end smoke test: every preset and mode plays to the end and verifies."""

import pytest

from engine.cattle.presets import load_preset
from runner.replay import verify
from runner.session import play_game


@pytest.mark.parametrize("preset", ["micro-duel", "standard", "marathon"])
@pytest.mark.parametrize("mode", ["canonical", "fast", "legacy"])
def test_random_game_completes_and_verifies(preset: str, mode: str) -> None:
    config = load_preset(preset, auction_mode=mode)
    record = play_game(config, 11, ["random"] * config.players)
    assert record.result is not None
    assert record.result.reason == "complete"
    assert verify(record.events).ok
