"""A knockout that decides every place, seeding, byes, and the semifinal cross pairing.

The final of the team championship is a *placement* knockout: 16 teams, 4 rounds; the
round-1 winners play on for places 1–8 and the losers for 9–16; then 1–4, 5–8, 9–12 and
13–16; and so on until every place is set. Here that is a list of *pools*: a pool holds the
entrants still playing for a range of places, in bracket order; each round pairs every
pool's neighbours (slot 1 v 2, 3 v 4, …) and splits it into the winners' pool (the upper
half of its places) and the losers' pool (the lower half).

Seeding follows the usual bracket (``bracket_order``): 1 v 16, 8 v 9, 4 v 13, 5 v 12, 2 v 15,
7 v 10, 3 v 14, 6 v 11, so seeds 1 and 2 can only meet in the final. A field that is not a
power of two is filled up with byes at the bottom seeds: a bye loses to everyone (its
opponent goes through without a game) and final places are counted over real entrants
only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from wuzi.tournament.errors import PairingError, SettingsError


def bracket_order(size: int) -> list[int]:
    """Seeds (1-based) in bracket slot order for a power-of-two ``size``."""
    if size < 1 or size & (size - 1):
        raise SettingsError(f"a bracket has a power-of-two size, not {size}")
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return order


def bracket_size(entrants: int) -> int:
    """The power of two a field of ``entrants`` is filled up to with byes."""
    if entrants < 2:
        raise SettingsError(f"a knockout needs at least 2 entrants, not {entrants}")
    size = 1
    while size < entrants:
        size *= 2
    return size


def round_count(entrants: int) -> int:
    return bracket_size(entrants).bit_length() - 1


@dataclass(frozen=True)
class Pool:
    """Entrants still playing for places ``first_place`` … ``first_place + len(slots) - 1``;
    ``None`` is a bye."""

    first_place: int
    slots: tuple[str | None, ...]

    @property
    def last_place(self) -> int:
        return self.first_place + len(self.slots) - 1


@dataclass(frozen=True)
class KnockoutMatch:
    """One match of a round: ``first`` is the earlier bracket slot (the higher seed in
    round 1) and is the first mover / has Black in game 1."""

    round: int
    number: int
    first_place: int
    last_place: int
    first: str | None
    second: str | None

    @property
    def is_bye(self) -> bool:
        return self.first is None or self.second is None

    @property
    def walkover_winner(self) -> str | None:
        """The entrant that goes through without a game when the other side is a bye."""
        return self.first if self.second is None else self.second


def initial_pools(seeds: Sequence[str]) -> tuple[Pool, ...]:
    """Round 1's single pool: ``seeds`` (best first) in bracket order, byes at the bottom."""
    if len(set(seeds)) != len(seeds):
        raise SettingsError("a knockout's seeding lists an entrant twice")
    size = bracket_size(len(seeds))
    slots = tuple(seeds[s - 1] if s <= len(seeds) else None for s in bracket_order(size))
    return (Pool(1, slots),)


def round_matches(pools: Sequence[Pool], number: int) -> list[KnockoutMatch]:
    """The matches of round ``number``, pool by pool (best places first); bye-v-bye
    slots are numbered too so the order never depends on the field size."""
    matches: list[KnockoutMatch] = []
    for pool in sorted(pools, key=lambda p: p.first_place):
        if len(pool.slots) < 2:
            continue
        for k in range(0, len(pool.slots), 2):
            matches.append(
                KnockoutMatch(
                    number,
                    len(matches) + 1,
                    pool.first_place,
                    pool.last_place,
                    pool.slots[k],
                    pool.slots[k + 1],
                )
            )
    return matches


def next_pools(
    pools: Sequence[Pool], number: int, winners: Mapping[int, str | None]
) -> tuple[Pool, ...]:
    """The pools after round ``number``; ``winners`` maps every real match's number to
    its winner (byes and bye-v-bye slots are resolved here)."""
    result: list[Pool] = []
    matches = iter(round_matches(pools, number))
    for pool in sorted(pools, key=lambda p: p.first_place):
        if len(pool.slots) < 2:
            result.append(pool)
            continue
        up: list[str | None] = []
        down: list[str | None] = []
        for _ in range(len(pool.slots) // 2):
            match = next(matches)
            if match.first is None and match.second is None:
                up.append(None)
                down.append(None)
                continue
            if match.is_bye:
                winner = match.walkover_winner
            else:
                if match.number not in winners or winners[match.number] is None:
                    raise PairingError(
                        f"round {number} match {match.number} ({match.first} v "
                        f"{match.second}) has no winner yet"
                    )
                winner = winners[match.number]
                if winner not in (match.first, match.second):
                    raise PairingError(
                        f"round {number} match {match.number}: {winner!r} did not play in it"
                    )
            loser = match.second if winner == match.first else match.first
            up.append(winner)
            down.append(loser)
        half = len(pool.slots) // 2
        result.append(Pool(pool.first_place, tuple(up)))
        result.append(Pool(pool.first_place + half, tuple(down)))
    return tuple(result)


def final_places(pools: Sequence[Pool]) -> dict[str, int]:
    """Places once every pool holds one slot; byes are dropped and the places closed up."""
    if any(len(p.slots) != 1 for p in pools):
        raise PairingError("the knockout is not finished: some places are still open")
    ordered = [p.slots[0] for p in sorted(pools, key=lambda p: p.first_place)]
    real = [e for e in ordered if e is not None]
    return {entrant: place + 1 for place, entrant in enumerate(real)}


def place_ranges(pools: Sequence[Pool]) -> dict[str, tuple[int, int]]:
    """For every real entrant, the places still open to it (closed up over byes)."""
    ranges: dict[str, tuple[int, int]] = {}
    place = 1
    for pool in sorted(pools, key=lambda p: p.first_place):
        members = [s for s in pool.slots if s is not None]
        for member in members:
            ranges[member] = (place, place + len(members) - 1)
        place += len(members)
    return ranges


def cross_pairing(group_a: Sequence[str], group_b: Sequence[str]) -> list[tuple[str, str]]:
    """The semifinal: A#k v B#(n+1−k) — A#1 v B#8, A#2 v B#7, … A#8 v B#1 for 8 each.

    Each group is given in its ranking order; the A team is named first.
    """
    if len(group_a) != len(group_b):
        raise SettingsError(
            f"the cross pairing needs groups of one size, not {len(group_a)} and {len(group_b)}"
        )
    if set(group_a) & set(group_b):
        shared = sorted(set(group_a) & set(group_b))[0]
        raise SettingsError(f"{shared!r} is ranked in both groups")
    n = len(group_a)
    return [(group_a[k], group_b[n - 1 - k]) for k in range(n)]
