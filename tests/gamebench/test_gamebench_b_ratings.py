"""Team games in the pairwise records that Bradley-Terry reads: GameBench's match scores,
one record per two agents on two teams."""

from __future__ import annotations

from projections.ratings import match_records, scored_games, team_games

CN, SB = "gamebench:codenames", "gamebench:sea_battle"


def test_both_games_declare_match_scores_and_teams() -> None:
    assert scored_games([CN, SB, "pact"]) == {CN, SB}
    assert set(team_games([CN, SB, "pact"])) == {CN, SB}


def test_a_team_game_is_one_record_with_the_score_shares() -> None:
    rows = [
        ("g1", CN, 0, "a", 3, 0.4211),
        ("g1", CN, 1, "a", 3, 0.4211),
        ("g1", CN, 2, "b", 1, 0.5789),
        ("g1", CN, 3, "b", 1, 0.5789),
    ]
    (record,) = match_records(rows, scored_games([CN]), team_games([CN]))
    assert record["a"] == 0.4211 and record["b"] == 0.5789


def test_teammates_are_not_compared_and_each_pair_across_teams_once() -> None:
    agents = ["a", "b", "a", "c", "c", "c"]
    rows = [
        ("g2", SB, s, x, 1 if s < 3 else 4, 1.0 if s < 3 else 0.0) for s, x in enumerate(agents)
    ]
    records = match_records(rows, scored_games([SB]), team_games([SB]))
    assert records == [{"game": SB, "a": 1.0, "c": 0.0}, {"game": SB, "b": 1.0, "c": 0.0}]
    # Without the teams every seat pair of different agents gives a record.
    assert len(match_records(rows, scored_games([SB]))) == 11
