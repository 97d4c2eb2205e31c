"""What the viewer shows, read from the store: the games list, one game for one viewer, and a
tournament's standings and ratings. Shared by the live server and the static export.

A seat's view is filtered in SQL by each event's `visible_to` column: the events another seat
may not see are never read for it, so nothing built from them (timeline text, tables, model
exchanges) can reach that seat's page.

A game's seed decides every chance outcome still to come, so no view shows the seed of a game
in play (see `projections.seeds`): the list, the game's head, its first event and its timeline
line leave it out until every game dealt from that seed is over.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

import duckdb
import msgspec

from cli.web import frames as fr
from events import catalog
from events.store import decode_stored
from projections.answers import load_json
from projections.costs import PricesError, cost, load_prices, price_for
from projections.seeds import seedless_fields, seedless_text, seeds_in_play, withheld_seed
from projections.timeline import lineup_hidden, seat_lens, seat_numbered

PUBLIC = "public"
"""The viewer that sees what every seat sees (published replays)."""

PER_PAGE = 50
MAX_PAGE = 10_000_000
"""Pages beyond this are refused (an offset that large is a typing error, not a request)."""

SORTS = {
    "date": "created_at",
    "game": "game",
    "tournament": "shown_tournament",
    "seed": "seed",
    "status": "status",
    "id": "shown_id",
}
STATUSES = ("running", "finished", "abandoned")
MAX_FILTER = 200


class BadRequest(ValueError):
    """A request the viewer refuses, with the reason shown to the user."""


class NotFound(LookupError):
    """No such game or tournament."""


class Closed(PermissionError):
    """A game in play (or a game of a tournament in play), closed to the request."""


# ---- parsing request values -------------------------------------------------------------------


def parse_viewer(text: str | None, players: int | None = None) -> fr.Viewer:
    """`seat=` as given: absent or empty for everyone, "public", or a seat number in range."""
    if text is None or text == "" or text == "all":
        return None
    if text == PUBLIC:
        return PUBLIC
    if not (text.isascii() and text.isdigit()) or len(text) > 3:
        raise BadRequest(f"seat must be a seat number or 'public', got {_short(text)}")
    seat = int(text)
    if players is not None and seat >= players:
        raise BadRequest(f"seat {seat} is not a seat of this game (seats 0 to {players - 1})")
    return seat


def parse_int(name: str, text: str | None, lo: int, hi: int, default: int) -> int:
    """A whole number parameter within [lo, hi], or `BadRequest` naming it."""
    if text is None or text == "":
        return default
    if not (text.isascii() and text.lstrip("-").isdigit()) or len(text) > 20:
        raise BadRequest(f"{name} must be a whole number, got {_short(text)}")
    value = int(text)
    if not lo <= value <= hi:
        raise BadRequest(f"{name} must be between {lo:,} and {hi:,}, got {_short(text)}")
    return value


def _short(text: str) -> str:
    return repr(text if len(text) <= 40 else text[:37] + "...")


# ---- the games list ---------------------------------------------------------------------------


class ListQuery(msgspec.Struct, kw_only=True):
    """Filters, order and page of the games list."""

    q: str = ""
    """A game id prefix, or part of an agent's name."""
    game: str = ""
    tournament: str = ""
    agent: str = ""
    status: str = ""
    sort: str = "date"
    desc: bool = True
    page: int = 1

    @classmethod
    def from_params(cls, params: Any) -> ListQuery:
        """From a request's query parameters (a mapping of str to str)."""
        values = {}
        for key in ("q", "game", "tournament", "agent", "status"):
            text = str(params.get(key, "") or "").strip()
            if len(text) > MAX_FILTER:
                raise BadRequest(f"{key} is too long ({len(text):,} characters)")
            values[key] = text
        if values["status"] and values["status"] not in STATUSES:
            raise BadRequest(f"status must be one of {', '.join(STATUSES)}")
        sort = str(params.get("sort", "date") or "date")
        if sort not in SORTS:
            raise BadRequest(f"sort must be one of {', '.join(SORTS)}")
        order = str(params.get("order", "desc") or "desc")
        if order not in ("asc", "desc"):
            raise BadRequest("order must be asc or desc")
        page = parse_int("page", params.get("page"), 1, MAX_PAGE, 1)
        return cls(**values, sort=sort, desc=order == "desc", page=page)

    def where(self) -> tuple[str, list[Any]]:
        """The SQL condition on the shown games `g` (see `shown_games`) and its parameters.

        Every filter reads what the list shows: a game in play matches no agent, and a
        tournament name or game id withheld matches nothing, so that no filter tells them.
        """
        parts: list[str] = []
        params: list[Any] = []
        for key, column in (("game", "game"), ("tournament", "shown_tournament")):
            value = getattr(self, key)
            if value:
                parts.append(f"g.{column} = ?")
                params.append(value)
        if self.status:
            parts.append("g.status = ?")
            params.append(self.status)
        if self.agent:
            parts.append(
                "NOT g.in_play AND list_contains(CAST(g.seats->>'$[*].agent' AS VARCHAR[]), ?)"
            )
            params.append(self.agent)
        if self.q:
            # Plain substring tests on the agent names themselves: no LIKE wildcard, and
            # nothing of the seats' JSON (keys, quotes, escapes) can match.
            parts.append(
                "(starts_with(g.shown_id, ?) OR (NOT g.in_play AND EXISTS (SELECT 1 FROM"
                " unnest(CAST(g.seats->>'$[*].agent' AS VARCHAR[])) AS s(agent)"
                " WHERE contains(lower(s.agent), ?))))"
            )
            params.extend([self.q, self.q.lower()])
        return (" AND ".join(parts) or "TRUE"), params

    def params(self, **change: Any) -> dict[str, str]:
        """The query parameters of this query with some changed (for links)."""
        base = {
            "q": self.q,
            "game": self.game,
            "tournament": self.tournament,
            "agent": self.agent,
            "status": self.status,
            "sort": self.sort,
            "order": "desc" if self.desc else "asc",
            "page": str(self.page),
        }
        base.update({k: str(v) for k, v in change.items()})
        return {k: v for k, v in base.items() if v and not (k == "page" and v == "1")}


class GameLine(msgspec.Struct, kw_only=True):
    """One line of the games list."""

    game_id: str
    """Empty while withheld (a game id made from a tournament name that holds its seed)."""
    game: str
    tournament: str | None
    """None while withheld (a tournament in play whose name holds its seed)."""
    agents: list[str]
    """Empty while the game is in play (`in_play`)."""
    seed: int | None
    """None while the seed is withheld (`projections.seeds`)."""
    created_at: str
    status: str
    winners: list[str]
    in_play: bool = False
    """The game runs, or a game of its tournament is still to be played."""


def live_tournaments(con: duckdb.DuckDBPyConnection) -> str:
    """SQL naming the tournaments in play: those whose schedule holds a game not finished
    (running, stopped half-way, to be played again or not begun)."""
    if not _has_table(con, "tournament_games"):
        return "SELECT NULL::VARCHAR AS name WHERE FALSE"
    # A standing league is never over: its games are in play one by one (`league_games_in_play`).
    sql = (
        "SELECT DISTINCT t.tournament AS name FROM tournament_games t"
        " WHERE t.game_id NOT IN (SELECT game_id FROM games WHERE status = 'finished')"
    )
    if _has_table(con, "tournaments"):
        sql += " AND t.tournament NOT IN (SELECT name FROM tournaments WHERE game = 'league')"
    return sql


def league_games_in_play(con: duckdb.DuckDBPyConnection) -> list[str]:
    """The finished games of leagues still dealt elsewhere: another game from the same seed
    (another seat rotation of a duplicate deal) runs or is still to be played."""
    if not _has_table(con, "tournament_games") or not _has_table(con, "tournaments"):
        return []
    rows = con.execute(
        "WITH l AS (SELECT t.* FROM tournament_games t JOIN tournaments n"
        " ON n.name = t.tournament AND n.game = 'league'),"
        " open AS (SELECT DISTINCT l.tournament, l.seed FROM l LEFT JOIN games x"
        " ON x.game_id = l.game_id WHERE x.status IS DISTINCT FROM 'finished')"
        " SELECT l.game_id FROM l JOIN open USING (tournament, seed)"
    ).fetchall()
    return [str(r[0]) for r in rows]


class InPlay(msgspec.Struct, frozen=True):
    """The tournaments in play now, and those of them whose name holds their seed."""

    live: list[str]
    named: list[str]
    league_games: list[str] = msgspec.field(default_factory=list)
    """Games of leagues closed because their deal is still in play elsewhere."""


def in_play_now(con: duckdb.DuckDBPyConnection) -> InPlay:
    """Which tournaments are in play (read once per page: the list's queries share it)."""
    live = [str(r[0]) for r in con.execute(live_tournaments(con)).fetchall()]
    named: list[str] = []
    if live and _has_table(con, "tournaments"):
        seeds = con.execute(
            "SELECT name, seed FROM tournaments WHERE name IN (SELECT unnest(?))", [live]
        ).fetchall()
        named = [n for n, seed in seeds if re.search(rf"(?<!\d){int(seed)}(?!\d)", str(n))]
    return InPlay(live=live, named=named, league_games=league_games_in_play(con))


def shown_games(con: duckdb.DuckDBPyConnection, play: InPlay | None = None) -> tuple[str, list]:
    """SQL of the games table as the list may show it, and its parameters: each row with
    `in_play`, and `shown_tournament` and `shown_id` (NULL while they would tell a
    tournament's seed: old default names were made from it, and game ids from the name)."""
    play = play or in_play_now(con)
    sql = (
        "WITH p AS (SELECT g0.game_id, g0.game, g0.tournament, g0.seats, g0.seed,"
        " g0.created_at, g0.status, (g0.status = 'running'"
        " OR coalesce(list_contains(?::VARCHAR[], g0.tournament), FALSE)"
        " OR list_contains(?::VARCHAR[], g0.game_id)) AS in_play,"
        " coalesce(list_contains(?::VARCHAR[], g0.tournament), FALSE) AS named FROM games g0),"
        " g AS (SELECT *, CASE WHEN named THEN NULL ELSE tournament END AS shown_tournament,"
        " CASE WHEN named THEN NULL ELSE game_id END AS shown_id FROM p)"
    )
    return sql, [play.live, play.league_games, play.named]


def _has_table(con: duckdb.DuckDBPyConnection, name: str) -> bool:
    got = con.execute(
        "SELECT count(*) FROM duckdb_tables() WHERE table_name = ?", [name]
    ).fetchone()
    return bool(got and got[0])


def list_games(
    con: duckdb.DuckDBPyConnection,
    query: ListQuery,
    winners: Winners | None = None,
    play: InPlay | None = None,
) -> tuple[list[GameLine], int]:
    """One page of games matching `query`, and how many match in all."""
    where, params = query.where()
    shown, first = shown_games(con, play)
    total = con.execute(
        f"{shown} SELECT count(*) FROM g WHERE {where}", [*first, *params]
    ).fetchone()
    count = int(total[0]) if total else 0
    column = SORTS[query.sort]
    direction = "DESC" if query.desc else "ASC"
    hidden = sorted(seeds_in_play(con))
    # A withheld seed is NULL here, in the order too: its place among the others would tell it.
    shown_seed = (
        "CASE WHEN g.in_play OR list_contains(?::BIGINT[], g.seed) THEN NULL ELSE g.seed END"
    )
    order = shown_seed if column == "seed" else f"g.{column}"
    order_params = [hidden] if column == "seed" else []
    rows = con.execute(
        f"{shown} SELECT g.game_id, g.game, g.shown_tournament, g.seats, {shown_seed},"
        " g.created_at, g.status, g.in_play, g.shown_id"
        f" FROM g WHERE {where}"
        f" ORDER BY {order} {direction} NULLS LAST, g.shown_id {direction} NULLS LAST,"
        f" g.game_id {direction}"
        " LIMIT ? OFFSET ?",
        [*first, hidden, *params, *order_params, PER_PAGE, (query.page - 1) * PER_PAGE],
    ).fetchall()
    return _lines(con, rows, winners), count


def lines_of(con: duckdb.DuckDBPyConnection, ids: Sequence[str]) -> list[GameLine]:
    """The list lines of the games `ids`, in that order (what a published index shows)."""
    hidden = sorted(seeds_in_play(con))
    shown, first = shown_games(con)
    rows = con.execute(
        f"{shown} SELECT g.game_id, g.game, g.shown_tournament, g.seats,"
        " CASE WHEN g.in_play OR list_contains(?::BIGINT[], g.seed) THEN NULL ELSE g.seed END,"
        " g.created_at, g.status, g.in_play, g.shown_id FROM g"
        " WHERE g.game_id IN (SELECT unnest(?))",
        [*first, hidden, list(ids)],
    ).fetchall()
    place = {gid: i for i, gid in enumerate(ids)}
    return _lines(con, sorted(rows, key=lambda r: place[r[0]]), None)


def _lines(
    con: duckdb.DuckDBPyConnection, rows: Sequence[tuple[Any, ...]], winners: Winners | None
) -> list[GameLine]:
    ids = [r[0] for r in rows if not r[7]]
    ranks = winners.of(con, ids) if winners is not None else _final_ranks(con, ids)
    lines = []
    for game_id, game, tournament, seats, seed, created, status, in_play, shown_id in rows:
        agents = [] if in_play else [str(s.get("agent", "")) for s in json.loads(seats)]
        got = ranks.get(game_id)
        won = [agents[i] for i, r in enumerate(got) if r == 1 and i < len(agents)] if got else []
        lines.append(
            GameLine(
                game_id=shown_id or "",
                game=game,
                tournament=tournament,
                agents=agents,
                seed=seed,
                created_at=_date(created),
                status=status,
                winners=won,
                in_play=bool(in_play),
            )
        )
    return lines


def _final_ranks(con: duckdb.DuckDBPyConnection, ids: Sequence[str]) -> dict[str, list[int]]:
    """The final ranks of the games `ids` that have ended, from their `game_ended` events."""
    if not ids:
        return {}
    # The range bounds let DuckDB skip row groups by their min/max game ids before matching.
    rows = con.execute(
        "SELECT game_id, payload->>'$.ranks' FROM events WHERE type = 'game_ended'"
        " AND game_id BETWEEN ? AND ? AND game_id IN (SELECT unnest(?))",
        [min(ids), max(ids), list(ids)],
    ).fetchall()
    return _ranks_of(rows)


def _ranks_of(rows: Sequence[tuple[str, str]]) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for game_id, ranks in rows:
        try:
            out[game_id] = [int(r) for r in json.loads(ranks)]
        except (TypeError, ValueError):
            continue
    return out


class Winners:
    """Final ranks of ended games, kept once read (an ended game's result never changes).

    Finding a page's results means scanning the events table; on a store of 100,000 games
    that costs more than the rest of the page, so they are read once for every game when
    the server starts (`load_all`) and for new games as pages ask for them.
    """

    def __init__(self) -> None:
        self.ranks: dict[str, list[int]] = {}

    def load_all(self, con: duckdb.DuckDBPyConnection) -> None:
        """Read the result of every ended game."""
        rows = con.execute(
            "SELECT game_id, payload->>'$.ranks' FROM events WHERE type = 'game_ended'"
        ).fetchall()
        self.ranks.update(_ranks_of(rows))

    def of(self, con: duckdb.DuckDBPyConnection, ids: Sequence[str]) -> dict[str, list[int]]:
        """The final ranks of those of `ids` that have ended."""
        missing = [i for i in ids if i not in self.ranks]
        if missing:
            self.ranks.update(_final_ranks(con, missing))
        return {i: self.ranks[i] for i in ids if i in self.ranks}


def _date(value: Any) -> str:
    if isinstance(value, dt.datetime):
        return value.strftime("%Y-%m-%d %H:%M")
    return "" if value is None else str(value)


def choices(con: duckdb.DuckDBPyConnection, play: InPlay | None = None) -> dict[str, list[str]]:
    """The values the list's filters offer: games and tournaments stored (not a name that
    is withheld)."""
    games = [r[0] for r in con.execute("SELECT DISTINCT game FROM games ORDER BY 1").fetchall()]
    withheld = set((play or in_play_now(con)).named)
    tours = [
        r[0]
        for r in con.execute(
            "SELECT DISTINCT tournament FROM games WHERE tournament IS NOT NULL ORDER BY 1"
        ).fetchall()
        if r[0] not in withheld
    ]
    return {"games": games, "tournaments": tours, "statuses": list(STATUSES)}


# ---- one game ---------------------------------------------------------------------------------


class GameHead(msgspec.Struct, kw_only=True):
    """A stored game's row, as the viewer needs it."""

    game_id: str
    game: str
    seed: int | None
    """None while the seed is withheld (`projections.seeds`)."""
    agents: list[str]
    status: str
    tournament: str | None
    created_at: str
    end_reason: str | None


def game_head(con: duckdb.DuckDBPyConnection, game_id: str) -> GameHead:
    """The row of game `game_id` (exactly that id); `NotFound` if there is none."""
    if len(game_id) > 400:
        raise NotFound("no such game (the id is too long)")
    row = con.execute(
        "SELECT game_id, game, seed, seats, status, tournament, created_at, end_reason"
        " FROM games WHERE game_id = ?",
        [game_id],
    ).fetchone()
    if row is None:
        raise NotFound(f"no game {_short(game_id)} in this store")
    agents = [str(s.get("agent", "")) for s in json.loads(row[3])]
    return GameHead(
        game_id=row[0],
        game=row[1],
        seed=None if row[4] == "running" or seeds_in_play(con, row[2]) else row[2],
        agents=agents,
        status=row[4],
        tournament=row[5],
        created_at=_date(row[6]),
        end_reason=row[7],
    )


def in_play(con: duckdb.DuckDBPyConnection, game_id: str) -> str | None:
    """Why game `game_id` is in play (it runs, or its tournament has games still to be
    played), or None once it may be shown."""
    row = con.execute(
        "SELECT status, tournament FROM games WHERE game_id = ?", [game_id]
    ).fetchone()
    if row is None:
        return None
    if row[0] == "running":
        return "the game is in play"
    if row[1] is not None and is_league(con, row[1]):
        return "a game dealt from its seed is in play" if dealt_elsewhere(con, game_id) else None
    if row[1] is not None and tournament_in_play(con, row[1]):
        return "a game of its tournament is in play"
    return None


def is_league(con: duckdb.DuckDBPyConnection, name: str) -> bool:
    """Whether tournament `name` is a standing league (`cattle league`)."""
    if not _has_table(con, "tournaments"):
        return False
    got = con.execute(
        "SELECT count(*) FROM tournaments WHERE name = ? AND game = 'league'", [name]
    ).fetchone()
    return bool(got and got[0])


def tournament_in_play(con: duckdb.DuckDBPyConnection, name: str) -> bool:
    """Whether tournament `name` has a game running or still to be played."""
    got = (
        con.execute(
            "SELECT count(*) FROM tournament_games t LEFT JOIN games x ON x.game_id = t.game_id"
            " WHERE t.tournament = ? AND x.status IS DISTINCT FROM 'finished'",
            [name],
        ).fetchone()
        if _has_table(con, "tournament_games")
        else None
    )
    running = con.execute(
        "SELECT count(*) FROM games WHERE tournament = ? AND status = 'running'", [name]
    ).fetchone()
    return bool((got and got[0]) or (running and running[0]))


def dealt_elsewhere(con: duckdb.DuckDBPyConnection, game_id: str) -> bool:
    """Whether another game dealt from this game's seed runs or is still to be played (its
    chance outcomes are this game's: another rotation of a deal, the next attempt)."""
    row = con.execute("SELECT seed FROM games WHERE game_id = ?", [game_id]).fetchone()
    if row is None:
        return False
    seed = int(row[0])
    running = con.execute(
        "SELECT count(*) FROM games WHERE seed = ? AND game_id <> ? AND status = 'running'",
        [seed, game_id],
    ).fetchone()
    if running and running[0]:
        return True
    if not _has_table(con, "tournament_games"):
        return False
    scheduled = con.execute(
        "SELECT count(*) FROM tournament_games t LEFT JOIN games g ON g.game_id = t.game_id"
        " WHERE t.seed = ? AND t.game_id <> ? AND g.status IS DISTINCT FROM 'finished'",
        [seed, game_id],
    ).fetchone()
    return bool(scheduled and scheduled[0])


def event_count(con: duckdb.DuckDBPyConnection, game_id: str) -> int:
    """How many events of game `game_id` are stored (its events are numbered from 0)."""
    got = con.execute("SELECT max(seq) FROM events WHERE game_id = ?", [game_id]).fetchone()
    return 0 if got is None or got[0] is None else int(got[0]) + 1


def event_rows(
    con: duckdb.DuckDBPyConnection, game_id: str, viewer: fr.Viewer, upto: int | None = None
) -> list[tuple[int, str, int, int | None, str]]:
    """(seq, type, turn, actor, payload) of the events `viewer` may see, in order (with
    `upto`, only those numbered below it)."""
    sql = "SELECT seq, type, turn, actor, payload FROM events WHERE game_id = ?"
    params: list[Any] = [game_id]
    if upto is not None:
        sql += " AND seq < ?"
        params.append(upto)
    if viewer == PUBLIC:
        sql += " AND visible_to IS NULL"
    elif isinstance(viewer, int):
        sql += " AND (visible_to IS NULL OR list_contains(visible_to, ?))"
        params.append(viewer)
    return con.execute(sql + " ORDER BY seq", params).fetchall()


PRIVATE_OPTIONS = ("base_url",)
"""Seat options only the omniscient view shows: where a model was served is the operator's
business (an address inside their network), not the public's."""


def _shown_fields(
    fields: Any, viewer: fr.Viewer, hidden: Mapping[str, tuple[str, ...]] | None = None
) -> Any:
    """An event's fields as `viewer` is shown them: without the type tag, (for anyone but
    the omniscient viewer) without the seats' private options, and for a seat without the
    fields its game hides from seats (`hidden`: event type -> field names; see `_hidden`)."""
    if not isinstance(fields, dict):
        return fields
    typ = fields.pop("type", None)
    if isinstance(viewer, int) and hidden and isinstance(typ, str):
        for name in hidden.get(typ, ()):
            fields.pop(name, None)
    seats = fields.get("seats")
    if viewer is not None and isinstance(seats, list):
        fields["seats"] = [
            {
                **seat,
                "options": {k: v for k, v in seat["options"].items() if k not in PRIVATE_OPTIONS},
            }
            if isinstance(seat, dict) and isinstance(seat.get("options"), dict)
            else seat
            for seat in seats
        ]
    return fields


def _hidden(gdef: catalog.GameDef | None) -> Mapping[str, tuple[str, ...]]:
    """The fields of a game's events that its seats are not shown
    (`extras["seat_hidden_fields"]`: a history position where the count of actions a seat did
    not see is itself hidden)."""
    if gdef is None:
        return {}
    hidden = gdef.extras.get("seat_hidden_fields", {})
    return hidden if isinstance(hidden, Mapping) else {}


def api_events(
    con: duckdb.DuckDBPyConnection, game_id: str, viewer: fr.Viewer, upto: int | None = None
) -> list[Any]:
    """The events `viewer` may see (with `upto`, of those numbered below it): each its seq,
    type, turn, actor and fields."""
    out = []
    gdef = _game_def(con, game_id) if viewer is not None else None
    own = gdef is not None and seat_numbered(gdef, viewer if isinstance(viewer, int) else None)
    hidden = _hidden(gdef)
    rows = event_rows(con, game_id, viewer, upto)
    reader = _Reader(con, game_id, gdef, viewer, rows)
    bare = reader.no_lineup or upto is not None  # a spectator's delayed view: no lineup
    secret = withheld_seed(con, game_id)
    for i, (seq, typ, turn, actor, payload) in enumerate(rows):
        fields, actor = reader.fields(i, payload, actor)
        fields = _shown_fields(fields, viewer, hidden)
        fields = seedless_fields(typ, fields, secret)
        if bare and typ == "game_started" and isinstance(fields, dict):
            fields.pop("seats", None)
        if own:
            seq = turn = i
        out.append({"seq": seq, "type": typ, "turn": turn, "actor": actor, "fields": fields})
    return out


class _Reader:
    """How a seat (or the public) is shown a game's events: as stored, or through the
    game's seat lens (`projections.timeline.seat_lens`) where the stored events name seats
    that viewer may not see by number; and whether the lineup is kept from it."""

    def __init__(
        self,
        con: duckdb.DuckDBPyConnection,
        game_id: str,
        gdef: catalog.GameDef | None,
        viewer: fr.Viewer,
        rows: Sequence[tuple[Any, ...]],
        decoded: list[Any] | None = None,
    ) -> None:
        seat = viewer if isinstance(viewer, int) else None
        self.viewer = viewer
        self.lens = (
            seat_lens(gdef, seat, public=viewer == PUBLIC)
            if gdef is not None and viewer is not None
            else None
        )
        self.decoded = decoded
        if self.lens is not None and decoded is None and gdef is not None:
            try:
                self.decoded = decode_stored(gdef.name, [r[4] for r in rows], game_id)
            except Exception:  # unreadable: the lens cannot word it, so nothing is shown
                self.decoded = None
        status = con.execute("SELECT status FROM games WHERE game_id = ?", [game_id]).fetchone()
        self.no_lineup = lineup_hidden(
            gdef, viewer is None, status is not None and status[0] == "finished"
        )

    def fields(self, i: int, payload: str, actor: int | None) -> tuple[Any, int | None]:
        """The fields and actor of row `i` as the viewer is shown them."""
        if self.lens is None:
            return msgspec.json.decode(payload), actor
        shown_actor = actor if actor == self.viewer else None
        if self.decoded is None:
            return None, shown_actor
        return self.lens.fields(self.decoded[i]), shown_actor

    def line(self, i: int) -> str | None:
        """The lens's line of row `i` (call after `fields` for the same row)."""
        if self.lens is None or self.decoded is None:
            return None
        return self.lens.line(self.decoded[i])


def _game_def(con: duckdb.DuckDBPyConnection, game_id: str) -> catalog.GameDef | None:
    """The definition of the game `game_id` is (None if unknown here)."""
    row = con.execute("SELECT game FROM games WHERE game_id = ?", [game_id]).fetchone()
    try:
        return None if row is None else catalog.get(row[0])
    except catalog.UnknownGame:
        return None


def game_data(
    con: duckdb.DuckDBPyConnection, game_id: str, viewer: fr.Viewer, upto: int | None = None
) -> dict[str, Any]:
    """Everything the viewer's script needs for one game seen by `viewer` (with `upto`, as
    it stood before its event number `upto`)."""
    head = game_head(con, game_id)
    if isinstance(viewer, int) and viewer >= len(head.agents):
        raise BadRequest(
            f"seat {viewer} is not a seat of this game (seats 0 to {len(head.agents) - 1})"
        )
    rows = event_rows(con, head.game_id, viewer, upto)
    try:
        gdef: catalog.GameDef | None = catalog.get(head.game)
    except catalog.UnknownGame:
        gdef = None
    decoded: list[Any] | None = None
    note = None
    if gdef is not None:
        try:
            decoded = decode_stored(head.game, [r[4] for r in rows], head.game_id)
        except Exception as exc:  # a log the loaded module cannot read: show it raw
            note = f"the events could not be decoded ({type(exc).__name__}); shown as stored"
    else:
        note = f"the game {head.game!r} is not available here; events are shown as stored"
    seat = viewer if isinstance(viewer, int) else None
    prices = _prices()
    events: list[dict[str, Any]] = []
    notes: dict[int, str] = {}
    hidden = _hidden(gdef)
    reader = _Reader(con, head.game_id, gdef, viewer, rows, decoded)
    bare = reader.no_lineup or upto is not None  # a spectator's delayed view: no lineup
    secret = withheld_seed(con, head.game_id)
    for i, (seq, typ, turn, actor, payload) in enumerate(rows):
        fields, actor = reader.fields(i, payload, actor)
        fields = _shown_fields(fields, viewer, hidden)
        fields = seedless_fields(typ, fields, secret)
        if bare and typ == "game_started" and isinstance(fields, dict):
            fields.pop("seats", None)
        text = None
        if reader.lens is not None:
            try:
                text = reader.line(i)
            except Exception:  # a lens that fails on an odd event: fall back to the tag
                text = None
        elif decoded is not None and gdef is not None:
            try:
                text = gdef.describe(decoded[i], seat)
            except Exception:  # a describe that fails on an odd event: fall back to the tag
                text = None
        if text is not None:
            text = seedless_text(typ, text, secret)
        if gdef is not None and seat_numbered(gdef, seat):
            seq = turn = i  # the seat's own count (what it did not see is not counted)
        item: dict[str, Any] = {
            "seq": seq,
            "type": typ,
            "turn": turn,
            "actor": actor,
            "text": text if text is not None else typ.replace("_", " "),
            "fields": fields,
        }
        if typ == "scratchpad_updated" and isinstance(fields, dict):
            notes[int(fields.get("seat", -1))] = str(fields.get("notes", ""))
        if typ == "llm_call" and isinstance(fields, dict):
            item["llm"] = _llm_extra(fields, notes, prices)
        events.append(item)
    built = (
        fr.build(gdef, decoded, viewer, secret)
        if decoded is not None
        else fr.build(None, rows, viewer)
    )
    shown_head = msgspec.to_builtins(head)
    if bare:
        shown_head["agents"] = [""] * len(head.agents)
    return {
        "game": shown_head,
        "title": gdef.title if gdef is not None else head.game,
        "viewer": viewer,
        "players": len(head.agents),
        "events": events,
        "frames": built.frames,
        "index": built.index,
        "logs": built.logs,
        "meta": built.meta,
        "note": note,
    }


def _prices() -> dict[str, Any]:
    try:
        return load_prices()
    except PricesError:
        return {}


def _llm_extra(fields: dict[str, Any], notes: dict[int, str], prices: dict[str, Any]) -> dict:
    """What the decision panel adds to a model exchange: reasoning, cost, scratchpad."""
    response = str(fields.get("response", ""))
    reasoning = None
    try:
        answer = load_json(response)
        if isinstance(answer, dict) and isinstance(answer.get("reasoning"), str):
            reasoning = answer["reasoning"]
    except ValueError:
        pass
    price = price_for(str(fields.get("provider", "")), str(fields.get("model", "")), prices)
    spent = cost(int(fields.get("input_tokens", 0)), int(fields.get("output_tokens", 0)), price)
    return {
        "reasoning": reasoning,
        "cost": spent,
        "scratchpad": notes.get(int(fields.get("seat", -1)), ""),
    }


# ---- tournaments ------------------------------------------------------------------------------


def tournament_data(con: duckdb.DuckDBPyConnection, name: str) -> dict[str, Any]:
    """Standings, ratings with intervals and progress of tournament `name`."""
    from projections.ratings import SeatResult, rate

    if len(name) > 400:
        raise NotFound("no such tournament (the name is too long)")
    counts = con.execute(
        "SELECT status, count(*) FROM games WHERE tournament = ? GROUP BY status", [name]
    ).fetchall()
    if not counts:
        raise NotFound(f"no tournament {_short(name)} in this store")
    by_status = {s: int(n) for s, n in counts}
    planned = None
    try:
        got = con.execute("SELECT games FROM tournaments WHERE name = ?", [name]).fetchone()
        planned = int(got[0]) if got and got[0] else None
    except duckdb.Error:
        planned = None
    rows = con.execute(
        "SELECT r.game_id, r.seat, r.agent, r.score, r.rank FROM results r"
        " JOIN games g USING (game_id) WHERE g.status = 'finished' AND g.tournament = ?"
        " ORDER BY r.game_id, r.seat",
        [name],
    ).fetchall()
    results = [
        SeatResult(gid, seat, agent, int(score) if float(score).is_integer() else score, rank, 0)
        for gid, seat, agent, score, rank in rows
    ]
    league = is_league(con, name)
    if league:
        # A league is rated live from its finished games whose deal is played out.
        hidden = set(league_games_in_play(con))
        results = [r for r in results if r.game_id not in hidden]
    closed = tournament_in_play(con, name) and not league
    # Standings of a tournament in play would tell how its deals went for games to come.
    ratings = rate(results, shuffles=0) if results and not closed else []
    table = [
        {
            "agent": r.agent,
            "mu": r.mu,
            "sigma": r.sigma,
            "low": r.mu - 3 * r.sigma,
            "high": r.mu + 3 * r.sigma,
            "games": r.games,
            "wins": r.wins,
            "win_rate": r.win_rate,
            "median_score": r.median_score,
        }
        for r in ratings
    ]
    games = sorted({r.game for r in _games_of(con, name)})
    return {
        "name": name,
        "games": games,
        "status": by_status,
        "planned": planned,
        "finished": by_status.get("finished", 0),
        "ratings": table,
        "running": by_status.get("running", 0) > 0,
        "closed": closed,
    }


class _GameName(msgspec.Struct):
    game: str


def _games_of(con: duckdb.DuckDBPyConnection, name: str) -> list[_GameName]:
    return [
        _GameName(r[0])
        for r in con.execute(
            "SELECT DISTINCT game FROM games WHERE tournament = ?", [name]
        ).fetchall()
    ]


# ---------------------------------------------------------------------------- leagues


def league_names(con: duckdb.DuckDBPyConnection) -> list[str]:
    """The leagues of the store."""
    from events.league import leagues

    return leagues(con)


def league_options(con: duckdb.DuckDBPyConnection) -> list[dict[str, str]]:
    """Every (league, game) a person may queue for: each game of each league's file now."""
    from events.league import load_events
    from projections.league import fold

    out = []
    for name in league_names(con):
        state = fold(load_events(con, name))
        for g in state.config.games if state.config else ():
            out.append({"league": name, "game": g.game})
    return out


def league_people(con: duckdb.DuckDBPyConnection, league: str) -> dict[str, str]:
    """The people of `league` who came through the queue, with their secret's hash."""
    from events.league import load_events
    from projections.league import fold

    state = fold(load_events(con, league))
    return {n: a.secret_sha256 or "" for n, a in state.people.items()}


def league_agents(con: duckdb.DuckDBPyConnection, league: str) -> set[str]:
    """The names, in lower case, of every agent `league`'s files gave (no person's name)."""
    from events.league import load_events
    from projections.league import fold
    from runner.league import agent_names

    return agent_names(fold(load_events(con, league)))


class _Query:
    """The `query` of a store, over a connection (what the projections read through)."""

    def __init__(self, con: duckdb.DuckDBPyConnection) -> None:
        self.con = con

    def query(self, sql: str, params: Sequence[Any] = ()) -> tuple[list[str], list[tuple]]:
        cur = self.con.execute(sql, list(params))
        return [d[0] for d in cur.description or ()], cur.fetchall()


LEAGUE_SAMPLES = 200
"""Bootstrap samples of a league page's Bradley-Terry columns (`cattle league table`'s)."""


def league_data(con: duckdb.DuckDBPyConnection, name: str) -> dict[str, Any]:
    """A league's live table, per game and overall, over its games that may be shown."""
    from events.league import load_events
    from projections.league import OVERALL, fold, table

    if name not in league_names(con):
        raise NotFound(f"no league {_short(name)} in this store")
    state = fold(load_events(con, name))
    hidden = set(league_games_in_play(con))
    running = con.execute(
        "SELECT game_id FROM games WHERE tournament = ? AND status <> 'finished'", [name]
    ).fetchall()
    hidden |= {str(r[0]) for r in running}
    t = table(_Query(con), name, state, samples=LEAGUE_SAMPLES, exclude=frozenset(hidden))
    order = [g for g in t.tables if g != OVERALL] + ([OVERALL] if OVERALL in t.tables else [])
    waiting = state.scheduled - t.games
    return {
        "name": name,
        "rated": t.games,
        "rounds": len(state.rounds),
        "in_play": max(0, waiting),
        "tables": [
            {"game": g, "rows": [msgspec.to_builtins(r) for r in t.tables[g]]} for g in order
        ],
    }


def league_agent(
    con: duckdb.DuckDBPyConnection, name: str, agent: str, limit: int = 50
) -> dict[str, Any]:
    """An agent's recent finished games of a league that may be shown, newest first."""
    from events.league import load_events
    from projections.league import fold

    if name not in league_names(con):
        raise NotFound(f"no league {_short(name)} in this store")
    state = fold(load_events(con, name))
    stored = {game: s for game, by in state.identity.items() for s, a in by.items() if a == agent}
    if not stored:
        raise NotFound(f"no agent {_short(agent)} in league {_short(name)}")
    hidden = set(league_games_in_play(con))
    rows = con.execute(
        "SELECT r.game_id, g.game, r.seat, r.rank, r.score, r.agent FROM results r"
        " JOIN games g USING (game_id) WHERE g.tournament = ? AND g.status = 'finished'"
        " ORDER BY r.game_id DESC",
        [name],
    ).fetchall()
    games = [
        {"game_id": gid, "game": game, "seat": seat, "rank": rank, "score": score}
        for gid, game, seat, rank, score, seat_agent in rows
        if stored.get(game) == seat_agent and gid not in hidden
    ][:limit]
    return {"league": name, "agent": agent, "games": games}
