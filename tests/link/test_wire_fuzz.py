"""Fuzzing the board link: the frame decoder (``firmware/wire.py`` as the host imports it)
and the sans-I/O sessions on top of it.

* Random bytes and damaged streams never make the decoder raise, and never yield a frame
  whose header or CRC is wrong; after garbage it finds the next good frame.
* A session fed garbage (bytes holding no good frame) keeps its whole state and reports
  nothing; the next good frame after the garbage is delivered as usual.
* A session fed good frames with any content raises nothing but the documented
  `LinkError`\\ s (another board, another protocol version).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from wuzi.link import wire
from wuzi.link.errors import LinkError
from wuzi.link.session import (
    HELLO_RETRY_MS,
    BoardSession,
    ClockSession,
    Connected,
    EventSession,
    SensorChange,
)

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FILLER = bytes(wire.MAX_FRAME + 1)  # an idle line: no sync byte, longer than any frame
BOOT = 0x1234_5677


def decode_all(data: bytes, capacity: int = 4 * wire.MAX_FRAME, chunk: int = 4096) -> list[bytes]:
    """Every frame the decoder finds in ``data`` fed in ``chunk``-byte pieces, each as
    the whole frame's bytes (header to CRC), checked right after it was returned."""
    dec = wire.Decoder(capacity)
    frames: list[bytes] = []
    offset = 0
    while True:
        piece = data[offset : offset + chunk]
        taken = dec.feed(piece) if piece else 0
        offset += taken
        while (t := dec.next_frame()) >= 0:
            start = dec.body_at - wire.HEADER_LEN
            frame = bytes(dec.buf[start : dec.body_at + dec.body_len + wire.CRC_LEN])
            check_frame(frame, t, dec.seq, dec.body_len)
            frames.append(frame)
        if offset >= len(data):
            assert dec.frames == len(frames)
            return frames


def check_frame(frame: bytes, msg_type: int, seq: int, body_len: int) -> None:
    """What the decoder promises about a frame it returns."""
    assert frame[0] == wire.SYNC
    assert frame[1] == body_len <= wire.MAX_BODY and frame[2] == body_len ^ 0xFF
    assert frame[3] == seq and frame[4] == msg_type
    assert len(frame) == wire.OVERHEAD + body_len
    crc = wire.crc16(frame, 1, wire.HEADER_LEN + body_len)
    assert frame[-2:] == bytes((crc >> 8, crc & 0xFF)), "a frame with a wrong CRC got through"


frames_st = st.lists(
    st.builds(
        wire.encode,
        st.integers(0, 255),
        st.integers(0, 255),
        st.binary(max_size=wire.MAX_BODY),
    ),
    min_size=1,
    max_size=6,
)
# Garbage that looks like frames: sync bytes and plausible lengths are frequent.
garbage_st = st.lists(
    st.one_of(
        st.binary(min_size=1, max_size=40),
        st.just(bytes((wire.SYNC,))),
        st.integers(0, wire.MAX_BODY).map(lambda n: bytes((wire.SYNC, n, n ^ 0xFF))),
        frames_st.map(lambda fs: fs[0][: len(fs[0]) // 2]),  # a frame cut short
    ),
    max_size=12,
).map(b"".join)


@FUZZ
@given(
    st.binary(max_size=3000), st.integers(wire.MAX_FRAME, 4 * wire.MAX_FRAME), st.integers(1, 700)
)
def test_random_bytes_never_raise_and_never_pass_a_bad_frame(
    data: bytes, capacity: int, chunk: int
) -> None:
    decode_all(data, capacity, chunk)  # every returned frame is checked inside


@FUZZ
@given(
    frames_st,
    st.lists(
        st.tuples(
            st.sampled_from(["flip", "insert", "delete"]), st.integers(0, 2000), st.integers(0, 255)
        ),
        min_size=1,
        max_size=6,
    ),
    st.integers(1, 700),
)
def test_damaged_streams_yield_only_good_frames_and_the_rest_survives(
    frames: list[bytes], damage: list[tuple[str, int, int]], chunk: int
) -> None:
    stream = bytearray(b"".join(frames))
    for how, at, value in damage:
        at %= len(stream) + 1
        if how == "insert" or not stream or at == len(stream):
            stream[at:at] = bytes((value,))
        elif how == "flip":
            stream[at] ^= value or 1
        else:
            del stream[at]
    sentinel = wire.encode(wire.T_HEARTBEAT, 77, b"sentinel")
    found = decode_all(bytes(stream) + FILLER + sentinel, chunk=chunk)
    assert found and found[-1] == sentinel  # resynchronised on the next good frame
    # Nothing but real frames came out: each is one of those sent (or, once in 2**24,
    # a forgery of damage that happens to pass the header and CRC checks).
    assume(all(f in frames or f == sentinel for f in found))


@FUZZ
@given(garbage_st, frames_st, st.integers(1, 700))
def test_after_garbage_every_frame_is_found(
    garbage: bytes, frames: list[bytes], chunk: int
) -> None:
    found = decode_all(garbage + FILLER + b"".join(frames), chunk=chunk)
    assert found[-len(frames) :] == frames


def test_a_frame_with_a_bad_crc_is_counted_and_skipped() -> None:
    good = wire.encode(wire.T_HEARTBEAT, 1, bytes(16))
    bad = bytearray(good)
    bad[-1] ^= 1
    dec = wire.Decoder()
    dec.feed(bytes(bad) + good)
    assert dec.next_frame() == wire.T_HEARTBEAT and dec.seq == 1
    assert dec.next_frame() == -1
    assert dec.crc_errors == 1 and dec.frames == 1


# --- sessions -----------------------------------------------------------------------------


def info_body(kind: int, boot: int = BOOT, evno: int = 0, serial: bytes = b"SB-0001") -> bytes:
    body = bytearray(wire.LEN_INFO)
    body[wire.INFO_MAJOR] = wire.PROTOCOL_MAJOR
    body[wire.INFO_MINOR] = wire.PROTOCOL_MINOR
    body[wire.INFO_KIND] = kind
    body[wire.INFO_DEBOUNCE] = 3
    wire.put_u32(body, wire.INFO_BOOT, boot)
    wire.put_u32(body, wire.INFO_EVNO, evno)
    body[wire.INFO_SERIAL : wire.INFO_SERIAL + len(serial)] = serial
    wire.put_text(body, wire.INFO_REVISION, "rev-a", wire.TEXT_LEN)
    return bytes(body)


def change(evno: int, point: int, state: int, seq: int, tick: int = 500) -> bytes:
    body = bytearray(wire.LEN_CHANGE)
    wire.put_u32(body, 0, evno)
    body[4], body[5] = point, state
    wire.put_u32(body, 6, tick)
    body[10] = BOOT & 0xFF
    return wire.encode(wire.T_CHANGE, seq, bytes(body))


def connected_board() -> BoardSession:
    """A board session past its handshake with two stones read (events 1 and 2)."""
    session = BoardSession(port_name="fuzz")
    session.connection_made(0)
    session.receive_data(wire.encode(wire.T_INFO, 0, info_body(wire.KIND_SENSOR)), 10)
    events = session.receive_data(change(1, 112, 1, 1) + change(2, 113, 2, 2), 20)
    assert [type(e) for e in events] == [SensorChange, SensorChange]
    session.data_to_send()
    return session


def connected_clock() -> ClockSession:
    session = ClockSession(port_name="fuzz")
    session.connection_made(0)
    session.receive_data(wire.encode(wire.T_INFO, 0, info_body(wire.KIND_CLOCK)), 10)
    session.data_to_send()
    return session


def state_of(session: EventSession) -> tuple[object, ...]:
    """Everything a session knows, but the line-noise counters."""
    health = session.health.as_dict()
    for noise in ("crc_errors", "bad_headers", "garbage_bytes"):
        del health[noise]
    cells = session.cells if isinstance(session, BoardSession) else None
    return (
        session.boot_id,
        session.last_evno,
        session.known_latest,
        session.info,
        session.link_up,
        session.in_sync,
        cells,
        tuple(sorted(health.items())),
        session.next_deadline_ms(),
    )


@FUZZ
@given(garbage_st | st.binary(max_size=1500), st.booleans())
def test_a_session_fed_garbage_keeps_its_state(garbage: bytes, board: bool) -> None:
    assume(not decode_all(garbage + FILLER))  # no good frame hides in it by chance
    session: EventSession = connected_board() if board else connected_clock()
    before = state_of(session)
    # at the instant of the last frame: bytes, even damaged, are a sign of life that puts
    # off the silence timeout (its deadline) — the one thing garbage may change
    last_ms = 20 if board else 10
    assert session.receive_data(garbage, last_ms) == []
    assert session.receive_data(FILLER, last_ms) == []
    assert state_of(session) == before
    assert session.data_to_send() == b""
    if isinstance(session, BoardSession):
        events = session.receive_data(change(3, 114, 1, 3), 40)  # the line is back
        assert [(e.evno, e.point) for e in events if isinstance(e, SensorChange)] == [(3, 114)]


# Good frames (header and CRC right) whose bodies say anything at all.
_LENGTHS = {
    wire.T_INFO: wire.LEN_INFO,
    wire.T_CHANGE: wire.LEN_CHANGE,
    wire.T_SNAPSHOT: wire.LEN_SNAPSHOT,
    wire.T_HEARTBEAT: wire.LEN_HEARTBEAT,
    wire.T_PRESS: wire.LEN_PRESS,
    wire.T_ERROR: wire.LEN_ERROR,
    wire.T_SELFTEST: 6,
    wire.T_LAMP: wire.LEN_LAMP,
    wire.T_INFO + 0x100: wire.LEN_INFO_CAPS,  # (a 2.2 INFO: the key only tells the size)
}


@st.composite
def odd_frames(draw: st.DrawFn, kind: int) -> bytes:
    msg_type = draw(st.sampled_from(sorted(_LENGTHS)) | st.integers(0, 255))
    size = _LENGTHS.get(msg_type, 0)
    msg_type &= 0xFF
    size = draw(st.sampled_from([size, size + draw(st.integers(0, 30)), draw(st.integers(0, 60))]))
    body = bytearray(draw(st.binary(min_size=size, max_size=size)))
    if msg_type == wire.T_INFO and size >= wire.LEN_INFO:
        body[wire.INFO_MAJOR] = wire.PROTOCOL_MAJOR  # else every INFO is a version error
        body[wire.INFO_KIND] = kind
    elif msg_type in (wire.T_CHANGE, wire.T_PRESS) and size >= 4 and draw(st.booleans()):
        body[-1] = BOOT & 0xFF  # this boot's tag, so the event is looked at
        wire.put_u32(body, 0, draw(st.integers(0, 6)))
    elif msg_type == wire.T_HEARTBEAT and size >= 4 and draw(st.booleans()):
        wire.put_u32(body, 0, BOOT)
    elif msg_type == wire.T_LAMP and size >= wire.LEN_LAMP and draw(st.booleans()):
        body[9] = BOOT & 0xFF  # this boot's tag, so the lamp is read
    return wire.encode(msg_type, draw(st.integers(0, 255)), bytes(body))


@FUZZ
@given(st.booleans(), st.data())
def test_good_frames_saying_anything_raise_only_link_errors(
    board: bool, data: st.DataObject
) -> None:
    session: EventSession = connected_board() if board else connected_clock()
    kind = wire.KIND_SENSOR if board else wire.KIND_CLOCK
    now = 100
    for frame in data.draw(st.lists(odd_frames(kind), max_size=8)):
        now += data.draw(st.integers(0, 3000))
        try:
            session.receive_data(frame, now)
            session.poll(now)
        except LinkError:
            return  # documented: another board or protocol version; the caller stops
        assert session.last_evno <= session.known_latest or session.boot_id is None


@pytest.mark.parametrize("field", ["serial", "revision"])
def test_an_info_frame_with_a_serial_that_is_not_text_is_refused_cleanly(field: str) -> None:
    session = BoardSession(port_name="fuzz")
    session.connection_made(0)
    session.data_to_send()
    body = bytearray(info_body(wire.KIND_SENSOR))
    at = wire.INFO_SERIAL if field == "serial" else wire.INFO_REVISION
    body[at : at + 2] = b"\xff\xfe"
    assert session.receive_data(wire.encode(wire.T_INFO, 0, bytes(body)), 10) == []
    assert session.boot_id is None and session.info is None  # nothing learnt from it
    assert session.health.malformed == 1
    assert session.last_malformed.startswith(f"fuzz: INFO frame ignored: its {field} is not text")
    assert "ff fe" in session.last_malformed
    # the handshake goes on: HELLO again after the retry time, and a good INFO connects
    assert session.poll(10 + HELLO_RETRY_MS) == []
    assert session.data_to_send()[4] == wire.T_HELLO
    good = session.receive_data(wire.encode(wire.T_INFO, 1, info_body(wire.KIND_SENSOR)), 300)
    assert [type(e) for e in good] == [Connected] and session.boot_id == BOOT
