"""The hall line's messages on the bus (``wuzi.bus.line``): what is encoded parses back
unchanged, and anything else is a `MessageError` naming the field, whatever the bytes."""

from __future__ import annotations

import contextlib
import json
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wuzi.bus.line import (
    encode_packet,
    encode_truth,
    parse_to_away,
    parse_to_owner,
    parse_truth,
)
from wuzi.bus.schemas import MessageError
from wuzi.table.line_messages import (
    LINE_STATES,
    AwayButton,
    AwayClaim,
    AwayMirrored,
    AwayPress,
    AwayShown,
    AwayStone,
    LinePacket,
    OwnerTruth,
)

LINK = "hall-a-1-hall-b-1"
TO_OWNER = f"wuzi/v1/hall-b/line/{LINK}/to-owner"
TO_AWAY = f"wuzi/v1/hall-a/line/{LINK}/to-away"
ms = st.integers(0, 10**12)
away_inputs = st.one_of(
    st.builds(AwayStone, st.integers(0, 224), st.sampled_from(["black", "white"]), ms),
    st.builds(AwayPress, st.integers(0, 255), ms),
    st.builds(AwayClaim, st.integers(0, 255), ms),
    st.builds(AwayButton, st.integers(0, 255), ms),
    st.builds(AwayShown, st.integers(1, 225), ms),
    st.builds(AwayMirrored, st.integers(1, 225), st.integers(0, 224), ms),
)


@st.composite
def truths(draw: st.DrawFn) -> OwnerTruth:
    moves = tuple(draw(st.lists(st.integers(0, 224), unique=True, max_size=30)))
    mirror = draw(st.sampled_from([None, *moves]))
    clock = st.integers(-(10**6), 10**7)
    running = draw(st.sampled_from([None, "black", "white"]))
    return OwnerTruth(
        moves, draw(clock), draw(clock), running, draw(st.booleans()), mirror, draw(ms)
    )


def packets(items: st.SearchStrategy[Any]) -> st.SearchStrategy[LinePacket[Any]]:
    @st.composite
    def build(draw: st.DrawFn) -> LinePacket[Any]:
        item = draw(st.one_of(st.none(), items))
        last = draw(st.integers(1 if item else 0, 10**6))
        n = draw(st.integers(1, last)) if item else 0
        return LinePacket(
            LINK, draw(st.sampled_from(["away-1", "b00t:2.x"])), draw(ms),
            draw(st.sampled_from(LINE_STATES)), draw(st.integers(0, 9)),
            draw(st.integers(0, 10**6)), last, draw(st.one_of(st.none(), ms)),
            draw(st.integers(0, 10**6)), n, item,
            draw(st.sampled_from([None, ("hall-b", "wang"), ("h", "ref:7/x")])),
        )  # fmt: skip

    return build()


@settings(max_examples=200)
@given(packets(away_inputs))
def test_to_owner_round_trips(packet: LinePacket[Any]) -> None:
    assert parse_to_owner(TO_OWNER, encode_packet(packet), LINK) == packet


@settings(max_examples=200)
@given(packets(truths()))
def test_to_away_round_trips(packet: LinePacket[Any]) -> None:
    assert parse_to_away(TO_AWAY, encode_packet(packet), LINK) == packet


@given(truths())
def test_the_truth_alone_round_trips(truth: OwnerTruth) -> None:
    assert parse_truth(f"wuzi/v1/hall-a/line/{LINK}/state", encode_truth(truth)) == truth


def _payload(**changes: Any) -> bytes:
    packet = LinePacket(LINK, "away-1", 5000, "up", 0, 3, 4, 1000, 2, 4, AwayPress(1, 4990))
    obj = json.loads(encode_packet(packet))
    for key, value in changes.items():
        if value is ...:
            del obj[key]
        else:
            obj[key] = value
    return json.dumps(obj).encode()


@pytest.mark.parametrize(
    ("changes", "field", "reason"),
    [
        ({"link": "hall-x-1-hall-b-1"}, "link", "topic is for link"),
        ({"link": "Hall A"}, "link", "does not match"),
        ({"extra": 1}, "extra", "unknown key"),
        ({"ack": ...}, "ack", "is missing"),
        ({"ack": 1.5}, "ack", "must be an integer"),
        ({"ack": True}, "ack", "must be an integer"),
        ({"sent_ms": -1}, "sent_ms", "must be in"),
        ({"state": "down"}, "state", "must be one of"),
        ({"n": 5}, "n", "beyond last"),
        ({"n": 0}, "item", "n is 0"),
        ({"item": None}, "item", "is missing though n is 4"),
        ({"item": {"kind": "kick", "at_ms": 1}}, "item.kind", "must be one of"),
        ({"item": {"kind": "press", "at_ms": 1}}, "item.button", "is missing"),
        ({"item": {"kind": "shown", "at_ms": 1, "move": 0}}, "item.move", "must be in"),
        (
            {"item": {"kind": "shown", "at_ms": 1, "move": 1, "point": 3}},
            "item.point",
            "unknown key",
        ),
        ({"item": {"kind": "mirrored", "at_ms": 1, "move": 2}}, "item.point", "is missing"),
        ({"item": {"kind": "press", "at_ms": 1, "button": 1, "x": 0}}, "item.x", "unknown key"),
        (
            {"item": {"kind": "stone", "at_ms": 1, "point": 225, "colour": "black"}},
            "item.point",
            "0..224",
        ),
        ({"v": 2}, "v", "not supported"),
        ({"request": ...}, "request", "is missing"),
        ({"request": "hall-b:wang"}, "request", "must be an object"),
        ({"request": {"hall": "hall-b"}}, "request.referee", "is missing"),
        ({"request": {"hall": "Hall B", "referee": "w"}}, "request.hall", "does not match"),
    ],
)
def test_a_bad_packet_names_its_field(changes: dict[str, Any], field: str, reason: str) -> None:
    with pytest.raises(MessageError) as caught:
        parse_to_owner(TO_OWNER, _payload(**changes), LINK)
    assert caught.value.field == field and reason in caught.value.reason, caught.value


def test_the_topic_decides_the_direction() -> None:
    """An owner's truth sent to the owner (or an input to the away host) is refused."""
    truth = OwnerTruth((3, 4), 1, 2, "black", False, 4, 9)
    packet = LinePacket(LINK, "owner-1", 5000, "up", 0, 0, 1, None, 0, 1, truth)
    with pytest.raises(MessageError, match=r"item\.kind"):
        parse_to_owner(TO_OWNER, encode_packet(packet), LINK)
    with pytest.raises(MessageError, match=r"item\.moves"):
        parse_to_away(TO_AWAY, _payload(), LINK)


def test_a_mirror_must_be_a_move() -> None:
    bad = json.loads(encode_truth(OwnerTruth((3, 4), 1, 2, None, True, None, 9)))
    bad["mirror"] = 7
    with pytest.raises(MessageError, match="7 is not in moves"):
        parse_truth(TO_AWAY, json.dumps(bad).encode())


@settings(max_examples=300)
@given(st.one_of(st.binary(max_size=300), st.builds(lambda p: p[:-3], st.just(_payload()))))
def test_any_bytes_give_a_message_or_a_message_error(payload: bytes) -> None:
    for parse in (parse_to_owner, parse_to_away):
        with contextlib.suppress(MessageError):  # any other exception fails the test
            parse(TO_OWNER, payload, LINK)


def test_docs_list_every_field() -> None:
    text = (Path(__file__).parents[2] / "docs" / "bus.md").read_text(encoding="utf-8")
    section = text[text.index("### The hall line's packets") :]
    for kind in (LinePacket, OwnerTruth, AwayStone, AwayPress, AwayShown, AwayMirrored):
        for f in fields(kind):
            assert f"`{f.name}`" in section, f"docs/bus.md lacks {kind.__name__}.{f.name}"
