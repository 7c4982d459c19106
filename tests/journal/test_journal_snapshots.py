"""Journal snapshots: one per table, a cache beside the events (issue 22)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from wuzi.journal import Journal, JournalInputError, Snapshot


def _events(journal: Journal, table: str, count: int) -> None:
    journal.append_many([(table, "in.stone", {"n": i}, i, False) for i in range(count)])


def test_a_snapshot_is_kept_and_replaced(tmp_path: Path) -> None:
    with Journal.open(tmp_path / "j", "pi-1") as journal:
        assert journal.snapshot("t1") is None
        _events(journal, "t1", 5)
        journal.save_snapshot("t1", 3, "f1", b"three")
        assert journal.snapshot("t1") == Snapshot("t1", 3, "f1", b"three")
        journal.save_snapshot("t1", 5, "f2", b"five")
        assert journal.snapshot("t1") == Snapshot("t1", 5, "f2", b"five")
        assert journal.snapshot("t2") is None
    with Journal.open(tmp_path / "j", "pi-1") as journal:  # it survives a reopen
        assert journal.snapshot("t1") == Snapshot("t1", 5, "f2", b"five")
        assert [e.seq for e in journal.entries("t1")] == [1, 2, 3, 4, 5]  # events untouched


@pytest.mark.parametrize(
    ("seq", "format_id", "data", "says"),
    [
        (6, "f", b"x", "has 5 events, no event 6"),
        (0, "f", b"x", "seq must be a positive integer"),
        (True, "f", b"x", "seq must be a positive integer"),
        (2, "", b"x", "format_id must be a non-empty string"),
        (2, "f", "x", "data must be bytes"),
    ],
)
def test_a_bad_snapshot_is_refused_and_nothing_is_written(
    tmp_path: Path, seq: object, format_id: object, data: object, says: str
) -> None:
    with Journal.open(tmp_path / "j", "pi-1") as journal:
        _events(journal, "t1", 5)
        with pytest.raises(JournalInputError, match=says):
            journal.save_snapshot("t1", seq, format_id, data)  # type: ignore[arg-type]
        assert journal.snapshot("t1") is None


def test_a_journal_from_before_snapshots_gets_the_table_when_opened(tmp_path: Path) -> None:
    path = tmp_path / "j"
    with Journal.open(path, "pi-1") as journal:
        _events(journal, "t1", 2)
    with sqlite3.connect(path) as db:  # as an older host wrote it: no snapshots table
        db.execute("DROP TABLE snapshots")
    with Journal.open(path, "pi-1") as journal:
        assert journal.snapshot("t1") is None
        journal.save_snapshot("t1", 2, "f", b"x")
        assert journal.snapshot("t1") == Snapshot("t1", 2, "f", b"x")


def test_saving_a_snapshot_leaves_the_appends_durable(tmp_path: Path) -> None:
    with Journal.open(tmp_path / "j", "pi-1") as journal:
        _events(journal, "t1", 1)
        journal.save_snapshot("t1", 1, "f", b"x")
        db = journal._conn()
        assert db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL again
