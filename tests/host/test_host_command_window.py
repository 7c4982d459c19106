"""`CommandWindow`: a verified command is carried out once, and only in the game it names,
for the whole age window — across the table's games and across a host restart (the ids
come back from the journal's ``host.command`` records, newest first, by the kind index)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from wuzi.bus.schemas import ArbiterCommand, Assignment
from wuzi.host.command_window import CommandWindow, Verdict, shown_game
from wuzi.host.table_runtime import COMMAND_KIND, GAME_START_KIND, TableRuntime, table_id
from wuzi.journal import Journal, JournalEntry

MAX_AGE_MS = 120_000
NOW = 1_760_000_000_000  # wall clock ms


def cmd(
    command_id: str = "c-1",
    *,
    table: int | None = 3,
    game: str | None = "g-A",
    action: str = "set-result",
    issued_ms: int = NOW,
) -> ArbiterCommand:
    args = {"winner": None, "reason": "agreement"} if action == "set-result" else {}
    return ArbiterCommand(command_id, "chief", action, table, args, issued_ms, None, game)


def test_a_set_result_replayed_after_next_game_is_refused_not_carried_out() -> None:
    window = CommandWindow(MAX_AGE_MS)
    result = cmd()
    assert window.check(result, 3, "g-A", NOW) is Verdict.CARRY_OUT
    window.carried_out(result, 3)
    assert window.check(result, 3, "g-A", NOW + 1) is Verdict.REPEAT  # a QoS 1 repeat
    # next-game: table 3 now plays g-B; the same bytes 11.5 s later
    assert window.check(result, 3, "g-B", NOW + 11_500) == (
        "command c-1 is for game g-A; table 3 plays game g-B"
    )


def test_a_command_for_another_game_is_refused_even_if_never_seen() -> None:
    window = CommandWindow(MAX_AGE_MS)
    stale = cmd("c-2", game="g-old")
    assert (
        window.check(stale, 3, "g-A", NOW)
        == "command c-2 is for game g-old; table 3 plays game g-A"
    )
    assert window.check(stale, 3, None, NOW) == "command c-2 is for game g-old; table 3 has no game"
    first = cmd("c-3", game=None, action="next-game")  # the table's first game
    assert window.check(first, 3, None, NOW) is Verdict.CARRY_OUT


def test_ids_are_kept_for_the_whole_window_across_games_then_forgotten() -> None:
    window = CommandWindow(MAX_AGE_MS)
    hall = cmd("c-all", table=None, game=None, action="pause")  # every table: no game
    for table in (3, 4):
        assert window.check(hall, table, "g-A", NOW) is Verdict.CARRY_OUT
        window.carried_out(hall, table)
    # the tables moved on to other games: a hall-wide command names none, so only its id
    # stops its replay, for as long as it would verify
    assert window.check(hall, 3, "g-B", NOW + MAX_AGE_MS) is Verdict.REPEAT
    assert window.check(hall, 4, None, NOW + MAX_AGE_MS) is Verdict.REPEAT
    assert window.check(hall, 5, "g-C", NOW + 1) is Verdict.CARRY_OUT  # not done there yet
    # past the window verify refuses it as too old; the id is then forgotten
    assert window.check(hall, 3, "g-B", NOW + MAX_AGE_MS + 1) is Verdict.CARRY_OUT
    assert len(window) == 0


def test_a_window_needs_a_positive_age() -> None:
    with pytest.raises(ValueError, match="positive max age"):
        CommandWindow(0)


def journal_commands(journal: Journal, table: int, entries: list[tuple[str, ...]]) -> None:
    """Append a table's day: ``("game", id)`` starts a game, ``("cmd", id, issued,
    accepted)`` is an accepted command's record (as the host writes it), ``("old", id)``
    one written by an older host (no issue or acceptance time)."""
    tid = table_id(table)
    for entry in entries:
        if entry[0] == "game":
            journal.append(tid, GAME_START_KIND, {"game_id": entry[1]}, 1, publish=False)
            journal.append(tid, "in.session", {"x": 1}, 1, publish=False)
        elif entry[0] == "old":
            payload = {"command_id": entry[1], "referee": "chief", "action": "pause"}
            journal.append(tid, COMMAND_KIND, payload, 1, publish=False)
        else:
            payload = {
                "command_id": entry[1],
                "referee": "chief",
                "action": "set-result",
                **CommandWindow.record_fields(
                    cmd(entry[1], issued_ms=int(entry[2])), int(entry[3])
                ),
            }
            journal.append(tid, COMMAND_KIND, payload, 1, publish=False)


def test_a_restart_recalls_the_windows_ids_across_the_tables_earlier_games(
    tmp_path: Path,
) -> None:
    path = tmp_path / "host.journal"
    with Journal.open(path, "pi") as journal:
        journal_commands(
            journal,
            3,
            [
                ("old", "c-older-host"),
                ("game", "g-1"),
                ("cmd", "c-long-ago", NOW - 10 * MAX_AGE_MS, NOW - 10 * MAX_AGE_MS),
                ("game", "g-2"),
                ("cmd", "c-expired", NOW - MAX_AGE_MS - 5, NOW - MAX_AGE_MS),
                ("cmd", "c-result", NOW - 20_000, NOW - 19_990),
                ("game", "g-3"),  # next-game: the game the replay would land in
                ("cmd", "c-next", NOW - 8_000, NOW - 8_000),
            ],
        )
        journal_commands(journal, 4, [("game", "g-9"), ("cmd", "c-result", NOW - 20_000, NOW)])
    with Journal.open(path, "pi") as journal:  # the host restarted
        window = CommandWindow(MAX_AGE_MS)
        read: list[str] = []

        def newest(table: int) -> Iterator[JournalEntry]:
            for entry in journal.newest_of_kind(table_id(table), COMMAND_KIND):
                read.append(str(entry.payload["command_id"]))
                yield entry

        assert window.recall(3, newest(3), NOW) == 2
        assert window.recall(4, newest(4), NOW) == 1
    # it read back only as far as a command could still be valid (c-long-ago: accepted
    # far too early to matter, so nothing before it is read, not even the older host's)
    assert read == ["c-next", "c-result", "c-expired", "c-long-ago", "c-result"]
    replay = cmd("c-result", game="g-2", issued_ms=NOW - 20_000)
    assert window.check(replay, 3, "g-3", NOW) == (
        "command c-result is for game g-2; table 3 plays game g-3"
    )
    assert window.check(replay, 3, "g-2", NOW) is Verdict.REPEAT  # same game: done already
    assert window.check(cmd("c-next", game="g-2"), 3, "g-2", NOW) is Verdict.REPEAT
    assert window.check(cmd("c-expired", game="g-2"), 3, "g-2", NOW) is Verdict.CARRY_OUT
    assert window.check(cmd("c-result", game="g-9"), 4, "g-9", NOW) is Verdict.REPEAT


def test_recall_stops_at_an_older_hosts_records(tmp_path: Path) -> None:
    """An older host journaled no times: its commands were signed with the old scheme,
    which verify refuses anyway, so recall has nothing to gain by reading further."""
    with Journal.open(tmp_path / "host.journal", "pi") as journal:
        journal_commands(
            journal, 3, [("cmd", "c-1", NOW - 9, NOW), ("old", "c-0"), ("cmd", "c-2", NOW - 5, NOW)]
        )
        window = CommandWindow(MAX_AGE_MS)
        assert window.recall(3, journal.newest_of_kind(table_id(3), COMMAND_KIND), NOW) == 1
    assert window.check(cmd("c-2"), 3, "g-A", NOW) is Verdict.REPEAT
    assert window.check(cmd("c-1"), 3, "g-A", NOW) is Verdict.CARRY_OUT


def test_newest_of_kind_pages_through_a_long_day(tmp_path: Path) -> None:
    with Journal.open(tmp_path / "host.journal", "pi") as journal:
        for n in range(600):  # more than two pages of the journal's reads
            journal.append("t3", COMMAND_KIND, {"command_id": f"c-{n}"}, 1, publish=False)
            journal.append("t3", "in.tick", {}, 1, publish=False)
        journal.append("t4", COMMAND_KIND, {"command_id": "other"}, 1, publish=False)
        ids = [e.payload["command_id"] for e in journal.newest_of_kind("t3", COMMAND_KIND)]
    assert ids == [f"c-{n}" for n in reversed(range(600))]


def test_a_tables_game_is_the_one_its_states_show() -> None:
    """What a referee signs for is what the table shows: its game (running or over), or
    while it has none the game waiting for the referee's next-game."""
    runtime = TableRuntime(number=3, venue="hall")
    assert shown_game(runtime) is None
    waiting = Assignment(3, "g-W", "Li", "Zhang", "renju", "free", {}, "600+5", 3, 1, False, NOW)
    runtime.offer_assignment(waiting)
    assert shown_game(runtime) == "g-W"  # the first next-game is signed for it
    runtime.begin(1_000_000, NOW)
    assert shown_game(runtime) == "g-W"
    runtime.offer_assignment(replace(waiting, game_id="g-X"))
    assert shown_game(runtime) == "g-W"  # still played (or over): next-game is signed for it
