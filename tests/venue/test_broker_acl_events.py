"""A hall of two events on one real Mosquitto, configured by ``wuzi venue broker-config``:
each event's director account (``wuzi.<venue>.director.<event>``) assigns, reads and
publishes standings for its own event's tables only (issue 35, 002 三(二)).

Every refusal is proved by order (tests/support/acl.py): a refused publish is followed by
an allowed sentinel from the same client, and the subscriber has the sentinel but not the
refused message.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from support.acl import CHIEF_PASSWORD, Broker, Peer, generated_broker, write_events_venue
from wuzi.bus import topics
from wuzi.config.credentials import (
    CredentialError,
    broker_login,
    client_id_of,
    director_account,
)

V = "acl-events"


@pytest.fixture(scope="module")
def broker() -> Iterator[Broker]:
    with generated_broker(writer=write_events_venue) as found:
        yield found


@pytest.fixture
def peers(broker: Broker) -> Iterator[dict[str, Peer]]:
    """A connected client per connection, each logged in as the real path says:
    `director_account` for the directors, `broker_login` for the rest."""
    venue = broker.venue
    men, women = director_account(venue, "men"), director_account(venue, "women")
    logins = {
        "men": (men.persistent.username, men.persistent.password),
        "men-live": (men.live.username, men.live.password),
        "women": (women.persistent.username, women.persistent.password),
        "women-live": (women.live.username, women.live.password),
        "h1": broker_login(venue, "host", "h1"),
        "h2": broker_login(venue, "host", "h2"),
        "chief": (client_id_of(venue, "referee", "chief"), CHIEF_PASSWORD),  # reads all
    }
    made: dict[str, Peer] = {}
    try:
        for name, (user, password) in logins.items():
            assert user is not None and password is not None, name
            peer = Peer(broker.port, user, password)
            assert peer.connect() == 0, f"{name} was refused:\n{broker.log_text()}"
            made[name] = peer
        yield made
    finally:
        for peer in made.values():
            peer.close()


def test_each_event_has_its_director_accounts_and_password_files(broker: Broker) -> None:
    venue = broker.venue
    men = director_account(venue, "men")
    assert (men.ident, men.event) == ("men", "men")
    assert men.persistent.username == men.persistent.client_id == f"wuzi.{V}.director.men"
    assert men.live.username == f"wuzi.{V}.director-live.men"
    assert men.persistent.password == men.live.password  # one secret, two sessions
    default = broker.directory / "secrets" / "events" / "men.pass"
    assert men.persistent.source == f"password file {default}"
    women = director_account(venue, "women")
    assert women.persistent.password != men.persistent.password
    passwd = (broker.directory / "broker" / "passwd").read_text()
    users = {line.split(":")[0] for line in passwd.splitlines()}
    assert {f"wuzi.{V}.director.men", f"wuzi.{V}.director-live.women"} <= users
    assert not [u for u in users if u.startswith(f"wuzi.{V}.director.director")]
    with pytest.raises(CredentialError, match=r"events: .*\(men, women\).*--event"):
        director_account(venue)  # which event? never a guess
    with pytest.raises(CredentialError, match=r"no event 'mixed' \(events: men, women\)"):
        director_account(venue, "mixed")


def test_the_men_s_director_assigns_its_tables_and_publishes_its_standings_only(
    peers: dict[str, Peer],
) -> None:
    watcher = peers["chief"]
    watcher.subscribe(f"wuzi/v1/{V}/#")
    men = peers["men"]
    men.publish(topics.assignment(V, 3), b"stolen")  # the women's table (on h1 too)
    men.publish(topics.assignment(V, 4), b"stolen")
    men.publish(topics.competition_state(V, "women"), b"stolen")
    men.publish(topics.competition_state(V), b"stolen")  # the one-event venue's topic
    men.publish(topics.host_status(V, "women"), b"stolen")
    men.publish(topics.assignment(V, 1), b"own")
    men.publish(topics.host_status(V, "men"), b"own")
    men.publish(topics.competition_state(V, "men"), b"own")
    got = watcher.wait_for(topics.competition_state(V, "men"), b"own")
    assert (topics.assignment(V, 1), b"own") in got
    assert (topics.host_status(V, "men"), b"own") in got
    assert not [m for m in got if m[1] == b"stolen"]


def test_the_women_s_director_cannot_assign_the_men_s_tables(peers: dict[str, Peer]) -> None:
    h1 = peers["h1"]  # serves tables of both events
    assert h1.subscribe(f"wuzi/v1/{V}/assignments/+") == [1]
    women = peers["women"]
    women.publish(topics.assignment(V, 1), b"from-the-women-s-director")
    women.publish(topics.competition_state(V, "men"), b"from-the-women-s-director")
    women.publish(topics.assignment(V, 3), b"women-table-3")
    got = h1.wait_for(topics.assignment(V, 3), b"women-table-3")
    assert [p for _t, p in got] == [b"women-table-3"]


def test_a_director_reads_only_its_own_tables_events(peers: dict[str, Peer]) -> None:
    men = peers["men"]
    assert men.subscribe(topics.all_table_events(V)) == [1]  # granted; filtered on delivery
    peers["chief"].subscribe(topics.all_table_events(V))
    peers["h2"].publish(topics.table_events(V, 4), b"women-move")
    peers["chief"].wait_for(topics.table_events(V, 4), b"women-move")  # routed by now
    h1 = peers["h1"]
    h1.publish(topics.table_events(V, 3), b"women-move")
    h1.publish(topics.table_events(V, 1), b"men-move")
    got = men.wait_for(topics.table_events(V, 1), b"men-move")
    assert [t for t, _p in got] == [topics.table_events(V, 1)]


def test_a_director_s_live_connection_reads_only_its_tables_states(
    peers: dict[str, Peer],
) -> None:
    live = peers["men-live"]
    assert live.subscribe(topics.all_table_states(V)) == [1]
    assert live.subscribe(topics.all_host_statuses(V)) == [1]
    peers["chief"].subscribe(f"wuzi/v1/{V}/#")
    peers["h2"].publish(topics.host_status(V, "h2"), b"h2-serves-only-women")
    peers["h2"].publish(topics.table_state(V, 4), b"women-board")
    peers["chief"].wait_for(topics.table_state(V, 4), b"women-board")
    h1 = peers["h1"]
    h1.publish(topics.table_state(V, 3), b"women-board")
    h1.publish(topics.table_state(V, 2), b"men-board")
    h1.publish(topics.host_status(V, "h1"), b"h1-serves-men")
    got = live.wait_for(topics.host_status(V, "h1"), b"h1-serves-men")
    assert got == [
        (topics.table_state(V, 2), b"men-board"),
        (topics.host_status(V, "h1"), b"h1-serves-men"),
    ]
    live.publish(topics.assignment(V, 1), b"from-live")  # the live connection writes nothing
    peers["men"].publish(topics.assignment(V, 2), b"sentinel")
    got = peers["chief"].wait_for(topics.assignment(V, 2), b"sentinel")
    assert b"from-live" not in [p for _t, p in got]


def test_each_director_reads_the_venue_s_referee_commands(peers: dict[str, Peer]) -> None:
    for name in ("men", "women"):
        assert peers[name].subscribe(topics.arbiter_commands(V)) == [1]
    peers["chief"].publish(topics.arbiter_commands(V), b"a command")
    for name in ("men", "women"):
        assert peers[name].wait_for(topics.arbiter_commands(V), b"a command")


def test_the_acl_names_each_event_director(broker: Broker) -> None:
    acl = (Path(broker.directory) / "broker" / "acl").read_text()
    assert "# director of event men (tables 1, 2)" in acl
    assert "# director-live of event women (tables 3, 4)" in acl
    assert f"topic readwrite wuzi/v1/{V}/competition/men/state" in acl
    blocks = [b for b in acl.split("\n\n") if "\nuser wuzi.acl-events.director" in b]
    assert len(blocks) == 4
    assert not [b for b in blocks if "+" in b or "#" in b.split("\n", 1)[1]]  # no wildcards
