"""Random mutations of a valid venue file give a valid config or a ConfigError that names
the key (or the line) — never another exception, never a vague message.

The shipped example is parsed with tomllib, mutated as data (a value replaced by one of
another TOML type, a key deleted, an unknown key added) and written back as TOML, so each
mutation is one known key path and the error can be checked against it.
"""

from __future__ import annotations

import datetime
import json
import math
import re
import tomllib
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wuzi.config import ConfigError, VenueConfig, parse_venue
from wuzi.config.credentials import CredentialError, broker_users

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = tomllib.loads((ROOT / "deploy" / "venue.example.toml").read_text(encoding="utf-8"))
_SEGMENT = r'([A-Za-z0-9_-]+|"([^"\\]|\\.)*")(\[\d+\])?'
KEY_PATH = re.compile(rf"line \d+|end of file|{_SEGMENT}(\.{_SEGMENT})*")


def toml_value(value: Any) -> str:
    """``value`` as an inline TOML value (tables inline, so any nesting can be written)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    assert isinstance(value, dict)
    return "{" + ", ".join(f"{_string(k)} = {toml_value(v)}" for k, v in value.items()) + "}"


def _string(text: str) -> str:
    """A TOML basic string: JSON's escapes, but characters outside the BMP kept as they are
    (JSON would write surrogate pairs, which TOML refuses)."""
    return json.dumps(text, ensure_ascii=False)


def toml_document(data: dict[str, Any]) -> str:
    return "".join(f"{_string(key)} = {toml_value(value)}\n" for key, value in data.items())


def paths(value: Any, prefix: str = "") -> list[tuple[str, tuple[str | int, ...]]]:
    """Every (key path as the config names it, access path) in ``value``."""
    found: list[tuple[str, tuple[str | int, ...]]] = []

    def walk(node: Any, name: str, access: tuple[str | int, ...]) -> None:
        if isinstance(node, dict):
            for key, item in node.items():
                child = f"{name}.{key}" if name else key
                found.append((child, (*access, key)))
                walk(item, child, (*access, key))
        elif isinstance(node, list):
            for i, item in enumerate(node):
                found.append((f"{name}[{i}]", (*access, i)))
                walk(item, f"{name}[{i}]", (*access, i))

    walk(value, prefix, ())
    return found


PATHS = paths(EXAMPLE)


def copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [copy(v) for v in value]
    return value


def parent_of(data: Any, access: tuple[str | int, ...]) -> Any:
    node = data
    for step in access[:-1]:
        node = node[step]
    return node


def kind(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int | float):
        return type(value).__name__
    if isinstance(value, str):
        return "str"
    if isinstance(value, list):
        return "list"
    if isinstance(value, dict):
        return "dict"
    return "date"


toml_values = st.recursive(
    st.booleans()
    | st.integers(-(2**63), 2**63 - 1)
    | st.floats()
    | st.text(max_size=20)
    | st.dates()
    | st.times(),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=6,
)


def covers(error_key: str, path: str) -> bool:
    """The error is about ``path`` itself or something inside it."""
    return error_key == path or error_key.startswith((path + ".", path + "["))


def check_outcome(text: str) -> ConfigError | None:
    try:
        venue = parse_venue(text)
    except ConfigError as exc:
        assert str(exc).startswith("venue.toml: ")
        assert KEY_PATH.fullmatch(exc.key), exc.key
        assert exc.problem
        return exc
    assert isinstance(venue, VenueConfig)
    try:
        broker_users(venue)
    except CredentialError as exc:  # a name clash of the broker users
        assert KEY_PATH.fullmatch(exc.key), exc.key
    return None


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(PATHS), toml_values)
def test_a_value_of_another_type_is_named_by_its_key(
    target: tuple[str, tuple[str | int, ...]], value: Any
) -> None:
    path, access = target
    data = copy(EXAMPLE)
    parent = parent_of(data, access)
    old = parent[access[-1]]
    parent[access[-1]] = value
    error = check_outcome(toml_document(data))
    if kind(value) != kind(old) and not (kind(old) == "list" and value == []):
        assert error is not None, f"{path} = {value!r} was accepted"
        if not error.key.startswith(("line ", "end of file")):
            # Error at the key, inside it, or at its array (an array of tables whose
            # item is not a table is named by its index).
            assert covers(error.key, path), (path, value, str(error))


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(PATHS))
def test_a_deleted_key_is_named_or_was_optional(
    target: tuple[str, tuple[str | int, ...]],
) -> None:
    path, access = target
    data = copy(EXAMPLE)
    parent = parent_of(data, access)
    del parent[access[-1]]
    error = check_outcome(toml_document(data))
    if error is not None and isinstance(access[-1], str):
        parent_path = path.rsplit(".", 1)[0] if "." in path else ""
        # a missing key is named (or a key that now needs its partner, beside it)
        assert error.key.startswith(parent_path), (path, str(error))


@settings(max_examples=100, deadline=None)
@given(
    st.sampled_from([p for p in PATHS if isinstance(parent_of(EXAMPLE, p[1]), dict)]), toml_values
)
def test_an_unknown_key_is_named(target: tuple[str, tuple[str | int, ...]], value: Any) -> None:
    path, access = target
    data = copy(EXAMPLE)
    parent = parent_of(data, access)
    if not isinstance(parent, dict):
        return
    parent["zz_unknown"] = value
    error = check_outcome(toml_document(data))
    assert error is not None
    parent_path = path.rsplit(".", 1)[0] if "." in path else ""
    expected = f"{parent_path}.zz_unknown" if parent_path else "zz_unknown"
    if not error.key.startswith("line"):  # else the value itself was not TOML
        assert error.key == expected, str(error)
        assert "unknown key" in error.problem


def test_the_emitter_writes_the_example_back_unchanged() -> None:
    assert tomllib.loads(toml_document(EXAMPLE)) == EXAMPLE
    assert isinstance(parse_venue(toml_document(EXAMPLE)), VenueConfig)
