"""Random play for virtual boards: stones on empty points, alternating colours, at a steady
pace with jitter; a full (or long) game is cleared and a new one begins. Used by the bench
(32 boards on one host) and by ``wuzi sim boards``."""

from __future__ import annotations

import random

from wuzi.link import wire
from wuzi.sim.devices.virtual_board import VirtualBoard


class RandomPlayer:
    def __init__(
        self, board: VirtualBoard, *, move_ms: int = 2000, max_stones: int = 120, seed: int = 0
    ) -> None:
        self.board = board
        self.move_ms = move_ms
        self.max_stones = max_stones
        self.rng = random.Random(seed)
        self.placed = 0
        self.next_ms: int | None = None

    def tick(self, now_ms: int) -> None:
        if self.next_ms is None:
            self.next_ms = now_ms + self.rng.randrange(self.move_ms)
        if now_ms < self.next_ms:
            return
        self.next_ms = now_ms + self.rng.randrange(self.move_ms // 2, self.move_ms * 3 // 2)
        cells = self.board.table.cells
        if self.placed >= self.max_stones:
            for p in range(wire.POINTS):
                if cells[p]:
                    self.board.set_cell(p, wire.EMPTY)
            self.placed = 0
            return
        empty = [p for p in range(wire.POINTS) if not cells[p]]
        colour = wire.BLACK if self.placed % 2 == 0 else wire.WHITE
        self.board.set_cell(self.rng.choice(empty), colour)
        self.placed += 1
