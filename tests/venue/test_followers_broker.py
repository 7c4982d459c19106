"""The followers' broker `wuzi venue broker-config` writes for ``[followers]``, on real
Mosquitto: anonymous viewers over WebSockets (MQTT 3.1.1 and 5, as browsers speak it)
read the delayed public feed and the standings, and nothing live ever reaches them.

"Never" is proved by order (support.acl): the live messages are published first, each
acknowledged by the venue broker before the next publish, and the allowed sentinel last;
the bridge carries in order, so once the sentinel is in, a live message that crossed
would have been in before it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from support.acl import Broker, Peer, generated_broker, peer_logins
from support.broker import wait_until
from support.followers import running_conf, viewer
from wuzi.bus import topics
from wuzi.sim import box
from wuzi.venue.followers import bridge_account

V = "acl-test"
LINK = "board-1"
BEFORE = b"retained-before-the-followers-broker-started"


@dataclass
class Followers:
    venue_broker: Broker
    port: int  # the viewers' WebSockets port
    log: Path
    peers: dict[str, Peer]


def _venue_extra(ws_port: int, local_port: int) -> str:
    return f"""
[followers]
websockets_port = {ws_port}
websockets_bind = "127.0.0.1"
local_port = {local_port}

[central]
url = "mqtt://127.0.0.1:{box.free_port()}"

[[links]]
id = "{LINK}"
table = 1
other_venue = "hall-b"
other_table = 1
owner = "here"
"""


@pytest.fixture(scope="module")
def followers() -> Iterator[Followers]:
    """The venue broker, its peers, a state retained there, and only then the followers'
    broker: what a restart of the followers' broker looks like to its bridge."""
    ws_port, local_port = box.free_port(), box.free_port()
    with generated_broker(venue_extra=_venue_extra(ws_port, local_port)) as broker:
        peers: dict[str, Peer] = {}
        try:
            for name, (user, password) in peer_logins(broker.venue).items():
                peer = Peer(broker.port, user, password)
                assert peer.connect() == 0, f"{name} refused:\n{broker.log_text()}"
                peers[name] = peer
            peers["broadcast"].publish(topics.public_state(V, 6), BEFORE, retain=True)
            conf = broker.directory / "broker" / "followers" / "mosquitto.conf"
            with running_conf(conf, ws_port) as log:
                found = Followers(broker, ws_port, log, peers)
                _wait_for_the_bridge(found)
                yield found
        finally:
            for peer in peers.values():
                peer.close()


def _wait_for_the_bridge(followers: Followers) -> None:
    """The venue broker's bridge connects on its own schedule: wait for a first message."""
    probe = viewer(followers.port, "3.1.1")
    assert probe.connect() == 0
    try:
        probe.subscribe(topics.all_public(V))
        topic = topics.public_state(V, 4)

        def crossed() -> bool:
            followers.peers["broadcast"].publish(topic, b"bridge-up")
            with probe.lock:
                return (topic, b"bridge-up") in probe.received

        wait_until(crossed, 15.0, "the venue broker's bridge to the followers' broker")
    finally:
        probe.close()


@pytest.mark.parametrize("protocol", ["3.1.1", "5"])
def test_a_viewer_reads_the_public_feed_and_never_a_live_topic(
    followers: Followers, protocol: str
) -> None:
    peers = followers.peers
    watcher = viewer(followers.port, protocol)
    assert watcher.connect() == 0  # anonymous: no user name, no password
    try:
        for wanted in ("#", f"wuzi/v1/{V}/table/#", f"wuzi/v1/{V}/arbiter/#",
                       f"wuzi/v1/{V}/line/#", "$SYS/#", topics.all_public(V)):  # fmt: skip
            watcher.subscribe(wanted)
        peers["h1"].publish(topics.table_state(V, 1), b"live-state")
        peers["h1"].publish(topics.table_events(V, 1), b"live-event")
        peers["h1"].publish(topics.arbiter_alerts(V, 1), b"alert")
        peers["h1"].publish(topics.line_state(V, LINK), b"line-state")
        peers["chief"].publish(topics.arbiter_commands(V), b"command")
        peers["dir"].publish(topics.assignment(V, 1), b"assignment")
        sentinel = f"public-{protocol}".encode()
        peers["dir"].publish(topics.competition_state(V), b"standings-" + sentinel)
        peers["broadcast"].publish(topics.public_state(V, 1), sentinel)
        got = watcher.wait_for(topics.public_state(V, 1), sentinel)
        assert (topics.competition_state(V), b"standings-" + sentinel) in got
        public = (f"wuzi/v1/{V}/public/", f"wuzi/v1/{V}/competition/")
        assert [t for t, _p in got if not t.startswith(public)] == []
        payloads = {p for _t, p in got}
        assert not payloads & {b"live-state", b"live-event", b"alert", b"line-state",
                               b"command", b"assignment"}  # fmt: skip
    finally:
        watcher.close()


@pytest.mark.parametrize("protocol", ["3.1.1", "5"])
def test_a_viewer_s_publish_is_dropped(followers: Followers, protocol: str) -> None:
    """Another viewer, and the venue's public screen, see only the broadcast's message."""
    reader = viewer(followers.port, "3.1.1")
    forger = viewer(followers.port, protocol)
    assert reader.connect() == 0 and forger.connect() == 0
    screen = followers.peers["public"]
    try:
        reader.subscribe(topics.all_public(V))
        screen.subscribe(topics.all_public(V))
        forger.publish(topics.public_state(V, 2), b"forged")  # acknowledged, then dropped
        forger.publish(topics.competition_state(V), b"forged")
        sentinel = f"real-{protocol}".encode()
        followers.peers["broadcast"].publish(topics.public_state(V, 2), sentinel)
        for seen in (reader, screen):
            got = seen.wait_for(topics.public_state(V, 2), sentinel)
            assert b"forged" not in [p for _t, p in got]
    finally:
        reader.close()
        forger.close()


def test_a_new_viewer_gets_the_retained_public_state(followers: Followers) -> None:
    followers.peers["broadcast"].publish(topics.public_state(V, 3), b"kept", retain=True)
    first = viewer(followers.port, "5")
    assert first.connect() == 0
    try:
        first.subscribe(topics.public_state(V, 3))
        first.wait_for(topics.public_state(V, 3), b"kept")
    finally:
        first.close()
    late = viewer(followers.port, "3.1.1")
    assert late.connect() == 0
    try:
        late.subscribe(f"wuzi/v1/{V}/public/#")
        late.wait_for(topics.public_state(V, 3), b"kept")  # retained, from the followers' broker
    finally:
        late.close()


def test_a_state_retained_before_the_followers_broker_started_reaches_a_viewer(
    followers: Followers,
) -> None:
    """The bridge sends the venue broker's retained states at each connection: a restarted
    followers' broker (it keeps nothing on disk) has every table again at once."""
    late = viewer(followers.port, "5")
    assert late.connect() == 0
    try:
        late.subscribe(topics.all_public(V))
        late.wait_for(topics.public_state(V, 6), BEFORE)
    finally:
        late.close()


def test_a_viewer_cannot_push_the_bridge_or_a_host_off(followers: Followers) -> None:
    """Viewers never meet the venue's clients: a viewer taking a host's client id or the
    bridge's account name as its id closes nothing; the feed still flows."""
    host_id = peer_logins(followers.venue_broker.venue)["h1"][0]
    assert host_id is not None
    intruders = [viewer(followers.port, "3.1.1", client_id=name)
                 for name in (host_id, bridge_account(V))]  # fmt: skip
    reader = viewer(followers.port, "5")
    try:
        for intruder in intruders:
            assert intruder.connect() == 0
        assert reader.connect() == 0
        reader.subscribe(topics.all_public(V))
        followers.peers["h1"].publish(topics.table_state(V, 2), b"host-still-on")
        followers.peers["broadcast"].publish(topics.public_state(V, 5), b"still-flowing")
        reader.wait_for(topics.public_state(V, 5), b"still-flowing")
        assert "already connected" not in followers.venue_broker.log_text()
    finally:
        for peer in (*intruders, reader):
            peer.close()


def test_the_venue_broker_keeps_its_accounts_and_no_anonymous_login(
    followers: Followers,
) -> None:
    """The main listener is as before: the per-connection accounts, nobody anonymous."""
    anonymous = Peer(followers.venue_broker.port, None, None)
    try:
        assert anonymous.connect() != 0
    finally:
        anonymous.close()
    conf = (followers.venue_broker.directory / "broker" / "mosquitto.conf").read_text()
    assert "allow_anonymous false" in conf.splitlines()
    assert "protocol websockets" not in conf
