"""Drill (issue 32, items 5 and 8), with a real `wuzi host`: a broker crash with
persistence never leaves the hall's screens showing the past.

Two tables on simulated boards and clock units (ptys), a real Mosquitto with persistence
saved at every change. Both tables play two moves; the broker's database is saved then
(a clean stop, and a copy of it kept: the last save that survives). The referee pauses
table 1 and pauses and resumes table 2 (the control socket). Mosquitto is SIGKILLed and
restarted on the saved database, which holds ``playing`` on both tables and their older
referee views; the host, whose messages were all acknowledged, has nothing to resend.
Within 1 s of the host's reconnect (the broker's log says when), a fresh subscriber must
read every retained table state, referee state and host status equal to what the host
last published (a live reader on the bus saw it publish them). Before the host
republished its retained messages on a reconnect, 1 of 5 matched (the birth status): the
broker served ``playing`` on both tables; measured after: 106-135 ms (5 runs), the fresh
reader's own connection included.
"""

from __future__ import annotations

import shutil
import threading
import time
from pathlib import Path

import pytest

from support.broker import MosquittoBroker, read_retained
from support.host import HostUnderTest, wait_for
from wuzi.bus import topics
from wuzi.bus.client import BusClient
from wuzi.bus.schemas import Message, RefereeState, TableState, encode, parse_message

BLACK, WHITE = 1, 2
TABLES = (1, 2)
WITHIN_S = 1.0


class LastWord:
    """A live reader of the host's retained topics: the last message published on each."""

    def __init__(self, url: str, venue: str) -> None:
        self.filters = [
            topics.all_table_states(venue),
            topics.all_arbiter_states(venue),
            topics.all_host_statuses(venue),
        ]
        self.lock = threading.Lock()
        self.last: dict[str, bytes] = {}
        self.messages: dict[str, Message] = {}
        self.bus = BusClient(url, f"last-word-{venue}")
        for topic_filter in self.filters:
            self.bus.subscribe(topic_filter, self._take)
        self.bus.connect()
        assert self.bus.wait_connected(10) and self.bus.wait_subscribed(10)

    def _take(self, topic: str, message: Message) -> None:
        with self.lock:
            self.last[topic] = encode(message)
            self.messages[topic] = message

    def now(self) -> dict[str, bytes]:
        with self.lock:
            return dict(self.last)

    def state(self, venue: str, table: int) -> TableState:
        with self.lock:
            state = self.messages[topics.table_state(venue, table)]
        assert isinstance(state, TableState)
        return state

    def quiet(self, for_s: float = 0.3, timeout_s: float = 10.0) -> dict[str, bytes]:
        """Wait until nothing new was published for ``for_s``; what it was then."""
        deadline = time.monotonic() + timeout_s
        last, since = self.now(), time.monotonic()
        while time.monotonic() - since < for_s:
            if time.monotonic() > deadline:
                pytest.fail("the host never stopped publishing", pytrace=False)
            time.sleep(0.02)
            now = self.now()
            if now != last:
                last, since = now, time.monotonic()
        return last


def _summary(retained: dict[str, bytes], venue: str) -> dict[str, str]:
    out = {}
    for topic, payload in sorted(retained.items()):
        message = parse_message(topic, payload)
        if isinstance(message, TableState | RefereeState):
            out[topic.removeprefix(f"wuzi/v1/{venue}/")] = f"{message.status} seq {message.seq}"
        else:
            out[topic.removeprefix(f"wuzi/v1/{venue}/")] = "host status"
    return out


def _host_connected(broker: MosquittoBroker, client: str, offset: int) -> float:
    """Wait until the broker's log, past ``offset``, says ``client`` connected; the instant
    that was seen (polled every 5 ms)."""
    deadline = time.monotonic() + 15.0
    while f" as {client} " not in broker.log_text()[offset:]:
        if time.monotonic() > deadline:
            pytest.fail(f"{client} did not reconnect:\n{broker.log_text()}", pytrace=False)
        time.sleep(0.005)
    return time.monotonic()


def test_the_host_corrects_a_broker_restarted_on_an_old_database(tmp_path: Path) -> None:
    (tmp_path / "broker").mkdir()
    broker = MosquittoBroker(tmp_path / "broker", persistence=True, autosave_on_changes=True)
    broker.start()
    host = HostUnderTest(tmp_path, broker.url, tables=2)
    venue = host.venue_id
    owned = [topics.host_status(venue, "pi-test")]
    for table in TABLES:
        owned += [topics.table_state(venue, table), topics.arbiter_state(venue, table)]
    reader = LastWord(broker.url, venue)
    try:
        host.start()
        wait_for(lambda: all(t in host.observer.states for t in TABLES), 10, "table states")
        for table in TABLES:
            host.move(table, "h8", BLACK, 0)
            host.move(table, "a1", WHITE, 1)
        before = reader.quiet()
        assert sorted(before) == sorted(owned)

        broker.stop()  # the save that survives: exactly what the broker held
        old_db = tmp_path / "old.db"
        shutil.copy(broker.database, old_db)
        broker.start()
        wait_for(
            lambda: read_retained(broker.url, reader.filters, owned, 1.0) == reader.now(),
            10,
            "the host to republish after the clean restart",
        )

        assert host.command("pause", 1, reason="dispute")["ok"]
        assert host.command("pause", 2, reason="dispute")["ok"]
        assert host.command("resume", 2)["ok"]
        wait_for(lambda: reader.state(venue, 1).status == "paused", 10, "table 1 paused")
        truth = reader.quiet()
        assert reader.state(venue, 2).status == "playing"
        changed = [t for t in owned if truth[t] != before[t]]
        assert len(changed) >= 4, f"the referee's commands changed only {changed}"
        assert read_retained(broker.url, reader.filters, owned) == truth

        broker.kill()
        shutil.copy(old_db, broker.database)
        offset = len(broker.log_text())
        broker.start()
        since = _host_connected(broker, f"wuzi.{venue}.host.pi-test", offset)
        while True:
            seen = read_retained(broker.url, reader.filters, owned, WITHIN_S)
            took = time.monotonic() - since
            if seen == truth:
                break
            if took > WITHIN_S:
                matching = sum(seen.get(t) == truth[t] for t in owned)
                pytest.fail(
                    f"{took:.2f} s after the host reconnected, {matching} of {len(owned)} "
                    f"retained messages are the host's: the broker has {_summary(seen, venue)}, "
                    f"the host published {_summary(truth, venue)}",
                    pytrace=False,
                )
            time.sleep(0.01)
    finally:
        reader.bus.close()
        host.close()
        broker.stop()
