"""`wuzi broadcast` and the venue file's `[broadcast]` section: defaults, the override,
errors that name the key, one line and exit 1."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from support.web import write_venue
from wuzi.broadcast.settings import load
from wuzi.config.broadcast import SectionError, parse_broadcast
from wuzi.config.credentials import login
from wuzi.config.venue import ConfigError, load_venue


def wuzi(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "wuzi.cli", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=60)


def test_defaults_and_the_section(tmp_path: Path) -> None:
    settings = parse_broadcast({})
    assert (settings.id, settings.delay_minutes, settings.delay_ms) == ("broadcast", 15, 900_000)
    venue_file = write_venue(
        tmp_path,
        "bc-cli",
        "mqtt://127.0.0.1:1",
        '[broadcast]\nid = "feed-2"\ndelay_minutes = 2.5\n',
    )
    venue, broadcast, bridge = load(venue_file)
    assert venue.id == "bc-cli" and bridge is None
    assert broadcast.id == "feed-2" and broadcast.delay_ms == 150_000
    assert broadcast.journal == str(tmp_path / "broadcast.sqlite")


@pytest.mark.parametrize(
    ("section", "key"),
    [
        ({"delay_minutes": -1}, "broadcast.delay_minutes"),
        ({"delay_minutes": True}, "broadcast.delay_minutes"),
        ({"id": "a.b"}, "broadcast.id"),
        ({"journal": ""}, "broadcast.journal"),
        ({"dealy_minutes": 3}, "broadcast.dealy_minutes"),
    ],
)
def test_a_bad_section_names_the_key(section: dict[str, object], key: str) -> None:
    with pytest.raises(SectionError) as caught:
        parse_broadcast({"broadcast": section})
    assert caught.value.key == key


def test_the_venue_parser_reads_the_sections_itself(tmp_path: Path) -> None:
    """`load` is `load_venue`: the venue's own ``broadcast`` and ``bridge`` fields."""
    section = '[broadcast]\nid = "feed"\n[bridge]\naddress = "outside.example:1884"\n'
    venue_file = write_venue(tmp_path, "bc-cli", "mqtt://127.0.0.1:1", section)
    found = load(venue_file)
    assert load_venue(venue_file) == found.venue
    assert (found.broadcast, found.bridge) == (found.venue.broadcast, found.venue.bridge)
    assert found.bridge is not None and (found.bridge.host, found.bridge.port) == (
        "outside.example",
        1884,
    )


def test_the_broadcast_logs_in_as_its_own_account(tmp_path: Path) -> None:
    """`credentials.login(venue, "broadcast", id)`, the one place every process asks."""
    venue_file = write_venue(tmp_path, "bc-cli", "mqtt://127.0.0.1:1", '[broadcast]\nid = "feed"\n')
    secret = tmp_path / "secrets" / "broadcast" / "feed.pass"
    secret.parent.mkdir(parents=True)
    secret.write_text("feed-password\n")
    found = login(load(venue_file).venue, "broadcast", "feed")
    assert (found.client_id, found.username, found.password) == (
        "wuzi.bc-cli.broadcast.feed",
        "wuzi.bc-cli.broadcast.feed",
        "feed-password",
    )
    assert found.source == f"password file {secret}"
    secret.write_text("")
    done = wuzi("broadcast", "--config", str(venue_file))
    assert done.returncode == 1
    assert done.stderr.strip() == (
        f"wuzi broadcast: {venue_file}: broadcast.id: the password file {secret} (the default): "
        "empty"
    )


def test_a_venue_error_names_the_file_and_the_key(tmp_path: Path) -> None:
    venue_file = write_venue(tmp_path, "bc-cli", "mqtt://127.0.0.1:1", "[broadcast]\nid = 7\n")
    with pytest.raises(ConfigError, match=r"venue.toml: broadcast.id: broadcast id must be"):
        load(venue_file)


def test_the_command_says_what_is_wrong_in_one_line(tmp_path: Path) -> None:
    venue_file = write_venue(tmp_path, "bc-cli", "mqtt://127.0.0.1:1")
    done = wuzi("broadcast", "--config", str(venue_file), "--delay-minutes", "300")
    assert done.returncode == 1
    assert done.stderr.strip() == (
        "wuzi broadcast: --delay-minutes: the delay must be 0-240 minutes, not 300.0"
    )
    done = wuzi("broadcast", "--config", str(tmp_path / "missing.toml"))
    assert done.returncode == 1 and done.stderr.count("\n") == 1
    assert "missing.toml: cannot read" in done.stderr
    done = wuzi("broadcast", "--config", str(venue_file), "--broker", "http://x")
    assert done.returncode == 1 and done.stderr.startswith("wuzi broadcast: ")
    assert wuzi("broadcast").returncode == 2


def test_a_service_keeps_its_journal_in_its_state_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from wuzi.broadcast.cli import _journal

    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path / "state"))
    assert _journal("/etc/wuzi/broadcast.sqlite", False) == tmp_path / "state" / "broadcast.sqlite"
    assert _journal("/srv/b.sqlite", True) == Path("/srv/b.sqlite")  # the venue file's word
    monkeypatch.delenv("STATE_DIRECTORY")
    assert _journal("/etc/wuzi/broadcast.sqlite", False) == Path("/etc/wuzi/broadcast.sqlite")
