"""The viewer as static files: an index, one page and one JSON file per game, the assets.

Pages read their game from data embedded in them (a browser opening a page from disk may not
fetch a neighbouring file), so every page works from a static host and from `file://`.
Games are published in the public view (what every seat saw) unless told otherwise.
"""

from __future__ import annotations

import hashlib
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import duckdb
import msgspec

from cli.web import data, draw, pages

# Published pages carry their policy in a meta element: only the site's own scripts and styles.
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
    " base-uri 'none'; form-action 'none'"
)

_SAFE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")


class PublishError(ValueError):
    """The site cannot be written as asked."""


class SiteStats(msgspec.Struct):
    """What was written."""

    games: int
    bytes: int
    seconds: float
    in_play: int = 0
    """Games listed in the index without a page: in play, or of a tournament in play."""


def file_name(game_id: str) -> str:
    """A file name for a game: its id when that is a plain name, else a digest of it."""
    if _SAFE.fullmatch(game_id) and not game_id.endswith("."):
        return game_id
    return "g-" + hashlib.sha256(game_id.encode()).hexdigest()[:20]


MARKER = ".cattle-site"
"""The file that marks a folder as a site `publish` wrote: a later publish may rewrite it."""


def check_dir(out: Path, *, force: bool = False) -> None:
    """Refuse a folder that is a file, or that holds files and is no site written before
    (unless `force`)."""
    if out.exists() and not out.is_dir():
        raise PublishError(f"--out {out} is a file; name a folder")
    if out.is_dir() and any(out.iterdir()) and not (out / MARKER).is_file() and not force:
        raise PublishError(
            f"--out {out} holds other files and no site written by publish; name a new or"
            " empty folder, or pass --force"
        )


class _Writer:
    """Writes the site's files, each anew (a link in its place is removed, never followed),
    and remembers them."""

    def __init__(self, out: Path, make_way: Callable[[Path], None] | None) -> None:
        self.out = out
        self.make_way = make_way
        self.written: set[Path] = set()

    def __call__(self, rel: str, blob: bytes) -> int:
        path = self.out / rel
        if self.make_way is not None:
            self.make_way(path)
        elif path.is_symlink():
            path.unlink()
        path.write_bytes(blob)
        self.written.add(path)
        return len(blob)

    def sweep(self) -> None:
        """Remove every file of the site's folders that this site does not hold (an earlier
        site's games, its omniscient pages)."""
        for folder in ("games", "static", "leagues"):
            if not (self.out / folder).is_dir():
                continue
            for path in (self.out / folder).iterdir():
                if path not in self.written and (path.is_file() or path.is_symlink()):
                    path.unlink()


def write_site(
    con: duckdb.DuckDBPyConnection,
    out: Path,
    *,
    tournament: str | None = None,
    omniscient: bool = False,
    limit: int | None = None,
    force: bool = False,
    make_way: Callable[[Path], None] | None = None,
) -> SiteStats:
    """Write the site for the selected games into `out` (a new or empty folder, a site
    written before, or any folder with `force`), and remove what the new site does not hold.

    `make_way(path)` runs before each file is written (to refuse or clear what is there).
    """
    t0 = time.perf_counter()
    sql = "SELECT game_id FROM games"
    params: list[Any] = []
    if tournament is not None:
        sql += " WHERE tournament = ?"
        params.append(tournament)
    sql += " ORDER BY created_at DESC NULLS LAST, game_id"
    if limit is not None:
        sql += f" LIMIT {min(int(limit), 2**63 - 1)}"  # more than any store holds: all
    ids = [r[0] for r in con.execute(sql, params).fetchall()]
    if not ids:
        where = f" in tournament {tournament!r}" if tournament is not None else ""
        raise PublishError(f"no games{where} to publish")
    check_dir(out, force=force)
    try:
        (out / "games").mkdir(parents=True, exist_ok=True)
        (out / "static").mkdir(exist_ok=True)
    except OSError as exc:
        raise PublishError(f"cannot create {out}: {exc.strerror or exc}") from None
    write = _Writer(out, make_way)
    write(MARKER, b"A site written by cattle publish; a later publish may rewrite it.\n")
    written = 0
    for name in pages.STATIC_FILES:
        written += write(f"static/{name}", pages.asset(name))
    common = {"base": "../", "static_dir": "static/", "csp": CSP, "home": "../index.html"}
    lines = data.lines_of(con, ids)
    shown = 0
    for game_id, listed in zip(ids, lines, strict=True):
        if listed.in_play:
            continue  # listed without its lineup; no page until it (and its tournament) ends
        shown += 1
        head = data.game_head(con, game_id)
        stem = file_name(game_id)
        views: list[tuple[Any, str, str]] = [(data.PUBLIC, stem, "What every seat saw")]
        if omniscient:
            views.append((None, f"{stem}.all", "Everyone (all private facts)"))
        for viewer, file_stem, _label in views:
            payload = data.game_data(con, game_id, viewer)
            blob = msgspec.json.encode(payload)
            written += write(f"games/{file_stem}.json", blob)
            payload["at"] = -1
            links = [
                {"label": label, "seat": "", "href": f"{s}.html", "current": s == file_stem}
                for _v, s, label in views
            ]
            html = pages.render(
                "game.html",
                head=head,
                viewer=viewer,
                payload=payload,
                drawings=draw.drawings(payload),
                views=links,
                link_list="../index.html",
                link_tournament=None,
                **common,
            )
            written += write(f"games/{file_stem}.html", html.encode())
    index = pages.render(
        "list.html",
        lines=lines,
        total=len(lines),
        query=data.ListQuery(),
        last=1,
        choices={
            "games": sorted({g.game for g in lines}),
            "tournaments": sorted({g.tournament for g in lines if g.tournament}),
            "statuses": list(data.STATUSES),
        },
        per_page=len(lines),
        base="",
        static_dir="static/",
        csp=CSP,
        home="index.html",
        static_site=True,
        form_action="index.html",
        game_href=lambda gid: f"games/{file_name(gid)}.html",
    )
    written += write("index.html", index.encode())
    # A league's table, over its games that may be shown (as `cattle serve` gives it).
    leagues = set(data.league_names(con))
    for name in sorted({g.tournament for g in lines if g.tournament in leagues}):
        (out / "leagues").mkdir(exist_ok=True)
        html = pages.render(
            "league.html", info=data.league_data(con, name), static_site=True, **common
        )
        written += write(f"leagues/{file_name(name)}.html", html.encode())
    write.sweep()
    return SiteStats(
        games=shown, bytes=written, seconds=time.perf_counter() - t0, in_play=len(ids) - shown
    )
