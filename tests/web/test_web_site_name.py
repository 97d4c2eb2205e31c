"""The site names what it holds (every game of the store), not one game, on every page."""

from __future__ import annotations

import re

from starlette.testclient import TestClient
from webkit import Games

from cli.web.app import create_app
from cli.web.pages import SITE_NAME


def test_every_page_names_the_site_not_one_game(games: Games) -> None:
    with TestClient(create_app(games.db), base_url="http://127.0.0.1") as client:
        for url in ("/", f"/games/{games.pact}", f"/games/{games.cattle}?seat=0", "/nothing"):
            html = client.get(url).text
            title = re.search(r"<title>(.*?)</title>", html, re.S)
            brand = re.search(r'class="brand"[^>]*>(.*?)</a>', html, re.S)
            assert title is not None and brand is not None
            assert brand.group(1) == SITE_NAME, url
            assert title.group(1).endswith(SITE_NAME), url
            assert "Cattle Trade replays" not in html, url
        game = client.get(f"/games/{games.pact}").text
        assert re.search(r"<title>PACT [^<]*</title>", game), "a game's title names its game"
