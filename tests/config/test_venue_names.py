"""The venue file's names (issue 19): the venue's name, shown on every screen, refuses the
characters no name may hold (``wuzi.base.text``), naming the key; referee names are
letters, digits and ``_.-`` only (they are broker user names)."""

from __future__ import annotations

from pathlib import Path

import pytest

from support.hostile import GOOD_NAMES, HOSTILE_NAMES
from wuzi.config import ConfigError, parse_venue

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = (ROOT / "deploy" / "venue.example.toml").read_text(encoding="utf-8")
VENUE_NAME = 'name = "National Team Championship, Final"'
REFEREE_NAME = 'name = "chief-arbiter"'


def _toml(value: str) -> str:
    """A TOML basic string: every non-printable character as ``\\u`` or ``\\U``."""
    out = []
    for char in value:
        code = ord(char)
        if char.isprintable() and char not in '"\\':
            out.append(char)
        else:
            out.append(f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}")
    return '"' + "".join(out) + '"'


def _with(old: str, key: str, value: str) -> str:
    assert EXAMPLE.count(old) == 1, old
    return EXAMPLE.replace(old, f"{key} = {_toml(value)}")


@pytest.mark.parametrize(("label", "bad", "code"), HOSTILE_NAMES, ids=[h[0] for h in HOSTILE_NAMES])
def test_a_venue_name_with_a_control_or_format_character(label: str, bad: str, code: int) -> None:
    with pytest.raises(ConfigError) as info:
        parse_venue(_with(VENUE_NAME, "name", bad))
    assert info.value.key == "venue.name"
    assert f"U+{code:04X}" in str(info.value) or "control characters" in str(info.value)
    with pytest.raises(ConfigError) as info:
        parse_venue(_with(REFEREE_NAME, "name", bad))
    assert info.value.key == "referees[0].name"


@pytest.mark.parametrize("name", GOOD_NAMES)
def test_a_venue_name_of_any_script(name: str) -> None:
    assert parse_venue(_with(VENUE_NAME, "name", name)).name == name


def test_a_venue_name_is_at_most_100_characters() -> None:
    assert parse_venue(_with(VENUE_NAME, "name", "v" * 100)).name == "v" * 100
    with pytest.raises(ConfigError, match=r"^venue\.toml: venue\.name: .* at most 100$"):
        parse_venue(_with(VENUE_NAME, "name", "v" * 101))
