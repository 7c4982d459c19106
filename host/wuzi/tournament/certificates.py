"""The award certificates as PDF: one A4 page, one file per certificate, and an index.

What a certificate says comes from ``awards`` (002 八(二), 八(四); 000 九(一), 九(三)):
the event's name, the player or team (with its players), the place and the medal, and the
date. The names are Chinese, and a PDF viewer at the print shop may have no CJK font, so
the font is **embedded** (a subset of it: only the glyphs used) — fpdf2 (the ``desk``
group) writes it; the default font is WenQuanYi Micro Hei, the CJK font the screens use
(Debian's fonts-wqy-microhei, ``scripts/system-deps.sh``); ``--font FILE`` another
TrueType or OpenType font (``.ttf``, ``.otf``, ``.ttc``: its first face).

The files are named by number and place (``01-place-1.pdf``: Chinese file names fare
badly on a USB stick formatted elsewhere); ``index.csv`` (UTF-8 with a BOM, for a
spreadsheet) says whose each file is. ``certificate_files`` is pure but for reading the
font; the command writes the files.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from datetime import UTC, date, datetime
from pathlib import Path

from wuzi.tournament.awards import CERTIFICATE, MEDALS_ZH, AwardRow, Awards
from wuzi.tournament.errors import SettingsError
from wuzi.tournament.export import CSV_BOM, csv_text

__all__ = ["DEFAULT_FONTS", "certificate_files", "find_font"]

DEFAULT_FONTS = (
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
)
FONT_PACKAGE = "fonts-wqy-microhei"
A4_WIDTH_MM = 210.0


def find_font(given: str | None, candidates: Sequence[str] = DEFAULT_FONTS) -> Path:
    """The font to embed: ``given`` (``--font``), else the first CJK font installed."""
    if given is not None:
        path = Path(given)
        if not path.is_file():
            raise SettingsError(f"--font {given}: no such file")
        return path
    for candidate in candidates:
        if Path(candidate).is_file():
            return Path(candidate)
    raise SettingsError(
        f"no CJK font for the certificates' Chinese names: install {FONT_PACKAGE} "
        "(sh scripts/system-deps.sh screen) or give --font FILE.ttf"
    )


def date_zh(day: date) -> str:
    return f"{day.year}年{day.month}月{day.day}日"


def place_zh(row: AwardRow) -> str:
    if row.place is None:
        return ""
    return f"第{row.place}名" + ("（并列）" if row.shared else "")


def _lines(row: AwardRow, event: str) -> list[tuple[str, float]]:
    """(text, font size in points) of the certificate's body, top to bottom."""
    lines: list[tuple[str, float]] = []
    if row.certificate == CERTIFICATE:
        lines.append(("荣 誉 证 书", 40))
        lines.append(("CERTIFICATE", 14))
    else:
        lines.append(("电 子 证 书", 40))
        lines.append(("ELECTRONIC CERTIFICATE", 14))
    lines.append(("", 18))
    if row.team and row.recipients != (row.team,) and row.place is not None:
        lines.append((row.team, 30))  # a team's certificate: the team, then its players
        lines.append(("、".join(row.recipients), 18))
    else:
        lines.append((row.name, 40))
        if row.team:
            team = row.team if row.team.endswith("队") else f"{row.team}队"
            lines.append((f"（{team}）", 16))
    lines.append(("", 14))
    lines.append((f"在{event}中", 18))
    if row.place is None:
        lines.append(("所在队伍于预选赛晋级复赛，特发此证。", 18))
    else:
        won = f"荣获{place_zh(row)}"
        if row.medal is not None:
            won += f"（{MEDALS_ZH[row.medal]}）"
        lines.append((won + "，特发此证。", 20))
        lines.append((f"Place {row.place}" + (f", {row.medal} medal" if row.medal else ""), 12))
    return lines


def _pdf(row: AwardRow, event: str, day: date, font: Path) -> bytes:
    from fpdf import FPDF  # the desk group (pyproject.toml); the command says so if missing

    pdf = FPDF(orientation="portrait", unit="mm", format="A4")
    pdf.set_auto_page_break(False)
    pdf.set_title(f"{event}: {row.name}")
    pdf.set_creator("wuzi tournament export certificates")
    # the certificate's date, not the clock's: the same event gives the same files
    pdf.set_creation_date(datetime(day.year, day.month, day.day, tzinfo=UTC))
    pdf.add_font("cjk", fname=str(font))
    pdf.add_page()
    pdf.set_draw_color(160, 30, 30)
    pdf.set_line_width(1.6)
    pdf.rect(12, 12, A4_WIDTH_MM - 24, 297 - 24)
    pdf.set_line_width(0.4)
    pdf.rect(16, 16, A4_WIDTH_MM - 32, 297 - 32)
    pdf.set_y(56)
    for text, size in _lines(row, event):
        pdf.set_font("cjk", size=size)
        pdf.set_text_color(150, 20, 20) if size >= 40 else pdf.set_text_color(20, 20, 20)
        if text:
            pdf.multi_cell(0, size * 0.5, text, align="C", new_x="LMARGIN", new_y="NEXT")
        pdf.ln(size * 0.55)
    pdf.set_text_color(20, 20, 20)
    pdf.set_font("cjk", size=16)
    pdf.set_xy(20, 240)
    pdf.multi_cell(A4_WIDTH_MM - 50, 9, f"{event}\n{date_zh(day)}", align="R")
    return bytes(pdf.output())


def _file_name(number: int, row: AwardRow, width: int) -> str:
    what = f"place-{row.place}" if row.place is not None else "e-certificate"
    return f"{number:0{width}d}-{what}.pdf"


def _index(names: list[str], awards: Awards, day: date) -> bytes:
    buffer = io.StringIO()
    buffer.write(CSV_BOM)
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(
        ["file", "certificate", "place", "name", "team", "medal", "money", "currency",
         "title", "clause", "event", "date"]
    )  # fmt: skip
    for name, row in zip(names, awards.rows, strict=True):
        writer.writerow(
            [
                name,
                row.certificate,
                "" if row.place is None else f"{row.place}{'=' if row.shared else ''}",
                csv_text(row.name),
                csv_text(row.team),
                row.medal or "",
                row.money or "",
                row.currency if row.money else "",
                csv_text(row.title or ""),
                row.clause,
                csv_text(awards.event),
                day.isoformat(),
            ]
        )
    return buffer.getvalue().encode("utf-8")


def certificate_files(awards: Awards, day: date, font: Path) -> dict[str, bytes]:
    """File name → content: every certificate's PDF, in the awards' order, and
    ``index.csv``."""
    width = max(2, len(str(len(awards.rows))))
    names = [_file_name(i, row, width) for i, row in enumerate(awards.rows, start=1)]
    files = {
        name: _pdf(row, awards.event, day, font)
        for name, row in zip(names, awards.rows, strict=True)
    }
    files["index.csv"] = _index(names, awards, day)
    return files
