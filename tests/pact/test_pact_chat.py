"""A PACT message loses what another seat's screen would not show as written (a bidirectional
override, a zero-width mark, a control character), as chat does in every game; games stored by
the rules before (1.0.0) still replay byte for byte."""

from __future__ import annotations

import unicodedata
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from agents.base import Agent
from engine.chat import one_line
from engine.gamebench.traitor import clean_text
from engine.gamebench.two_rooms import message
from engine.pact.rules import ENGINE_VERSION, SendMessage, SubmitQuote, clean_message
from events.pact import game as pe
from events.pact.game import PactConfig
from runner.driver import Game
from runner.replay import verify

SPOOF = "I pay 80 \u202e02 ta lles I\u202c, final\u200b offer\u2066!"
"""A message whose override would show "I sell at 20" backwards on a screen."""


class Says(Agent):
    """Sends `SPOOF` as every message and quotes the middle of the range."""

    def act(self, view: Any, decision: Any) -> Any:
        if decision.kind == "message":
            return SendMessage(seat=self.seat, text=SPOOF)
        return SubmitQuote(seat=self.seat, price=50)


def _play(version: str | None) -> list[Any]:
    config = PactConfig(rounds=2).validate()
    run = Game(config, 3, [Says(0, 3, config), Says(1, 3, config)], version=version)
    run.run()
    return run.log


def test_a_message_loses_its_bidi_overrides_and_old_games_still_replay() -> None:
    now = _play(None)
    assert now[0].engine_version == ENGINE_VERSION != "1.0.0"
    said = [e.text for e in now if isinstance(e, pe.PactMessageSent)]
    assert said and all(t == "I pay 80 02 ta lles I , final offer !" for t in said)
    assert verify(now).ok
    old = _play("1.0.0")  # a game stored before: the override was kept, and replays so
    assert old[0].engine_version == "1.0.0"
    assert all("\u202e" in e.text for e in old if isinstance(e, pe.PactMessageSent))
    assert verify(old).ok


@settings(max_examples=200, deadline=None)
@given(st.text())
def test_every_chat_field_is_one_printable_line(text: str) -> None:
    """PACT, Two Rooms and Are You the Traitor? keep the same characters of any text."""
    one = one_line(text)
    assert one.isprintable() and one == one.strip() and "  " not in one
    assert not any(unicodedata.category(ch) in ("Cc", "Cf") for ch in one)
    assert message(text) == one
    assert clean_text(text, 10**6)[0] == one
    assert clean_message(text, 10**6, 10**6)[0] == one
