"""The director's audit log, printable for the appeals committee (pure formatting).

Every entry is one thing that happened, in order, with its time, who did it and what:
results reported by hosts (and refused, with the reason), confirmed and corrected by
referees, every assignment of a game to a table, every pairing, every playoff created,
every game cancelled, hosts coming and going, the director's own starts. ``text`` is for
a terminal or a plain printer; ``html`` is one self-contained page (print it from a
browser). Times are shown in the zone given (the CLI passes the machine's local zone),
to the millisecond, with the zone's offset so a printout is unambiguous.

``wuzi director audit --db FILE [--format text|html] [--utc]``.
"""

from __future__ import annotations

import datetime
import html
import json
from collections.abc import Sequence
from typing import Any

from wuzi.director.games import draw_entry
from wuzi.director.store import AuditRecord
from wuzi.tournament.draw import DrawRecord

__all__ = ["format_html", "format_text", "format_time", "pending_draws", "render_details"]

# details shown first, in this order, when present
_FIRST = ("reason", "game", "table", "result", "previous", "reported", "round", "match")


def pending_draws(draws: Sequence[DrawRecord]) -> list[AuditRecord]:
    """Draws made while the director was not running (it audits each when it next
    starts): shown at the end, numbered ``-``, noted as such, so no draw is missing."""
    records = []
    for draw in draws:
        entry = draw_entry(draw, draw.at_ms)
        details = {**entry.details, "note": "not yet seen by a running director"}
        records.append(AuditRecord(0, entry.at_ms, entry.actor, entry.action, details))
    return records


def _seq(seq: int) -> str:
    return str(seq) if seq > 0 else "-"


def format_time(at_ms: int, tz: datetime.tzinfo) -> str:
    moment = datetime.datetime.fromtimestamp(at_ms / 1000, tz=datetime.UTC).astimezone(tz)
    return moment.strftime("%Y-%m-%d %H:%M:%S.") + f"{at_ms % 1000:03d} " + moment.strftime("%z")


def _value(value: object) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _pairing_lines(details: dict[str, Any]) -> list[str]:
    lines = []
    for m in details.get("matches", []):
        places = m.get("places")
        where = f" (places {places[0]}-{places[1]})" if places else ""
        second = m.get("second") or "bye"
        boards = "; ".join(
            f"board {b['board']}: {b['black']} (black) - {b['white']}" for b in m.get("boards", [])
        )
        lines.append(f"match {m.get('match')}: {m.get('first')} - {second}{where}")
        if boards:
            lines.append(f"  {boards}")
    for p in details.get("pairings", []):
        white = p.get("white") or "bye"
        lines.append(f"board {p.get('board')}: {p.get('black')} (black) - {white}")
    return lines


def render_details(action: str, details: dict[str, Any]) -> list[str]:
    """An entry's details as lines: ``key=value`` pairs (the telling ones first); a
    pairing as one line per match."""
    if action == "round-paired":
        return [f"round {details.get('round')}", *_pairing_lines(details)]
    keys = [k for k in _FIRST if k in details] + sorted(k for k in details if k not in _FIRST)
    pairs = [f"{k}={_value(details[k])}" for k in keys if details[k] is not None]
    lines: list[str] = []
    line = ""
    for pair in pairs:
        if line and len(line) + 1 + len(pair) > 90:
            lines.append(line)
            line = pair
        else:
            line = f"{line} {pair}" if line else pair
    if line:
        lines.append(line)
    return lines


def format_text(
    records: Sequence[AuditRecord], *, event: str, source: str, tz: datetime.tzinfo
) -> str:
    out = [
        f"Audit log of the director — {event}",
        f"database: {source}; {len(records)} entries; times with their offset from UTC",
        "",
        f"{'seq':>6}  {'time':<29}  {'actor':<24}  action",
    ]
    for r in records:
        out.append(f"{_seq(r.seq):>6}  {format_time(r.at_ms, tz):<29}  {r.actor:<24}  {r.action}")
        out.extend(f"{'':>8}{line}" for line in render_details(r.action, r.details))
    return "\n".join(out) + "\n"


_STYLE = """
body { font-family: sans-serif; font-size: 10pt; margin: 1.5em; }
h1 { font-size: 14pt; }
table { border-collapse: collapse; width: 100%; }
th, td { border: 1px solid #999; padding: 2px 6px; vertical-align: top; text-align: left; }
th { background: #eee; }
td.seq { text-align: right; }
tr.refused td { background: #fde8e8; }
tr.corrected td { background: #fff4d6; }
td.details div { font-family: monospace; white-space: pre-wrap; }
@media print { tr { page-break-inside: avoid; } }
"""


def format_html(
    records: Sequence[AuditRecord], *, event: str, source: str, tz: datetime.tzinfo
) -> str:
    e = html.escape
    rows = []
    for r in records:
        css = "refused" if r.action.endswith("refused") else ""
        css = "corrected" if r.action == "result-corrected" else css
        details = "".join(f"<div>{e(line)}</div>" for line in render_details(r.action, r.details))
        rows.append(
            f'<tr class="{css}"><td class="seq">{_seq(r.seq)}</td>'
            f"<td>{e(format_time(r.at_ms, tz))}</td><td>{e(r.actor)}</td>"
            f'<td>{e(r.action)}</td><td class="details">{details}</td></tr>'
        )
    return (
        "<!DOCTYPE html>\n"
        f'<html><head><meta charset="utf-8"><title>Audit log — {e(event)}</title>'
        f"<style>{_STYLE}</style></head><body>\n"
        f"<h1>Audit log of the director — {e(event)}</h1>\n"
        f"<p>Database {e(source)}; {len(records)} entries.</p>\n"
        "<table><thead><tr><th>seq</th><th>time</th><th>actor</th><th>action</th>"
        "<th>details</th></tr></thead><tbody>\n" + "\n".join(rows) + "\n</tbody></table>"
        "</body></html>\n"
    )
