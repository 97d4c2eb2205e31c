"""The outcome class of one model decision, from the calls it made (every game).

A pure function of the decision's recorded `LLMCall` events and its `ActionDefaulted`, if
any, so that the agent, a replay and `cattle reparse` classify alike. The classes are listed
in `events.agent.OUTCOMES`; docs/llm.md says what each means.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from agents.llm.transport import TRUNCATED
from events.agent import ActionDefaulted, LLMCall

REFUSED = ("content_filter", "refusal")
"""Finish reasons that mean the provider refused to answer (OpenAI's content filter and
refusal, Anthropic's ``refusal`` stop reason)."""
LENIENT = ("last_object", "key_value", "lenient", "number", "text", "last_line")
"""Parse stages that read an answer only by being lenient with the form the prompt asked for:
the last JSON object in prose, key-value pairs, a legal move named somewhere in a sentence,
the last number written (PACT's quote), the plain text of an answer that held no JSON
(PACT's message), the last line of an answer without its `Action:` line. The views'
`repaired` counts (events/views_llm.sql) name the same stages."""
RETRIES = ("format_retry", "truncation_retry")
"""Stages of calls that repeat a question after an unusable answer."""
BUDGET = "budget spent"
"""How the reason of a default played because a budget was spent begins."""


def _never(text: str, error: str) -> bool:
    return False


def classify(
    calls: Sequence[LLMCall],
    defaulted: ActionDefaulted | None,
    illegal: Callable[[str, str], bool] = _never,
) -> str:
    """The outcome class of a decision that made `calls` and played `defaulted` (None: the
    model's move was played). `illegal(answer, parse error)` tells an answer naming a move
    the decision does not allow from one that names no move at all."""
    if defaulted is None:
        read = [c for c in calls if c.error is None and c.parse_error is None]
        read = [c for c in read if c.parse_stage not in (None, "truncated", "failed")]
        if not read:
            return "ok"  # a decision the rules answered without the model (none today)
        troubled = any(
            c.stage in RETRIES or c.parse_stage == "truncated" or c.parse_error is not None
            for c in calls
        )
        if troubled or any(c.parse_stage in LENIENT for c in read):
            return "repaired"
        return "ok"
    if defaulted.reason.startswith(BUDGET):
        return "budget"
    answered = [c for c in calls if c.error is None]
    if not answered:
        last = calls[-1].error if calls else None
        return "timeout" if last == "timeout" else "error"
    first = answered[0]
    if first.finish_reason in REFUSED:
        return "refused"
    if first.parse_stage == "truncated" or first.finish_reason in TRUNCATED:
        return "truncated"
    if first.parse_error is not None and illegal(first.response, first.parse_error):
        return "illegal"
    return "unparsable"
