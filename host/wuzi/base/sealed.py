"""``SealedList``: an append-only list whose older items a pickle keeps sealed until read.

A table session keeps every input it accepted and every output it made (about ten objects
a move): the inputs because a refused referee command is undone by replaying them, the
outputs because they are the table's record. A host restart loads each table's snapshot
(``wuzi.host.snapshot``), and unpickling those two lists was half of it: ~0.6 ms a
200-move game on a development machine, ~15 ms of a 24-table recovery, four times that on
a Pi 4 (docs/performance.md). Yet after a restart nothing reads them but the newest items
(the outputs not yet handed out) until a referee command is refused, if ever.

So a ``SealedList`` pickles as the pickled bytes of its items, in chunks: unpickling it
copies bytes and builds no item; the items are unpickled at the first read that reaches
back into them. Appends and reads of what was appended since never unseal the rest.
Pickling seals the items appended since the last pickle into one more chunk (the list
reads the same), so a snapshot taken every few moves pickles only the new items again.

Sealed items are separate objects once unsealed: an item that was also referenced from
elsewhere in the same pickle comes back as an equal copy, not the same object. The bytes
are unpickled, so they must come from where the whole pickle came from (the host's own
journal: see ``wuzi.host.snapshot``).
"""

from __future__ import annotations

import pickle
from collections.abc import Iterable, Iterator
from typing import Generic, TypeVar

__all__ = ["SealedList"]

T = TypeVar("T")

MAX_CHUNKS = 64
"""Sealing merges every chunk into one past this many, so a very long session's pickle
stays a handful of large chunks, not hundreds of small ones."""


class SealedList(Generic[T]):
    """A list that can only grow; reads by index start (``since``) or iteration."""

    __slots__ = ("_chunks", "_sealed_count", "_tail", "_unsealed")

    def __init__(self, items: Iterable[T] = ()) -> None:
        self._chunks: list[bytes] = []  # pickled lists of the first _sealed_count items
        self._sealed_count = 0
        self._unsealed: list[T] | None = []  # those items, once read (None: not yet)
        self._tail: list[T] = list(items)  # the items after them

    def append(self, item: T) -> None:
        self._tail.append(item)

    def extend(self, items: Iterable[T]) -> None:
        self._tail.extend(items)

    def __len__(self) -> int:
        return self._sealed_count + len(self._tail)

    def since(self, index: int) -> list[T]:
        """The items from ``index`` on (``index`` ≥ 0): unseals nothing if they were all
        appended since the last pickle."""
        if index < 0:
            raise ValueError(f"index must be at least 0, not {index}")
        if index >= self._sealed_count:
            return self._tail[index - self._sealed_count :]
        return self._read()[index:] + self._tail

    def __iter__(self) -> Iterator[T]:
        yield from self._read()
        yield from self._tail

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SealedList):
            return NotImplemented
        return len(self) == len(other) and list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"SealedList({list(self)!r})"

    def _read(self) -> list[T]:
        """The sealed items, unpickled once."""
        if self._unsealed is None:
            items: list[T] = []
            for chunk in self._chunks:
                items += pickle.loads(chunk)  # trusted as the whole pickle is: see above
            self._unsealed = items
        return self._unsealed

    def __reduce__(self) -> tuple[object, tuple[tuple[bytes, ...], int]]:
        """Pickled as its chunks, after sealing what was appended since the last pickle."""
        if self._tail:
            if len(self._chunks) >= MAX_CHUNKS:
                self._chunks = [pickle.dumps(self._read(), protocol=5)]
            self._chunks.append(pickle.dumps(self._tail, protocol=5))
            if self._unsealed is not None:
                self._unsealed += self._tail
            self._sealed_count += len(self._tail)
            self._tail = []
        return (_restore, (tuple(self._chunks), self._sealed_count))


def _restore(chunks: tuple[bytes, ...], count: int) -> SealedList[object]:
    """A pickled ``SealedList``, its items still sealed."""
    restored: SealedList[object] = SealedList()
    restored._chunks = list(chunks)
    restored._sealed_count = count
    restored._unsealed = None
    return restored
