"""``wuzi.base.codecache``: the kept code of dataclass methods makes the very classes that
compiling their texts makes; a file of another interpreter, a damaged file or no file
changes nothing; texts not in the file are compiled as before."""

from __future__ import annotations

import dataclasses
import importlib
import marshal
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from wuzi.base import codecache

PROBE = textwrap.dedent(
    """
    from dataclasses import InitVar, dataclass, field


    @dataclass(frozen=True)
    class Point:
        x: int
        y: int = 3
        tags: tuple[str, ...] = ()


    @dataclass(order=True)
    class Book:
        title: str
        pages: list[int] = field(default_factory=list)
        scale: InitVar[int] = 1

        def __post_init__(self, scale: int) -> None:
            self.pages = [p * scale for p in self.pages]
    """
)


@pytest.fixture
def probe(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A package ``cc_probe`` with one module of dataclasses, importable afresh; the
    ``dataclasses`` module as this test found it, whatever the test installs."""
    package = tmp_path / "cc_probe"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "shapes.py").write_text(PROBE)
    monkeypatch.syspath_prepend(str(tmp_path))
    if "exec" in vars(dataclasses):
        monkeypatch.delitem(vars(dataclasses), "exec")
    yield "cc_probe"
    for name in ("cc_probe", "cc_probe.shapes"):
        sys.modules.pop(name, None)
    monkeypatch.delitem(vars(dataclasses), "exec", raising=False)


def _fresh(name: str) -> Any:
    sys.modules.pop(name, None)
    importlib.invalidate_caches()
    return importlib.import_module(name)


def test_cached_code_makes_the_same_classes(probe: str, tmp_path: Path) -> None:
    path = tmp_path / "cache.marshal"
    assert codecache.write_cache([probe], path) > 0
    assert "exec" not in vars(dataclasses)  # writing leaves dataclasses as it was
    compiled = _fresh(f"{probe}.shapes")

    assert codecache.install(path) == 1
    assert codecache.installed()
    assert codecache.install(path) == 0  # once per process
    cached = _fresh(f"{probe}.shapes")
    assert cached is not compiled

    for name in ("Point", "Book"):
        a, b = getattr(compiled, name), getattr(cached, name)
        for method in ("__init__", "__repr__", "__eq__"):
            fa, fb = getattr(a, method), getattr(b, method)
            assert fa.__code__.co_code == fb.__code__.co_code
            assert fa.__code__.co_flags == fb.__code__.co_flags
            # repr: each import makes its own InitVar[int], which has no __eq__
            assert repr(fa.__annotations__) == repr(fb.__annotations__)
            assert fa.__defaults__ == fb.__defaults__
    point = cached.Point(1)
    assert repr(point) == "Point(x=1, y=3, tags=())"
    assert point == cached.Point(1, 3) and hash(point) == hash(cached.Point(1, 3))
    with pytest.raises(dataclasses.FrozenInstanceError):
        point.x = 2
    book = cached.Book("t", [1, 2], 3)
    assert book.pages == [3, 6] and cached.Book("a") < cached.Book("b")
    assert cached.Book("x").pages is not cached.Book("x").pages  # the factory runs each time


def test_a_text_not_in_the_cache_is_compiled(probe: str, tmp_path: Path) -> None:
    path = tmp_path / "cache.marshal"
    codecache.write_cache([probe], path)
    codecache.install(path)

    @dataclasses.dataclass
    class Fresh:
        only_here: int = 7

    assert Fresh() == Fresh(7) and repr(Fresh()).endswith("Fresh(only_here=7)")


def test_a_foreign_damaged_or_missing_file_is_no_cache(probe: str, tmp_path: Path) -> None:
    path = tmp_path / "cache.marshal"
    codecache.write_cache([probe], path)
    header, blobs = marshal.loads(path.read_bytes())
    assert len(codecache.load_cache(path)) == 1

    other = tmp_path / "other.marshal"
    other.write_bytes(marshal.dumps(((header[0], b"\0\0\r\n", header[2]), blobs)))
    assert len(codecache.load_cache(other)) == 0  # another interpreter's bytecode
    other.write_bytes(marshal.dumps(((header[0] + 1, header[1], header[2]), blobs)))
    assert len(codecache.load_cache(other)) == 0  # another layout
    other.write_bytes(path.read_bytes()[:100])
    assert len(codecache.load_cache(other)) == 0  # truncated
    assert len(codecache.load_cache(tmp_path / "none.marshal")) == 0
    assert codecache.install(tmp_path / "none.marshal") == 0
    assert not codecache.installed()

    # a module whose own table is damaged: its classes are compiled, nothing fails
    other.write_bytes(marshal.dumps((header, {f"{probe}.shapes": b"\xff\x00"})))
    assert codecache.install(other) == 1
    shapes = _fresh(f"{probe}.shapes")
    assert shapes.Point(1) == shapes.Point(1, 3)


def test_the_cache_path_is_named_for_this_interpreter() -> None:
    path = codecache.cache_path()
    assert path is not None and sys.implementation.cache_tag in path.name
    assert path.parent.name == "__pycache__"
