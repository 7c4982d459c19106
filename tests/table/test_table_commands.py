"""A verified command is carried out once by a table, and only in the game it names, for
the whole age window — across the table's games (``wuzi.table.commands``, the table's
``check_command``); across a restart the host recalls the ids from its journal
(tests/host/test_host_command_window.py)."""

from __future__ import annotations

import pytest

from wuzi.table.commands import CommandMemory, Ticket, Verdict, game_problem
from wuzi.table.inputs import TableSetup
from wuzi.table.table import Table

MAX_AGE_MS = 120_000
NOW = 1_760_000_000_000  # wall clock ms


def ticket(
    command_id: str = "c-1", game: str | None = "g-A", issued_ms: int = NOW, hall_wide: bool = False
) -> Ticket:
    return Ticket(command_id, game, issued_ms, hall_wide)


def playing(game_id: str, number: int = 3) -> Table[object]:
    """A standalone table whose game is ``game_id`` (what its states show)."""
    table: Table[object] = Table(number=number, venue="hall")  # type: ignore[type-var]
    table.begin(0, NOW, TableSetup(opening="free", time_control="600+5"))
    table.game_id = game_id
    table.commands = CommandMemory(MAX_AGE_MS)
    return table


def test_a_set_result_replayed_after_next_game_is_refused_not_carried_out() -> None:
    table = playing("g-A")
    result = ticket()
    assert table.check_command(result, NOW) is Verdict.CARRY_OUT
    table.carried_out(result)
    assert table.check_command(result, NOW + 1) is Verdict.REPEAT  # a QoS 1 repeat
    table.game_id = "g-B"  # next-game: the same bytes 11.5 s later
    assert table.check_command(result, NOW + 11_500) == (
        "command c-1 is for game g-A; table 3 plays game g-B"
    )


def test_a_command_for_another_game_is_refused_even_if_never_seen() -> None:
    stale = ticket("c-2", game="g-old")
    assert game_problem(stale, 3, "g-A") == "command c-2 is for game g-old; table 3 plays game g-A"
    assert game_problem(stale, 3, None) == "command c-2 is for game g-old; table 3 has no game"
    first = ticket("c-3", game=None)  # the table's first game
    assert game_problem(first, 3, None) is None
    assert (
        game_problem(first, 3, "g-A")
        == "command c-3 is for a table with no game; table 3 plays game g-A"
    )


def test_ids_are_kept_for_the_whole_window_across_games_then_forgotten() -> None:
    hall = ticket("c-all", game=None, hall_wide=True)  # every table: no game named
    tables = [playing("g-A", 3), playing("g-A", 4)]
    for table in tables:
        assert table.check_command(hall, NOW) is Verdict.CARRY_OUT
        table.carried_out(hall)
    # the tables moved on to other games: a hall-wide command names none, so only its id
    # stops its replay, for as long as it would verify
    tables[0].game_id = "g-B"
    assert tables[0].check_command(hall, NOW + MAX_AGE_MS) is Verdict.REPEAT
    assert tables[1].check_command(hall, NOW + MAX_AGE_MS) is Verdict.REPEAT
    assert playing("g-C", 5).check_command(hall, NOW + 1) is Verdict.CARRY_OUT  # not done there
    # past the window the host's verify refuses it as too old; the id is then forgotten
    assert tables[0].check_command(hall, NOW + MAX_AGE_MS + 1) is Verdict.CARRY_OUT
    assert len(tables[0].commands) == 0


def test_a_window_needs_a_positive_age() -> None:
    with pytest.raises(ValueError, match="positive max age"):
        CommandMemory(0)


def test_recall_reads_newest_first_and_stops_where_nothing_can_be_valid() -> None:
    memory = CommandMemory(MAX_AGE_MS, max_future_ms=30_000)
    payloads = [
        {"command_id": "c-next", "issued_ms": NOW - 8_000, "wall_ms": NOW - 8_000},
        {"command_id": "c-result", "issued_ms": NOW - 20_000, "wall_ms": NOW - 19_990},
        {"command_id": "c-expired", "issued_ms": NOW - MAX_AGE_MS - 5, "wall_ms": NOW - MAX_AGE_MS},
        {"command_id": "c-long-ago", "issued_ms": 0, "wall_ms": NOW - 10 * MAX_AGE_MS},
        {"command_id": "c-never-read", "issued_ms": NOW, "wall_ms": NOW},
    ]
    assert memory.recall(payloads, NOW) == 2
    assert memory.seen("c-next", NOW) and memory.seen("c-result", NOW)
    assert not memory.seen("c-expired", NOW) and not memory.seen("c-never-read", NOW)
    older_host = [{"command_id": "c-1", "issued_ms": NOW, "wall_ms": NOW}, {"command_id": "c-0"}]
    assert CommandMemory(MAX_AGE_MS).recall([*older_host, *payloads], NOW) == 1
