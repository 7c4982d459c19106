"""``wuzi venue broker-config`` on a hall of several events (``[[events]]``): one director
account per event (and its ``director-live`` companion), each allowed only its event's
tables and ``competition/<event>/state``; its password in ``secrets/events/<event>.pass``
unless the event names a file. The figures are the 2019 open hall's
(deploy/venue.open-2019.example.toml; docs/security.md quotes them)."""

from __future__ import annotations

import shutil
import stat
from pathlib import Path

import pytest

from wuzi.cli import main
from wuzi.config import load_venue
from wuzi.config.credentials import (
    CredentialError,
    broker_user,
    broker_users,
    director_account,
)
from wuzi.venue.broker_config import acl_rules, acl_text
from wuzi.venue.passwords import check_password, parse_passwd

ROOT = Path(__file__).resolve().parents[2]
HALL_2019 = ROOT / "deploy" / "venue.open-2019.example.toml"
ONE_EVENT = ROOT / "deploy" / "venue.example.toml"
P = "wuzi/v1/open-2019"


@pytest.fixture
def hall(tmp_path: Path) -> Path:
    shutil.copy(HALL_2019, tmp_path / "venue.toml")
    return tmp_path / "venue.toml"


def test_each_event_has_a_director_account_pair_and_no_venue_wide_director() -> None:
    venue = load_venue(HALL_2019)
    directors = [u for u in broker_users(venue) if u.role.startswith("director")]
    assert [(u.name, u.event, u.key) for u in directors] == [
        (f"wuzi.open-2019.{role}.{event}", event, f"events[{i}].broker_password_file")
        for i, event in enumerate(("men", "women", "open"))
        for role in ("director", "director-live")
    ]
    folder = HALL_2019.parent / "secrets" / "events"
    assert [u.secret_file for u in directors[::2]] == [
        str(folder / f"{e}.pass") for e in ("men", "women", "open")
    ]
    assert directors[4].tables == (13, 14, 15, 16)
    with pytest.raises(CredentialError, match=r"events: .*\(men, women, open\).*--event ID"):
        broker_user(venue, "director")


def test_a_venue_of_one_event_keeps_its_one_director(tmp_path: Path) -> None:
    shutil.copy(ONE_EVENT, tmp_path / "venue.toml")
    (tmp_path / "secrets").mkdir()
    (tmp_path / "secrets" / "broker.pass").write_text("shared\n")  # its [broker] login
    venue = load_venue(tmp_path / "venue.toml")
    directors = [u for u in broker_users(venue) if u.role.startswith("director")]
    assert [(u.name, u.event) for u in directors] == [
        ("wuzi.team-final-2025.director.director", None),
        ("wuzi.team-final-2025.director-live.director", None),
    ]
    rules = acl_rules(venue)["wuzi.team-final-2025.director.director"]
    assert [str(r.topic).rsplit("/", 2)[-2:] for r in rules][1:3] == [
        ["assignments", "+"],
        ["competition", "state"],
    ]
    one = director_account(venue)  # the same logins as before: `login` of its one director
    assert (one.ident, one.event) == ("director", None)
    assert one.persistent.client_id == "wuzi.team-final-2025.director.director"
    assert one.live.client_id == "wuzi.team-final-2025.director-live.director"
    with pytest.raises(CredentialError, match=r"no event 'men': the venue file has no"):
        director_account(venue, "men")
    with pytest.raises(CredentialError, match="no director 'men'"):
        broker_user(venue, "director", "men")


def test_the_director_account_of_an_event_names_its_password_file(tmp_path: Path) -> None:
    text = HALL_2019.read_text(encoding="utf-8").replace(
        '# broker_password_file = "secrets/events/men.pass"',
        'broker_password_file = "/nowhere/men.pass"',
    )
    (tmp_path / "venue.toml").write_text(text, encoding="utf-8")
    venue = load_venue(tmp_path / "venue.toml")
    with pytest.raises(CredentialError) as caught:
        director_account(venue, "men")
    assert caught.value.key == "events[0].broker_password_file"
    assert "/nowhere/men.pass" in caught.value.problem
    women = director_account(venue, "women")  # no file yet: says so, never a guess
    assert women.persistent.client_id == "wuzi.open-2019.director.women"
    assert women.persistent.source == (
        f"no [broker] login and no password file {tmp_path / 'secrets/events/women.pass'}"
    )


def test_the_men_s_director_rules_name_its_tables_and_nothing_else() -> None:
    rules = acl_rules(load_venue(HALL_2019))
    men = [(r.access, r.topic) for r in rules["wuzi.open-2019.director.men"]]
    assert men == [
        ("readwrite", f"{P}/host/men/status"),
        *[("readwrite", f"{P}/assignments/{n}") for n in range(1, 9)],
        ("readwrite", f"{P}/competition/men/state"),
        *[("read", f"{P}/table/{n}/events") for n in range(1, 9)],
        ("read", f"{P}/arbiter/commands"),
    ]
    live = [(r.access, r.topic) for r in rules["wuzi.open-2019.director-live.women"]]
    assert live == [
        *[("read", f"{P}/table/{n}/state") for n in (9, 10, 11, 12)],
        ("read", f"{P}/host/pi-3/status"),
        ("read", f"{P}/host/women/status"),
    ]


def test_the_2019_hall_s_acl_figures() -> None:
    """21 accounts; per director account 3 + 2 x tables lines, per live account its
    tables, the hosts serving them and its own status (docs/security.md)."""
    venue = load_venue(HALL_2019)
    rules = acl_rules(venue)
    assert len(rules) == 21
    figures = {name.split(".", 2)[2]: len(found) for name, found in rules.items()}
    assert {k: v for k, v in figures.items() if k.startswith("director")} == {
        "director.men": 19,
        "director-live.men": 11,
        "director.women": 11,
        "director-live.women": 6,
        "director.open": 11,
        "director-live.open": 6,
    }
    topic_lines = [line for line in acl_text(venue).splitlines() if line.startswith("topic ")]
    assert len(topic_lines) == sum(len(found) for found in rules.values()) == 183


def test_the_command_writes_each_event_s_password_file(
    hall: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = hall.parent / "broker"
    argv = ["venue", "broker-config", "--config", str(hall), "--out", str(out)]
    assert main([*argv, "--data-dir", str(hall.parent / "data")]) == 0
    report = capsys.readouterr().out
    folder = hall.parent / "secrets" / "events"
    entries = parse_passwd((out / "passwd").read_text())
    assert f"wrote {out / 'passwd'} (21 accounts)" in report
    for event in ("men", "women", "open"):
        path = folder / f"{event}.pass"
        assert f"director of event {event}: created {path} (" in report
        assert f"copy it to the machine of event {event}'s director" in report
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        secret = path.read_text().strip()
        assert check_password(secret, entries[f"wuzi.open-2019.director.{event}"])
        assert check_password(secret, entries[f"wuzi.open-2019.director-live.{event}"])
    assert not (hall.parent / "secrets" / "director.pass").exists()
    assert (out / "acl").read_text() == acl_text(load_venue(hall))
