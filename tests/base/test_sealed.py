"""``SealedList``: a list that reads as a list, and whose pickle builds no item until read."""

from __future__ import annotations

import pickle
from dataclasses import dataclass
from typing import ClassVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wuzi.base.sealed import MAX_CHUNKS, SealedList


@dataclass(frozen=True)
class Counted:
    """An item that counts how often it is unpickled."""

    value: int
    built: ClassVar[list[int]] = []

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (_build, (self.value,))


def _build(value: int) -> Counted:
    Counted.built.append(value)
    return Counted(value)


def _roundtrip(items: SealedList[Counted]) -> SealedList[Counted]:
    restored: SealedList[Counted] = pickle.loads(pickle.dumps(items, protocol=5))
    return restored


@pytest.fixture(autouse=True)
def _no_counts() -> None:
    Counted.built.clear()


operations = st.lists(
    st.one_of(
        st.tuples(st.just("append"), st.integers(0, 99)),
        st.tuples(st.just("extend"), st.lists(st.integers(0, 99), max_size=4)),
        st.tuples(st.just("pickle"), st.none()),
        st.tuples(st.just("since"), st.integers(0, 30)),
    ),
    max_size=40,
)


@given(operations)
def test_it_reads_as_the_list_of_what_was_appended(ops: list[tuple[str, object]]) -> None:
    model: list[Counted] = []
    sealed: SealedList[Counted] = SealedList()
    for op, arg in ops:
        if op == "append":
            assert isinstance(arg, int)
            model.append(Counted(arg))
            sealed.append(Counted(arg))
        elif op == "extend":
            assert isinstance(arg, list)
            model.extend(Counted(v) for v in arg)
            sealed.extend(Counted(v) for v in arg)
        elif op == "pickle":
            sealed = _roundtrip(sealed)
        else:
            assert isinstance(arg, int)
            assert sealed.since(arg) == model[arg:]
        assert len(sealed) == len(model)
    assert list(sealed) == model
    assert sealed == _roundtrip(sealed)
    rebuilt: SealedList[Counted] = SealedList(model)
    assert sealed == rebuilt


def test_a_pickle_builds_no_item_until_a_read_reaches_back_into_them() -> None:
    sealed = SealedList(Counted(v) for v in range(10))
    restored = _roundtrip(sealed)
    restored.append(Counted(10))
    assert len(restored) == 11
    assert restored.since(10) == [Counted(10)]
    again = _roundtrip(restored)  # pickled again: the old chunk is copied, not rebuilt
    assert again.since(11) == []
    assert Counted.built == []
    assert again.since(9) == [Counted(9), Counted(10)]
    assert sorted(Counted.built) == list(range(11))  # each item built once
    assert list(again) == [Counted(v) for v in range(11)]
    assert len(Counted.built) == 11


def test_pickling_does_not_change_what_it_reads() -> None:
    sealed = SealedList([Counted(1)])
    pickle.dumps(sealed)
    sealed.append(Counted(2))
    pickle.dumps(sealed)
    assert list(sealed) == [Counted(1), Counted(2)]
    assert sealed.since(1) == [Counted(2)]
    assert Counted.built == []  # the live list keeps its own items


def test_a_long_session_keeps_a_bounded_number_of_chunks() -> None:
    sealed: SealedList[Counted] = SealedList()
    for value in range(3 * MAX_CHUNKS):
        sealed.append(Counted(value))
        sealed = _roundtrip(sealed)
    _, (chunks, count) = sealed.__reduce__()
    assert count == 3 * MAX_CHUNKS
    assert len(chunks) <= MAX_CHUNKS + 1
    assert list(sealed) == [Counted(v) for v in range(3 * MAX_CHUNKS)]


def test_a_negative_start_is_refused() -> None:
    with pytest.raises(ValueError, match="index must be at least 0, not -1"):
        SealedList([1]).since(-1)


def test_it_is_not_hashable_and_not_equal_to_a_plain_list() -> None:
    with pytest.raises(TypeError):
        hash(SealedList([1]))
    assert SealedList([1]) != [1]
