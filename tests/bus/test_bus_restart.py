"""Nothing lost across a broker restart: a host-like publisher keeps publishing moves while
a real Mosquitto (persistence on) is stopped and started on the same port, again and again;
a screen's feed with a persistent session gets every event in order, and a throwaway
(clean-session) feed that misses some finds the gap and fills it from the retained state.

The race of issue 18 (the publisher's queued events reaching the restarted broker before a
subscriber re-subscribed) is given a chance on every round: the publisher queues moves
while the broker is down and keeps publishing as soon as it is back."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from support.broker import MosquittoBroker, wait_until
from wuzi.bus import topics
from wuzi.bus.client import BusClient
from wuzi.bus.identity import client_id
from wuzi.bus.schemas import TableEvent, TableState
from wuzi.bus.url import BusConfigError
from wuzi.display.feed import BusFeed

RESTARTS = 10
PER_PHASE = 3  # moves before the stop, while down, right after the start
TABLE = 1
GAME = "r1-g1"
_venues = itertools.count(1)


def _event(seq: int) -> TableEvent:
    return TableEvent(f"pi-1/{TABLE}/{GAME}/{seq}", TABLE, GAME, seq, "move", 1000 + seq, {})


def _state(seq: int) -> TableState:
    moves = tuple(range(seq))
    return TableState(TABLE, GAME, seq, "playing", moves, 60_000, 60_000, "black", None, seq)


def test_events_survive_ten_broker_restarts(tmp_path: Path) -> None:
    venue = f"restart-{next(_venues)}"
    broker = MosquittoBroker(tmp_path, persistence=True)
    broker.start()
    filters = (f"table/{TABLE}/events", f"table/{TABLE}/state")
    durable = BusFeed(broker.url, venue, filters, name="scoreboard-test")
    throwaway = BusFeed(broker.url, venue, filters)
    # A restart quicker than the next attempt looks like a kick (the socket just closes),
    # and ten of them within seconds grow the long back-off: keep it short here, the test
    # is about delivery (test_bus_backoff.py is about the waits).
    host = BusClient(
        broker.url, client_id(venue, "host", "pi-1"), reconnect_max_s=0.2, refused_max_s=1.0
    )
    seq = 0

    def publish_moves(count: int) -> None:
        nonlocal seq
        for _ in range(count):  # as the host does: the event, then the retained state
            seq += 1
            host.publish(topics.table_events(venue, TABLE), _event(seq), key=str(seq))
            host.publish(topics.table_state(venue, TABLE), _state(seq))

    try:
        assert durable.persistent and not throwaway.persistent
        for feed in (durable, throwaway):
            feed.start()
            assert feed.wait_subscribed(10.0), "the feed did not subscribe"
        host.connect()
        assert host.wait_connected(10.0)
        for round_ in range(RESTARTS):
            publish_moves(PER_PHASE)
            assert host.wait_drained(10.0), f"round {round_}: the broker did not ack"
            broker.stop()
            publish_moves(PER_PHASE)  # queued in the publisher while the broker is down
            broker.start()
            publish_moves(PER_PHASE)  # at once, racing the subscribers' reconnects
        assert host.wait_drained(20.0), "the last moves were never acknowledged"

        received: dict[str, list[int]] = {"durable": [], "throwaway": []}
        states: dict[str, int] = {"durable": 0, "throwaway": 0}

        def take(name: str, feed: BusFeed) -> None:
            for item in feed.drain():
                if isinstance(item.message, TableEvent):
                    received[name].append(item.message.seq)
                elif isinstance(item.message, TableState):
                    states[name] = max(states[name], item.message.seq)

        def durable_complete() -> bool:
            take("durable", durable)
            return set(received["durable"]) >= set(range(1, seq + 1))

        wait_until(durable_complete, 30.0, f"all {seq} events at the persistent feed")
        fresh = list(dict.fromkeys(received["durable"]))  # repeats (at least once) aside
        assert fresh == list(range(1, seq + 1)), "the persistent feed got events out of order"
        assert durable.open_gaps() == []

        def throwaway_whole() -> bool:
            take("throwaway", throwaway)
            return states["throwaway"] == seq and throwaway.open_gaps() == []

        wait_until(throwaway_whole, 30.0, "the clean-session feed to fill its gaps")
        got = set(received["throwaway"])
        missed = set(range(1, seq + 1)) - got
        # whatever it missed is covered by the retained state it holds, never silently lost
        assert all(n <= states["throwaway"] for n in missed)
    finally:
        host.close()
        durable.close()
        throwaway.close()
        broker.stop()


def test_resubscribe_brings_the_retained_state_again(mosquitto: MosquittoBroker) -> None:
    """How a reader refills a gap: SUBSCRIBE once more and the broker resends the retained
    state. Refused for a filter the client never subscribed to."""
    venue = f"resub-{next(_venues)}"
    host = BusClient(mosquitto.url, client_id(venue, "host", "pi-1"))
    reader = BusClient(mosquitto.url, client_id(venue, "tool", "reader"))
    got: list[int] = []
    try:
        host.connect()
        assert host.wait_connected(10.0)
        host.publish(topics.table_state(venue, TABLE), _state(4))
        assert host.wait_drained(10.0)
        state_filter = topics.all_table_states(venue)
        reader.subscribe(
            state_filter,
            lambda _t, m: got.append(m.seq) if isinstance(m, TableState) else None,
        )
        reader.connect()
        wait_until(lambda: got == [4], 10.0, "the retained state at connect")
        reader.resubscribe(state_filter)
        wait_until(lambda: got == [4, 4], 10.0, "the retained state again")
        with pytest.raises(BusConfigError, match="not subscribed"):
            reader.resubscribe(topics.all_table_events(venue))
    finally:
        host.close()
        reader.close()
