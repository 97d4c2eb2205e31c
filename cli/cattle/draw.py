"""Cattle Trade drawn for a person at a seat in the browser (`extras["seat_drawing"]`): the
seat's own hand (its money cards with their values, its animals and sets), the auction or
trade in progress as the seat knows it, and each other player's public facts, from the
viewer's frame of what the seat has seen (`projections.cattle.frames`). The terminal seat
shows the same facts (`agents.human.board.cattle`). The viewer's game page keeps its own
table, drawn by its script from the same frames."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from markupsafe import Markup

from cli.web.draw import tag
from projections.metrics.tables import plural


def _coins(cards: list[int] | None) -> str:
    return ", ".join(str(c) for c in cards) if cards else "none"


def _animals(held: Mapping[str, int], values: Mapping[str, int]) -> str:
    owned = [
        f"{n} {a}" + (f" (set {values[a]})" if a in values else "")
        for a, n in sorted(held.items())
        if n
    ]
    return ", ".join(owned) or "none"


def draw(frame: dict[str, Any], meta: Mapping[str, Any]) -> Markup | None:
    """The seat's table, or None for a frame that is not one seat's (the omniscient or the
    public view hold no seat's money)."""
    if frame.get("kind") != "cattle":
        return None
    seats = frame.get("seats") or []
    mine = [s for s in seats if s.get("money") is not None]
    if len(mine) != 1:
        return None
    me = mine[0]
    seat = int(me["seat"])
    values = meta.get("values") or {}

    def who(p: int | None) -> str:
        return "nobody" if p is None else ("you" if p == seat else f"Player {p}")

    money = list(me["money"])
    parts: list[Markup] = [
        tag(
            "figcaption",
            f"Turn {frame.get('turn')}; animal cards left: {frame.get('deck_left')};"
            f" to play: {who(frame.get('active'))}",
            class_="drawing-caption",
        )
    ]
    cards = [tag("span", str(c), class_="money-card", aria_label=f"money card {c}") for c in money]
    hand = f"Your money: {sum(money)} coins in {len(money)} cards ({_coins(money)})"
    parts.append(
        tag(
            "section",
            [tag("h3", "Your money"), tag("p", cards or ["none"], class_="cards")],
            class_="cattle-money",
            aria_label=hand,
        )
    )
    animals = _animals(me.get("animals") or {}, values)
    beasts = [
        tag(
            "span",
            f"{n} {a}",
            class_="animal-card",
            aria_label=f"{n} {a}" + (f", set value {values[a]}" if a in values else ""),
        )
        for a, n in sorted((me.get("animals") or {}).items())
        if n
    ]
    parts.append(
        tag(
            "section",
            [
                tag("h3", "Your animals"),
                tag("p", beasts or ["none"], class_="cards"),
                *([tag("p", "Sets: " + ", ".join(me["sets"]))] if me.get("sets") else []),
            ],
            class_="cattle-animals",
            aria_label=f"Your animals: {animals}",
        )
    )
    deal = _deal(frame, who, values)
    if deal:
        parts.append(tag("p", deal, class_="cattle-deal", aria_label=deal))
    rows = [tag("tr", [tag("th", h) for h in ("player", "animals", "money cards")])]
    for s in seats:
        if s["seat"] == seat:
            continue
        shown = f"{s['cards']}" + (
            f" (shown: {_coins(s['revealed'])})" if s.get("revealed") else ""
        )
        held = _animals(s.get("animals") or {}, values)
        rows.append(
            tag(
                "tr",
                [tag("td", f"Player {s['seat']}"), tag("td", held), tag("td", shown, class_="num")],
                aria_label=f"Player {s['seat']}: {held}; {shown} money cards",
                data_seat=s["seat"],
            )
        )
    parts.append(tag("table", rows, class_="cattle-others", aria_label="The other players"))
    if frame.get("scores"):
        parts.append(
            tag("p", "Scores: " + ", ".join(f"{who(i)} {v}" for i, v in enumerate(frame["scores"])))
        )
    label = f"Cattle Trade as Player {seat} sees it: {hand}; your animals: {animals}"
    return tag(
        "figure",
        parts,
        class_="drawing drawing-cattle",
        data_family="cattle",
        aria_label=label,
    )


def _deal(frame: dict[str, Any], who: Any, values: Mapping[str, int]) -> str:
    """The auction or the trade in progress, as the seat knows it ("" for none)."""
    a, t = frame.get("auction"), frame.get("trade")
    if a is not None:
        worth = f" (set value {values[a['animal']]})" if a["animal"] in values else ""
        return (
            f"Auction: a {a['animal']}{worth} from {who(a['auctioneer'])}; price {a['price']},"
            f" leading: {who(a['leader'])}"
        )
    if t is not None:
        mine = t.get("offer_money") if t.get("offer_money") is not None else t.get("counter_money")
        said = (
            f"Trade: {who(t['initiator'])}"
            f" {'challenge' if who(t['initiator']) == 'you' else 'challenges'} {who(t['target'])}"
            f" for a {t['animal']}; {plural(t['offer'], 'money card')} offered"
        )
        if t.get("counter"):
            said += f", {t['counter']} put against them"
        if mine:
            said += f"; your cards in it: {_coins(mine)}"
        return said
    if frame.get("drawn"):
        return f"Drawn: a {frame['drawn']}"
    return ""
