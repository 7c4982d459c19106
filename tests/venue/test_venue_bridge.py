"""The bridge to an outside broker (`wuzi.venue.bridge`): its text, and two real Mosquitto
brokers bridged by it — the public trees cross, out only; nothing else of the venue does;
and the broadcast account's ACL on a real broker (`wuzi.venue.broadcast_account`)."""

from __future__ import annotations

import time
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from support.acl import generated_broker, peer_logins
from support.broker import MosquittoBroker, wait_until
from support.public_feed import Recorder
from wuzi.bus import topics
from wuzi.config.broadcast import BridgeSettings, SectionError, parse_bridge
from wuzi.venue.bridge import BridgeError, bridge_conf, bridge_topics, read_bridge_password
from wuzi.venue.broadcast_account import broadcast_account, broadcast_rules
from wuzi.venue.passwords import hash_password

V = "bridged"


def test_the_bridge_carries_the_two_public_trees_out_only() -> None:
    settings = parse_bridge({"bridge": {"address": "mqtt.example.org", "username": "v1"}}, V)
    assert settings is not None and settings.port == 1883 and not settings.tls
    text = bridge_conf(V, settings, "s3cret")
    topic_lines = [line for line in text.splitlines() if line.startswith("topic ")]
    assert topic_lines == [
        f"topic wuzi/v1/{V}/public/# out 1",
        f"topic wuzi/v1/{V}/competition/# out 1",
    ]
    assert "connection wuzi-bridged-public" in text
    assert "address mqtt.example.org:1883" in text
    assert "notifications false" in text and "remote_password s3cret" in text
    assert "bridge_cafile" not in text


def test_tls_and_the_errors_name_the_key(tmp_path: Path) -> None:
    tls = parse_bridge({"bridge": {"address": "outside:9883", "cafile": "ca.pem"}}, V, tmp_path)
    assert tls is not None and tls.tls and tls.port == 9883
    text = bridge_conf(V, tls)
    assert f"bridge_cafile {tmp_path / 'ca.pem'}" in text and "bridge_tls_version tlsv1.2" in text
    default_tls = parse_bridge({"bridge": {"address": "outside", "tls": True}}, V)
    assert default_tls is not None and default_tls.port == 8883
    assert "bridge_capath /etc/ssl/certs" in bridge_conf(V, default_tls)
    for section, key in (
        ({"address": "bad host"}, "bridge.address"),
        ({"address": "h:99999"}, "bridge.address"),
        ({"address": "h", "tls": "yes"}, "bridge.tls"),
        ({"address": "h", "password_file": "p"}, "bridge.password_file"),
        ({"address": "h", "colour": "x"}, "bridge.colour"),
        ({}, "bridge.address"),
    ):
        with pytest.raises(SectionError) as caught:
            parse_bridge({"bridge": section}, V)
        assert caught.value.key == key
    with pytest.raises(BridgeError, match="white space"):
        bridge_conf(V, BridgeSettings("h", 1883, False, "n", "u"), "pass word")
    missing = BridgeSettings("h", 1883, False, "n", "u", str(tmp_path / "nope.pass"))
    with pytest.raises(BridgeError, match=r"nope\.pass"):
        read_bridge_password(missing)


def _publish(port: int, items: list[tuple[str, bytes, bool]]) -> None:
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="", clean_session=True)
    client.connect("127.0.0.1", port)
    client.loop_start()
    infos = [
        client.publish(topic, payload, qos=1, retain=retain) for topic, payload, retain in items
    ]
    for info in infos:
        info.wait_for_publish(10)
    client.loop_stop()
    client.disconnect()


def test_two_real_brokers_only_the_public_trees_cross(tmp_path: Path) -> None:
    (tmp_path / "outside").mkdir()
    (tmp_path / "venue").mkdir()
    outside = MosquittoBroker(tmp_path / "outside")
    outside.start()
    venue = MosquittoBroker(tmp_path / "venue")
    settings = BridgeSettings("127.0.0.1", outside.port, False, f"wuzi-{V}-public")
    conf_d = tmp_path / "venue" / "conf.d"  # as broker-config writes it: a 0640 file
    conf_d.mkdir()
    (conf_d / "bridge.conf").write_text(bridge_conf(V, settings))
    (conf_d / "bridge.conf").chmod(0o640)
    with venue.config_path.open("a") as conf:
        conf.write(f"include_dir {conf_d}\n")
    venue.start()
    try:
        seen_outside = Recorder("127.0.0.1", outside.port, "#").start()
        seen_inside = Recorder("127.0.0.1", venue.port, f"wuzi/v1/{V}/#").start()
        marker = topics.public_state(V, 1)
        _publish(venue.port, [(marker, b'{"marker":1}', True)])
        seen_outside.wait_for(marker, timeout_s=20)  # the bridge is up
        crossing = [
            (topics.public_state(V, 2), b"public state", True),
            (topics.public_events(V, 2), b"public event", False),
            (topics.competition_state(V), b"competition", True),
        ]
        staying = [
            (topics.table_state(V, 2), b"live state", True),
            (topics.table_events(V, 2), b"live event", False),
            (topics.arbiter_alerts(V, 2), b"alert", False),
            (topics.arbiter_state(V, 2), b"referee state", True),
            (topics.arbiter_commands(V), b"command", False),
            (topics.assignment(V, 2), b"assignment", True),
            (topics.host_status(V, "pi-1"), b"status", True),
            ("wuzi/v1/other-venue/public/table/2/state", b"another venue", True),
        ]
        _publish(venue.port, crossing + staying)
        for topic, _, _ in crossing:
            seen_outside.wait_for(topic)
        # and from outside nothing comes in: a forged public state, a forged command
        forged = [
            (topics.public_state(V, 7), b"forged", True),
            (topics.arbiter_commands(V), b"forged command", False),
            (topics.competition_state(V), b"forged competition", True),
        ]
        _publish(outside.port, forged)
        time.sleep(1.5)
        own = {marker} | {t for t, _, _ in crossing}
        from_venue = {t for t, p, _ in seen_outside.messages() if not p.startswith(b"forged")}
        assert from_venue == own  # the public trees, nothing else of the venue
        assert not any(p.startswith(b"forged") for _, p, _ in seen_inside.messages())
        assert not any(t.startswith("$SYS") for t in seen_outside.topics())
        # a late reader outside gets the retained public state
        late = Recorder("127.0.0.1", outside.port, f"wuzi/v1/{V}/public/table/2/state").start()
        late.wait_for(topics.public_state(V, 2), timeout_s=5)
        late.stop()
        seen_outside.stop()
        seen_inside.stop()
    finally:
        venue.stop()
        outside.stop()
    assert bridge_topics(V) == (f"wuzi/v1/{V}/public/#", f"wuzi/v1/{V}/competition/#")


def _login(port: int, user: str, password: str) -> mqtt.Client:
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=user, clean_session=True)
    client.username_pw_set(user, password)
    connected: list[bool] = []
    client.on_connect = lambda *a: connected.append(not a[3].is_failure)
    client.connect("127.0.0.1", port)
    client.loop_start()
    wait_until(lambda: bool(connected), 10, f"{user} connected")
    assert connected == [True]
    return client


def test_the_broadcast_account_reads_table_and_writes_public_only(tmp_path: Path) -> None:
    name = broadcast_account(V)
    assert name == f"wuzi.{V}.broadcast.broadcast"
    (tmp_path / "passwd").write_text(
        f"{name}:{hash_password('bc-pass')}\nwatcher:{hash_password('w-pass')}\n"
    )
    acl = [f"user {name}", *(f"topic {access} {topic}" for access, topic in broadcast_rules(V))]
    acl += ["user watcher", f"topic readwrite wuzi/v1/{V}/#"]
    (tmp_path / "acl").write_text("\n".join(acl) + "\n")
    broker = MosquittoBroker(tmp_path)
    with broker.config_path.open("a") as conf:
        conf.write(f"password_file {tmp_path / 'passwd'}\nacl_file {tmp_path / 'acl'}\n")
    text = broker.config_path.read_text().replace("allow_anonymous true", "allow_anonymous false")
    broker.config_path.write_text(text)
    broker.start()
    try:
        got: list[tuple[str, bytes]] = []
        watched: list[tuple[str, bytes]] = []
        bc = _login(broker.port, name, "bc-pass")
        bc.on_message = lambda _c, _u, m: got.append((m.topic, bytes(m.payload)))
        bc.subscribe(f"wuzi/v1/{V}/#", qos=1)
        watcher = _login(broker.port, "watcher", "w-pass")
        watcher.on_message = lambda _c, _u, m: watched.append((m.topic, bytes(m.payload)))
        watcher.subscribe(f"wuzi/v1/{V}/#", qos=1)
        time.sleep(0.5)
        for topic in (topics.table_state(V, 1), topics.arbiter_state(V, 1),
                      topics.arbiter_alerts(V, 1), topics.competition_state(V)):  # fmt: skip
            watcher.publish(topic, b"x", qos=1).wait_for_publish(5)
        for topic in (topics.public_state(V, 1), topics.table_state(V, 9),
                      topics.arbiter_commands(V), topics.assignment(V, 1)):  # fmt: skip
            bc.publish(topic, b"from broadcast", qos=1).wait_for_publish(5)
        wait_until(lambda: (topics.table_state(V, 1), b"x") in got, 10, "the live state read")
        wait_until(
            lambda: (topics.public_state(V, 1), b"from broadcast") in watched, 10, "public written"
        )
        time.sleep(1.0)
        assert {t for t, _ in got} == {topics.table_state(V, 1)}  # nothing of arbiter/
        written = {t for t, p in watched if p == b"from broadcast"}
        assert written == {topics.public_state(V, 1)}  # not table/, arbiter/ or assignments
        bc.loop_stop()
        watcher.loop_stop()
    finally:
        broker.stop()


def test_broker_config_s_bridge_file_carries_the_broadcast_s_feed_out(tmp_path: Path) -> None:
    """The whole wiring on real brokers: ``wuzi venue broker-config`` with a ``[bridge]``
    writes ``conf.d/bridge.conf`` and includes it; the venue's Mosquitto, with its ACL,
    copies out what the broadcast account publishes on ``public/`` and what the director
    publishes on ``competition/``, and nothing of a host's live table or a referee's."""
    from support.acl import Peer

    (tmp_path / "outside").mkdir()
    outside = MosquittoBroker(tmp_path / "outside")
    outside.start()
    section = f'\n[bridge]\naddress = "127.0.0.1:{outside.port}"\nname = "acl-test-out"\n'
    try:
        seen = Recorder("127.0.0.1", outside.port, "#").start()
        with generated_broker(venue_extra=section) as venue:
            conf = (venue.directory / "broker" / "mosquitto.conf").read_text()
            assert f"include_dir {venue.directory / 'broker' / 'conf.d'}" in conf.splitlines()
            v = venue.venue.id
            peers: dict[str, Peer] = {}
            for name in ("h1", "dir", "broadcast", "deputy"):
                user, password = peer_logins(venue.venue)[name]
                peers[name] = Peer(venue.port, user, password)
                assert peers[name].connect() == 0, venue.log_text()
            try:
                marker = topics.public_state(v, 1)
                wait_until(  # the bridge connects on its own schedule: repeat until it is up
                    lambda: (
                        peers["broadcast"].publish(marker, b"up", retain=True)
                        or bool(seen.messages())
                    ),
                    20,
                    "the bridge to carry the broadcast's first state out",
                )
                peers["h1"].publish(topics.table_state(v, 1), b"live")
                peers["h1"].publish(topics.public_events(v, 2), b"live")  # refused by the ACL
                peers["deputy"].publish(topics.arbiter_commands(v), b"command")
                peers["dir"].publish(topics.assignment(v, 1), b"assignment")
                peers["dir"].publish(topics.competition_state(v), b"standings")
                peers["broadcast"].publish(topics.public_events(v, 1), b"delayed")
                seen.wait_for(topics.public_events(v, 1))
                seen.wait_for(topics.competition_state(v))
                time.sleep(0.5)
                payloads = {p for _t, p, _ms in seen.messages()}
                assert payloads == {b"up", b"standings", b"delayed"}, seen.messages()
            finally:
                for peer in peers.values():
                    peer.close()
        seen.stop()
    finally:
        outside.stop()
