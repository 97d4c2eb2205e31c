"""The loopback stand-in as a server any client may reach: a malformed request is answered
with 400 and a JSON error (the connection is never just dropped), and its TextArena
Codenames seats play the board they are shown."""

from __future__ import annotations

import http.client
import json
import re

import pytest

from agents import make_agents
from agents.llm.loopback import Incoming, LegalPolicy, LoopbackServer
from events import catalog
from events.textarena.game import InvalidMove
from runner.driver import Game

BAD_BODIES = {
    "not json": b"{not json",
    "not utf-8": b'{"messages": "\xff\xfe"}',
    "an array": b"[]",
    "null": b"null",
    "messages not a list": b'{"messages": 5}',
    "a message not an object": b'{"messages": [1, 2]}',
    "a message without a role": b'{"messages": [{"content": "hi"}]}',
    "nested deep": b'{"messages": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
}


def _post(srv: LoopbackServer, path: str, body: bytes, length: str | None = None) -> tuple:
    con = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=30)
    try:
        con.putrequest("POST", path)
        con.putheader("content-type", "application/json")
        con.putheader("content-length", length if length is not None else str(len(body)))
        con.endheaders()
        con.send(body)
        got = con.getresponse()
        return got.status, json.loads(got.read())
    finally:
        con.close()


@pytest.mark.parametrize("path", ["/v1/chat/completions", "/v1/messages"])
@pytest.mark.parametrize("what", sorted(BAD_BODIES))
def test_a_malformed_request_gets_400_and_a_json_error(path: str, what: str) -> None:
    with LoopbackServer() as srv:
        status, body = _post(srv, path, BAD_BODIES[what])
        assert status == 400, body
        assert body["error"]["message"]
        # The server goes on answering well-formed requests.
        ok = json.dumps(
            {"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": "hi"}]}
        )
        assert _post(srv, path, ok.encode())[0] == 200


@pytest.mark.parametrize("length", ["abc", "-5"])
def test_a_bad_content_length_gets_400(length: str) -> None:
    with LoopbackServer() as srv:
        status, body = _post(srv, "/v1/messages", b"{}", length=length)
        assert status == 400 and "content-length" in body["error"]["message"]


def test_codenames_stand_in_plays_the_board_it_is_shown() -> None:
    """Each decision of a TextArena Codenames game answered by the stand-in (as the loopback
    server answers it): clues TextArena accepts, guesses of words still hidden on the board
    the seat is shown, the same answer for the same prompt."""
    game = catalog.get("textarena")
    config = game.preset("codenames")
    run = Game(config, 11, make_agents(["random"] * config.players, 11, config))
    run._start()
    policy = LegalPolicy()
    guesses, clues = [], []
    while (d := run.rules.pending(run.state)) is not None and len(guesses) < 10:
        (player,) = d.seats
        assert game.prompter is not None
        prompt = game.prompter.decision_prompt(run.view(player), d, "full", None)
        req = Incoming("openai", {"messages": [{"role": "user", "content": prompt}]}, 0)
        move = policy(req).text
        assert policy(req).text == move
        seen = prompt.rsplit("Codenames Words:", 1)[1]
        # Words whose team the operative is not shown yet: those still to be guessed.
        hidden = {r[0] for r in map(str.split, seen.splitlines()) if len(r) == 1}
        (said,) = re.findall(r"\[([^\]]+)\]", move)
        if re.findall(r"the (Spymaster|Operative) for", prompt)[-1] == "Spymaster":
            clues.append(said)
        else:
            guesses.append(said)
            assert said in hidden, (said, sorted(hidden))
        run._apply(d, [move])
    assert guesses and clues
    assert len(set(guesses)) > 1  # not one word over and over
    assert not [e for e in run.log if isinstance(e, InvalidMove)]
