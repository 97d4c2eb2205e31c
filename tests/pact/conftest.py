"""Fixtures of the PACT tests."""

from __future__ import annotations

import pytest

from events import catalog
from events.catalog import GameDef


@pytest.fixture(scope="session")
def game() -> GameDef:
    """PACT's definition, looked up by name through the catalogue (which registers it)."""
    return catalog.get("pact")
