"""The building blocks of opening procedures: stages, and the procedure that runs them.

A procedure is a sequence of stages; each stage is one kind of step — a stone, a swap
decision, a declared number, a run of offers, the choice of an offer — played by a seat
or by *whoever holds a colour when the step comes* (after a swap that is the other seat).
A stage may apply only after some decision (``when=chose("swap2", "place-two")``), which
is how Swap2 and Taraguchi branch. ``StagedOpening.step()`` is the first applicable stage's
current step; ``place``/``choose``/``decide``/``declare`` check the event against that
step and either apply it completely or raise, leaving everything as it was.

The named procedures (Chinese 2013, RIF 1996, Yamaguchi, Soosõrv-N, Taraguchi-N, Swap2…)
are put together from these stages in ``wuzi.rules.openings``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

from wuzi.rules.board import CENTRE, POINTS, Colour, Point, point_name, sort_key
from wuzi.rules.designated import (
    CENTRAL_5X5,
    NEIGHBOURS,
    PLACEMENTS,
    DesignatedOpening,
)
from wuzi.rules.errors import IllegalMoveError, InvalidPointError, OccupiedPointError
from wuzi.rules.opening_symmetry import (
    Isometry,
    check_mode,
    equivalence,
    equivalent_points,
    pattern_symmetries,
)
from wuzi.rules.procedure import Action, OpeningEvent, OpeningProcedure, Seat, Step

Actor = Seat | Colour
"""Who acts at a stage: a fixed seat, or whoever holds that colour when the step comes."""

Condition = Callable[["StagedOpening"], bool]


def chose(key: str, *choices: str) -> Condition:
    """A stage condition: the decision ``key`` was one of ``choices``."""

    def condition(procedure: StagedOpening) -> bool:
        return procedure.decision(key) in choices

    return condition


def point_list(points: Iterable[Point]) -> str:
    """``g7, g9, i7``: points by column, then row."""
    return ", ".join(point_name(p) for p in sorted(points, key=sort_key))


class Stage:
    """One kind of step of a procedure. Subclasses say what the step is and apply events."""

    action: Action

    def __init__(self, actor: Actor, *, who: str | None = None, when: Condition | None = None):
        self.actor = actor
        self._who = who
        self.when = when

    def applies(self, procedure: StagedOpening) -> bool:
        return self.when is None or self.when(procedure)

    def seat(self, procedure: StagedOpening) -> Seat:
        return self.actor if isinstance(self.actor, Seat) else procedure.seat_of(self.actor)

    def who(self, procedure: StagedOpening) -> str:
        """``White (second seat)``, ``the opener (first seat)``…, for the descriptions."""
        if self._who is not None:
            return self._who
        seat = self.seat(procedure)
        if isinstance(self.actor, Colour):
            return f"{self.actor.label.capitalize()} ({seat.value} seat)"
        return f"the {seat.value} seat ({procedure.colour_of(seat).label})"

    def step(self, procedure: StagedOpening) -> Step:  # pragma: no cover - abstract
        raise NotImplementedError


class PlaceStone(Stage):
    """One stone that stays, of a given colour, inside an area (None: anywhere)."""

    action = Action.PLACE

    def __init__(
        self,
        actor: Actor,
        colour: Colour,
        *,
        area: frozenset[Point] | None = None,
        area_text: str = "anywhere",
        who: str | None = None,
        when: Condition | None = None,
    ):
        super().__init__(actor, who=who, when=when)
        self.colour = colour
        self._area = area
        self._area_text = area_text

    def area(self, procedure: StagedOpening) -> frozenset[Point] | None:
        return self._area

    def where(self, procedure: StagedOpening) -> str:
        """Where the stone may go, for the description: ``inside the central 7×7``."""
        return self._area_text

    def refusal(self, procedure: StagedOpening, p: Point) -> str:
        """Why ``p`` (empty, not in the area) is refused."""
        return f"{point_name(p)} is not {self._area_text}"

    def after(self, procedure: StagedOpening) -> None:
        """Called once the stone stands (e.g. to recognise the designated opening)."""

    def allowed(self, procedure: StagedOpening) -> frozenset[Point] | None:
        area = self.area(procedure)
        if area is None:
            return None
        cells = procedure.state.board.cells
        return frozenset(p for p in area if not cells[p])

    def step(self, procedure: StagedOpening) -> Step:
        n = len(procedure.state.moves) + 1
        return Step(
            seat=self.seat(procedure),
            action=Action.PLACE,
            colour=self.colour,
            allowed=self.allowed(procedure),
            description=(
                f"move {n}: {self.who(procedure)} places a {self.colour.label} stone "
                f"{self.where(procedure)}"
            ),
        )

    def place(self, procedure: StagedOpening, step: Step, p: Point) -> bool:
        state = procedure.state
        if state.board.cells[p]:
            raise OccupiedPointError(f"{step.description}: {point_name(p)} is already occupied")
        area = self.area(procedure)
        if area is not None and p not in area:
            raise IllegalMoveError(f"{step.description}: {self.refusal(procedure, p)}")
        state.board.place(p, self.colour)
        state.moves.append((p, self.colour))
        state.events.append(OpeningEvent(step.seat, Action.PLACE, point=p, colour=self.colour))
        self.after(procedure)
        return True


class DesignatedStone(PlaceStone):
    """B1, W2 or B3 of a designated opening: h8; a neighbour of h8; the central 5×5 — or,
    when the opening is fixed (drawn by lot or set by the referee), the points that make
    that opening in some orientation. Placing B3 records the opening and its orientation."""

    def __init__(
        self,
        index: int,
        *,
        opening: DesignatedOpening | None = None,
        set_by: str = "",
        actor: Actor = Seat.FIRST,
        who: str | None = None,
        when: Condition | None = None,
    ):
        if index not in (1, 2, 3):
            raise ValueError(f"a designated opening has stones 1, 2 and 3, not {index}")
        colour = Colour.WHITE if index == 2 else Colour.BLACK
        super().__init__(actor, colour, who=who, when=when)
        self.index = index
        self.opening = opening
        self.set_by = set_by

    def area(self, procedure: StagedOpening) -> frozenset[Point]:
        if self.index == 1:
            return frozenset({CENTRE})
        if self.opening is None:
            return NEIGHBOURS if self.index == 2 else CENTRAL_5X5
        placements = self.opening.orientations()
        if self.index == 2:
            return frozenset(w2 for _, w2, _ in placements)
        w2_placed = procedure.state.moves[1][0]
        return frozenset(b3 for _, w2, b3 in placements if w2 == w2_placed)

    def where(self, procedure: StagedOpening) -> str:
        if self.index == 1:
            return "on h8"
        if self.opening is None:
            if self.index == 2:
                return "next to h8 (one of its 8 neighbours)"
            return "inside the central 5×5, choosing the opening"
        how = f" ({self.set_by})" if self.set_by else ""
        return f"for {self.opening.label}{how}: {point_list(self.allowed(procedure) or ())}"

    def refusal(self, procedure: StagedOpening, p: Point) -> str:
        name = point_name(p)
        if self.index == 1:
            return f"{name} is not h8: the first stone goes on the centre"
        if self.opening is None:
            if self.index == 2:
                return f"{name} does not touch h8"
            return f"{name} is outside the central 5×5"
        if self.index == 2:
            return f"{name} does not make {self.opening.id} in any orientation"
        w2 = point_name(procedure.state.moves[1][0])
        return f"{name} does not make {self.opening.id} with W2 on {w2}"

    def after(self, procedure: StagedOpening) -> None:
        if self.index != 3:
            return
        state = procedure.state
        b1, w2, b3 = (p for p, _ in state.moves[:3])
        match = PLACEMENTS.get((b1, w2, b3))
        if match is not None:  # always: every legal placement is one of the 26
            state.opening_id = match.opening.id
            state.opening_orientation = match.symmetry


class Decide(Stage):
    """A decision among named choices; some of them exchange the seats' colours."""

    action = Action.DECIDE

    def __init__(
        self,
        actor: Actor,
        key: str,
        choices: Sequence[tuple[str, str]],
        *,
        headline: str,
        swap_on: Iterable[str] = (),
        who: str | None = None,
        when: Condition | None = None,
    ):
        super().__init__(actor, who=who, when=when)
        self.key = key
        self.choices = tuple(choices)
        self.headline = headline
        self.swap_on = frozenset(swap_on)

    def step(self, procedure: StagedOpening) -> Step:
        options = ", ".join(f"'{name}' ({meaning})" for name, meaning in self.choices)
        return Step(
            seat=self.seat(procedure),
            action=Action.DECIDE,
            choices=tuple(name for name, _ in self.choices),
            description=f"{self.headline}: {self.who(procedure)} decides: {options}",
        )

    def decide(self, procedure: StagedOpening, step: Step, choice: str) -> bool:
        if choice not in step.choices:
            allowed = " or ".join(repr(c) for c in step.choices)
            raise IllegalMoveError(f"{step.description}: {choice!r} is not {allowed}")
        state = procedure.state
        procedure._decisions[self.key] = choice
        state.events.append(OpeningEvent(step.seat, Action.DECIDE, choice=choice))
        if choice in self.swap_on:
            state.colours = {
                Seat.FIRST: state.colours[Seat.SECOND],
                Seat.SECOND: state.colours[Seat.FIRST],
            }
            state.swaps.append((len(state.moves), step.seat))
        return True


def swap_or_stay(actor: Colour, key: str, *, before: str, when: Condition | None = None) -> Decide:
    """The swap right: whoever holds ``actor`` may take the other colour."""
    return Decide(
        actor,
        key,
        (
            ("swap", f"take {actor.other.label.capitalize()}"),
            ("stay", f"keep {actor.label.capitalize()}"),
        ),
        headline=f"swap {before}",
        swap_on=("swap",),
        when=when,
    )


class Declare(Stage):
    """A number declared within ``low``–``high`` (N, the number of fifth-move offers)."""

    action = Action.DECLARE

    def __init__(
        self,
        actor: Actor,
        low: int,
        high: int,
        *,
        what: str = "N, the number of fifth-move offers",
        who: str | None = None,
        when: Condition | None = None,
    ):
        if not 1 <= low <= high:
            raise ValueError(f"a declared range needs 1 <= low <= high, not {low}–{high}")
        super().__init__(actor, who=who, when=when)
        self.low = low
        self.high = high
        self.what = what

    def step(self, procedure: StagedOpening) -> Step:
        return Step(
            seat=self.seat(procedure),
            action=Action.DECLARE,
            choices=tuple(str(n) for n in range(self.low, self.high + 1)),
            description=(
                f"declare: {self.who(procedure)} declares {self.what}, {self.low}–{self.high}"
            ),
        )

    def declare(self, procedure: StagedOpening, step: Step, n: int) -> bool:
        if isinstance(n, bool) or not isinstance(n, int):
            raise IllegalMoveError(f"{step.description}: {n!r} is not a whole number")
        if not self.low <= n <= self.high:
            raise IllegalMoveError(f"{step.description}: {n} is outside {self.low}–{self.high}")
        state = procedure.state
        state.declared = n
        state.events.append(OpeningEvent(step.seat, Action.DECLARE, choice=str(n), number=n))
        return True


class Offers(Stage):
    """``count`` candidate stones (None: the declared N), none equivalent to another under a
    symmetry of the standing stones (``symmetry`` ``"plane"`` or ``"h8"``)."""

    action = Action.OFFER

    def __init__(
        self,
        actor: Actor = Colour.BLACK,
        count: int | None = None,
        *,
        colour: Colour = Colour.BLACK,
        symmetry: str = "plane",
        area: frozenset[Point] | None = None,
        area_text: str = "anywhere",
        who: str | None = None,
        when: Condition | None = None,
    ):
        if count is not None and count < 1:
            raise ValueError(f"the number of offers must be at least 1, not {count}")
        super().__init__(actor, who=who, when=when)
        self._count = count
        self.colour = colour
        self.symmetry = check_mode(symmetry)
        self._area = area
        self._area_text = area_text

    def count(self, procedure: StagedOpening) -> int:
        n = self._count if self._count is not None else procedure.state.declared
        if n is None:  # pragma: no cover - a procedure built without its Declare stage
            raise AssertionError("offers without a declared number")
        return n

    def group(self, procedure: StagedOpening) -> tuple[Isometry, ...]:
        return pattern_symmetries(procedure.state.moves, self.symmetry)

    def allowed(self, procedure: StagedOpening) -> frozenset[Point] | None:
        state = procedure.state
        if not state.offers and self._area is None:
            return None
        group = self.group(procedure)
        banned: set[Point] = set()
        for offer in state.offers:
            banned |= equivalent_points(group, offer)
        cells = state.board.cells
        area = range(POINTS) if self._area is None else self._area
        return frozenset(p for p in area if not cells[p] and p not in banned)

    def step(self, procedure: StagedOpening) -> Step:
        state = procedure.state
        standing = len(state.moves)
        about = "about h8" if self.symmetry == "h8" else "the board edge ignored"
        return Step(
            seat=self.seat(procedure),
            action=Action.OFFER,
            colour=self.colour,
            allowed=self.allowed(procedure),
            description=(
                f"offer {len(state.offers) + 1} of {self.count(procedure)}: "
                f"{self.who(procedure)} offers a candidate move {standing + 1} {self._area_text} "
                f"(no two offers equivalent under a symmetry of the {standing} stones, {about})"
            ),
        )

    def place(self, procedure: StagedOpening, step: Step, p: Point) -> bool:
        state = procedure.state
        name = point_name(p)
        if p in state.offers:
            raise OccupiedPointError(f"{step.description}: {name} is already offered")
        if state.board.cells[p]:
            raise OccupiedPointError(f"{step.description}: {name} is already occupied")
        if self._area is not None and p not in self._area:
            raise IllegalMoveError(f"{step.description}: {name} is not {self._area_text}")
        group = self.group(procedure)
        for offer in state.offers:
            g = equivalence(group, offer, p)
            if g is not None:
                centre = "about h8" if self.symmetry == "h8" else "about their own centre"
                raise IllegalMoveError(
                    f"{step.description}: {name} is equivalent to the offer {point_name(offer)}: "
                    f"the {len(state.moves)} stones are symmetric under {g.name} {centre}, "
                    f"which maps {point_name(offer)} onto {name}"
                )
        state.board.place(p, self.colour)
        state.offers.append(p)
        state.events.append(OpeningEvent(step.seat, Action.OFFER, point=p, colour=self.colour))
        return len(state.offers) >= self.count(procedure)


class ChooseOffer(Stage):
    """The opponent keeps one offer; the others are taken off the board."""

    action = Action.CHOOSE_OFFER

    def __init__(
        self, actor: Actor = Colour.WHITE, *, who: str | None = None, when: Condition | None = None
    ):
        super().__init__(actor, who=who, when=when)

    def step(self, procedure: StagedOpening) -> Step:
        offers = procedure.state.offers
        return Step(
            seat=self.seat(procedure),
            action=Action.CHOOSE_OFFER,
            allowed=frozenset(offers),
            description=(
                f"choose: {self.who(procedure)} keeps one of the offers ({point_list(offers)}); "
                "the others are removed"
            ),
        )

    def choose(self, procedure: StagedOpening, step: Step, p: Point) -> bool:
        state = procedure.state
        if p not in state.offers:
            raise IllegalMoveError(f"{step.description}: {point_name(p)} is not one of the offers")
        colour = state.board.colour_at(p)
        assert colour is not None  # an offer is on the board until the choice
        for offer in state.offers:
            if offer != p:
                state.board.remove(offer)
        state.kept_offer = p
        state.moves.append((p, colour))
        state.events.append(OpeningEvent(step.seat, Action.CHOOSE_OFFER, point=p, colour=colour))
        return True


def _check_point(p: object, step: Step) -> Point:
    if isinstance(p, bool) or not isinstance(p, int) or not 0 <= p < POINTS:
        raise InvalidPointError(f"{step.description}: {p!r} is not a point index (0–224)")
    return p


class StagedOpening(OpeningProcedure):
    """An opening procedure run from a sequence of stages (see the module docstring).

    ``settings`` are the keyword arguments that rebuild a fresh procedure of the same kind
    with ``wuzi.rules.openings.make_procedure(name, **settings)`` (for records and replays).
    """

    def __init__(
        self, name: str, stages: Sequence[Stage], *, settings: Mapping[str, object] | None = None
    ):
        super().__init__()
        self.name = name
        self.settings: dict[str, object] = dict(settings or {})
        self._stages = tuple(stages)
        self._pos = 0
        self._decisions: dict[str, str] = {}

    def __repr__(self) -> str:
        options = ", ".join(f"{k}={v!r}" for k, v in self.settings.items())
        return f"<{type(self).__name__} {self.name}{' ' + options if options else ''}>"

    def decision(self, key: str) -> str | None:
        """The choice made at the decision ``key`` so far (None if not yet made)."""
        return self._decisions.get(key)

    def _current(self) -> tuple[int, Stage] | None:
        i = self._pos
        while i < len(self._stages) and not self._stages[i].applies(self):
            i += 1
        return (i, self._stages[i]) if i < len(self._stages) else None

    def step(self) -> Step | None:
        current = self._current()
        return None if current is None else current[1].step(self)

    def place(self, p: Point) -> None:
        i, stage = self._current_or_none()
        if not isinstance(stage, PlaceStone | Offers):
            raise self._wrong("place a stone")
        step = stage.step(self)
        if stage.place(self, step, _check_point(p, step)):
            self._pos = i + 1

    def choose(self, p: Point) -> None:
        i, stage = self._current_or_none()
        if not isinstance(stage, ChooseOffer):
            raise self._wrong("choose an offer")
        step = stage.step(self)
        if stage.choose(self, step, _check_point(p, step)):
            self._pos = i + 1

    def decide(self, choice: str) -> None:
        i, stage = self._current_or_none()
        if not isinstance(stage, Decide):
            raise self._wrong("decide")
        if stage.decide(self, stage.step(self), choice):
            self._pos = i + 1

    def declare(self, n: int) -> None:
        i, stage = self._current_or_none()
        if not isinstance(stage, Declare):
            raise self._wrong("declare a number")
        if stage.declare(self, stage.step(self), n):
            self._pos = i + 1

    def _current_or_none(self) -> tuple[int, Stage | None]:
        current = self._current()
        return (len(self._stages), None) if current is None else current
