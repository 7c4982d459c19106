"""The final's direct places (000 五(三)1): last year's men's and women's team top 4 by
unit, one place per unit, a unit's second place passing on in the order men's 5th,
women's 5th, men's 6th, … — the function, the CSVs, and ``wuzi tournament
direct-qualifiers`` in this process and as the installed command."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from support.championship import (
    DIRECT_2021,
    DIRECT_DETAIL,
    MEN_2020,
    WOMEN_2020,
    places_csv,
)
from wuzi.cli import main
from wuzi.tournament.csvfile import csv_lines
from wuzi.tournament.direct import (
    MEN,
    WOMEN,
    Placing,
    direct_qualifiers,
    parse_placings,
    read_units,
    walk_order,
)
from wuzi.tournament.errors import CsvError, SettingsError


def placings(name: str, units: list[str]) -> list[Placing]:
    return [Placing(name, i, unit, i + 1) for i, unit in enumerate(units, start=1)]


def chosen(men: list[str], women: list[str], places: int = 8) -> list[tuple[str, str]]:
    got, _ = direct_qualifiers(placings(MEN, men), placings(WOMEN, women), places)
    return [(c.unit, c.detail) for c in got]


def test_eight_different_units_take_the_top_four_of_each_interleaved() -> None:
    men = ["M1", "M2", "M3", "M4", "M5"]
    women = ["W1", "W2", "W3", "W4", "W5"]
    assert chosen(men, women) == [
        ("M1", "men 1"),
        ("W1", "women 1"),
        ("M2", "men 2"),
        ("W2", "women 2"),
        ("M3", "men 3"),
        ("W3", "women 3"),
        ("M4", "men 4"),
        ("W4", "women 4"),
    ]


def test_a_unit_with_two_places_passes_one_on_men_fifth_first() -> None:
    assert chosen(MEN_2020, WOMEN_2020) == list(zip(DIRECT_2021, DIRECT_DETAIL, strict=True))
    _, skipped = direct_qualifiers(placings(MEN, MEN_2020), placings(WOMEN, WOMEN_2020))
    assert [(s.placing.unit, s.placing.list, s.placing.place) for s in skipped] == [
        ("杭州", WOMEN, 2),
        ("上海", WOMEN, 4),
    ]
    assert [(s.holder.list, s.holder.place) for s in skipped] == [(MEN, 1), (MEN, 2)]


def test_a_passed_on_place_skips_a_unit_that_already_has_one() -> None:
    # A and B hold places in both lists; the men's 5th is A again: the women's 5th and the
    # men's 6th take the two places set free
    men = ["A", "B", "C", "D", "A", "E"]
    women = ["A", "B", "F", "G", "H", "I"]
    assert chosen(men, women) == [
        ("A", "men 1"),
        ("B", "men 2"),
        ("C", "men 3"),
        ("F", "women 3"),
        ("D", "men 4"),
        ("G", "women 4"),
        ("H", "women 5"),
        ("E", "men 6"),
    ]


def test_the_women_first_at_a_place_credit_the_unit_with_its_best_place() -> None:
    # X is the women's 1st and the men's 3rd: its place is women 1, the men's 3rd passes on
    got = chosen(["A", "B", "X", "C", "D"], ["X", "E", "F", "G", "H"])
    assert got[1] == ("X", "women 1") and ("X", "men 3") not in got
    assert got[-1] == ("D", "men 5")


def test_the_walk_is_men_then_women_at_every_place() -> None:
    order = walk_order(placings(MEN, ["a", "b", "c"]), placings(WOMEN, ["x"]))
    assert [(p.list, p.place) for p in order] == [(MEN, 1), (WOMEN, 1), (MEN, 2), (MEN, 3)]


def test_too_few_units_and_an_odd_number_of_places_are_errors() -> None:
    with pytest.raises(CsvError, match=r"^the two lists hold 5 different units; 8 direct"):
        chosen(["A", "B", "C"], ["A", "D", "E"])
    with pytest.raises(SettingsError, match=r"--places 7: .* give an even number"):
        chosen(MEN_2020, WOMEN_2020, 7)
    assert len(chosen(MEN_2020, WOMEN_2020, 4)) == 4


def test_a_results_csv_is_read_with_its_lines() -> None:
    text = "\ufeffPlace,Unit,points\n2,上海,9\n1,杭州,10\n\n3,北京,8\n"
    got = parse_placings(csv_lines(text), MEN, "--men m.csv")
    assert [(p.place, p.unit, p.line) for p in got] == [
        (2, "上海", 2),
        (1, "杭州", 3),
        (3, "北京", 5),
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("rank,unit\n1,A\n", "--men m.csv line 1: the column 'place' is missing from the header"),
        ("place,unit\n1,A\nfirst,B\n", "--men m.csv line 3, column 'place': 'first' is not"),
        (
            "place,unit\n1,A\n1,B\n",
            "--men m.csv line 3, column 'place': place 1 is already on line 2",
        ),
        ("place,unit\n1,A\n3,B\n", "--men m.csv line 3, column 'place': place 3 follows place 1"),
        ("place,unit\n1,A\n2,\n", "--men m.csv line 3, column 'unit': the unit is empty"),
        ("place,unit\n1,A\n2,B\x1b[2J\n", "--men m.csv line 3, column 'unit': "),
        ("place,unit\n", "--men m.csv: no places after the header"),
        ("place,unit\n0,A\n", "--men m.csv line 2, column 'place': places start at 1, not 0"),
    ],
)
def test_a_bad_results_csv_names_the_file_line_and_column(text: str, message: str) -> None:
    with pytest.raises(CsvError) as info:
        parse_placings(csv_lines(text), MEN, "--men m.csv")
    assert str(info.value).startswith(message)


def test_the_printed_list_reads_back_as_units() -> None:
    text = '杭州,men 1\n"北京, 西城",men 3\n'
    assert read_units(csv_lines(text), "u.csv") == [(1, "杭州"), (2, "北京, 西城")]
    with pytest.raises(CsvError, match=r"u\.csv line 2: unit 'A' is already on line 1"):
        read_units(csv_lines("A,men 1\nA,women 1\n"), "u.csv")


# -- the command ------------------------------------------------------------------------


def test_the_command_prints_the_units_and_nothing_else(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    men, women = places_csv(tmp_path, "m.csv", MEN_2020), places_csv(tmp_path, "w.csv", WOMEN_2020)
    assert main(["tournament", "direct-qualifiers", "--men", str(men), "--women", str(women)]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines() == [f"{u},{d}" for u, d in zip(DIRECT_2021, DIRECT_DETAIL, strict=True)]
    assert "杭州 already has a place (men 1), so the place of women 2 passes on" in err
    argv = ["tournament", "direct-qualifiers", "--men", str(men), "--women", str(women)]
    assert main([*argv, "--places", "4"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "杭州,men 1",
        "深圳,women 1",
        "上海,men 2",
        "北京,men 3",
    ]


def test_the_command_refuses_a_bad_file_and_too_few_units(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    men = places_csv(tmp_path, "m.csv", ["A", "B", "C"])
    women = places_csv(tmp_path, "w.csv", ["A", "D"])
    argv = ["tournament", "direct-qualifiers", "--men", str(men), "--women", str(women)]
    assert main(argv) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        f"wuzi tournament direct-qualifiers: --men {men} (lines 2–4) and --women {women} "
        "(lines 2–3) hold 4 different units; 8 direct places need 8 (000 五(三)1: one place "
        "per unit)\n"
    )
    women.write_bytes("place,unit\n1,杭州\n2,上海\n".encode("gbk"))
    assert main(argv) == 1
    out, err = capsys.readouterr()
    assert out == "" and f"--women {women} line 2: not UTF-8" in err


def test_the_installed_command(tmp_path: Path) -> None:
    men, women = places_csv(tmp_path, "m.csv", MEN_2020), places_csv(tmp_path, "w.csv", WOMEN_2020)
    wuzi = str(Path(sys.executable).with_name("wuzi"))
    args = ["tournament", "direct-qualifiers", "--men", str(men), "--women", str(women)]
    done = subprocess.run([wuzi, *args], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert [line.split(",")[0] for line in done.stdout.splitlines()] == DIRECT_2021
    bad = subprocess.run(
        [wuzi, *args, "--places", "30"], capture_output=True, text=True, timeout=60, check=False
    )
    assert (bad.returncode, bad.stdout) == (1, "")
    assert "hold 12 different units; 30 direct places need 30" in bad.stderr
