"""The broker's CA file checked before a TLS connection is tried, so that a file that cannot
serve says so, naming itself and what is wrong with it (missing, unreadable, not PEM, no CA
certificate in it, expired), instead of surfacing later as a broker that "cannot be
reached" or an ssl error without a file name (issue 34)."""

from __future__ import annotations

import ssl
import stat
from dataclasses import dataclass
from pathlib import Path

from wuzi.bus.url import BusConfigError

__all__ = ["MAX_CA_FILE_BYTES", "CaFile", "CaFileError", "check_ca_file"]

MAX_CA_FILE_BYTES = 1 << 20
"""Debian's whole CA bundle is about 220 KB; a larger file is not a CA file."""


class CaFileError(BusConfigError):
    """The CA file cannot serve; the message names the file and what is wrong."""


@dataclass(frozen=True)
class CaFile:
    path: str
    certificates: int  # the CA certificates it holds
    expires: str  # the latest notAfter among them, as OpenSSL writes it


def check_ca_file(path: str, now_s: float) -> CaFile:
    """``path`` as a CA file at wall-clock time ``now_s`` (seconds since the epoch), or
    `CaFileError` naming the file and the problem."""

    def fail(problem: str) -> CaFileError:
        return CaFileError(f"CA file {path}: {problem}")

    where = Path(path)
    try:
        mode = where.stat().st_mode
    except FileNotFoundError:
        raise fail("no such file") from None
    except OSError as exc:
        raise fail(f"cannot be read ({exc.strerror or exc})") from None
    if not stat.S_ISREG(mode):
        raise fail("not a regular file")
    try:
        with where.open("rb") as f:
            data = f.read(MAX_CA_FILE_BYTES + 1)
    except OSError as exc:
        raise fail(f"cannot be read ({exc.strerror or exc})") from None
    if len(data) > MAX_CA_FILE_BYTES:
        raise fail(f"larger than {MAX_CA_FILE_BYTES} bytes: not a CA file")
    try:
        text = data.decode("ascii")
    except UnicodeDecodeError:
        raise fail(
            "not a PEM file (binary data; a DER file needs `openssl x509 -inform der`)"
        ) from None
    if "-----BEGIN CERTIFICATE-----" not in text:
        raise fail("not a PEM certificate (no -----BEGIN CERTIFICATE----- line)")
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    try:
        context.load_verify_locations(cadata=text)
    except (ssl.SSLError, ValueError) as exc:
        raise fail(f"not a valid PEM certificate ({exc})") from None
    authorities = context.get_ca_certs()
    if not authorities:
        raise fail("holds no CA certificate (a server's own certificate is not a CA)")
    valid = [
        cert
        for cert in authorities
        if ssl.cert_time_to_seconds(str(cert["notBefore"]))
        <= now_s
        <= ssl.cert_time_to_seconds(str(cert["notAfter"]))
    ]
    latest = max(authorities, key=lambda cert: ssl.cert_time_to_seconds(str(cert["notAfter"])))
    if not valid:
        if ssl.cert_time_to_seconds(str(latest["notAfter"])) < now_s:
            raise fail(f"expired on {latest['notAfter']}")
        raise fail(f"not valid yet (from {latest['notBefore']}; is this machine's clock right?)")
    return CaFile(path, len(authorities), str(latest["notAfter"]))
