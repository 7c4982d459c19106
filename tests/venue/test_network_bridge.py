"""A network event's brokers with accounts (issue 36, `wuzi.venue.network`): the event's
broker (the central one) and two halls' brokers, each configured by ``wuzi venue
broker-config`` from its own venue file (`support.network_halls`), each refusing anonymous
logins.

What a network final needs crosses: a hall host's table events reach the event's director,
the director's assignment of a hall's table reaches that hall's host, a host's side of a
linked game (under a game id nobody configured) reaches the other hall's host. What must
not: a hall's bridge account cannot publish as the other hall (its tables) nor assign a
table, and a hall's referee topics stay in the hall. "Never arrives" is proved by order:
the same client then publishes an allowed sentinel (`support.acl`).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from support.broker import MosquittoBroker, wait_until
from support.linked_halls import bridged, login_peer
from support.network_halls import EVENT, HOSTS, NA, NB, network_halls, write_event, write_hall
from support.public_feed import Recorder
from wuzi.bus import topics
from wuzi.cli import main
from wuzi.config import ConfigError, load_venue
from wuzi.config.credentials import broker_login
from wuzi.venue.broker_config import acl_text
from wuzi.venue.network import network_conf


def test_a_network_final_crosses_the_bridges_with_accounts() -> None:
    with network_halls() as halls:
        event = halls.venues[EVENT]
        a_host = login_peer(halls.ports[NA], *broker_login(halls.venues[NA], "host", HOSTS[NA]))
        b_host = login_peer(halls.ports[NB], *broker_login(halls.venues[NB], "host", HOSTS[NB]))
        director = login_peer(halls.ports[EVENT], *broker_login(event, "director"))
        live = login_peer(halls.ports[EVENT], *broker_login(event, "director-live"))
        peers = [a_host, b_host, director, live]
        try:
            assert director.subscribe(topics.all_table_events(NA)) == [1]
            assert live.subscribe(topics.all_table_states(NB)) == [1]
            assert b_host.subscribe(topics.assignment(NB, 3)) == [1]
            game = "r1-m1-b1"  # a linked game's line: named by the game, configured nowhere
            assert b_host.subscribe(topics.line_filter(NA, game)) == [1]
            assert a_host.subscribe(topics.line_filter(NB, game)) == [1]

            bridged(a_host, topics.table_events(NA, 1), director)
            bridged(b_host, topics.table_state(NB, 3), live)
            bridged(director, topics.assignment(NB, 3), b_host)
            bridged(a_host, topics.line_state(NA, game), b_host)
            bridged(b_host, topics.line_to_owner(NB, game), a_host)

            # a hall's own: its referee topics and public feed do not leave it
            a_watch, central = halls.watcher(NA), halls.watcher(EVENT)
            peers += [a_watch, central]
            a_host.publish(topics.arbiter_alerts(NA, 1), b"hall only")
            a_host.publish(topics.arbiter_state(NA, 1), b"hall only")
            a_host.publish(topics.table_events(NA, 2), b"sentinel")
            central.wait_for(topics.table_events(NA, 2), b"sentinel")  # one bridge, in order
            assert all(p != b"hall only" for _, p in central.received), central.received
            a_watch.wait_for(topics.arbiter_alerts(NA, 1), b"hall only")
        finally:
            for peer in peers:
                peer.close()


def test_a_hall_s_bridge_account_cannot_publish_as_the_other_hall() -> None:
    """Hall A's bridge login (as a hall whose bridge was rewritten would use it), at the
    event's broker: hall B's table state and an assignment are refused; its own passes."""
    with network_halls() as halls:
        central = halls.watcher(EVENT)
        peers = [central]
        try:
            halls.stop(NA)  # its bridge holds the account's session: take it over cleanly
            secret = halls.directory / EVENT / "secrets" / "halls" / f"{NA}.pass"
            forger = login_peer(
                halls.ports[EVENT], f"wuzi.{NA}.bridge.line", secret.read_text().strip()
            )
            peers.append(forger)
            forger.publish(topics.table_state(NB, 3), b"forged")
            forger.publish(topics.table_events(NB, 3), b"forged")
            forger.publish(topics.assignment(NA, 1), b"forged")
            forger.publish(topics.competition_state(EVENT), b"forged")
            forger.publish(topics.table_state(NA, 1), b"sentinel")
            central.wait_for(topics.table_state(NA, 1), b"sentinel")
            assert all(p != b"forged" for _, p in central.received), central.received
        finally:
            for peer in peers:
                peer.close()


def test_a_network_hall_s_public_feed_leaves_on_its_own_bridge(tmp_path: Path) -> None:
    """A hall of a network event may run its own public feed (``[broadcast]`` and a
    ``[bridge]`` to the followers' broker): broker-config writes ``bridge.conf`` beside
    ``network.conf``; the delayed feed reaches the followers' broker by it and never the
    event's broker, and the network bridge still carries the hall's tables."""
    outside_dir = tmp_path / "outside"
    outside_dir.mkdir()
    outside = MosquittoBroker(outside_dir)
    outside.start()
    extra = f'\n[broadcast]\n\n[bridge]\naddress = "127.0.0.1:{outside.port}"\n'
    try:
        followers = Recorder("127.0.0.1", outside.port, "#").start()
        with network_halls({NA: extra}) as halls:
            conf_d = halls.directory / NA / "broker" / "conf.d"
            assert sorted(p.name for p in conf_d.iterdir()) == ["bridge.conf", "network.conf"]
            hall = halls.venues[NA]
            feed = login_peer(halls.ports[NA], *broker_login(hall, "broadcast"))
            a_host = login_peer(halls.ports[NA], *broker_login(hall, "host", HOSTS[NA]))
            central = halls.watcher(EVENT)
            peers = [feed, a_host, central]
            try:
                bridged(a_host, topics.table_events(NA, 2), central)  # the network bridge
                state = topics.public_state(NA, 1)
                wait_until(  # and the public one, each up on its own schedule
                    lambda: (
                        feed.publish(state, b"delayed", retain=True) or bool(followers.messages())
                    ),
                    20,
                    "the hall's bridge to carry its public feed out",
                )
                feed.publish(topics.public_events(NA, 1), b"delayed event")
                a_host.publish(topics.table_events(NA, 2), b"sentinel")
                central.wait_for(topics.table_events(NA, 2), b"sentinel")  # in order
                followers.wait_for(topics.public_events(NA, 1))
                public = f"wuzi/v1/{NA}/public/"
                assert not [t for t, _ in central.received if t.startswith(public)]
                assert {t for t, _p, _ms in followers.messages()} == {
                    state,
                    topics.public_events(NA, 1),
                }  # the public trees only: no live table, no line
            finally:
                for peer in peers:
                    peer.close()
        followers.stop()
    finally:
        outside.stop()


def test_the_generated_texts(tmp_path: Path) -> None:
    event_dir, hall_dir = tmp_path / "event", tmp_path / "hall"
    event_dir.mkdir()
    hall_dir.mkdir()
    event = load_venue(write_event(event_dir, 1883))
    acl = acl_text(event)
    assert f"user wuzi.{NA}.bridge.line\n" in acl
    for line in (
        f"topic write wuzi/v1/{NA}/table/#",
        f"topic write wuzi/v1/{NA}/line/#",
        f"topic read wuzi/v1/{NA}/assignments/#",
        "topic read wuzi/v1/+/line/#",
        f"topic read wuzi/v1/{EVENT}/competition/#",
        f"topic readwrite wuzi/v1/{NB}/assignments/+",  # the director's
        f"topic read wuzi/v1/{NB}/table/+/events",
    ):
        assert line in acl, line
    bridge_block = acl.split(f"user wuzi.{NA}.bridge.line\n")[1].split("\n\n")[0]
    assert NB not in bridge_block.replace(f"{NA}", ""), bridge_block

    hall = load_venue(write_hall(hall_dir, NA, 1884, 1883, tmp_path / "x.pass"))
    conf = network_conf(hall, "secret")
    for line in (
        f"topic wuzi/v1/{NA}/table/# out 1",
        f"topic wuzi/v1/{NA}/host/# out 1",
        f"topic wuzi/v1/{NA}/line/# out 1",
        f"topic wuzi/v1/{NA}/assignments/# in 1",
        "topic wuzi/v1/+/line/# in 1",
        f"topic wuzi/v1/{EVENT}/competition/# in 1",
        "try_private true",
        f"remote_username wuzi.{NA}.bridge.line",
        "remote_password secret",
        "address 127.0.0.1:1883",
    ):
        assert line in conf.splitlines(), line
    assert "arbiter" not in conf and "public" not in conf
    host_acl = acl_text(hall)
    assert f"topic readwrite wuzi/v1/{NA}/line/#" in host_acl
    assert "topic read wuzi/v1/+/line/#" in host_acl


@pytest.mark.parametrize(
    ("central", "problem"),
    [
        (f'event = "{NA}"', "this hall's own venue id"),
        ('event = "Not An Id"', "the network event's venue id"),
        ("event = 7", "the network event's venue id"),
    ],
)
def test_a_bad_central_event_is_named(tmp_path: Path, central: str, problem: str) -> None:
    path = write_hall(tmp_path, NA, 1884, 1883, tmp_path / "x.pass")
    text = path.read_text().replace(f'event = "{EVENT}"', central)
    path.write_text(text)
    with pytest.raises(ConfigError, match=r"central\.event") as caught:
        load_venue(path)
    assert problem in str(caught.value)


def test_a_network_hall_has_no_fixed_links(tmp_path: Path) -> None:
    path = write_hall(tmp_path, NA, 1884, 1883, tmp_path / "x.pass")
    path.write_text(
        path.read_text()
        + f'\n[[links]]\ntable = 1\nother_venue = "{NB}"\nother_table = 3\nowner = "here"\n'
    )
    with pytest.raises(ConfigError, match=r"central\.event") as caught:
        load_venue(path)
    assert "per game" in str(caught.value)


def test_central_without_links_or_event_is_still_refused(tmp_path: Path) -> None:
    path = write_hall(tmp_path, NA, 1884, 1883, tmp_path / "x.pass")
    path.write_text(path.read_text().replace(f'event = "{EVENT}"\n', ""))
    with pytest.raises(ConfigError, match="central") as caught:
        load_venue(path)
    assert "links no table" in str(caught.value)


def test_broker_config_switches_a_hall_between_fixed_links_and_a_network_event(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_hall(tmp_path, NA, 1884, 1883, tmp_path / "central.pass")
    out = tmp_path / "broker"
    args = ["venue", "broker-config", "--config", str(path), "--out", str(out)]
    args += ["--data-dir", str(tmp_path / "data")]
    assert main(args) == 0
    assert (out / "conf.d" / "network.conf").exists()
    assert not (out / "conf.d" / "links.conf").exists()
    assert "wrote " + str(out / "conf.d" / "network.conf") in capsys.readouterr().out

    fixed = path.read_text().replace(f'event = "{EVENT}"\n', "")
    fixed += f'\n[[links]]\ntable = 1\nother_venue = "{NB}"\nother_table = 3\nowner = "here"\n'
    path.write_text(fixed)
    assert main(args) == 0
    said = capsys.readouterr().out
    assert (out / "conf.d" / "links.conf").exists()
    assert not (out / "conf.d" / "network.conf").exists()
    assert (
        f"removed {out / 'conf.d' / 'network.conf'}: the venue file has no [central] event" in said
    )
    assert "topic read wuzi/v1/+/line/#" not in (out / "acl").read_text()  # fixed links only


def test_central_config_sends_a_network_hall_to_the_event_s_broker_config(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_hall(tmp_path, NA, 1884, 1883, tmp_path / "central.pass")
    args = ["venue", "central-config", "--config", str(path), "--out", str(tmp_path / "c")]
    assert main(args) == 1
    said = capsys.readouterr().err
    assert "central.event" in said and "broker-config on the organisers'" in said, said
    assert "Traceback" not in said
    assert not (tmp_path / "c").exists()
