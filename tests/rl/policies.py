"""Policies for `policy:` seats in tests: plain functions of (observation, info)."""

from __future__ import annotations

from typing import Any

import numpy as np


def first_legal(observation: dict[str, Any], info: dict[str, Any]) -> int:
    """The lowest legal action id."""
    return int(np.flatnonzero(observation["action_mask"])[0])


def spread(observation: dict[str, Any], info: dict[str, Any]) -> int:
    """A legal action id picked by the observation's numbers (deterministic, varied)."""
    legal = np.flatnonzero(observation["action_mask"])
    key = int(abs(float(np.sum(observation["observation"]))) * 1000) + 7 * info["seat"]
    return int(legal[key % len(legal)])


def last_legal(observation: dict[str, Any], info: dict[str, Any]) -> int:
    """The highest legal action id."""
    return int(np.flatnonzero(observation["action_mask"])[-1])


def boom(observation: dict[str, Any], info: dict[str, Any]) -> int:
    """A policy with a bug."""
    raise ZeroDivisionError("the policy divided by zero")


def nothing(observation: dict[str, Any], info: dict[str, Any]) -> Any:
    """A policy that forgot to return."""
    return None


def first_illegal(observation: dict[str, Any], info: dict[str, Any]) -> int:
    """The lowest action id the mask refuses (the lowest legal one when none is refused)."""
    refused = np.flatnonzero(observation["action_mask"] == 0)
    return int(refused[0]) if len(refused) else first_legal(observation, info)


NOT_CALLABLE = 3
