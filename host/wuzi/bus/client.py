"""A thin paho-mqtt shell: connect by URL, last will, typed subscriptions, in-order QoS 1.

Everything a Wuzi process says on the bus goes through `BusClient.publish`, which sends
QoS 1 with the retain flag the topic's policy demands (`wuzi.bus.topics.TOPIC_POLICY`).
paho keeps unacknowledged messages in publish order, queues them while the broker is
away and resends them in order after every reconnect; the `Outbox` on top turns PUBACKs
into ``on_sent(key)`` calls, in publish order, so a caller marks an event sent (in its
journal) only once the broker has it.

Retained state is the owner's truth: the client remembers the last message it published
on each retained topic (the birth first) and republishes them all, before anything else,
on every connect and reconnect — a broker restored from an old database, or one that
lost its retained messages, is corrected at once (docs/bus.md, "Retained messages are
republished"). Readers keep the newest state by `wuzi.bus.newest.supersedes`, so the
older copies paho resends afterwards change nothing on a screen.

Incoming messages are parsed with `parse_message`; a malformed one is logged with its
reason, passed to ``on_rejected`` and changes nothing — the handler never sees it.

Callbacks (handlers, ``on_sent``, ``on_rejected``) run on paho's network thread: keep
them short and hand work to the owner's own loop. An exception in a handler is logged,
never allowed to stop the network thread.

Reconnecting (`wuzi.bus.backoff`): an unreachable broker is retried with exponential
back-off to ``reconnect_max_s`` (5 s: the broker is back soon after a restart); a refused
login (bad credentials, not authorised) and a connection the broker drops soon after it
was made (a kick: another connection took this account's session) back off to
``refused_max_s`` (30 s), with jitter, since the same attempt will meet the same answer.
A connection that stays up ``stable_s`` starts the delays again from
``reconnect_min_s``. Each change of state is logged once, never each retry. At `connect`
the client logs who it is: the client id, the broker user and where its password came
from (``login_source``, from `wuzi.config.credentials.Login`), or that it is anonymous.
"""

from __future__ import annotations

import logging
import random
import socket
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion, MQTTErrorCode
from paho.mqtt.reasoncodes import ReasonCode

from wuzi.bus.backoff import Backoff, StateLog
from wuzi.bus.outbox import Outbox
from wuzi.bus.schemas import (
    MAX_PAYLOAD_BYTES,
    Message,
    MessageError,
    check_outgoing,
    encode,
    parse_message,
)
from wuzi.bus.tls import check_ca_file
from wuzi.bus.topics import LineKind, TopicError, parse_line_topic, parse_topic
from wuzi.bus.url import BusConfigError, parse_broker_url

log = logging.getLogger("wuzi.bus")

Handler = Callable[[str, Message], None]
Rejected = Callable[[str, MessageError], None]
Sent = Callable[[str], None]

_INTERNAL = ""  # outbox key of messages nobody asked to hear of (no key, the republish)


@dataclass(frozen=True)
class _Held:
    """A message published while the client was not ready, waiting for the flush."""

    sequence: int  # in the outbox
    topic: str
    payload: bytes
    retain: bool
    key: str


@dataclass(frozen=True)
class RetainedMessage:
    """A message for a retained topic: the birth (online) and last-will (offline) status."""

    topic: str
    message: Message


INFLIGHT_SPARE = 100
"""QoS 1 messages in flight beyond the retained republish of a connect: enough that a
burst rarely waits on acknowledgements."""


def _network_thread_writes(_client: mqtt.Client, _userdata: Any, _sock: object) -> None:
    """paho's "socket wants writing" callback, registered only so that paho leaves the
    writing to `BusClient`'s network thread (see ``on_socket_register_write`` in
    `BusClient.__init__`): that thread's ``loop`` writes whenever paho has packets."""


class BusClient:
    """One MQTT connection of a Wuzi process; reconnects by itself until `close`.

    With ``persistent_session`` the broker keeps the subscriptions and queues QoS 1
    messages for this client id while it is away (the director uses this, so that no
    event is missed during its restart).
    """

    def __init__(
        self,
        url: str,
        client_id: str,
        *,
        username: str | None = None,
        password: str | None = None,
        ca_file: str | None = None,
        will: RetainedMessage | None = None,
        birth: RetainedMessage | None = None,
        on_sent: Sent | None = None,
        on_rejected: Rejected | None = None,
        keepalive_s: int = 10,
        reconnect_min_s: float = 0.1,
        reconnect_max_s: float = 5.0,
        refused_max_s: float = 30.0,
        stable_s: float = 10.0,
        persistent_session: bool = False,
        login_source: str | None = None,
        clock: Callable[[], float] = time.monotonic,
        jitter: Callable[[], float] = random.random,
    ) -> None:
        self.address = parse_broker_url(url)
        if not client_id:
            raise BusConfigError("client id must not be empty")
        self.client_id = client_id
        self._on_sent = on_sent
        self._on_rejected = on_rejected
        self._keepalive_s = keepalive_s
        self._paho = mqtt.Client(
            CallbackAPIVersion.VERSION2,
            client_id=client_id,
            clean_session=not persistent_session,
            protocol=mqtt.MQTTv311,
        )
        user = username if username is not None else self.address.username
        secret = password if password is not None else self.address.password
        if user is not None:
            self._paho.username_pw_set(user, secret)
        self.username = user
        if username is None and self.address.username is not None:
            login_source = "the broker URL's login"
        elif login_source is None:
            login_source = "" if user is None else "a login given by the caller"
        self.login_source = login_source
        if self.address.tls:
            if ca_file is not None:  # a file that cannot serve says so, naming itself
                check_ca_file(ca_file, time.time())
            self._paho.tls_set(ca_certs=ca_file)
        if will is not None:
            self._paho.will_set(will.topic, encode(will.message), qos=1, retain=True)
        self._reconnect_max_s = reconnect_max_s
        self._clock = clock
        # two delays: reaching the broker (to reconnect_max_s) and being refused or dropped
        # by a broker that is there (to refused_max_s); see _retry_delay
        self._network = Backoff(reconnect_min_s, reconnect_max_s, stable_s, jitter)
        self._backoff = Backoff(
            reconnect_min_s, max(reconnect_max_s, refused_max_s), stable_s, jitter
        )
        self._state = StateLog(log, f"{client_id}: ")
        self._refused: str | None = None  # the CONNACK's reason, when the login was refused
        self._lost = ""  # why the last connection ended (paho's reason)
        self.attempts = 0  # connection attempts so far (for tests and benches)
        self._paho.max_queued_messages_set(0)  # unbounded: the journal is the real limit
        # Messages in flight: paho's 20 would hold a publish beyond the 20th in its queue
        # until its older resends had gone, so the retained republish would no longer be
        # first on the wire after a reconnect; each connection attempt raises the limit to
        # the retained topics plus INFLIGHT_SPARE (``_run``).
        self._paho.max_inflight_messages_set(INFLIGHT_SPARE)
        # One writer on the socket: the network thread. Without a loop of paho's own
        # (loop_start) or an "external loop" callback, paho writes a packet queued by
        # another thread at once, on that thread; and paho 2.2's writer pops a packet and
        # sends it without a lock, so a publish on the caller's thread and the network
        # thread sending the next queued message on a PUBACK put packets on the wire in
        # another order than the queue's — a topic's events out of order, at any broker
        # (tests/bus/test_bus_order.py). With the callback registered, paho only wakes
        # the network thread (its socket pair), which writes everything in queue order.
        self._paho.on_socket_register_write = _network_thread_writes
        self._paho.on_connect = self._handle_connect
        self._paho.on_disconnect = self._handle_disconnect
        self._paho.on_publish = self._handle_puback
        self._paho.on_subscribe = self._handle_suback
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self._publish_lock = threading.Lock()  # keeps outbox order == paho order
        self._outbox = Outbox()
        self._filters: dict[str, Handler] = {}
        self._suback_pending: set[int] = set()
        self._connected = False
        self._session_present = False
        self._ready = False  # connected and paho's resends are out: publish directly
        self._held: deque[_Held] = deque()  # published while not ready
        # the last payload published on each retained topic, republished first at every
        # connect (the birth is the first; a later status on its topic replaces it)
        self._retained: dict[str, bytes] = {}
        if birth is not None:
            self._retained[birth.topic] = encode(birth.message)
        self._sent: deque[str] = deque()  # keys acknowledged, waiting to be reported
        self._report_lock = threading.RLock()  # reports leave in order, one thread at a time
        self._closing = threading.Event()
        self._thread: threading.Thread | None = None

    # connection

    def connect(self) -> None:
        """Start the network thread; connects (and later reconnects) in the background."""
        if self._thread is not None:
            return
        where = f"{self.address.host}:{self.address.port}"
        if self.username is None:
            who = "anonymously" + (f" ({self.login_source})" if self.login_source else "")
        else:
            who = f"as broker user {self.username} ({self.login_source})"
        log.info("%s: connecting to %s %s", self.client_id, where, who)
        self._closing.clear()
        self._thread = threading.Thread(
            target=self._run, name=f"wuzi-bus-{self.client_id}", daemon=True
        )
        self._thread.start()

    @property
    def connected(self) -> bool:
        with self._lock:
            return self._connected

    def wait_connected(self, timeout_s: float) -> bool:
        with self._changed:
            return self._changed.wait_for(lambda: self._connected, timeout_s)

    def close(self, timeout_s: float = 5.0) -> None:
        """Disconnect cleanly (the broker drops the last will) and stop the network thread."""
        thread = self._thread
        if thread is None:
            return
        self._closing.set()
        thread.join(timeout_s)
        self._thread = None

    def kill_connection(self) -> None:
        """Drop the TCP connection without DISCONNECT, as a power cut or a pulled cable does.

        The broker then publishes the last will; the client reconnects by itself. For fault
        injection and tests.
        """
        sock = self._paho.socket()
        if isinstance(sock, socket.socket):  # also ssl.SSLSocket
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError as exc:
                log.debug("kill_connection: %s", exc)

    def _run(self) -> None:
        """The network loop: paho's loop() plus reconnection with exponential back-off.

        Our own loop rather than paho's loop_start, so that messages published while the
        broker was away are handed to paho only after paho has resent its unacknowledged
        ones: that is what keeps the order on the wire equal to the publish order.
        """
        where = f"{self.address.host}:{self.address.port}"
        first = True
        while not self._closing.is_set():
            self.attempts += 1
            self._refused = None
            # room for the whole retained republish at the CONNACK, and INFLIGHT_SPARE more.
            # paho's setter refuses unless its state says "closed", which a dropped
            # connection's does not until it reconnects; between two attempts nothing is
            # in flight, so the limit is written where the setter would write it
            with self._publish_lock:
                topics_kept = len(self._retained)
            self._paho._max_inflight_messages = topics_kept + INFLIGHT_SPARE
            try:
                if first:
                    self._paho.connect(self.address.host, self.address.port, self._keepalive_s)
                    first = False
                else:
                    self._paho.reconnect()
            except (OSError, ValueError) as exc:
                reason = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
                self._state.enter(
                    f"unreachable: {reason}", logging.INFO, f"cannot reach broker {where}: {reason}"
                )
                # The broker is away (a restart, the network): a drop before this was no
                # kick, so the long back-off starts again; this one has its own, shorter.
                self._backoff.reset()
                self._closing.wait(self._network.failed())
                continue
            up = False
            while not self._closing.is_set():
                rc = self._paho.loop(timeout=0.05)
                if rc != MQTTErrorCode.MQTT_ERR_SUCCESS:
                    break
                if self._connected and not self._ready:
                    self._flush_held()
                    up = True
                    self._network.reset()
                    self._backoff.connected(self._clock())
                if up:
                    self._backoff.stable(self._clock())
            with self._publish_lock:
                self._ready = False
            if self._closing.is_set():
                self._paho.disconnect()
                for _ in range(10):  # write the DISCONNECT out
                    if self._paho.loop(timeout=0.01) != MQTTErrorCode.MQTT_ERR_SUCCESS:
                        break
                break
            self._closing.wait(self._retry_delay(up, where))
        with self._changed:
            self._connected = False
            self._changed.notify_all()

    def _retry_delay(self, up: bool, where: str) -> float:
        """How long to wait after a connection attempt ended, logging the state it left
        the client in (refused, dropped soon after connecting, or lost).

        A refusal, and a connection dropped before it was up ``stable_s``, grow the long
        back-off (to ``refused_max_s``): the broker is there and says no, or another
        connection of this account keeps taking the session. A broker that restarts also
        drops every connection; an attempt that then finds it gone resets the long
        back-off (`_run`). MQTT 3.1.1 gives no reason for a closed connection, so a
        restart quicker than the next attempt is taken for a kick (docs/bus.md)."""
        if self._refused is not None:
            self._state.enter(
                f"refused: {self._refused}",
                logging.WARNING,
                f"broker {where} refused the login"
                + (f" of user {self.username}" if self.username else " (anonymous)")
                + (f" ({self.login_source})" if self.login_source else "")
                + f": {self._refused}; retrying with back-off up to {self._backoff.max_s:g} s",
            )
            return self._backoff.failed()
        if not up:
            self._state.enter(
                "no session", logging.WARNING, f"broker {where} closed the connection at once"
            )
            return self._backoff.failed()
        if self._backoff.ended(self._clock()):
            self._state.enter(
                "lost", logging.INFO, f"lost the connection to {where} ({self._lost}); reconnecting"
            )
            return self._network.failed()  # the minimum: it was up long, this is news
        self._state.enter(
            "dropped",
            logging.WARNING,
            f"broker {where} dropped the connection soon after it was made ({self._lost}; "
            "another connection of this account took its session?); retrying with back-off "
            f"up to {self._backoff.max_s:g} s",
        )
        return self._backoff.failed()

    def _flush_held(self) -> None:
        """Hand paho what was published while the client was not ready, in order, once
        paho has resent its unacknowledged messages (after the retained republish).

        A retained message without a key that a later held one of its topic supersedes
        is not sent (it is settled in the outbox as if acknowledged): the republish has
        already put the newest on the broker, and the later one goes out after paho's
        resends, so the broker ends on the newest either way; sending the older one would
        only show the hall the past once more."""
        with self._publish_lock:
            last = {h.topic: h.sequence for h in self._held if h.retain and h.key == _INTERNAL}
            while self._held:
                held = self._held.popleft()
                if held.retain and held.key == _INTERNAL and last[held.topic] != held.sequence:
                    with self._changed:
                        self._sent.extend(self._outbox.settle(held.sequence))
                        self._changed.notify_all()
                    self._report()
                    continue
                self._hand_to_paho(held.sequence, held.topic, held.payload, held.retain)
            self._ready = True

    def _republish_retained(self) -> None:
        """Send the last message of every retained topic this client published, first on
        the new connection (from the CONNACK callback, before paho resends anything)."""
        with self._publish_lock:
            for topic, payload in self._retained.items():
                with self._lock:
                    sequence = self._outbox.add(_INTERNAL)
                self._hand_to_paho(sequence, topic, payload, True)

    def retained(self) -> dict[str, bytes]:
        """The last payload this client published on each retained topic (what it
        republishes at every connect), by topic."""
        with self._publish_lock:
            return dict(self._retained)

    # publishing

    def publish(self, topic: str, message: Message, *, key: str | None = None) -> None:
        """Send ``message`` QoS 1 (retain per the topic's policy), in order, at least once.

        ``on_sent(key)`` is called once the broker acknowledged it and everything published
        before it; without a key nothing is reported. Never blocks on the network: while the
        broker is away messages queue in memory and go out in order on reconnect.
        """
        try:
            retain = parse_topic(topic).policy.retain
        except TopicError as exc:
            raise BusConfigError(str(exc)) from None
        if key == _INTERNAL:
            raise BusConfigError("an outbox key must not be empty")
        try:
            # nothing referee-only on a public topic, ever; the payload is the checked one
            payload = check_outgoing(topic, message)
        except MessageError as exc:
            raise BusConfigError(f"refusing to publish: {exc}") from None
        if len(payload) > MAX_PAYLOAD_BYTES:
            raise BusConfigError(
                f"message for {topic!r} is {len(payload)} bytes; receivers accept at most"
                f" {MAX_PAYLOAD_BYTES}"
            )
        self._send(topic, payload, retain, _INTERNAL if key is None else key)

    def publish_line(self, topic: str, payload: bytes) -> None:
        """Send a hall-line packet (``wuzi.bus.line``'s bytes) on a ``line/<link>/`` topic,
        QoS 1, in order, at least once; the ``state`` topic retained. The packets carry
        their own numbering and acknowledgements (``wuzi.table.hall_line``), so they are
        not journaled outbox entries: a lost one is resent by the line itself."""
        try:
            kind = parse_line_topic(topic).kind
        except TopicError as exc:
            raise BusConfigError(str(exc)) from None
        if len(payload) > MAX_PAYLOAD_BYTES:
            raise BusConfigError(f"hall-line packet for {topic!r} is {len(payload)} bytes")
        self._send(topic, bytes(payload), kind is LineKind.STATE, _INTERNAL)

    def subscribe_line(self, topic_filter: str, handler: Callable[[str, bytes], None]) -> None:
        """Deliver every message matching a hall-line ``topic_filter`` to ``handler`` as
        bytes (QoS 1, kept across reconnects): the line's own parser
        (``wuzi.bus.line``) reads them, since they are not bus messages."""

        def deliver(_client: mqtt.Client, _userdata: Any, msg: mqtt.MQTTMessage) -> None:
            self._call(handler, msg.topic, bytes(msg.payload))

        self._paho.message_callback_add(topic_filter, deliver)
        with self._changed:
            self._filters[topic_filter] = lambda topic, message: None
            if self._connected:
                self._subscribe_locked(topic_filter)

    def unsubscribe_line(self, topic_filter: str) -> None:
        """Stop the hall-line subscription ``subscribe_line`` made (a linked game over)."""
        self._paho.message_callback_remove(topic_filter)
        with self._changed:
            if self._filters.pop(topic_filter, None) is not None and self._connected:
                self._paho.unsubscribe(topic_filter)

    def _send(self, topic: str, payload: bytes, retain: bool, key: str) -> None:
        with self._publish_lock:
            if retain:
                self._retained[topic] = payload
            with self._lock:
                sequence = self._outbox.add(key)
            if self._ready:
                self._hand_to_paho(sequence, topic, payload, retain)
            else:
                self._held.append(_Held(sequence, topic, payload, retain, key))

    def _hand_to_paho(self, sequence: int, topic: str, payload: bytes, retain: bool) -> None:
        info = self._paho.publish(topic, payload, qos=1, retain=retain)
        if info.rc == MQTTErrorCode.MQTT_ERR_QUEUE_SIZE:
            # Cannot happen with an unbounded queue and payloads under MAX_PAYLOAD_BYTES;
            # the entry stays pending, so the caller never marks it sent.
            log.error("paho refused to queue %s: %s", topic, mqtt.error_string(info.rc))
            return
        # Any other code (NO_CONN, or CONN_LOST when the broker went away while paho wrote
        # the packet from this thread) leaves the message in paho's queue, resent on the
        # reconnect: it must be bound, or its PUBACK would never be matched and every
        # later message of the outbox would wait behind it for ever.
        with self._changed:
            self._sent.extend(self._outbox.bind(sequence, info.mid))
            self._changed.notify_all()
        self._report()

    def pending(self) -> list[str]:
        """Keys published but not yet reported sent, oldest first."""
        with self._lock:
            return [key for key in self._outbox.pending() if key != _INTERNAL]

    def wait_drained(self, timeout_s: float) -> bool:
        """Wait until every published message is acknowledged."""
        with self._changed:
            return self._changed.wait_for(lambda: len(self._outbox) == 0, timeout_s)

    # subscribing

    def subscribe(self, topic_filter: str, handler: Handler) -> None:
        """Deliver every valid message matching ``topic_filter`` to ``handler`` (QoS 1).

        Kept across reconnects. Malformed messages go to ``on_rejected`` instead.
        """

        def deliver(_client: mqtt.Client, _userdata: Any, msg: mqtt.MQTTMessage) -> None:
            self._deliver(handler, msg.topic, bytes(msg.payload))

        self._paho.message_callback_add(topic_filter, deliver)
        with self._changed:
            self._filters[topic_filter] = handler
            if self._connected:
                self._subscribe_locked(topic_filter)

    def wait_subscribed(self, timeout_s: float) -> bool:
        """Wait until the broker has acknowledged every subscription on this connection."""
        with self._changed:
            return self._changed.wait_for(
                lambda: self._connected and not self._suback_pending, timeout_s
            )

    def resubscribe(self, topic_filter: str) -> None:
        """Subscribe to ``topic_filter`` (already subscribed) once more, now.

        The broker answers a SUBSCRIBE with the retained message of every matching topic,
        so this asks for the latest retained state again: how a reader fills a gap it
        found in the events (`wuzi.bus.gaps`). While disconnected it does nothing: the
        reconnect subscribes, and so delivers the retained messages, anyway."""
        with self._changed:
            if topic_filter not in self._filters:
                raise BusConfigError(f"not subscribed to {topic_filter!r}: cannot resubscribe")
            if self._connected:
                self._subscribe_locked(topic_filter)

    @property
    def session_present(self) -> bool:
        """Whether the broker still had this client's session at the last connect (always
        False for a clean session). A persistent reader that finds it False has lost
        what was queued for it, and must rebuild from retained state."""
        with self._lock:
            return self._session_present

    def _subscribe_locked(self, topic_filter: str) -> None:
        rc, mid = self._paho.subscribe(topic_filter, qos=1)
        if rc == MQTTErrorCode.MQTT_ERR_SUCCESS and mid is not None:
            self._suback_pending.add(mid)

    def _deliver(self, handler: Handler, topic: str, payload: bytes) -> None:
        try:
            message = parse_message(topic, payload)
        except MessageError as exc:
            log.warning("rejected %s", exc)
            if self._on_rejected is not None:
                self._call(self._on_rejected, topic, exc)
            return
        self._call(handler, topic, message)

    @staticmethod
    def _call(callback: Callable[..., None], *args: object) -> None:
        try:
            callback(*args)
        except Exception:
            log.exception("bus callback %r failed", callback)

    # paho callbacks (network thread)

    def _handle_connect(
        self,
        _client: mqtt.Client,
        _userdata: Any,
        flags: mqtt.ConnectFlags,
        reason: ReasonCode,
        _properties: Any,
    ) -> None:
        if reason.is_failure:
            self._refused = str(reason)
            return
        self._state.enter(
            "connected",
            logging.INFO,
            f"connected to {self.address.host}:{self.address.port}"
            + (" (session kept)" if flags.session_present else ""),
        )
        # First of all on this connection, before the subscriptions: paho resends its
        # unacknowledged messages only once this callback returns, and `_run` flushes the
        # held ones after that. The birth is among them (the last status published). The
        # in-flight limit, set before connecting, leaves room for all of them at once.
        self._republish_retained()
        with self._changed:
            self._connected = True
            self._session_present = bool(flags.session_present)
            self._suback_pending.clear()
            for topic_filter in self._filters:
                self._subscribe_locked(topic_filter)
            self._changed.notify_all()

    def _handle_disconnect(
        self,
        _client: mqtt.Client,
        _userdata: Any,
        _flags: mqtt.DisconnectFlags,
        reason: ReasonCode,
        _properties: Any,
    ) -> None:
        self._lost = str(reason)
        with self._changed:
            self._connected = False
            self._changed.notify_all()

    def _handle_puback(
        self, _client: mqtt.Client, _userdata: Any, mid: int, _reason: ReasonCode, _p: Any
    ) -> None:
        with self._changed:
            self._sent.extend(self._outbox.acknowledge(mid))
            self._changed.notify_all()
        self._report()

    def _handle_suback(
        self, _client: mqtt.Client, _userdata: Any, mid: int, _codes: list[ReasonCode], _p: Any
    ) -> None:
        with self._changed:
            self._suback_pending.discard(mid)
            self._changed.notify_all()

    def _report(self) -> None:
        with self._report_lock:
            while True:
                with self._lock:
                    if not self._sent:
                        return
                    key = self._sent.popleft()
                if key != _INTERNAL and self._on_sent is not None:
                    self._call(self._on_sent, key)
