"""What a person at the terminal sees of a decision: the seat's view, drawn from the same
view the prompt is written from (never from anything else), as a rich renderable.

Cattle Trade is drawn from its seat view: the seat's money and animals, the auction or trade
in progress as the seat knows it, and each other player's public facts. GameBench's games are
drawn from the viewer's frame of what the seat has seen (`agents.human.drawn`), with the
question under the drawing (their situation text where a frame has no board), and so are
TextArena's conversations, OpenSpiel's boards and PACT's bargaining; any other game shows its
question without the lines that tell a model how to format its answer. The
whole prompt stays one key away (`?`).
"""

from __future__ import annotations

import re
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from agents.human.drawn import drawing
from projections.metrics.tables import plural

_HOW_TO_ANSWER = re.compile(
    r"^(respond|reply|answer|choose your action)\b|^action: <|^\{\"reasoning\"",
    re.IGNORECASE | re.MULTILINE,
)
"""A paragraph that tells a model how to write its answer (dropped from the end of a
question shown to a person, who answers by number or in words)."""


def question_text(prompt: str) -> str:
    """A decision's question without its closing paragraphs on the answer's format."""
    parts = prompt.rstrip().split("\n\n")
    while len(parts) > 1 and _HOW_TO_ANSWER.search(parts[-1]):
        parts.pop()
    return "\n\n".join(parts)


def question_of(prompter: Any, view: Any, prompt: str) -> str:
    """What a decision asks, for a page that draws the seat's situation beside it: the
    prompt without the observation it opens with where the prompter tells it (Cattle
    Trade's `observation`: the drawing shows it), and without the lines on the answer's
    format."""
    observation = getattr(prompter, "observation", None)
    seen = ""
    if callable(observation):
        try:
            seen = str(observation(view))
        except (AttributeError, IndexError, TypeError):  # a view of another shape
            seen = ""
    if seen and prompt.startswith(seen):
        return question_text(prompt[len(seen) :].strip("\n"))
    return question_text(prompt)


def board(
    game: str, prompter: Any, view: Any, decision: Any, prompt: str, frame: Any = None
) -> RenderableType:
    """The seat's view for a person at decision `decision` (`prompt`: the model's question;
    `frame`: the viewer's frame of what the seat has seen, drawn where its family has a
    terminal drawing, with the question under it)."""
    if game == "cattle-trade":
        try:
            return cattle(view)
        except (AttributeError, IndexError, TypeError):  # a view of another shape: its text
            pass
    situation = getattr(prompter, "situation", None)
    text = str(situation(view, decision)) if callable(situation) else question_text(prompt)
    drawn = drawing(frame)
    if drawn is not None:
        ask = asked(text) if callable(situation) else last_ask(prompt)
        return Group(drawn, Text(""), Text(ask))
    return Text(text)


def last_ask(prompt: str) -> str:
    """The question at the end of a prompt: its last paragraph that holds more than the lines
    on the answer's format, without those lines."""
    for part in reversed(prompt.rstrip().split("\n\n")):
        kept = [line for line in part.splitlines() if not _HOW_TO_ANSWER.search(line)]
        if any(line.strip() for line in kept):
            return "\n".join(kept).strip()
    return ""


def asked(text: str) -> str:
    """The question at the end of a situation text: its last paragraph, or its last line
    when it has one paragraph."""
    text = text.strip()
    if "\n\n" in text:
        return text.rsplit("\n\n", 1)[1]
    return text.splitlines()[-1] if text else ""


def _cards(cards: Any) -> str:
    return ", ".join(str(c) for c in cards) if cards else "none"


def _animals(held: dict[str, int]) -> str:
    owned = [f"{n} {a}" for a, n in sorted(held.items()) if n]
    return ", ".join(owned) if owned else "none"


def cattle(view: Any) -> RenderableType:
    """Cattle Trade from one seat's view: its hand, the deal in progress, the others."""
    seat = view.seat

    def who(p: int) -> str:
        return "you" if p == seat else f"Player {p}"

    me = Table.grid(padding=(0, 2))
    me.add_column(style="bold")
    me.add_column()
    me.add_row("You are", Text(f"Player {seat}"))
    me.add_row("Turn", Text(f"{view.turn} (animal cards left: {view.deck_left})"))
    me.add_row("Your money", Text(f"{view.wealth} coins: {_cards(view.money)}"))
    me.add_row("Your animals", Text(_animals(view.animals[seat])))
    if view.sets and view.sets[seat]:
        me.add_row("Your sets", Text(_cards(view.sets[seat])))
    deal: list[RenderableType] = []
    if view.auction is not None:
        a = view.auction
        leader = "none" if view.leader is None else who(view.leader)
        deal.append(
            Text(
                f"Auction: a {a.animal} from {who(a.auctioneer)}; price {view.price}, leading: {leader}"
            )
        )
    if view.trade is not None:
        t = view.trade
        deal.append(
            Text(
                f"Trade: {who(t.initiator)} {'challenge' if t.initiator == seat else 'challenges'}"
                f" {who(t.target)} for a {t.animal}"
                f" ({plural(t.n_cards, 'money card')} offered)"
            )
        )
        if view.my_offer:
            deal.append(Text(f"Your offer: {_cards(view.my_offer)}"))
    others = Table(title="Other players", title_justify="left", box=None, padding=(0, 2))
    others.add_column("Player")
    others.add_column("Animals")
    others.add_column("Money cards", justify="right")
    for other in range(len(view.animals)):
        if other == seat:
            continue
        count = view.money_cards[other] if other < len(view.money_cards) else "?"
        others.add_row(Text(f"Player {other}"), Text(_animals(view.animals[other])), str(count))
    return Group(me, *deal, others)
