"""``wuzi.base.lines``: a line reader that holds at most a bounded piece of any line."""

from __future__ import annotations

import io

from wuzi.base.lines import Line, read_lines


def _binary(data: bytes) -> io.TextIOWrapper:
    """A stream like ``sys.stdin``: text over bytes (``.buffer``)."""
    return io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")


def test_lines_with_their_numbers_and_endings() -> None:
    lines = list(read_lines(_binary(b"a\r\nb\n\nc"), 10))
    assert lines == [Line(1, "a\r\n"), Line(2, "b\n"), Line(3, "\n"), Line(4, "c")]


def test_an_over_long_line_is_skipped_to_its_end_and_named() -> None:
    data = b"ok\n" + b"x" * 1_000_000 + b"\nafter\n" + b"y" * 11
    lines = list(read_lines(_binary(data), 10))
    assert lines == [
        Line(1, "ok\n"),
        Line(2, "", "the line is longer than 10 bytes"),
        Line(3, "after\n"),
        Line(4, "", "the line is longer than 10 bytes"),
    ]


def test_the_bound_itself_is_taken() -> None:
    assert list(read_lines(_binary(b"x" * 10 + b"\n" + b"y" * 10), 10)) == [
        Line(1, "x" * 10 + "\n"),
        Line(2, "y" * 10),
    ]


def test_bytes_that_are_not_utf8_are_reported_not_raised() -> None:
    lines = list(read_lines(_binary(b"\xef\xbb\xbfh8\nh\xc3\x28\n\xe6\x97\xa5\n"), 100))
    assert lines == [
        Line(1, "h8\n"),  # a BOM on the first line is dropped
        Line(2, "", "it is not UTF-8 text (byte 2 is 0xc3)"),
        Line(3, "日\n"),
    ]


def test_a_text_stream_counts_characters() -> None:
    lines = list(read_lines(io.StringIO("日本\n" + "x" * 50 + "\n"), 20))
    assert lines == [Line(1, "日本\n"), Line(2, "", "the line is longer than 20 characters")]
