"""What the configuration of every game shares: who sits in a seat, the seed range, and the
error a configuration the rules cannot play raises."""

from __future__ import annotations

import re

import msgspec

#: Largest game or tournament seed: seeds are stored in a signed 64-bit column, and the
#: command line takes 0..MAX_SEED.
MAX_SEED = 2**63 - 1


NAME_PATTERN = r"^[a-z][a-z0-9_-]{0,39}$"
"""A preset name: lower-case letters, digits, '-' and '_', starting with a letter (1..40)."""
NAME_RE = re.compile(NAME_PATTERN)

MAX_TURNS = 100_000
"""Largest turn cap a configuration (or `--max-turns`) may set; real games end long before."""


class ConfigError(ValueError):
    """A game configuration that the rules cannot play."""


class SeatSpec(msgspec.Struct, frozen=True, kw_only=True):
    """Who plays a seat: an agent spec string plus its options (never secrets)."""

    agent: str
    """Agent spec, e.g. "random", "tracker", "openai:gpt-4o-mini"."""
    options: dict[str, str | int | float | bool] = msgspec.field(default_factory=dict)
    """Agent options that shape its play (temperature, memory mode, ...)."""
