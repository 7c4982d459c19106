"""The spectators' page as a set of static files: what ``wuzi web export`` writes and
``wuzi web`` serves (pure: no I/O but reading the package's own assets).

The page is HTML, CSS and JS (``web_assets/``) with a browser MQTT client vendored beside
them (``web_assets/vendor/``: the npm package ``mqtt``, pinned in ``manifest.json``), and
one generated file, ``config.json``: the broker's WebSockets URL the browsers connect to,
the venue, the two topic prefixes the page may read (``wuzi/v1/<venue>/public/`` and
``wuzi/v1/<venue>/competition/``, never the live ``table/`` tree) and the public delay in
minutes. Because the files are static, any web server or CDN can serve them: the page
carries its own Content-Security-Policy in a ``<meta>`` tag (``'self'`` plus the broker's
ws/wss origin), so nothing from outside can load even where the server sends no header.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from importlib import resources
from urllib.parse import urlsplit

__all__ = [
    "PageSettings",
    "WebPageError",
    "check_mqtt_url",
    "content_security_policy",
    "default_mqtt_url",
    "page_files",
    "vendored_client",
]

CSP_MARK = "<!--CSP-->"
_ASSETS = ("index.html", "app.css", "model.js", "app.js", "favicon.svg")
_VENDOR = "vendor"
TOPIC_ROOT = "wuzi/v1"
WEBSOCKETS_PORT = 9001
"""The broker's WebSockets listener a venue opens for followers (docs/followers.md)."""


class WebPageError(ValueError):
    """Input the page cannot be built from (a broker URL that is not ws:// or wss://, …)."""


@dataclass(frozen=True)
class PageSettings:
    """What ``config.json`` tells the page: where the delayed feed is, and how late."""

    mqtt_url: str
    venue: str
    name: str = ""
    delay_minutes: float | None = None  # None: not known (no venue file given)
    rulesets: dict[str, str] = field(default_factory=dict)  # event id -> rule set; "" default

    def config(self) -> dict[str, object]:
        base = f"{TOPIC_ROOT}/{self.venue}/"
        return {
            "mqtt_url": self.mqtt_url,
            "venue": self.venue,
            "name": self.name,
            "public_prefix": base + "public/",
            "competition_prefix": base + "competition/",
            "delay_minutes": self.delay_minutes,
            "rulesets": dict(self.rulesets),
        }


def check_mqtt_url(text: str) -> str:
    """``text`` if it is a ws:// or wss:// URL with a host (what a browser's MQTT client can
    open), else `WebPageError` saying what is wrong."""
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError as exc:
        raise WebPageError(f"--mqtt-url {text!r}: {exc}") from None
    if parts.scheme not in ("ws", "wss"):
        raise WebPageError(
            f"--mqtt-url {text!r}: the broker's WebSockets URL starts with ws:// or wss://"
        )
    if not parts.hostname:
        raise WebPageError(f"--mqtt-url {text!r}: no host")
    if parts.username or parts.password:
        raise WebPageError(f"--mqtt-url {text!r}: a public page holds no login")
    if port == 0:
        raise WebPageError(f"--mqtt-url {text!r}: port 0")
    return text


def default_mqtt_url(broker_host: str, tls: bool) -> str:
    """The WebSockets URL of the venue's broker: its host, port 9001 (wss with TLS)."""
    host = f"[{broker_host}]" if ":" in broker_host else broker_host
    return f"{'wss' if tls else 'ws'}://{host}:{WEBSOCKETS_PORT}/"


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def content_security_policy(mqtt_url: str, meta: bool = False) -> str:
    """The page's policy: its own files only, and the broker's WebSockets origin.
    ``meta``: the form for a ``<meta>`` tag (which may not hold frame-ancestors)."""
    policy = (
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        f"connect-src 'self' {_origin(mqtt_url)}; base-uri 'none'; form-action 'none'"
    )
    return policy if meta else policy + "; frame-ancestors 'none'"


def _asset(name: str) -> bytes:
    return resources.files("wuzi.display").joinpath("web_assets", name).read_bytes()


def vendored_client() -> dict[str, object]:
    """The vendored browser MQTT client's manifest entry (version, file, sha256)."""
    manifest = json.loads(_asset(f"{_VENDOR}/manifest.json"))
    entry: dict[str, object] = manifest["mqtt"]
    return entry


def page_files(settings: PageSettings) -> dict[str, bytes]:
    """Every file of the page by its relative path, ``config.json`` included. The vendored
    client is checked against its manifest's sha256, so a changed file is never served."""
    check_mqtt_url(settings.mqtt_url)
    files = {name: _asset(name) for name in _ASSETS}
    csp = '<meta http-equiv="Content-Security-Policy" content="'
    csp += f'{content_security_policy(settings.mqtt_url, meta=True)}">'
    html = files["index.html"].decode()
    if CSP_MARK not in html:
        raise WebPageError(f"web_assets/index.html has no {CSP_MARK} mark for the policy")
    files["index.html"] = html.replace(CSP_MARK, csp, 1).encode()
    client = vendored_client()
    for key in ("file", "license"):
        name = f"{_VENDOR}/{client[key]}"
        files[name] = _asset(name)
    body = files[f"{_VENDOR}/{client['file']}"]
    if hashlib.sha256(body).hexdigest() != client["sha256"]:
        raise WebPageError(
            f"web_assets/{_VENDOR}/{client['file']} does not match the sha256 of its manifest"
        )
    files["config.json"] = (
        json.dumps(settings.config(), ensure_ascii=False, indent=1) + "\n"
    ).encode()
    return files
