"""The outbox reports sent keys only as a prefix of publish order, whatever order acks come in."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from wuzi.bus.outbox import Outbox


def test_a_later_ack_waits_for_the_earlier_one() -> None:
    box = Outbox()
    a, b = box.add("a"), box.add("b")
    assert box.bind(a, 10) == []
    assert box.bind(b, 11) == []
    assert box.acknowledge(11) == []  # b is acked but a is not: nothing is sent yet
    assert box.pending() == ["a", "b"]
    assert box.acknowledge(10) == ["a", "b"]
    assert box.pending() == [] and len(box) == 0


def test_an_ack_before_the_mid_is_recorded_still_counts() -> None:
    box = Outbox()
    a = box.add("a")
    assert box.acknowledge(7) == []  # PUBACK raced ahead of bind
    assert box.bind(a, 7) == ["a"]


def test_a_duplicate_ack_reports_nothing_twice() -> None:
    box = Outbox()
    box.bind(box.add("a"), 1)
    assert box.acknowledge(1) == ["a"]
    box.bind(box.add("b"), 2)
    assert box.acknowledge(2) == ["b"]


@given(st.data())
def test_any_ack_order_reports_every_key_once_in_order(data: st.DataObject) -> None:
    count = data.draw(st.integers(0, 40))
    box = Outbox()
    keys = [f"k{i}" for i in range(count)]
    sequences = [box.add(key) for key in keys]
    early = data.draw(st.sets(st.sampled_from(range(count)))) if count else set()
    reported: list[str] = []
    for index in early:
        reported += box.acknowledge(1000 + index)
    for index, sequence in enumerate(sequences):
        reported += box.bind(sequence, 1000 + index)
    rest = [index for index in range(count) if index not in early]
    for index in data.draw(st.permutations(rest)):
        assert reported == keys[: len(reported)]
        reported += box.acknowledge(1000 + index)
    assert reported == keys
    assert box.pending() == []


def test_a_settled_entry_counts_as_acknowledged_in_its_place() -> None:
    """A superseded message that never went out (`BusClient._flush_held`) neither blocks
    the keys after it nor reports before the ones ahead of it."""
    box = Outbox()
    a, b, c = box.add("a"), box.add(""), box.add("c")
    box.bind(a, 1)
    box.bind(c, 3)
    assert box.acknowledge(3) == []
    assert box.settle(b) == []  # "a" still waits for its PUBACK
    assert box.acknowledge(1) == ["a", "", "c"]
    assert len(box) == 0
