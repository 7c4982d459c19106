"""The director's database: one transaction per input, append-only audit, resumption
after kill -9 with no result lost or doubled, the organisers' changes picked up."""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from support.director import TABLES, bus_result, confirm, final, make_core, result_event, winner_of
from wuzi.cli import main as wuzi_main
from wuzi.director.core import DirectorCore
from wuzi.director.store import DirectorStore, StaleCompetition
from wuzi.tournament.errors import StoreError
from wuzi.tournament.store import TournamentStore

NOW = 1_700_000_000_000
HERE = Path(__file__).resolve().parent


def _new_db(tmp_path: Path) -> Path:
    db = tmp_path / "final.db"
    comp = final()
    store = TournamentStore(db)
    store.create(comp.settings, "new")
    store.update(lambda _: comp, "add-team ×16")
    return db


def _commit(store: DirectorStore, core: DirectorCore, change, seq: int) -> int:  # type: ignore[no-untyped-def]
    if change.stored:
        seq = store.commit(
            competition=change.competition,
            tournament_log=change.tournament_log,
            games=list(change.games.values()),
            seen=change.seen,
            audit=change.audit,
            hosts=change.hosts,
            at_ms=change.now_ms,
            expected_log_seq=seq,
        )
    core.commit(change)
    return seq


def _load(db: Path) -> tuple[DirectorCore, int]:
    stored = DirectorStore(db).open()
    core = DirectorCore(
        stored.competition,
        TABLES,
        games=stored.games,
        seen=stored.seen,
        hosts=stored.hosts,
        options=make_core(stored.competition).options,
        referee_keys=make_core(stored.competition).keys,
    )
    return core, stored.log_seq


def test_what_is_stored_is_what_is_read_back(tmp_path: Path) -> None:
    db = _new_db(tmp_path)
    store = DirectorStore(db)
    core, seq = _load(db)
    seq = _commit(store, core, core.on_start(NOW), seq)
    ev = result_event("pi-1", 1, "r1-m1-b1", "first")
    seq = _commit(store, core, core.on_result_event(ev, NOW + 1), seq)
    cmd = confirm(1, "r1-m1-b1", "0-1", now_ms=NOW + 2)
    seq = _commit(store, core, core.on_command(cmd, NOW + 2), seq)
    again, _ = _load(db)
    assert again.games == core.games
    assert again.comp == core.comp
    assert again.seen == core.seen == {ev.event_id, cmd.command_id}
    records = store.audit_records()
    assert [r.action for r in records][-2:] == ["result-reported", "result-corrected"]
    assert records[-1].actor == "referee:chief-arbiter"
    assert records[-1].details["reported"] == "1-0"
    # the tournament's own log shows the director's pairing
    assert "director: pair" in TournamentStore(db).log()
    # and the organisers' command reads the same competition
    assert TournamentStore(db).load() == core.comp


def test_the_audit_log_is_append_only(tmp_path: Path) -> None:
    db = _new_db(tmp_path)
    core, seq = _load(db)
    _commit(DirectorStore(db), core, core.on_start(NOW), seq)
    conn = sqlite3.connect(db)
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        conn.execute("UPDATE director_audit SET actor = 'me'")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        conn.execute("DELETE FROM director_audit")
    conn.close()


def test_a_failed_write_changes_nothing(tmp_path: Path) -> None:
    db = _new_db(tmp_path)
    store = DirectorStore(db)
    core, seq = _load(db)
    seq = _commit(store, core, core.on_start(NOW), seq)
    before = db.read_bytes()
    change = core.on_result_event(result_event("pi-1", 1, "r1-m1-b1", "first"), NOW)
    bad = list(change.games.values())
    bad[0] = bad[0].__class__(**{**bad[0].__dict__, "state": "nonsense"})  # refused by CHECK
    with pytest.raises(sqlite3.IntegrityError):
        store.commit(
            competition=None,
            tournament_log=[],
            games=bad,
            seen=change.seen,
            audit=change.audit,
            hosts={},
            at_ms=NOW,
            expected_log_seq=seq,
        )
    assert db.read_bytes() == before


def test_the_organisers_changes_meanwhile_are_detected(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = _new_db(tmp_path)
    store = DirectorStore(db)
    core, seq = _load(db)
    seq = _commit(store, core, core.on_start(NOW), seq)
    # the organisers enter a forfeit for match 2 with their own command
    assert wuzi_main(["tournament", "--db", str(db), "result", "1", "2", "white-by-forfeit"]) == 0
    change = core.on_result_event(result_event("pi-1", 1, "r1-m1-b1", "first"), NOW)
    with pytest.raises(StaleCompetition) as info:
        _commit(store, core, change, seq)
    assert info.value.commands == ["result --board=2 --result=white-by-forfeit --round=1"]
    # reloaded, the director respects the forfeit: match 2's games are cancelled
    core, seq = _load(db)
    ch = core.on_start(NOW + 1, external=info.value.commands)
    assert [a.action for a in ch.audit].count("game-cancelled") == 3
    seq = _commit(store, core, ch, seq)
    assert {core.games[f"r1-m2-b{b}"].state for b in (1, 2, 3)} == {"cancelled"}
    assert core.assignment(4) is None  # cleared: nothing to play on table 4
    assert store.audit_records()[-4].action == "competition-changed"


def test_a_database_without_an_event_says_how_to_make_one(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match=r"wuzi tournament --db .* new"):
        DirectorStore(tmp_path / "none.db").open()
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a database at all" * 100)
    with pytest.raises(StoreError, match="not a tournament database"):
        DirectorStore(junk).open()


def _reference(tmp_path: Path) -> DirectorCore:
    core = make_core(final())
    core.commit(core.on_start(NOW))
    host = dict(TABLES)
    while not core.finished:
        game = min(
            (g for g in core.games.values() if g.state in ("assigned", "reported")),
            key=lambda g: g.seq,
        )
        w = winner_of(game.id)
        assert game.table is not None
        core.commit(
            core.on_result_event(result_event(host[game.table], game.table, game.id, w), NOW)
        )
        cmd = confirm(game.table, game.id, bus_result(w), now_ms=NOW, command_id=f"c-{game.id}")
        core.commit(core.on_command(cmd, NOW))
    return core


def test_kill_9_at_random_instants_loses_and_doubles_nothing(tmp_path: Path) -> None:
    db = _new_db(tmp_path)
    rng = random.Random(6)
    # the worker is a module of tests/support, run with tests/ on the path as pytest has it
    env = {**os.environ, "PYTHONPATH": str(HERE.parent)}
    kills = 0
    for attempt in range(40):
        proc = subprocess.Popen(
            [sys.executable, "-m", "support.director_kill_worker", str(db)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            text=True,
        )
        assert proc.stdout is not None
        # kill after a random number of stored inputs (and a random moment after it),
        # so that kills land before, inside and after transactions; the 7th run lives
        lines = rng.randrange(0, 40) if attempt < 6 else 10**9
        out = []
        for _ in range(lines):
            line = proc.stdout.readline()
            if not line:
                break
            out.append(line)
        if proc.poll() is None and lines < 10**9:
            time.sleep(rng.uniform(0, 0.02))
            proc.send_signal(signal.SIGKILL)
            proc.communicate()
            kills += 1
            continue
        rest, err = proc.communicate(timeout=60)
        assert proc.returncode == 0, err
        assert "FINISHED" in "".join(out) + rest
        break
    else:
        pytest.fail("the director never finished")
    assert kills >= 2, "the test should have killed the director mid-event"
    core, _ = _load(db)
    reference = _reference(tmp_path)
    assert core.comp.placements() == reference.comp.placements()
    assert {g.id: g.result for g in core.games.values()} == {
        g.id: g.result for g in reference.games.values()
    }
    records = DirectorStore(db).audit_records()
    reported = Counter(r.details["game"] for r in records if r.action == "result-reported")
    confirmed = Counter(r.details["game"] for r in records if r.action == "result-confirmed")
    assert set(reported.values()) == {1} and set(confirmed.values()) == {1}
    assert set(reported) == set(core.games)
    assert [r.seq for r in records] == list(range(1, len(records) + 1))
    started = sum(1 for r in records if r.action == "director-started")
    assert 2 <= started <= kills + 1  # a run killed while starting Python never got there


def test_the_audit_log_prints_as_text_and_html(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = _new_db(tmp_path)
    store = DirectorStore(db)
    core, seq = _load(db)
    seq = _commit(store, core, core.on_start(NOW), seq)
    wrong = result_event("pi-3", 1, "r1-m1-b1", "first")
    seq = _commit(store, core, core.on_result_event(wrong, NOW + 1), seq)
    seq = _commit(store, core, core.on_command(confirm(1, "r1-m1-b1", "0-1", now_ms=NOW), NOW), seq)
    assert wuzi_main(["director", "audit", "--db", str(db), "--utc"]) == 0
    text = capsys.readouterr().out
    assert "Audit log of the director — 决赛" in text
    assert "2023-11-14 22:13:20.000 +0000  director                  director-started" in text
    assert "match 1: T1 - T16 (places 1-16)" in text
    assert "reason=table 1 is served by host 'pi-1', not 'pi-3'" in text
    assert "referee:chief-arbiter" in text and "result-confirmed" in text
    out = tmp_path / "audit.html"
    assert (
        wuzi_main(["director", "audit", "--db", str(db), "--format", "html", "--output", str(out)])
        == 0
    )
    page = out.read_text()
    assert (
        page.startswith("<!DOCTYPE html>") and page.count("<tr") == len(store.audit_records()) + 1
    )
    assert '<tr class="refused">' in page
    assert wuzi_main(["director", "audit", "--db", str(tmp_path / "missing.db")]) == 1
    assert "wuzi tournament --db" in capsys.readouterr().err
