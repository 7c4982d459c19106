"""The processes a process started, read from /proc: for tests that check a command
leaves nothing running behind it."""

from __future__ import annotations

from pathlib import Path

__all__ = ["alive", "descendants"]


def _parents() -> dict[int, int]:
    """pid -> parent pid of every process now."""
    out: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:  # gone meanwhile
            continue
        fields = stat.rsplit(")", 1)[1].split()  # after "(comm)": state, ppid, ...
        out[int(entry.name)] = int(fields[1])
    return out


def descendants(pid: int) -> set[int]:
    """Every process below ``pid`` now (children, their children, ...)."""
    parents = _parents()
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier}
        frontier -= found
        found |= frontier
    return found


def alive(pid: int) -> bool:
    """Whether ``pid`` is a running process (a zombie awaiting its reaping is not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"
