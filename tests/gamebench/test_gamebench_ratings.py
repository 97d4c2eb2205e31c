"""GameBench's scores in the pairwise records that Bradley-Terry reads."""

from __future__ import annotations

from projections.ratings import match_records


def test_team_games_give_one_record_per_pair_of_agents_with_score_shares() -> None:
    rows = [
        ("g1", "gamebench:codenames", 0, "a", 3, 0.4211),
        ("g1", "gamebench:codenames", 1, "a", 3, 0.4211),
        ("g1", "gamebench:codenames", 2, "b", 1, 0.5789),
        ("g1", "gamebench:codenames", 3, "b", 1, 0.5789),
    ]
    (record,) = match_records(rows)
    assert record == {"game": "gamebench:codenames", "a": 0.4211, "b": 0.5789}


def test_mixed_teams_compare_only_across_teams_and_other_games_keep_ranks() -> None:
    rows = [
        ("g2", "gamebench:sea_battle", s, agent, 1 if s < 3 else 4, 1.0 if s < 3 else 0.0)
        for s, agent in enumerate(["a", "b", "a", "c", "c", "c"])
    ]
    records = match_records(rows)
    # a and b are teammates (0.5 each: a draw, left out by Bradley-Terry); each meets c once.
    assert {"game": "gamebench:sea_battle", "a": 1.0, "c": 0.0} in records
    assert {"game": "gamebench:sea_battle", "b": 1.0, "c": 0.0} in records
    assert len(records) == 3
    pact = [("g3", "pact", 0, "x", 2, 10.0), ("g3", "pact", 1, "y", 1, 30.0)]
    assert match_records(pact) == [{"game": "pact", "x": 0.0, "y": 1.0}]
