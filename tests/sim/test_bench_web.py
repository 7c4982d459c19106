"""``wuzi bench web``: the viewers' MQTT and WebSocket framing and the percentile (pure),
and a quick run that prints every figure in the one-line format (real Mosquitto brokers, real
WebSocket viewers, a real ``wuzi web``; no timing thresholds)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wuzi.sim.bench.cli import run_area
from wuzi.sim.bench.mqtt_frames import (
    CONNACK,
    PUBLISH,
    FrameError,
    connect_packet,
    decode_remaining_length,
    encode_remaining_length,
    percentile,
    publish_packet,
    publish_topic_payload,
    split_packets,
    subscribe_packet,
    take_packets,
)
from wuzi.sim.bench.ws_frames import (
    BINARY,
    PING,
    WsFrame,
    accept_key,
    client_frame,
    handshake_request,
    read_handshake,
    take_frames,
)


def test_the_connect_of_an_anonymous_viewer_is_mqtt_3_1_1() -> None:
    packet = connect_packet("v-1", keepalive_s=300)
    # CONNECT, length 15: "MQTT", level 4, clean session, keep-alive 300, id "v-1"
    assert packet == b"\x10\x0f\x00\x04MQTT\x04\x02\x01\x2c\x00\x03v-1"


def test_subscribe_carries_its_required_flags_and_qos() -> None:
    assert subscribe_packet(1, "a/#") == b"\x82\x08\x00\x01\x00\x03a/#\x00"
    with pytest.raises(FrameError):
        subscribe_packet(0, "a/#")


@pytest.mark.parametrize(
    ("length", "encoded"),
    [(0, b"\x00"), (127, b"\x7f"), (128, b"\x80\x01"), (16_383, b"\xff\x7f"),
     (2_097_152, b"\x80\x80\x80\x01"), (268_435_455, b"\xff\xff\xff\x7f")],
)  # fmt: skip
def test_the_remaining_length_matches_the_standard_s_table(length: int, encoded: bytes) -> None:
    assert encode_remaining_length(length) == encoded
    assert decode_remaining_length(encoded, 0) == (length, len(encoded))


def test_bad_lengths_are_named() -> None:
    with pytest.raises(FrameError, match="outside"):
        encode_remaining_length(268_435_456)
    with pytest.raises(FrameError, match="four bytes"):
        decode_remaining_length(b"\x80\x80\x80\x80\x01", 0)
    with pytest.raises(FrameError, match="cut short"):
        split_packets(b"\x30\x80")
    with pytest.raises(FrameError, match="has only"):
        split_packets(b"\x30\x05\x00\x01a")


@given(st.text(min_size=1, max_size=300), st.binary(max_size=20_000), st.booleans())
def test_a_publish_splits_back_into_its_topic_and_payload(
    topic: str, payload: bytes, retain: bool
) -> None:
    two = publish_packet(topic, payload, retain) + b"\x20\x02\x00\x00"  # and a CONNACK
    first, second = split_packets(two)
    assert (first.kind, first.flags & 1, second.kind) == (PUBLISH, int(retain), CONNACK)
    assert publish_topic_payload(first) == (topic, payload)


def test_a_qos_1_publish_skips_its_packet_id() -> None:
    (packet,) = split_packets(b"\x32\x08\x00\x01t\x00\x07abc")
    assert publish_topic_payload(packet) == ("t", b"abc")


def test_packets_cut_across_frames_wait_for_their_rest() -> None:
    whole = publish_packet("t/1", b"x" * 300) + publish_packet("t/2", b"y")
    for cut in range(len(whole) + 1):
        first, rest = take_packets(whole[:cut])
        second, left = take_packets(rest + whole[cut:])
        assert left == b""
        assert [publish_topic_payload(p)[0] for p in first + second] == ["t/1", "t/2"]
    with pytest.raises(FrameError, match="four bytes"):
        take_packets(b"\x30\xff\xff\xff\xff\x01")


def test_the_accept_key_is_rfc_6455_s_example() -> None:
    assert accept_key("dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="


def test_the_handshake_asks_for_mqtt_and_checks_the_answer() -> None:
    key = "dGhlIHNhbXBsZSBub25jZQ=="
    request = handshake_request("127.0.0.1", 9001, "/mqtt", key).decode()
    assert request.startswith("GET /mqtt HTTP/1.1\r\n") and request.endswith("\r\n\r\n")
    assert "Sec-WebSocket-Protocol: mqtt\r\n" in request and f"Sec-WebSocket-Key: {key}" in request
    answer = (b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
              b"Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n\x82\x00")  # fmt: skip
    assert read_handshake(answer[:40], key) == (False, answer[:40])
    assert read_handshake(answer, key) == (True, b"\x82\x00")
    with pytest.raises(FrameError, match="did not switch"):
        read_handshake(b"HTTP/1.1 403 Forbidden\r\n\r\n", key)
    with pytest.raises(FrameError, match="does not match"):
        read_handshake(answer.replace(b"s3pP", b"AAAA"), key)


@pytest.mark.parametrize("size", [0, 5, 125, 126, 65_535, 65_536])
def test_a_client_frame_is_masked_and_unmasks_to_its_payload(size: int) -> None:
    payload = bytes(range(256)) * (size // 256) + bytes(range(size % 256))
    frame = client_frame(payload, b"\x01\x02\x03\x04")
    assert frame[0] == 0x80 | BINARY and frame[1] & 0x80  # final, binary, masked
    header = 2 + (2 if 126 <= size < 65_536 else 8 if size >= 65_536 else 0)
    assert frame[header : header + 4] == b"\x01\x02\x03\x04"
    masked = frame[header + 4 :]
    assert bytes(b ^ (i % 4 + 1) for i, b in enumerate(masked)) == payload


def test_server_frames_are_taken_whole_and_a_cut_one_waits() -> None:
    big = b"z" * 70_000
    wire = b"\x82\x03abc" + b"\x89\x00" + b"\x82\x7e\x01\x00" + b"q" * 256
    wire += b"\x82\x7f" + len(big).to_bytes(8, "big") + big
    frames, rest = take_frames(wire)
    assert rest == b""
    assert frames == [WsFrame(BINARY, True, b"abc"), WsFrame(PING, True, b""),
                      WsFrame(BINARY, True, b"q" * 256), WsFrame(BINARY, True, big)]  # fmt: skip
    for cut in (1, 3, 6, 9, 12):
        got, left = take_frames(wire[:cut])
        assert sum(len(f.payload) + 2 for f in got) + len(left) == cut
    with pytest.raises(FrameError, match="masked"):
        take_frames(b"\x82\x81\x00\x00\x00\x00a")


def test_the_percentile_is_a_measured_value_by_nearest_rank() -> None:
    samples = [float(v) for v in range(1, 101)]
    assert percentile(samples, 0.99) == 99.0
    assert percentile(samples, 0.29) == 29.0  # 0.29 * 100 is 28.999… in floating point
    assert percentile(samples, 1.0) == 100.0
    assert percentile([5.0, 1.0], 0.5) == 1.0
    assert percentile([7.0], 0.0) == 7.0
    with pytest.raises(ValueError, match="no samples"):
        percentile([], 0.5)


@pytest.mark.bench
def test_the_web_bench_prints_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_area("web", quick=True)
    figures = {}
    for line in capsys.readouterr().out.splitlines():
        bench, name, value, unit = line.split()
        assert bench == "BENCH"
        figures[name] = (float(value), unit)
    assert {name: unit for name, (_v, unit) in figures.items()} == {
        "web.fanout_p50_ms_20": "ms",
        "web.fanout_p99_ms_20": "ms",
        "web.broker_rss_mb_20": "MB",
        "web.broker_cpu_ms_per_event_20": "ms",
        "web.broker_rss_mb_per_1000_viewers": "MB",
        "web.idle_sockets_held": "sockets",
        "web.new_viewer_load_max_ms": "ms",
        "web.server_stop_ms": "ms",
    }
    assert figures["web.fanout_p99_ms_20"][0] > 0 and figures["web.broker_rss_mb_20"][0] > 0
