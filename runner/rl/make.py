"""`make_env`, the one entry point of the learning environments: the AEC environment of
runner.rl.env, or the text mode for language models of runner.rl.chat (which builds on it)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from events import catalog
from events.store import Store
from runner.rl.chat import make_chat_env
from runner.rl.env import LABEL, GameEnv, SeatSpec, resolve


def make_env(
    game: str | catalog.GameDef | None = None,
    preset: Any = None,
    seed: int | None = None,
    record: str | Path | Store | None = None,
    text: bool | str = False,
    *,
    others: Mapping[int, str | SeatSpec] | None = None,
    label: str | SeatSpec | None = None,
    max_steps: int | None = None,
    render_mode: str | None = None,
) -> GameEnv:
    """A PettingZoo AEC environment of `game` (default Cattle Trade) at `preset` (a name, a
    configuration, or None for the default), whose first episode plays game seed `seed`
    (later resets without a seed take seed+1, seed+2, ...). `record`: a store path (or store)
    that keeps every finished episode as a game. `text`: the text action channel even where
    the game has action ids. `others`: seat -> agent spec of seats played by agents (the
    learner plays the rest). `label`: the agent spec stored for the learner's seats.
    `max_steps`: truncate an episode after this many learner steps. `text="chat"`: the text
    mode for language models (runner.rl.chat): the learner's seats are model seats answered
    by the caller, stored as the model spec `label` (default `openai:rl?memory=recent`)."""
    g, config = resolve(game, preset)
    if text == "chat":
        return make_chat_env(
            g,
            config,
            seed=seed,
            record=record,
            others=others,
            label=label,
            max_steps=max_steps,
            render_mode=render_mode,
        )
    if not isinstance(text, bool):
        raise ValueError(f"text is True, False or 'chat', not {text!r}")
    return GameEnv(
        g,
        config,
        seed=seed,
        record=record,
        text=text,
        others=others,
        label=label or LABEL,
        max_steps=max_steps,
        render_mode=render_mode,
    )
