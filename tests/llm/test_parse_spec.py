"""Answer parsing stages, value coercion, spec syntax and key hygiene."""

from __future__ import annotations

import pytest

from agents import UnknownAgent, parse_spec
from agents.cattle.parse import default_action, extract, parse_answer
from agents.llm.spec import SpecError, provider_settings, resolve
from agents.llm.transport import redact
from engine.cattle import actions as act
from engine.cattle import decisions as dec

BID = dec.BidDecision(
    seats=(1,),
    auction=1,
    animal="cow",
    auctioneer=0,
    mode="canonical",
    round=0,
    price=20,
    leader=None,
)
TRADE = dec.TradeDecision(seats=(1,), targets=((0, "cow"), (2, "horse")))
RESPOND = dec.ResponseDecision(seats=(1,), trade=1, initiator=0, animal="cow", n_cards=2, count=1)


@pytest.mark.parametrize(
    ("text", "stage"),
    [
        ('{"action": "pass"}', "json"),
        ('I pass. {"action": "bid", "amount": 5} then {"action": "pass"} done', "last_object"),
        ('```json\n{"action": "pass"}\n```', "last_object"),
        ('{"action": "pass", "reasoning": "cut', "key_value"),
        ("action: pass", "key_value"),
        ("no idea", "failed"),
    ],
)
def test_extract_stages(text: str, stage: str) -> None:
    assert extract(text)[1] == stage


@pytest.mark.parametrize(
    ("text", "decision", "action"),
    [
        ('{"action": "bid", "amount": "120 coins"}', BID, act.PlaceBid(seat=1, amount=120)),
        ('{"action": "BID", "amount": 35.0}', BID, act.PlaceBid(seat=1, amount=35)),
        ('{"action": "pass"}', BID, act.Pass(seat=1)),
        (
            '{"target_player": "Player 2", "animal": "Horses", "offer_cards": "50, 10, 0"}',
            TRADE,
            act.InitiateTrade(seat=1, target=2, animal="horse", cards=(50, 10, 0)),
        ),
        ('{"action": "accept"}', RESPOND, act.AcceptTrade(seat=1)),
        (
            '{"action": "counter", "counter_cards": ["10", 0]}',
            RESPOND,
            act.CounterTrade(seat=1, cards=(10, 0)),
        ),
    ],
)
def test_coercion(text: str, decision: dec.AnyDecision, action: act.AnyAction) -> None:
    got, _, error = parse_answer(text, decision, 1)
    assert error is None and got == action


@pytest.mark.parametrize(
    ("text", "decision", "needle"),
    [
        ('{"action": "bid"}', BID, "amount"),
        ('{"action": "maybe"}', BID, "bid"),
        ('{"animal": "cow", "offer_cards": []}', TRADE, "target_player"),
        ('{"action": "counter"}', RESPOND, "counter_cards"),
        ('{"action": "bid", "amount": 1e30}', BID, "range"),
    ],
)
def test_errors_name_the_problem(text: str, decision: dec.AnyDecision, needle: str) -> None:
    got, _, error = parse_answer(text, decision, 1)
    assert got is None and error is not None and needle in error


def test_defaults() -> None:
    assert default_action(BID, 1) == act.Pass(seat=1)
    assert default_action(TRADE, 1) == act.InitiateTrade(seat=1, target=0, animal="cow", cards=())
    assert default_action(RESPOND, 1) == act.AcceptTrade(seat=1)


def test_spec_syntax() -> None:
    spec = parse_spec(
        "openai:qwen3@http://u:secret@localhost:8000/v1/?temperature=0.3&memory=recent"
    )
    assert spec.agent == "openai:qwen3?memory=recent&temperature=0.3"
    assert spec.options["base_url"] == "http://localhost:8000/v1"
    assert "secret" not in str(spec)
    o = resolve(spec)
    assert (o.provider, o.model, o.temperature, o.memory, o.max_tokens) == (
        "openai",
        "qwen3",
        0.3,
        "recent",
        4096,
    )
    plain = parse_spec("anthropic:claude-haiku-4-5")
    assert plain.agent == "anthropic:claude-haiku-4-5"
    assert resolve(plain).temperature == 0.1 and resolve(plain).character == "optimal"
    assert resolve(parse_spec("openai:o3?temperature=none")).temperature is None


@pytest.mark.parametrize(
    "bad",
    [
        "openai:",
        "openai:m?memory=lots",
        "openai:m?temperature=9",
        "openai:m?colour=red",
        "openai:m@http://",
        "openai:m@http://[::1",
        "openai:m@http://host:99999/v1",
        "openai:m@http://host:port/v1",
        "anthropic:m?character=no body",
    ],
)
def test_bad_specs(bad: str) -> None:
    with pytest.raises(SpecError):
        parse_spec(bad)


def test_a_character_the_game_lacks_is_refused_by_the_game() -> None:
    """The spec parser knows no game; the game's prompter names its own characters."""
    with pytest.raises(UnknownAgent, match="unknown Cattle Trade character 'nobody'; known: "):
        parse_spec("anthropic:m?character=nobody")
    with pytest.raises(UnknownAgent, match="unknown PACT character"):
        parse_spec("anthropic:m?character=nobody", "pact")


def test_settings_from_config_file(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    cfg = tmp_path / "llm.toml"
    cfg.write_text('backoff = 0.5\n[anthropic]\napi_key = "from-file"\nconcurrency = 3\n')
    monkeypatch.setenv("CATTLE_LLM_CONFIG", str(cfg))
    monkeypatch.delenv("ANTHROPIC_API_KEY")
    monkeypatch.delenv("CATTLE_LLM_BACKOFF")
    s = provider_settings("anthropic")
    assert (s.api_key, s.concurrency, s.backoff) == ("from-file", 3, 0.5)
    assert "from-file" not in repr(s)


def test_redact() -> None:
    msg = "Incorrect API key provided: sk-proj-****abcd. key=abc123 Bearer xyz"
    out = redact(msg, "abc123")
    assert "abcd" not in out and "abc123" not in out and "xyz" not in out
