"""Public brokers for the followers' tests: a Mosquitto started from a generated
``mosquitto.conf`` (the followers' broker of `wuzi venue broker-config`, an edge of
`wuzi venue edge-config`), and anonymous viewers over WebSockets (paho, MQTT 3.1.1 or 5)."""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from support.acl import WAIT_S, Peer
from wuzi.sim import box

__all__ = ["PROTOCOLS", "open_folder", "running_conf", "viewer"]

PROTOCOLS = {"3.1.1": mqtt.MQTTv311, "5": mqtt.MQTTv5}


@contextmanager
def open_folder() -> Iterator[Path]:
    """A temporary folder the ``mosquitto`` user can read (pytest's are 0700): run as
    root, Mosquitto drops to that user before it reads the ACL files."""
    directory = Path(tempfile.mkdtemp(prefix="wuzi-followers-"))
    directory.chmod(0o755)
    try:
        yield directory
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def _listening(port: int, process: subprocess.Popen[bytes]) -> bool:
    if process.poll() is not None:
        raise RuntimeError(f"mosquitto exited at start (status {process.returncode})")
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


@contextmanager
def running_conf(conf: Path, port: int) -> Iterator[Path]:
    """Mosquitto with ``conf`` until the block ends; its log beside ``conf`` (returned)."""
    log_path = conf.parent / "mosquitto.log"
    with log_path.open("ab") as log:
        process = subprocess.Popen(
            [box.find_mosquitto(), "-c", str(conf)], stdout=log, stderr=subprocess.STDOUT
        )
    try:
        try:
            box.wait_for(lambda: _listening(port, process), WAIT_S, f"mosquitto on {port}")
        except RuntimeError as exc:
            pytest.fail(f"{exc}\n{log_path.read_text(errors='replace')}", pytrace=False)
        yield log_path
    finally:
        process.terminate()
        process.wait(timeout=5.0)


def viewer(port: int, protocol: str, client_id: str | None = None) -> Peer:
    """An anonymous viewer of a public broker, as a browser is: MQTT over WebSockets, no
    user name, a clean session; connect it with ``.connect()``."""
    peer = Peer(port, None, None)
    version = PROTOCOLS[protocol]
    peer.client = mqtt.Client(
        CallbackAPIVersion.VERSION2,
        client_id=client_id or f"viewer-{threading.get_ident()}-{id(peer)}",
        transport="websockets",
        protocol=version,
    )
    peer.client.on_connect = peer._on_connect
    peer.client.on_message = peer._on_message
    peer.client.on_subscribe = peer._on_subscribe
    return peer
