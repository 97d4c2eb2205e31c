"""Golden PACT playthroughs: recorded actions reproduce the recorded events and prompts, and
the log alone (its recorded actions read back by the rules) reproduces itself."""

from __future__ import annotations

import pytest
from pact_golden import CASES, Scripted, action_of, load, name_of, path_for, run
from pactkit import replay

from agents.pact.game import PRESETS
from events.catalog import GameDef


@pytest.mark.parametrize("case", CASES, ids=name_of)
def test_playthrough(case: tuple[str, int, str, str], game: GameDef) -> None:
    doc = load(path_for(case))
    preset, seed, buyer, seller = case
    assert (doc["preset"], doc["seed"], doc["agents"]) == (preset, seed, [buyer, seller])
    agents = [Scripted([action_of(a) for a in seat]) for seat in doc["actions"]]
    out = run(PRESETS[preset], seed, agents, [buyer, seller])
    for i, (want, have) in enumerate(zip(doc["events"], out["events"], strict=False)):
        assert have == want, (
            f"event {i} differs (regenerate with tests/pact/golden/regenerate.py if intended)"
        )
    assert len(out["events"]) == len(doc["events"])
    for i, (want, have) in enumerate(zip(doc["prompts"], out["prompts"], strict=True)):
        assert have == want, f"prompt {i} differs"
    log = [game.decoder.decode(line) for line in doc["events"]]
    assert [e for e in replay(log)] == log


def test_the_golden_games_cover_trades_cuts_and_rejections() -> None:
    events = "\n".join(line for case in CASES for line in load(path_for(case))["events"])
    for needle in (
        '"traded":true',
        '"traded":false',
        '"cut":true',
        "pact_quote_rejected",
        "pact_message_received",
        '"price":',
    ):
        assert needle in events
