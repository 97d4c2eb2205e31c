"""The text mode for training language models: a game's learner seats are model seats whose
model is the caller.

Each learner seat is a model seat (`agents.llm.LLMAgent`) like any other: the game's prompter
writes its messages, its answers are read by the game's parser, an unreadable answer gets the
format retry a model seat gets and then the documented default, and every exchange is stored
as the `LLMCall` and `ModelDecision` events a model game stores. Only the transport differs:
a request is handed to the caller, who answers it with text. The game itself is played by the
driver's own asynchronous loop (`runner.driver.Game.run_async`), the loop `cattle play` uses
when a seat is a model, so an episode is the game `cattle play` plays with a model that gave
the same answers, and a recorded episode verifies offline as a model game does.

`ChatSession` is the asynchronous core (the `verifiers` environment drives it inside its own
event loop); `ChatEnv` wraps it as a PettingZoo AEC environment (`make_env(text="chat")`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from agents import make_agent, parse_spec
from agents.base import Agent
from agents.llm.agent import LLMAgent
from agents.llm.spec import PROVIDERS, resolve
from agents.llm.transport import Reply, Request
from events import catalog
from events.agent import ModelDecision
from events.config import SeatSpec
from events.store import Store
from runner.driver import Game
from runner.rl.env import GameEnv, agent_name
from runner.rl.text import TEXT_BYTES

CHAT_LABEL = "openai:rl?memory=recent"
"""The model spec stored for the learner's seats of a recorded text-mode episode (any model
spec may be given as `label`; its options decide the prompts: `memory=full` adds the
scratchpad requests a model seat is sent after each of its turns)."""


@dataclass
class Ask:
    """A request waiting for the caller's answer."""

    seat: int
    decision: str
    """The kind of decision the request is for ("scratchpad" for a notes update)."""
    stage: str
    """The stage of the call: ask, card_retry, format_retry, truncation_retry, sample,
    scratchpad (docs/llm.md)."""
    request: Request
    answer: asyncio.Future[Reply]

    @property
    def messages(self) -> list[dict[str, str]]:
        """The chat messages, as an OpenAI-compatible client sends them."""
        return [{"role": m.role, "content": m.content} for m in self.request.messages]


class _CallerTransport:
    """Hands each request of one seat to the session and waits for the caller's answer."""

    replaying = True  # never fails, so never waits between attempts, and logs nothing

    def __init__(self, session: ChatSession, seat: int) -> None:
        self.session = session
        self.seat = seat
        self.decision = ""
        self.stage = ""

    async def send(self, request: Request) -> Reply:
        answer: asyncio.Future[Reply] = asyncio.get_running_loop().create_future()
        self.session._ask(Ask(self.seat, self.decision, self.stage, request, answer))
        return await answer

    async def close(self) -> None:
        return None


class _CallerSeat(LLMAgent):
    """A model seat whose transport is the caller (it tells the transport the call's stage)."""

    async def _send(self, decision: str, stage: str, request: Request) -> tuple[Reply, int] | None:
        transport = self.transport
        if isinstance(transport, _CallerTransport):
            transport.decision, transport.stage = decision, stage
        return await super()._send(decision, stage, request)


def as_reply(answer: Any) -> Reply:
    """The caller's answer as a model reply: text, or a mapping with "content" and optionally
    "finish_reason" ("length" for an answer cut by the token limit), "input_tokens",
    "output_tokens"."""
    if isinstance(answer, Mapping):
        return Reply(
            text=str(answer.get("content") or ""),
            finish_reason=answer.get("finish_reason", "stop"),
            input_tokens=int(answer.get("input_tokens", 0)),
            output_tokens=int(answer.get("output_tokens", 0)),
        )
    return Reply(text=str(answer), finish_reason="stop")


class ChatSession:
    """One game in which the `learners` seats are answered by the caller (asynchronous core).

    Inside a running event loop: `start()`, then repeatedly `await wait()` (the requests
    waiting for an answer, none once the game has ended) and `answer(seat, text)`.
    """

    def __init__(
        self,
        game: catalog.GameDef,
        config: Any,
        seed: int,
        others: Mapping[int, SeatSpec],
        label: SeatSpec,
    ) -> None:
        self.game = game
        self.config = config
        self.learners = tuple(s for s in range(config.players) if s not in others)
        seats = tuple(others.get(s, label) for s in range(config.players))
        options = resolve(label)
        agents: list[Agent] = []
        for s in range(config.players):
            if s in others:
                agents.append(make_agent(seats[s], s, seed, config))
            else:
                agents.append(
                    _CallerSeat(
                        s, seed, config, options, _CallerTransport(self, s), spec=label.agent
                    )
                )
        self.driver = Game(config, seed, agents, seats, game=game)
        self.asks: dict[int, Ask] = {}
        """Requests waiting for an answer, by seat."""
        self.outcomes: dict[int, tuple[str, str | None]] = {}
        """Per learner seat, the outcome class of its latest finished decision and the
        action played instead of its answer (JSON), if any."""
        self._task: asyncio.Task[Any] | None = None
        self._attention: asyncio.Future[None] | None = None
        self._seen = 0

    def _ask(self, ask: Ask) -> None:
        self.asks[ask.seat] = ask
        if self._attention is not None and not self._attention.done():
            self._attention.set_result(None)

    def start(self) -> None:
        """Start the game (inside a running event loop; `wait` starts it when not started)."""
        if self._task is None:
            self._task = asyncio.ensure_future(self.driver.run_async())

    @property
    def ended(self) -> bool:
        return self._task is not None and self._task.done()

    async def wait(self) -> dict[int, Ask]:
        """Run the game until a learner seat is asked (the waiting requests) or it ends
        (an empty dict); the game's own exceptions are raised here."""
        self.start()
        task = self._task
        assert task is not None
        if not self.asks and not task.done():
            self._attention = asyncio.get_running_loop().create_future()
            await asyncio.wait({task, self._attention}, return_when=asyncio.FIRST_COMPLETED)
        self._read_outcomes()
        if task.done() and not self.asks:
            task.result()  # raise what ended the game early, if anything
        return dict(self.asks)

    def answer(self, seat: int, answer: Any) -> None:
        """Answer the request waiting for `seat` (text, or a mapping: `as_reply`)."""
        ask = self.asks.pop(seat)
        ask.answer.set_result(as_reply(answer))

    def _read_outcomes(self) -> None:
        log = self.driver.log
        for e in log[self._seen :]:
            if isinstance(e, ModelDecision) and e.seat in self.learners:
                self.outcomes[e.seat] = (e.outcome, e.fallback)
        self._seen = len(log)

    @property
    def scores(self) -> tuple[float, ...] | None:
        """The game's scores once it has ended."""
        if not self.ended:
            return None
        result = self.driver.record().result
        return tuple(float(x) for x in result.scores) if result is not None else None

    async def cancel(self) -> None:
        """Stop a game left unfinished (a truncated episode)."""
        task = self._task
        if task is not None and not task.done():
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)


class ChatEnv(GameEnv):
    """A game as a PettingZoo AEC environment for training language models (`make_env(...,
    text="chat")`).

    The selected agent's observation is its pending request's last message as UTF-8 bytes
    (as on the text channel); its info holds "messages" (the whole request: the chat messages a
    model seat is sent, system prompt first), "stage" and "decision", and once the seat has
    finished a decision, "outcome" (its outcome class, agents.llm.outcome) and "fallback" (the
    action played instead of its answer, or None). The action is the answer text.
    """

    def __init__(self, game: catalog.GameDef, config: Any, **kwargs: Any) -> None:
        label = kwargs.pop("label", None) or CHAT_LABEL
        if not isinstance(label, SeatSpec):
            if label.split(":", 1)[0] not in PROVIDERS:
                raise ValueError(f"text mode stores its seats as a model spec, not {label!r}")
            label = parse_spec(label, game)
        super().__init__(game, config, text=True, label=label, **kwargs)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._session: ChatSession | None = None

    @property
    def session(self) -> ChatSession:
        assert self._session is not None
        return self._session

    @property
    def game_log(self) -> list[Any]:
        return self._session.driver.log if self._session is not None else []

    @property
    def seed(self) -> int | None:
        return self._session.driver.seed if self._session is not None else None

    def _drop(self) -> None:
        if self._loop is not None:
            if self._session is not None:
                self._loop.run_until_complete(self._session.cancel())
            self._loop.close()
        self._loop = None  # the session stays for inspection (its log, its seed)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._drop()
        game_seed = self._new_seed(seed)
        self._loop = asyncio.new_event_loop()
        self._session = ChatSession(self.game, self.config, game_seed, self.others, self.label)
        self._game = self._session.driver
        self._steps = 0
        self._saved = False
        self._decision = None
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]
        self._run()

    def _run(self) -> None:
        """Play until a learner seat is asked or the game ends."""
        assert self._loop is not None
        session = self.session
        asks = self._loop.run_until_complete(session.wait())
        if asks:
            self.agent_selection = agent_name(min(asks))
        else:
            scores = session.scores or (0.0,) * self.config.players
            for name, seat in self._seat_of.items():
                self.rewards[name] = scores[seat]
                self.terminations[name] = True
            self.agent_selection = self.agents[0]
            self._save()
        self._refresh_infos()

    def step(self, action: Any) -> None:
        name = self.agent_selection
        if self.terminations[name] or self.truncations[name]:
            self._was_dead_step(action)
            return
        seat = self._seat_of[name]
        self._cumulative_rewards[name] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.session.answer(seat, action)
        self._steps += 1
        self._run()
        if (
            self.max_steps is not None
            and self._steps >= self.max_steps
            and not any(self.terminations.values())
        ):
            for a in self.agents:
                self.truncations[a] = True
            self.agent_selection = self.agents[0]
        self._accumulate_rewards()

    def _refresh_infos(self) -> None:
        session = self.session
        for name, seat in self._seat_of.items():
            if name not in self.infos:
                continue
            ask = session.asks.get(seat)
            info: dict[str, Any] = {
                "seat": seat,
                "decision": ask.decision if ask is not None else None,
                "stage": ask.stage if ask is not None else None,
                "messages": ask.messages if ask is not None else [],
                "text": ask.request.messages[-1].content if ask is not None else "",
            }
            if seat in session.outcomes:
                info["outcome"], info["fallback"] = session.outcomes[seat]
            self.infos[name] = info

    def _text(self, seat: int) -> str:
        ask = self.session.asks.get(seat)
        if ask is not None:
            return "\n\n".join(m.content for m in ask.request.messages)
        return super()._text(seat)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        ask = self.session.asks.get(self._seat_of[agent])
        data = (ask.request.messages[-1].content if ask is not None else "").encode()
        data = data[-TEXT_BYTES:]
        out = np.zeros(TEXT_BYTES, dtype=np.uint8)
        out[: len(data)] = np.frombuffer(data, dtype=np.uint8)
        return {"observation": out}

    def close(self) -> None:
        self._drop()
        super().close()


def make_chat_env(
    game: catalog.GameDef,
    config: Any,
    *,
    seed: int | None,
    record: str | Path | Store | None,
    others: Mapping[int, str | SeatSpec] | None,
    label: str | SeatSpec | None,
    max_steps: int | None,
    render_mode: str | None,
) -> ChatEnv:
    """The text-mode environment (`make_env` with `text="chat"`)."""
    return ChatEnv(
        game,
        config,
        seed=seed,
        record=record,
        others=others,
        label=label,
        max_steps=max_steps,
        render_mode=render_mode,
    )
