"""Round robin by the Berger tables (FIDE C.05 Annex 1), single or double.

With ``n`` entrants (pairing numbers 1..n; an odd field gets a dummy ``n + 1`` whose
opponent has the bye) there are ``n - 1`` rounds for even ``n``. In round ``r`` the entrant
``n`` meets ``p = ((r - 1) · n/2) mod (n - 1) + 1`` — as the second-named in odd rounds, the
first-named in even ones — and board ``k`` (2 … n/2) pairs ``p + k - 1`` with ``p - k + 1``,
counted round ``1 … n - 1``. The first-named has Black (game 1 of a two-game round). So round
1 is 1–n, 2–(n-1), …; every pair meets exactly once; nobody's colours differ by more than
one, nor does anyone get the same colour three times running.

A double round robin plays the table twice, the second time with the colours reversed.
"""

from __future__ import annotations

from wuzi.tournament.errors import SettingsError

BergerRound = list[tuple[int, int | None]]


def berger_rounds(entrants: int, double: bool = False) -> list[BergerRound]:
    """Every round as ``(first, second)`` pairing numbers; ``second`` None is a bye."""
    if entrants < 2:
        raise SettingsError(f"a round robin needs at least 2 entrants, not {entrants}")
    n = entrants + entrants % 2
    dummy = n if entrants % 2 else None
    rounds: list[BergerRound] = []
    for r in range(1, n):
        p = ((r - 1) * (n // 2)) % (n - 1) + 1
        pairs: list[tuple[int, int]] = [(p, n) if r % 2 else (n, p)]
        for k in range(2, n // 2 + 1):
            pairs.append((_wrap(p + k - 1, n - 1), _wrap(p - k + 1, n - 1)))
        rounds.append([_bye(a, b, dummy) for a, b in pairs])
    if double:
        rounds += [[(b, a) if b is not None else (a, None) for a, b in rnd] for rnd in rounds]
    return rounds


def round_count(entrants: int, double: bool = False) -> int:
    n = entrants + entrants % 2
    return (n - 1) * (2 if double else 1)


def _wrap(value: int, size: int) -> int:
    return (value - 1) % size + 1


def _bye(a: int, b: int, dummy: int | None) -> tuple[int, int | None]:
    if a == dummy:
        return (b, None)
    if b == dummy:
        return (a, None)
    return (a, b)
