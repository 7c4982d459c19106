"""`wuzi web export`: the whole page as static files — every file there, nothing loaded
from outside, ``config.json`` right, the vendored MQTT client the pinned one — and bad
input refused with one line."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest

from support.web import write_venue
from wuzi.cli import main
from wuzi.display.web_page import WebPageError, check_mqtt_url, default_mqtt_url, vendored_client

PINNED = ("5.16.0", "f3cbeae580d3010048938ee370f2db0c15d16e6f7fc147cb32ae5510e571b387")
URL = re.compile(rb"(?:https?:)?//[A-Za-z0-9.-]+\.[A-Za-z]{2,}")


def export(tmp_path: Path, *args: str) -> Path:
    out = tmp_path / "site"
    assert main(["web", "export", "--out", str(out), *args]) == 0
    return out


def test_export_writes_the_whole_page(tmp_path: Path) -> None:
    venue = write_venue(tmp_path, "exp-1", "mqtt://10.0.0.5", "[broadcast]\ndelay_minutes = 15\n")
    out = export(tmp_path, "--config", str(venue), "--mqtt-url", "wss://follow.example.org/mqtt")
    names = sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file())
    assert names == [
        "app.css", "app.js", "config.json", "favicon.svg", "index.html", "model.js",
        "vendor/mqtt.LICENSE.md", "vendor/mqtt.min.js",
    ]  # fmt: skip
    assert json.loads((out / "config.json").read_text()) == {
        "mqtt_url": "wss://follow.example.org/mqtt",
        "venue": "exp-1",
        "name": "全国团体赛 Web test",
        "public_prefix": "wuzi/v1/exp-1/public/",
        "competition_prefix": "wuzi/v1/exp-1/competition/",
        "delay_minutes": 15,
        "rulesets": {},
    }
    html = (out / "index.html").read_text()
    assert "connect-src 'self' wss://follow.example.org; base-uri 'none'" in html, (
        "the page's own policy: its files and the broker's origin only"
    )


def test_no_outside_url_anywhere(tmp_path: Path) -> None:
    out = export(tmp_path, "--venue", "exp-2", "--mqtt-url", "ws://127.0.0.1:9001/")
    client = vendored_client()
    # the upstream bundle's license comments, and XML namespace names (never fetched)
    allowed = {u.encode() for u in client["urls_in_license_comments"]}  # type: ignore[attr-defined]
    allowed |= {b"http://www.w3.org/2000/svg", b"http://www.w3.org/1999/xlink"}
    for path in out.rglob("*"):
        if not path.is_file() or path.name.endswith("LICENSE.md"):
            continue
        body = path.read_bytes()
        for allowed_url in allowed:
            body = body.replace(allowed_url, b"")
        found = URL.findall(body)
        assert not found, f"{path.relative_to(out)} names outside URLs: {found[:5]}"
        assert b"@import" not in body and b"url(http" not in body


def test_the_vendored_client_is_the_pinned_one(tmp_path: Path) -> None:
    client = vendored_client()
    assert (client["version"], client["sha256"]) == PINNED
    out = export(tmp_path, "--venue", "exp-3", "--mqtt-url", "ws://127.0.0.1:9001/")
    body = (out / "vendor" / "mqtt.min.js").read_bytes()
    assert hashlib.sha256(body).hexdigest() == PINNED[1]
    assert "MIT License" in (out / "vendor" / "mqtt.LICENSE.md").read_text()


def test_the_broker_url_defaults_to_the_venue_brokers_websockets(tmp_path: Path) -> None:
    venue = write_venue(tmp_path, "exp-4", "mqtts://broker.venue:8883")
    out = export(tmp_path, "--config", str(venue))
    assert json.loads((out / "config.json").read_text())["mqtt_url"] == "wss://broker.venue:9001/"
    out = export(tmp_path, "--config", str(venue), "--broker", "mqtt://10.1.2.3:1883")
    assert json.loads((out / "config.json").read_text())["mqtt_url"] == "ws://10.1.2.3:9001/"
    assert "connect-src 'self' ws://10.1.2.3:9001;" in (out / "index.html").read_text()


def test_the_default_broker_url_is_the_venue_brokers_host() -> None:
    assert default_mqtt_url("10.0.0.5", tls=False) == "ws://10.0.0.5:9001/"
    assert default_mqtt_url("broker.venue", tls=True) == "wss://broker.venue:9001/"
    assert default_mqtt_url("::1", tls=False) == "ws://[::1]:9001/"


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("mqtt://x:1883", "ws:// or wss://"),
        ("http://x/", "ws:// or wss://"),
        ("ws://", "no host"),
        ("ws://a:b@x/", "no login"),
        ("ws://x:99999/", "out of range"),
    ],
)
def test_a_broker_url_a_browser_cannot_open_is_refused(url: str, words: str) -> None:
    with pytest.raises(WebPageError, match=words):
        check_mqtt_url(url)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--out", "FILE", "--venue", "v", "--mqtt-url", "ws://x/"], "is a file, not a folder"),
        (["--out", "DIR", "--venue", "v", "--mqtt-url", "http://x/"], "ws:// or wss://"),
        (["--out", "DIR", "--mqtt-url", "ws://x/"], "give --venue ID and --mqtt-url URL"),
        (["--out", "DIR", "--venue", "no/slash", "--mqtt-url", "ws://x/"], "venue"),
        (["--venue", "v", "--mqtt-url", "ws://x/"], "export needs --out DIR"),
    ],
)
def test_bad_input_is_one_line_and_exit_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], words: str
) -> None:
    (tmp_path / "FILE").write_text("not a folder")
    args = [str(tmp_path / a) if a in ("FILE", "DIR") else a for a in args]
    assert main(["web", "export", *args]) == 1
    err = capsys.readouterr().err
    assert err.startswith("wuzi web: ") and words in err and err.count("\n") == 1, err
    assert not (tmp_path / "DIR").exists(), "nothing written on bad input"
