"""The live viewer: a Starlette app over a store opened read-only.

The file is opened for each request and let go right after, so a tournament writing to it is
held back for one request at most (the writer waits for readers, see events.store).
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import secrets
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import duckdb
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from cli.web import data, draw, pages
from events.store import READ_WAIT, DuckStore, StoreError, connect, lock_wait, readers_waiting

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
    " connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
"""Scripts and styles from this server only: no inline script can run, whatever a page holds."""

HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}
SEAT_HEADERS = {**HEADERS, "Referrer-Policy": "same-origin"}
"""A seat page's: its posts then name their origin (under `no-referrer` a browser sends
`Origin: null`, which the cross-site check refuses), and nothing leaves for another site."""

_TYPES = {".css": "text/css; charset=utf-8", ".js": "text/javascript; charset=utf-8"}


class Reader:
    """The store, read-only, shared by requests one at a time.

    The file stays open between requests while nobody else wants it, and is let go as soon as
    another process waits for it (a tournament's writer leaves a note, see
    `events.store.readers_waiting`): after the request in progress, or within a tenth of a
    second when idle. The next request opens it again and sees what was written meanwhile.
    """

    def __init__(self, path: Path) -> None:
        self.path = str(path)
        DuckStore(path, read_only=True).close()  # a missing, damaged or foreign file: now
        self._con: duckdb.DuckDBPyConnection | None = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._watch = threading.Thread(target=self._watch_loop, daemon=True, name="reader")
        self._watch.start()

    @contextlib.contextmanager
    def con(self) -> Iterator[duckdb.DuckDBPyConnection]:
        """The read-only connection, for the length of the block."""
        with self._lock:
            if self._con is None:
                self._con = connect(self.path, read_only=True, wait=lock_wait(READ_WAIT))
            try:
                yield self._con
            finally:
                if readers_waiting(self.path):
                    self._close()

    def _close(self) -> None:
        if self._con is not None:
            with contextlib.suppress(duckdb.Error):
                self._con.close()
            self._con = None

    def _watch_loop(self) -> None:
        while not self._stop.wait(0.1):
            if self._con is not None and readers_waiting(self.path):
                with self._lock:
                    self._close()

    def close(self) -> None:
        """Stop watching and let the file go."""
        self._stop.set()
        with self._lock:
            self._close()


MAX_FORM = 65_536
"""The largest answer form a seat page accepts, in bytes."""


class TooLarge(ValueError):
    """A request body over its limit (read no further than the limit)."""


async def read_body(request: Request, limit: int) -> bytes:
    """The request's body, or `TooLarge` as soon as it is known to pass `limit` bytes: from a
    declared length before anything is read, else (chunked) once the bytes read pass it."""
    declared = request.headers.get("content-length")
    if declared is not None:
        if not (declared.isascii() and declared.isdigit()):
            raise data.BadRequest("the request's Content-Length is not a number")
        if int(declared) > limit:
            raise TooLarge
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise TooLarge
    return bytes(body)


class Delay:
    """A spectator's delay: a game in play is shown as this server saw it `seconds` ago.

    The store keeps no time per event, so the server notes when it first saw each count of
    a game's events (whenever a page of the game is asked for) and shows the count it saw at
    least `seconds` before; a game first asked for now is shown `seconds` from now.
    """

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._seen: dict[str, list[tuple[float, int]]] = {}
        self._lock = threading.Lock()

    def shown(self, game_id: str, count: int, now: float | None = None) -> int | None:
        """How many of the game's `count` events a spectator sees at `now` (monotonic
        seconds; default: the clock), or None while the server has not seen it long enough."""
        now = time.monotonic() if now is None else now
        with self._lock:
            marks = self._seen.setdefault(game_id, [])
            if not marks or count > marks[-1][1]:
                marks.append((now, count))
            ready = [i for i, (at, _) in enumerate(marks) if at <= now - self.seconds]
            if not ready:
                return None
            del marks[: ready[-1]]  # older marks than the one shown are never needed again
            return marks[0][1]

    def left(self, game_id: str, now: float | None = None) -> float:
        """Seconds until the first events of the game seen by this server are shown."""
        now = time.monotonic() if now is None else now
        with self._lock:
            marks = self._seen.get(game_id)
            first = marks[0][0] if marks else now
        return max(0.0, first + self.seconds - now)


LOCAL_HOSTS = ("127.0.0.1", "localhost", "[::1]")
"""The names a request may give in its Host header by default: this machine's loopback."""


def create_app(
    db: Path,
    hosts: Sequence[str] = LOCAL_HOSTS,
    seats: Path | None = None,
    *,
    spectator_delay: float | None = None,
    operator_key: str | None = None,
) -> Starlette:
    """The viewer's app over the store at `db`, answering requests addressed to `hosts`;
    with `seats`, people take seats of games waiting on them from that question directory
    (`agents.human.mailbox`).

    A game in play (and every game of a tournament in play) is closed until it ends, or with
    `spectator_delay` shown in its public view as it stood that many seconds before. The
    seats waiting on people are listed only at ``/seats?key=`` with `operator_key` (a fresh
    random one when not given: `app.state.operator_key`); each person gets their seat's own
    link from the operator.
    """
    reader = Reader(db)
    winners = data.Winners()
    delay = Delay(spectator_delay) if spectator_delay is not None else None
    key = operator_key or secrets.token_urlsafe(24)

    def warm() -> None:
        # Read every result once, in the background: the first pages need not wait for it.
        with contextlib.suppress(StoreError, duckdb.Error), reader.con() as con:
            winners.load_all(con)

    def page(html: str, status: int = 200, headers: dict[str, str] = HEADERS) -> HTMLResponse:
        return HTMLResponse(html, status_code=status, headers=headers)

    def error(
        status: int, message: str, *, api: bool = False, seat: bool = False, back: str = ""
    ) -> Response:
        headers = SEAT_HEADERS if seat else HEADERS
        if api:
            return JSONResponse({"error": message}, status_code=status, headers=headers)
        html = pages.render("error.html", status=status, message=message, base="", back=back)
        return page(html, status, headers)

    def gate(con: duckdb.DuckDBPyConnection, game_id: str, viewer: Any) -> tuple[Any, int | None]:
        """The view a request for game `game_id` as `viewer` gets, and how many of its events
        (None: all); `data.Closed` while the game is in play and no spectator may see it."""
        why = data.in_play(con, game_id)
        if why is None:
            return viewer, None
        closed = f"game {game_id} is closed while it is in play ({why})"
        if delay is None:
            raise data.Closed(f"{closed}; its pages open when it has ended")
        if isinstance(viewer, int):
            raise data.Closed(
                f"{closed}; spectators see only what every seat saw (?seat=public),"
                f" {delay.seconds:g} s behind"
            )
        if data.dealt_elsewhere(con, game_id):
            raise data.Closed(
                f"{closed}; another game dealt from the same seed is still to be played"
            )
        upto = delay.shown(game_id, data.event_count(con, game_id))
        if upto is None:
            raise data.Closed(
                f"{closed}; spectators see it {delay.seconds:g} s behind: come back in"
                f" {delay.left(game_id):.0f} s"
            )
        return data.PUBLIC, upto

    def guarded(fn: Any, *, api: bool = False) -> Any:
        def endpoint(request: Request) -> Response:
            try:
                return fn(request)
            except data.BadRequest as exc:
                return error(400, str(exc), api=api)
            except data.NotFound as exc:
                return error(404, str(exc), api=api)
            except data.Closed as exc:
                return error(403, str(exc), api=api)
            except (StoreError, duckdb.Error) as exc:
                line = str(exc).strip().splitlines()[0] if str(exc).strip() else "store error"
                return error(503, f"the store cannot be read now: {line}", api=api)

        return endpoint

    def guarded_async(fn: Any, *, api: bool = False) -> Any:
        """`guarded` for an endpoint that reads its request's body."""

        async def endpoint(request: Request) -> Response:
            try:
                return await fn(request)
            except data.BadRequest as exc:
                return error(400, str(exc), api=api)
            except data.NotFound as exc:
                return error(404, str(exc), api=api)
            except (StoreError, duckdb.Error) as exc:
                line = str(exc).strip().splitlines()[0] if str(exc).strip() else "store error"
                return error(503, f"the store cannot be read now: {line}", api=api)

        return endpoint

    def games_page(request: Request) -> Response:
        query = data.ListQuery.from_params(request.query_params)
        with reader.con() as con:
            play = data.in_play_now(con)
            lines, total = data.list_games(con, query, winners, play)
            offered = data.choices(con, play)
        last = max(1, -(-total // data.PER_PAGE))
        return page(
            pages.render(
                "list.html",
                lines=lines,
                total=total,
                query=query,
                last=last,
                choices=offered,
                per_page=data.PER_PAGE,
                base="",
            )
        )

    def game_page(request: Request) -> Response:
        game_id = request.path_params["game_id"]
        with reader.con() as con:
            head = data.game_head(con, game_id)
            viewer = data.parse_viewer(request.query_params.get("seat"), len(head.agents))
            at = data.parse_int("at", request.query_params.get("at"), 0, 2**31 - 1, -1)
            viewer, upto = gate(con, head.game_id, viewer)
            payload = data.game_data(con, game_id, viewer, upto)
        payload["at"] = at
        views = _views(head, viewer)
        if upto is not None and delay is not None:
            label = f"What every seat saw, {delay.seconds:g} s behind (the game is in play)"
            views = [{"label": label, "seat": "public", "current": True}]
        return page(
            pages.render(
                "game.html",
                head=head,
                viewer=viewer,
                payload=payload,
                drawings=draw.drawings(payload),
                base="",
                static=True,
                views=views,
                link_list="/",
                link_tournament=f"/tournaments/{head.tournament}" if head.tournament else None,
            )
        )

    def events_api(request: Request) -> Response:
        game_id = request.path_params["game_id"]
        with reader.con() as con:
            head = data.game_head(con, game_id)
            viewer = data.parse_viewer(request.query_params.get("seat"), len(head.agents))
            viewer, upto = gate(con, head.game_id, viewer)
            events = data.api_events(con, head.game_id, viewer, upto)
        return JSONResponse(events, headers=HEADERS)

    def game_api(request: Request) -> Response:
        game_id = request.path_params["game_id"]
        with reader.con() as con:
            head = data.game_head(con, game_id)
            viewer = data.parse_viewer(request.query_params.get("seat"), len(head.agents))
            viewer, upto = gate(con, head.game_id, viewer)
            payload = data.game_data(con, head.game_id, viewer, upto)
        return JSONResponse(payload, headers=HEADERS)

    def tournament_page(request: Request) -> Response:
        name = request.path_params["name"]
        with reader.con() as con:
            info = data.tournament_data(con, name)
        return page(pages.render("tournament.html", info=info, base=""))

    def tournament_api(request: Request) -> Response:
        name = request.path_params["name"]
        with reader.con() as con:
            info = data.tournament_data(con, name)
        return JSONResponse(info, headers=HEADERS)

    def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in pages.STATIC_FILES + pages.SEAT_FILES:
            return error(404, "no such file")
        suffix = name[name.rfind(".") :]
        return Response(
            pages.asset(name),
            media_type=_TYPES.get(suffix, "application/octet-stream"),
            headers={k: v for k, v in HEADERS.items() if k != "Cache-Control"},
        )

    def seats_page(request: Request) -> Response:
        from agents.human.mailbox import waiting

        given = request.query_params.get("key")
        if given is None:
            return page(pages.render("seats.html", questions=None, key="", base=""))
        if not hmac.compare_digest(given.encode(), key.encode()):
            return error(403, "this is not the operator's key of this viewer")
        found = waiting(seats) if seats is not None else []
        base = str(request.base_url).rstrip("/")
        return page(pages.render("seats.html", questions=found, key=given, home=base, base=""))

    async def seat_page(request: Request) -> Response:
        from agents.human.mailbox import answer_line, post_answer, question

        if seats is None:
            return error(404, "this viewer takes no seats")
        token = request.path_params["token"]
        q = question(seats, token)
        if request.method == "POST":
            if not same_origin(request):
                return error(403, "answers come from this viewer's own page", seat=True)
            if q is None:
                return error(
                    409,
                    "this decision is not waiting now (answered, timed out or never"
                    " asked): the answer was not used",
                    seat=True,
                )
            try:
                body = await read_body(request, MAX_FORM)
            except TooLarge:
                return error(413, f"an answer is at most {MAX_FORM:,} bytes", seat=True)
            except data.BadRequest as exc:
                return error(400, str(exc), seat=True)
            # The form is url-encoded (the page's own form); parsed here, no extra library.
            form = {k: v[0] for k, v in parse_qs(body.decode("utf-8", "replace")).items()}
            if not post_answer(seats, token, answer_line(q.get("schema"), form)):
                # Two posts before the seat read the first (a double click): the first stands.
                back = f"/seats/desk/{q['desk']}" if q.get("desk") else f"/seats/{token}"
                said = "an answer to this decision is already in and is played; this one was not"
                return error(409, f"{said} used", seat=True, back=back)
            await read_by_seat(seats, token, len(q.get("notes", [])))
            where = f"/seats/desk/{q['desk']}" if q.get("desk") else f"/seats/{token}"
            return Response(status_code=303, headers={**SEAT_HEADERS, "Location": where})
        if q is None:
            return page(pages.render("seat_gone.html", base=""), headers=SEAT_HEADERS)
        return seat_html(q)

    def seat_html(q: dict[str, Any]) -> Response:
        form = form_fields(q.get("schema"))
        drawn = draw.seat_drawing(q.get("name"), q.get("frame"))
        return page(
            pages.render("seat.html", q=q, form=form, drawing=drawn, base=""),
            headers=SEAT_HEADERS,
        )

    def desk_page(request: Request) -> Response:
        from agents.human.mailbox import desk_state, page_back, question

        if seats is None:
            return error(404, "this viewer takes no seats")
        desk = request.path_params["desk"]
        page_back(seats, desk)
        state = desk_state(seats, desk)
        q = question(seats, state["token"]) if state["token"] else None
        if q is not None:
            return seat_html(q)
        html = pages.render("seat_wait.html", desk=desk, state=state, base="")
        return page(html, headers=SEAT_HEADERS)

    def league_page(request: Request) -> Response:
        with reader.con() as con:
            info = data.league_data(con, request.path_params["name"])
        return page(pages.render("league.html", info=info, base=""))

    def league_agent_page(request: Request) -> Response:
        p = request.path_params
        with reader.con() as con:
            info = data.league_agent(con, p["name"], p["agent"])
        return page(pages.render("league_agent.html", info=info, base=""))

    def league_api(request: Request) -> Response:
        with reader.con() as con:
            info = data.league_data(con, request.path_params["name"])
        return JSONResponse(info, headers=HEADERS)

    def join_page(request: Request) -> Response:
        with reader.con() as con:
            options = data.league_options(con)
        html = pages.render("join.html", options=options if seats is not None else [], base="")
        return page(html, headers=SEAT_HEADERS)

    async def join_api(request: Request) -> Response:
        from agents.human import lobby

        if seats is None:
            return error(404, "this viewer takes no seats", api=True)
        if not same_origin(request):
            return error(403, "a join comes from this viewer's own page", api=True)
        try:
            body = await _json_body(request)
        except TooLarge:
            return error(413, f"a request here is at most {MAX_JSON:,} bytes", api=True)
        if body is None:
            return error(400, "send a JSON object: name, league, game, secret", api=True)
        league, game = str(body.get("league", "")), str(body.get("game", ""))
        name, secret = str(body.get("name", "")), str(body.get("secret", ""))
        with reader.con() as con:
            # A name is held across the leagues of the store (the seats folder and the
            # seat links are shared) and in every letter case (the table would show two
            # names that read as one).
            held = [
                (n, h)
                for lg in data.league_names(con)
                for n, h in data.league_people(con, lg).items()
                if n.lower() == name.lower()
            ]
            options = data.league_options(con)
            agents = data.league_agents(con, league)
        if {"league": league, "game": game} not in options:
            return error(404, "no such league and game here", api=True)
        if name.lower() in agents:
            return error(409, "this is the name of an agent of the league", api=True)
        spelled = {n for n, _ in held if n != name}
        if spelled:
            return error(409, f"this name is taken (as {min(spelled)})", api=True)
        hashes = sorted({h for _, h in held})
        if len(hashes) > 1:
            return error(409, "this name is taken (by another browser's secret)", api=True)
        refused = lobby.join(seats, league, name, game, secret, hashes[0] if hashes else None)
        if refused is not None:
            return error(409, refused, api=True)
        return JSONResponse({"queued": True}, headers=SEAT_HEADERS)

    async def seat_api(request: Request) -> Response:
        from agents.human import lobby

        if seats is None:
            return error(404, "this viewer takes no seats", api=True)
        try:
            body = await _json_body(request)
        except TooLarge:
            return error(413, f"a request here is at most {MAX_JSON:,} bytes", api=True)
        if body is None:
            return error(400, "send a JSON object: name, secret", api=True)
        name, secret = str(body.get("name", "")), str(body.get("secret", ""))
        with reader.con() as con:
            known = {
                n: h
                for lg in data.league_names(con)
                for n, h in data.league_people(con, lg).items()
            }
        queued = {str(d["name"]): str(d["secret_sha256"]) for d in lobby.queued(seats)}
        digest = known.get(name) or queued.get(name)
        if not lobby.holds(digest, secret):
            return error(403, "no seat for this name and this browser's secret", api=True)
        desk = lobby.seat_of(seats, name) if name in known else None
        return JSONResponse(
            {"desk": desk, "waiting": lobby.waits(seats, name)}, headers=SEAT_HEADERS
        )

    async def desk_api(request: Request) -> Response:
        from agents.human.mailbox import page_back

        if seats is None:
            return error(404, "this viewer takes no seats", api=True)
        desk = request.path_params["desk"]
        # Every look of a page takes back a closed mark (a reload); only at its start, so that
        # a look held open when its page closed does not take back the page's last word.
        page_back(seats, desk, request.query_params.get("page", "")[:64] or None)
        # With ?token=&notes= (what the page shows now) the answer waits, a few seconds at
        # most, until the seat moves on: the page learns of its next decision at once.
        shown = (request.query_params.get("token") or None, request.query_params.get("notes"))
        deadline = time.monotonic() + (LONG_POLL if shown[1] is not None else 0.0)
        while True:
            state = desk_state_now(seats, desk)
            moved = (state["token"], str(state.get("notes", 0))) != shown
            if moved or state["over"] or state["gone"] or time.monotonic() >= deadline:
                return JSONResponse(state, headers=HEADERS)
            await asyncio.sleep(0.1)

    def leave_api(request: Request) -> Response:
        from agents.human.mailbox import page_left

        if seats is None:
            return error(404, "this viewer takes no seats", api=True)
        if not same_origin(request):
            return error(403, "only this viewer's own page leaves its seat", api=True, seat=True)
        page = request.query_params.get("page", "")[:64] or None
        marked = page_left(seats, request.path_params["desk"], page)
        return JSONResponse({"marked": marked}, headers=HEADERS)

    def not_found(request: Request, exc: Exception) -> Response:
        return error(404, "no such page", api=request.url.path.startswith("/api/"))

    routes = [
        Route("/", guarded(games_page)),
        Route("/games/{game_id:path}", guarded(game_page)),
        Route("/api/games/{game_id}/events", guarded(events_api, api=True)),
        Route("/api/games/{game_id}", guarded(game_api, api=True)),
        Route("/tournaments/{name:path}", guarded(tournament_page)),
        Route("/api/tournaments/{name:path}", guarded(tournament_api, api=True)),
        Route("/seats", seats_page),
        Route("/league/join", guarded(join_page)),
        Route("/leagues/{name}/agents/{agent}", guarded(league_agent_page)),
        Route("/leagues/{name}", guarded(league_page)),
        Route("/api/leagues/{name}", guarded(league_api, api=True)),
        Route("/api/league/join", guarded_async(join_api, api=True), methods=["POST"]),
        Route("/api/league/seat", guarded_async(seat_api, api=True), methods=["POST"]),
        Route("/seats/desk/{desk}", desk_page),
        Route("/seats/{token}", seat_page, methods=["GET", "POST"]),
        Route("/api/seats/{desk}", desk_api),
        Route("/api/seats/{desk}/leave", leave_api, methods=["POST"]),
        Route("/static/{name}", static),
        Route("/favicon.ico", lambda _request: Response(status_code=204)),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> Any:
        threading.Thread(target=warm, daemon=True, name="results").start()
        yield
        reader.close()

    made = Starlette(
        lifespan=lifespan,
        routes=routes,
        exception_handlers={404: not_found, 405: not_found},
        middleware=[
            # A page elsewhere whose name is made to resolve to this machine (DNS rebinding)
            # sends its own name as Host: refuse it, so it cannot read the games.
            Middleware(TrustedHostMiddleware, allowed_hosts=list(hosts), www_redirect=False),
            Middleware(GZipMiddleware, minimum_size=2000),
        ],
    )
    made.state.operator_key = key
    made.state.close = reader.close  # for a caller that never starts it
    return made


LONG_POLL = 3.0
"""Seconds a seat page's question "has my seat moved on?" is held open when it has not."""


def desk_state_now(seats: Path, desk: str) -> dict[str, Any]:
    """Where seat `desk` stands (`agents.human.mailbox.desk_state`), with the notes count and
    the seconds left of the question waiting."""
    from agents.human.mailbox import desk_state, question

    state = desk_state(seats, desk)
    q = question(seats, state["token"]) if state["token"] else None
    if q is not None:
        state["notes"] = len(q.get("notes", []))
        asked = float(q.get("asked_at", 0.0))
        state["left"] = max(0.0, round(float(q.get("timeout", 0)) - (time.time() - asked), 1))
    return state


ANSWER_WAIT = 2.0
"""Seconds an answer's post waits for the seat to read it, so that the page it leads to
shows the outcome (the next decision, or why the answer was refused) at once."""


async def read_by_seat(seats: Path, token: str, notes: int) -> None:
    """Wait (at most `ANSWER_WAIT` s) until the seat has read the answer to `token`: the
    question is gone or has a new note."""
    from agents.human.mailbox import question

    deadline = time.monotonic() + ANSWER_WAIT
    noted: float | None = None
    while time.monotonic() < deadline:
        q = question(seats, token)
        if q is None:
            await asyncio.sleep(0.1)  # the seat's next question may follow at once
            return
        if len(q.get("notes", [])) > notes:
            # A refusal stays; a played answer's note is followed by the question's end.
            noted = noted or time.monotonic()
            if time.monotonic() - noted > 0.3:
                return
        await asyncio.sleep(0.05)


MAX_JSON = 4096
"""The largest JSON body the league's posts take, in bytes."""


async def _json_body(request: Request) -> dict[str, Any] | None:
    """The request's body as a JSON object of at most `MAX_JSON` bytes, or None; `TooLarge`
    as soon as it is known to be longer (read no further)."""
    try:
        raw = await read_body(request, MAX_JSON)
    except data.BadRequest:
        return None
    try:
        doc = json.loads(raw)
    except ValueError:
        return None
    return doc if isinstance(doc, dict) else None


def same_origin(request: Request) -> bool:
    """A form post sent by a page of this server (a browser names the page's origin): not
    one another site's page makes a visitor's browser send. `Origin: null` (a sandboxed
    frame, a page from disk, a redirect from elsewhere) is no origin of this server."""
    fetched = request.headers.get("sec-fetch-site")
    if fetched is not None and fetched not in ("same-origin", "none"):
        return False
    origin = request.headers.get("origin")
    if origin is None:
        referer = request.headers.get("referer", "")
        return not referer or referer.split("/")[2:3] == [request.headers.get("host", "")]
    return origin.split("://", 1)[-1] == request.headers.get("host", "")


def form_fields(schema: dict[str, Any] | None) -> list[dict[str, Any]]:
    """One form input per answer field of a decision's JSON schema (the free reasoning left
    out): a choice list for an enum, a number box with the schema's bounds, a line for a
    list of values, a text box otherwise."""
    out: list[dict[str, Any]] = []
    for key, prop in (schema or {}).get("properties", {}).items():
        if key == "reasoning":
            continue
        items = prop.get("items", {}) if prop.get("type") == "array" else {}
        out.append(
            {
                "key": key,
                "type": prop.get("type", "string"),
                "options": prop.get("enum"),
                "min": prop.get("minimum"),
                "max": prop.get("maximum"),
                "step": prop.get("multipleOf"),
                "items": items.get("enum"),
            }
        )
    return out


def _views(head: data.GameHead, viewer: Any) -> list[dict[str, Any]]:
    """The "view as" choices: everyone, then each seat (without its agent on a seat's page
    of a game that keeps its lineup from the seats while it runs)."""
    from events import catalog
    from projections.timeline import lineup_hidden

    try:
        gdef: catalog.GameDef | None = catalog.get(head.game)
    except catalog.UnknownGame:
        gdef = None
    bare = lineup_hidden(gdef, viewer is None, head.status == "finished")
    out = [{"label": "Everyone", "seat": "", "current": viewer is None}]
    for i, agent in enumerate(head.agents):
        label = f"Seat {i}" if bare else f"Seat {i}: {agent}"
        out.append({"label": label, "seat": str(i), "current": viewer == i})
    return out
