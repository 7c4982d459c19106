"""``[followers]``: off without it, the defaults with it, and every mistake names its key."""

from __future__ import annotations

from pathlib import Path

import pytest

from support.acl import write_venue
from wuzi.config import ConfigError, load_venue
from wuzi.config.broadcast import SectionError
from wuzi.config.followers import FollowersSettings, parse_followers


def test_without_the_section_there_is_no_followers_broker() -> None:
    assert parse_followers({}, "broker.venue.lan") is None
    assert parse_followers({"followers": {"websockets_port": 0}}, "broker.venue.lan") is None


def test_the_defaults_and_the_url_from_the_broker_host() -> None:
    assert parse_followers({"followers": {}}, "broker.venue.lan") == FollowersSettings(
        websockets_port=9001,
        websockets_bind="0.0.0.0",
        websockets_url="ws://broker.venue.lan:9001/",
        local_port=1884,
        max_viewers=5000,
    )
    given = {"websockets_port": 8080, "websockets_url": "wss://live.example.org/mqtt"}
    found = parse_followers({"followers": given}, "::1")
    assert found is not None and found.websockets_url == "wss://live.example.org/mqtt"
    ipv6 = parse_followers({"followers": {"websockets_port": 8080}}, "::1")
    assert ipv6 is not None and ipv6.websockets_url == "ws://[::1]:8080/"


@pytest.mark.parametrize(
    ("table", "key", "words"),
    [
        ({"websockets_port": 70000}, "followers.websockets_port", "0-65535"),
        ({"websockets_port": "9001"}, "followers.websockets_port", "'9001'"),
        ({"local_port": 0}, "followers.local_port", "1-65535"),
        ({"local_port": 9001}, "followers.local_port", "WebSockets port 9001"),
        ({"websockets_bind": "a b"}, "followers.websockets_bind", "not an address"),
        ({"websockets_url": "http://x/"}, "followers.websockets_url", "ws:// or wss://"),
        ({"max_viewers": 0}, "followers.max_viewers", "1-1000000"),
        ({"max_viewers": True}, "followers.max_viewers", "True"),
        ({"viewers": 5}, "followers.viewers", "unknown key"),
    ],
)
def test_a_mistake_names_its_key(table: dict[str, object], key: str, words: str) -> None:
    with pytest.raises(SectionError) as caught:
        parse_followers({"followers": table}, "h")
    assert caught.value.key == key and words in caught.value.problem


def test_the_venue_file_names_the_file_and_the_key(tmp_path: Path) -> None:
    folder = tmp_path
    path = write_venue(folder, 1883, "[followers]\nwebsockets_port = -1\n")
    with pytest.raises(ConfigError) as caught:
        load_venue(path)
    assert str(caught.value).startswith(f"{path}: followers.websockets_port: must be a port")
    good = write_venue(folder, 1883, "[followers]\n")
    venue = load_venue(good)
    assert venue.followers is not None and venue.followers.websockets_url == "ws://127.0.0.1:9001/"
