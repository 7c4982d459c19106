"""SGF syntax: property values, their escaping, and the main line of a game tree.

The layer under ``wuzi.rules.formats.sgf``: it knows SGF's brackets, backslashes and
parentheses but nothing about Gomoku. ``parse_main_line`` returns the nodes of the first
game in a collection, following the first variation at every branch, with the line each
property starts on so that every later error can name it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass

from wuzi.rules.errors import RecordFormatError


def escape_text(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


def escape_part(value: object) -> str:
    """One part of a composed value: None is empty; ``:`` is escaped."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "1" if value else "0"
    return str(value).replace("\\", "\\\\").replace("]", "\\]").replace(":", "\\:")


def composed(*parts: object) -> str:
    return ":".join(escape_part(p) for p in parts)


@dataclass(frozen=True)
class Prop:
    ident: str
    values: tuple[str, ...]  # raw, escapes kept
    line: int


_IDENT = re.compile(r"[A-Za-z]+")
_WORD = re.compile(r"\w+")  # what a writer may have meant as an identifier (e.g. ``5A``)


def parse_main_line(text: str, odd: Collection[str] = ()) -> list[list[Prop]]:
    """The nodes of the first game's main line; a syntax error names its line.

    An identifier that is not letters is an error naming it, unless it is one of ``odd``
    (identifiers some writers use all the same, e.g. ``5A``): that is kept as it is.
    """
    nodes: list[list[Prop]] = []
    stack: list[list[int]] = []  # per open tree: [is_main, children seen]
    i, line, n = 0, 1, len(text)
    in_node = False
    started = False
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
        elif c in " \t\r\f\v":
            i += 1
        elif c == "(":
            if not stack:
                if started:
                    break  # a second game of a collection: only the first is read
                started = True
                stack.append([1, 0])
            else:
                parent = stack[-1]
                parent[1] += 1
                stack.append([1 if parent[0] and parent[1] == 1 else 0, 0])
            in_node = False
            i += 1
        elif not stack and c != "(" and c != ")":
            where = "after the game tree" if started else "before the game tree"
            raise RecordFormatError(f"line {line}: unexpected {c!r} {where} '(;…)'")
        elif c == ")":
            if not stack:
                raise RecordFormatError(f"line {line}: ')' closes no game tree")
            stack.pop()
            in_node = False
            i += 1
        elif c == ";":
            if not stack:
                raise RecordFormatError(f"line {line}: ';' outside a game tree '(…)'")
            if stack[-1][1]:
                raise RecordFormatError(f"line {line}: a node after a variation")
            in_node = True
            if stack[-1][0]:
                nodes.append([])
            i += 1
        elif c.isalnum() or c == "_":
            if not in_node:
                raise RecordFormatError(f"line {line}: property outside a node (missing ';')")
            m = _WORD.match(text, i)
            assert m is not None
            if m.group() in odd:
                ident = m.group()
            elif not _IDENT.fullmatch(m.group()):
                raise RecordFormatError(
                    f"line {line}: {m.group()!r} is not a valid property identifier "
                    "(SGF identifiers are letters A–Z only)"
                )
            else:
                ident = "".join(ch for ch in m.group() if ch.isupper())
            if not ident:
                raise RecordFormatError(f"line {line}: {m.group()!r} is not a property name")
            start_line = line
            i = m.end()
            values: list[str] = []
            while True:
                while i < n and text[i] in " \t\r\n\f\v":
                    line += text[i] == "\n"
                    i += 1
                if i >= n or text[i] != "[":
                    break
                value, i, line = _read_value(text, i + 1, line)
                values.append(value)
            if not values:
                raise RecordFormatError(f"line {start_line}: property {ident} has no [value]")
            if stack[-1][0]:
                nodes[-1].append(Prop(ident, tuple(values), start_line))
        else:
            raise RecordFormatError(f"line {line}: unexpected {c!r}")
    if not started:
        raise RecordFormatError("line 1: no game tree: an SGF file starts with '(;'")
    if stack:
        raise RecordFormatError(f"line {line}: the file ends inside a game tree (missing ')')")
    return nodes


def _read_value(text: str, i: int, line: int) -> tuple[str, int, int]:
    start_line = line
    out: list[str] = []
    n = len(text)
    while i < n:
        c = text[i]
        if c == "\\" and i + 1 < n:
            out.append(text[i : i + 2])
            line += text[i + 1] == "\n"
            i += 2
            continue
        if c == "]":
            return "".join(out), i + 1, line
        line += c == "\n"
        out.append(c)
        i += 1
    raise RecordFormatError(f"line {start_line}: a value '[' is never closed with ']'")


def unescape(raw: str) -> str:
    """SGF Text: ``\\x`` is ``x``; a backslash before a line break removes both."""
    out: list[str] = []
    i = 0
    while i < len(raw):
        c = raw[i]
        if c == "\\" and i + 1 < len(raw):
            nxt = raw[i + 1]
            if nxt == "\n":
                i += 2
                continue
            if nxt == "\r":
                i += 3 if raw[i + 2 : i + 3] == "\n" else 2
                continue
            out.append(nxt)
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out)


def split_parts(raw: str) -> list[str]:
    """A composed value's parts at unescaped ``:``, each unescaped."""
    parts: list[str] = []
    current: list[str] = []
    i = 0
    while i < len(raw):
        c = raw[i]
        if c == "\\" and i + 1 < len(raw):
            current.append(raw[i : i + 2])
            i += 2
            continue
        if c == ":":
            parts.append(unescape("".join(current)))
            current = []
        else:
            current.append(c)
        i += 1
    parts.append(unescape("".join(current)))
    return parts


Repeat = Callable[[Prop, Prop], None]
"""Told of a property given twice in one node (the repeat, then the first): raises
RecordFormatError to refuse it, or returns to have the values joined to the first's."""


class Reader:
    """Typed access to one node's properties; every error names the property and line.

    A property given twice in one node is an error unless ``repeat`` accepts it (see
    ``Repeat``); then the repeat's values are added to the first's.
    """

    def __init__(self, props: list[Prop], repeat: Repeat | None = None) -> None:
        self.props: dict[str, Prop] = {}
        for prop in props:
            first = self.props.get(prop.ident)
            if first is not None:
                if repeat is None:
                    raise RecordFormatError(f"line {prop.line}: property {prop.ident} given twice")
                repeat(prop, first)
                self.props[prop.ident] = Prop(prop.ident, first.values + prop.values, first.line)
                continue
            self.props[prop.ident] = prop

    def has(self, ident: str) -> bool:
        return ident in self.props

    def error(self, ident: str, message: str) -> RecordFormatError:
        prop = self.props[ident]
        return RecordFormatError(f"line {prop.line}: {ident}: {message}")

    def text(self, ident: str, default: str = "") -> str:
        prop = self.props.get(ident)
        if prop is None:
            return default
        if len(prop.values) != 1:
            raise self.error(ident, "expected one value")
        return unescape(prop.values[0])

    def parts(self, ident: str, count: int) -> Iterator[list[str]]:
        prop = self.props.get(ident)
        if prop is None:
            return
        for value in prop.values:
            parts = split_parts(value)
            if len(parts) != count:
                raise self.error(ident, f"[{value}] has {len(parts)} parts, expected {count}")
            yield parts
