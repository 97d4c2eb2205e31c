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
    replace_file,
)
from cli.text import line
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


@app.command()
def serve(
    db: DbOption = DEFAULT_DB,
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on (0: any free port).")] = 8765,
    seats: Annotated[
        Path | None,
        typer.Option(
            help="Folder of questions from seats played in the browser (`human?via=web`);"
            " default: $CATTLE_SEATS or data/seats. Open /seats to take one."
        ),
    ] = None,
) -> None:
    """Browse the stored games in a web browser: step through any game as any seat saw it,
    with every model exchange (the store is only read; a running tournament goes on).
    Games waiting on a person (`human?via=web` seats) are listed at /seats, each with
    a form."""
    import uvicorn

    from agents.human.mailbox import seats_dir
    from cli.web.app import create_app

    sock = _listen(host, port)
    try:
        web = create_app(
            Path(db), served_hosts(host), seats or seats_dir()
        )  # a missing or damaged file is reported now
    except BaseException:
        sock.close()
        raise
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    out.print(line("Serving {} at [bold]{}[/] (Ctrl-C to stop)", db, f"http://{shown}:{bound}/"))
    if not _loopback(host):
        err.print(
            line(
                "[yellow]warning:[/] listening on {}: anyone who can reach this machine can read"
                " every game, model prompts included",
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
