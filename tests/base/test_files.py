"""wuzi.base.files: a regular file within its kind's cap, or one line saying why not."""

from __future__ import annotations

import os
import socket
import threading
from pathlib import Path

import pytest

from wuzi.base import files
from wuzi.base.files import FileError, FileKind, read_bytes, read_text

SMALL = FileKind("test file", 100)


def test_a_regular_file_within_its_cap_is_read_whole(tmp_path: Path) -> None:
    path = tmp_path / "ok.txt"
    path.write_bytes(b"x" * 100)
    assert read_bytes(path, SMALL) == b"x" * 100


def test_one_byte_over_the_cap_is_refused_naming_the_file_and_the_cap(tmp_path: Path) -> None:
    path = tmp_path / "big.txt"
    path.write_bytes(b"x" * 101)
    with pytest.raises(FileError) as info:
        read_bytes(path, SMALL)
    assert str(info.value).startswith(f"{path}: larger than 100 bytes, the cap for the test file")
    assert info.value.path == str(path)


def test_a_sparse_file_far_over_the_cap_is_refused_without_reading_it(tmp_path: Path) -> None:
    path = tmp_path / "sparse.toml"
    with path.open("wb") as f:
        f.truncate(8 * 1024**3)  # 8 GiB of holes
    with pytest.raises(FileError, match="larger than 1 MiB, the cap for the venue file"):
        read_bytes(path, files.VENUE_FILE)


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null", "/dev/urandom"])
def test_a_device_is_refused(device: str) -> None:
    with pytest.raises(FileError) as info:
        read_bytes(device, files.VENUE_FILE)
    assert str(info.value) == (
        f"{device}: is a character device, not a regular file (the venue file must be a file)"
    )


def test_a_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.psq"
    os.mkfifo(fifo)
    outcome: list[BaseException] = []

    def read() -> None:
        try:
            read_bytes(fifo, files.RECORD_FILE)
        except FileError as exc:
            outcome.append(exc)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(10)
    if reader.is_alive():  # unblock the thread: a writer opens the FIFO
        with open(fifo, "wb"):
            pass
        pytest.fail("reading a FIFO blocked")
    assert [str(e) for e in outcome] == [
        f"{fifo}: is a FIFO (named pipe), not a regular file (the record file must be a file)"
    ]


def test_a_directory_and_a_socket_are_refused(tmp_path: Path) -> None:
    with pytest.raises(FileError, match="is a directory, not a regular file"):
        read_bytes(tmp_path, files.ENTRANTS_CSV)
    where = tmp_path / "s.sock"
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(where))
        with pytest.raises(FileError, match="is a socket, not a regular file"):
            read_bytes(where, files.TOKEN_FILE)
    finally:
        server.close()


def test_a_missing_file_is_named_and_marked_missing(tmp_path: Path) -> None:
    with pytest.raises(FileError) as info:
        read_bytes(tmp_path / "none.csv", files.ENTRANTS_CSV)
    assert str(info.value) == f"{tmp_path / 'none.csv'}: cannot read: No such file or directory"
    assert info.value.missing


def test_a_proc_file_that_says_it_is_empty_is_read_up_to_its_cap() -> None:
    # /proc files are regular with st_size 0: the cap, not stat, bounds the read.
    assert os.stat("/proc/self/status").st_size == 0
    assert b"Name:" in read_bytes("/proc/self/status", files.VENUE_FILE)
    with pytest.raises(FileError, match="larger than 10 bytes"):
        read_bytes("/proc/self/status", FileKind("status", 10))


def test_read_text_drops_a_bom_and_names_a_bad_byte(tmp_path: Path) -> None:
    path = tmp_path / "t.txt"
    path.write_bytes(b"\xef\xbb\xbfh8\n")
    assert read_text(path, SMALL) == "h8\n"
    path.write_bytes(b"ok\n\xff")
    with pytest.raises(FileError) as info:
        read_text(path, SMALL)
    assert str(info.value) == f"{path}: not UTF-8 text (byte 4 is 0xff)"


def test_every_kind_is_in_the_table_of_docs() -> None:
    docs = (Path(__file__).resolve().parents[2] / "docs" / "files.md").read_text("utf-8")
    for kind in files.KINDS:
        size = files.size_text(kind.max_bytes)
        assert f"| {kind.name} | {size} |" in docs, kind
