"""GameBench's reasoning via planning (`style=gamebench&mode=rap`): a Monte Carlo tree search
of depth 2 over the model's own predictions, as GameBench's `agents/rap/` at f5ffba2 runs it
(docs/gamebench.md, GameBench's model protocol).

The root's actions are the decision's keys (an open-ended key first gets its response from
the model). Expanding a state asks for the actions there (the root's are known), then for
every action the model's pick among them (`select`: one call per state) and whether it is a
good action (`eval`: one call per action); the reward of an action is that pick's
probability plus the evaluation, plus 2p - 1 once the model has predicted the other players'
actions (`others`, one per state), the next state (`state`) and the chance of winning from
there (`goal`). Ten iterations of UCT selection (exploration weight 1, unvisited children by
their fast reward), expansion and a greedy simulation to depth 2; the path with the highest
summed reward gives the action played. Every answer is cached by its question within the
decision, as GameBench's `functools.cache` does, so a repeated question is not asked again.

GameBench reads probabilities from the first token's log-probabilities; the calls here store
text only, so a probability is read from the answer's first word: 1 for the token it names,
0 for the others (docs/gamebench.md says so). Any failure GameBench's search lets escape (the
predicted actions of a deeper state unreadable) ends in the decision's default, as
GameBench's agent returns no action then.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from events.agent import ChatMessage
from projections.gamebench import protocol as gp
from projections.gamebench.common import RuleBook

DEPTH = 2
"""GameBench's `DEPTH_LIMIT` (`agents/rap/definitions.py`)."""
ITERATIONS = 10
"""The MCTS default of `n_iters` GameBench leaves as it is (`reasoners/algorithm/mcts.py`)."""
EXPLORATION = 1.0
"""The MCTS default `w_exp`."""
PROBABILITY_TOKENS = 1
"""Answer tokens of a probability question (GameBench asks for one token's log-probabilities)."""

EXAMPLE = (
    "Here is a game called three doors. A prize hides behind one of three doors; choose the"
    " door that hides it.\nWhat you see of the game, between <state> and </state>:\n<state>\n"
    "The three doors are closed.\n</state>\n"
)
"""The worked example the templates open with (GameBench uses a Monty Hall game; the
project's words)."""


class SearchFailed(Exception):
    """A failure GameBench's search does not catch: the decision plays its default."""


@dataclass(frozen=True)
class State:
    """A node's state: what the seat sees (predicted below the root), its depth and, at the
    root, its actions (GameBench's frozen `GameState`)."""

    observation: str
    depth: int = 0
    actions: tuple[str, ...] | None = None


@dataclass
class Node:
    """A node of the search tree (GameBench's `MCTSNode`)."""

    state: State | None
    action: str | None
    parent: Node | None = None
    fast_reward: float = 0.0
    details: dict[str, float] = field(default_factory=dict)
    reward: float = 0.0
    terminal: bool = False
    children: list[Node] | None = None
    cum_rewards: list[float] = field(default_factory=list)
    depth: int = 0

    def __post_init__(self) -> None:
        self.reward = self.fast_reward
        self.depth = 0 if self.parent is None else self.parent.depth + 1

    @property
    def q(self) -> float:
        if self.state is None:
            return self.fast_reward
        return sum(self.cum_rewards) / len(self.cum_rewards) if self.cum_rewards else math.nan


class Planner:
    """One decision's search: the model's questions, their cache, and the tree."""

    def __init__(self, agent: Any, decision: Any, book: RuleBook, keys: dict[str, str]) -> None:
        self.agent = agent
        self.kind = decision.kind
        self.book = book
        self.topics = list(keys.values())
        self.cache: dict[tuple[Any, ...], Any] = {}

    # ---- the model's questions ---------------------------------------------------------

    def prefix(self, observation: str) -> str:
        topics = ""
        if self.topics:
            topics = (
                "To read more of the rules at any point, answer rule(<topic>), the topic one"
                f" of {', '.join(self.topics)}. "
            )
        return (
            f"You are now playing {self.book.title}.\nIts rules: {self.book.summary}. {topics}\n"
            f"What you see of the game, between <state> and </state>:\n<state>\n{observation}\n"
            "</state>\n"
        )

    def context(self, template: str, observation: str, **kw: str) -> list[ChatMessage]:
        """The messages of one question (user and assistant turns alternate, as GameBench's
        templates do: a worked example, then the question about this position)."""
        p = self.prefix(observation)
        turns: list[str]
        if template == "actions":
            ask = "List, as well as you can, the actions you have here, one a line, between <actions> and </actions>:"
            turns = [
                EXAMPLE + ask,
                "<actions>\n0. Open the left door\n1. Open the middle door\n2. Open the right door\n</actions>",
                p + ask,
            ]
        elif template == "select":
            turns = [
                p + "These are your actions here, between <actions> and </actions>:",
                f"<actions>\n{kw['actions']}\n</actions>",
                "Choose one: write its number and nothing else.",
            ]
        elif template == "eval":
            turns = [p + "Your action:", kw["action"], "Is it a good action? yes/no."]
        elif template == "others":
            ask = "Say, as well as you can, what the other players will do, between <others> and </others>:"
            turns = [
                EXAMPLE + ask,
                "<others>The host opens one of the two doors I did not choose.</others>",
                p + ask,
            ]
        elif template == "state":
            ask = "Describe, as well as you can, what you will see after these actions, between <state> and </state>:"
            turns = [
                EXAMPLE + "Your action:",
                "I open the left door.",
                "The other players' actions:",
                "The host opens the middle door.",
                ask,
                "<state>\nThe middle door is open and hides nothing; the left and right doors are closed.\n</state>",
                p + "Your action:",
                kw["action"],
                "The other players' actions:",
                kw["others"],
                ask,
            ]
        elif template == "openended":
            ask = "This action is open-ended: write what you will do."
            turns = [
                EXAMPLE + "Your action:",
                "Ask the host a question.",
                ask,
                "I ask the host which door hides the prize.",
                p + "Your action:",
                kw["action"],
                ask,
            ]
        else:
            assert template == "goal"
            turns = [p + "Will you win from here in the end? yes/no"]
        roles = ("user", "assistant")
        return [ChatMessage(role=roles[i % 2], content=t) for i, t in enumerate(turns)]

    async def complete(self, stage: str, messages: list[ChatMessage]) -> str:
        """A text answer (GameBench's `completions`, with its rule look-up: an answer that
        opens with `rule(<topic>)` for a topic of the rules gets that topic's text and the
        question again, at most once per topic)."""
        agent = self.agent
        asked: set[str] = set()
        while True:
            text = await self._call(stage, messages, agent.options.max_tokens)
            m = re.match(r"rule\((\w+)\)", text)
            if m is None or m.group(1) not in self.topics or m.group(1) in asked:
                return text
            asked.add(m.group(1))
            messages = [
                *messages,
                ChatMessage(role="assistant", content=text),
                ChatMessage(role="user", content=self.book.text(m.group(1))),
            ]

    async def probabilities(
        self, stage: str, messages: list[ChatMessage], tokens: Sequence[str]
    ) -> dict[str, float]:
        """The chance of each token as the answer's first word (1 for the one it names)."""
        text = await self._call(stage, messages, PROBABILITY_TOKENS)
        words = re.findall(r"[0-9A-Za-z]+", text)
        first = words[0].casefold() if words else ""
        return {t: 1.0 if t.casefold() == first else 0.0 for t in tokens}

    async def _call(self, stage: str, messages: list[ChatMessage], max_tokens: int) -> str:
        agent = self.agent
        o = agent.options
        from agents.llm.transport import Request

        request = Request(
            model=o.model,
            messages=tuple(messages),
            temperature=o.temperature,
            max_tokens=min(max_tokens, o.max_tokens),
            reasoning_effort=None if max_tokens == PROBABILITY_TOKENS else o.reasoning_effort,
        )
        sent = await agent._send(self.kind, stage, request)
        if sent is None:
            raise SearchFailed(agent.refusal or "model unavailable: every attempt failed")
        reply, attempt = sent
        agent.record(agent._event(self.kind, stage, attempt, request, reply))
        return str(reply.text)

    async def cached(self, key: tuple[Any, ...], make: Any) -> Any:
        if key not in self.cache:
            self.cache[key] = await make()
        return self.cache[key]

    # ---- GameBench's world model and search config ------------------------------------

    async def actions(self, state: State) -> tuple[str, ...]:
        """The actions in a state: the root's keys (none when the decision offers none), else
        the model's prediction (raises when the answer holds no <actions> block)."""
        if state.actions is not None:
            return state.actions

        async def make() -> tuple[str, ...]:
            text = await self.complete("rap_actions", self.context("actions", state.observation))
            found = re.findall(r"<actions>(.*)</actions>", text, re.S)
            if not found:
                raise SearchFailed("no <actions> in the predicted actions")
            return tuple(found[0].strip().split("\n"))

        result: tuple[str, ...] = await self.cached(("actions", state), make)
        return result

    async def world_actions(self, state: State) -> tuple[str, ...]:
        """GameBench's `get_actions` of the world model: a failed prediction becomes one
        action, 'do a random action'."""
        try:
            return await self.actions(state)
        except SearchFailed:
            return ("do a random action",)

    async def others(self, state: State) -> str:
        async def make() -> str:
            text = await self.complete("rap_others", self.context("others", state.observation))
            found = re.findall(r"<others>(.*)</others>", text, re.S)
            if not found:
                raise SearchFailed("no <others> in the predicted actions of the others")
            return str(found[0])

        result: str = await self.cached(("others", state), make)
        return result

    async def step(self, state: State, action: str) -> tuple[State, float]:
        """The next state after `action` and the chance of winning from it."""
        try:
            others = await self.others(state)
        except SearchFailed:
            others = "nothing is known of the other players' actions"

        async def make() -> State:
            ctx = self.context("state", state.observation, action=action, others=others)
            text = await self.complete("rap_state", ctx)
            found = re.findall(r"<state>(.*)</state>", text, re.S)
            if not found:
                raise SearchFailed("no <state> in the predicted state")
            return State(found[0], state.depth + 1)

        try:
            nxt: State = await self.cached(("state", state, action, others), make)
        except SearchFailed:
            nxt = State("nothing is known of the state now", state.depth + 1)

        async def win() -> float:
            ps = await self.probabilities(
                "rap_goal", self.context("goal", nxt.observation), ["yes", "no"]
            )
            return ps["yes"]

        chance: float = await self.cached(("goal", nxt), win)
        return nxt, chance

    async def fast_reward(self, state: State, action: str) -> tuple[float, dict[str, float]]:
        actions = await self.actions(state)  # GameBench's unguarded call: may fail the search

        async def pick() -> dict[str, float]:
            listed = "\n".join(f"{i}. {a}" for i, a in enumerate(actions))
            ctx = self.context("select", state.observation, actions=listed)
            return await self.probabilities(
                "rap_select", ctx, [str(i) for i in range(len(actions))]
            )

        picks: dict[str, float] = await self.cached(("select", state, actions), pick)
        intuition = picks[str(actions.index(action))]

        async def judge() -> float:
            ctx = self.context("eval", state.observation, action=action)
            return (await self.probabilities("rap_eval", ctx, ["yes", "no"]))["yes"]

        good: float = await self.cached(("eval", state, action), judge)
        return intuition + good + (2 * 0.5 - 1), {"intuition": intuition, "self_eval": good}

    # ---- the search (GameBench's MCTS with its defaults) --------------------------------

    async def expand(self, node: Node) -> None:
        if node.state is None:
            assert node.parent is not None and node.parent.state is not None
            assert node.action is not None
            node.state, win = await self.step(node.parent.state, node.action)
            d = node.details
            node.reward = d["intuition"] + d["self_eval"] + (2 * win - 1)
            node.terminal = node.state.depth >= DEPTH
        if node.terminal:
            return
        children = []
        for action in await self.world_actions(node.state):
            reward, details = await self.fast_reward(node.state, action)
            children.append(Node(None, action, node, fast_reward=reward, details=details))
        node.children = children

    def uct(self, node: Node) -> float:
        assert node.parent is not None
        visits = len(node.parent.cum_rewards)
        bonus = math.sqrt(math.log(visits) / max(1, len(node.cum_rewards))) if visits else math.nan
        return node.q + EXPLORATION * bonus

    def _limit(self, node: Node) -> bool:
        return node.terminal or node.depth >= DEPTH

    async def iterate(self, root: Node) -> None:
        path = [root]
        node = root
        while node.children and not self._limit(node):
            node = max(node.children, key=self.uct)
            path.append(node)
        if not self._limit(path[-1]):
            await self.expand(path[-1])
            node = path[-1]
            while True:
                if node.state is None:
                    await self.expand(node)
                if self._limit(node) or not node.children:
                    break
                fast = [c.fast_reward for c in node.children]
                node = node.children[fast.index(max(fast))]
                path.append(node)
        rewards: list[float] = []
        for n in reversed(path):
            rewards.append(n.reward)
            n.cum_rewards.append(sum(rewards))

    def best(self, path: list[Node]) -> tuple[float, list[Node]]:
        cur = path[-1]
        if cur.terminal:
            return sum(n.reward for n in path[1:]), path
        visited = [c for c in cur.children or [] if c.state is not None]
        if not visited:
            return -math.inf, path
        return max((self.best([*path, c]) for c in visited), key=lambda x: x[0])


async def decide(
    agent: Any, decision: Any, menu: gp.Menu, book: RuleBook, keys: dict[str, str]
) -> Any:
    """The action GameBench's RAP agent plays at `decision`."""
    planner = Planner(agent, decision, book, keys)
    root_obs = menu.observation + "\n" + menu.instructions
    labels: list[str] = []
    plays: dict[str, Any] = {}
    try:
        for c in menu.predefined:
            labels.append(c.key)
            plays[c.key] = c.action
        for c in menu.openended:
            ctx = planner.context("openended", root_obs, action=f"{c.key}: {c.description}")
            response = await planner.complete("rap_openended", ctx)
            label = f"{c.key}: {response}"
            assert menu.read is not None
            labels.append(label)
            plays[label] = menu.read(c.key, response)
        root = Node(State(root_obs, 0, tuple(labels)), None)
        for _ in range(ITERATIONS):
            await planner.iterate(root)
        reward, path = planner.best([root])
    except SearchFailed as exc:
        return agent._default(decision, f"the planner failed: {exc}")
    if reward == -math.inf or len(path) < 2:
        return agent._default(decision, "the planner found no path to its depth")
    chosen = path[1].action
    assert chosen is not None
    played = plays[chosen]
    if isinstance(played, tuple):  # an open-ended key's (action, error)
        action, error = played
        if action is None:
            return agent._default(decision, f"unreadable open-ended response ({error})")
        return action
    return played
