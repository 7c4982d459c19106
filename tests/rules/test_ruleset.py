"""Rule sets and modes as organisers write them in an event's configuration."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wuzi.rules.board import Colour
from wuzi.rules.errors import RulesError
from wuzi.rules.ruleset import Mode, Overline, RuleSet, RuleSetError

B, W = Colour.BLACK, Colour.WHITE

# name -> (forbidden, Black's six wins, White's six wins, canonical form)
EXPECTED = {
    "renju": (True, False, True, "renju"),
    "no-forbidden": (False, True, True, "no-forbidden:overline=both"),
    "no-forbidden:overline=both": (False, True, True, "no-forbidden:overline=both"),
    "no-forbidden:overline=white-only": (False, False, True, "no-forbidden:overline=white-only"),
    "no-forbidden:overline=none": (False, False, False, "no-forbidden:overline=none"),
    "standard": (False, False, False, "standard"),
    "freestyle": (False, True, True, "freestyle"),
}


@pytest.mark.parametrize("text", sorted(EXPECTED))
def test_parse_gives_the_documented_rules(text: str) -> None:
    forbidden, black_six, white_six, canonical = EXPECTED[text]
    rules = RuleSet.parse(text)
    assert rules.forbidden is forbidden
    assert rules.overline_wins(B) is black_six
    assert rules.overline_wins(W) is white_six
    assert str(rules) == canonical
    assert RuleSet.parse(canonical) == rules
    assert rules.name == text.split(":")[0]
    assert rules.description


def test_renju_is_the_chinese_2013_rif_rule_set() -> None:
    assert RuleSet.parse("rif") == RuleSet.parse("chinese-2013") == RuleSet.renju()
    assert RuleSet.parse("  Renju ") == RuleSet.renju()


def test_no_forbidden_defaults_to_six_winning_for_both() -> None:
    assert RuleSet.parse("no-forbidden") == RuleSet.no_forbidden(Overline.BOTH)
    assert RuleSet.parse("No-Forbidden : Overline = White-Only") == RuleSet.no_forbidden(
        Overline.WHITE_ONLY
    )


def test_rule_sets_differ_from_one_another() -> None:
    values = {RuleSet.parse(t) for t in EXPECTED}
    assert len(values) == 6  # "no-forbidden" and its explicit default are one rule set


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "empty"),
        ("   ", "empty"),
        ("rengu", "unknown rule set 'rengu'"),
        ("renju:overline=both", "takes no options"),
        ("freestyle:x=1", "takes no options"),
        ("no-forbidden:overline", "not key=value"),
        ("no-forbidden:overline=", "not key=value"),
        ("no-forbidden:", "not key=value"),
        ("no-forbidden:overline=black-only", "overline must be both, white-only or none"),
        ("no-forbidden:overlines=both", "no option 'overlines'"),
        ("no-forbidden:overline=both,overline=none", "given twice"),
    ],
)
def test_bad_settings_name_what_is_wrong(text: str, words: str) -> None:
    with pytest.raises(RuleSetError, match=words):
        RuleSet.parse(text)


def test_unknown_name_lists_the_known_ones() -> None:
    with pytest.raises(RuleSetError) as info:
        RuleSet.parse("gomoku-pro")
    for name in ("renju", "no-forbidden", "standard", "freestyle"):
        assert name in str(info.value)


def test_rule_set_errors_are_rules_errors() -> None:
    with pytest.raises(RulesError):
        RuleSet.parse(42)  # type: ignore[arg-type]


def test_modes() -> None:
    assert Mode.parse("claim") is Mode.CLAIM
    assert Mode.parse(" AUTO ") is Mode.AUTO
    with pytest.raises(RuleSetError, match="'claim' or 'auto'"):
        Mode.parse("automatic")


@given(st.sampled_from(sorted(EXPECTED)), st.sampled_from(["", " ", "\t"]), st.booleans())
def test_canonical_form_reads_back_whatever_the_spelling(text: str, pad: str, upper: bool) -> None:
    spelled = pad + (text.upper() if upper else text) + pad
    rules = RuleSet.parse(spelled)
    assert RuleSet.parse(str(rules)) == rules
    assert str(RuleSet.parse(str(rules))) == str(rules)
