"""Durability across SIGKILL, and readers alongside a writer in another process."""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from wuzi.journal import Journal

WRITER = """
import sys
from wuzi.journal import Journal
path, start, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
with Journal.open(path, "pi-01") as journal:
    print("ready", flush=True)
    for i in range(start, start + count):
        entry = journal.append(f"t{i % 3}", "tick", {"i": i}, i)
        print(entry.table, entry.seq, i, flush=True)
print("done", flush=True)
"""


def start_writer(path: Path, start: int, count: int) -> subprocess.Popen[str]:
    child = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(path), str(start), str(count)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    line = child.stdout.readline()
    if line != "ready\n":
        child.kill()
        raise AssertionError(f"writer did not start: {line!r} {child.communicate()[1]}")
    return child


def check_gap_free_prefix(journal: Journal) -> int:
    """Assert the log is events 0..n-1 of the writers, each table gap-free; return n."""
    entries = list(journal.entries())
    assert [e.payload["i"] for e in entries] == list(range(len(entries)))
    per_table: dict[str, int] = {}
    for entry in entries:
        per_table[entry.table] = per_table.get(entry.table, 0) + 1
        assert entry.seq == per_table[entry.table], entry
        assert entry.id == f"pi-01/{entry.table}/{entry.seq}"
    return len(entries)


def test_every_returned_append_survives_sigkill(tmp_path: Path) -> None:
    seed = random.randrange(2**32)
    rng = random.Random(seed)
    path = tmp_path / "host.db"
    total = 0
    for round_number in range(5):
        child = start_writer(path, total, 100_000)
        assert child.stdout is not None
        kill_after = rng.randint(0, 40)
        reported: list[tuple[str, int, int]] = []
        for _ in range(kill_after):
            table, seq, i = child.stdout.readline().split()
            reported.append((table, int(seq), int(i)))
        os.kill(child.pid, signal.SIGKILL)
        rest, _ = child.communicate()
        assert child.returncode == -signal.SIGKILL
        for line in rest.splitlines():  # printed before the kill, still in the pipe
            table, seq, i = line.split()
            reported.append((table, int(seq), int(i)))

        with Journal.open(path, "pi-01") as journal:
            found = check_gap_free_prefix(journal)
            present = {(e.table, e.seq, e.payload["i"]) for e in journal.entries()}
            missing = [r for r in reported if r not in present]
            context = f"seed {seed}, round {round_number}"
            assert not missing, f"{context}: returned appends lost: {missing}"
            # at most one append was in flight: committed but not yet reported
            assert total + len(reported) <= found <= total + len(reported) + 1, context
            # the outbox lost nothing either
            assert len(journal.pending(1_000_000)) == found
        total = found


def test_reader_in_this_process_sees_a_growing_prefix_while_another_process_writes(
    tmp_path: Path,
) -> None:
    path = tmp_path / "host.db"
    child = start_writer(path, 0, 300)
    seen: list[int] = []
    with Journal.open(path, "pi-01") as reader:
        while child.poll() is None:
            seen.append(check_gap_free_prefix(reader))
        out, err = child.communicate()
        assert child.returncode == 0, err
        assert out.endswith("done\n")
        seen.append(check_gap_free_prefix(reader))
    assert seen == sorted(seen)
    assert seen[-1] == 300


def test_reader_is_not_blocked_by_an_open_write_and_never_sees_it(tmp_path: Path) -> None:
    path = tmp_path / "host.db"
    with Journal.open(path, "pi-01") as journal:
        journal.append("t1", "x", {"i": 0}, 0)
    writer = sqlite3.connect(path, isolation_level=None)
    try:
        writer.execute("BEGIN IMMEDIATE")
        writer.execute(
            "INSERT INTO events (table_id, seq, id, kind, t_ms, payload)"
            " VALUES ('t1', 2, 'pi-01/t1/2', 'x', 0, '{}')"
        )
        with Journal.open(path, "pi-01") as reader:
            assert [e.seq for e in reader.entries("t1")] == [1]
        writer.execute("ROLLBACK")
    finally:
        writer.close()


@pytest.mark.parametrize("count", [1, 50])
def test_log_written_by_a_clean_exit_reopens_whole(tmp_path: Path, count: int) -> None:
    path = tmp_path / "host.db"
    child = start_writer(path, 0, count)
    child.communicate()
    assert child.returncode == 0
    with Journal.open(path, "pi-01") as journal:
        assert check_gap_free_prefix(journal) == count
        assert journal.tables() == sorted({f"t{i % 3}" for i in range(count)})
