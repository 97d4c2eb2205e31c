"""GameBench's model protocol (`style=gamebench`): one decision's conversation.

Read from GameBench's `agents/gpt.py` at f5ffba2 (`OpenAITextAgent.take_action`) and, for
RAP, `agents/rap/` at the same commit (docs/gamebench.md, GameBench's model protocol):

* `mode=prompt`: the system message and one user message; up to three answers
  (`projections.gamebench.protocol.TRIES`), each appended to the conversation with what it
  drew (nothing after an unreadable answer, an error, or the text an `Explain` asked for),
  then the decision's default.
* `mode=cot`: the same, after a first call that only reasons (stage `reason`); its answer
  stays in the conversation and the closing summary follows as a new user message.
* `mode=rap`: a depth-2 Monte Carlo tree search over the model's own predictions
  (agents.gamebench.rap).

Where GameBench asks one choice of the game here in two calls (Are You the Traitor?'s
question and stop poll, from edition 4 of the prompts), the decision makes both, each a
conversation of its own as above, the second's menu built from the first's answer (a `Step`).

Every call is an `llm_call` event, so a replay re-renders the same conversation from the
view and the recorded answers. An `Explain` lives only in the decision's conversation: the
rules never hear of it.
"""

from __future__ import annotations

from typing import Any

from events.agent import ChatMessage
from projections.gamebench import protocol as gp

SECOND = "2"
"""What ends the stages of a decision's second call (`reason2`, `ask2`, `retry2`), where
GameBench asks a decision in two calls (Are You the Traitor?'s question and stop poll)."""

STAGES = ("reason", "ask", "retry", "reason2", "ask2", "retry2")
"""Stages of the style's calls: chain of thought's reasoning, the first answer, the later
answers, and the same of a second call (RAP's calls are named in agents.gamebench.rap)."""


def game_name(agent: Any) -> str:
    """The catalogue name of the seat's game."""
    from events import catalog

    return catalog.for_config(agent.config).name


async def decide(agent: Any, view: Any, decision: Any) -> Any:
    """The action a seat in the GameBench style plays at `decision` (the agent's `_decide`
    in this style): one call, or two where GameBench asks the decision in two (a key of the
    first call's menu that plays a `Step` leads to the second call's menu)."""
    spent = agent.over_budget()
    agent._decisions += 1
    if spent is not None:
        return agent._default(decision, spent)
    prompter = agent.prompter
    menu = gp.menu(prompter, view, decision, agent.seat)
    book = gp.rule_book(prompter, view)
    keys = gp.headings(game_name(agent), book)
    suffix = ""
    while True:
        if agent.options.mode == "rap":
            from agents.gamebench import rap

            played = await rap.decide(agent, decision, menu, book, keys)
        else:
            played = await _converse(agent, decision, menu, book, keys, suffix)
        if not isinstance(played, gp.Step):
            return played
        assert menu.then is not None and not suffix
        menu = menu.then(played.value)
        suffix = SECOND


async def _converse(
    agent: Any, decision: Any, menu: gp.Menu, book: Any, keys: dict[str, str], suffix: str
) -> Any:
    """One call of GameBench's agent (`take_action`): its conversation, its three tries, and
    the decision's default when they bring no action. `suffix` marks the stages of a
    decision's second call."""
    kind = decision.kind
    system = ChatMessage(role="system", content=gp.SYSTEM)
    first = gp.first_message(book.title, book.summary, keys, menu)
    messages: list[ChatMessage] = [system]
    if agent.options.mode == "cot":
        messages.append(ChatMessage(role="user", content=first + gp.REASON))
        request = agent._request(tuple(messages))
        sent = await agent._send(kind, "reason" + suffix, request)
        if sent is None:
            return agent._default(
                decision, agent.refusal or "model unavailable: every attempt failed"
            )
        reply, attempt = sent
        agent.record(agent._event(kind, "reason" + suffix, attempt, request, reply))
        messages.append(ChatMessage(role="assistant", content=reply.text))
        messages.append(ChatMessage(role="user", content=gp.closing(menu)))
    else:
        messages.append(ChatMessage(role="user", content=first + gp.closing(menu)))
    last_error = "no answer"
    for t in range(gp.TRIES):
        stage = ("ask" if t == 0 else "retry") + suffix
        request = agent._request(tuple(messages))
        sent = await agent._send(kind, stage, request)
        if sent is None:
            return agent._default(
                decision, agent.refusal or "model unavailable: every attempt failed"
            )
        reply, attempt = sent
        reading = gp.read(reply.text, menu, keys, book)
        parse_stage = reading.stage
        if reading.kind == "invalid" and reply.truncated:
            parse_stage = "truncated"
        agent.record(agent._event(kind, stage, attempt, request, reply, parse_stage, reading.error))
        messages.append(ChatMessage(role="assistant", content=reply.text))
        if reading.kind == "action":
            return reading.action
        if reading.kind == "unread":
            return agent._default(decision, f"unreadable open-ended response ({reading.error})")
        if reading.error is not None:
            last_error = reading.error
        if reading.reply is not None:
            messages.append(ChatMessage(role="user", content=reading.reply))
    agent._format_errors += 1
    return agent._default(decision, f"no valid action in {gp.TRIES} answers ({last_error})")


def check(agent: Any) -> None:
    """Refuse what the style cannot play: a game outside GameBench's, or self-consistency
    (GameBench has no such mode) or structured output (its answers are free JSON text)."""
    from agents.llm.spec import SpecError

    name = game_name(agent)
    if not name.startswith("gamebench:"):
        raise SpecError(f"style=gamebench plays GameBench's games only, not {name}")
    o = agent.options
    if o.mode not in ("prompt", "cot", "rap") or o.samples > 1:
        raise SpecError("style=gamebench takes mode=prompt, cot or rap (one sample)")
    if o.output != "text":
        raise SpecError("style=gamebench answers in JSON text: output=text only")
