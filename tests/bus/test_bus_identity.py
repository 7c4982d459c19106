"""Client ids (`wuzi.bus.identity`): one scheme, distinct per (venue, role, name), and two
venues' hosts with one host id sharing a real Mosquitto without knocking each other off."""

from __future__ import annotations

import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from support.broker import MosquittoBroker, wait_until
from wuzi.bus import topics
from wuzi.bus.client import BusClient
from wuzi.bus.identity import (
    MAX_CLIENT_ID_BYTES,
    ROLES,
    client_id,
    machine_name,
    parse_client_id,
    throwaway_client_id,
)
from wuzi.bus.schemas import TableEvent
from wuzi.bus.url import BusConfigError

names = st.from_regex(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}", fullmatch=True)
roles = st.sampled_from(sorted(ROLES))


def test_the_host_id_names_venue_role_and_host() -> None:
    assert client_id("open2026", "host", "pi-1") == "wuzi.open2026.host.pi-1"
    assert client_id("open2026", "host", "pi-1") != client_id("club", "host", "pi-1")


@given(names, roles, names, names, roles, names)
def test_distinct_triples_give_distinct_ids(
    v1: str, r1: str, n1: str, v2: str, r2: str, n2: str
) -> None:
    a, b = client_id(v1, r1, n1), client_id(v2, r2, n2)
    assert (a == b) == ((v1, r1, n1) == (v2, r2, n2))
    assert parse_client_id(a) == (v1, r1, n1)
    assert len(a.encode()) <= MAX_CLIENT_ID_BYTES


@given(names, roles, names, st.one_of(st.none(), names), roles)
def test_a_throwaway_is_never_a_real_id(
    venue: str, role: str, name: str, throwaway_venue: str | None, throwaway_role: str
) -> None:
    throwaway = throwaway_client_id(throwaway_venue, throwaway_role)
    assert throwaway != client_id(venue, role, name)
    assert parse_client_id(throwaway).name.startswith("~")


def test_two_throwaways_differ() -> None:
    assert throwaway_client_id("v", "check") != throwaway_client_id("v", "check")


@pytest.mark.parametrize(
    ("venue", "role", "name", "says"),
    [
        ("a.b", "host", "pi", "venue"),
        ("v", "host", "pi.1", "host name"),
        ("v", "host", "~abc", "host name"),
        ("v", "player", "x", "client role"),
        ("v", "screen", "", "screen name"),
    ],
)
def test_bad_parts_are_refused_naming_the_part(venue: str, role: str, name: str, says: str) -> None:
    with pytest.raises(BusConfigError, match=says):
        client_id(venue, role, name)


def test_a_referee_s_name_may_hold_a_dot_and_still_parses() -> None:
    """Referee names may hold '.', and their ids stay unambiguous: the venue and the role
    cannot, so the first three dots split the id."""
    for role in ("referee", "referee-send"):
        built = client_id("open2026", role, "j.smith")
        assert built == f"wuzi.open2026.{role}.j.smith"
        assert parse_client_id(built) == ("open2026", role, "j.smith")
    with pytest.raises(BusConfigError, match="screen name"):
        client_id("v", "screen", "a.b")
    with pytest.raises(BusConfigError):
        parse_client_id("wuzi.v.host.a.b")


def test_foreign_ids_do_not_parse() -> None:
    for foreign in ("wuzi-host-pi-1", "wuzi.v.host", "other.v.host.pi", "wuzi.v.boss.x"):
        with pytest.raises(BusConfigError):
            parse_client_id(foreign)


@pytest.mark.parametrize(
    ("hostname", "expected"),
    [
        ("hall-pi3.local", "hall-pi3"),
        ("Kiosk 2", "Kiosk-2"),
        ("-_weird!!name_", "weird-name"),
        ("...", "unnamed"),
        ("x" * 80, "x" * 40),
    ],
)
def test_machine_name_is_a_valid_name_part(hostname: str, expected: str) -> None:
    assert machine_name(hostname) == expected
    client_id("v", "screen", f"scoreboard-{machine_name(hostname)}")


def test_the_longest_id_is_accepted_by_mosquitto(mosquitto: MosquittoBroker) -> None:
    longest = client_id("v" * 64, "director-live", "n" * 64)
    client = BusClient(mosquitto.url, longest)
    client.connect()
    try:
        assert client.wait_connected(10.0), f"mosquitto refused the {len(longest)}-byte id"
    finally:
        client.close()


def _move(venue: str, seq: int) -> TableEvent:
    return TableEvent(f"pi-1/1/g/{seq}", 1, "g", seq, "move", 1000 + seq, {"point": seq})


def test_two_venues_hosts_with_one_host_id_both_stay_connected(
    mosquitto: MosquittoBroker,
) -> None:
    """The issue: ``wuzi-host-pi-1`` at two venues on one broker evicted each other. With the
    venue in the id both stay up and each one's events arrive; the control case (one id
    for both) shows the broker does evict, so the check can fail."""
    venues = ("idA", "idB")
    hosts = [BusClient(mosquitto.url, client_id(v, "host", "pi-1")) for v in venues]
    drops = [0, 0]
    for i, host in enumerate(hosts):
        host.connect()
        assert host.wait_connected(10.0), f"host pi-1 of venue {venues[i]} did not connect"
    try:
        # watch each connection for a second: a takeover shows as a disconnect
        deadline = time.monotonic() + 1.5
        while time.monotonic() < deadline:
            for i, host in enumerate(hosts):
                drops[i] += not host.connected
            time.sleep(0.02)
        assert drops == [0, 0], f"disconnected samples per venue: {drops}"
        for i, host in enumerate(hosts):
            host.publish(topics.table_events(venues[i], 1), _move(venues[i], 1), key="e1")
            assert host.wait_drained(10.0), f"venue {venues[i]}'s host lost its connection"
    finally:
        for host in hosts:
            host.close()

    # control: the old scheme (one id for both) makes the broker drop one of them
    same = [BusClient(mosquitto.url, "wuzi-host-pi-1", reconnect_max_s=0.2) for _ in venues]
    same[0].connect()
    assert same[0].wait_connected(10.0)
    same[1].connect()
    try:
        wait_until(
            lambda: not (same[0].connected and same[1].connected),
            10.0,
            "the broker to evict one of two clients with one id",
        )
    finally:
        for client in same:
            client.close()
