"""A secret or CA file the service user cannot read is named with what is wrong (issue 34):
"Permission denied" on that file, not a broker that cannot be reached. These tests run as
root, which reads any file, so the refusal the ``wuzi`` user would meet is given by the
file system stand-in below (the open of that one path fails with EACCES)."""

from __future__ import annotations

import errno
import os
import time
from pathlib import Path
from typing import Any

import pytest

from support.acl import tls_files
from wuzi.bus.auth import AuthError, read_token_file
from wuzi.bus.tls import CaFileError, check_ca_file


def _refuse(monkeypatch: pytest.MonkeyPatch, refused: Path) -> None:
    """Opening ``refused`` fails as a file without read permission does (as root, which
    the tests run as, no mode makes a file unreadable): by ``Path.open`` and ``os.open``,
    the two ways Wuzi opens a file (``wuzi.base.files`` uses the second)."""
    real_path_open, real_os_open = Path.open, os.open

    def path_open(self: Path, *args: Any, **kwargs: Any) -> Any:
        if self == refused:
            raise PermissionError(errno.EACCES, "Permission denied", str(self))
        return real_path_open(self, *args, **kwargs)

    def os_open(path: Any, *args: Any, **kwargs: Any) -> int:
        if Path(path) == refused:
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_os_open(path, *args, **kwargs)

    monkeypatch.setattr(Path, "open", path_open)
    monkeypatch.setattr(os, "open", os_open)


def test_an_unreadable_token_file_is_named_with_permission_denied(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    token = tmp_path / "deputy.token"
    token.write_text("d" * 32 + "\n")
    assert read_token_file(token) == b"d" * 32
    _refuse(monkeypatch, token)
    with pytest.raises(AuthError) as caught:
        read_token_file(token)
    assert str(caught.value) == f"token file '{token}': cannot read: Permission denied"


def test_an_unreadable_ca_file_is_named_with_permission_denied(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with tls_files() as (cert, _key):
        ca = tmp_path / "venue-ca.pem"
        ca.write_bytes(cert.read_bytes())
    check_ca_file(str(ca), time.time())
    _refuse(monkeypatch, ca)
    with pytest.raises(CaFileError) as caught:
        check_ca_file(str(ca), time.time())
    assert str(caught.value) == f"CA file {ca}: cannot be read (Permission denied)"
