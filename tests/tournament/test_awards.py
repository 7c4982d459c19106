"""Awards and certificates (002 八(一)–(五); 000 九(一), 九(三)) through ``wuzi tournament
awards`` and ``export certificates``: the 2019 men's group with a three-way tie on place
2 settled by a playoff round robin, its prize list and its twelve PDF certificates."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from support.seed_events import chinese_names, men_2019, men_2019_db
from support.tournament_cli import Wuzi
from wuzi.cli import main
from wuzi.tournament.awards import compute_awards
from wuzi.tournament.entrants import Group

POPPLER = shutil.which("pdftotext") and shutil.which("pdfinfo") and shutil.which("pdffonts")
needs_poppler = pytest.mark.skipif(
    not POPPLER, reason="poppler-utils (sh scripts/system-deps.sh dev) reads the PDFs"
)
NAMES = chinese_names(50)


@pytest.fixture
def wuzi(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Wuzi:
    return Wuzi(men_2019_db(tmp_path), capsys)


def poppler(tool: str, pdf: Path) -> str:
    return subprocess.run([tool, str(pdf), "-"] if tool == "pdftotext" else [tool, str(pdf)],
                          check=True, capture_output=True, text=True).stdout  # fmt: skip


def settle_place_2(wuzi: Wuzi) -> None:
    """李明 (m2) beats 刘明 (m4) and 张明 (m3); 刘明 beats 张明: 2 李明, 3 刘明, 4 张明."""
    wuzi("playoff", "m2", "m3", "black,white")
    wuzi("playoff", "m2", "m4", "black,white")
    wuzi("playoff", "m3", "m4", "white,black")


def test_no_place_is_awarded_until_its_playoff_round_robin_is_in(wuzi: Wuzi) -> None:
    data = wuzi.json("awards")
    assert data["prize_places"] == 12  # 002 八(一): 50 entrants
    assert [a["place"] for a in data["awards"]] == [1, *range(5, 13)]
    assert data["pending"] == [
        "place 2: playoff needed (李明, 张明, 刘明); owed: 李明 v 张明, 李明 v 刘明, 张明 v 刘明"
    ]
    wuzi("playoff", "m2", "m3", "black,white")  # one match of three: still nobody placed
    assert [a["place"] for a in wuzi.json("awards")["awards"]] == [1, *range(5, 13)]
    assert "Not awarded yet: place 2" in wuzi("awards")


def test_the_men_s_group_prize_list(wuzi: Wuzi) -> None:
    settle_place_2(wuzi)
    data = wuzi.json("awards")
    rows = data["awards"]
    assert data["pending"] == [] and data["provisional"] is False
    assert [(a["place"], a["name"]) for a in rows] == [
        (1, NAMES[0]),
        (2, NAMES[1]),
        (3, NAMES[3]),
        (4, NAMES[2]),
        *((p, NAMES[p - 1]) for p in range(5, 13)),
    ]
    assert [a["medal"] for a in rows] == ["gold", "silver", "bronze"] + [None] * 9  # 八(二)
    assert {a["certificate"] for a in rows} == {"certificate"}
    assert [a["money"] for a in rows] == [3000, 2000, 1000] + [0] * 9  # 八(三)
    assert {a["currency"] for a in rows} == {"CNY"}
    assert [a["title"] for a in rows][:4] == [
        "三段 (3 dan)",
        "二段 (2 dan)",
        "二段 (2 dan)",
        "初段 (1 dan)",
    ]  # 八(五), the assumed table
    assert data["titles_assumed"] is True
    text = wuzi("awards")
    assert "2000 CNY" in text and "silver" in text and "002 八(一): 50 entrants" in text


@needs_poppler
def test_twelve_a4_certificates_show_the_chinese_names(wuzi: Wuzi, tmp_path: Path) -> None:
    settle_place_2(wuzi)
    out = tmp_path / "certificates"
    wuzi("export", "certificates", "--output", str(out), "--date", "2019-07-17")
    pdfs = sorted(out.glob("*.pdf"))
    assert len(pdfs) == 12
    index = (out / "index.csv").read_text(encoding="utf-8-sig").splitlines()
    assert index[0].startswith("file,certificate,place,name")
    assert index[2].startswith(f"02-place-2.pdf,certificate,2,{NAMES[1]},,silver,2000,CNY")
    for place, name in enumerate([NAMES[0], NAMES[1], NAMES[3], NAMES[2], *NAMES[4:12]], 1):
        pdf = out / f"{place:02d}-place-{place}.pdf"
        text = poppler("pdftotext", pdf)
        assert name in text and f"荣获第{place}名" in text, (pdf, text)
        assert "2019年全国五子棋公开赛 男子组" in text and "2019年7月17日" in text
        info = poppler("pdfinfo", pdf)
        assert re.search(r"^Page size: +595.28 x 841.89 pts \(A4\)$", info, re.M), info
        assert re.search(r"^Pages: +1$", info, re.M), info
        fonts = poppler("pdffonts", pdf).splitlines()[2:]
        assert fonts and all(line.split()[-5] == "yes" for line in fonts)  # emb: embedded
    assert "（银牌）" in poppler("pdftotext", out / "02-place-2.pdf")


def test_certificates_refuse_bad_options(wuzi: Wuzi, tmp_path: Path) -> None:
    settle_place_2(wuzi)
    out = tmp_path / "c"
    assert "YYYY-MM-DD" in wuzi("export", "certificates", "--output", str(out), "--date",
                                "17.7.2019", code=1)  # fmt: skip
    err = wuzi("export", "certificates", "--output", str(out), "--font", "/no/such.ttf", code=1)
    assert "--font /no/such.ttf: no such file" in err
    assert "--output DIR" in wuzi("export", "certificates", code=1)
    assert "--date and --font are for export certificates" in wuzi(
        "export", "csv", "--date", "2019-07-17", code=1
    )
    assert not out.exists()


def test_without_fpdf2_the_command_names_the_group(
    wuzi: Wuzi, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settle_place_2(wuzi)
    monkeypatch.setitem(sys.modules, "fpdf", None)  # as if wuzi[desk] were not installed
    code = main(["tournament", "--db", str(wuzi.db), "export", "certificates", "--output",
                 str(tmp_path / "c")])  # fmt: skip
    err = wuzi.capsys.readouterr().err
    assert code == 1
    assert "fpdf is not installed: pip install 'wuzi[desk]'" in err


@pytest.mark.parametrize(
    ("entrants", "places"), [(50, 12), (49, 10), (30, 10), (29, 8)]
)  # fmt: skip
def test_the_prize_places_follow_the_entrants(entrants: int, places: int) -> None:
    """002 八(一): 50 or more → 12, 30–49 → 10, 29 or fewer → 8; a women's group pays the
    same money (八(三)). The cycle leaves places 2–4 waiting for their playoff."""
    awards = compute_awards(men_2019(entrants, Group.WOMEN, "女子组"))
    assert awards.prize_places == places
    assert [r.place for r in awards.rows] == [1, *range(5, places + 1)]
    assert awards.rows[0].money == 3000 and awards.rows[0].medal == "gold"
    assert len(awards.pending) == 1


@needs_poppler
def test_the_semifinal_s_electronic_certificates(tmp_path: Path, wuzi: Wuzi) -> None:
    """000 九(一): every player of a team that advanced to the semifinal, one each."""
    from support.championship import semifinal_csv

    semi = tmp_path / "semi.db"
    wuzi("new", "--format", "team-semifinal", "--name", "2021 复赛", db=semi)
    wuzi("import", str(semifinal_csv(tmp_path)), db=semi)
    out = wuzi("awards", db=semi)
    assert "000 九(一)" in out and "众1主将 (众1)" in out and "electronic certificate" in out
    folder = tmp_path / "e"
    wuzi("export", "certificates", "--output", str(folder), "--date", "2022-01-09", db=semi)
    pdfs = sorted(folder.glob("*.pdf"))
    assert len(pdfs) == 48  # 16 teams of 3
    assert pdfs[0].name == "01-e-certificate.pdf"
    text = poppler("pdftotext", pdfs[0])
    assert "电子证书" in text and "众1主将" in text and "晋级复赛" in text
