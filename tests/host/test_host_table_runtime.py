"""The host's per-table runtime with a real journal: what it journals, what it publishes,
and that recovery from the journal gives back the same table (game, numbering, alerts)."""

from __future__ import annotations

from pathlib import Path

import pytest

from support.table_journal import journal_records, play
from wuzi.bus.schemas import Assignment, Cleared
from wuzi.host.table_runtime import COMMAND_KIND, GAME_START_KIND, TableRuntime
from wuzi.journal import Journal
from wuzi.table.checks import TableError
from wuzi.table.inputs import RefereeResume, TableSetup
from wuzi.table.outputs import AlertReason

S = 1_000_000_000
DOUBLE_THREE = ["h8", "a1", "i9", "a3", "h10", "a5", "i10", "a7", "j10"]  # j10: 3x3
WALL = 1_780_000_000_000


def assignment(game_id: str = "r1-b3", **changes: object) -> Assignment:
    fields: dict[str, object] = dict(
        table=3,
        game_id=game_id,
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
    fields.update(changes)
    return Assignment(**fields)  # type: ignore[arg-type]


def test_an_assignment_waits_for_the_referee_and_repeats_change_nothing() -> None:
    runtime = TableRuntime(number=3, venue="hall")
    assert runtime.offer_assignment(assignment()) == (
        True,
        "game r1-b3 waits for the referee's start",
    )
    assert runtime.offer_assignment(assignment()) == (False, "already waiting")
    records = runtime.begin(10 * S, WALL)
    assert records[0].kind == GAME_START_KIND and not records[0].publish
    assert records[1].kind == "in.session_started" and not records[1].publish
    assert runtime.game_id == "r1-b3" and runtime.waiting is None
    assert runtime.offer_assignment(assignment()) == (False, "the current game")
    assert runtime.offer_assignment(Cleared("x")) == (False, "assignment withdrawn")


def test_a_bad_assignment_is_refused_before_anything_changes() -> None:
    runtime = TableRuntime(number=3, venue="hall")
    with pytest.raises(TableError, match="opening"):
        runtime.offer_assignment(assignment(opening="no-such-opening"))
    assert runtime.waiting is None


def test_a_new_game_needs_the_old_one_over() -> None:
    runtime = TableRuntime(number=3, venue="hall")
    runtime.begin(S, WALL, TableSetup(opening="free", time_control="600+5"))
    runtime.offer_assignment(assignment("r2-b3"))
    with pytest.raises(TableError, match="is not over"):
        runtime.begin(2 * S, WALL)
    assert runtime.waiting is not None and runtime.waiting.game_id == "r2-b3"


def test_public_events_are_numbered_without_the_gaps_of_referee_alerts(tmp_path: Path) -> None:
    with Journal.open(tmp_path / "j.db", "pi-1") as journal:
        runtime = TableRuntime(number=3, venue="hall")
        runtime.offer_assignment(assignment())
        journal_records(journal, runtime, runtime.begin(S, WALL))
        play(runtime, journal, DOUBLE_THREE, S)
        kinds = [(e.kind, e.payload.get("pseq")) for e in journal.entries() if "data" in e.payload]
    public = [p for k, p in kinds if k != "alert"]
    assert public == list(range(1, len(public) + 1))
    assert all(p is None for k, p in kinds if k == "alert")
    assert any(k == "alert" for k, _ in kinds)  # j10 is Black's double three: referees know
    assert runtime.open_alerts and runtime.open_alerts[-1][1].reason is AlertReason.FORBIDDEN


def test_recovery_gives_back_the_same_table(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    with Journal.open(path, "pi-1") as journal:
        runtime = TableRuntime(number=3, venue="hall")
        runtime.offer_assignment(assignment())
        journal_records(journal, runtime, runtime.begin(S, WALL))
        t = play(runtime, journal, DOUBLE_THREE, S)
        journal_records(
            journal, runtime, runtime.feed_command("cmd-1", {"referee": "chief"}, [], WALL)
        )
        t = play(runtime, journal, ["a1"], t)
    with Journal.open(path, "pi-1") as journal:
        start = journal.last_seq_of_kind("t3", GAME_START_KIND)
        back = TableRuntime.recover(3, "hall", journal.entries("t3", since_seq=start - 1))
    assert back.session == runtime.session
    assert back.game_id == "r1-b3" and back.assignment == runtime.assignment
    assert back.public_seq == runtime.public_seq
    assert [a for a, _ in back.open_alerts] == [a for a, _ in runtime.open_alerts]
    records = back.restarted(t + S, WALL)
    assert [r.kind for r in records][:1] == ["in.host_restarted"]
    assert back.session is not None and back.session.clock.state.turn is not None
    resumed = back.feed(RefereeResume(now_ns=t + 5 * S, referee="chief"), WALL)
    assert any(r.kind == "clock" for r in resumed)


def test_a_refused_command_leaves_the_session_as_it_was() -> None:
    runtime = TableRuntime(number=3, venue="hall")
    runtime.begin(S, WALL, TableSetup(opening="free", time_control="600+5"))
    assert runtime.session is not None
    before = runtime.session.inputs
    good = RefereeResume(now_ns=2 * S, referee="chief")  # nothing to resume: refused
    with pytest.raises(TableError):
        runtime.feed_command("cmd-2", {"referee": "chief"}, [good], WALL)
    assert runtime.session.inputs == before
    assert COMMAND_KIND == "host.command"


def test_the_next_game_command_belongs_to_the_game_it_began(tmp_path: Path) -> None:
    with Journal.open(tmp_path / "j.db", "pi-1") as journal:
        runtime = TableRuntime(number=3, venue="hall")
        runtime.offer_assignment(assignment())
        records = runtime.begin_by_command("cmd-start", {"referee": "chief"}, S, WALL)
        assert [r.kind for r in records[:3]] == [
            GAME_START_KIND,
            COMMAND_KIND,
            "in.session_started",
        ]
        assert records[1].payload["command_id"] == "cmd-start"
        journal_records(journal, runtime, records)
        back = TableRuntime.recover(3, "hall", journal.entries("t3"))
        assert back.game_id == runtime.game_id
        # a restart recalls it from the journal (a QoS 1 repeat is recognised)
        newest = journal.newest_of_kind("t3", COMMAND_KIND)
        assert [e.payload["command_id"] for e in newest] == ["cmd-start"]
