"""Two linked halls and their central broker on loopback, each a real Mosquitto started with
the configuration ``wuzi venue broker-config`` / ``central-config`` generated from two venue
files (issue 36): hall ``hall-a`` (hosts ``pi-1`` with tables 1-2, ``pi-2`` with table 3),
hall ``hall-b`` (host ``pi-1`` with tables 1-3), table 1 of each linked as ``board-1``
(owned by hall B) and table 2 as ``board-2`` (owned by hall A); table 3 is no link's.

Each broker also gets a ``watcher`` account that reads everything (``topic read #``),
appended to the generated files: what a test asserts "never arrives" is seen by the
broker's own all-seeing reader, ordered by a sentinel (`support.acl`'s rule).
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from support.acl import WAIT_S, Peer, _listening
from support.broker import wait_until
from wuzi.cli import main
from wuzi.config import VenueConfig, load_venue
from wuzi.sim import box

WATCHER = "watcher"
WATCHER_PASSWORD = "watcher-password"
A, B = "hall-a", "hall-b"


def write_hall(
    directory: Path,
    venue_id: str,
    port: int,
    central_port: int,
    devices: dict[int, tuple[str, str]] | None = None,
    extra: str = "",
) -> Path:
    """One hall's venue file (module doc); the other hall is the other of A and B.
    ``devices``: a table's (board, clock) ports instead of its ``sim://`` ones; ``extra``:
    more TOML (a referee, defaults)."""
    other = B if venue_id == A else A
    owner1 = "there" if venue_id == A else "here"  # board-1: hall B runs it
    owner2 = "here" if venue_id == A else "there"  # board-2: hall A runs it
    hosts = (
        """
[[hosts]]
id = "pi-1"
  [[hosts.tables]]
  number = 1
  board_port = "sim://board/1"
  clock_port = "sim://clock/1"
  [[hosts.tables]]
  number = 2
  board_port = "sim://board/2"
  clock_port = "sim://clock/2"
"""
        + (
            """
[[hosts]]
id = "pi-2"
"""
            if venue_id == A
            else ""
        )
        + """
  [[hosts.tables]]
  number = 3
  board_port = "sim://board/3"
  clock_port = "sim://clock/3"
"""
    )
    for number, (board, clock) in (devices or {}).items():
        hosts = hosts.replace(f'"sim://board/{number}"', f'"{board}"')
        hosts = hosts.replace(f'"sim://clock/{number}"', f'"{clock}"')
    path = directory / "venue.toml"
    path.write_text(
        f"""
[venue]
id = "{venue_id}"
name = "Linked hall {venue_id}"

[broker]
url = "mqtt://127.0.0.1:{port}"

[director]
id = "dir"
database = "director.sqlite"
{hosts}
[screens]
live = ["hall"]

[central]
url = "mqtt://127.0.0.1:{central_port}"

[[links]]
id = "board-1"
table = 1
other_venue = "{other}"
other_table = 1
owner = "{owner1}"

[[links]]
id = "board-2"
table = 2
other_venue = "{other}"
other_table = 2
owner = "{owner2}"
{extra}""",
        encoding="utf-8",
    )
    return path


@dataclass
class Halls:
    """The three brokers' ports, the halls' configurations and folders."""

    directory: Path
    ports: dict[str, int]  # "hall-a", "hall-b", "central"
    venues: dict[str, VenueConfig]
    processes: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)

    def log_text(self, name: str) -> str:
        return (self.directory / f"{name}.log").read_text(errors="replace")

    def start(self, name: str) -> None:
        log = (self.directory / f"{name}.log").open("ab")
        conf = self.directory / name / "broker" / "mosquitto.conf"
        self.processes[name] = process = subprocess.Popen(
            [box.find_mosquitto(), "-c", str(conf)], stdout=log, stderr=subprocess.STDOUT
        )
        log.close()
        box.wait_for(lambda: _listening(self.ports[name], process), WAIT_S, f"{name} to listen")

    def stop(self, name: str) -> None:
        process = self.processes.pop(name)
        process.terminate()
        process.wait(timeout=5.0)

    def close(self) -> None:
        """Stop every broker still running and remove the folder."""
        for name in list(self.processes):
            self.stop(name)
        shutil.rmtree(self.directory, ignore_errors=True)

    def watcher(self, name: str) -> Peer:
        """The all-seeing reader of broker ``name``, subscribed to ``#``."""
        watching = login_peer(self.ports[name], WATCHER, WATCHER_PASSWORD)
        assert watching.subscribe("#") == [1]
        return watching

    def central_login(self, venue_id: str) -> tuple[str, str]:
        """A hall's bridge account at the central broker and its password."""
        central = self.venues[venue_id].central
        assert central is not None
        return central.username, Path(central.password_file).read_text().strip()


def login_peer(port: int, user: str | None, password: str | None) -> Peer:
    """A connected MQTT client of ``support.acl`` logged in as ``user``."""
    connected = Peer(port, user, password)
    assert connected.connect() == 0
    return connected


def bridged(sender: Peer, topic: str, receiver: Peer) -> None:
    """Publish on ``topic`` until ``receiver`` has it: the bridges connect on their own
    schedule (start, then a first subscription at the central broker)."""
    wait_until(
        lambda: sender.publish(topic, b"up") or (topic, b"up") in receiver.received,
        30,
        f"{topic} to cross the bridges",
    )


def add_watcher(broker_dir: Path) -> None:
    from wuzi.venue.passwords import hash_password

    with (broker_dir / "passwd").open("a") as passwd:
        passwd.write(f"{WATCHER}:{hash_password(WATCHER_PASSWORD)}\n")
    with (broker_dir / "acl").open("a") as acl:
        acl.write(f"\nuser {WATCHER}\ntopic read #\n")


@contextmanager
def linked_halls(
    devices: dict[str, dict[int, tuple[str, str]]] | None = None, extra: str = ""
) -> Iterator[Halls]:
    """Write both venue files, generate the three brokers' configurations with the CLI,
    start the central broker and both halls' (the bridges connect on their own).
    ``devices``: each hall's tables' (board, clock) ports; ``extra``: TOML for both."""
    directory = Path(tempfile.mkdtemp(prefix="wuzi-linked-"))
    directory.chmod(0o755)  # the mosquitto user must reach the generated files
    ports = {name: box.free_port() for name in (A, B, "central")}
    halls = Halls(directory, ports, {})
    try:
        paths: dict[str, Path] = {}
        for venue_id in (A, B):
            (directory / venue_id).mkdir(mode=0o755)
            paths[venue_id] = write_hall(
                directory / venue_id,
                venue_id,
                ports[venue_id],
                ports["central"],
                (devices or {}).get(venue_id),
                extra,
            )
            out = directory / venue_id / "broker"
            data = directory / venue_id / "data"
            args = ["--out", str(out), "--data-dir", str(data), "--bind", "127.0.0.1"]
            assert main(["venue", "broker-config", "--config", str(paths[venue_id]), *args]) == 0
            out.chmod(0o755)
            add_watcher(out)
            halls.venues[venue_id] = load_venue(paths[venue_id])
        out = directory / "central" / "broker"
        data = directory / "central" / "data"
        configs = ["--config", str(paths[A]), "--config", str(paths[B])]
        args = ["--out", str(out), "--data-dir", str(data), "--bind", "127.0.0.1"]
        assert main(["venue", "central-config", *configs, *args]) == 0
        (directory / "central").chmod(0o755)
        out.chmod(0o755)
        add_watcher(out)
        for name in ("central", A, B):
            halls.start(name)
        yield halls
    finally:
        halls.close()
