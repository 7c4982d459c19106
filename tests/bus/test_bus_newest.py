"""The one rule of which retained state is newer (`wuzi.bus.newest.supersedes`)."""

from __future__ import annotations

from support.host_states import referee_state, table_state
from wuzi.bus.newest import supersedes


def test_anything_supersedes_nothing() -> None:
    assert supersedes(table_state(1, 3), None)


def test_same_game_by_seq_then_time() -> None:
    held = table_state(1, 16, "paused", at_ms=5000)
    assert not supersedes(table_state(1, 14, at_ms=9000), held)  # older seq, later stamp
    assert supersedes(table_state(1, 17, at_ms=4000), held)  # newer seq, earlier stamp
    assert not supersedes(table_state(1, 16, "playing", at_ms=4999), held)
    assert supersedes(table_state(1, 16, "playing", at_ms=5001), held)
    assert supersedes(held, held)  # a repeat is harmless


def test_another_game_by_time() -> None:
    held = table_state(1, 40, "finished", game="r1-g1", at_ms=5000)
    assert supersedes(table_state(1, 0, "idle", game="r2-g1", at_ms=6000), held)
    assert not supersedes(table_state(1, 90, game="r0-g9", at_ms=4000), held)
    assert not supersedes(table_state(1, 0, "idle", game=None, at_ms=4000), held)
    assert supersedes(table_state(1, 0, "idle", game=None, at_ms=5000), held)


def test_referee_states_by_the_same_rule() -> None:
    held = referee_state(1, 120, "paused", at_ms=5000)
    assert not supersedes(referee_state(1, 118, at_ms=5001), held)
    assert supersedes(referee_state(1, 121, at_ms=5001), held)
    assert not supersedes(referee_state(1, 3, game="r0-g1", at_ms=100), held)
