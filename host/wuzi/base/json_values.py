"""Words for JSON values in error messages, shared by every strict JSON reader.

A record file, an MQTT message and a journal entry are all JSON read by hand-written
validators; each error names the path and says what was found there ("expected an
integer, not the string '4'"), in the same words wherever it comes from.
"""

from __future__ import annotations


def describe(value: object, *, max_text: int | None = None) -> str:
    """What a decoded JSON value is, for an error message: ``null``, ``a boolean``,
    ``the number 3``, ``the string 'abc'`` (cut to ``max_text`` characters), ``a list``,
    ``an object``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return f"the number {value!r}"
    if isinstance(value, str):
        return f"the string {value[:max_text]!r}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__
