"""A readable timeline of any game: every event as one line of text, for everyone or one seat.

Each game words its own events (its definition's `describe`); the events agents record (notes,
model exchanges, defaulted actions) read the same in every game and are worded here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from events import agent as ae
from events import catalog
from events.base import visible


def seat_name(seat: int, viewer: int | None = None) -> str:
    """A seat as the timeline names it ("Player 2", or "Player 2 (you)" for the viewer)."""
    return f"Player {seat} (you)" if viewer is not None and seat == viewer else f"Player {seat}"


def _p(seat: int | None, viewer: int | None = None) -> str:
    return "nobody" if seat is None else seat_name(seat, viewer)


def describe_agent_event(
    e: Any, viewer: int | None = None, outcome: str | None = None, reason: str | None = None
) -> str | None:
    """One line for an event an agent recorded (the same in every game), else None;
    `outcome` and `reason`: a model decision's class once the game's verdicts are counted and
    the game's reason, when it is not the class the agent recorded (events.agent.judged)."""

    def p(seat: int | None) -> str:
        return _p(seat, viewer)

    match e:
        case ae.ScratchpadUpdated():
            return f"{p(e.seat)} updates notes: {e.notes[:100]}"
        case ae.AgentNote():
            return f"{p(e.seat)} note: {e.note[:100]}"
        case ae.LLMCall():
            what = e.error or f"{e.finish_reason}, parsed: {e.parse_stage}"
            return (
                f"  [{e.provider}:{e.model}] {p(e.seat)} {e.decision}/{e.stage} "
                f"attempt {e.attempt}: {what} ({e.input_tokens}+{e.output_tokens} tokens, "
                f"{e.latency_ms:.0f} ms)"
            )
        case ae.ActionDefaulted():
            return f"! {p(e.seat)}'s {e.decision} defaulted to {e.action} ({e.reason})"
        case ae.ModelDecision():
            played = f", played {e.fallback}" if e.fallback is not None else ""
            shown = e.outcome
            if outcome is not None and outcome != e.outcome:
                said = " ".join((reason or "").split())[:160]  # one line, however long
                why = "the game refused the move" if outcome == "illegal" else "the game's verdict"
                why = f"{why}: {said}" if said and outcome == "illegal" else said or why
                shown = f"{outcome} ({why}; read as {e.outcome})"
            return f"  {p(e.seat)}'s {e.decision}: {shown} ({e.calls} call(s){played})"
        case ae.HumanAnswer():
            what = "played" if e.error is None else f"refused: {e.error}"
            return f"  [human] {p(e.seat)} {e.decision}/{e.stage}: {e.text!r} {what} ({e.elapsed_ms:.0f} ms)"
        case ae.SeatAbandoned():
            return f"! {p(e.seat)} left the game ({e.reason}); its default plays from here"
    return None


def fallback(e: Any) -> str:
    """The plain line of an event no game describes: its tag."""
    tag = getattr(type(e), "__struct_config__", None)
    return f"{tag.tag if tag else type(e).__name__}"


def timeline(events: Sequence[Any], seat: int | None = None) -> list[tuple[int, Any, str]]:
    """(seq, event, text) for every event `seat` may see (all events when seat is None),
    each worded by its game's own `describe` (agent events and unknown ones in plain words);
    seq counts the seat's own events where the game numbers them so (`seat_numbered`)."""
    if not events:
        return []
    game = catalog.get(getattr(events[0], "game", None))
    lens = seat_lens(game, seat)
    own = seat_numbered(game, seat)
    out: list[tuple[int, Any, str]] = []
    # Model decisions are engine-only: only the whole timeline shows them, with their class.
    classes = {id(d): (c, r) for d, c, r in ae.judged(events)} if seat is None else {}
    for i, e in enumerate(events):
        if visible(e, seat):
            if isinstance(e, ae.ModelDecision):  # worded alike in every game, with its class
                line = describe_agent_event(e, seat, *classes.get(id(e), (None, None)))
            else:
                line = lens.line(e) if lens is not None else game.describe(e, seat)
            text = line or describe_agent_event(e, seat) or fallback(e)
            out.append((len(out) if own else i, e, text))
    return out


def seat_lens(game: catalog.GameDef, seat: int | None, public: bool = False) -> Any:
    """A fresh reader of the log for `seat` if the game words a seat's events itself
    (`extras["seat_lens"]`, called with the seat; None for the public, what every seat
    sees), else None (the game's `describe` words them). A lens is fed every event the
    seat sees, in order, so it can remember what earlier events said (Two Rooms: the
    players' letters, since a seat must not see seat numbers); `line(e)` is the timeline
    line, `fields(e)` the fields the seat's pages show."""
    make = game.extras.get("seat_lens")
    return make(seat) if make is not None and (seat is not None or public) else None


def lineup_hidden(game: catalog.GameDef | None, omniscient: bool, finished: bool) -> bool:
    """True if a seat's (or the public's) pages may not show which agent sits in which seat:
    the game's definition says the seating tells what it hides (`extras["hidden_lineup"]`:
    Two Rooms, where the seats fix the teams and one agent fills each team) and the game is
    not over (its end reveals everything). Never for the omniscient viewer."""
    return (
        game is not None
        and not omniscient
        and not finished
        and bool(game.extras.get("hidden_lineup", False))
    )


def seat_numbered(game: catalog.GameDef, seat: int | None) -> bool:
    """True if `seat`'s pages number its events among its own (the game's definition says so
    with `extras["seat_numbering"]`): where the count of events a seat did not see is itself
    hidden, the store's `seq` and `turn` would tell it."""
    return seat is not None and bool(game.extras.get("seat_numbering", False))
