"""The opening procedures Wuzi runs, by name, and the designated-opening API.

Every procedure is a ``StagedOpening`` (``wuzi.rules.opening_stages``) built here from
stages; docs/openings.md lists each one's steps with its source. Names for configs:

========================  ===============================================================
``free``                  no opening procedure (``procedure.FreeOpening``)
``designated``            the opener places one of the 26 openings; White plays move 4
``swap-after-3``          designated + swap after move 3 (三手交换); White plays move 4
``chinese-2013``          designated + swap after move 3 + fifth-move offers (五手N打)
``rif-1996``              RIF 1996: designated + swap + W4 + two fifth-move offers
``yamaguchi``             designated with N declared + swap + W4 + N offers
``soosorv-N``             designated + swap + W4 with N' ≤ N declared + swap + N' offers
``taraguchi-N``           a swap right before each of moves 2–6, areas 3×3 … 9×9, or N offers
``swap2``                 Gomoku's Swap2 (B, W, B anywhere; stay, swap or two more stones)
========================  ===============================================================

The designated opening is chosen by a setting (``selection``): ``"opener"`` (the opener's
choice, any of the 26), ``"lot"`` (drawn: pass the drawn ``opening_id`` or a seeded
``random.Random`` as ``rng`` — nothing here draws on its own) or ``"referee"`` (pass
``opening_id``). With a fixed opening the stones must make it in some orientation; the
state records which (``opening_orientation``).
"""

from __future__ import annotations

import enum
import inspect
import random
import re
from collections.abc import Callable

from wuzi.rules.board import Colour
from wuzi.rules.designated import (
    BY_ID,
    CENTRAL_3X3,
    CENTRAL_5X5,
    DESIGNATED,
    PLACEMENTS,
    DesignatedMatch,
    DesignatedOpening,
    OpeningError,
    central_square,
    get_designated,
    identify_designated,
    match_designated,
)
from wuzi.rules.errors import RulesError
from wuzi.rules.opening_stages import (
    ChooseOffer,
    Decide,
    Declare,
    DesignatedStone,
    Offers,
    PlaceStone,
    Stage,
    StagedOpening,
    chose,
    swap_or_stay,
)
from wuzi.rules.opening_symmetry import check_mode
from wuzi.rules.procedure import FreeOpening, OpeningProcedure, Seat

__all__ = [
    "BY_ID",
    "CENTRAL_3X3",
    "CENTRAL_5X5",
    "DESIGNATED",
    "PLACEMENTS",
    "PROCEDURE_NAMES",
    "DesignatedMatch",
    "DesignatedOpening",
    "OpeningError",
    "OpeningSettingError",
    "Selection",
    "StagedOpening",
    "chinese_2013",
    "designated",
    "get_designated",
    "identify_designated",
    "make_procedure",
    "match_designated",
    "rif_1996",
    "soosorv",
    "swap2",
    "swap_after_three",
    "taraguchi",
    "yamaguchi",
]

B, W = Colour.BLACK, Colour.WHITE
OPENER = "the opener (first seat)"


class OpeningSettingError(RulesError):
    """A procedure asked for with settings that do not fit it (unknown name, bad N…)."""


class Selection(enum.Enum):
    """How the designated opening is chosen."""

    OPENER = "opener"  # the opener's choice, any of the 26
    LOT = "lot"  # drawn by lot before the game
    REFEREE = "referee"  # set by the referee (or the event) before the game

    @classmethod
    def parse(cls, value: Selection | str) -> Selection:
        if isinstance(value, Selection):
            return value
        try:
            return cls(str(value).strip().lower())
        except ValueError:
            raise OpeningSettingError(
                f"opening selection must be 'opener', 'lot' or 'referee', not {value!r}"
            ) from None


_SET_BY = {Selection.LOT: "drawn by lot", Selection.REFEREE: "set by the referee"}


def _selected(
    selection: Selection | str, opening_id: str | None, rng: random.Random | None
) -> tuple[Selection, DesignatedOpening | None]:
    how = Selection.parse(selection)
    if how is Selection.OPENER:
        if opening_id is not None or rng is not None:
            raise OpeningSettingError(
                "the opener's choice takes no opening_id or rng: use selection 'lot' or 'referee'"
            )
        return how, None
    if opening_id is not None:
        if rng is not None:
            raise OpeningSettingError("give the drawn opening_id or an rng to draw it, not both")
        try:
            return how, get_designated(opening_id)
        except OpeningError as exc:
            raise OpeningSettingError(str(exc)) from None
    if how is Selection.LOT and rng is not None:
        return how, rng.choice(DESIGNATED)
    need = "the drawn opening_id or an rng to draw it" if how is Selection.LOT else "opening_id"
    raise OpeningSettingError(f"an opening {_SET_BY[how]} needs {need}")


def _designated_stages(how: Selection, opening: DesignatedOpening | None) -> list[Stage]:
    set_by = _SET_BY.get(how, "")
    return [
        DesignatedStone(i, opening=opening, set_by=set_by, who=OPENER, actor=Seat.FIRST)
        for i in (1, 2, 3)
    ]


def _base_settings(how: Selection, opening: DesignatedOpening | None) -> dict[str, object]:
    settings: dict[str, object] = {"selection": how.value}
    if opening is not None:
        settings["opening_id"] = opening.id
    return settings


def _start(procedure: StagedOpening, how: Selection, opening: DesignatedOpening | None) -> None:
    """Record who sets the opening (and which it is, when known before the stones)."""
    procedure.state.opening_selection = how.value
    if opening is not None:
        procedure.state.opening_id = opening.id


def _n_setting(n: int | tuple[int, int] | list[int] | str) -> tuple[int, int]:
    """``2`` (fixed), ``(1, 5)``, ``[1, 5]`` or ``"1-5"`` (declared within the range)."""
    low: object
    high: object
    if isinstance(n, str):
        m = re.fullmatch(r"\s*([0-9]+)\s*(?:(?:-|–|\.\.)\s*([0-9]+)\s*)?", n)
        if m is None:
            raise OpeningSettingError(
                f"N must be a number such as 2 or a range such as 1-5, not {n!r}"
            )
        low = int(m.group(1))
        high = int(m.group(2)) if m.group(2) else low
    elif isinstance(n, bool):
        raise OpeningSettingError(f"N must be a number or a range, not {n!r}")
    elif isinstance(n, int):
        low = high = n
    elif isinstance(n, tuple | list) and len(n) == 2:
        low, high = n
    else:
        raise OpeningSettingError(f"N must be a number or a (low, high) range, not {n!r}")
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (low, high)):
        raise OpeningSettingError(f"N must be whole numbers, not {n!r}")
    if not 1 <= low <= high:
        raise OpeningSettingError(f"N must satisfy 1 <= low <= high, not {low}–{high}")
    return low, high


def _n_text(low: int, high: int) -> int | str:
    return low if low == high else f"{low}-{high}"


# --- the procedures ------------------------------------------------------------------


def designated(
    selection: Selection | str = "opener",
    *,
    opening_id: str | None = None,
    rng: random.Random | None = None,
) -> StagedOpening:
    """The opener places B1, W2 and B3 of a designated opening; then White plays move 4."""
    how, opening = _selected(selection, opening_id, rng)
    procedure = StagedOpening(
        "designated", _designated_stages(how, opening), settings=_base_settings(how, opening)
    )
    _start(procedure, how, opening)
    return procedure


def swap_after_three(
    selection: Selection | str = "opener",
    *,
    opening_id: str | None = None,
    rng: random.Random | None = None,
) -> StagedOpening:
    """Designated opening, then the player holding White may take Black (三手交换)."""
    how, opening = _selected(selection, opening_id, rng)
    stages = [*_designated_stages(how, opening), swap_or_stay(W, "swap-3", before="before move 4")]
    procedure = StagedOpening("swap-after-3", stages, settings=_base_settings(how, opening))
    _start(procedure, how, opening)
    return procedure


def _five_offers(
    name: str,
    how: Selection,
    opening: DesignatedOpening | None,
    n: tuple[int, int],
    symmetry: str,
    settings: dict[str, object],
) -> StagedOpening:
    """Designated; [the opener declares N]; swap; W4; Black offers N; White keeps one."""
    low, high = n
    stages: list[Stage] = _designated_stages(how, opening)
    declared = low != high
    if declared:
        stages.append(Declare(Seat.FIRST, low, high, who=OPENER))
    stages.append(swap_or_stay(W, "swap-3", before="before move 4"))
    stages.append(PlaceStone(W, W))
    stages.append(Offers(B, None if declared else low, symmetry=symmetry))
    stages.append(ChooseOffer(W))
    procedure = StagedOpening(name, stages, settings=settings)
    _start(procedure, how, opening)
    return procedure


def chinese_2013(
    selection: Selection | str = "opener",
    *,
    opening_id: str | None = None,
    rng: random.Random | None = None,
    n: int | tuple[int, int] | list[int] | str = 2,
    symmetry: str = "plane",
) -> StagedOpening:
    """The Chinese 2013 opening: designated opening (selection a setting), swap after move 3,
    fifth-move offers (五手N打). ``n`` fixed (default 2) or a range the opener declares from
    right after placing B3, before the swap decision."""
    how, opening = _selected(selection, opening_id, rng)
    low, high = _n_setting(n)
    settings = _base_settings(how, opening)
    settings.update(n=_n_text(low, high), symmetry=check_mode(symmetry))
    return _five_offers("chinese-2013", how, opening, (low, high), symmetry, settings)


def rif_1996(
    selection: Selection | str = "opener",
    *,
    opening_id: str | None = None,
    rng: random.Random | None = None,
    symmetry: str = "plane",
) -> StagedOpening:
    """RIF 1996: tentative Black places one of the 26, tentative White may swap, White plays
    move 4, Black offers two fifth moves, White keeps one and plays move 6."""
    how, opening = _selected(selection, opening_id, rng)
    settings = _base_settings(how, opening)
    settings.update(symmetry=check_mode(symmetry))
    return _five_offers("rif-1996", how, opening, (2, 2), symmetry, settings)


def yamaguchi(
    selection: Selection | str = "opener",
    *,
    opening_id: str | None = None,
    rng: random.Random | None = None,
    n: int | tuple[int, int] | list[int] | str = (1, 10),
    symmetry: str = "plane",
) -> StagedOpening:
    """Yamaguchi: tentative Black places one of the 26 and declares N (``n``, a range; the
    RIF text sets no bound, Wuzi's default is 1–10), swap, W4, N offers, White keeps one."""
    how, opening = _selected(selection, opening_id, rng)
    low, high = _n_setting(n)
    settings = _base_settings(how, opening)
    settings.update(n=_n_text(low, high), symmetry=check_mode(symmetry))
    return _five_offers("yamaguchi", how, opening, (low, high), symmetry, settings)


def soosorv(
    n: int = 8,
    selection: Selection | str = "opener",
    *,
    opening_id: str | None = None,
    rng: random.Random | None = None,
    symmetry: str = "plane",
) -> StagedOpening:
    """Soosõrv-N: one of the 26; swap; White plays move 4 and declares 1–N offers; the
    other player may swap; Black offers that many fifth moves; White keeps one."""
    low, high = _n_setting(n)
    if low != high:
        raise OpeningSettingError(f"Soosõrv-N takes one number N (the bound), not {n!r}")
    how, opening = _selected(selection, opening_id, rng)
    stages: list[Stage] = _designated_stages(how, opening)
    stages.append(swap_or_stay(W, "swap-3", before="before move 4"))
    stages.append(PlaceStone(W, W))
    stages.append(Declare(W, 1, high))
    stages.append(swap_or_stay(B, "swap-4", before="before the fifth move"))
    stages.append(Offers(B, None, symmetry=check_mode(symmetry)))
    stages.append(ChooseOffer(W))
    settings = _base_settings(how, opening)
    settings.update(symmetry=symmetry)
    procedure = StagedOpening(f"soosorv-{high}", stages, settings=settings)
    _start(procedure, how, opening)
    return procedure


def taraguchi(n: int = 10, *, symmetry: str = "plane") -> StagedOpening:
    """Taraguchi-N: a swap right before each of moves 2 to 6; B1 h8, W2 in the 3×3, B3 in
    the 5×5, W4 in the 7×7; then Black either plays move 5 in the 9×9 (with a swap right
    before and after it) or offers N fifth moves anywhere, of which White keeps one."""
    low, high = _n_setting(n)
    if low != high:
        raise OpeningSettingError(f"Taraguchi-N takes one number N, not {n!r}")
    single = chose("fifth", "swap", "stay")
    offers = chose("fifth", "offer")
    stages: list[Stage] = [
        DesignatedStone(1, actor=B),
        swap_or_stay(W, "swap-1", before="before move 2"),
        DesignatedStone(2, actor=W),
        swap_or_stay(B, "swap-2", before="before move 3"),
        DesignatedStone(3, actor=B),
        swap_or_stay(W, "swap-3", before="before move 4"),
        PlaceStone(W, W, area=central_square(7), area_text="inside the central 7×7"),
        Decide(
            B,
            "fifth",
            (
                ("swap", "take White; the opponent plays move 5 inside the central 9×9"),
                ("stay", "play move 5 inside the central 9×9"),
                ("offer", f"offer {high} fifth moves anywhere, White keeps one"),
            ),
            headline="before move 5",
            swap_on=("swap",),
        ),
        PlaceStone(B, B, area=central_square(9), area_text="inside the central 9×9", when=single),
        swap_or_stay(W, "swap-5", before="before move 6", when=single),
        Offers(B, high, symmetry=check_mode(symmetry), when=offers),
        ChooseOffer(W, when=offers),
    ]
    procedure = StagedOpening(f"taraguchi-{high}", stages, settings={"symmetry": symmetry})
    procedure.state.opening_selection = "players"  # each stone by whoever holds its colour
    return procedure


def swap2() -> StagedOpening:
    """Swap2 (Gomoku World Championship): the first player places B, W, B anywhere; the
    second plays Black, plays White (and move 4), or places W4 and B5 and lets the first
    player choose the colour; then White moves."""
    more = chose("swap2", "place-two")
    second = "the second seat"
    stages: list[Stage] = [
        PlaceStone(Seat.FIRST, B, who=OPENER),
        PlaceStone(Seat.FIRST, W, who=OPENER),
        PlaceStone(Seat.FIRST, B, who=OPENER),
        Decide(
            Seat.SECOND,
            "swap2",
            (
                ("black", "take Black; the opener, now White, plays move 4"),
                ("white", "keep White and play move 4"),
                ("place-two", "place moves 4 and 5, then the opener chooses the colour"),
            ),
            headline="swap2",
            swap_on=("black",),
            who=second,
        ),
        PlaceStone(Seat.SECOND, W, who=second, when=more),
        PlaceStone(Seat.SECOND, B, who=second, when=more),
        Decide(
            Seat.FIRST,
            "swap2-colour",
            (("black", "play Black"), ("white", "play White; White plays move 6")),
            headline="swap2 colour",
            swap_on=("white",),
            who=OPENER,
            when=more,
        ),
    ]
    return StagedOpening("swap2", stages)


# --- the registry ----------------------------------------------------------------------

_FIXED: dict[str, Callable[..., OpeningProcedure]] = {
    "free": FreeOpening,
    "designated": designated,
    "swap-after-3": swap_after_three,
    "chinese-2013": chinese_2013,
    "rif-1996": rif_1996,
    "yamaguchi": yamaguchi,
    "swap2": swap2,
}
_NUMBERED: dict[str, tuple[Callable[..., OpeningProcedure], int]] = {
    "soosorv": (soosorv, 4),  # the original Soosõrv rule is Soosõrv-4
    "taraguchi": (taraguchi, 5),  # the original Taraguchi rule offers five
}

PROCEDURE_NAMES = (*_FIXED, "soosorv-N", "taraguchi-N")
"""The names ``make_procedure`` knows (``N`` a number, e.g. ``soosorv-8``, ``taraguchi-10``)."""


def make_procedure(name: str, **settings: object) -> OpeningProcedure:
    """A fresh procedure by name, e.g. ``make_procedure("chinese-2013", n=2)``;
    ``make_procedure(p.name, **p.settings)`` rebuilds a fresh copy of procedure ``p``."""
    key = name.strip().lower().replace("õ", "o").replace("_", "-") if isinstance(name, str) else ""
    factory = _FIXED.get(key)
    if factory is None:
        m = re.fullmatch(r"(soosorv|taraguchi)(?:-(\d+))?", key)
        if m is None:
            known = ", ".join(PROCEDURE_NAMES)
            raise OpeningSettingError(f"unknown opening procedure {name!r}: known are {known}")
        numbered, default = _NUMBERED[m.group(1)]
        if "n" in settings:
            raise OpeningSettingError(f"{name!r}: N goes in the name, e.g. {m.group(1)}-8")
        settings = {**settings, "n": int(m.group(2)) if m.group(2) else default}
        factory = numbered
    try:
        inspect.signature(factory).bind(**settings)
    except TypeError as exc:
        raise OpeningSettingError(f"{name!r} does not take these settings: {exc}") from None
    return factory(**settings)
