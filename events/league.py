"""The facts of a standing league: what it was configured with and what its matchmaker chose.

A league's games are ordinary games (rows of `games`, events of `events`, scheduled in
`tournament_games` under the league's name). What is particular to a league is stored beside
them, in the table `league_events`, one row per fact, numbered from 0 within the league:

* `LeagueConfigured`: the games and agents of the league as read from its file, recorded each
  time the file says something new (a game or agent added, a weight or budget changed);
* `CalibrationOpened`: an agent that joined a running league, with the ratings of the
  reference pool frozen at that moment;
* `PersonQueued`: a person who waited in the browser's queue, seated by the next round;
* `RoundChosen`: the matches the matchmaker chose for one round, with the day the round was
  chosen on (the only reading of a clock, recorded so that budgets per day replay).

Folding these with the stored results gives the matchmaker's inputs at every round, so the
league replays its choices exactly (`runner.league.replay_choices`).
"""

from __future__ import annotations

from typing import Any

import msgspec

SCHEMA = """
CREATE TABLE IF NOT EXISTS league_events (
    league VARCHAR NOT NULL,
    seq INTEGER NOT NULL,
    type VARCHAR NOT NULL,
    payload JSON NOT NULL,
    PRIMARY KEY (league, seq)
);
"""


class GameEntry(msgspec.Struct, frozen=True, kw_only=True):
    """A game of the league."""

    game: str
    """The catalogue name (one configuration per name in a league)."""
    preset: str
    weight: float = 1.0
    """Relative share of the matchmaker's attention."""
    duplicate: bool = True
    """Play every match once per seat rotation on one deal (False: one rotation a match)."""
    config: str = ""
    """The game's configuration as JSON (what the games are played with)."""


class AgentEntry(msgspec.Struct, frozen=True, kw_only=True):
    """An agent of the league: its name on the table, its spec in each game, its budgets."""

    name: str
    specs: dict[str, str]
    """game -> the seat spec it plays that game with (a game it cannot play is absent)."""
    seats: dict[str, str] = msgspec.field(default_factory=dict)
    """game -> what its seats are stored as (a model's spec without its address)."""
    calls_per_day: int | None = None
    tokens_per_day: int | None = None
    cost_per_day: float | None = None
    concurrency: int | None = None
    """At most this many of its games in one round (they are played at once)."""
    price: tuple[float, float] | None = None
    """Price per million input and output tokens (cost budgets and the table's cost)."""
    person: bool = False
    """A person playing from the browser (joined through the queue)."""
    secret_sha256: str | None = None
    """A person's: the hash of the secret their browser keeps (agents.human.lobby)."""


class LeagueEvent(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    """A fact of a league."""


class LeagueConfigured(LeagueEvent, frozen=True, kw_only=True, tag="league_configured"):
    """The league's games and agents as its file gave them before round `round`."""

    round: int
    seed: int
    round_games: int
    games: tuple[GameEntry, ...]
    agents: tuple[AgentEntry, ...]
    reference: tuple[str, ...] = ()
    """Agents whose ratings, frozen when a newcomer joins, calibrate it."""
    calibration: int = 2
    """Calibration matches a newcomer plays in every game before open matchmaking."""


class CalibrationOpened(LeagueEvent, frozen=True, kw_only=True, tag="calibration_opened"):
    """`agent` joined a running league before round `round`: its first matches are against
    the reference pool, whose per-game TrueSkill (mu, sigma) is frozen here."""

    round: int
    agent: str
    frozen: dict[str, dict[str, tuple[float, float]]]
    """game -> reference agent -> (mu, sigma)."""


class PersonQueued(LeagueEvent, frozen=True, kw_only=True, tag="person_queued"):
    """A person waited in the browser's queue for a game of `game` before round `round`:
    the next round seats them (read from the queue, recorded so that the round replays)."""

    round: int
    name: str
    game: str
    spec: str
    """The seat spec they play with (`human:NAME?via=web&timeout=S`)."""
    agent: str
    """What their seats are stored as (`human:NAME`)."""
    secret_sha256: str


class Match(msgspec.Struct, frozen=True, kw_only=True):
    """One match the matchmaker chose: a lineup in one game, on one deal."""

    game: str
    lineup: tuple[str, ...]
    """Agent names, seat 0 first, before rotation."""
    seed: int
    rotations: tuple[int, ...]
    """The seat rotations played (every one with duplicate decks), each one stored game."""
    first: int
    """Schedule index of the match's first game (the others follow)."""
    calibration: bool = False
    priority: float = 0.0
    """Why it was chosen: the weight times the lineup's summed rating variance."""


class RoundChosen(LeagueEvent, frozen=True, kw_only=True, tag="round_chosen"):
    """The matches of round `round`, chosen on `day` (UTC date, for budgets per day)."""

    round: int
    day: str
    capacity: int
    """The most games the round could take (the file's round size, or fewer near a limit)."""
    matches: tuple[Match, ...]


AnyLeagueEvent = LeagueConfigured | CalibrationOpened | PersonQueued | RoundChosen

_DECODER = msgspec.json.Decoder(AnyLeagueEvent)


def encode_event(event: LeagueEvent) -> str:
    """The stored JSON of a league event (keys in a fixed order)."""
    return msgspec.json.encode(event, order="deterministic").decode()


def decode_event(text: str | bytes) -> AnyLeagueEvent:
    """A stored league event."""
    return _DECODER.decode(text)


def load_events(con: Any, league: str) -> list[AnyLeagueEvent]:
    """Every stored fact of `league`, in order ([] when the store has no league table)."""
    has = con.execute(
        "SELECT count(*) FROM information_schema.tables WHERE table_name = 'league_events'"
    ).fetchone()
    if not has or not has[0]:
        return []
    rows = con.execute(
        "SELECT payload FROM league_events WHERE league = ? ORDER BY seq", [league]
    ).fetchall()
    return [decode_event(r[0]) for r in rows]


def leagues(con: Any) -> list[str]:
    """The names of the leagues stored."""
    has = con.execute(
        "SELECT count(*) FROM information_schema.tables WHERE table_name = 'league_events'"
    ).fetchone()
    if not has or not has[0]:
        return []
    rows = con.execute("SELECT DISTINCT league FROM league_events ORDER BY 1").fetchall()
    return [r[0] for r in rows]
