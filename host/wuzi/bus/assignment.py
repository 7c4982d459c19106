"""A director's ``Assignment`` as the table's ``TableSetup``, checked before it is used.

The host journals ``SessionStarted(setup)`` first and replays it after every restart, so
a setup that cannot start a game must be refused when the assignment arrives — with an
error the director's operator can act on (``assignment 'g-17': opening_settings['n']:
…``) — not when the table is rebuilt. Every field is checked the way the session will
use it (``RuleSet.parse``, ``make_procedure``, ``parse_control``) without building a
session. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import NoReturn

from wuzi.base.json_values import describe
from wuzi.bus.schemas import Assignment
from wuzi.clock.control import parse_control
from wuzi.clock.errors import ClockError
from wuzi.rules.openings import make_procedure
from wuzi.rules.ruleset import RuleSet
from wuzi.table.checks import TableError
from wuzi.table.inputs import TableSetup

__all__ = ["setup_from_assignment"]

_Fail = Callable[[str, object], NoReturn]  # names the field and the reason; raises


def setup_from_assignment(a: Assignment, *, unpressed_alert_ms: int = 10_000) -> TableSetup:
    """The setup of the game ``a`` assigns (``rule_set`` → ``ruleset``, the opening and its
    settings as a sorted tuple of pairs, the time control; mode ``claim``). Raises
    ``TableError`` naming the assignment and the field for anything the session would
    refuse; ``unpressed_alert_ms`` is the host's, not the director's."""
    if not isinstance(a, Assignment):
        raise TableError(f"not an Assignment: {a!r}")

    def fail(field: str, reason: object) -> NoReturn:
        raise TableError(f"assignment {a.game_id!r}: {field}: {reason}")

    if isinstance(unpressed_alert_ms, bool) or not isinstance(unpressed_alert_ms, int):
        raise TableError(f"unpressed_alert_ms must be an integer, not {unpressed_alert_ms!r}")
    if unpressed_alert_ms < 0:
        raise TableError(f"unpressed_alert_ms must be 0 or more, not {unpressed_alert_ms}")
    for field in ("rule_set", "opening", "time_control"):
        value = getattr(a, field)
        if not isinstance(value, str):
            fail(field, f"must be a string, not {describe(value, max_text=40)}")
    try:
        RuleSet.parse(a.rule_set)
    except ValueError as exc:
        fail("rule_set", exc)
    settings = _settings(a.opening_settings, fail)
    _check_opening(a.opening, settings, fail)
    try:
        parse_control(a.time_control)
    except ClockError as exc:
        fail("time_control", exc)
    return TableSetup(
        ruleset=a.rule_set,
        opening=a.opening,
        opening_settings=tuple(sorted(settings.items())),
        time_control=a.time_control,
        unpressed_alert_ms=unpressed_alert_ms,
    )


def _settings(value: object, fail: _Fail) -> dict[str, str | int]:
    if not isinstance(value, Mapping):
        fail("opening_settings", f"must be an object, not {describe(value, max_text=40)}")
    settings: dict[str, str | int] = {}
    for key, item in value.items():
        if not isinstance(key, str):
            fail("opening_settings", f"a setting is named by a string, not {key!r}")
        where = f"opening_settings[{key!r}]"
        if key == "rng":
            fail(where, "a lot is drawn before the game: give the drawn opening_id")
        if isinstance(item, bool) or not isinstance(item, str | int):
            fail(where, f"must be a string or an integer, not {describe(item, max_text=40)}")
        settings[key] = item
    return settings


def _check_opening(name: str, settings: dict[str, str | int], fail: _Fail) -> None:
    """``make_procedure`` must take the name, then the settings. A key is named when it
    alone reproduces the error (``n='x'``); otherwise the settings together are at fault
    (``selection='lot'`` without its ``opening_id``)."""
    problem = _refusal(name, {})
    if problem is not None:
        fail("opening", problem)
    problem = _refusal(name, settings)
    if problem is None:
        return
    for key in sorted(settings):
        if _refusal(name, {key: settings[key]}) == problem:
            fail(f"opening_settings[{key!r}]", problem)
    fail("opening_settings", problem)


def _refusal(name: str, settings: Mapping[str, str | int]) -> str | None:
    """Why ``make_procedure`` refuses these (None: it takes them). ``ValueError`` covers
    ``RulesError`` and the plain ``ValueError`` of a bad offer symmetry."""
    try:
        make_procedure(name, **settings)
    except ValueError as exc:
        return str(exc)
    return None
