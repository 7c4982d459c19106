"""What the table host needs beyond append/read: inputs kept out of the outbox, where the
current game starts, and the last instant the host knew it was alive."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from wuzi.journal import Journal, JournalInputError


@pytest.fixture
def journal(tmp_path: Path) -> Any:
    with Journal.open(tmp_path / "host.db", "pi-01") as opened:
        yield opened


def test_unpublished_events_are_journaled_but_not_in_the_outbox(journal: Journal) -> None:
    written = journal.append_many(
        [
            ("t1", "in.stone_settled", {"point": 112}, 5, False),
            ("t1", "move", {"point": 112}, 5, True),
            ("t1", "clock", {}, 5),
        ]
    )
    assert [e.seq for e in written] == [1, 2, 3]
    assert [e.kind for e in journal.pending()] == ["move", "clock"]
    journal.append("t1", "in.clock_pressed", {"seat": "first"}, 6, publish=False)
    assert len(list(journal.entries("t1"))) == 4
    assert [e.kind for e in journal.pending()] == ["move", "clock"]


def test_a_bad_publish_flag_writes_nothing(journal: Journal) -> None:
    with pytest.raises(JournalInputError, match="event 1: publish must be True or False"):
        journal.append_many([("t1", "a", {}, 0), ("t1", "b", {}, 0, "yes")])  # type: ignore[list-item]
    assert list(journal.entries()) == []


def test_last_seq_of_kind_finds_where_the_current_game_starts(journal: Journal) -> None:
    assert journal.last_seq_of_kind("t1", "in.session_started") == 0
    for kind in ("in.session_started", "x", "x", "in.session_started", "x"):
        journal.append("t1", kind, {}, 0, publish=False)
    journal.append("t2", "in.session_started", {}, 0, publish=False)
    assert journal.last_seq_of_kind("t1", "in.session_started") == 4
    assert journal.last_seq_of_kind("t2", "in.session_started") == 1
    with pytest.raises(JournalInputError, match="event kind"):
        journal.last_seq_of_kind("t1", "Bad Kind")


def test_where_a_game_starts_is_found_by_the_index_not_by_a_scan(tmp_path: Path) -> None:
    """A host recovering late in the day must not read every earlier game of a table: the
    query runs on ``events_by_kind``, which a file from before it gets when opened."""
    path = tmp_path / "host.db"
    with Journal.open(path, "pi-01") as journal:
        for kind in ("in.session_started", "x", "in.session_started", "x"):
            journal.append("t1", kind, {}, 0, publish=False)
    query = "SELECT MAX(seq) FROM events WHERE table_id = ? AND kind = ?"
    with closing(sqlite3.connect(path)) as db:  # as an older host wrote it: no index
        plan = db.execute(f"EXPLAIN QUERY PLAN {query}", ("t1", "x")).fetchall()
        assert "events_by_kind" in str(plan)
        db.execute("DROP INDEX events_by_kind")
        db.commit()
    with Journal.open(path, "pi-01") as journal:
        assert journal.last_seq_of_kind("t1", "in.session_started") == 3
    with closing(sqlite3.connect(path)) as db:
        plan = db.execute(f"EXPLAIN QUERY PLAN {query}", ("t1", "x")).fetchall()
    assert "USING COVERING INDEX events_by_kind" in str(plan)


def test_alive_instant_is_durable_and_replaced(tmp_path: Path) -> None:
    path = tmp_path / "host.db"
    with Journal.open(path, "pi-01") as journal:
        assert journal.alive_ns() is None
        journal.note_alive(1_000)
        journal.note_alive(2_000_000_123)
    with Journal.open(path, "pi-01") as journal:
        assert journal.alive_ns() == 2_000_000_123
        for bad in (-1, 1.5, True, "5"):
            with pytest.raises(JournalInputError, match="host_ns"):
                journal.note_alive(bad)  # type: ignore[arg-type]
        assert journal.alive_ns() == 2_000_000_123
