"""Helpers shared by the record formats: text decoding and error wording."""

from __future__ import annotations

from wuzi.rules.errors import RecordFormatError


def decode_text(data: str | bytes, what: str) -> str:
    """``data`` as text: a str as it is, bytes as UTF-8 (a byte-order mark is dropped).

    Bytes that are not UTF-8 are reported with the offset of the first bad byte, so a
    file saved in a legacy code page says where it went wrong.
    """
    if isinstance(data, str):
        return data
    if not isinstance(data, bytes | bytearray | memoryview):
        raise TypeError(f"a {what} record is text or bytes, not {type(data).__name__}")
    try:
        return bytes(data).decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise RecordFormatError(
            f"byte {exc.start}: not UTF-8 text ({what} files are UTF-8)"
        ) from None


def binary(data: str | bytes, what: str) -> bytes:
    """``data`` as bytes for a binary format; text is refused (it would be mangled)."""
    if isinstance(data, bytes | bytearray | memoryview):
        return bytes(data)
    raise RecordFormatError(f"a {what} file is binary: give its bytes, not text")


def split_lines(text: str) -> list[str]:
    """Lines without their endings (LF, CRLF or CR), numbered from 1 by the caller."""
    return text.splitlines()
