"""The claim book: when a forbidden move can still be claimed and which fives count."""

from __future__ import annotations

from wuzi.rules.board import Colour, parse_point
from wuzi.rules.claims import (
    ClaimBook,
    ClaimKind,
    Five,
    ForbiddenMove,
    Verdict,
    kind_words,
    row_text,
)
from wuzi.rules.verdict import ForbiddenKind

B, W = Colour.BLACK, Colour.WHITE


def forbidden(book: ClaimBook, name: str, kind: str, number: int = 9) -> ForbiddenMove:
    move = ForbiddenMove(number, parse_point(name), ForbiddenKind(kind), "why", book.white_moves)
    book.note_forbidden(move)
    return move


def test_double_three_can_be_claimed_only_until_whites_next_move() -> None:
    book = ClaimBook(white_moves=4)
    forbidden(book, "i8", "33")
    verdict = book.judge_forbidden(parse_point("i8"))
    assert verdict.verdict is Verdict.CORRECT
    assert verdict.claim is ClaimKind.FORBIDDEN
    assert verdict.forbidden is ForbiddenKind("33")
    assert "double-three" in verdict.detail
    assert book.pending()
    book.note_white_move()
    late = book.judge_forbidden(parse_point("i8"))
    assert late.verdict is Verdict.LATE
    assert "stands" in late.detail
    assert not book.pending()


def test_double_four_window_is_the_same_as_double_three() -> None:
    book = ClaimBook()
    forbidden(book, "k8", "44")
    assert book.judge_forbidden(parse_point("k8")).verdict is Verdict.CORRECT
    book.note_white_move()
    assert book.judge_forbidden(parse_point("k8")).verdict is Verdict.LATE


def test_overline_can_be_claimed_until_the_end() -> None:
    book = ClaimBook()
    forbidden(book, "k8", "ol")
    for _ in range(20):
        book.note_white_move()
    verdict = book.judge_forbidden(parse_point("k8"))
    assert verdict.verdict is Verdict.CORRECT
    assert "overline" in verdict.detail
    assert book.pending()


def test_a_stone_that_was_not_forbidden_is_a_false_claim() -> None:
    book = ClaimBook()
    forbidden(book, "k8", "33")
    verdict = book.judge_forbidden(parse_point("h8"))
    assert verdict.verdict is Verdict.FALSE
    assert "h8" in verdict.detail


def test_a_five_counts_only_for_its_colour_and_the_first_one_is_named() -> None:
    book = ClaimBook()
    assert book.judge_five(B).verdict is Verdict.FALSE
    assert not book.pending()
    row = tuple(parse_point(n) for n in ("h8", "i8", "j8", "k8", "l8"))
    book.note_five(Five(B, 17, parse_point("l8"), row))
    book.note_five(Five(B, 21, parse_point("a1"), row))
    assert book.pending()
    assert book.judge_five(W).verdict is Verdict.FALSE
    verdict = book.judge_five(B)
    assert verdict.verdict is Verdict.CORRECT
    assert verdict.claim is ClaimKind.FIVE
    assert verdict.row == row
    assert "h8–l8" in verdict.detail and "move 17" in verdict.detail


def test_copy_is_independent() -> None:
    book = ClaimBook()
    forbidden(book, "i8", "33")
    copy = book.copy()
    copy.note_white_move()
    assert book.judge_forbidden(parse_point("i8")).verdict is Verdict.CORRECT
    assert copy.judge_forbidden(parse_point("i8")).verdict is Verdict.LATE


def test_words() -> None:
    assert [kind_words(ForbiddenKind(k)) for k in ("33", "44", "ol")] == [
        "double-three",
        "double-four",
        "overline",
    ]
    assert row_text((parse_point("a1"), parse_point("e5"))) == "a1–e5"
