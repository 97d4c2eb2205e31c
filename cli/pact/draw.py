"""PACT's table drawn as the bargaining it was: the two parties (role, value or cost when
the view holds it, profit so far), then round by round what each said and the sealed quotes
shown together, an accepted deal (bid at or above ask: a trade at the midpoint) or a
declined one (no trade). The frame gives how much of the game's growing lists (messages,
quotes) it shows; the lists come with the frames (`meta["logs"]`), or, on a person's seat
page, in the seat's frame itself (`agents.human.agent.seat_frame`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from markupsafe import Markup

from cli.web.draw import chat_log, tag


def _name(seat: int, roles: Mapping[int, str]) -> str:
    return f"{roles.get(seat, 'seat')} (seat {seat})"


def draw(frame: dict[str, Any], meta: Mapping[str, Any]) -> Markup | None:
    """The bargaining of a PACT frame, or None for a frame of another kind."""
    if frame.get("kind") != "pact":
        return None
    # A person's seat page has its lists and its seat in the frame (`seat_frame`).
    logs = meta.get("logs") or frame.get("logs") or {}
    messages = list(logs.get("messages") or [])[: int(frame.get("messages") or 0)]
    ladder = list(logs.get("ladder") or [])[: int(frame.get("ladder") or 0)]
    if len(messages) < int(frame.get("messages") or 0) or len(ladder) < int(
        frame.get("ladder") or 0
    ):
        return None  # a frame without its lists: its text is shown
    viewer = meta["viewer"] if "viewer" in meta else frame.get("viewer")
    seats = frame.get("seats") or []
    roles = {int(s["seat"]): str(s["role"]) for s in seats}
    parties = []
    for s in seats:
        what = "value" if s["role"] == "buyer" else "cost"
        known = s.get("value") is not None
        said = f"{_name(s['seat'], roles)}: {what} " + (str(s["value"]) if known else "hidden")
        if known:
            said += f", profit so far {s['profit']:g}"
        if frame.get("scores"):
            said += f", score {frame['scores'][s['seat']]:g}"
        you = viewer == s["seat"]
        parties.append(
            tag(
                "div",
                [
                    tag("h3", _name(s["seat"], roles) + (" (you)" if you else "")),
                    tag("p", f"{what} " + (str(s["value"]) if known else "hidden"), class_="value"),
                    *(
                        [tag("p", f"profit so far {s['profit']:g}", class_="profit")]
                        if known
                        else []
                    ),
                ],
                class_="seat party seat-" + str(s["seat"]) + (" is-me" if you else ""),
                aria_label=said,
                data_seat=s["seat"],
            )
        )
    talk: list[dict[str, Any]] = []
    rows = [tag("tr", [tag("th", h) for h in ("round", "bid", "ask", "outcome")])]
    last_round = 0
    quotes = {int(q[0]): q for q in ladder}
    rounds = sorted({int(m[0]) for m in messages} | set(quotes))
    for r in rounds:
        talk.append({"who": "GAME", "text": f"Round {r}", "phase": True})
        for m in messages:
            if int(m[0]) == r:
                text = str(m[2]) + (" [cut]" if m[3] else "")
                talk.append({"who": _name(int(m[1]), roles), "text": text})
        q = quotes.get(r)
        if q is not None:
            _, bid, ask, traded, price = q
            if traded:
                outcome = f"accepted: trade at {price:g}"
            else:
                outcome = "declined: no trade"
            line = f"Sealed quotes: bid {bid}, ask {ask}; {outcome}"
            talk.append({"who": "GAME", "text": line})
            rows.append(
                tag(
                    "tr",
                    [
                        tag("td", str(r), class_="num"),
                        tag("td", str(bid), class_="num"),
                        tag("td", str(ask), class_="num"),
                        tag("td", outcome),
                    ],
                    class_="traded" if traded else "",
                    aria_label=f"round {r}: bid {bid}, ask {ask}, {outcome}",
                    data_round=r,
                )
            )
        last_round = r
    me = _name(viewer, roles) if isinstance(viewer, int) else None
    status = f"Round {frame.get('round', last_round)}" + (" (over)" if frame.get("ended") else "")
    deals = sum(1 for q in ladder if q[3])
    label = f"PACT bargaining, {status}: {len(messages)} messages, {deals} deals in {len(ladder)} rounds"
    return tag(
        "figure",
        [
            tag("figcaption", label, class_="drawing-caption"),
            tag("div", parties, class_="pact-parties"),
            tag(
                "div",
                [chat_log(talk, me, label="The bargaining, round by round")],
                class_="chat",
            ),
            tag("table", rows, class_="quotes", aria_label="Sealed quotes, round by round"),
        ],
        class_="drawing drawing-pact",
        data_family="pact",
        aria_label=label,
    )
