"""Named game configurations shipped under data/presets."""

from __future__ import annotations

from pathlib import Path

import msgspec

from events.domain import ConfigError, GameConfig

PRESET_DIR = Path(__file__).resolve().parent.parent / "data" / "presets"


def preset_names() -> list[str]:
    """Names of the shipped presets."""
    return sorted(p.stem for p in PRESET_DIR.glob("*.json"))


def load_preset(name: str, **overrides: object) -> GameConfig:
    """The preset `name`, with any field overridden (e.g. `auction_mode="fast"`)."""
    path = PRESET_DIR / f"{name}.json"
    if not path.is_file():
        raise ConfigError(f"unknown preset {name!r}; choose one of: {', '.join(preset_names())}")
    config = msgspec.json.decode(path.read_bytes(), type=GameConfig)
    if overrides:
        config = msgspec.structs.replace(config, **overrides)
    return config.validate()
