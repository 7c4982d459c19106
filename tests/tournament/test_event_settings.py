"""Event settings accept exactly the time controls a table clock can run."""

from __future__ import annotations

import pytest

from wuzi.tournament.errors import SettingsError
from wuzi.tournament.settings import EventSettings, Format


@pytest.mark.parametrize("spec", ["3600", "2700+30", "40/5400:1800+30", "600:5x30", "300d5"])
def test_clock_specs_are_accepted(spec: str) -> None:
    settings = EventSettings.create(Format.SWISS, rounds=7, time_control=spec)
    assert settings.time_control == spec


@pytest.mark.parametrize(
    ("spec", "fragment"),
    [
        ("36\u00b2", "'\u00b2'"),  # a superscript digit is not a digit of seconds
        ("abc", "character 1 'a'"),
        ("", "empty"),
        ("0", "time control '0'"),
    ],
)
def test_bad_time_controls_name_the_fault(spec: str, fragment: str) -> None:
    with pytest.raises(SettingsError) as info:
        EventSettings.create(Format.SWISS, rounds=7, time_control=spec)
    assert fragment in str(info.value)


def test_playoff_time_control_is_labelled() -> None:
    with pytest.raises(SettingsError, match=r"^playoff time control: "):
        EventSettings.create(Format.SWISS, rounds=7, playoff_time_control="5m")
