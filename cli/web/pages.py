"""HTML pages from the package's templates (autoescaped: stored text is never markup)."""

from __future__ import annotations

from importlib import resources
from typing import Any
from urllib.parse import urlencode

import jinja2
import msgspec
from markupsafe import Markup

ASSETS = resources.files("cli.web")

_env = jinja2.Environment(
    loader=jinja2.FileSystemLoader(str(ASSETS / "templates")),
    autoescape=True,
    undefined=jinja2.StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
)


def script_json(value: Any) -> Markup:
    """`value` as JSON safe inside a `<script type="application/json">` element.

    The characters that could end the element or start markup are written as JSON escapes,
    so a stored `</script>` stays text however the data was made.
    """
    text = msgspec.json.encode(value).decode()
    for ch, esc in (
        ("<", "\\u003c"),
        (">", "\\u003e"),
        ("&", "\\u0026"),
        ("\u2028", "\\u2028"),
        ("\u2029", "\\u2029"),
    ):
        text = text.replace(ch, esc)
    return Markup(text)


_env.filters["script_json"] = script_json
_env.filters["query"] = lambda params: urlencode(params)

SITE_NAME = "Game replays"
"""The site's name in every header and title: it holds every game of the store, whatever
its family, not one game's."""
SITE_HOLDS = "games played by models, code agents and people, move by move"
"""The line beside the name that says what the site holds."""
_env.globals.update(site_name=SITE_NAME, site_holds=SITE_HOLDS)


def render(name: str, **context: Any) -> str:
    """The page of template `name` with `context`."""
    return _env.get_template(name).render(**context)


def asset(name: str) -> bytes:
    """A static file shipped with the package."""
    return (ASSETS / "static" / name).read_bytes()


STATIC_FILES = ("style.css", "viewer.js", "list.js", "tournament.js")
"""Every static asset of the replays (served under /static/, copied by `publish`)."""
SEAT_FILES = ("seat.js", "join.js")
"""The static assets of the seat pages (served only: a published site takes no seats)."""
