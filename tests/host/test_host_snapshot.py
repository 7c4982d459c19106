"""Table snapshots (``wuzi.host.snapshot``): recovery from one equals a full replay."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from support.table_journal import journal_records, play
from wuzi.bus.schemas import Assignment
from wuzi.host import snapshot as snapshots
from wuzi.host.table_runtime import GAME_START_KIND, TableRuntime
from wuzi.journal import Journal
from wuzi.table.checks import TableError
from wuzi.table.inputs import TableSetup

S = 1_000_000_000
WALL = 1_780_000_000_000
DOUBLE_THREE = ["h8", "a1", "i9", "a3", "h10", "a5", "i10", "a7", "j10"]  # j10: 3x3 (renju)


def assignment() -> Assignment:
    return Assignment(
        table=3,
        game_id="r1-b3",
        black="Li Wei",
        white="Zhang Min",
        rule_set="renju",
        opening="free",
        opening_settings={},
        time_control="600+5",
        board=3,
        game_in_match=1,
        playoff=False,
        issued_ms=WALL,
    )


def _full(journal: Journal, number: int = 3) -> TableRuntime:
    start = journal.last_seq_of_kind(f"t{number}", GAME_START_KIND)
    return TableRuntime.recover(number, "hall", journal.entries(f"t{number}", since_seq=start - 1))


def _from_snapshot(journal: Journal, number: int = 3) -> TableRuntime:
    kept = journal.snapshot(f"t{number}")
    assert kept is not None and kept.format == snapshots.format_id()
    base = snapshots.load(kept.data, number, "hall")
    assert base is not None
    tail = journal.entries(f"t{number}", since_seq=kept.seq)
    return TableRuntime.recover(number, "hall", tail, base)


def _same(a: TableRuntime, b: TableRuntime) -> None:
    assert a.session == b.session
    assert (a.game_id, a.assignment, a.public_seq) == (b.game_id, b.assignment, b.public_seq)
    assert (a.last_ns, a.started_wall_ms) == (b.last_ns, b.started_wall_ms)
    assert a.open_alerts == b.open_alerts
    assert a.board_cells() == b.board_cells()


@pytest.mark.parametrize("cut", range(0, len(DOUBLE_THREE) + 1, 2))
def test_a_snapshot_and_its_tail_rebuild_what_a_full_replay_does(tmp_path: Path, cut: int) -> None:
    with Journal.open(tmp_path / "j", "pi-1") as journal:
        runtime = TableRuntime(number=3, venue="hall")
        runtime.offer_assignment(assignment())
        journal_records(journal, runtime, runtime.begin(S, WALL))
        t = play(runtime, journal, DOUBLE_THREE[:cut], S)
        journal.save_snapshot(
            "t3", journal.last_seq("t3"), snapshots.format_id(), snapshots.dump(runtime)
        )
        journal_records(
            journal, runtime, runtime.feed_command("cmd-1", {"referee": "chief"}, [], WALL)
        )
        play(runtime, journal, DOUBLE_THREE[cut:], t)
        fast, full = _from_snapshot(journal), _full(journal)
    _same(fast, full)
    _same(fast, runtime)


def test_a_new_game_after_the_snapshot_starts_afresh(tmp_path: Path) -> None:
    setup = TableSetup(ruleset="freestyle", opening="free", time_control="600+5")
    with Journal.open(tmp_path / "j", "pi-1") as journal:
        runtime = TableRuntime(number=3, venue="hall")
        journal_records(journal, runtime, runtime.begin(S, WALL, setup))
        journal_records(journal, runtime, runtime.feed_command("cmd-1", {}, [], WALL))
        t = play(runtime, journal, ["h8", "a1"], S)
        seq = journal.last_seq("t3")
        journal.save_snapshot("t3", seq, snapshots.format_id(), snapshots.dump(runtime))
        # the table's next game, journaled after the snapshot (a host.game record first)
        second = TableRuntime(number=3, venue="hall")
        journal_records(journal, second, second.begin(t + S, WALL + 1, setup))
        play(second, journal, ["h8"], t + S)
        fast, full = _from_snapshot(journal), _full(journal)
    _same(fast, full)
    _same(fast, second)


def test_a_snapshot_that_cannot_be_read_is_none() -> None:
    assert snapshots.load(b"not a pickle", 3, "hall") is None
    assert snapshots.load(pickle.dumps({"session": None}), 3, "hall") is None


def test_a_tail_that_does_not_apply_is_a_table_error(tmp_path: Path) -> None:
    with Journal.open(tmp_path / "j", "pi-1") as journal:
        runtime = TableRuntime(number=3, venue="hall")
        runtime.offer_assignment(assignment())
        journal_records(journal, runtime, runtime.begin(S, WALL))
        t = play(runtime, journal, ["h8", "a1"], S)
        stale = snapshots.dump(runtime)
        play(runtime, journal, ["h9"], t)
        base = snapshots.load(stale, 3, "hall")
        assert base is not None
        # the stone entries again on top of a session that has them: refused, not merged
        tail = journal.entries("t3", since_seq=2)
        with pytest.raises(TableError, match="after the snapshot"):
            TableRuntime.recover(3, "hall", tail, base)


def test_the_format_names_the_code() -> None:
    assert snapshots.format_id().startswith("pickle5-")
    assert snapshots.format_id() == snapshots.format_id()
