"""The codec: every input and output class round-trips through JSON exactly; anything
else is a CodecError naming the kind and the field."""

from __future__ import annotations

import dataclasses
import inspect
import json
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wuzi.rules.board import Colour
from wuzi.rules.procedure import Seat
from wuzi.rules.record import ClockReading
from wuzi.table import inputs, outputs
from wuzi.table.checks import TableError
from wuzi.table.codec import (
    INPUT_KINDS,
    OUTPUT_KINDS,
    CodecError,
    decode_input,
    decode_output,
    encode_input,
    encode_output,
    setup_from_dict,
    setup_to_dict,
)
from wuzi.table.inputs import (
    BoardAlert,
    ClockPressed,
    SessionStarted,
    StoneSettled,
    TableInput,
    TableSetup,
    Tick,
)
from wuzi.table.outputs import AlertReason, ClockChanged, MoveJudged, RefereeAlert, TableOutput

JOURNAL_KIND = re.compile(r"[a-z][a-z0-9_.-]{0,63}")


def classes(module: Any, base: type) -> list[type]:
    """Every concrete input (output) class of the module: a new one must be in the codec."""
    abstract = {inputs.TableInput, outputs.TableOutput, outputs.PlayerOutput}
    abstract.add(outputs.RefereeOutput)
    return [
        cls
        for _, cls in inspect.getmembers(module, inspect.isclass)
        if issubclass(cls, base) and cls not in abstract and cls.__module__ == module.__name__
    ]


INPUT_CLASSES = classes(inputs, TableInput)
OUTPUT_CLASSES = classes(outputs, TableOutput)

text = st.text(max_size=12)
points = st.integers(0, 224)
ints = st.integers(-(2**63), 2**63)
settings_values: st.SearchStrategy[str | int] = st.one_of(text, ints)
setups = st.builds(
    TableSetup,
    ruleset=text,
    mode=text,
    opening=text,
    opening_settings=st.dictionaries(text, settings_values, max_size=3).map(
        lambda d: tuple(d.items())
    ),
    time_control=text,
    unpressed_alert_ms=ints,
)
clocks = st.builds(ClockReading, first_ms=ints, second_ms=ints)

BY_ANNOTATION: dict[str, st.SearchStrategy[Any]] = {
    "int": ints,
    "int | None": st.none() | ints,
    "str": text,
    "str | None": st.none() | text,
    "Point": points,
    "Point | None": st.none() | points,
    "tuple[Point, ...]": st.lists(points, max_size=4).map(tuple),
    "Seat": st.sampled_from(Seat),
    "Seat | None": st.none() | st.sampled_from(Seat),
    "Colour": st.sampled_from(Colour),
    "Colour | None": st.none() | st.sampled_from(Colour),
    "AlertReason": st.sampled_from(AlertReason),
    "ClockReading": clocks,
    "ClockReading | None": st.none() | clocks,
    "TableSetup": setups,
}


def instances(cls: type) -> st.SearchStrategy[Any]:
    fields = {f.name: BY_ANNOTATION[str(f.type)] for f in dataclasses.fields(cls)}
    return st.builds(cls, **fields)


def plain_json(value: object) -> bool:
    """Only what a JSON round trip gives back as it was: no tuples, no enums."""
    if isinstance(value, dict):
        return all(type(k) is str and plain_json(v) for k, v in value.items())
    if isinstance(value, list):
        return all(plain_json(v) for v in value)
    return value is None or type(value) in (str, int, bool)


def test_every_input_and_output_class_has_a_kind() -> None:
    assert sorted(c.__name__ for c in INPUT_CLASSES) == sorted(
        c.__name__ for c in INPUT_KINDS.values()
    )
    assert sorted(c.__name__ for c in OUTPUT_CLASSES) == sorted(
        c.__name__ for c in OUTPUT_KINDS.values()
    )
    for kind, cls in INPUT_KINDS.items():
        snake = re.sub(r"(?<!^)(?=[A-Z])", "_", cls.__name__).lower()
        assert kind == f"in.{snake}" and JOURNAL_KIND.fullmatch(kind)
    assert set(OUTPUT_KINDS) == {
        "move",
        "offer",
        "offer-kept",
        "decision",
        "declared",
        "take-back",
        "correction",
        "clock",
        "status",
        "result",
        "next-game",
        "adjourned",
        "alert",
    }
    assert all(JOURNAL_KIND.fullmatch(k) for k in OUTPUT_KINDS)


@pytest.mark.parametrize("cls", INPUT_CLASSES, ids=lambda c: c.__name__)
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_every_input_round_trips_through_json(cls: type, data: st.DataObject) -> None:
    event = data.draw(instances(cls))
    kind, payload = encode_input(event)
    assert INPUT_KINDS[kind] is cls
    assert plain_json(payload)
    assert set(payload) == {f.name for f in dataclasses.fields(cls)}
    back = decode_input(kind, json.loads(json.dumps(payload)))
    assert back == event and type(back) is cls


@pytest.mark.parametrize("cls", OUTPUT_CLASSES, ids=lambda c: c.__name__)
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_every_output_round_trips_through_json(cls: type, data: st.DataObject) -> None:
    out = data.draw(instances(cls))
    kind, payload = encode_output(out)
    assert OUTPUT_KINDS[kind] is cls
    assert plain_json(payload)
    back = decode_output(kind, json.loads(json.dumps(payload)))
    assert back == out and type(back) is cls


def test_the_wire_form_is_the_documented_one() -> None:
    setup = TableSetup(opening="chinese-2013", opening_settings=(("n", "1-5"), ("symmetry", "h8")))
    assert encode_input(SessionStarted(now_ns=7, setup=setup)) == (
        "in.session_started",
        {
            "now_ns": 7,
            "setup": {
                "ruleset": "renju",
                "mode": "claim",
                "opening": "chinese-2013",
                "opening_settings": [["n", "1-5"], ["symmetry", "h8"]],
                "time_control": "2700+30",
                "unpressed_alert_ms": 10_000,
            },
        },
    )
    assert setup_from_dict(setup_to_dict(setup)) == setup
    alert = BoardAlert(now_ns=1, kind="moved", points=(112, 113), colour=Colour.WHITE)
    assert encode_input(alert)[1] == {
        "now_ns": 1,
        "kind": "moved",
        "points": [112, 113],
        "colour": "white",
        "detail": "",
    }
    move = MoveJudged(5, 1, 112, Colour.BLACK, Seat.FIRST, ClockReading(1000, 2000))
    assert encode_output(move) == (
        "move",
        {
            "at_ns": 5,
            "number": 1,
            "point": 112,
            "colour": "black",
            "seat": "first",
            "clocks": {"first_ms": 1000, "second_ms": 2000},
        },
    )
    alert_out = RefereeAlert(9, AlertReason.FLAG, "flag", (), Seat.SECOND, None)
    assert encode_output(alert_out)[1] == {
        "at_ns": 9,
        "reason": "flag",
        "text": "flag",
        "points": [],
        "seat": "second",
        "infractions": None,
    }
    assert encode_output(ClockChanged(3, None, ClockReading(1, 2)))[1]["running"] is None


@pytest.mark.parametrize(
    ("kind", "payload", "message"),
    [
        ("in.nothing", {}, "in.nothing: unknown table input kind"),
        ("in.tick", {}, "in.tick: field 'now_ns': is missing"),
        ("in.tick", {"now_ns": 1, "seat": "first"}, "in.tick: 'seat' is not a field of Tick"),
        ("in.tick", {"now_ns": True}, "field 'now_ns': must be an integer, not a boolean"),
        ("in.tick", {"now_ns": 1.0}, "field 'now_ns': must be an integer, not the number 1.0"),
        ("in.tick", [], "in.tick: the payload must be an object, not a list"),
        ("in.tick", {1: 1}, "the number 1 as a key is not a field of Tick"),
        ("in.clock_pressed", {"now_ns": 1, "seat": "black"}, "field 'seat': must be one of"),
        (
            "in.stone_settled",
            {"now_ns": 1, "point": 225, "colour": "black"},
            "field 'point': must be a point index 0..224, not the number 225",
        ),
        ("in.stone_settled", {"now_ns": 1, "point": 3, "colour": 1}, "field 'colour'"),
        (
            "in.board_alert",
            {"now_ns": 1, "kind": "x", "points": [1, -1], "colour": None, "detail": ""},
            "in.board_alert: field points[1]: must be a point index",
        ),
        (
            "in.board_alert",
            {"now_ns": 1, "kind": "x", "points": (1,), "colour": None, "detail": ""},
            "field 'points': must be a list of point indices",
        ),
        (
            "in.session_started",
            {"now_ns": 1, "setup": {"ruleset": "renju"}},
            "in.session_started: field setup['mode']: is missing",
        ),
        (
            "in.session_started",
            {
                "now_ns": 1,
                "setup": {
                    **setup_to_dict(TableSetup()),
                    "opening_settings": [["n", 2], ["n", 3]],
                },
            },
            "field setup['opening_settings'][1]: setting 'n' is given twice",
        ),
        (
            "in.session_started",
            {"now_ns": 1, "setup": {**setup_to_dict(TableSetup()), "extra": 1}},
            "field setup['extra']: is not a field here",
        ),
        (
            "in.session_started",
            {
                "now_ns": 1,
                "setup": {**setup_to_dict(TableSetup()), "opening_settings": [["n", True]]},
            },
            "setup['opening_settings'][0][1]: setting 'n' must be a string or an integer",
        ),
    ],
)
def test_bad_payloads_say_what_is_wrong(kind: str, payload: Any, message: str) -> None:
    with pytest.raises(CodecError, match=re.escape(message)):
        decode_input(kind, payload)


def test_bad_outputs_and_unknown_classes() -> None:
    with pytest.raises(CodecError, match=re.escape("move: field clocks['first_ms']: is missing")):
        decode_output(
            "move",
            {
                "at_ns": 1,
                "number": 1,
                "point": 1,
                "colour": "black",
                "seat": "first",
                "clocks": {"second_ms": 1},
            },
        )
    with pytest.raises(CodecError, match="field 'reason': must be one of"):
        decode_output(
            "alert",
            {
                "at_ns": 1,
                "reason": "boom",
                "text": "",
                "points": [],
                "seat": None,
                "infractions": None,
            },
        )
    with pytest.raises(CodecError, match="unknown table output kind"):
        decode_output("in.tick", {"now_ns": 1})
    with pytest.raises(CodecError, match="not a table input the codec knows"):
        encode_input(TableInput(now_ns=1))
    bad_seat = ClockPressed(now_ns=1, seat="first")  # type: ignore[arg-type]
    with pytest.raises(
        CodecError, match=re.escape("in.clock_pressed: field 'seat': must be a Seat")
    ):
        encode_input(bad_seat)
    bad_points = BoardAlert(now_ns=1, kind="moved", points=[1, 2])  # type: ignore[arg-type]
    with pytest.raises(CodecError, match="field 'points': must be a tuple"):
        encode_input(bad_points)
    with pytest.raises(CodecError, match=re.escape("setup: field 'opening_settings'")):
        setup_to_dict(TableSetup(opening_settings=[("n", 2)]))  # type: ignore[arg-type]
    assert issubclass(CodecError, TableError)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)


@st.composite
def near_misses(draw: st.DrawFn) -> tuple[str, object, bool]:
    """A valid payload of a random class, perhaps damaged: a field dropped, added or
    replaced by any JSON value; or garbage outright."""
    is_input = draw(st.booleans())
    cls = draw(st.sampled_from(INPUT_CLASSES if is_input else OUTPUT_CLASSES))
    value = draw(instances(cls))
    kind, payload = encode_input(value) if is_input else encode_output(value)
    how = draw(st.sampled_from(["keep", "drop", "add", "replace", "garbage", "kind"]))
    damaged: object = dict(payload)
    assert isinstance(damaged, dict)
    key = draw(st.sampled_from(sorted(payload)))
    if how == "drop":
        del damaged[key]
    elif how == "add":
        damaged[draw(st.text(max_size=8))] = draw(json_values)
    elif how == "replace":
        damaged[key] = draw(json_values)
    elif how == "garbage":
        damaged = draw(json_values | st.sets(st.integers()) | st.binary())
    elif how == "kind":
        kind = draw(st.text(max_size=12) | st.sampled_from([*INPUT_KINDS, *OUTPUT_KINDS]))
    return kind, damaged, is_input


@settings(max_examples=400, deadline=None)
@given(near_misses())
def test_decoding_never_raises_anything_but_a_codec_error(
    case: tuple[str, object, bool],
) -> None:
    kind, payload, is_input = case
    try:
        if is_input:
            decode_input(kind, payload)  # type: ignore[arg-type]
        else:
            decode_output(kind, payload)  # type: ignore[arg-type]
    except CodecError as exc:
        assert str(exc)
        if kind in INPUT_KINDS or kind in OUTPUT_KINDS:
            assert str(exc).startswith(f"{kind}: ")


def test_a_journal_of_stones_round_trips() -> None:
    from wuzi.table.session import TableSession

    s = TableSession(TableSetup(opening="free"), 0)
    s.handle(StoneSettled(now_ns=1, point=112, colour=Colour.BLACK))
    s.handle(ClockPressed(now_ns=2, seat=Seat.FIRST))
    s.handle(Tick(now_ns=3))
    rebuilt = TableSession.replay(decode_input(*encode_input(e)) for e in s.inputs)
    assert rebuilt == s
    assert [decode_output(*encode_output(o)) for o in s.outputs] == list(s.outputs)
