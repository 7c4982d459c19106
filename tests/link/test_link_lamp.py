"""The point LED on the host's side (wire protocol 2.2): LIGHT / DARK / LAMP bodies round
trip and refuse what no board could show; the session lights a point on a rev-b board
(firmware logic on the bench), learns when the board put it out by itself, asks again after
a lost frame or a reboot; a rev-a board, and a 2.1 firmware, say they cannot light and are
never sent a LIGHT."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from support.boards import Bench
from wuzi.link import wire
from wuzi.link.lamp import (
    LAMP_RETRY_MS,
    Lamp,
    PointLight,
    dark_body,
    light_body,
    parse_lamp,
)
from wuzi.rules.board import Colour, parse_point
from wuzi.sim.devices.old_firmware import as_protocol

H8 = parse_point("h8")


def _types(data: bytes) -> list[int]:
    dec = wire.Decoder(len(data) + 16)
    dec.feed(data)
    out = []
    while (t := dec.next_frame()) >= 0:
        out.append(t)
    return out


def _recording(bench: Bench) -> list[int]:
    sent: list[int] = []

    def record(data: bytes) -> bytes:
        sent.extend(_types(data))
        return data

    bench.to_mcu = record
    return sent


# -- the bodies -------------------------------------------------------------------------


@given(
    token=st.integers(1, 255),
    point=st.integers(0, wire.POINTS - 1),
    colour=st.sampled_from([wire.BLACK, wire.WHITE]),
    blink=st.booleans(),
)
def test_light_body_round_trips_through_a_frame(
    token: int, point: int, colour: int, blink: bool
) -> None:
    frame = wire.encode(wire.T_LIGHT, 9, light_body(token, point, colour, blink))
    dec = wire.Decoder()
    dec.feed(frame)
    assert dec.next_frame() == wire.T_LIGHT
    body = bytes(dec.buf[dec.body_at : dec.body_at + dec.body_len])
    assert len(body) == wire.LEN_LIGHT
    assert tuple(body) == (token, point, colour, wire.MODE_BLINK if blink else wire.MODE_STEADY)


@given(
    token=st.integers(0, 255),
    state=st.sampled_from([wire.LAMP_LIT, wire.LAMP_PLACED]),
    point=st.integers(0, wire.POINTS - 1),
    colour=st.sampled_from([wire.BLACK, wire.WHITE]),
    mode=st.sampled_from([wire.MODE_STEADY, wire.MODE_BLINK]),
    tick=st.integers(0, wire.TICKS_MASK),
    at_ms=st.integers(0, 10**9),
)
def test_lamp_bodies_parse(
    token: int, state: int, point: int, colour: int, mode: int, tick: int, at_ms: int
) -> None:
    body = bytearray((token, state, point, colour, mode, 0, 0, 0, 0, 7))
    wire.put_u32(body, 5, tick)
    lamp = parse_lamp(bytes(body), at_ms)
    assert lamp == Lamp(
        "lit" if state == wire.LAMP_LIT else "placed",
        point,
        colour,
        mode == wire.MODE_BLINK,
        token,
        at_ms,
    )


@given(body=st.binary(min_size=0, max_size=12))
def test_any_lamp_body_parses_or_is_refused_without_raising(body: bytes) -> None:
    lamp = parse_lamp(body, 0)
    if lamp is not None:
        assert lamp.state in ("dark", "lit", "placed")
        assert lamp.point is None or 0 <= lamp.point < wire.POINTS


def test_dark_lamp_names_no_point() -> None:
    body = bytes((3, wire.LAMP_DARK, wire.NO_POINT, 0, 0, 0, 0, 0, 5, 1))
    assert parse_lamp(body, 50) == Lamp("dark", None, 0, False, 3, 50)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: light_body(1, 225, 1, False), "point 225 is off the board"),
        (lambda: light_body(1, -1, 1, False), "point -1 is off the board"),
        (lambda: light_body(1, 3, 3, False), "colour 3 is no stone colour"),
        (lambda: light_body(0, 3, 1, False), "token 0 must be 1..255"),
        (lambda: dark_body(256), "token 256 must be 1..255"),
        (lambda: PointLight().light(300, 1, True), "point 300 is off the board"),
    ],
)
def test_a_bad_request_is_refused_here_naming_the_field(call: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()  # type: ignore[operator]


# -- the session against the firmware ----------------------------------------------------


def test_a_rev_b_board_lights_the_point_and_puts_it_out_itself() -> None:
    b = Bench(point_leds=True)
    b.step(300)
    assert b.link.can_light is True
    sent = _recording(b)
    ticket = b.link.light_point(H8, Colour.BLACK, b.now)
    assert ticket > 0 and not b.link.lamp_acknowledged(ticket)
    b.step(10)
    assert sent == [wire.T_LIGHT]
    assert b.link.lamp_acknowledged(ticket)
    lamp = b.link.lamp
    assert lamp is not None and (lamp.state, lamp.point, lamp.colour, lamp.blink) == (
        "lit",
        H8,
        wire.BLACK,
        True,
    )
    assert [p for p, *_ in b.chain.lit()] == [H8]
    b.table.cells[H8] = wire.BLACK  # the player mirrors the stone
    b.step(300)
    lamp = b.link.lamp
    assert lamp is not None and (lamp.state, lamp.point, lamp.token) == ("placed", H8, 0)
    assert b.chain.lit() == [] and b.led_power.value() == 0
    assert b.stones() == [("h8", "black")]  # the stone is judged as ever
    # no DARK: the board did it without a round trip (a STEADY_REQ settles the stone)
    assert sent.count(wire.T_LIGHT) == 1 and wire.T_DARK not in sent
    b.step(1000)
    assert sent.count(wire.T_LIGHT) == 1  # nothing pending: nothing asked again


def test_dark_point_puts_it_out_and_is_acknowledged() -> None:
    b = Bench(point_leds=True)
    b.step(300)
    b.link.light_point(H8, Colour.WHITE, b.now, blink=False)
    b.step(10)
    ticket = b.link.dark_point(b.now)
    b.step(10)
    assert b.link.lamp_acknowledged(ticket)
    lamp = b.link.lamp
    assert lamp is not None and lamp.state == "dark" and lamp.point is None
    assert b.chain.lit() == []


def test_a_lost_light_is_sent_again_until_answered() -> None:
    b = Bench(point_leds=True)
    b.step(300)
    sent = _recording(b)
    lost = [True]

    def drop_first_light(data: bytes) -> bytes:
        types = _types(data)
        sent.extend(types)
        if wire.T_LIGHT in types and lost[0]:
            lost[0] = False
            return b""
        return data

    b.to_mcu = drop_first_light
    ticket = b.link.light_point(H8, Colour.BLACK, b.now)
    b.step(LAMP_RETRY_MS - 20)
    assert not b.link.lamp_acknowledged(ticket) and sent.count(wire.T_LIGHT) == 1
    b.step(40)
    assert b.link.lamp_acknowledged(ticket) and sent.count(wire.T_LIGHT) == 2
    assert [p for p, *_ in b.chain.lit()] in ([H8], [])  # lit (or in a blink's dark half)
    assert b.mcu.leds.point == H8  # type: ignore[attr-defined]


def test_a_rebooted_board_is_asked_to_light_again() -> None:
    b = Bench(point_leds=True)
    b.step(300)
    b.link.light_point(H8, Colour.BLACK, b.now, blink=False)
    b.step(20)
    b.led_power.value(0)  # the reset drops the rail's gate
    b.reboot(777)
    b.step(1000)
    assert b.mcu.leds.point == H8  # type: ignore[attr-defined]
    assert [p for p, *_ in b.chain.lit()] == [H8]
    lamp = b.link.lamp
    assert lamp is not None and lamp.lit and lamp.point == H8


def test_a_rev_a_board_cannot_light_and_is_never_sent_light() -> None:
    b = Bench()  # sensor-rev-a: no LEDs
    b.step(300)
    assert b.link.can_light is False
    sent = _recording(b)
    assert b.link.light_point(H8, Colour.BLACK, b.now) == 0
    assert b.link.dark_point(b.now) == 0
    b.table.cells[H8] = wire.BLACK
    b.step(500)
    assert wire.T_LIGHT not in sent and wire.T_DARK not in sent
    assert b.stones() == [("h8", "black")] and b.alerts() == []
    assert b.link.lamp is None and b.link.health["board_errors"] == 0


def test_a_2_1_firmware_has_no_capability_byte_and_cannot_light() -> None:
    b = Bench(point_leds=True)  # LEDs on the wood, but a firmware before 2.2
    b.to_host = lambda data: _as_2_1(data)
    b.step(300)
    assert b.link.session.info is not None and b.link.session.info.minor == 1
    assert b.link.can_light is False
    assert b.link.light_point(H8, Colour.BLACK, b.now) == 0


def _as_2_1(data: bytes) -> bytes:
    """The board's frames as a 2.1 firmware sent them: its INFO without the caps byte."""
    dec = wire.Decoder(len(data) + 16)
    dec.feed(data)
    out = bytearray()
    while dec.next_frame() >= 0:
        frame = bytes(dec.buf[dec.body_at - wire.HEADER_LEN : dec.body_at + dec.body_len + 2])
        out += as_protocol(frame, (2, 1))
    return bytes(out)


def test_a_board_that_refuses_light_is_not_asked_again() -> None:
    light = PointLight()
    light.on_info(True, new_boot=True)
    ticket = light.light(H8, wire.BLACK, True)
    assert light.due(0, ready=True) is not None
    light.on_error(wire.E_UNKNOWN_TYPE)
    assert light.can_light is False and "before 2.2" in light.refused
    assert light.due(1000, ready=True) is None and not light.acknowledged(ticket)
    assert light.light(H8, wire.BLACK, True) == 0


def test_nothing_is_sent_before_the_board_can_take_it() -> None:
    light = PointLight()
    ticket = light.light(H8, wire.WHITE, False)  # before the board's INFO
    assert ticket == 1 and light.due(0, ready=False) is None
    light.on_info(True, new_boot=True)
    assert light.due(0, ready=True) == (wire.T_LIGHT, bytes((2, H8, wire.WHITE, 0)))
    assert light.due(LAMP_RETRY_MS - 1, ready=True) is None
    assert light.next_deadline_ms() == LAMP_RETRY_MS
    light.on_lamp(Lamp("lit", H8, wire.WHITE, False, 2, 5))
    assert light.acknowledged(ticket) and light.next_deadline_ms() is None
