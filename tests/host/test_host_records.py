"""Each finished game's record is written beside the journal, once, and rebuilt the same
after a crash."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from support.broker import MosquittoBroker
from support.host import HostUnderTest, wait_for
from wuzi.rules.record_json import record_from_json

BLACK, WHITE = 1, 2


@pytest.fixture
def host(tmp_path: Path, mosquitto: MosquittoBroker) -> Iterator[HostUnderTest]:
    h = HostUnderTest(tmp_path, mosquitto.url, tables=1)
    yield h
    h.close()


def test_a_finished_game_leaves_its_record_and_a_restart_rewrites_the_same(
    host: HostUnderTest, tmp_path: Path
) -> None:
    host.start()
    wait_for(lambda: 1 in host.observer.states, 10, "the table state")
    folder = tmp_path / "state" / "records"
    played = ["a1", "h8", "c1", "h9", "e1", "h10"]
    for n, name in enumerate(played):
        host.move(1, name, BLACK if n % 2 == 0 else WHITE, n % 2)
    assert not folder.exists() or not list(folder.glob("*.json"))  # still running: no record
    answer = host.command("set-result", 1, winner="second", reason="resignation")
    assert answer["ok"], answer
    wait_for(lambda: bool(list(folder.glob("*.json"))), 10, "the record file")
    (path,) = folder.glob("*.json")
    text = path.read_text()
    record = record_from_json(text)
    assert [m.point for m in record.moves] == list(host.observer.moves(1))
    data = json.loads(text)
    assert data["moves"] == played
    assert data["result"] == "white"
    assert data["termination"]["reason"] == "referee"  # set by the referee: resignation
    assert "resignation" in data["termination"]["detail"]
    host.kill()
    path.unlink()
    host.start()
    wait_for(lambda: path.exists(), 10, "the record rebuilt after the restart")
    assert path.read_text() == text
