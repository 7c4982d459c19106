"""``wuzi host`` starts without cyclic garbage collection, then freezes what the start
built and collects again as before — also when the start fails."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from wuzi.host.cli import _no_collection_while_starting


@pytest.fixture(autouse=True)
def _collector_as_found() -> Iterator[None]:
    enabled = gc.isenabled()
    yield
    gc.unfreeze()
    if enabled:
        gc.enable()
    else:
        gc.disable()


def test_no_collection_while_starting_then_frozen_and_collecting() -> None:
    gc.enable()
    gc.unfreeze()
    with _no_collection_while_starting():
        assert not gc.isenabled()
        built = [[] for _ in range(10)]
    assert gc.isenabled()
    assert gc.get_freeze_count() > 0  # what the start built is out of the collector's way
    assert built


def test_a_failed_start_collects_again() -> None:
    gc.enable()
    with pytest.raises(RuntimeError), _no_collection_while_starting():
        raise RuntimeError("the journal cannot be opened")
    assert gc.isenabled()


def test_a_process_that_had_no_collection_keeps_none() -> None:
    gc.disable()
    gc.unfreeze()
    with _no_collection_while_starting():
        pass
    assert not gc.isenabled()
    assert gc.get_freeze_count() == 0
