"""The generated broker configuration on a real Mosquitto: each user gets exactly its own
topics, and nobody outside the venue file logs in at all.

Every refusal is proved by order (see acl_helpers): a refused publish is followed by an
allowed sentinel from the same client, and the subscriber has the sentinel but not the
refused message.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from support.acl import CHIEF_PASSWORD, Broker, Peer, generated_broker, peer_logins, tls_files
from wuzi.bus import topics
from wuzi.bus.client import BusClient
from wuzi.bus.schemas import TableState, parse_message
from wuzi.config.credentials import broker_login
from wuzi.sim import box

V = "acl-test"
NOT_AUTHORISED = 5  # MQTT 3.1.1 CONNACK: not authorised (paho maps it to reason 135)


@pytest.fixture(scope="module")
def broker() -> Iterator[Broker]:
    with generated_broker() as found:
        yield found


@pytest.fixture
def peers(broker: Broker) -> Iterator[dict[str, Peer]]:
    """A connected client per role, logged in as `broker_login` says (the real path)."""
    made: dict[str, Peer] = {}
    try:
        for name, (user, password) in peer_logins(broker.venue).items():
            assert user is not None and password is not None, name
            peer = Peer(broker.port, user, password)
            assert peer.connect() == 0, f"{name} was refused:\n{broker.log_text()}"
            made[name] = peer
        yield made
    finally:
        for peer in made.values():
            peer.close()


def test_the_logins_are_the_per_connection_accounts(broker: Broker) -> None:
    venue = broker.venue
    assert broker_login(venue, "host", "h1")[0] == f"wuzi.{V}.host.h1"
    assert broker_login(venue, "check", "h1")[0] == f"wuzi.{V}.check.h1"
    assert broker_login(venue, "director")[0] == f"wuzi.{V}.director.dir"
    assert broker_login(venue, "director-live")[0] == f"wuzi.{V}.director-live.dir"
    assert broker_login(venue, "screen", "hall")[0] == f"wuzi.{V}.screen.hall"
    assert broker_login(venue, "screen-public", "foyer")[0] == f"wuzi.{V}.screen.foyer"
    assert broker_login(venue, "referee", "chief") == (f"wuzi.{V}.referee.chief", None)
    assert broker_login(venue, "referee-send", "chief")[0] == f"wuzi.{V}.referee-send.chief"
    assert broker_login(venue, "broadcast")[0] == f"wuzi.{V}.broadcast.feed"
    conf = (broker.directory / "broker" / "mosquitto.conf").read_text()
    assert "use_username_as_clientid true" in conf.splitlines()


def test_the_director_s_live_connection_reads_only_retained_states(
    broker: Broker, peers: dict[str, Peer]
) -> None:
    live = Peer(broker.port, *broker_login(broker.venue, "director-live"))
    try:
        assert live.connect() == 0
        assert live.subscribe(topics.all_table_states(V)) == [1]
        assert live.subscribe(topics.all_host_statuses(V)) == [1]
        live.publish(topics.assignment(V, 1), b"from-director-live")
        peers["h1"].subscribe(topics.assignment(V, 1))
        peers["dir"].publish(topics.assignment(V, 1), b"from-the-director")
        got = peers["h1"].wait_for(topics.assignment(V, 1), b"from-the-director")
        assert b"from-director-live" not in [p for _t, p in got]
    finally:
        live.close()


def test_the_check_account_writes_only_its_host_s_status(
    broker: Broker, peers: dict[str, Peer]
) -> None:
    check = Peer(broker.port, *broker_login(broker.venue, "check", "h1"))
    watcher = peers["chief"]
    watcher.subscribe(f"wuzi/v1/{V}/#")
    try:
        assert check.connect() == 0
        check.publish(topics.table_state(V, 1), b"from-check")
        check.publish(topics.host_status(V, "h2"), b"from-check")
        check.publish(topics.host_status(V, "h1"), b"check-status")
        got = watcher.wait_for(topics.host_status(V, "h1"), b"check-status")
        assert b"from-check" not in [p for _t, p in got]
    finally:
        check.close()


def test_a_host_publishes_its_own_tables_and_no_other(peers: dict[str, Peer]) -> None:
    watcher = peers["chief"]  # referees read everything
    watcher.subscribe(f"wuzi/v1/{V}/#")
    h1 = peers["h1"]
    h1.publish(topics.table_state(V, 3), b"stolen")  # table 3 is h2's
    h1.publish(topics.table_events(V, 3), b"stolen")
    h1.publish(topics.arbiter_alerts(V, 3), b"stolen")
    h1.publish(topics.public_state(V, 3), b"stolen")
    h1.publish(topics.host_status(V, "h2"), b"stolen")
    h1.publish(topics.competition_state(V), b"stolen")
    h1.publish(topics.table_state(V, 1), b"own")
    h1.publish(topics.arbiter_alerts(V, 2), b"own")
    h1.publish(topics.host_status(V, "h1"), b"own")
    got = watcher.wait_for(topics.host_status(V, "h1"), b"own")
    assert (topics.table_state(V, 1), b"own") in got
    assert (topics.arbiter_alerts(V, 2), b"own") in got
    assert not [m for m in got if m[1] == b"stolen"]


def test_a_host_no_longer_writes_the_public_feed_of_its_own_tables(
    peers: dict[str, Peer],
) -> None:
    """Only the broadcast publishes ``public/`` (docs/broadcast.md): a host, the machine
    within players' reach, cannot put live play on the public feed, even its own table's."""
    watcher = peers["chief"]
    watcher.subscribe(f"wuzi/v1/{V}/#")
    h1 = peers["h1"]
    h1.publish(topics.public_state(V, 1), b"live-from-h1", retain=True)
    h1.publish(topics.public_events(V, 2), b"live-from-h1")
    h1.publish(topics.table_events(V, 2), b"h1-sentinel")
    got = watcher.wait_for(topics.table_events(V, 2), b"h1-sentinel")
    assert not [m for m in got if m[1] == b"live-from-h1"]


def test_only_the_director_assigns_games(peers: dict[str, Peer]) -> None:
    h1 = peers["h1"]
    assert h1.subscribe(topics.assignment(V, 1)) == [1]
    peers["h2"].publish(topics.assignment(V, 1), b"from-a-host")
    peers["screens"].publish(topics.assignment(V, 1), b"from-a-screen")
    peers["deputy"].publish(topics.assignment(V, 1), b"from-a-referee")
    peers["dir"].publish(topics.assignment(V, 1), b"from-the-director")
    got = h1.wait_for(topics.assignment(V, 1), b"from-the-director")
    assert [payload for _t, payload in got] == [b"from-the-director"]


def test_a_host_reads_only_its_own_tables_assignments(peers: dict[str, Peer]) -> None:
    h1 = peers["h1"]
    h1.subscribe(f"wuzi/v1/{V}/assignments/+")
    director = peers["dir"]
    director.publish(topics.assignment(V, 3), b"for-h2")
    director.publish(topics.assignment(V, 2), b"for-h1")
    got = h1.wait_for(topics.assignment(V, 2), b"for-h1")
    assert (topics.assignment(V, 3), b"for-h2") not in got
    director.publish(topics.competition_state(V), b"standings")
    assert peers["screens"].subscribe(topics.competition_state(V)) == [1]


def test_screens_write_nothing_and_never_read_the_arbiter_topics(
    peers: dict[str, Peer],
) -> None:
    screens = peers["screens"]
    everything = screens.subscribe(f"wuzi/v1/{V}/#")
    arbiter = screens.subscribe(f"wuzi/v1/{V}/arbiter/#")
    h1 = peers["h1"]
    h1.publish(topics.arbiter_alerts(V, 1), b"forbidden point at h8")
    h1.publish(topics.arbiter_state(V, 1), b"referee view")
    peers["deputy"].publish(topics.arbiter_commands(V), b"a command")
    h1.publish(topics.table_state(V, 1), b"the board")
    got = screens.wait_for(topics.table_state(V, 1), b"the board")
    assert not [t for t, _p in got if "/arbiter/" in t], (everything, arbiter, got)

    watcher = peers["chief"]
    watcher.subscribe(f"wuzi/v1/{V}/#")
    screens.publish(topics.table_state(V, 2), b"fake board")
    screens.publish(topics.arbiter_commands(V), b"fake command")
    screens.publish(topics.competition_state(V), b"fake standings")
    h1.publish(topics.table_state(V, 2), b"real board")
    got = watcher.wait_for(topics.table_state(V, 2), b"real board")
    assert not [m for m in got if m[1].startswith(b"fake")]


def test_public_screens_read_only_the_delayed_feed(peers: dict[str, Peer]) -> None:
    public = peers["public"]
    public.subscribe(f"wuzi/v1/{V}/#")
    h1 = peers["h1"]
    h1.publish(topics.table_state(V, 1), b"live")
    h1.publish(topics.table_events(V, 1), b"live")
    h1.publish(topics.arbiter_alerts(V, 1), b"live")
    peers["broadcast"].publish(topics.public_state(V, 1), b"delayed")
    got = public.wait_for(topics.public_state(V, 1), b"delayed")
    assert not [m for m in got if m[1] == b"live"]


def test_the_broadcast_reads_the_live_tables_and_writes_only_the_public_feed(
    peers: dict[str, Peer],
) -> None:
    broadcast = peers["broadcast"]
    assert broadcast.subscribe(topics.all_table_states(V)) == [1]
    assert broadcast.subscribe(topics.all_table_events(V)) == [1]
    arbiter = broadcast.subscribe(f"wuzi/v1/{V}/arbiter/#")
    everything_else = broadcast.subscribe(topics.competition_state(V))
    h1, h2 = peers["h1"], peers["h2"]
    h1.publish(topics.arbiter_alerts(V, 1), b"referee-only")
    peers["dir"].publish(topics.competition_state(V), b"referee-only")
    h1.publish(topics.table_state(V, 1), b"live-1")
    h2.publish(topics.table_events(V, 3), b"live-3")  # every host's tables
    got = broadcast.wait_for(topics.table_events(V, 3), b"live-3")
    assert (topics.table_state(V, 1), b"live-1") in got
    assert not [m for m in got if m[1] == b"referee-only"], (arbiter, everything_else)

    watcher = peers["chief"]
    watcher.subscribe(f"wuzi/v1/{V}/#")
    for topic in (
        topics.table_state(V, 1),
        topics.table_events(V, 1),
        topics.arbiter_alerts(V, 1),
        topics.arbiter_commands(V),
        topics.assignment(V, 1),
        topics.competition_state(V),
        topics.host_status(V, "feed"),
    ):
        broadcast.publish(topic, b"forged")
    broadcast.publish(topics.public_state(V, 3), b"delayed-3")
    broadcast.publish(topics.public_events(V, 1), b"delayed-1")
    got = watcher.wait_for(topics.public_events(V, 1), b"delayed-1")
    assert (topics.public_state(V, 3), b"delayed-3") in got
    assert not [m for m in got if m[1] == b"forged"]


def test_referees_command_and_hosts_do_not(peers: dict[str, Peer]) -> None:
    h2 = peers["h2"]
    assert h2.subscribe(topics.arbiter_commands(V)) == [1]
    peers["h1"].publish(topics.arbiter_commands(V), b"from-a-host")
    peers["dir"].publish(topics.arbiter_commands(V), b"from-the-director")
    peers["public"].publish(topics.arbiter_commands(V), b"from-a-screen")
    peers["chief"].publish(topics.arbiter_commands(V), b"from-chief")
    peers["deputy"].publish(topics.arbiter_commands(V), b"from-deputy")
    got = h2.wait_for(topics.arbiter_commands(V), b"from-deputy")
    assert [p for _t, p in got] == [b"from-chief", b"from-deputy"]


@pytest.mark.parametrize(
    ("user", "password"),
    [
        (f"wuzi.{V}.host.h1", "not-the-password"),
        (f"wuzi.{V}.referee.chief", "wrong"),
        ("h1", "not-the-password"),  # the old bare user names are no accounts
        ("chief", CHIEF_PASSWORD),
        ("intruder", "anything"),
        (None, None),  # anonymous
        (f"wuzi.{V}.host.h1", None),
    ],
)
def test_logins_outside_the_venue_file_are_refused(
    broker: Broker, user: str | None, password: str | None
) -> None:
    peer = Peer(broker.port, user, password)
    try:
        assert peer.connect() in (NOT_AUTHORISED, 135)
    finally:
        peer.close()


def test_a_host_bus_client_logs_in_and_publishes(broker: Broker, peers: dict[str, Peer]) -> None:
    """The real path of a host: broker_login, BusClient, a checked message, its PUBACK."""
    watcher = peers["chief"]
    watcher.subscribe(topics.table_state(V, 2))
    user, password = broker_login(broker.venue, "host", "h1")
    sent: list[str] = []
    client = BusClient(
        f"mqtt://127.0.0.1:{broker.port}",
        "wuzi-host-h1",
        username=user,
        password=password,
        on_sent=sent.append,
    )
    state = TableState(2, None, 0, "idle", (), 0, 0, None, None, 1_700_000_000_000)
    client.connect()
    try:
        assert client.wait_connected(10.0)
        client.publish(topics.table_state(V, 2), state, key="k")
        got = watcher.wait_for(topics.table_state(V, 2), _encoded(state))
        assert parse_message(got[-1][0], got[-1][1]) == state
    finally:
        client.close()


def _encoded(state: TableState) -> bytes:
    from wuzi.bus.schemas import encode

    return encode(state)


def test_the_tls_listener_takes_the_same_users() -> None:
    with tls_files() as (cert, key):
        tls_port = box.free_port()
        args = ("--tls-cert", str(cert), "--tls-key", str(key), "--tls-port", str(tls_port))
        with generated_broker(args) as broker:
            conf = (broker.directory / "broker" / "mosquitto.conf").read_text()
            assert f"listener {tls_port} 127.0.0.1" in conf
            user, password = broker_login(broker.venue, "host", "h2")
            good = Peer(tls_port, user, password)
            bad = Peer(tls_port, user, "wrong")
            try:
                assert good.connect(ca_file=str(cert)) == 0
                assert bad.connect(ca_file=str(cert)) in (NOT_AUTHORISED, 135)
            finally:
                good.close()
                bad.close()


def test_the_director_publishes_its_own_status_and_no_host_s(peers: dict[str, Peer]) -> None:
    screens = peers["screens"]
    assert screens.subscribe(topics.all_host_statuses(V)) == [1]
    peers["dir"].publish(topics.host_status(V, "h1"), b"posing-as-h1")
    peers["dir"].publish(topics.host_status(V, "dir"), b"director-online")
    got = screens.wait_for(topics.host_status(V, "dir"), b"director-online")
    assert [payload for _t, payload in got] == [b"director-online"]
