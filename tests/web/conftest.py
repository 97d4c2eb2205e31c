"""Fixtures of the viewer's tests: one store of games for the whole directory."""

from __future__ import annotations

import pytest
from webkit import Games, build_store


@pytest.fixture(scope="session")
def games(tmp_path_factory: pytest.TempPathFactory) -> Games:
    """The stored games (built once)."""
    return build_store(tmp_path_factory.mktemp("web"))
