"""Public edge brokers (`wuzi venue edge-config`, `wuzi.venue.followers.edge_conf`) on real
Mosquitto: an edge pulls every venue's public trees from a hub broker, in only, and
serves them to anonymous viewers over WebSockets, read only; nothing else crosses.

Order proves "never" (support.acl): the hub broker gets the live message first, the
public sentinel after it from the same publisher; the edge's bridge keeps their order."""

from __future__ import annotations

from pathlib import Path

import pytest

from support.acl import Peer
from support.broker import MosquittoBroker, wait_until
from support.followers import open_folder, running_conf, viewer
from wuzi.cli import main
from wuzi.sim import box
from wuzi.venue.followers import EDGE_TOPICS, EdgeSettings, edge_conf


def test_an_edge_pulls_the_public_trees_in_and_serves_them_read_only() -> None:
    conf, acl = edge_conf(
        EdgeSettings(
            name="edge-1",
            upstream_host="hub.example.org",
            upstream_port=8883,
            acl_file="/etc/wuzi/edge/acl",
            mqtt_port=1883,
            upstream_username="edge-1",
            upstream_password="s3cret",
            upstream_cafile="/etc/wuzi/ca.pem",
        )
    )
    lines = conf.splitlines()
    assert [x for x in lines if x.startswith("topic ")] == [
        "topic wuzi/v1/+/public/# in 1",
        "topic wuzi/v1/+/competition/# in 1",
    ]
    assert lines.count("allow_anonymous true") == 2  # the WebSockets and the MQTT listener
    assert "protocol websockets" in lines and "per_listener_settings true" in lines
    assert "remote_password s3cret" in lines and "bridge_cafile /etc/wuzi/ca.pem" in lines
    assert [x for x in acl.splitlines() if not x.startswith("#")] == [
        f"topic read {pattern}" for pattern in EDGE_TOPICS
    ]
    assert "user " not in acl  # the rules are the anonymous ones


def test_edge_config_refuses_bad_options(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    for args, words in (
        (["--upstream", "central"], "--upstream: 'central' is not HOST:PORT"),
        (["--upstream", "c:1883", "--websockets-port", "0"], "--websockets-port must be"),
        (["--upstream", "c:1883", "--password-file", "p"], "--password-file needs --username"),
        (["--upstream", "c:1883", "--name", "a b"], "--name: 'a b' cannot be written"),
        (["--upstream", "c:1883", "--username", "u", "--password-file", str(tmp_path / "no")],
         "--password-file: cannot read"),
    ):  # fmt: skip
        assert main(["venue", "edge-config", "--out", str(tmp_path / "edge"), *args]) == 1
        err = capsys.readouterr().err
        assert err.startswith("wuzi venue edge-config: ") and words in err, err


@pytest.mark.parametrize("protocol", ["3.1.1", "5"])
def test_two_edges_carry_the_public_feed_and_nothing_live(
    protocol: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with open_folder() as folder:
        _two_edges(folder, protocol, capsys)


def _two_edges(tmp_path: Path, protocol: str, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "hub").mkdir()
    hub = MosquittoBroker(tmp_path / "hub")
    hub.start()
    edges: list[tuple[Path, int]] = []
    for n in (1, 2):
        port = box.free_port()
        out = tmp_path / f"edge-{n}"
        code = main(["venue", "edge-config", "--upstream", f"127.0.0.1:{hub.port}",
                     "--out", str(out), "--name", f"edge-{n}", "--websockets-port", str(port),
                     "--mqtt-port", str(box.free_port()), "--bind", "127.0.0.1"])  # fmt: skip
        assert code == 0, capsys.readouterr().err
        edges.append((out / "mosquitto.conf", port))
    assert "start the edge: mosquitto -c" in capsys.readouterr().out
    publisher = Peer(hub.port, None, None)
    try:
        assert publisher.connect() == 0
        with running_conf(*edges[0]), running_conf(*edges[1]):
            viewers = [viewer(port, protocol) for _conf, port in edges]
            for one in viewers:
                assert one.connect() == 0
                one.subscribe("#")

            def both_up() -> bool:
                publisher.publish("wuzi/v1/hall-a/public/table/9/state", b"up")
                return all(("wuzi/v1/hall-a/public/table/9/state", b"up") in v.received
                           for v in viewers)  # fmt: skip

            wait_until(both_up, 15.0, "both edges' bridges")
            publisher.publish("wuzi/v1/hall-a/table/1/state", b"live")
            publisher.publish("wuzi/v1/hall-b/arbiter/commands", b"command")
            publisher.publish("wuzi/v1/hall-b/competition/state", b"standings")
            publisher.publish("wuzi/v1/hall-a/public/table/1/state", b"delayed")
            for one in viewers:
                got = one.wait_for("wuzi/v1/hall-a/public/table/1/state", b"delayed")
                assert ("wuzi/v1/hall-b/competition/state", b"standings") in got
                assert {p for _t, p in got} & {b"live", b"command"} == set()
                one.publish("wuzi/v1/hall-a/public/table/1/state", b"forged")
            sentinel = Peer(hub.port, None, None)
            assert sentinel.connect() == 0
            sentinel.subscribe("wuzi/v1/+/public/#")
            publisher.publish("wuzi/v1/hall-a/public/table/2/state", b"after")
            got = sentinel.wait_for("wuzi/v1/hall-a/public/table/2/state", b"after")
            assert b"forged" not in [p for _t, p in got]  # in only: nothing goes back up
            sentinel.close()
            for one in viewers:
                one.close()
            # A state retained at the hub while the edges are up is retained on each
            # edge too (the bridge keeps the flag), for viewers who come later.
            state = "wuzi/v1/hall-a/public/table/3/state"
            watchers = [viewer(port, protocol) for _conf, port in edges]
            for watcher in watchers:
                assert watcher.connect() == 0
                watcher.subscribe(state)
            publisher.publish(state, b"kept", retain=True)
            for watcher in watchers:
                watcher.wait_for(state, b"kept")  # it is on this edge now
                watcher.close()
            for _conf, port in edges:
                late = viewer(port, protocol)
                assert late.connect() == 0
                late.subscribe(state)
                assert (state, b"kept") in late.wait_for(state, b"kept")
                late.close()
    finally:
        publisher.close()
        hub.stop()
