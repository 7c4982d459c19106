"""The final's direct places (000 五(三)1), from last year's men's and women's team results.

The clause: 2020年全国五子棋锦标赛的男女团体前4名队伍可直接进入决赛阶段，男队女队均获得名额
的可按男子团体第五名、女子团体第五名、男子团体第六名……的顺序顺延，各代表队最多获得1个名
额，共8支队伍直接进入决赛。 — the men's and the women's team top 4 enter the final directly;
where a unit's men's and women's teams both earned a place, the place passes on in the
order men's 5th, women's 5th, men's 6th, …; each unit (代表队) gets at most one place; 8
teams in all.

So the places go by unit, and what the clause orders is one list walked from the top:
men's 1st, women's 1st, men's 2nd, women's 2nd, … — a unit's first entry in that walk is
its place, a later entry of the same unit is skipped, and the walk goes on until all
places are given. The fall-through order the clause spells out (男五、女五、男六……) is
exactly this walk past the 4th places, and walking the top 4 the same way (men's k-th
before women's k-th) gives the same eight units as taking the two top-4 lists one after
the other, because every top-4 entry comes before the first 5th place either way; the
interleaved order is chosen because it is the one the clause itself writes, so the whole
list follows one rule, and it decides which entry a unit is credited with (its best place;
the men's at equal places), which is what the output shows.

``places`` (default 8) is split evenly: the top ``places / 2`` of each list, then the
fall-through. Too few distinct units for the places is an error, never a short list.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from wuzi.base.numbers import NumberError, parse_int
from wuzi.tournament.csvfile import check_cell, csv_records
from wuzi.tournament.errors import CsvError, SettingsError
from wuzi.tournament.names import NAME_MAX

DIRECT_PLACES = 8
MEN = "men"
WOMEN = "women"


@dataclass(frozen=True)
class Placing:
    """One line of last year's result: ``place`` in the ``list`` (men / women), ``unit``."""

    list: str
    place: int
    unit: str
    line: int = 0  # the line of the CSV it was read from


@dataclass(frozen=True)
class DirectPlace:
    """A chosen unit, by the placing that earned it; ``passed_on`` when the place came to
    it because a unit above had a place already."""

    unit: str
    placing: Placing
    passed_on: bool

    @property
    def detail(self) -> str:
        return f"{self.placing.list} {self.placing.place}"


@dataclass(frozen=True)
class Skipped:
    """A placing whose unit already had a place: its place passes on."""

    placing: Placing
    holder: Placing


def walk_order(men: Sequence[Placing], women: Sequence[Placing]) -> list[Placing]:
    """Men's 1st, women's 1st, men's 2nd, women's 2nd, … (a list that ends early just stops
    contributing)."""
    by_men = sorted(men, key=lambda p: p.place)
    by_women = sorted(women, key=lambda p: p.place)
    order: list[Placing] = []
    for k in range(max(len(by_men), len(by_women))):
        order.extend(lst[k] for lst in (by_men, by_women) if k < len(lst))
    return order


def direct_qualifiers(
    men: Sequence[Placing],
    women: Sequence[Placing],
    places: int = DIRECT_PLACES,
    source: str = "the two lists",
) -> tuple[list[DirectPlace], list[Skipped]]:
    """The chosen units in the order they were chosen, and the placings passed over.

    ``SettingsError`` for an odd or non-positive ``places``; ``CsvError`` naming ``source``
    (the files and their lines) when the lists hold fewer distinct units than ``places``."""
    if places < 2 or places % 2:
        raise SettingsError(
            f"--places {places}: the direct places are split evenly between the men's and "
            "the women's top teams (000 五(三)1: 4 and 4), so give an even number"
        )
    top = places // 2
    chosen: list[DirectPlace] = []
    skipped: list[Skipped] = []
    holder: dict[str, Placing] = {}
    for placing in walk_order(men, women):
        if len(chosen) == places:
            break
        if placing.unit in holder:
            skipped.append(Skipped(placing, holder[placing.unit]))
            continue
        holder[placing.unit] = placing
        chosen.append(DirectPlace(placing.unit, placing, placing.place > top))
    if len(chosen) < places:
        units = len(holder)
        raise CsvError(
            f"{source} hold {units} different units; {places} direct places need "
            f"{places} (000 五(三)1: one place per unit)"
        )
    return chosen, skipped


def parse_placings(lines: Iterable[str], list_name: str, what: str) -> list[Placing]:
    """A results CSV with the header ``place,unit`` (other columns are ignored): places
    1, 2, … each once; every error names ``what`` (the option and the file), the line and
    the column."""
    records = csv_records(lines, what)
    if not records or not any(c.strip() for c in records[0][1]):
        raise CsvError(f"{what} line 1: expected the header place,unit")
    raw = records[0][1]
    raw = [raw[0].removeprefix("\ufeff"), *raw[1:]]
    for i, cell in enumerate(raw, start=1):
        check_cell(what, 1, f"header {i}", cell, NAME_MAX)
    header = [h.strip().lower() for h in raw]
    for column in ("place", "unit"):
        if header.count(column) != 1:
            problem = "named twice in" if header.count(column) else "missing from"
            raise CsvError(
                f"{what} line 1: the column {column!r} is {problem} the header "
                f"({', '.join(header)}); the header is place,unit"
            )
    at_place, at_unit = header.index("place"), header.index("unit")
    placings: list[Placing] = []
    seen: dict[int, int] = {}
    for line, row in records[1:]:
        if not any(c.strip() for c in row):
            continue
        cells = [*row, *[""] * (len(header) - len(row))]
        place_text, unit = cells[at_place].strip(), cells[at_unit]
        check_cell(what, line, "unit", unit, NAME_MAX)
        unit = unit.strip()
        if not unit:
            raise CsvError(f"{what} line {line}, column 'unit': the unit is empty")
        try:
            place = parse_int(place_text, "place", 0, 99_999)
        except NumberError as exc:
            raise CsvError(f"{what} line {line}, column 'place': {exc}") from None
        if place < 1:
            raise CsvError(f"{what} line {line}, column 'place': places start at 1, not {place}")
        if place in seen:
            raise CsvError(
                f"{what} line {line}, column 'place': place {place} is already on line "
                f"{seen[place]} (a shared place leaves the order of passing on open)"
            )
        seen[place] = line
        placings.append(Placing(list_name, place, unit, line))
    if not placings:
        raise CsvError(f"{what}: no places after the header")
    for expected, placing in enumerate(sorted(placings, key=lambda p: p.place), start=1):
        if placing.place != expected:
            raise CsvError(
                f"{what} line {placing.line}, column 'place': place {placing.place} follows "
                f"place {expected - 1}; there is no place {expected} (the places run 1, 2, … "
                "without a gap)"
            )
    return placings


def read_units(lines: Iterable[str], what: str) -> list[tuple[int, str]]:
    """The units of a list as ``direct-qualifiers`` prints it (``unit[,detail]`` a line,
    no header), each with its line."""
    units: list[tuple[int, str]] = []
    seen: dict[str, int] = {}
    for line, row in csv_records(lines, what):
        if not row or not row[0].strip():
            continue
        unit = row[0].removeprefix("\ufeff") if line == 1 else row[0]
        check_cell(what, line, "unit", unit, NAME_MAX)
        unit = unit.strip()
        if unit in seen:
            raise CsvError(f"{what} line {line}: unit {unit!r} is already on line {seen[unit]}")
        seen[unit] = line
        units.append((line, unit))
    if not units:
        raise CsvError(f"{what}: no units (one a line, as direct-qualifiers prints them)")
    return units
