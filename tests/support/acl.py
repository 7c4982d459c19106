"""A real Mosquitto started with the configuration `wuzi venue broker-config` generated,
and raw paho clients that log in as the venue's users.

Run as root, Mosquitto drops to the ``mosquitto`` user before it reads the password file
and the ACL, as it does in production: the folder is one that user can reach (not
pytest's 0700 temp folder), the CLI gives the files to its group and the data folder to it.

A publish the ACL refuses is dropped silently by the broker (MQTT 3.1.1 has no way to
say so), so "it never arrives" is proved by order, not by waiting: the same client then
publishes an allowed sentinel, and once the sentinel is in, the refused message would
have been in before it (QoS 1, one publisher, one subscriber: the broker keeps order).
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from wuzi.cli import main
from wuzi.config import VenueConfig, load_venue
from wuzi.sim import box

WAIT_S = 10.0  # a safety net for a broken broker, never the verdict


@dataclass
class Broker:
    venue: VenueConfig
    directory: Path
    port: int
    process: subprocess.Popen[bytes]

    def log_text(self) -> str:
        return (self.directory / "mosquitto.log").read_text(errors="replace")


def write_venue(directory: Path, port: int, extra: str = "") -> Path:
    """A venue of two hosts (tables 1-2 and 3), a director, two referees, a live screen
    (``hall``), a public one (``foyer``) and the broadcast (``[broadcast] id = "feed"``,
    the one writer of ``public/``)."""
    from wuzi.venue.passwords import hash_password

    path = directory / "venue.toml"
    path.write_text(
        f"""
[venue]
id = "acl-test"
name = "ACL test"

[broker]
url = "mqtt://127.0.0.1:{port}"

[director]
id = "dir"
database = "director.sqlite"

[[hosts]]
id = "h1"
  [[hosts.tables]]
  number = 1
  board_port = "sim://board/1"
  clock_port = "sim://clock/1"
  [[hosts.tables]]
  number = 2
  board_port = "sim://board/2"
  clock_port = "sim://clock/2"

[[hosts]]
id = "h2"
  [[hosts.tables]]
  number = 3
  board_port = "sim://board/3"
  clock_port = "sim://clock/3"

[[referees]]
name = "chief"
password_hash = "{hash_password(CHIEF_PASSWORD)}"

[[referees]]
name = "deputy"
token_file = "secrets/deputy.token"

[screens]
live = ["hall"]
public = ["foyer"]

[broadcast]
id = "feed"
delay_minutes = 0
{extra}
""",
        encoding="utf-8",
    )
    return path


CHIEF_PASSWORD = "chief-arbiter-password"


def write_events_venue(directory: Path, port: int, extra: str = "") -> Path:
    """A hall of two events on two hosts: ``men`` on tables 1-2 (host h1) and ``women`` on
    table 3 and 4 (table 3 on h1 too, table 4 on h2: a host serving two events), a chief
    referee and a live screen; no ``[director]``: each event has its own director."""
    from wuzi.venue.passwords import hash_password

    path = directory / "venue.toml"
    path.write_text(
        f"""
[venue]
id = "acl-events"
name = "ACL test, two events"

[broker]
url = "mqtt://127.0.0.1:{port}"

[[events]]
id = "men"
name = "Men's group"
database = "men.sqlite"
tables = "1-2"

[[events]]
id = "women"
name = "Women's group"
database = "women.sqlite"
tables = "3-4"

[[hosts]]
id = "h1"
  [[hosts.tables]]
  number = 1
  board_port = "sim://board/1"
  clock_port = "sim://clock/1"
  [[hosts.tables]]
  number = 2
  board_port = "sim://board/2"
  clock_port = "sim://clock/2"
  [[hosts.tables]]
  number = 3
  board_port = "sim://board/3"
  clock_port = "sim://clock/3"

[[hosts]]
id = "h2"
  [[hosts.tables]]
  number = 4
  board_port = "sim://board/4"
  clock_port = "sim://clock/4"

[[referees]]
name = "chief"
password_hash = "{hash_password(CHIEF_PASSWORD)}"

[screens]
live = ["hall"]
{extra}
""",
        encoding="utf-8",
    )
    return path


def peer_logins(venue: VenueConfig) -> dict[str, tuple[str | None, str | None]]:
    """(user, password) of one connection per role, by a short name, as each process gets
    it (`broker_login`, the real path); ``chief`` types the password behind its hash."""
    from wuzi.config.credentials import broker_login, client_id_of

    return {
        "h1": broker_login(venue, "host", "h1"),
        "h2": broker_login(venue, "host", "h2"),
        "dir": broker_login(venue, "director"),
        "screens": broker_login(venue, "screen", "hall"),
        "public": broker_login(venue, "screen-public", "foyer"),
        "broadcast": broker_login(venue, "broadcast"),
        "deputy": broker_login(venue, "referee", "deputy"),
        "chief": (client_id_of(venue, "referee", "chief"), CHIEF_PASSWORD),
    }


@contextmanager
def generated_broker(
    extra_args: tuple[str, ...] = (),
    venue_extra: str = "",
    writer: Callable[[Path, int, str], Path] = write_venue,
) -> Iterator[Broker]:
    """Write the venue (``writer``: `write_venue` or `write_events_venue`; ``venue_extra``
    appended: a ``[bridge]``, say), run ``wuzi venue broker-config``, start Mosquitto with
    the result."""
    binary = box.find_mosquitto()
    directory = Path(tempfile.mkdtemp(prefix="wuzi-acl-"))
    directory.chmod(0o755)  # the mosquitto user must reach the generated files
    process: subprocess.Popen[bytes] | None = None
    try:
        port = box.free_port()
        venue_path = writer(directory, port, venue_extra)
        code = main(
            [
                "venue",
                "broker-config",
                "--config",
                str(venue_path),
                "--out",
                str(directory / "broker"),
                "--data-dir",
                str(directory / "data"),
                "--bind",
                "127.0.0.1",
                *extra_args,
            ]
        )
        assert code == 0
        (directory / "broker").chmod(0o755)
        log = (directory / "mosquitto.log").open("ab")
        process = subprocess.Popen(
            [binary, "-c", str(directory / "broker" / "mosquitto.conf")],
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        log.close()
        broker = Broker(load_venue(venue_path), directory, port, process)
        box.wait_for(lambda: _listening(port, process), WAIT_S, "mosquitto to listen")
        yield broker
    except RuntimeError as exc:
        text = (directory / "mosquitto.log").read_text(errors="replace")
        pytest.fail(f"{exc}\n{text}", pytrace=False)
    finally:
        if process is not None:
            process.terminate()
            process.wait(timeout=5.0)
        shutil.rmtree(directory, ignore_errors=True)


def _listening(port: int, process: subprocess.Popen[bytes]) -> bool:
    import socket

    if process.poll() is not None:
        raise RuntimeError("mosquitto exited at start")
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


class Peer:
    """One raw paho connection; collects what it receives, in order."""

    def __init__(self, port: int, username: str | None, password: str | None) -> None:
        self.port = port
        self.client = mqtt.Client(
            CallbackAPIVersion.VERSION2, client_id=f"t-{username}-{time.monotonic_ns()}"
        )
        if username is not None:
            self.client.username_pw_set(username, password)
        self.lock = threading.Condition()
        self.connect_reason: int | None = None
        self.received: list[tuple[str, bytes]] = []
        self.granted: dict[int, list[int]] = {}
        self.client.on_connect = self._on_connect
        self.client.on_message = self._on_message
        self.client.on_subscribe = self._on_subscribe

    def _on_connect(self, _c: object, _u: object, _f: object, reason: object, _p: object) -> None:
        with self.lock:
            self.connect_reason = int(getattr(reason, "value", reason))  # type: ignore[call-overload]
            self.lock.notify_all()

    def _on_message(self, _c: object, _u: object, message: mqtt.MQTTMessage) -> None:
        with self.lock:
            self.received.append((message.topic, bytes(message.payload)))
            self.lock.notify_all()

    def _on_subscribe(
        self, _c: object, _u: object, mid: int, reasons: list[object], _p: object
    ) -> None:
        with self.lock:
            self.granted[mid] = [int(getattr(r, "value", r)) for r in reasons]  # type: ignore[call-overload]
            self.lock.notify_all()

    def connect(self, ca_file: str | None = None) -> int:
        """Connect (over TLS with ``ca_file``) and wait for the CONNACK; its reason code
        (0: accepted)."""
        if ca_file is not None:
            self.client.tls_set(ca_certs=ca_file)
        self.client.connect("127.0.0.1", self.port, keepalive=10)
        self.client.loop_start()
        with self.lock:
            if not self.lock.wait_for(lambda: self.connect_reason is not None, WAIT_S):
                pytest.fail("no CONNACK", pytrace=False)
            assert self.connect_reason is not None
            return self.connect_reason

    def subscribe(self, topic_filter: str) -> list[int]:
        """Subscribe at QoS 1 and wait for the SUBACK; the granted codes (128: refused)."""
        _rc, mid = self.client.subscribe(topic_filter, qos=1)
        with self.lock:
            if not self.lock.wait_for(lambda: mid in self.granted, WAIT_S):
                pytest.fail(f"no SUBACK for {topic_filter}", pytrace=False)
            return self.granted[mid]

    def publish(self, topic: str, payload: bytes, retain: bool = False) -> None:
        info = self.client.publish(topic, payload, qos=1, retain=retain)
        info.wait_for_publish(WAIT_S)

    def wait_for(self, topic: str, payload: bytes) -> list[tuple[str, bytes]]:
        """Everything received up to and including (topic, payload)."""
        with self.lock:
            if not self.lock.wait_for(lambda: (topic, payload) in self.received, WAIT_S):
                pytest.fail(
                    f"{topic} {payload!r} never arrived; got {self.received}", pytrace=False
                )
            return list(self.received)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


@contextmanager
def tls_files() -> Iterator[tuple[Path, Path]]:
    """A self-signed certificate for 127.0.0.1 and its key, readable by the broker user
    (a production key is given to the broker's group, never made world-readable)."""
    directory = Path(tempfile.mkdtemp(prefix="wuzi-tls-"))
    directory.chmod(0o755)
    cert, key = directory / "broker.crt", directory / "broker.key"
    try:
        subprocess.run(
            [
                "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                "-keyout", str(key), "-out", str(cert),
            ],
            check=True,
            capture_output=True,
        )  # fmt: skip
        key.chmod(0o644)
        yield cert, key
    finally:
        shutil.rmtree(directory, ignore_errors=True)
