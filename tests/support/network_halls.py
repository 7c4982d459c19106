"""A network event's brokers on loopback, each a real Mosquitto started with the
configuration ``wuzi venue broker-config`` generated from its venue file (issue 36,
`wuzi.venue.network`): the event's venue ``net-final`` (the director's; its broker the
central one, its ``[[halls]]`` two halls) and the halls ``net-a`` (tables 1-2, host
``pi-a``) and ``net-b`` (tables 3-4, host ``pi-b``), each with ``[central] event``.

The event's broker-config makes each hall's bridge password (``secrets/halls/<hall>.pass``)
and each hall's file names that file as its ``[central] password_file``, as an organiser
would copy it to the hall. Each broker gets the all-seeing ``watcher`` account of
`support.linked_halls` (what a test asserts "never arrives" is ordered by a sentinel).
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from support.linked_halls import Halls, add_watcher
from wuzi.cli import main
from wuzi.config import load_venue
from wuzi.sim import box

EVENT, NA, NB = "net-final", "net-a", "net-b"
HOSTS = {NA: "pi-a", NB: "pi-b"}
TABLES = {NA: (1, 2), NB: (3, 4)}


def write_event(directory: Path, port: int) -> Path:
    path = directory / "venue.toml"
    halls = "".join(
        f'\n[[halls]]\nvenue = "{hall}"\nteam = "Team {hall}"\nhost = "{HOSTS[hall]}"\n'
        f'tables = "{TABLES[hall][0]}-{TABLES[hall][-1]}"\n'
        for hall in (NA, NB)
    )
    path.write_text(
        f'[venue]\nid = "{EVENT}"\nname = "Network final"\n\n[broker]\n'
        f'url = "mqtt://127.0.0.1:{port}"\n\n[director]\nid = "director"\n'
        f'database = "director.sqlite"\n\n[screens]\nlive = ["hall"]\n{halls}',
        encoding="utf-8",
    )
    return path


def write_hall(
    directory: Path, hall: str, port: int, central_port: int, secret: Path, extra: str = ""
) -> Path:
    path = directory / "venue.toml"
    tables = "".join(
        f'  [[hosts.tables]]\n  number = {n}\n  board_port = "sim://board/{n}"\n'
        f'  clock_port = "sim://clock/{n}"\n'
        for n in TABLES[hall]
    )
    path.write_text(
        f'[venue]\nid = "{hall}"\nname = "Hall {hall}"\n\n[broker]\n'
        f'url = "mqtt://127.0.0.1:{port}"\n\n[[hosts]]\nid = "{HOSTS[hall]}"\n{tables}\n'
        f'[central]\nurl = "mqtt://127.0.0.1:{central_port}"\nevent = "{EVENT}"\n'
        f'password_file = "{secret}"\n{extra}',
        encoding="utf-8",
    )
    return path


def _generate(directory: Path, name: str, config: Path) -> None:
    out, data = directory / name / "broker", directory / name / "data"
    args = ["--out", str(out), "--data-dir", str(data), "--bind", "127.0.0.1"]
    assert main(["venue", "broker-config", "--config", str(config), *args]) == 0
    out.chmod(0o755)
    add_watcher(out)


@contextmanager
def network_halls(hall_extra: Mapping[str, str] | None = None) -> Iterator[Halls]:
    """Write the three venue files (``hall_extra``: text appended to a hall's, by venue id),
    generate their brokers' configurations with the CLI (the event's first: it makes the
    halls' bridge passwords), start all three; the bridges connect on their own.
    ``Halls.ports``/``venues`` by venue id."""
    extra = dict(hall_extra or {})
    directory = Path(tempfile.mkdtemp(prefix="wuzi-network-"))
    directory.chmod(0o755)  # the mosquitto user must reach the generated files
    ports = {name: box.free_port() for name in (EVENT, NA, NB)}
    halls = Halls(directory, ports, {})
    try:
        for name in (EVENT, NA, NB):
            (directory / name).mkdir(mode=0o755)
        event = write_event(directory / EVENT, ports[EVENT])
        _generate(directory, EVENT, event)
        halls.venues[EVENT] = load_venue(event)
        for hall in (NA, NB):
            secret = directory / EVENT / "secrets" / "halls" / f"{hall}.pass"
            path = write_hall(
                directory / hall, hall, ports[hall], ports[EVENT], secret, extra.get(hall, "")
            )
            _generate(directory, hall, path)
            halls.venues[hall] = load_venue(path)
        for name in (EVENT, NA, NB):
            halls.start(name)
        yield halls
    finally:
        halls.close()
