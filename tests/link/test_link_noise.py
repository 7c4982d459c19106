"""A noisy line is not a broken one (issue 32): damaged frames are a sign of life, the
link is down only when nothing at all arrives, and the noise is told once with its rate.
Sessions and the firmware on a manual clock (``support.boards.Bench``): milliseconds."""

from __future__ import annotations

import random

from support.boards import Bench
from wuzi.link import wire
from wuzi.link.board_link import LINE_NOISY
from wuzi.link.noise import CLEAN_SAMPLES, NOISY_PCT, SAMPLE_FRAMES, LineNoisy, NoiseMeter
from wuzi.link.reconciler import LINK_DOWN, Alert
from wuzi.link.session import (
    LINK_GARBLED_MS,
    LINK_TIMEOUT_MS,
    PROBE_IDLE_MS,
    STALL_AFTER_MS,
    STALL_AFTER_NOISY_MS,
    ClockSession,
    LinkDown,
)
from wuzi.rules.board import parse_point
from wuzi.sim.devices.virtual_board import Faults


def _damaged(data: bytes) -> bytes:
    """Every frame in ``data`` with one bit of its CRC flipped: each arrives, none whole."""
    out = bytearray(data)
    i = 0
    while i < len(out):
        n = out[i + 1] + wire.OVERHEAD
        out[i + n - 1] ^= 0x01
        i += n
    return bytes(out)


def _downs(b: Bench) -> list[Alert]:
    return [e for e in b.events if isinstance(e, Alert) and e.kind == LINK_DOWN]


def test_a_stream_of_damaged_frames_keeps_the_link_up_and_silence_takes_it_down() -> None:
    b = Bench()
    b.step(300)
    assert b.link.link_up
    b.to_host = _damaged  # heartbeats every 200 ms, every one with a bad CRC
    b.step(LINK_GARBLED_MS - 300)  # the last whole frame came up to 200 ms before
    assert _downs(b) == [] and b.link.link_up
    assert b.link.session.health.crc_errors >= (LINK_GARBLED_MS - 300) // 200
    b.to_host = lambda data: data
    b.step(1000)
    b.to_host = lambda data: b""  # nothing at all: the line is cut
    b.step(LINK_TIMEOUT_MS + 10)
    [down] = _downs(b)
    assert down.detail == f"silent for {LINK_TIMEOUT_MS} ms"


def test_a_line_whose_every_frame_is_damaged_is_down_after_the_garbled_window() -> None:
    b = Bench()
    b.step(300)
    b.to_host = _damaged
    b.step(LINK_GARBLED_MS + 200)
    [down] = _downs(b)
    assert down.detail.startswith("garbled: board sends only damaged frames (none read whole")


def test_a_bit_error_rate_of_1e_3_both_ways_never_downs_the_link_and_stones_come_through() -> None:
    """Three minutes of a line at 1e-3 with 1 % of frames dropped each way, a stone every
    1.5 s: no link_down, no stall, every stone in order, and one noisy-line alert."""
    b = Bench()
    up = Faults(ber=1e-3, drop=0.01, seed=1)
    down = Faults(ber=1e-3, drop=0.01, seed=2)
    b.to_host = lambda data: b"".join(up.outgoing(data)) if data else data
    b.to_mcu = down.incoming
    b.step(500)
    rng = random.Random(3)
    points = rng.sample(range(wire.POINTS), 40)
    for n, point in enumerate(points):
        b.table.cells[point] = 1 + n % 2
        b.step(1500)
    b.step(180_000 - 40 * 1500)
    assert _downs(b) == [] and b.link.session.health.stalls == 0
    assert [wire_point for wire_point, _ in b.stones()] == [
        "abcdefghijklmno"[p % 15] + str(p // 15 + 1) for p in points
    ]
    noisy = [e for e in b.events if isinstance(e, Alert) and e.kind == LINE_NOISY]
    assert len(noisy) == 1 and "% of frames corrupted" in noisy[0].detail
    assert up.flipped_bits > 200  # the line really was noisy


def test_a_stalled_board_on_a_noisy_line_is_still_found() -> None:
    """Noise explains an unanswered HELLO for a while, not for ever: a board that stops
    reading on a noisy line is stalled after ``STALL_AFTER_NOISY_MS``."""
    b = Bench()
    b.step(300)
    b.table.cells[parse_point("h8")] = 1
    b.step(400)
    faults = Faults(ber=1e-3, seed=4)
    b.to_host = lambda data: faults.corrupt(data)
    b.to_mcu = lambda data: b""
    b.step(PROBE_IDLE_MS + STALL_AFTER_MS + 500)
    assert _downs(b) == []  # damaged frames came: not yet
    b.step(STALL_AFTER_NOISY_MS - STALL_AFTER_MS)
    [down] = _downs(b)
    assert down.detail.startswith("stalled: board takes no command")


def test_a_clock_unit_session_is_alive_while_damaged_bytes_arrive() -> None:
    c = ClockSession(port_name="/dev/wuzi/clock-1")
    c.connection_made(0)
    body = bytearray(wire.LEN_INFO)
    body[wire.INFO_MAJOR], body[wire.INFO_MINOR] = wire.PROTOCOL_MAJOR, wire.PROTOCOL_MINOR
    body[wire.INFO_KIND] = wire.KIND_CLOCK
    wire.put_u32(body, wire.INFO_BOOT, 5)
    wire.put_text(body, wire.INFO_SERIAL, "SIMCLK-0001", wire.SERIAL_LEN)
    c.receive_data(wire.encode(wire.T_INFO, 0, bytes(body)), 10)
    assert c.link_up
    heartbeat = wire.encode(wire.T_HEARTBEAT, 1, bytes(wire.LEN_HEARTBEAT))
    for t in range(210, 2210, 200):
        assert c.receive_data(_damaged(heartbeat), t) == []
        assert not [e for e in c.poll(t + 100) if isinstance(e, LinkDown)]
    assert c.link_up
    [down] = [e for e in c.poll(2010 + LINK_TIMEOUT_MS) if isinstance(e, LinkDown)]
    assert down == LinkDown(2010 + LINK_TIMEOUT_MS, LINK_TIMEOUT_MS)


def test_the_noise_meter_tells_once_per_episode_with_its_rate() -> None:
    meter = NoiseMeter()
    assert meter.count(SAMPLE_FRAMES - 17, 16, 100) is None  # one short of a sample
    told = meter.count(1, 0, 200)
    assert told == LineNoisy(200, 16, SAMPLE_FRAMES - 16)
    assert told.pct == 100 * 16 / SAMPLE_FRAMES >= NOISY_PCT
    assert told.text == f"8.0 % of frames corrupted (16 of {SAMPLE_FRAMES})"
    for _ in range(5):  # still noisy: not told again
        assert meter.count(SAMPLE_FRAMES - 40, 40, 300) is None
    for _ in range(CLEAN_SAMPLES - 1):  # clean, but not for long enough
        assert meter.count(SAMPLE_FRAMES, 0, 400) is None
    assert meter.count(SAMPLE_FRAMES - 40, 40, 500) is None  # noisy again: the same episode
    for _ in range(CLEAN_SAMPLES):
        assert meter.count(SAMPLE_FRAMES, 0, 600) is None
    assert meter.count(SAMPLE_FRAMES - 40, 40, 700) == LineNoisy(700, 40, SAMPLE_FRAMES - 40)


def test_a_little_noise_is_not_told() -> None:
    meter = NoiseMeter()
    for _ in range(50):  # 2 % of frames damaged (a bit error rate of about 1e-4), or 7 %
        assert meter.count(SAMPLE_FRAMES - 4, 4, 0) is None
        assert meter.count(SAMPLE_FRAMES - 14, 14, 0) is None
