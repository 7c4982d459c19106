"""Pieces of the venue files the simulator writes (the demos', the benches' and the test
boxes'): one text for what they all write alike, so that a venue file's form is changed
in one place. Pure text; `wuzi.config.venue` is what reads it."""

from __future__ import annotations

__all__ = ["table_toml"]


def table_toml(number: int, board: str, clock: str) -> list[str]:
    """One ``[[hosts.tables]]`` entry of a venue file: the table and its devices' ports."""
    return [
        "  [[hosts.tables]]",
        f"  number = {number}",
        f'  board_port = "{board}"',
        f'  clock_port = "{clock}"',
    ]
