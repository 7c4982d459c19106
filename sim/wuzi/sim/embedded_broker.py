"""An MQTT broker inside the Wuzi process, for a venue that is one machine (`make demo`).

A venue runs Mosquitto (`wuzi.venue.broker_config`); the demo prefers a private one too
(`find_mosquitto`). Where there is none, `EmbeddedBroker` runs amqtt's broker on its own
thread and asyncio loop, on a localhost TCP port, so that the same clients (paho, through
`wuzi.bus.client.BusClient`) talk to a real MQTT broker over a real socket.

It behaves as the venue's Mosquitto does where Wuzi depends on it:

* Anyone may connect (a one-machine venue has no one to keep out), yet persistent
  sessions are honoured: amqtt's own anonymous-auth plugin marks every client
  anonymous, and amqtt drops the sessions and the offline queue of anonymous clients,
  which would lose the events a restarting director must find waiting for it. So the
  door is opened by `OpenDoorAuth`, which accepts without that mark.
* `stop` and `start` again keep the port, the retained messages and the persistent
  sessions (subscriptions, and the QoS 1 messages queued or unacknowledged for them),
  as Mosquitto with persistence does across a restart — the demo's broker-restart fault
  needs that. Kept in memory only: the embedded broker lives as long as the demo.
* A client connecting while another subscribes is served, not dropped: amqtt 0.12
  has a race there that hit every demo start (`_SnapshotDict`).

Known differences (seen in tests/venue/test_embedded_broker.py and a bench script):

* amqtt delivers a retained message more than once: on every connect it sends, at
  QoS 0, the retained messages matching *any* client's subscription (those matching none
  of this client's filters reach no `BusClient` handler), then again for the client's own
  SUBSCRIBE. Wuzi tolerates this by design (retained messages are whole states; events
  carry unique ids), but a subscriber must never count retained deliveries.
* It is slower than Mosquitto: with one publisher and one subscriber (BusClient, QoS 1,
  2 cores) about 600 messages/s when the clients share its process (and its GIL), as the
  demo's own clients do, about 1,300 with the broker in a process of its own, against
  1,700-1,900 for Mosquitto, where the Python clients are the limit. Ample for one
  machine's demo, not for a venue.
* Its `stop` sends no client's last will (amqtt would queue the wills and drop them with
  a warning): the broker going away is not a client failing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import shutil
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any

from amqtt.adapters import (  # type: ignore[import-untyped]
    StreamReaderAdapter,
    StreamWriterAdapter,
)
from amqtt.broker import (  # type: ignore[import-untyped]
    Broker,
    BrokerContext,
    RetainedApplicationMessage,
)
from amqtt.plugins.base import BaseAuthPlugin  # type: ignore[import-untyped]

__all__ = ["EmbeddedBroker", "EmbeddedBrokerError", "OpenDoorAuth", "find_mosquitto"]

log = logging.getLogger("wuzi.sim.embedded_broker")

_MOSQUITTO_PATHS = ("/usr/sbin/mosquitto", "/usr/local/sbin/mosquitto")
_LISTENER = "default"  # amqtt requires a listener of this name
_QUIET_LOGGERS = ("amqtt", "transitions")  # chatty at INFO: one line per connection


def find_mosquitto() -> str | None:
    """The Mosquitto binary, if installed: the demo prefers it to the embedded broker."""
    found = shutil.which("mosquitto")
    if found is not None:
        return found
    return next((path for path in _MOSQUITTO_PATHS if os.access(path, os.X_OK)), None)


class EmbeddedBrokerError(RuntimeError):
    """The embedded broker could not start or stop; says why (e.g. the port is taken)."""


class OpenDoorAuth(BaseAuthPlugin):  # type: ignore[misc]
    """Accept every client, without amqtt's "anonymous" mark (see the module docstring)."""

    async def authenticate(self, *, session: Any) -> bool:
        return True


def broker_config() -> dict[str, Any]:
    """amqtt's configuration: one external listener (the socket is ours, so that port 0
    works and the real port is known), our open door, and no other plugin (no $SYS
    topics, no packet logging, no topic checks)."""
    return {
        "listeners": {_LISTENER: {"type": "external"}},
        "plugins": {f"{OpenDoorAuth.__module__}.{OpenDoorAuth.__qualname__}": {}},
    }


class _SnapshotDict(dict[str, Any]):
    """A dict whose iteration walks a copy of its keys (or items) taken when it starts.

    amqtt 0.12 iterates its subscription table across awaits: on every connect it walks
    all topic filters and awaits the retained messages of each. A SUBSCRIBE to a new
    filter from another client meanwhile raised "dictionary changed size during
    iteration" and dropped the connecting client, half torn down (its session stayed
    "connected" and asyncio logged "socket.send() raised exception." for every message
    routed to it). With several hosts starting at once this happened at every start of
    the demo. Installed as the broker's table by `_harden`.
    """

    def __iter__(self) -> Iterator[str]:
        return iter(list(super().keys()))

    def items(self) -> list[tuple[str, Any]]:  # type: ignore[override]
        return list(super().items())

    def values(self) -> list[Any]:  # type: ignore[override]
        return list(super().values())


def _harden(broker: Any) -> None:
    """Replace amqtt's subscription table by a `_SnapshotDict` (its private attribute:
    fail loudly if a later amqtt renames it, rather than run with the race)."""
    table = getattr(broker, "_subscriptions", None)
    if not isinstance(table, dict) or broker.subscriptions is not table:
        raise EmbeddedBrokerError(
            "this amqtt keeps its subscriptions elsewhere than Broker._subscriptions: "
            "the embedded broker cannot guard its connect race (see _SnapshotDict)"
        )
    broker._subscriptions = _SnapshotDict(table)


@dataclass(frozen=True)
class _Kept:
    """One message the broker holds: retained on a topic, or queued for a session."""

    topic: str
    data: bytes
    qos: int | None


@dataclass
class _KeptSession:
    client_id: str
    subscriptions: list[tuple[str, int]] = field(default_factory=list)
    queued: list[_Kept] = field(default_factory=list)  # oldest first


@dataclass
class _State:
    """What survives `EmbeddedBroker.stop`: what Mosquitto keeps in its persistence file."""

    retained: list[_Kept] = field(default_factory=list)
    sessions: list[_KeptSession] = field(default_factory=list)


def _take_state(broker: Any) -> _State:
    """Copy the retained messages and the persistent sessions out of a running broker.

    Consumes the sessions' offline queues (the broker is about to shut down and would
    clear them). Unacknowledged outgoing messages are queued ahead of them: they were
    sent first, and QoS 1 promises them again after a reconnect.
    """
    state = _State(
        retained=[
            _Kept(topic, bytes(message.data), message.qos)
            for topic, message in broker.retained_messages.items()
            if message.data
        ]
    )
    for client_id, (session, _handler) in broker.sessions.items():
        if session.clean_session or session.is_anonymous:
            continue
        kept = _KeptSession(client_id)
        for topic_filter, subscribers in broker.subscriptions.items():
            kept.subscriptions.extend(
                (topic_filter, qos) for sub, qos in subscribers if sub.client_id == client_id
            )
        kept.queued.extend(
            _Kept(message.topic, bytes(message.data), message.qos)
            for message in session.inflight_out.values()
            if message.topic is not None and message.data is not None
        )
        while not session.retained_messages.empty():
            message = session.retained_messages.get_nowait()
            kept.queued.append(_Kept(message.topic, bytes(message.data), message.qos))
        state.sessions.append(kept)
    return state


async def _settle(broker: Any, timeout_s: float = 2.0) -> None:
    """Wait until the broker has routed every message it took in (bounded).

    amqtt acknowledges a PUBLISH before it routes it through a queue; a message taken
    from that queue is then either queued for an offline session or being sent, and
    both are kept by `_take_state`. Without this wait a stop right after a PUBACK could
    lose the message. The queue is amqtt's private attribute: if a later amqtt renames
    it, only this wait is lost.
    """
    queue = getattr(broker, "_broadcast_queue", None)
    loop = asyncio.get_running_loop()
    deadline_s = loop.time() + timeout_s
    while isinstance(queue, asyncio.Queue) and not queue.empty() and loop.time() < deadline_s:
        await asyncio.sleep(0.005)
    await asyncio.sleep(0.01)  # let the routing tasks just created take their first step


async def _put_state(broker: Any, state: _State) -> None:
    """Load what `_take_state` copied into a freshly started broker."""
    for message in state.retained:
        await broker.retain_message(None, message.topic, message.data, message.qos)
    context = BrokerContext(broker)
    for kept in state.sessions:
        await context.add_subscription(kept.client_id, None, None)
        for topic_filter, qos in kept.subscriptions:
            await context.add_subscription(kept.client_id, topic_filter, qos)
        session = context.get_session(kept.client_id)
        for message in kept.queued:
            await session.retained_messages.put(
                RetainedApplicationMessage(None, message.topic, message.data, message.qos)
            )


class EmbeddedBroker:
    """amqtt on its own thread and loop, listening on ``host:port`` (0: a free port).

    Use as a context manager, or `start` and `stop`; `start` after `stop` serves again on
    the same port with the retained messages and persistent sessions it had.
    """

    def __init__(self, port: int = 0, host: str = "127.0.0.1") -> None:
        if not 0 <= port <= 65535:
            raise EmbeddedBrokerError(f"embedded broker port {port}: must be 0-65535")
        self.host = host
        self._port = port
        self._state = _State()
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopping: asyncio.Event | None = None
        self._ready = threading.Event()
        self._failure: BaseException | None = None

    @property
    def port(self) -> int:
        """The port it listens on; known once started (0 before, if it was asked for 0)."""
        return self._port

    @property
    def url(self) -> str:
        """The broker URL for `wuzi.bus.client.BusClient` (``mqtt://host:port``)."""
        if self._port == 0:
            raise EmbeddedBrokerError("the embedded broker has no port before start()")
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"mqtt://{host}:{self._port}"

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def __enter__(self) -> EmbeddedBroker:
        self.start()
        return self

    def __exit__(
        self,
        _type: type[BaseException] | None,
        _value: BaseException | None,
        _traceback: TracebackType | None,
    ) -> None:
        self.stop()

    def start(self, timeout_s: float = 10.0) -> None:
        """Serve; returns once the listening socket accepts connections."""
        if self._thread is not None:
            raise EmbeddedBrokerError(f"embedded broker at {self.host}:{self._port} already runs")
        for name in _QUIET_LOGGERS:  # unless the application set a level itself
            logger = logging.getLogger(name)
            if logger.level == logging.NOTSET:
                logger.setLevel(logging.WARNING)
        self._ready.clear()
        self._failure = None
        thread = threading.Thread(target=self._run, name="wuzi-embedded-broker", daemon=True)
        self._thread = thread
        thread.start()
        if not self._ready.wait(timeout_s):
            self.stop(timeout_s)
            raise EmbeddedBrokerError(
                f"embedded broker at {self.host}:{self._port} did not start in {timeout_s} s"
            )
        if self._failure is not None:
            thread.join(timeout_s)
            self._thread = None
            raise EmbeddedBrokerError(
                f"embedded broker could not listen on {self.host}:{self._port}: {self._failure}"
            ) from self._failure

    def stop(self, timeout_s: float = 10.0) -> None:
        """Shut down: close the clients' connections and the port, end the thread."""
        thread = self._thread
        if thread is None:
            return
        loop, stopping = self._loop, self._stopping
        if loop is not None and stopping is not None:
            with contextlib.suppress(RuntimeError):  # the loop closed already (failed start)
                loop.call_soon_threadsafe(stopping.set)
        thread.join(timeout_s)
        if thread.is_alive():
            raise EmbeddedBrokerError(
                f"embedded broker at {self.host}:{self._port} did not stop in {timeout_s} s"
            )
        self._thread = None

    # the broker's thread

    def _run(self) -> None:
        try:
            asyncio.run(self._serve())
        except BaseException as exc:  # reported by start(), or logged if after it
            if self._ready.is_set():
                log.exception("embedded broker at %s:%d failed", self.host, self._port)
            else:
                self._failure = exc
        finally:
            self._loop = None
            self._stopping = None
            self._ready.set()

    async def _serve(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stopping = asyncio.Event()
        broker = Broker(broker_config())
        _harden(broker)
        await broker.start()
        writers: set[asyncio.StreamWriter] = set()

        async def connected(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            writers.add(writer)
            try:
                await broker.external_connected(
                    StreamReaderAdapter(reader), StreamWriterAdapter(writer), _LISTENER
                )
            except OSError as exc:  # the client's network: not the loop handler's business
                log.info("embedded broker: connection ended: %r", exc)
            except Exception:  # amqtt's own failure: say so, but keep serving the others
                log.exception("embedded broker: amqtt dropped a connection")
            finally:
                writers.discard(writer)
                writer.close()

        try:
            await _put_state(broker, self._state)
            server = await asyncio.start_server(
                connected, self.host, self._port, reuse_address=True
            )
        except BaseException:
            await broker.shutdown()
            raise
        self._state = _State()  # now in the broker; kept for a later start until here
        self._port = server.sockets[0].getsockname()[1]
        log.info("embedded broker listening on %s", self.url)
        self._ready.set()
        try:
            await self._stopping.wait()
        finally:
            server.close()
            for writer in writers:  # nothing more is taken in: what was acknowledged is kept
                transport = writer.transport
                if isinstance(transport, asyncio.ReadTransport):
                    transport.pause_reading()
            await _settle(broker)
            self._state = _take_state(broker)
            for session, _handler in broker.sessions.values():
                session.will_flag = False  # the broker going away is no client's death
            await broker.shutdown()
            for writer in list(writers):  # connections that never sent CONNECT
                writer.close()
            await server.wait_closed()
            log.info("embedded broker on port %d stopped", self._port)
