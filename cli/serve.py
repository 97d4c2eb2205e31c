"""`cattle serve` (the browser replay viewer over a store) and `cattle publish` (the same
viewer written as static files)."""

from __future__ import annotations

import contextlib
import ipaddress
import socket
from pathlib import Path
from typing import Annotated

import typer

from cli.common import (
    DEFAULT_DB,
    DbOption,
    ForceOption,
    UsageError,
    app,
    err,
    out,
    plural,
    replace_file,
)
from cli.text import line, plain
from events.store import DuckStore


def _listen(host: str, port: int) -> socket.socket:
    """A listening socket on host:port, or a `UsageError` saying why there can be none."""
    if not 0 <= port <= 65535:
        raise UsageError(f"--port must be between 0 and 65,535, got {port:,}")
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise UsageError(f"--host {host!r} is not an address of this machine ({exc})") from None
    family, _, _, _, address = infos[0]
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
        sock.listen(64)
    except OSError as exc:
        sock.close()
        raise UsageError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    return sock


def served_hosts(host: str) -> tuple[str, ...]:
    """The names a request's Host header may give: the loopback ones and `--host` (with the
    machine's own names when it listens on every address)."""
    from cli.web.app import LOCAL_HOSTS

    names = [*LOCAL_HOSTS, f"[{host}]" if ":" in host else host]
    with contextlib.suppress(ValueError):
        if ipaddress.ip_address(host).is_unspecified:
            names += [socket.gethostname(), socket.getfqdn()]
    return tuple(dict.fromkeys(n.lower() for n in names if n))


def _loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


MAX_DELAY = 7 * 86_400.0
"""The longest spectator delay taken, in seconds (a week)."""


@app.command()
def serve(
    db: DbOption = DEFAULT_DB,
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on (0: any free port).")] = 8765,
    seats: Annotated[
        Path | None,
        typer.Option(
            help="Folder of questions from seats played in the browser (`human?via=web`);"
            " default: $CATTLE_SEATS or data/seats."
        ),
    ] = None,
    spectator_delay: Annotated[
        float | None,
        typer.Option(
            help="Show games in play to spectators, in the view every seat shares, this many"
            " seconds behind (default: closed until they end)."
        ),
    ] = None,
) -> None:
    """Browse the stored games in a web browser: step through any game as any seat saw it,
    with every model exchange (the store is only read; a running tournament goes on).

    Who may see what. Spectators (whoever can open the address) see every finished game in
    every view; a game in play, and every game of a tournament with games still to be
    played, is closed to them until it has ended, or with --spectator-delay shown only as
    every seat saw it, that many seconds behind. A person at a `human?via=web` seat plays
    through their seat's own link, which shows that seat's prompt alone and takes its
    answers. The operator (who runs this command) gets the key of /seats on this terminal:
    that page lists the seats waiting and their links, to hand each person their own.
    """
    import uvicorn

    from agents.human.mailbox import seats_dir
    from cli.web.app import create_app

    if spectator_delay is not None and not 0 <= spectator_delay <= MAX_DELAY:
        raise UsageError(
            f"--spectator-delay must be between 0 and {MAX_DELAY:,.0f} seconds,"
            f" got {spectator_delay:g}"
        )
    # The store first: a missing or damaged file is reported before any port is taken.
    web = create_app(
        Path(db), served_hosts(host), seats or seats_dir(), spectator_delay=spectator_delay
    )
    try:
        sock = _listen(host, port)
    except BaseException:
        web.state.close()
        raise
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    address = f"http://{shown}:{bound}/"
    out.print(line("Serving {} at [bold]{}[/] (Ctrl-C to stop)", db, address))
    out.print(
        line(
            "Seats for people (the operator's page: hand each person their own link): {}",
            f"{address}seats?key={web.state.operator_key}",
        )
    )
    if not _loopback(host):
        err.print(
            line(
                "[yellow]warning:[/] listening on {}: anyone who can reach this machine can read"
                " every finished game, model prompts included",
                host,
            )
        )
    config = uvicorn.Config(web, log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    try:
        server.run(sockets=[sock])
    finally:
        with contextlib.suppress(OSError):
            sock.close()


@app.command()
def publish(
    out_dir: Annotated[Path, typer.Option("--out", "-o", help="Folder to write the site to.")],
    tournament: Annotated[
        str | None, typer.Option(help="Only the games of this tournament.")
    ] = None,
    omniscient: Annotated[
        bool,
        typer.Option(
            "--omniscient",
            help="Also publish every seat's private facts and the model exchanges"
            " (default: what every seat saw).",
        ),
    ] = False,
    limit: Annotated[
        int | None, typer.Option(help="At most this many games (the newest first).")
    ] = None,
    force: ForceOption = False,
    db: DbOption = DEFAULT_DB,
) -> None:
    """Write the replay viewer as static files (an index, one page and one JSON per game)
    that any static host can serve, or a browser can open from disk."""
    from cli.web.publish import PublishError, write_site

    if limit is not None and limit < 1:
        raise UsageError(f"--limit must be 1 or more, got {limit:,}")
    try:
        with DuckStore(db, read_only=True) as store:
            stats = write_site(
                store.con,
                out_dir,
                tournament=tournament,
                omniscient=omniscient,
                limit=limit,
                force=force,
                make_way=lambda path: replace_file(path, "--out", db),
            )
    except PublishError as exc:
        raise UsageError(str(exc)) from None
    out.print(
        line(
            f"Wrote {stats.games:,} game{'' if stats.games == 1 else 's'}"
            f" ({stats.bytes / 1e6:.1f} MB) to [bold]{{}}[/]; open {{}}",
            out_dir,
            out_dir / "index.html",
        )
    )
    if stats.in_play:
        out.print(
            plain(
                f"{plural(stats.in_play, 'game')} in play (or of a tournament in play)"
                f" {'is' if stats.in_play == 1 else 'are'} listed"
                " without their agents and get their pages once they have ended."
            )
        )
