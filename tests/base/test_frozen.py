"""``wuzi.base.frozen.replace``: the object ``dataclasses.replace`` makes, for the plain
frozen dataclasses it accepts; every other class refused with the reason."""

from __future__ import annotations

import dataclasses
import pickle
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wuzi.base.frozen import replace
from wuzi.clock.control import parse_control
from wuzi.clock.machine import ClockState, initial_state
from wuzi.rules.procedure import Seat


@dataclasses.dataclass(frozen=True)
class Plain:
    a: int
    b: tuple[int, ...] = ()
    c: str | None = None


@given(
    st.integers(),
    st.lists(st.integers(), max_size=4).map(tuple),
    st.none() | st.text(max_size=5),
    st.sampled_from(["a", "b", "c"]),
)
def test_same_object_as_dataclasses_replace(
    a: int, b: tuple[int, ...], c: str | None, key: str
) -> None:
    before = Plain(1, (2,), "x")
    changes: dict[str, Any] = {key: {"a": a, "b": b, "c": c}[key]}
    ours, theirs = replace(before, **changes), dataclasses.replace(before, **changes)
    assert ours == theirs and hash(ours) == hash(theirs) and repr(ours) == repr(theirs)
    assert type(ours) is Plain and ours is not before
    assert before == Plain(1, (2,), "x")  # the original is untouched
    with pytest.raises(dataclasses.FrozenInstanceError):
        ours.a = 5  # type: ignore[misc]


def test_clock_state_copies_compare_and_pickle_like_dataclasses_ones() -> None:
    state = initial_state(parse_control("600+5"))
    ours = replace(state, started=True, turn=Seat.FIRST, t_ns=5)
    theirs = dataclasses.replace(state, started=True, turn=Seat.FIRST, t_ns=5)
    assert ours == theirs and isinstance(ours, ClockState)
    assert ours.running is Seat.FIRST
    assert pickle.loads(pickle.dumps(ours, protocol=5)) == theirs


def test_an_unknown_field_is_refused_by_name() -> None:
    with pytest.raises(TypeError, match="Plain has no field d, e"):
        replace(Plain(1), e=1, d=2)


@dataclasses.dataclass
class Mutable:
    a: int


@dataclasses.dataclass(frozen=True)
class Checked:
    a: int

    def __post_init__(self) -> None:
        if self.a < 0:
            raise ValueError("a must not be negative")


@dataclasses.dataclass(frozen=True, slots=True)
class Slotted:
    a: int


@dataclasses.dataclass(frozen=True)
class Derived:
    a: int
    b: int = dataclasses.field(init=False, default=0)


class NotADataclass:
    a = 1


@pytest.mark.parametrize(
    ("obj", "why"),
    [
        (Mutable(1), "not frozen"),
        (Checked(1), "__post_init__"),
        (Slotted(1), "__slots__"),
        (Derived(1), "__init__ does not set"),
        (NotADataclass(), "not a dataclass"),
    ],
)
def test_classes_a_dict_copy_would_not_rebuild_are_refused(obj: object, why: str) -> None:
    with pytest.raises(TypeError, match=why):
        replace(obj, a=2)
