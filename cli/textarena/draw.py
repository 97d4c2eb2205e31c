"""TextArena games drawn as the conversation a seat was shown (`projections.textarena.chat`):
the game's messages as banners (a phase opening stands out), each player's as a bubble, the
seat's own on the right. The views that are no seat's (everyone's, the public's) draw the
moves they see the same way (`projections.textarena.view.log_board`). A frame with no
conversation is shown as its text."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from markupsafe import Markup

from cli.web.draw import tag


def draw(frame: dict[str, Any], meta: Mapping[str, Any]) -> Markup | None:
    """The conversation of a TextArena frame, or None when the frame holds none."""
    board = frame.get("board")
    if not isinstance(board, dict) or board.get("game") != "chat":
        return None
    # A seat's conversation has its own words on the right; everyone's (or the public's)
    # has no seat of its own.
    me = f"Player {board['seat']}" if board.get("seat") is not None else None
    items: list[Markup] = []
    if board.get("earlier"):
        items.append(
            tag("li", f"{board['earlier']} earlier messages (in the text below)", class_="msg more")
        )
    for m in board["messages"]:
        who, said = str(m["who"]), str(m["text"])
        if who == "GAME":
            cls = "msg from-game" + (" phase" if m.get("phase") else "")
            name = "game"
        else:
            cls = "msg from-player" + (" mine" if me is not None and who == me else "")
            name = "you" if me is not None and who == me else (who or "text")
        items.append(
            tag(
                "li",
                [tag("span", name, class_="who"), tag("span", said, class_="said")],
                class_=cls,
                aria_label=f"{name}: {said}",
                data_who=who,
            )
        )
    role = f", role {board['role']}" if board.get("role") else ""
    count = len(board["messages"]) + int(board.get("earlier") or 0)
    if me is None:
        label = f"Every move seen in this view, with the game's lines: {count} messages"
    else:
        label = f"Conversation as {me} was shown it{role}: {count} messages"
    text = str(frame.get("text", ""))
    table = _allocations(board.get("allocations") or [])
    return tag(
        "figure",
        [
            tag("figcaption", label, class_="drawing-caption"),
            *table,
            tag("ol", items, class_="chat-log", aria_label=label),
            tag(
                "details",
                [tag("summary", "As the seat's prompt shows it"), tag("pre", text)],
                class_="drawing-text",
            ),
        ],
        class_="drawing drawing-textarena",
        data_family="textarena",
        aria_label=label,
    )


def _allocations(rounds: list[dict[str, Any]]) -> list[Markup]:
    """Colonel Blotto's rounds as a table: a row per commander and round, a column per
    field, the outcome beside it."""
    if not rounds:
        return []
    fields = sorted({f for r in rounds for _name, units in r["armies"] for f in units})
    head = tag("tr", [tag("th", h) for h in ["round", "commander", *fields, "outcome"]])
    rows = [head]
    for r in rounds:
        for k, (name, units) in enumerate(r["armies"]):
            cells = [tag("td", str(r["round"]) if k == 0 else "", class_="num")]
            cells.append(tag("td", name))
            cells += [tag("td", str(units.get(f, "")), class_="num") for f in fields]
            cells.append(tag("td", r["result"] if k == 0 else ""))
            said = ", ".join(f"{f} {units.get(f, 0)}" for f in fields)
            rows.append(
                tag(
                    "tr",
                    cells,
                    class_="blotto-row",
                    aria_label=f"round {r['round']}, {name}: {said}",
                    data_round=r["round"],
                )
            )
    return [tag("table", rows, class_="blotto", aria_label="Allocations, round by round")]
