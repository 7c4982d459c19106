"""Per-process broker identities: the new keys, `broker_login` and its fallback to the
shared [broker] login, and the errors that name the key."""

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
  board_port = "sim"
  clock_port = "sim"
[[hosts]]
id = "pi-2"
  [[hosts.tables]]
  number = 2
  board_port = "sim"
  clock_port = "sim"
{rest}
"""


def venue_file(tmp_path: Path, broker: str = "", host: str = "", rest: str = "") -> Path:
    path = tmp_path / "venue.toml"
    path.write_text(BASE.format(broker=broker, host=host, rest=rest), encoding="utf-8")
    return path


def secret(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / "secrets" / name
    path.parent.mkdir(exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


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
user = "hall"
broker_password_file = "hall.pass"
public_user = "street"
public_broker_password_file = "street.pass"
""",
    )
    venue = load_venue(path)
    assert venue.hosts[0].broker_password_file == str(tmp_path / "keys/pi-1.pass")
    assert venue.hosts[1].broker_password_file is None
    assert venue.director_database == str(tmp_path / "db/director.sqlite")
    assert venue.director_broker_password_file == "/etc/wuzi/desk.pass"
    assert venue.screens == ScreensConfig(
        "hall", str(tmp_path / "hall.pass"), "street", str(tmp_path / "street.pass")
    )
    assert venue.base_dir == str(tmp_path)
    names = [(u.role, u.name, u.explicit) for u in broker_users(venue)]
    assert names == [
        ("host", "pi-1", True),
        ("host", "pi-2", False),
        ("director", "desk", True),
        ("screens", "hall", True),
        ("screens-public", "street", True),
    ]
    assert broker_user(venue, "host", "pi-2").secret_file == str(tmp_path / "secrets/pi-2.pass")


def test_defaults_without_the_new_keys() -> None:
    venue = parse_venue(BASE.format(broker="", host="", rest=""))
    assert venue.director_database is None and venue.base_dir is None
    assert venue.screens == ScreensConfig()
    assert default_secret_file(venue, "pi-1") == "secrets/pi-1.pass"
    assert broker_user(venue, "director").name == "director"  # no [director]: the default
    assert broker_user(venue, "host", "pi-2").tables == (2,)


def test_each_process_logs_in_as_itself(tmp_path: Path) -> None:
    path = venue_file(tmp_path, rest='[director]\nid = "desk"\n')
    for name in ("pi-1", "pi-2", "desk", "screens", "screens-public"):
        secret(tmp_path, f"{name}.pass", f"pw-of-{name}\n")
    venue = load_venue(path)
    assert broker_login(venue, "host", "pi-1") == ("pi-1", "pw-of-pi-1")
    assert broker_login(venue, "host", "pi-2") == ("pi-2", "pw-of-pi-2")
    assert broker_login(venue, "director") == ("desk", "pw-of-desk")
    assert broker_login(venue, "director", "desk") == ("desk", "pw-of-desk")
    assert broker_login(venue, "screens") == ("screens", "pw-of-screens")
    assert broker_login(venue, "screens-public") == ("screens-public", "pw-of-screens-public")


def test_without_its_own_file_a_process_uses_the_shared_login(tmp_path: Path) -> None:
    shared = secret(tmp_path, "broker.pass", "shared-secret\n")
    path = venue_file(tmp_path, broker=f'username = "wuzi"\npassword_file = "{shared}"')
    secret(tmp_path, "pi-2.pass", "own\n")
    venue = load_venue(path)
    assert broker_login(venue, "host", "pi-1") == ("wuzi", "shared-secret")
    assert broker_login(venue, "host", "pi-2") == ("pi-2", "own")
    assert broker_login(venue, "screens") == ("wuzi", "shared-secret")
    inline = parse_venue(BASE.format(broker='username = "u"\npassword = "p"', host="", rest=""))
    assert broker_login(inline, "director") == ("u", "p")
    in_url = parse_venue(BASE.format(broker="", host="", rest="").replace("//local", "//a:b@local"))
    assert broker_login(in_url, "host", "pi-1") == ("a", "b")
    anonymous = parse_venue(BASE.format(broker="", host="", rest=""), base_dir=tmp_path / "x")
    assert broker_login(anonymous, "host", "pi-1") == (None, None)


def test_a_named_password_file_must_exist(tmp_path: Path) -> None:
    venue = load_venue(venue_file(tmp_path, host='broker_password_file = "nope.pass"'))
    with pytest.raises(CredentialError, match=r"hosts\[0\]\.broker_password_file: cannot read"):
        broker_login(venue, "host", "pi-1")


def test_a_password_file_that_is_no_password_names_its_key(tmp_path: Path) -> None:
    venue = load_venue(venue_file(tmp_path, rest="[screens]\n"))
    secret(tmp_path, "screens.pass", "\n\n")
    with pytest.raises(
        ConfigError, match=r"screens\.broker_password_file: .*\(the default\): empty"
    ):
        broker_login(venue, "screens")
    secret(tmp_path, "screens.pass", "x" * 5000)
    with pytest.raises(ConfigError, match="longer than 4096 bytes"):
        broker_login(venue, "screens")
    (tmp_path / "secrets" / "screens.pass").write_bytes(b"\xff\xfe")
    with pytest.raises(ConfigError, match="not UTF-8"):
        broker_login(venue, "screens")
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
name = "chief"
password_hash = "$7$101$AAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="
[[referees]]
name = "deputy"
token_file = "{token}"
""",
    )
    venue = load_venue(path)
    assert broker_login(venue, "referee", "chief") == ("chief", None)
    assert broker_login(venue, "referee", "deputy") == ("deputy", "0123456789abcdef" * 2)
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


@pytest.mark.parametrize(
    ("rest", "key", "clash"),
    [
        (
            '[[referees]]\nname = "pi-2"\ntoken_file = "t"\n',
            "referees[0].name",
            "hosts[1].id",
        ),
        ('[screens]\nuser = "pi-1"\n', "screens.user", "hosts[0].id"),
        ('[screens]\npublic_user = "director"\n', "screens.public_user", "director.id"),
        (
            '[director]\nid = "desk"\n[[referees]]\nname = "screens"\ntoken_file = "t"\n',
            "referees[0].name",
            "screens.user",
        ),
    ],
)
def test_two_processes_never_share_a_broker_user(rest: str, key: str, clash: str) -> None:
    venue = parse_venue(BASE.format(broker="", host="", rest=rest))  # it loads, as before
    with pytest.raises(CredentialError) as info:
        broker_users(venue)
    assert info.value.key == key
    assert clash in info.value.problem


def test_a_host_named_director_without_a_director_section() -> None:
    text = BASE.format(broker="", host="", rest="").replace('id = "pi-2"', 'id = "director"')
    with pytest.raises(CredentialError, match="without a \\[director\\] id the director logs in"):
        broker_users(parse_venue(text))


@pytest.mark.parametrize(
    ("rest", "message"),
    [
        ('[screens]\nuser = "hall screens"\n', "screens.user: 'hall screens' is not a broker"),
        ('[screens]\npublic_user = "a:b"\n', "screens.public_user: 'a:b' is not a broker user"),
        ('[screens]\npublic_user = "screens"\n', "screens.public_user: 'screens' is the user"),
        ('[screens]\nuser = "screens-public"\n', "screens.user: 'screens-public' is the user"),
        ("[screens]\nuser = 3\n", "screens.user: expected a string, found an integer"),
        ('[screens]\npassword = "x"\n', "screens.password: unknown key"),
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
