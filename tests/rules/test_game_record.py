"""A game's record (``Game.record``, built by ``wuzi.rules.game_record``): everything that
happened, in the record model's terms."""

from __future__ import annotations

import pytest
from test_game import DOUBLE_FOUR, eventful_game, play

from wuzi.rules.board import parse_points
from wuzi.rules.errors import RulesError
from wuzi.rules.game import Game
from wuzi.rules.procedure import Seat
from wuzi.rules.record import (
    ClockReading,
    GameResult,
    Infraction,
    OpeningDecision,
)
from wuzi.rules.record_json import record_from_json, record_to_json

FIRST, SECOND = Seat.FIRST, Seat.SECOND


def test_the_record_carries_everything_that_happened() -> None:
    game = eventful_game()
    record = game.record(event="National open", table=3)
    assert (record.event, record.table) == ("National open", 3)
    assert (record.ruleset, record.mode, record.black_seat) == ("renju", "claim", FIRST)
    assert record.opening.procedure == "test-swap-after-3"
    assert record.opening.decisions == (OpeningDecision(SECOND, "stay", 3, 4000),)
    assert " ".join(str(m) for m in record.moves) == (
        "h8 a1 g8 a3 i9 a5 i10 a7 i8 pass o1 a9 n1 pass a11"
    )
    assert record.moves[0].seat is FIRST and record.moves[1].seat is FIRST  # the opener's
    assert record.moves[5].clocks == ClockReading(2_700_000 - 7, 2_700_000 - 14)
    assert record.moves[9].is_pass and record.moves[9].t_ms == 11_000
    assert [(c.kind, c.verdict, c.seat) for c in record.claims] == [
        ("forbidden", "late", SECOND),
        ("five", "false", SECOND),
    ]
    assert record.claims[0].forbidden == "33" and record.claims[0].t_ms == 12_000
    assert "double-three" in record.claims[0].proof
    assert record.infractions == (
        Infraction(SECOND, "clock pressed without a move", 15_000, False),
    )
    assert [a.action for a in record.referee_actions] == [
        "resume",
        "resume",
        "pause",
        "resume",
        "correct",
    ]
    assert record.referee_actions[0].detail == "penalty: warning; claim after White's pass"
    assert record.result == GameResult(
        "white", "referee", "corrected by the referee: the flag was the clock's fault", 25_000
    )
    assert record_from_json(record_to_json(record)) == record


def test_a_running_game_has_a_record_without_result() -> None:
    game = Game("no-forbidden:overline=white-only")
    play(game, "h8 i9")
    record = game.record()
    assert record.result is None and record.ruleset == "no-forbidden:overline=white-only"
    assert record.points == tuple(parse_points("h8 i9"))
    with pytest.raises(RulesError, match="no field 'venue'"):
        game.record(venue="hall 2")


def test_forbidden_results_carry_their_kind_in_the_record() -> None:
    game = Game("renju")
    play(game, DOUBLE_FOUR)
    game.claim_forbidden()
    record = game.record()
    assert record.result is not None
    assert (record.result.winner, record.result.reason) == ("white", "forbidden-44")


def test_record_metadata_of_the_wrong_type_is_refused_at_once() -> None:
    from wuzi.rules.errors import RulesError
    from wuzi.rules.game import Game

    game = Game("renju")
    with pytest.raises(RulesError, match="round must be text, not 1"):
        game.record(round=1)
    with pytest.raises(RulesError, match="table must be an integer or None"):
        game.record(table="4")
    with pytest.raises(RulesError, match="first must be a Player"):
        game.record(first="Wang")
    assert game.record(round="3", table=4).table == 4
