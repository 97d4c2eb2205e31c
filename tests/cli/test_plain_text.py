"""Stored and user text prints exactly as written in every table and timeline of the CLI.

Each builder the commands print with is fed arbitrary strings (and known troublemakers) in
the places where stored data goes, rendered on a wide console, and the output must hold the
string verbatim (control characters written out as escapes) without a markup error.
"""

from __future__ import annotations

import io
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console

from cli import llm as cli_llm
from cli import main as cli_main
from cli import tournament as cli_tournament
from cli.cattle import hooks as cli_metrics
from cli.text import line, plain, shown
from engine.cattle.presets import load_preset
from events.cattle import game as ev
from events.config import SeatSpec
from events.store import GameRow
from projections.metrics.aggregate import AgentProfile, Estimate
from projections.ratings import AgentRating
from projections.replay import state_at
from projections.timeline import timeline
from runner.session import play_game

NASTY = [
    "[/]",
    "[link=http://x]a[/link]",
    "[/INST]",
    "[bold",
    "[bold]x[/bold]",
    "\x1b[31m",
    "\\[",
    "a\\",
    "\\",
    ":cow:",
    "openai:gpt[/]@x",
    "[red]:smile:[/red]",
    "@click",
    "line\nbreak",
    "tab\there",
    "\u202eevil",
    "",
]
texts = st.one_of(st.sampled_from(NASTY), st.text(max_size=40))


@pytest.fixture(scope="module")
def record() -> Any:
    """A real played game to dress up with hostile strings."""
    return play_game(load_preset("micro-duel"), 7, ["random", "random"])


def render(*parts: Any) -> str:
    """What the CLI's console would print, on a console wide enough never to wrap."""
    buf = io.StringIO()
    console = Console(file=buf, width=5000, emoji=False, color_system=None)
    for part in parts:
        console.print(part)
    return buf.getvalue()


def appears(value: str, text: str) -> bool:
    """`value` is in `text` as printed, control characters as escapes. A title or caption
    wraps to its table's width (and rich trims the ends of centred lines), so whitespace is
    left out of the comparison; every other character must be there, in order."""
    return "".join(shown(value).split()) in "".join(text.split())


def seats(*agents: str) -> tuple[SeatSpec, ...]:
    return tuple(SeatSpec(agent=a) for a in agents)


def test_shown_only_changes_control_characters() -> None:
    assert shown("[/] plain :cow: text") == "[/] plain :cow: text"
    assert shown("a\nb\tc\x1b[31md\x7f\u202e") == "a\\nb\\tc\\x1b[31md\\x7f\\u202e"
    assert "\x1b" not in render(plain("\x1b[2J"))


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(a=texts, b=texts, reason=texts)
def test_score_table(record: Any, a: str, b: str, reason: str) -> None:
    end = record.events[-1]
    assert isinstance(end, ev.GameEnded)
    dressed = msgspec.structs.replace(
        record,
        seats=seats(a, b),
        events=[*record.events[:-1], msgspec.structs.replace(end, reason=reason)],
    )
    text = render(cli_main._score_table(a + b, dressed))
    for s in (a, b, reason, a + b):
        assert appears(s, text)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(gid=texts, agent=texts, tournament=texts, preset=texts, status=texts)
def test_games_table(
    record: Any, gid: str, agent: str, tournament: str, preset: str, status: str
) -> None:
    row = GameRow(
        game_id=gid,
        seed=1,
        config=msgspec.structs.replace(record.config, name=preset),
        seats=seats(agent, "random"),
        engine_version="x",
        status=status,
        tournament=tournament or None,
    )
    text = render(cli_main._games_table([row], [row], {gid: {0: 5}}, "db[/]"))
    for s in (gid, preset, agent + ", random", status):
        assert appears(s, text)
    if tournament:
        assert appears(tournament, text)
    assert "db[/]" in text


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(agent=texts, raw=texts, reason=texts)
def test_timeline_lines(record: Any, agent: str, raw: str, reason: str) -> None:
    start = record.events[0]
    assert isinstance(start, ev.GameStarted)
    rejected = ev.ActionRejected(seat=0, decision="bid", reason=reason, raw=raw)
    events = [msgspec.structs.replace(start, seats=seats(agent, "b")), rejected]
    lines = cli_main._timeline_lines(timeline(events, None))
    text = render(*lines)
    assert appears(f"0={agent}, 1=b", text)
    for s in (raw, reason):
        assert appears(s, text)
    # One printed line per event, whatever the strings hold.
    assert len(text.splitlines()) == len(events)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(agent=texts)
def test_state_view(record: Any, agent: str) -> None:
    start = record.events[0]
    events = [msgspec.structs.replace(start, seats=seats(agent, "other")), *record.events[1:]]
    state = state_at(events, None)
    data = msgspec.to_builtins(state)
    data["pending"] = None
    text = render(*cli_main._state_view(state, data, len(events) - 1))
    assert appears(agent, text)


@settings(max_examples=60, deadline=None)
@given(cols=st.lists(texts, min_size=1, max_size=3, unique=True), cell=texts)
def test_sql_table(cols: list[str], cell: str) -> None:
    rows = [tuple(cell for _ in cols), tuple(None for _ in cols)]
    text = render(cli_main._sql_table(cols, rows))
    for c in cols:
        assert appears(c, text)
    assert appears(cell, text) and "NULL" in text


@settings(max_examples=60, deadline=None)
@given(agent=texts, tournament=st.one_of(st.none(), texts))
def test_ratings_table(agent: str, tournament: str | None) -> None:
    rating = AgentRating(
        agent=agent,
        mu=25.0,
        sigma=8.0,
        conservative=1.0,
        games=3,
        wins=1,
        win_rate=1 / 3,
        median_score=100.0,
        score_std=1.0,
        mean_sets=1.0,
    )
    text = render(cli_tournament._ratings_table([rating], 3, tournament, 2))
    assert appears(agent, text)
    if tournament:
        assert appears(tournament, text)


@settings(max_examples=60, deadline=None)
@given(agent=texts, tournament=st.one_of(st.none(), texts))
def test_metrics_table(agent: str, tournament: str | None) -> None:
    profile = AgentProfile(
        agent=agent, games=4, metrics={"win_rate": Estimate(value=0.5, lo=0.25, hi=0.75)}
    )
    text = render(*cli_metrics._metrics_parts([profile], tournament, 5000))
    assert appears(agent, text)
    if tournament:
        assert appears(tournament, text)
    # The interval under the estimate is deliberate markup and still renders as a style.
    assert "25.0–75.0" in text and "[dim]" not in text


@settings(max_examples=60, deadline=None)
@given(agent=texts, gid=texts, by=st.sampled_from(["agent", "seat", "game"]))
def test_costs_table(agent: str, gid: str, by: str) -> None:
    row = {
        "agent": agent,
        "game_id": gid,
        "seat": 0,
        "games": 1,
        "calls": 10,
        "calls_per_game": 10.0,
        "input_tokens": 100,
        "output_tokens": 20,
        "reasoning_tokens": 0,
        "tokens_per_game": 120.0,
        "cost_usd": None,
        "cost_per_game": None,
        "format_error_rate": 0.0,
        "fallback_rate": 0.0,
        "transport_errors": 0,
        "budget_cut_games": 0,
    }
    text = render(cli_llm._costs_table([row], by))
    if by in ("agent", "seat"):
        assert appears(agent, text)
    if by in ("seat", "game"):
        assert appears(gid, text)


@settings(max_examples=200, deadline=None)
@given(values=st.lists(texts, min_size=1, max_size=3))
def test_markup_lines_quote_values_exactly(values: list[str]) -> None:
    # How error lines and messages such as "Game id: ..." place values inside markup.
    template = "[red]error:[/] " + " [bold]and[/] ".join("[cyan]{}[/]" for _ in values) + "!"
    text = render(line(template, *values))
    assert text == "error: " + " and ".join(shown(v) for v in values) + "!\n"


def test_markup_lines_keep_their_styles() -> None:
    styled = line("[bold]Game {}[/] ({})", "[/]x", "all")
    assert styled.plain == "Game [/]x (all)"
    assert [(s.start, s.end, str(s.style)) for s in styled.spans] == [(0, 9, "bold")]
    with pytest.raises(ValueError):
        line("{} and {}", "one")
