"""Per-connection broker accounts: the keys, `login` (its client id, user, password and
where the password came from), the shared [broker] and anonymous logins that say so,
and the errors that name the key."""

from __future__ import annotations

from pathlib import Path

import pytest

from wuzi.config import ConfigError, load_venue, parse_venue
from wuzi.config.credentials import (
    CredentialError,
    broker_login,
    broker_user,
    broker_users,
    default_secret_file,
    login,
)
from wuzi.config.venue import ScreensConfig

BASE = """
[venue]
id = "club"
name = "Club night"
[broker]
url = "mqtt://localhost"
{broker}
[[hosts]]
id = "pi-1"
{host}
  [[hosts.tables]]
  number = 1
  board_port = "sim://board/1"
  clock_port = "sim://clock/1"
[[hosts]]
id = "pi-2"
  [[hosts.tables]]
  number = 2
  board_port = "sim://board/2"
  clock_port = "sim://clock/2"
{rest}
"""


def venue_file(tmp_path: Path, broker: str = "", host: str = "", rest: str = "") -> Path:
    path = tmp_path / "venue.toml"
    path.write_text(BASE.format(broker=broker, host=host, rest=rest), encoding="utf-8")
    return path


def secret(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / "secrets" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def A(role: str, ident: str) -> str:
    """The account (and client id) of ``role``'s ``ident`` at venue ``club``."""
    return f"wuzi.club.{role}.{ident}"


def test_new_keys_are_read_and_paths_resolved(tmp_path: Path) -> None:
    path = venue_file(
        tmp_path,
        host='broker_password_file = "keys/pi-1.pass"',
        rest="""
[director]
id = "desk"
database = "db/director.sqlite"
broker_password_file = "/etc/wuzi/desk.pass"
[screens]
live = ["hall", "clock1"]
public = ["street"]
""",
    )
    venue = load_venue(path)
    assert venue.hosts[0].broker_password_file == str(tmp_path / "keys/pi-1.pass")
    assert venue.hosts[1].broker_password_file is None
    assert venue.director_database == str(tmp_path / "db/director.sqlite")
    assert venue.director_broker_password_file == "/etc/wuzi/desk.pass"
    assert venue.screens == ScreensConfig(("hall", "clock1"), ("street",))
    assert venue.base_dir == str(tmp_path)
    names = [(u.role, u.name, u.explicit) for u in broker_users(venue)]
    assert names == [
        ("host", A("host", "pi-1"), True),
        ("check", A("check", "pi-1"), True),
        ("host", A("host", "pi-2"), False),
        ("check", A("check", "pi-2"), False),
        ("director", A("director", "desk"), True),
        ("director-live", A("director-live", "desk"), True),
        ("broadcast", A("broadcast", "broadcast"), False),
        ("screen", A("screen", "hall"), False),
        ("screen", A("screen", "clock1"), False),
        ("screen-public", A("screen", "street"), False),
    ]
    assert broker_user(venue, "host", "pi-2").secret_file == str(tmp_path / "secrets/pi-2.pass")
    assert broker_user(venue, "check", "pi-1").secret_file == str(tmp_path / "keys/pi-1.pass")
    assert broker_user(venue, "director-live").secret_file == "/etc/wuzi/desk.pass"
    hall = broker_user(venue, "screen", "hall").secret_file
    assert hall == str(tmp_path / "secrets/screens/hall.pass")
    broadcast = broker_user(venue, "broadcast").secret_file
    assert broadcast == str(tmp_path / "secrets/broadcast/broadcast.pass")


def test_defaults_without_the_new_keys() -> None:
    venue = parse_venue(BASE.format(broker="", host="", rest=""))
    assert venue.director_database is None and venue.base_dir is None
    assert venue.screens == ScreensConfig()
    assert default_secret_file(venue, "pi-1") == "secrets/pi-1.pass"
    assert broker_user(venue, "director").name == A("director", "director")  # the default id
    assert broker_user(venue, "host", "pi-2").tables == (2,)


def test_each_connection_logs_in_with_its_own_account(tmp_path: Path) -> None:
    path = venue_file(tmp_path, rest='[director]\nid = "desk"\n[screens]\nlive = ["hall"]\n')
    for name in ("pi-1", "pi-2", "desk", "screens/hall"):
        secret(tmp_path, f"{name}.pass", f"pw-of-{name}\n")
    venue = load_venue(path)
    assert broker_login(venue, "host", "pi-1") == (A("host", "pi-1"), "pw-of-pi-1")
    assert broker_login(venue, "check", "pi-1") == (A("check", "pi-1"), "pw-of-pi-1")
    assert broker_login(venue, "host", "pi-2") == (A("host", "pi-2"), "pw-of-pi-2")
    assert broker_login(venue, "director") == (A("director", "desk"), "pw-of-desk")
    assert broker_login(venue, "director", "desk") == (A("director", "desk"), "pw-of-desk")
    assert broker_login(venue, "director-live") == (A("director-live", "desk"), "pw-of-desk")
    assert broker_login(venue, "screen", "hall") == (A("screen", "hall"), "pw-of-screens/hall")
    found = login(venue, "host", "pi-1")
    assert found.client_id == found.username == A("host", "pi-1")
    where = tmp_path / "secrets" / "pi-1.pass"
    assert found.source == f"password file {where}"
    assert found.describe() == (
        f"client id {A('host', 'pi-1')} as broker user {A('host', 'pi-1')} (password file {where})"
    )
    assert "pw-of" not in found.describe()


def test_without_its_own_file_a_process_uses_the_shared_login_and_says_so(
    tmp_path: Path,
) -> None:
    shared = secret(tmp_path, "broker.pass", "shared-secret\n")
    path = venue_file(tmp_path, broker=f'username = "wuzi"\npassword_file = "{shared}"')
    secret(tmp_path, "pi-2.pass", "own\n")
    venue = load_venue(path)
    found = login(venue, "host", "pi-1")
    assert (found.client_id, found.username, found.password) == (
        A("host", "pi-1"),
        "wuzi",
        "shared-secret",
    )
    assert found.source == (
        f"the shared [broker] login: no password file {tmp_path / 'secrets' / 'pi-1.pass'}"
    )
    assert broker_login(venue, "host", "pi-2") == (A("host", "pi-2"), "own")
    # no [screens] list: a screen has no account and uses the shared login too
    screen = login(venue, "screen", "scoreboard-x")
    assert (screen.client_id, screen.username) == (A("screen", "scoreboard-x"), "wuzi")
    assert "no [screens] list" in screen.source
    inline = parse_venue(BASE.format(broker='username = "u"\npassword = "p"', host="", rest=""))
    assert broker_login(inline, "director") == ("u", "p")
    in_url = parse_venue(BASE.format(broker="", host="", rest="").replace("//local", "//a:b@local"))
    assert broker_login(in_url, "host", "pi-1") == ("a", "b")


def test_with_no_login_at_all_a_process_is_anonymous_and_says_so(tmp_path: Path) -> None:
    anonymous = parse_venue(BASE.format(broker="", host="", rest=""), base_dir=tmp_path / "x")
    found = login(anonymous, "host", "pi-1")
    assert (found.client_id, found.username, found.password) == (A("host", "pi-1"), None, None)
    assert found.source == (
        f"no [broker] login and no password file {tmp_path / 'x' / 'secrets' / 'pi-1.pass'}"
    )
    assert found.describe().startswith(f"client id {A('host', 'pi-1')}, anonymous (no [broker]")


def test_a_named_password_file_must_exist(tmp_path: Path) -> None:
    """Never a silent fallback: a file the venue file names is an error naming it."""
    secret(tmp_path, "broker.pass", "shared\n")
    venue = load_venue(
        venue_file(
            tmp_path,
            broker='username = "wuzi"\npassword_file = "secrets/broker.pass"',
            host='broker_password_file = "nope.pass"',
        )
    )
    with pytest.raises(CredentialError) as info:
        broker_login(venue, "host", "pi-1")
    assert info.value.key == "hosts[0].broker_password_file"
    assert f"cannot read the password file {tmp_path / 'nope.pass'}" in info.value.problem
    with pytest.raises(CredentialError, match=r"hosts\[0\]\.broker_password_file: cannot read"):
        broker_login(venue, "check", "pi-1")


def test_a_password_file_that_is_no_password_names_its_key(tmp_path: Path) -> None:
    venue = load_venue(venue_file(tmp_path, rest='[screens]\nlive = ["hall"]\n'))
    secret(tmp_path, "screens/hall.pass", "\n\n")
    with pytest.raises(ConfigError, match=r"screens\.live\[0\]: .*\(the default\): empty"):
        broker_login(venue, "screen", "hall")
    secret(tmp_path, "screens/hall.pass", "x" * 5000)
    with pytest.raises(ConfigError, match="larger than 4 KiB"):
        broker_login(venue, "screen", "hall")
    (tmp_path / "secrets" / "screens" / "hall.pass").write_bytes(b"\xff\xfe")
    with pytest.raises(ConfigError, match="not UTF-8"):
        broker_login(venue, "screen", "hall")
    shared = load_venue(
        venue_file(tmp_path, broker='username = "u"\npassword_file = "missing.pass"')
    )
    with pytest.raises(CredentialError, match=r"broker\.password_file: cannot read"):
        broker_login(shared, "host", "pi-1")


def test_referees_log_in_with_their_own_secret(tmp_path: Path) -> None:
    token = secret(tmp_path, "deputy.token", "0123456789abcdef0123456789abcdef\n")
    path = venue_file(
        tmp_path,
        rest=f"""
[[referees]]
name = "chief.arbiter"
password_hash = "$7$101$AAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="
[[referees]]
name = "deputy"
token_file = "{token}"
""",
    )
    venue = load_venue(path)
    chief = A("referee", "chief.arbiter")  # a referee's name may hold a dot
    assert broker_login(venue, "referee", "chief.arbiter") == (chief, None)
    send = A("referee-send", "chief.arbiter")
    assert broker_login(venue, "referee-send", "chief.arbiter") == (send, None)
    text = "0123456789abcdef" * 2
    assert broker_login(venue, "referee", "deputy") == (A("referee", "deputy"), text)
    assert broker_login(venue, "referee-send", "deputy") == (A("referee-send", "deputy"), text)
    assert login(venue, "referee", "deputy").source == f"token file {token}"
    token.write_text("short")
    with pytest.raises(CredentialError, match=r"referees\[1\]\.token_file: .*at least 16"):
        broker_login(venue, "referee", "deputy")


def test_unknown_processes_and_roles(tmp_path: Path) -> None:
    venue = load_venue(venue_file(tmp_path))
    with pytest.raises(CredentialError, match=r"no host 'pi-9' in the venue file \(hosts: pi-1"):
        broker_login(venue, "host", "pi-9")
    with pytest.raises(CredentialError, match=r"no referee 'x'.*referees: none"):
        broker_login(venue, "referee", "x")
    with pytest.raises(CredentialError, match="no director 'boss'"):
        broker_login(venue, "director", "boss")
    with pytest.raises(ValueError, match="needs the host's id"):
        broker_login(venue, "host")
    with pytest.raises(ValueError, match="unknown broker role 'player'"):
        broker_login(venue, "player", "x")  # type: ignore[arg-type]


def test_screens_must_be_listed_in_the_right_list() -> None:
    rest = '[screens]\nlive = ["hall"]\npublic = ["foyer"]\n'
    venue = parse_venue(BASE.format(broker="", host="", rest=rest))
    with pytest.raises(CredentialError, match=r"no screen 'other'.*add it to \[screens\] live"):
        login(venue, "screen", "other")
    with pytest.raises(CredentialError, match=r"'foyer' is listed in \[screens\] public, not"):
        login(venue, "screen", "foyer")
    with pytest.raises(CredentialError, match="run it without --public"):
        login(venue, "screen-public", "hall")


def test_an_unlisted_screen_is_told_the_exact_line_to_write() -> None:
    """A public screen not listed in ``[screens] public``: the error gives the
    ``[screens]`` line with it added, ready to paste."""
    rest = '[screens]\nlive = ["hall"]\npublic = ["foyer"]\n'
    venue = parse_venue(BASE.format(broker="", host="", rest=rest))
    with pytest.raises(CredentialError) as info:
        login(venue, "screen-public", "web-central")
    assert (
        'add it to [screens] public (under [screens]: public = ["foyer", "web-central"]) '
        "and run wuzi venue broker-config"
    ) in info.value.problem
    with pytest.raises(CredentialError, match=r'live = \["hall", "wall-2"\]\)'):
        login(venue, "screen", "wall-2")


def test_the_broadcast_logs_in_with_its_own_account(tmp_path: Path) -> None:
    path = venue_file(tmp_path, rest='[broadcast]\nid = "feed"\n')
    venue = load_venue(path)
    found = login(venue, "broadcast")
    where = tmp_path / "secrets" / "broadcast" / "feed.pass"
    assert (found.client_id, found.username) == (A("broadcast", "feed"), None)
    assert found.source == f"no [broker] login and no password file {where}"
    secret(tmp_path, "broadcast/feed.pass", "pw-of-feed\n")
    assert broker_login(venue, "broadcast", "feed") == (A("broadcast", "feed"), "pw-of-feed")
    assert login(venue, "broadcast").source == f"password file {where}"
    unknown = r"no broadcast 'broadcast'.*\[broadcast\] id\): feed"
    with pytest.raises(CredentialError, match=unknown):
        login(venue, "broadcast", "broadcast")
    where.write_text("\n")
    with pytest.raises(CredentialError, match=r"broadcast\.id: the password file .*: empty"):
        login(venue, "broadcast")


def test_names_that_clashed_as_bare_users_are_now_distinct_accounts() -> None:
    rest = (
        '[[referees]]\nname = "pi-2"\ntoken_file = "t"\n'
        '[screens]\nlive = ["pi-1"]\npublic = ["director"]\n'
    )
    venue = parse_venue(BASE.format(broker="", host="", rest=rest))
    names = [u.name for u in broker_users(venue)]
    assert len(names) == len(set(names))
    assert {A("referee", "pi-2"), A("host", "pi-2"), A("screen", "pi-1")} <= set(names)
    text = BASE.format(broker="", host="", rest="").replace('id = "pi-2"', 'id = "director"')
    assert A("director", "director") in [u.name for u in broker_users(parse_venue(text))]


@pytest.mark.parametrize(
    ("rest", "message"),
    [
        ('[screens]\nlive = ["hall screen"]\n', "screens.live[0]: 'hall screen' is not a screen"),
        ('[screens]\npublic = ["a.b"]\n', "screens.public[0]: 'a.b' is not a screen name"),
        ('[screens]\nlive = ["x"]\npublic = ["x"]\n', "screens.public[0]: 'x' is already used"),
        ('[screens]\nlive = ["x", "x"]\n', "screens.live[1]: 'x' is already used by screens"),
        ('[screens]\nlive = "hall"\n', "screens.live: expected a list of screen names, found a"),
        ("[screens]\nlive = [3]\n", "screens.live[0]: expected a screen name, found an integer"),
        ('[screens]\npassword = "x"\n', "screens.password: unknown key"),
        ('[screens]\nuser = "screens"\n', "screens.user: the screens no longer share a broker"),
        ('[screens]\npublic_user = "p"\n', "screens.public_user: the screens no longer share"),
        ('[screens]\nbroker_password_file = "p"\n', "screens.broker_password_file: the scr"),
        ('[director]\nid = "d"\ndatabase = 5\n', "director.database: expected a string"),
        ('[director]\nid = "d"\ndatabse = "x"\n', "director.databse: unknown key; did you mean"),
        ('[director]\nid = "d"\nbroker_password_file = ""\n', "director.broker_password_file"),
    ],
)
def test_mistakes_in_the_new_keys_name_the_key(rest: str, message: str) -> None:
    with pytest.raises(ConfigError) as info:
        parse_venue(BASE.format(broker="", host="", rest=rest))
    assert message in str(info.value)


def test_a_host_password_file_of_the_wrong_type_names_its_key() -> None:
    with pytest.raises(ConfigError, match=r"hosts\[0\]\.broker_password_file: expected a string"):
        parse_venue(BASE.format(broker="", host="broker_password_file = []", rest=""))


def test_a_screens_section_of_the_wrong_shape() -> None:
    with pytest.raises(ConfigError, match=r"^venue\.toml: screens: expected a table"):
        parse_venue("screens = 1\n" + BASE.format(broker="", host="", rest=""))
