"""A director's assignment becomes the table's setup, or an error naming the field."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wuzi.bus.assignment import setup_from_assignment
from wuzi.bus.schemas import Assignment
from wuzi.table.checks import TableError
from wuzi.table.codec import setup_from_dict, setup_to_dict
from wuzi.table.inputs import TableSetup
from wuzi.table.session import TableSession


def assignment(**changes: Any) -> Assignment:
    base = Assignment(
        table=7,
        game_id="g-17",
        black="Li",
        white="Wang",
        rule_set="renju",
        opening="chinese-2013",
        opening_settings={"selection": "lot", "opening_id": "1D", "n": "1-5"},
        time_control="2700+30",
        board=2,
        game_in_match=1,
        playoff=False,
        issued_ms=0,
    )
    return replace(base, **changes)


def test_an_assignment_becomes_a_setup_a_session_takes() -> None:
    setup = setup_from_assignment(assignment(), unpressed_alert_ms=5000)
    assert setup == TableSetup(
        ruleset="renju",
        mode="claim",
        opening="chinese-2013",
        opening_settings=(("n", "1-5"), ("opening_id", "1D"), ("selection", "lot")),
        time_control="2700+30",
        unpressed_alert_ms=5000,
    )
    session = TableSession(setup, 0)
    assert session.game.opening.state.opening_id == "1D"
    assert setup_from_dict(setup_to_dict(setup)) == setup


@pytest.mark.parametrize(
    ("opening", "opening_settings"),
    [
        ("free", {}),
        ("swap2", {}),
        ("yamaguchi", {"n": "1-10"}),
        ("soosorv-8", {"symmetry": "h8"}),
        ("taraguchi-10", {}),
        ("rif-1996", {"selection": "referee", "opening_id": "7I"}),
        ("swap-after-3", {"selection": "opener"}),
    ],
)
def test_every_procedure_can_be_assigned(opening: str, opening_settings: dict[str, Any]) -> None:
    setup = setup_from_assignment(
        assignment(opening=opening, opening_settings=opening_settings, rule_set="standard")
    )
    assert TableSession(setup, 0).game.opening.name.startswith(opening.split("-")[0])


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"rule_set": "chess"}, "assignment 'g-17': rule_set: unknown rule set 'chess'"),
        ({"opening": "blitz"}, "assignment 'g-17': opening: unknown opening procedure 'blitz'"),
        (
            {"opening_settings": {"n": "many"}},
            "assignment 'g-17': opening_settings['n']: N must be a number",
        ),
        (
            {"opening_settings": {"n": True}},
            "opening_settings['n']: must be a string or an integer, not a boolean",
        ),
        (
            {"opening_settings": {"n": [1, 5]}},
            "opening_settings['n']: must be a string or an integer, not a list",
        ),
        ({"opening_settings": {"n": 2.5}}, "opening_settings['n']: must be a string or"),
        ({"opening_settings": {"colour": "red"}}, "opening_settings['colour']: 'chinese-2013'"),
        ({"opening_settings": {"symmetry": "mirror"}}, "opening_settings['symmetry']: offer"),
        ({"opening_settings": {"rng": 4}}, "opening_settings['rng']: a lot is drawn"),
        ({"opening_settings": {"selection": "lot"}}, "opening_settings['selection']: an opening"),
        (
            {"opening_settings": {"selection": "lot", "opening_id": "99Z"}},
            "assignment 'g-17': opening_settings: '99Z' is not one of the 26",
        ),
        (
            {"opening": "soosorv-8", "opening_settings": {"n": 4}},
            "opening_settings['n']: 'soosorv-8': N goes in the name",
        ),
        ({"opening_settings": ["n", 2]}, "opening_settings: must be an object, not a list"),
        ({"time_control": "forever"}, "assignment 'g-17': time_control: time control 'forever'"),
        ({"time_control": 2700}, "time_control: must be a string, not the number 2700"),
    ],
)
def test_a_bad_assignment_names_the_field(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(TableError, match=re.escape(message)):
        setup_from_assignment(assignment(**changes))


def test_bad_arguments() -> None:
    with pytest.raises(TableError, match="not an Assignment"):
        setup_from_assignment({"game_id": "g"})  # type: ignore[arg-type]
    with pytest.raises(TableError, match="unpressed_alert_ms must be 0 or more"):
        setup_from_assignment(assignment(), unpressed_alert_ms=-1)


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(["chinese-2013", "yamaguchi", "soosorv-4", "swap2", "free", "rif-1996"]),
    st.dictionaries(
        st.sampled_from(["n", "selection", "opening_id", "symmetry", "rng", "x"]),
        st.one_of(
            st.integers(-3, 12),
            st.sampled_from(["1-5", "lot", "referee", "opener", "1D", "7I", "h8", "plane"]),
            st.text(max_size=5),
            st.booleans(),
            st.none(),
        ),
        max_size=4,
    ),
)
def test_an_accepted_assignment_always_starts_a_session(
    opening: str, opening_settings: dict[str, Any]
) -> None:
    try:
        setup = setup_from_assignment(
            assignment(opening=opening, opening_settings=opening_settings)
        )
    except TableError as exc:
        assert str(exc).startswith("assignment 'g-17': opening")
        return
    TableSession(setup, 0)  # never refused once the assignment was accepted
