"""Bridged halls on real Mosquitto (issue 36, docs/linked.md "Bridged halls"): two halls'
brokers and the central one, each configured by ``wuzi venue broker-config`` /
``central-config`` from two venue files (`support.linked_halls`). The linked tables' hall
line crosses both ways; nothing else of a hall does; the central broker refuses a hall's
bridge publishing under the other hall's venue; a hall's own ACL refuses a host writing
another venue's line topic, or a line topic of a table it does not serve.

"Never arrives" is proved by order (`support.acl`): the same client then publishes an
allowed sentinel, and once the all-seeing watcher has the sentinel, the refused message
would have been in before it."""

from __future__ import annotations

import time

from support.acl import Peer
from support.linked_halls import A, B, Halls, bridged, linked_halls, login_peer
from wuzi.bus import topics
from wuzi.config.credentials import broker_login


def _host(halls: Halls, venue_id: str, host_id: str) -> Peer:
    user, password = broker_login(halls.venues[venue_id], "host", host_id)
    return login_peer(halls.ports[venue_id], user, password)


def test_the_hall_line_crosses_and_nothing_else_of_a_hall_does() -> None:
    with linked_halls() as halls:
        a_host, b_host = _host(halls, A, "pi-1"), _host(halls, B, "pi-1")
        peers = [a_host, b_host]
        try:
            # the hosts subscribe to what they may read of the other hall: its line
            assert b_host.subscribe(topics.line_filter(A, "board-1")) == [1]
            assert b_host.subscribe(topics.line_filter(A, "board-2")) == [1]
            assert a_host.subscribe(topics.line_filter(B, "board-1")) == [1]
            b_watch = halls.watcher(B)
            a_watch = halls.watcher(A)
            central_watch = halls.watcher("central")
            peers += [b_watch, a_watch, central_watch]
            # board-1 is owned by hall B: hall A's host is away, sends to the owner
            bridged(a_host, topics.line_to_owner(A, "board-1"), b_host)
            # and the owner answers, and publishes its retained truth of the game
            bridged(b_host, topics.line_to_away(B, "board-1"), a_host)
            b_host.publish(topics.line_state(B, "board-1"), b"truth", retain=True)
            a_host.wait_for(topics.line_state(B, "board-1"), b"truth")
            # board-2 is owned by hall A
            a_host.publish(topics.line_state(A, "board-2"), b"truth 2", retain=True)
            b_host.wait_for(topics.line_state(A, "board-2"), b"truth 2")

            # what stays in hall A: the table state, events, alerts, referee state, the
            # director's assignment, a host status, the hall's own public feed
            director = login_peer(halls.ports[A], *broker_login(halls.venues[A], "director"))
            peers.append(director)
            staying = [
                (a_host, topics.table_state(A, 1)),
                (a_host, topics.table_events(A, 1)),
                (a_host, topics.arbiter_alerts(A, 1)),
                (a_host, topics.arbiter_state(A, 1)),
                (a_host, topics.host_status(A, "pi-1")),
                (director, topics.assignment(A, 1)),
                (director, topics.competition_state(A)),
            ]
            for sender, topic in staying:
                sender.publish(topic, b"hall A only")
            for topic in {t for _, t in staying}:
                a_watch.wait_for(topic, b"hall A only")  # published in hall A, so:
            sentinel = topics.line_to_owner(A, "board-1")
            a_host.publish(sentinel, b"sentinel")  # hall A's broker had all the rest before
            got_b = b_watch.wait_for(sentinel, b"sentinel")  # one bridge, in order
            crossed = {t for t, p in got_b if t.startswith(f"wuzi/v1/{A}/")}
            assert crossed <= {
                topics.line_to_owner(A, "board-1"),
                topics.line_state(A, "board-2"),
            }, crossed
            on_central = {t for t, _ in central_watch.received}
            assert on_central <= {
                topics.line_to_owner(A, "board-1"),
                topics.line_to_away(B, "board-1"),
                topics.line_state(B, "board-1"),
                topics.line_state(A, "board-2"),
            }, on_central
            assert not any(p == b"hall A only" for _, p in got_b + central_watch.received)

            # the local ACL: hall A's host may not write hall B's line (as B's host), nor
            # its own venue's line of a table it does not serve; pi-2 (table 3, no link)
            # writes no line topic at all
            a_host.publish(topics.line_to_away(B, "board-1"), b"forged in hall A")
            a_host.publish(topics.line_state(B, "board-2"), b"forged in hall A")
            a_host.publish(topics.line_to_owner(A, "board-9"), b"forged in hall A")
            pi2 = _host(halls, A, "pi-2")
            peers.append(pi2)
            pi2.publish(topics.line_to_owner(A, "board-1"), b"forged by pi-2")
            pi2.publish(topics.table_state(A, 3), b"pi-2 sentinel")
            a_host.publish(topics.table_state(A, 2), b"pi-1 sentinel")
            a_watch.wait_for(topics.table_state(A, 3), b"pi-2 sentinel")
            a_watch.wait_for(topics.table_state(A, 2), b"pi-1 sentinel")
            forged = [p for _, p in a_watch.received if p.startswith(b"forged")]
            assert forged == [], a_watch.received
        finally:
            for peer in peers:
                peer.close()


def test_the_central_broker_refuses_a_hall_publishing_as_the_other() -> None:
    """Hall B's bridge account (its login, as a hall whose bridge was rewritten would use
    it) publishes under hall A's venue on the central broker: refused; hall A's host never
    sees it, nor does the central broker's own reader. Its own line passes."""
    with linked_halls() as halls:
        a_host = _host(halls, A, "pi-1")
        peers = [a_host]
        try:
            assert a_host.subscribe(topics.line_filter(B, "board-1")) == [1]
            central_watch = halls.watcher("central")
            peers.append(central_watch)
            b_host = _host(halls, B, "pi-1")
            bridged(b_host, topics.line_to_away(B, "board-1"), a_host)  # the bridges are up
            b_host.close()
            halls.stop(B)  # hall B's own bridge leaves; its login is now used by hand
            user, password = halls.central_login(B)
            forger = login_peer(halls.ports["central"], user, password)
            peers.append(forger)
            forger.publish(topics.line_to_owner(A, "board-1"), b"forged as A")
            forger.publish(topics.line_state(A, "board-2"), b"forged as A")
            forger.publish(topics.table_state(A, 1), b"forged as A")
            forger.publish(topics.line_to_owner(B, "board-9"), b"forged as B")  # not a link
            forger.publish(topics.line_to_away(B, "board-1"), b"sentinel")
            central_watch.wait_for(topics.line_to_away(B, "board-1"), b"sentinel")
            a_host.wait_for(topics.line_to_away(B, "board-1"), b"sentinel")
            time.sleep(0.2)  # nothing is awaited here: the sentinel already ordered it
            for peer in (central_watch, a_host):
                assert not any(p.startswith(b"forged") for _, p in peer.received), peer.received
        finally:
            for peer in peers:
                peer.close()


def test_what_a_cut_line_held_crosses_on_its_return_in_order() -> None:
    """The central broker goes away (the line between the halls is cut) and comes back:
    what hall A's host sent meanwhile was queued by hall A's bridge (``cleansession
    false``, QoS 1) and reaches hall B's host, in order, with nothing lost."""
    with linked_halls() as halls:
        a_host, b_host = _host(halls, A, "pi-1"), _host(halls, B, "pi-1")
        try:
            assert b_host.subscribe(topics.line_filter(A, "board-1")) == [1]
            topic = topics.line_to_owner(A, "board-1")
            bridged(a_host, topic, b_host)
            halls.stop("central")
            held = [f"held {i}".encode() for i in range(5)]
            for payload in held:
                a_host.publish(topic, payload)  # accepted by hall A's own broker
            halls.start("central")
            got = b_host.wait_for(topic, held[-1])
            assert [p for t, p in got if t == topic and p.startswith(b"held")] == held
        finally:
            a_host.close()
            b_host.close()
