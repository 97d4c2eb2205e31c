"""Preset files: a typed schema for what is read, nothing new demanded of what was stored."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cattle.presets import (
    MAX_TURNS,
    PRESET_DIR,
    load_preset,
    load_preset_file,
    preset_names,
)
from events.cattle.domain import ANIMALS, DEFAULT_PAYOUTS, DENOMINATIONS, GameConfig
from events.config import ConfigError
from runner.replay import verify
from runner.session import play_game


@pytest.mark.parametrize("name", ["marathon", "micro-duel", "standard"])
def test_shipped_presets_read_as_before(name: str) -> None:
    # The schema must not change a shipped preset: games stored from it replay unchanged.
    raw = msgspec.json.decode((PRESET_DIR / f"{name}.json").read_bytes(), type=GameConfig)
    assert load_preset(name) == raw
    assert load_preset(name, auction_mode="fast") == msgspec.structs.replace(
        raw, auction_mode="fast"
    )


def test_preset_names_never_leave_the_preset_directory() -> None:
    assert preset_names() == ["marathon", "micro-duel", "standard"]
    for name in ("../presets/standard", "standard.json", "/etc/passwd", "Standard", "", "a\0b"):
        with pytest.raises(ConfigError, match="unknown preset"):
            load_preset(name)


def test_a_config_stored_before_the_schema_still_decodes_and_replays() -> None:
    # Such a configuration (no start money at all) is refused in a preset file today, but a
    # game stored with it must keep loading and verifying.
    old = GameConfig(players=2, set_size=2, animals=("cat", "horse"), start_money=(), name="x/y")
    record = play_game(old, 3, ["random", "random"])
    assert verify(record.events).ok


configs = st.builds(
    lambda players, k, animals, start, money, mode, turns, name: {
        "name": name,
        "players": players,
        "set_size": k,
        "animals": [a for a in ANIMALS if a in animals],
        "starting_animals": min(start, k - 1),
        "auction_mode": mode,
        "start_money": money,
        "max_turns": turns,
    },
    st.integers(2, 5),
    st.integers(2, 5),
    st.sets(st.sampled_from(ANIMALS), min_size=1),
    st.integers(0, 1),
    st.lists(st.sampled_from(DENOMINATIONS), min_size=1, max_size=12).filter(any),
    st.sampled_from(["canonical", "fast", "legacy"]),
    st.integers(1, MAX_TURNS),
    st.from_regex(r"[a-z][a-z0-9_-]{0,20}", fullmatch=True).filter(
        lambda n: n not in preset_names()
    ),
)


@settings(max_examples=80, deadline=None)
@given(doc=configs)
def test_any_valid_preset_file_loads_to_the_config_it_describes(
    tmp_path_factory: pytest.TempPathFactory, doc: dict[str, object]
) -> None:
    path = tmp_path_factory.mktemp("p") / "p.json"
    path.write_text(json.dumps(doc))
    try:
        config = load_preset_file(path)
    except ConfigError as exc:
        # Only the rules' cross-field checks may refuse such a file, naming it.
        assert str(path) in str(exc)
        with pytest.raises(ConfigError):
            GameConfig(**{**doc, "payouts": DEFAULT_PAYOUTS[doc["set_size"]]}).validate()  # type: ignore[arg-type, index]
        return
    assert config.name == doc["name"]
    assert list(config.start_money) == doc["start_money"]
    assert config.payouts == DEFAULT_PAYOUTS[config.set_size]
    assert msgspec.json.decode(msgspec.json.encode(config), type=GameConfig) == config


@settings(max_examples=80, deadline=None)
@given(junk=st.binary(max_size=200) | st.text(max_size=200).map(str.encode))
def test_arbitrary_bytes_give_a_config_error_naming_the_file(
    tmp_path_factory: pytest.TempPathFactory, junk: bytes
) -> None:
    path = tmp_path_factory.mktemp("p") / "junk.json"
    path.write_bytes(junk)
    with pytest.raises(ConfigError) as info:
        load_preset_file(path)
    assert str(path) in str(info.value)


def test_an_oversized_file_is_not_read_whole(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    path.write_text('{"name": "big", "_": "' + "x" * 200_000 + '"}')
    with pytest.raises(ConfigError, match="larger than"):
        load_preset_file(path)
