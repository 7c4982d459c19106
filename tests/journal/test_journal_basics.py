"""The journal as the table host uses it: append, read back, the outbox, bad input, files."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wuzi.journal import (
    APPLICATION_ID,
    SCHEMA_VERSION,
    Journal,
    JournalClosedError,
    JournalEntry,
    JournalFileError,
    JournalInputError,
    measure_append_us,
    replay,
)


@pytest.fixture
def journal(tmp_path: Path) -> Any:
    with Journal.open(tmp_path / "host.db", "pi-01") as opened:
        yield opened


def snapshot(journal: Journal) -> tuple[list[JournalEntry], list[JournalEntry], list[str]]:
    return list(journal.entries()), journal.pending(10_000), journal.tables()


def test_append_assigns_gap_free_seq_and_unique_ids_per_table(journal: Journal) -> None:
    first = journal.append("t1", "board.stone", {"point": "h8"}, 1000)
    other = journal.append("t2", "clock.press", {"seat": "black"}, 1001)
    second = journal.append("t1", "rules.move", {"point": "h8", "number": 1}, 1002)
    assert (first.seq, second.seq, other.seq) == (1, 2, 1)
    assert (first.id, second.id, other.id) == ("pi-01/t1/1", "pi-01/t1/2", "pi-01/t2/1")
    assert journal.last_seq("t1") == 2
    assert journal.last_seq("t9") == 0
    assert journal.tables() == ["t1", "t2"]


def test_entries_round_trip_in_append_order_and_filter_by_table(tmp_path: Path) -> None:
    path = tmp_path / "host.db"
    with Journal.open(path, "pi-01") as journal:
        written = [journal.append(f"t{i % 3}", "tick", {"i": i}, i) for i in range(10)]
    with Journal.open(path, "pi-01") as journal:
        assert list(journal.entries()) == written
        t1 = list(journal.entries("t1"))
        assert t1 == [e for e in written if e.table == "t1"]
        assert [e.seq for e in journal.entries("t1", since_seq=2)] == [3]
        assert journal.entries("t1", since_seq=2).__next__().payload == {"i": 7}


def test_entries_pages_through_more_than_one_page(journal: Journal) -> None:
    written = journal.append_many([("t1", "tick", {"i": i}, i) for i in range(600)])
    assert [e.seq for e in journal.entries("t1")] == list(range(1, 601))
    assert list(journal.entries()) == written


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**63 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(payload=st.dictionaries(st.text(), JSON_VALUES, max_size=5))
def test_any_json_payload_reads_back_equal(journal: Journal, payload: dict[str, Any]) -> None:
    entry = journal.append("t1", "any", payload, 5)
    assert entry.payload == payload
    assert [e.payload for e in journal.entries("t1", since_seq=entry.seq - 1)] == [payload]


def test_replay_rebuilds_state_with_a_reducer(journal: Journal) -> None:
    def reducer(stones: dict[str, str], entry: JournalEntry) -> dict[str, str]:
        if entry.kind == "stone.placed":
            return {**stones, entry.payload["point"]: entry.payload["colour"]}
        if entry.kind == "stone.removed":
            return {k: v for k, v in stones.items() if k != entry.payload["point"]}
        return stones

    journal.append("t1", "stone.placed", {"point": "h8", "colour": "black"}, 1)
    journal.append("t2", "stone.placed", {"point": "a1", "colour": "black"}, 2)
    journal.append("t1", "stone.placed", {"point": "h9", "colour": "white"}, 3)
    journal.append("t1", "clock.press", {}, 4)
    journal.append("t1", "stone.removed", {"point": "h8"}, 5)
    empty: dict[str, str] = {}
    assert replay(journal.entries("t1"), reducer, empty) == {"h9": "white"}
    assert replay(journal.entries("t1", since_seq=3), reducer, {"x": "y"}) == {"x": "y"}
    assert replay([], reducer, {"x": "y"}) == {"x": "y"}


# -- the outbox ------------------------------------------------------------------------------


def test_outbox_drains_in_append_order_across_tables(journal: Journal) -> None:
    written = [journal.append(f"t{i % 2}", "tick", {"i": i}, i) for i in range(6)]
    assert journal.pending(4) == written[:4]
    assert journal.mark_sent([written[0].id, written[1].id]) == 2
    assert journal.pending(100) == written[2:]
    # acknowledged out of order: the rest still drain in order
    assert journal.mark_sent([written[4].id]) == 1
    assert [e.id for e in journal.pending(100)] == [written[i].id for i in (2, 3, 5)]


def test_mark_sent_is_idempotent_and_survives_reopen(tmp_path: Path) -> None:
    path = tmp_path / "host.db"
    with Journal.open(path, "pi-01") as journal:
        a, b = journal.append("t1", "x", {}, 0), journal.append("t1", "y", {}, 0)
        assert journal.mark_sent([a.id, a.id]) == 1
        assert journal.mark_sent([a.id]) == 0
    with Journal.open(path, "pi-01") as journal:
        assert journal.pending(10) == [b]
        assert journal.mark_sent([]) == 0
        assert list(journal.entries()) == [a, b]  # sent events stay in the log


def test_mark_sent_with_an_unknown_id_changes_nothing(journal: Journal) -> None:
    a = journal.append("t1", "x", {}, 0)
    journal.append("t1", "y", {}, 0)
    before = snapshot(journal)
    with pytest.raises(JournalInputError, match="pi-01/t1/99"):
        journal.mark_sent([a.id, "pi-01/t1/99"])
    assert snapshot(journal) == before


def test_an_acknowledgement_is_committed_without_a_flush_of_its_own(journal: Journal) -> None:
    """A lost mark only sends an event again: the loop must not wait on the disk for it.
    The statements the connection runs show the commit under ``synchronous = NORMAL``,
    and FULL back for the next append, also after a refused id."""
    a = journal.append("t1", "x", {}, 0)
    ran: list[str] = []
    db = journal._conn()
    db.set_trace_callback(ran.append)
    try:
        assert journal.mark_sent([a.id]) == 1
        with pytest.raises(JournalInputError):
            journal.mark_sent(["pi-01/t1/99"])
    finally:
        db.set_trace_callback(None)
    assert ran[0] == "PRAGMA synchronous = NORMAL"
    assert ran.index("COMMIT") < ran.index("PRAGMA synchronous = FULL")
    assert ran[-1] == "PRAGMA synchronous = FULL"
    assert db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


@pytest.mark.parametrize("limit", [0, -1, 1.5, True, "3"])
def test_pending_refuses_a_bad_limit(journal: Journal, limit: Any) -> None:
    with pytest.raises(JournalInputError, match="limit"):
        journal.pending(limit)


# -- bad input -------------------------------------------------------------------------------

BAD_APPENDS = [
    (("T1", "x", {}, 0), "table id 'T1'"),
    (("t/1", "x", {}, 0), "table id 't/1'"),
    (("", "x", {}, 0), "table id ''"),
    ((7, "x", {}, 0), "table id 7"),
    (("t1", "Bad Kind", {}, 0), "event kind 'Bad Kind'"),
    (("t1", "", {}, 0), "event kind ''"),
    (("t1", "x", {}, -1), "must not be negative"),
    (("t1", "x", {}, 1.0), "integer of milliseconds"),
    (("t1", "x", {}, True), "integer of milliseconds"),
    (("t1", "x", [1], 0), "payload must be a dict"),
    (("t1", "x", {"a": {1, 2}}, 0), r"payload\['a'\] is a set"),
    (("t1", "x", {"a": (1, 2)}, 0), r"payload\['a'\] is a tuple"),
    (("t1", "x", {"a": [0, float("nan")]}, 0), r"payload\['a'\]\[1\] is nan"),
    (("t1", "x", {"a": {3: "b"}}, 0), r"payload\['a'\] has a non-string key 3"),
    (("t1", "x", {"a": b"raw"}, 0), r"payload\['a'\] is a bytes"),
    (("t1", "x", {"a": object()}, 0), r"payload\['a'\] is a object"),
]


@pytest.mark.parametrize(("args", "message"), BAD_APPENDS)
def test_bad_append_is_refused_and_writes_nothing(
    journal: Journal, args: tuple[Any, Any, Any, Any], message: str
) -> None:
    journal.append("t1", "x", {"ok": True}, 0)
    before = snapshot(journal)
    with pytest.raises(JournalInputError, match=message):
        journal.append(*args)
    assert snapshot(journal) == before
    assert journal.append("t1", "x", {}, 0).seq == 2  # no seq was used up


def test_append_many_is_all_or_nothing(journal: Journal) -> None:
    before = snapshot(journal)
    with pytest.raises(JournalInputError, match="event 1: t_ms must not be negative"):
        journal.append_many([("t1", "x", {}, 0), ("t1", "x", {}, -5)])
    assert snapshot(journal) == before


@pytest.mark.parametrize("since", [-1, 1.5, None])
def test_entries_refuses_bad_arguments(journal: Journal, since: Any) -> None:
    with pytest.raises(JournalInputError, match="since_seq"):
        journal.entries("t1", since)
    with pytest.raises(JournalInputError, match="table id"):
        journal.entries("no such/table")


def test_closed_journal_refuses_every_operation(tmp_path: Path) -> None:
    journal = Journal.open(tmp_path / "host.db", "pi-01")
    journal.close()
    journal.close()
    assert journal.closed
    for call in (
        lambda: journal.append("t1", "x", {}, 0),
        lambda: journal.entries(),
        lambda: journal.pending(1),
        lambda: journal.mark_sent([]),
        journal.tables,
    ):
        with pytest.raises(JournalClosedError, match=r"host\.db"):
            call()


# -- files -----------------------------------------------------------------------------------


def test_a_journal_is_marked_and_durable(journal: Journal) -> None:
    db = sqlite3.connect(journal.path)
    try:
        assert db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        db.close()
    # synchronous is per connection: check the journal's own (2 = FULL)
    assert journal._conn().execute("PRAGMA synchronous").fetchone()[0] == 2


def test_garbage_file_is_refused_by_name_and_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    path.write_bytes(b"this is a shopping list, not a journal\n" * 50)
    with pytest.raises(JournalFileError, match=r"notes\.db.*not a SQLite database"):
        Journal.open(path, "pi-01")
    assert path.read_bytes() == b"this is a shopping list, not a journal\n" * 50


def test_foreign_sqlite_database_is_refused_and_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE stuff (x)")
    db.commit()
    db.close()
    before = path.read_bytes()
    with pytest.raises(JournalFileError, match=r"other\.db.*another application"):
        Journal.open(path, "pi-01")
    assert path.read_bytes() == before


def test_another_hosts_journal_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "host.db"
    Journal.open(path, "pi-01").close()
    with pytest.raises(JournalFileError, match=r"host\.db.*of host 'pi-01', not of host 'pi-02'"):
        Journal.open(path, "pi-02")


def test_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "host.db"
    Journal.open(path, "pi-01").close()
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()
    with pytest.raises(JournalFileError, match=r"host\.db.*schema version 2"):
        Journal.open(path, "pi-01")


def test_damaged_journal_is_refused_by_name(tmp_path: Path) -> None:
    path = tmp_path / "host.db"
    with Journal.open(path, "pi-01") as journal:
        journal.append_many([("t1", "x", {"pad": "p" * 200}, i) for i in range(100)])
    db = sqlite3.connect(path)  # fold the WAL into the main file so the damage is there
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    data = bytearray(path.read_bytes())
    page = 4096
    for offset in range(2 * page, len(data), page):  # overwrite every page after the first two
        data[offset : offset + 64] = b"\xff" * 64
    path.write_bytes(bytes(data))
    with pytest.raises(JournalFileError, match=r"host\.db.*damaged"):
        Journal.open(path, "pi-01")


def test_missing_folder_and_directory_are_refused(tmp_path: Path) -> None:
    with pytest.raises(JournalFileError, match="does not exist"):
        Journal.open(tmp_path / "nope" / "host.db", "pi-01")
    with pytest.raises(JournalFileError, match="is a directory"):
        Journal.open(tmp_path, "pi-01")


@pytest.mark.parametrize("host", ["", "Pi 1", "a/b", None])
def test_bad_host_id_is_refused_before_any_file_is_made(tmp_path: Path, host: Any) -> None:
    with pytest.raises(JournalInputError, match="host id"):
        Journal.open(tmp_path / "host.db", host)
    assert not (tmp_path / "host.db").exists()


def test_measure_append_us_reports_a_positive_figure(tmp_path: Path) -> None:
    assert measure_append_us(tmp_path / "bench.db", 5) > 0
    with Journal.open(tmp_path / "bench.db", "bench") as journal:
        assert len(list(journal.entries())) == 5
    with pytest.raises(ValueError, match="n must be at least 1"):
        measure_append_us(tmp_path / "bench2.db", 0)


def test_a_fifo_or_a_device_as_journal_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "host.db"
    os.mkfifo(fifo)  # a plain open() of it would wait for a writer for ever
    with pytest.raises(JournalFileError, match=r"host\.db: is a FIFO \(named pipe\), not a"):
        Journal.open(fifo, "pi-01")
    with pytest.raises(JournalFileError, match=r"/dev/zero: is a character device, not a"):
        Journal.open("/dev/zero", "pi-01")
    with pytest.raises(JournalFileError, match=r"is a directory, not a journal file"):
        Journal.open(tmp_path, "pi-01")
