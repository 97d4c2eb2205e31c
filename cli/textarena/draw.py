"""TextArena games drawn as the conversation a seat was shown (`projections.textarena.chat`):
the game's messages as banners (a phase opening stands out), each player's as a bubble, the
seat's own on the right. Above it, what the seat's text holds in tables: Colonel Blotto's
allocations, the prisoner's dilemma's payoffs round by round (SVG), Codenames' board as the
seat may know it (SVG). The views that are no seat's (everyone's, the public's) draw the
moves they see the same way (`projections.textarena.view.log_board`). A frame with no
conversation is shown as its text."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from markupsafe import Markup

from cli.web.draw import labelled, tag, word_cards


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
    table += _payoffs(board.get("payoffs") or [], board.get("seat"))
    if board.get("cards"):
        table += _cards(board["cards"])
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


MARGIN = 12
ROUND_W, PAIR_W, PLAYER_W, ROW_H, HEAD_H = 64, 150, 96, 34, 26
"""The prisoner's dilemma's table, in SVG units: the round column, a column per pair of
players, one per player, the height of a row and of the heading."""

_SHORT = {"cooperate": "C", "defect": "D"}
_PAST = {"cooperate": "cooperated", "defect": "defected"}


def _payoffs(rounds: list[dict[str, Any]], seat: int | None) -> list[Markup]:
    """The prisoner's dilemma as the seat was told it, round by round: for each pair of
    players both choices (C cooperate, D defect) and the points each took from that pair;
    for each player the points of the round and the total after it; the totals last."""
    if not rounds:
        return []
    pairs: list[tuple[int, int]] = []
    for r in rounds:
        for a, b, *_rest in r["pairs"]:
            if (a, b) not in pairs:
                pairs.append((a, b))
    players = sorted({p for ab in pairs for p in ab})
    x_pair = MARGIN + ROUND_W
    x_player = x_pair + len(pairs) * PAIR_W
    width = x_player + len(players) * PLAYER_W + MARGIN

    def name(p: int) -> str:
        return f"Player {p} (you)" if p == seat else f"Player {p}"

    body: list[Markup] = []
    y = MARGIN
    heads = [(MARGIN, ROUND_W, "round")]
    heads += [
        (x_pair + k * PAIR_W, PAIR_W, f"Players {a} and {b}") for k, (a, b) in enumerate(pairs)
    ]
    heads += [(x_player + k * PLAYER_W, PLAYER_W, name(p)) for k, p in enumerate(players)]
    for x, w, text in heads:
        body.append(tag("text", text, x=x + w / 2, y=y + 17, class_="ipd-head"))
    y += HEAD_H
    last: dict[int, int] = {}
    for r in rounds:
        n = r["round"]
        body.append(
            tag("rect", x=MARGIN, y=y, width=width - 2 * MARGIN, height=ROW_H, class_="ipd-row")
        )
        body.append(tag("text", str(n), x=MARGIN + ROUND_W / 2, y=y + 22, class_="ipd-round"))
        gained = {p: 0 for p in players}
        for a, b, ca, cb, pa, pb in r["pairs"]:
            gained[a] += pa
            gained[b] += pb
            x = x_pair + pairs.index((a, b)) * PAIR_W
            half = (PAIR_W - 12) / 2
            shapes: list[Markup] = []
            for k, (choice, points) in enumerate(((ca, pa), (cb, pb))):
                left = x + 4 + k * (half + 4)
                shapes.append(
                    tag(
                        "rect",
                        x=left,
                        y=y + 5,
                        width=half,
                        height=ROW_H - 10,
                        rx=4,
                        class_=f"ipd-choice ipd-{choice}",
                    )
                )
                shapes.append(
                    tag(
                        "text",
                        f"{_SHORT.get(choice, '?')} +{points}",
                        x=left + half / 2,
                        y=y + 22,
                        class_="ipd-points",
                    )
                )
            said = (
                f"round {n}, Player {a} and Player {b}: Player {a} {_PAST.get(ca, ca)} (+{pa}),"
                f" Player {b} {_PAST.get(cb, cb)} (+{pb})"
            )
            body.append(labelled("g", said, shapes, role="img", class_="ipd-pair", data_round=n))
        totals = dict((p, t) for p, t in r.get("totals") or [])
        last.update(totals)
        for k, p in enumerate(players):
            x = x_player + k * PLAYER_W
            total = totals.get(p)
            shown = f"+{gained[p]}" + (f" = {total}" if total is not None else "")
            said = f"round {n}, {name(p)}: +{gained[p]}" + (
                f", total {total}" if total is not None else ""
            )
            body.append(
                labelled(
                    "g",
                    said,
                    [tag("text", shown, x=x + PLAYER_W / 2, y=y + 22, class_="ipd-points")],
                    role="img",
                    class_="ipd-gain" + (" mine" if p == seat else ""),
                    data_round=n,
                )
            )
        y += ROW_H
    ends = ", ".join(f"{name(p)} {last[p]}" for p in players if p in last)
    if ends:
        body.append(tag("text", "totals", x=MARGIN + ROUND_W / 2, y=y + 20, class_="ipd-head"))
        for k, p in enumerate(players):
            if p in last:
                body.append(
                    labelled(
                        "g",
                        f"total, {name(p)}: {last[p]}",
                        [
                            tag(
                                "text",
                                str(last[p]),
                                x=x_player + k * PLAYER_W + PLAYER_W / 2,
                                y=y + 20,
                                class_="ipd-total",
                            )
                        ],
                        role="img",
                        class_="ipd-sum",
                    )
                )
        y += HEAD_H + 4
    height = y + MARGIN
    whose = "as you were told it" if seat is not None else "as told"
    label = f"Prisoner's dilemma {whose}: {len(rounds)} rounds revealed" + (
        f"; totals {ends}" if ends else ""
    )
    svg = tag(
        "svg",
        [tag("title", label), *body],
        class_="drawing-svg ipd-table",
        viewBox=f"0 0 {width:g} {height:g}",
        width=f"{width:g}",
        height=f"{height:g}",
        role="group",
        aria_label=label,
        xmlns="http://www.w3.org/2000/svg",
    )
    return [svg]


def _cards(cards: dict[str, Any]) -> list[Markup]:
    """Codenames' board as the seat's text lists it: a spymaster's whole key, an operative's
    revealed cards only; the seat's role and the last clue under it."""
    words: list[str] = cards["words"]
    shown: list[str | None] = cards["shown"]
    body, width, height = word_cards(words, cards.get("key"), shown, MARGIN)
    found = sum(1 for c in shown if c)
    who = f" as the {cards['team']} {cards['role']} sees it" if cards.get("role") else ""
    label = f"Codenames board{who}: {len(words)} cards, {found} revealed"
    svg = tag(
        "svg",
        [tag("title", label), *body],
        class_="drawing-svg codenames-board",
        viewBox=f"0 0 {width:g} {height:g}",
        width=f"{width:g}",
        height=f"{height:g}",
        role="group",
        aria_label=label,
        xmlns="http://www.w3.org/2000/svg",
    )
    out = [svg]
    if cards.get("clue"):
        team, word, number = cards["clue"]
        out.append(tag("p", f"Last clue ({team}): {word} {number}", class_="drawing-caption"))
    return out
