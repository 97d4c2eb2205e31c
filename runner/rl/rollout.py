"""Rollouts of a game through an OpenAI-compatible client: the text mode (runner.rl.chat) with
its requests sent to a chat-completions endpoint, the form an LLM-RL trainer samples episodes
in (the model under training behind vLLM or any compatible server).

`rollout` plays one game: every request of a learner seat goes to the endpoint as a model seat
would send it (its own messages, its temperature and token limit), the answer comes back into
the game, and the result holds every exchange, the outcome class of each decision and the
reward (the game's score) of each learner seat. With `record`, the game is stored and verifies
offline like any model game. Several learner seats (self-play) are answered by the same model.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agents import parse_spec
from events.agent import ModelDecision
from events.config import SeatSpec
from events.store import DuckStore, Store
from runner.rl.chat import Ask, ChatSession
from runner.rl.env import resolve
from runner.session import game_row, new_game_id


@dataclass
class Turn:
    """One request of a learner seat and the model's answer."""

    seat: int
    decision: str
    stage: str
    messages: list[dict[str, str]]
    answer: str
    finish_reason: str | None


@dataclass
class Rollout:
    """One game played through the endpoint."""

    game: str
    seed: int
    learners: tuple[int, ...]
    turns: list[Turn] = field(default_factory=list)
    rewards: dict[int, float] = field(default_factory=dict)
    """The game's score of each learner seat."""
    outcomes: list[tuple[int, str]] = field(default_factory=list)
    """(seat, outcome class) of every decision of a learner seat, in order."""
    game_id: str | None = None
    """The stored game (with `record`)."""


async def _ask_model(client: Any, model: str, ask: Ask) -> dict[str, Any]:
    request = ask.request
    response = await client.chat.completions.create(
        model=model,
        messages=ask.messages,
        temperature=request.temperature,
        max_tokens=request.max_tokens,
    )
    choice = response.choices[0]
    usage = getattr(response, "usage", None)
    return {
        "content": choice.message.content or "",
        "finish_reason": choice.finish_reason,
        "input_tokens": getattr(usage, "prompt_tokens", 0) or 0,
        "output_tokens": getattr(usage, "completion_tokens", 0) or 0,
    }


async def rollout(
    game: str,
    client: Any,
    model: str,
    *,
    preset: Any = None,
    seed: int = 0,
    others: Mapping[int, str | SeatSpec] | None = None,
    label: str | SeatSpec | None = None,
    record: str | Path | Store | None = None,
) -> Rollout:
    """Play `game` once with the learner seats (those not in `others`) answered by `model`
    through `client` (an `openai.AsyncOpenAI`, or anything with its `chat.completions.create`).
    `label`: the model spec stored for the learner seats (default `openai:MODEL?memory=recent`);
    its options decide the prompts, the temperature and the token limit of the requests."""
    g, config = resolve(game, preset)
    config.validate()
    spec = label or f"openai:{model}?memory=recent"
    seat_label = spec if isinstance(spec, SeatSpec) else parse_spec(spec, g)
    seated = {
        int(s): v if isinstance(v, SeatSpec) else parse_spec(v, g)
        for s, v in (others or {}).items()
    }
    session = ChatSession(g, config, seed, seated, seat_label)
    result = Rollout(game=g.name, seed=seed, learners=session.learners)
    try:
        while asks := await session.wait():
            for seat in sorted(asks):
                ask = asks[seat]
                answer = await _ask_model(client, model, ask)
                result.turns.append(
                    Turn(
                        seat, ask.decision, ask.stage, ask.messages, answer["content"],
                        answer["finish_reason"],
                    )
                )  # fmt: skip
                session.answer(seat, answer)
    finally:
        await session.cancel()
    result.outcomes = [
        (e.seat, e.outcome)
        for e in session.driver.log
        if isinstance(e, ModelDecision) and e.seat in session.learners
    ]
    scores = session.scores or (0.0,) * config.players
    result.rewards = {s: scores[s] for s in session.learners}
    if record is not None:
        store = record if isinstance(record, Store) else DuckStore(record)
        try:
            d = session.driver
            game_id = new_game_id()
            store.save_game(game_row(game_id, config, d.seed, d.seats, None), d.log, d.turns)
            result.game_id = game_id
        finally:
            if not isinstance(record, Store):
                store.close()
    return result
