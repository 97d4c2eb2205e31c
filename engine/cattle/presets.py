"""Named game configurations shipped under data/presets, and configuration files of one's own.

A preset is a JSON file checked against a typed schema (`PresetFile`) before it becomes a
`GameConfig`: unknown fields, wrong types, out-of-range numbers, an empty or worthless
`start_money` and a name that is not a plain identifier are refused with one line naming the
file. Shipped presets are reached by name only (`load_preset("standard")`); any other file is
read with `load_preset_file(path)` (the CLI's `--preset-file`).

The schema applies to preset files only. Stored games carry their `GameConfig` in their first
event and are decoded without these constraints, so logs written before them keep loading.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal, cast

import msgspec

from events.cattle.domain import ANIMALS, DEFAULT_PAYOUTS, START_MONEY, GameConfig
from events.config import MAX_TURNS as MAX_TURNS
from events.config import NAME_PATTERN as NAME_PATTERN
from events.config import NAME_RE as NAME_RE
from events.config import ConfigError
from events.suggest import did_you_mean

PRESET_DIR = Path(__file__).resolve().parents[2] / "data" / "presets"

MAX_START_CARDS = 30
"""Most money cards a player may start with."""
MAX_PRESET_BYTES = 64 * 1024
"""A preset file is a few hundred bytes; anything far larger is not one."""

Animal = Literal["chicken", "goose", "cat", "dog", "sheep", "goat", "donkey", "pig", "cow", "horse"]
MoneyCard = Literal[0, 10, 50, 100, 200, 500]
PayoutCard = Literal[10, 50, 100, 200, 500]
_ALL_ANIMALS = cast(tuple[Animal, ...], ANIMALS)
_START_MONEY = cast(tuple[MoneyCard, ...], START_MONEY)


class PresetFile(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The schema of a preset file; `to_config` turns it into a checked `GameConfig`."""

    name: Annotated[str, msgspec.Meta(min_length=1, max_length=40)]
    """The preset's name, stored with every game played from it (checked against NAME_RE)."""
    players: Annotated[int, msgspec.Meta(ge=2, le=5)] = 4
    set_size: Annotated[int, msgspec.Meta(ge=2, le=5)] = 4
    animals: Annotated[tuple[Animal, ...], msgspec.Meta(min_length=1, max_length=10)] = _ALL_ANIMALS
    starting_animals: Annotated[int, msgspec.Meta(ge=0, le=4)] = 0
    auction_mode: Literal["canonical", "fast", "legacy"] = "canonical"
    payouts: Annotated[tuple[PayoutCard, ...], msgspec.Meta(max_length=10)] | None = None
    """Donkey payouts; by default the standard list for the set size."""
    start_money: Annotated[
        tuple[MoneyCard, ...], msgspec.Meta(min_length=1, max_length=MAX_START_CARDS)
    ] = _START_MONEY
    max_turns: Annotated[int, msgspec.Meta(ge=1, le=MAX_TURNS)] = 400

    def to_config(self) -> GameConfig:
        """The game configuration, with the rules' own cross-field checks applied."""
        if not NAME_RE.match(self.name):
            raise ConfigError(
                f"name {self.name!r} is not a plain identifier (lower-case letters, digits,"
                " '-' and '_', starting with a letter)"
            )
        if not any(self.start_money):
            raise ConfigError("start_money must hold at least one card worth more than 0")
        payouts = self.payouts if self.payouts is not None else DEFAULT_PAYOUTS[self.set_size]
        return GameConfig(
            players=self.players,
            set_size=self.set_size,
            animals=self.animals,
            starting_animals=self.starting_animals,
            auction_mode=self.auction_mode,
            payouts=tuple(payouts),
            start_money=tuple(self.start_money),
            max_turns=self.max_turns,
            name=self.name,
        ).validate()


_DECODER = msgspec.json.Decoder(PresetFile)


def preset_names() -> list[str]:
    """Names of the shipped presets."""
    return sorted(p.stem for p in PRESET_DIR.glob("*.json") if NAME_RE.match(p.stem))


def _read(path: Path) -> GameConfig:
    """Decode and check one preset file; every problem is a `ConfigError` naming the file."""
    try:
        with path.open("rb") as f:
            data = f.read(MAX_PRESET_BYTES + 1)
    except OSError as exc:
        raise ConfigError(f"cannot read preset file {path}: {exc.strerror or exc}") from None
    if len(data) > MAX_PRESET_BYTES:
        raise ConfigError(f"preset file {path} is larger than {MAX_PRESET_BYTES:,} bytes")
    try:
        return _DECODER.decode(data).to_config()
    except (msgspec.ValidationError, ConfigError) as exc:
        raise ConfigError(f"preset file {path}: {exc}") from None
    except msgspec.DecodeError as exc:
        raise ConfigError(f"preset file {path} is not valid JSON: {exc}") from None


def _override(config: GameConfig, overrides: dict[str, object]) -> GameConfig:
    if not overrides:
        return config
    return msgspec.structs.replace(config, **overrides).validate()


def load_preset(name: str, **overrides: object) -> GameConfig:
    """The shipped preset `name`, with any field overridden (e.g. `auction_mode="fast"`)."""
    if not NAME_RE.match(name) or not (PRESET_DIR / f"{name}.json").is_file():
        shown = name if len(name) <= 60 else name[:57] + "..."
        raise ConfigError(
            f"unknown preset {shown!r}{did_you_mean(shown, preset_names())};"
            f" choose one of: {', '.join(preset_names())}"
        )
    path = PRESET_DIR / f"{name}.json"
    config = _read(path)
    if config.name != name:
        raise ConfigError(f"preset file {path}: its name is {config.name!r}, expected {name!r}")
    return _override(config, overrides)


def load_preset_file(path: str | Path, **overrides: object) -> GameConfig:
    """A configuration from a preset file of one's own (same schema as the shipped ones).

    Its name may not be that of a shipped preset unless the configuration is the same, so a
    game stored as "standard" is always played by the standard rules.
    """
    path = Path(path)
    if not path.is_file():
        raise ConfigError(f"no preset file at {path}")
    config = _read(path)
    if config.name in preset_names() and config != load_preset(config.name):
        raise ConfigError(
            f"preset file {path}: the name {config.name!r} belongs to a shipped preset with"
            " other settings; give the file a name of its own"
        )
    return _override(config, overrides)
