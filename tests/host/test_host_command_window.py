"""A restarted host recalls the ids of the commands each table carried out within the age
window, across the table's earlier games, from the journal's ``host.command`` records
(newest first, by the kind index), so a replay is still a repeat or refused; and a
table's game is the one its states show (what a referee signs for)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

from wuzi.bus.schemas import Assignment
from wuzi.host.table_runtime import COMMAND_KIND, GAME_START_KIND, TableRuntime, table_id
from wuzi.journal import Journal, JournalEntry
from wuzi.table.commands import CommandMemory, Ticket, Verdict
from wuzi.table.table import Table

MAX_AGE_MS = 120_000
NOW = 1_760_000_000_000  # wall clock ms


def ticket(command_id: str, game: str | None = "g-A", issued_ms: int = NOW) -> Ticket:
    return Ticket(command_id, game, issued_ms)


def with_game(runtime: TableRuntime, game_id: str) -> TableRuntime:
    runtime.game_id = game_id
    return runtime


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
                **Table.command_fields(ticket(entry[1], issued_ms=int(entry[2])), int(entry[3])),
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
        three, four = (TableRuntime(number=n, venue="hall") for n in (3, 4))
        for runtime in (three, four):
            runtime.commands = CommandMemory(MAX_AGE_MS)
        read: list[str] = []

        def newest(table: int) -> Iterator[dict[str, object]]:
            entry: JournalEntry
            for entry in journal.newest_of_kind(table_id(table), COMMAND_KIND):
                read.append(str(entry.payload["command_id"]))
                yield entry.payload

        assert three.commands.recall(newest(3), NOW) == 2
        assert four.commands.recall(newest(4), NOW) == 1
    # it read back only as far as a command could still be valid (c-long-ago: accepted
    # far too early to matter, so nothing before it is read, not even the older host's)
    assert read == ["c-next", "c-result", "c-expired", "c-long-ago", "c-result"]
    replay = ticket("c-result", game="g-2", issued_ms=NOW - 20_000)
    assert with_game(three, "g-3").check_command(replay, NOW) == (
        "command c-result is for game g-2; table 3 plays game g-3"
    )
    in_g2 = with_game(three, "g-2")
    assert in_g2.check_command(replay, NOW) is Verdict.REPEAT  # same game: done already
    assert in_g2.check_command(ticket("c-next", game="g-2"), NOW) is Verdict.REPEAT
    assert in_g2.check_command(ticket("c-expired", game="g-2"), NOW) is Verdict.CARRY_OUT
    four_g9 = with_game(four, "g-9")
    assert four_g9.check_command(ticket("c-result", game="g-9"), NOW) is Verdict.REPEAT


def test_recall_stops_at_an_older_hosts_records(tmp_path: Path) -> None:
    """An older host journaled no times: its commands were signed with the old scheme,
    which verify refuses anyway, so recall has nothing to gain by reading further."""
    with Journal.open(tmp_path / "host.journal", "pi") as journal:
        journal_commands(
            journal, 3, [("cmd", "c-1", NOW - 9, NOW), ("old", "c-0"), ("cmd", "c-2", NOW - 5, NOW)]
        )
        runtime = with_game(TableRuntime(number=3, venue="hall"), "g-A")
        runtime.commands = CommandMemory(MAX_AGE_MS)
        newest = journal.newest_of_kind(table_id(3), COMMAND_KIND)
        assert runtime.commands.recall((e.payload for e in newest), NOW) == 1
    assert runtime.check_command(ticket("c-2"), NOW) is Verdict.REPEAT
    assert runtime.check_command(ticket("c-1"), NOW) is Verdict.CARRY_OUT


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
    assert runtime.shown_game is None
    waiting = Assignment(3, "g-W", "Li", "Zhang", "renju", "free", {}, "600+5", 3, 1, False, NOW)
    runtime.offer_assignment(waiting)
    assert runtime.shown_game == "g-W"  # the first next-game is signed for it
    runtime.begin(1_000_000, NOW)
    assert runtime.shown_game == "g-W"
    runtime.offer_assignment(replace(waiting, game_id="g-X"))
    assert runtime.shown_game == "g-W"  # still played (or over): next-game is signed for it
