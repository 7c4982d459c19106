"""The demo's closing tally: agreed draws among the board games, full-board draws apart,
playoffs counted separately."""

from __future__ import annotations

import json
from pathlib import Path

from wuzi.sim.final.tally import GameTally, tally_games, tally_records


def record(result: str, reason: str) -> dict[str, object]:
    return {"result": result, "termination": {"reason": reason, "detail": "", "t_ms": 1}}


def test_agreed_draws_are_counted_among_the_board_games_only() -> None:
    tally = tally_games(
        [
            ("r1-m1-b1", record("draw", "referee")),
            ("r1-m1-b2", record("black", "five")),
            ("r1-m1-b3", record("draw", "full-board")),
            ("r1-m2-b1", record("white", "five")),
            ("r1-m1-p1", record("draw", "referee")),  # a playoff: not a board game
            ("r1-m1-p2", record("black", "five")),
        ]
    )
    assert tally == GameTally(board_games=4, agreed_draws=1, full_board_draws=1, playoffs=2)
    assert tally.draw_share == 0.25
    assert tally.line() == (
        "agreed draws: 1 of 4 board games (25%); full-board draws: 1; captains' playoffs: 2"
    )


def test_no_games_is_a_share_of_nothing() -> None:
    assert tally_games([]).draw_share == 0.0


def test_a_runs_games_folder_is_tallied_and_a_broken_record_skipped(tmp_path: Path) -> None:
    (tmp_path / "r2-m3-b1.json").write_text(json.dumps(record("draw", "referee")))
    (tmp_path / "r2-m3-b2.json").write_text(json.dumps(record("black", "five")))
    (tmp_path / "r2-m3-p1.json").write_text(json.dumps(record("white", "five")))
    (tmp_path / "r2-m3-b3.json").write_text("{not json")
    assert tally_records(tmp_path) == GameTally(2, 1, 0, 1)
