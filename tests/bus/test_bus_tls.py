"""A broker CA file that cannot serve is named with what is wrong with it (issue 34), by the
bus client every service builds and by a host's preflight, never "cannot reach the broker"."""

from __future__ import annotations

import os
import ssl
import subprocess
import time
from pathlib import Path

import pytest

from support.acl import tls_files
from wuzi.bus.client import BusClient
from wuzi.bus.tls import CaFileError, check_ca_file
from wuzi.venue.preflight import _mqtt_round


def _leaf(directory: Path) -> Path:
    """A certificate that is not a CA (basicConstraints CA:FALSE): a server's own."""
    cert = directory / "leaf.crt"
    subprocess.run(
        [
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
            "-subj", "/CN=leaf", "-addext", "basicConstraints=critical,CA:FALSE",
            "-keyout", str(directory / "leaf.key"), "-out", str(cert),
        ],
        check=True,
        capture_output=True,
    )  # fmt: skip
    return cert


def test_a_good_ca_file_passes_and_says_when_it_expires() -> None:
    with tls_files() as (cert, _key):
        found = check_ca_file(str(cert), time.time())
        assert found.certificates == 1
        assert ssl.cert_time_to_seconds(found.expires) > time.time()


def test_each_bad_ca_file_is_named_with_what_is_wrong(tmp_path: Path) -> None:
    def problem(path: Path | str, now_s: float | None = None) -> str:
        with pytest.raises(CaFileError) as caught:
            check_ca_file(str(path), time.time() if now_s is None else now_s)
        return str(caught.value)

    assert problem(tmp_path / "none.pem") == f"CA file {tmp_path}/none.pem: no such file"
    assert problem(tmp_path) == f"CA file {tmp_path}: not a regular file"
    fifo = tmp_path / "fifo.pem"
    os.mkfifo(fifo)
    assert problem(fifo) == f"CA file {fifo}: not a regular file"
    text = tmp_path / "notes.pem"
    text.write_text("password=secret\n")
    assert problem(text) == (
        f"CA file {text}: not a PEM certificate (no -----BEGIN CERTIFICATE----- line)"
    )
    binary = tmp_path / "ca.der"
    binary.write_bytes(b"\x30\x82\x03\x00\xff")
    assert problem(binary).startswith(f"CA file {binary}: not a PEM file (binary data")
    broken = tmp_path / "broken.pem"
    broken.write_text("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n")
    assert problem(broken).startswith(f"CA file {broken}: not a valid PEM certificate (")
    leaf = _leaf(tmp_path)
    assert problem(leaf) == (
        f"CA file {leaf}: holds no CA certificate (a server's own certificate is not a CA)"
    )
    with tls_files() as (cert, _key):
        in_ten_years = time.time() + 10 * 365 * 86400
        assert problem(cert, in_ten_years).startswith(f"CA file {cert}: expired on ")
        assert problem(cert, 0.0).startswith(f"CA file {cert}: not valid yet (from ")


def test_the_bus_client_and_the_preflight_name_the_ca_file_not_the_broker(tmp_path: Path) -> None:
    bad = tmp_path / "ca.pem"
    bad.write_text("not a certificate\n")
    with pytest.raises(CaFileError, match=f"^CA file {bad}: not a PEM certificate"):
        BusClient("mqtts://127.0.0.1:1", "wuzi.v.host.h1", ca_file=str(bad))
    ok, line = _mqtt_round(
        "mqtts://127.0.0.1:1", "127.0.0.1", 1, True, str(bad), "u", "p", "c", None, "u", 1.0
    )
    assert not ok
    assert (
        line == f"FAIL CA file {bad}: not a PEM certificate (no -----BEGIN CERTIFICATE----- line)"
    )
    assert "reach" not in line
