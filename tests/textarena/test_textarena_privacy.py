"""Environments that send one player another's private facts are found by playing them, and
refused unless asked for openly.

Stratego-v0 sends every player the board drawn for the player to move (the other player reads
its army); Kuhn poker deals each player a card in a message to that player alone and shows it
to no one else. A copy of Kuhn poker that also hands a player's card line to the other player
shows that the check reads what each player is handed, not a list of names.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from agents.textarena.game import OPEN, OPEN_NAME, configure
from engine.textarena import privacy
from engine.textarena.privacy import LEAKS_FILE, known_leaks, leak
from engine.textarena.rules import textarena_version
from events import catalog
from events.config import ConfigError

CLOSED = "KuhnPoker-v0"
"""An environment with private facts (each player's card) that it keeps to their owner."""


def test_stratego_is_found_to_show_each_player_the_other_army() -> None:
    found = leak("Stratego-v0", 2, seeds=(0,), steps=2)
    assert found is not None and "board drawn for the player to move" in found
    assert "?" in found  # the other board hides what this one shows


def test_kuhn_poker_keeps_each_card_to_its_owner() -> None:
    assert leak(CLOSED, 2) is None


def test_a_card_handed_to_the_other_player_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same environment made to forward player 0's own lines to player 1 as well."""
    real = privacy.make_env

    def forwarding(env_id: str) -> Any:
        env = real(env_id)
        reset = env.reset

        def reset_and_forward(*args: Any, **kwargs: Any) -> Any:
            out = reset(*args, **kwargs)
            state = env.state
            for _, message, kind in list(state.observations[0]):
                if (_, message, kind) not in state.observations[1]:
                    state.observations[1].append((-1, message, kind))
            return out

        env.reset = reset_and_forward
        return env

    monkeypatch.setattr(privacy, "make_env", forwarding)
    found = leak(CLOSED, 2, seeds=(0,))
    assert found is not None and "addressed to player 0 alone" in found


def test_the_shipped_list_is_what_the_check_finds_for_a_sample() -> None:
    data = json.loads(LEAKS_FILE.read_text(encoding="utf-8"))
    assert data["textarena"] == textarena_version()
    leaks = known_leaks()
    assert "Stratego-v0" in leaks
    assert leaks["Stratego-v0"] == leak("Stratego-v0", 2)
    assert CLOSED not in leaks and "ColonelBlotto-v0-train" not in leaks


def test_a_leaking_environment_is_refused_unless_asked_for_openly() -> None:
    with pytest.raises(ConfigError) as refused:
        configure("textarena:Stratego-v0")
    message = str(refused.value)
    assert "sends one player another's private facts" in message
    assert f"{OPEN}:Stratego-v0" in message and known_leaks()["Stratego-v0"] in message
    opened = configure(f"{OPEN}:Stratego-v0")
    assert opened is not None and opened.env_id == "Stratego-v0" and opened.name == OPEN_NAME
    # The name resolves through the catalogue as any game name does.
    game, config = catalog.resolve(f"{OPEN}:Stratego-v0")
    assert game.name == "textarena" and config.name == OPEN_NAME
    closed = configure(f"textarena:{CLOSED}")
    assert closed is not None and closed.name == "custom"


def test_docs_list_every_environment_found_leaking() -> None:
    docs = (LEAKS_FILE.parents[1] / "docs" / "textarena.md").read_text(encoding="utf-8")
    start = docs.index("<!-- leaks: begin -->")
    listed = docs[start : docs.index("<!-- leaks: end -->")]
    names = {line.split("`")[1] for line in listed.splitlines() if line.startswith("| `")}
    assert names == set(known_leaks())
