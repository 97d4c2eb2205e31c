"""Option values checked without pydantic (`cli.app._check_without_pydantic`) come out exactly
as typer's own check makes them, for every option of every command, or are handed to it."""

from __future__ import annotations

from typing import Any

import pytest
import typer
from hypothesis import given, settings
from hypothesis import strategies as st
from typer import _click
from typer._click.exceptions import BadParameter
from typer._coercion import build_runtime_param

import cli.main  # noqa: F401  (the app's callback)
from cli.app import LazyGroup, app


def _params() -> list[Any]:
    group = typer.main.get_command(app)
    assert isinstance(group, LazyGroup)
    ctx = _click.Context(group)
    found = list(group.params)
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        assert command is not None
        found += command.params
        found.append(command.get_help_option(ctx))
    return [p for p in found if p is not None and hasattr(p, "type_descriptor")]


def _kind(param: Any) -> tuple[object, ...]:
    """What the check of a parameter depends on: its type and its bounds and path settings."""
    info = param.type_descriptor.parameter_info
    keys = ("min", "max", "clamp", "exists", "file_okay", "dir_okay", "resolve_path", "path_type")
    return (repr(param.type_descriptor.annotation), *(repr(getattr(info, k, None)) for k in keys))


PARAMS = _params()
CHECKED = list({_kind(p): p for p in PARAMS if type(p._runtime_param).__name__ == "Plain"}.values())
"""One parameter of each kind that is checked without pydantic."""

VALUES = st.one_of(
    st.from_regex(r"-?[0-9]{1,4}(\.[0-9]{1,3})?", fullmatch=True),
    st.sampled_from(["007", "+5", " 5", "1e3", "1_000", "inf", "nan", "", "-", "-0", "x"]),
    st.text(max_size=12),
    st.integers(-(10**6), 10**6),
    st.floats(allow_nan=False, width=32),
    st.booleans(),
    st.lists(st.text(max_size=5), max_size=3).map(tuple),
)


def _outcome(runtime: Any, param: Any, value: Any) -> tuple[str, Any]:
    ctx = _click.Context(typer.core.TyperCommand("x"))
    try:
        got = runtime.coerce(value, param=param, ctx=ctx)
    except BadParameter:
        return ("refused", None)
    return (type(got).__name__, repr(got))


def test_most_options_are_checked_without_pydantic() -> None:
    plain = [p for p in PARAMS if type(p._runtime_param).__name__ == "Plain"]
    assert len(plain) >= len(PARAMS) // 2, (len(plain), len(PARAMS))


@pytest.mark.parametrize("param", CHECKED, ids=lambda p: f"{p.name}:{p.type_descriptor.annotation}")
def test_a_value_comes_out_as_typer_makes_it(param: Any) -> None:
    ours = param._runtime_param
    typers = build_runtime_param(param.type_descriptor)

    @settings(max_examples=150, deadline=None)
    @given(value=VALUES)
    def same(value: Any) -> None:
        try:
            assert _outcome(ours, param, value) == _outcome(typers, param, value)
        finally:
            param._runtime_param = ours  # a value only typer checks installs its check

    same()
