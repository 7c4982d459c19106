"""``replace`` for the frozen dataclasses of a hot path: a copy with some fields changed.

The clock's state is immutable: every input makes a new ``ClockState`` (and ``SideState``)
with ``dataclasses.replace``, about seven per input. That runs the class's ``__init__``,
which sets each field through ``object.__setattr__`` (the class is frozen): 2.4 µs a call
on a development machine, ~10 µs on a Pi 4, and a host recovering 24 tables replays ~2,200
of them (docs/performance.md). A copy of the instance's ``__dict__`` with the changes over
it makes the same object in 0.5 µs.

It is only the same object for a *plain* frozen dataclass: every field set by
``__init__`` from its argument, no ``__post_init__`` (nothing to validate or derive), no
``__slots__`` (the fields live in ``__dict__``). Each class is checked once, at its first
``replace``, and any other is refused with a ``TypeError`` that says why; a change naming
no field is refused like ``dataclasses.replace`` refuses it.
"""

from __future__ import annotations

import dataclasses
from typing import TypeVar

__all__ = ["replace"]

T = TypeVar("T")

_FIELDS: dict[type, frozenset[str]] = {}
"""The field names of each class ``replace`` has accepted."""


def replace(obj: T, /, **changes: object) -> T:
    """A copy of the plain frozen dataclass instance ``obj`` with ``changes`` applied,
    as ``dataclasses.replace`` makes it, without running ``__init__``."""
    cls = type(obj)
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = _plain_fields(cls)
    if not names.issuperset(changes):
        unknown = sorted(set(changes) - names)
        raise TypeError(f"{cls.__name__} has no field {', '.join(unknown)}")
    new = object.__new__(cls)
    state = new.__dict__
    state.update(obj.__dict__)
    state.update(changes)
    return new


def _plain_fields(cls: type) -> frozenset[str]:
    """The fields of ``cls``, or a TypeError if a copy of its ``__dict__`` would not be
    the object its ``__init__`` makes."""
    name = cls.__name__
    if not dataclasses.is_dataclass(cls):
        raise TypeError(f"replace: {name} is not a dataclass")
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen:
        raise TypeError(f"replace: {name} is not frozen (change it in place)")
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"replace: {name} has a __post_init__ (use dataclasses.replace)")
    if any("__slots__" in vars(k) for k in cls.__mro__):
        raise TypeError(f"replace: {name} has __slots__ (use dataclasses.replace)")
    fields = dataclasses.fields(cls)
    if any(not f.init for f in fields):
        raise TypeError(f"replace: {name} has fields __init__ does not set")
    return frozenset(f.name for f in fields)
