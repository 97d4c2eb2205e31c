"""Values of the model settings (config file, environment, seat options) that cannot be used
are refused in one line naming where they came from; none is taken silently."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents.llm.spec import SpecError, parse_model_spec, provider_settings
from events.config import ConfigError
from tests.cli.clikit import cattle

ENVS = ("CATTLE_LLM_BACKOFF", "CATTLE_OPENAI_CONCURRENCY", "CATTLE_OPENAI_TPM")


def toml_value(value: object) -> str:
    """`value` written as TOML."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and math.isnan(value):
        return "nan"
    if isinstance(value, float) and math.isinf(value):
        return "inf" if value > 0 else "-inf"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return repr(value)


BAD_BACKOFF = st.one_of(
    st.sampled_from([math.nan, math.inf, -math.inf, -1, -0.5, 1e9, "x", "", True]),
    st.floats(max_value=-1e-9),
    st.text(alphabet="abcxyz -", max_size=5),
)
BAD_COUNT = st.one_of(
    st.sampled_from([0, -1, 1.5, math.nan, math.inf, "x", "", True]),
    st.integers(max_value=0),
)
FIXTURE_OK = [HealthCheck.function_scoped_fixture]


@settings(max_examples=60, suppress_health_check=FIXTURE_OK)
@given(value=BAD_BACKOFF)
def test_a_bad_backoff_in_the_config_file_is_refused(
    value: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ENVS:
        monkeypatch.delenv(name, raising=False)
    cfg = tmp_path / "llm.toml"
    cfg.write_text(f"backoff = {toml_value(value)}\n")
    monkeypatch.setenv("CATTLE_LLM_CONFIG", str(cfg))
    with pytest.raises(ConfigError, match=r"backoff in .* must be a number of seconds"):
        provider_settings("openai")


@settings(max_examples=60, suppress_health_check=FIXTURE_OK)
@given(key=st.sampled_from(["concurrency", "tokens_per_minute"]), value=BAD_COUNT)
def test_a_bad_count_in_the_config_file_is_refused(
    key: str, value: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ENVS:
        monkeypatch.delenv(name, raising=False)
    cfg = tmp_path / "llm.toml"
    cfg.write_text(f"[openai]\n{key} = {toml_value(value)}\n")
    monkeypatch.setenv("CATTLE_LLM_CONFIG", str(cfg))
    with pytest.raises(ConfigError, match=rf"\[openai\] {key} in .* must be"):
        provider_settings("openai")


def test_good_values_are_taken(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ENVS:
        monkeypatch.delenv(name, raising=False)
    cfg = tmp_path / "llm.toml"
    cfg.write_text("backoff = 0\n[openai]\nconcurrency = 1\ntokens_per_minute = 500\n")
    monkeypatch.setenv("CATTLE_LLM_CONFIG", str(cfg))
    got = provider_settings("openai")
    assert (got.backoff, got.concurrency, got.tokens_per_minute) == (0.0, 1, 500)
    monkeypatch.setenv("CATTLE_LLM_BACKOFF", "nan")
    with pytest.raises(ConfigError, match="CATTLE_LLM_BACKOFF must be"):
        provider_settings("openai")


@given(
    value=st.one_of(
        st.sampled_from(["nan", "NaN", "inf", "-inf", "infinity", "0", "-1", "1e300"]),
        st.floats(max_value=0).map(repr),
    )
)
def test_a_seat_timeout_that_is_not_a_finite_positive_number_is_refused(value: str) -> None:
    with pytest.raises(SpecError, match="timeout must be"):
        parse_model_spec(f"openai:m?timeout={value}")


@pytest.mark.parametrize(
    ("config", "says"),
    [
        ('backoff = "x"\n', "backoff in"),
        ("backoff = nan\n", "backoff in"),
        ("[openai]\nconcurrency = 0\n", "[openai] concurrency in"),
    ],
)
def test_the_command_says_so_in_one_line(tmp_path: Path, config: str, says: str) -> None:
    cfg = tmp_path / "llm.toml"
    cfg.write_text(config)
    seat = "openai:m@http://127.0.0.1:9/v1?attempts=1&timeout=1"
    got = cattle(
        "play", "--game", "gtbench:tic_tac_toe", "--agents", f"{seat},random",
        "--db", tmp_path / "g.duckdb",
        env={"CATTLE_LLM_CONFIG": str(cfg), "OPENAI_API_KEY": "k", "COLUMNS": "400"},
    )  # fmt: skip
    assert got.returncode != 0
    lines = got.stderr.strip().splitlines()
    assert len(lines) == 1 and says in lines[0] and "Traceback" not in got.stderr, got.stderr


def test_a_seat_timeout_of_nan_is_one_line(tmp_path: Path) -> None:
    seat = "openai:m@http://127.0.0.1:9/v1?timeout=nan"
    got = cattle(
        "play", "--game", "gtbench:tic_tac_toe", "--agents", f"{seat},random",
        "--db", tmp_path / "g.duckdb", env={"OPENAI_API_KEY": "k", "COLUMNS": "400"},
    )  # fmt: skip
    assert got.returncode == 2
    lines = got.stderr.strip().splitlines()
    assert len(lines) == 1 and "timeout must be" in lines[0], got.stderr
