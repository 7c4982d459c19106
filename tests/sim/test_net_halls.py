"""Two halls' real Mosquittos bridged to a central one, each through its own delaying proxy:
a message crosses from hall to hall over the lines' delay, a cut line (reset or blackhole)
stops it, and on restore the bridge reconnects and the queued QoS 1 messages arrive."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from wuzi.sim.net.delay import OneWayDelay
from wuzi.sim.net.halls import (
    BridgedHalls,
    HallLine,
    Tap,
    inbound_patterns,
    minimal_bridge_block,
    probe_topic,
)
from wuzi.sim.net.proxy import CutMode

TOPIC = "link/t1/input"


@pytest.fixture(scope="module")
def halls(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BridgedHalls]:
    with BridgedHalls(tmp_path_factory.mktemp("halls")) as started:
        yield started


@pytest.fixture
def taps(halls: BridgedHalls) -> Iterator[tuple[Tap, Tap]]:
    """A client on hall A's broker, and one on hall B's that hears the linked topics."""
    for name in ("a", "b"):  # a test that cut a line restores it; wait until it is back
        halls.wait_line_up(name, 10)
    a = Tap(halls.hall("a").url)
    b = Tap(halls.hall("b").url, ["link/#"])
    yield a, b
    a.close()
    b.close()


def _wait_for(tap: Tap, payload: bytes, timeout_s: float) -> int | None:
    deadline = time.monotonic() + timeout_s
    while (arrived := tap.arrival_ns(TOPIC, payload)) is None and time.monotonic() < deadline:
        time.sleep(0.005)
    return arrived


def test_the_minimal_block_is_a_persistent_bridge_through_the_proxy() -> None:
    block = minimal_bridge_block(HallLine("a", ("127.0.0.1", 4242), ("link/#", "x/+")))
    lines = block.splitlines()
    assert lines[0] == "connection bridge-hall-a"
    for wanted in (
        "address 127.0.0.1:4242",
        "remote_clientid bridge-hall-a",
        "cleansession false",
        "restart_timeout 1 1",
        "topic link/# both 1",
        "topic x/+ both 1",
    ):
        assert wanted in lines
    assert not any(line.startswith("notifications") for line in lines)  # the harness's own


def test_a_message_crosses_from_hall_to_hall_over_both_lines(
    halls: BridgedHalls, taps: tuple[Tap, Tap], capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = taps
    transits_ms = []
    for i in range(10):
        payload = f"m{i}".encode()
        sent_ns = a.publish(TOPIC, payload)
        arrived_ns = _wait_for(b, payload, 5)
        assert arrived_ns is not None, f"{payload!r} never reached hall B"
        transits_ms.append((arrived_ns - sent_ns) / 1e6)
    transits_ms.sort()
    with capsys.disabled():
        print(f"\nhall A -> central -> hall B over 2 x 37.5 ms +- 7.5: {transits_ms} ms")
    # sanity, not a figure: both lines' delays were applied (at least 2 x 30 ms), and the
    # message did not wait for a retry
    assert transits_ms[0] >= 60 and transits_ms[-1] < 1000
    for name in ("a", "b"):
        stats = halls.hall(name).proxy.stats()
        assert stats["up"] is not None and stats["down"] is not None


@pytest.mark.parametrize("mode", [CutMode.DROP, CutMode.BLACKHOLE])
def test_a_cut_line_holds_messages_until_it_is_restored(
    halls: BridgedHalls, taps: tuple[Tap, Tap], mode: CutMode
) -> None:
    a, b = taps
    for cut_hall in ("b", "a"):  # queued at the central broker, then at hall A's own
        payloads = [f"{mode}-{cut_hall}-{i}".encode() for i in range(3)]
        halls.hall(cut_hall).proxy.cut(mode)
        for payload in payloads:
            a.publish(TOPIC, payload)  # hall A's broker takes it (PUBACK) whatever the line
        assert _wait_for(b, payloads[-1], 1.0) is None, "a message crossed a cut line"
        if mode is CutMode.DROP:
            assert not halls.line_up(cut_hall)  # the bridge's will said so at the centre
        halls.hall(cut_hall).proxy.restore()
        for payload in payloads:
            assert _wait_for(b, payload, 5.0) is not None, f"{payload!r} lost in the cut"
        halls.wait_line_up(cut_hall, 5)
        got = [p for p in b.payloads(TOPIC) if p in payloads]
        assert got == payloads  # once each, in order


def test_a_bridge_block_from_elsewhere_goes_in_through_the_seam(tmp_path: Path) -> None:
    given: list[HallLine] = []

    def generated(line: HallLine) -> str:  # as wuzi venue broker-config's: no notices
        given.append(line)
        return "# from the generator\n" + minimal_bridge_block(line) + "notifications false\n"

    with BridgedHalls(
        tmp_path, halls=("north",), line=OneWayDelay(1), topics=("t/#",), bridge_block=generated
    ) as one:
        hall = one.hall("north")
        assert given == [HallLine("north", ("127.0.0.1", hall.proxy.port), ("t/#",))]
        assert "# from the generator" in hall.broker.config_path.read_text()
        assert one.line_up("north")


def test_halls_that_cannot_be_are_named(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="distinct"):
        BridgedHalls(tmp_path, halls=("a", "a"))
    with pytest.raises(ValueError, match=r"unknown halls \['c'\]"):
        BridgedHalls(tmp_path, lines={"c": OneWayDelay(1)})
    with pytest.raises(KeyError, match="no hall 'z'"):
        BridgedHalls(tmp_path).hall("z")


def test_the_probes_follow_the_inbound_topics_of_any_block() -> None:
    block = "\n".join(
        [
            "connection central",
            "topic wuzi/v1/hall-a/line/board-1/# out 1",
            "topic wuzi/v1/hall-b/line/board-1/# in 1",
            "topic link/+/x both 1",
            "topic only/out",
        ]
    )
    assert inbound_patterns(block) == ("wuzi/v1/hall-b/line/board-1/#", "link/+/x")
    assert probe_topic("link/+/x") == "link/wuzi-sim-probe/x"
    assert probe_topic("wuzi/v1/hall-b/#") == "wuzi/v1/hall-b/wuzi-sim-probe"


def test_a_bridge_that_never_comes_up_is_named(tmp_path: Path) -> None:
    def nowhere(line: HallLine) -> str:  # a block with the wrong address: no central there
        return minimal_bridge_block(HallLine(line.hall, ("127.0.0.1", 9), line.topics))

    with pytest.raises(RuntimeError, match=r"hall east's bridge did not come up within 1\.0 s"):
        BridgedHalls(tmp_path, halls=("east",), bridge_block=nowhere, start_timeout_s=1.0).start()
