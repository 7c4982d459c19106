"""docs/cli.md against the parser: every command and subcommand ``wuzi --help`` lists has
its section (or, for a subcommand, is named in its command's section); every option its
``--help`` lists appears there; every option the page shows for a command is one that
command has. So the contracts and the code cannot drift apart unnoticed."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from wuzi.cli import build_parser

PAGE = Path(__file__).resolve().parents[2] / "docs" / "cli.md"
SCREENS = ("scoreboard", "clock-display", "arbiter")
SHARED = "The screens' shared options"  # the heading of the section the screens share
OPTION = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")
HEADING = re.compile(r"^## (.*)$", re.M)
WUZI = re.compile(r"wuzi ([a-z][a-z-]*)")


def _commands() -> dict[tuple[str, ...], argparse.ArgumentParser]:
    """Every (sub)command path of the ``wuzi`` parser, with its parser."""
    paths: dict[tuple[str, ...], argparse.ArgumentParser] = {}

    def walk(parser: argparse.ArgumentParser, prefix: tuple[str, ...]) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    paths[(*prefix, name)] = sub
                    walk(sub, (*prefix, name))

    walk(build_parser(), ())
    return paths


COMMANDS = _commands()


def _options(parser: argparse.ArgumentParser) -> set[str]:
    """The long options ``--help`` lists (not ``--help`` itself, nor a hidden one)."""
    return {
        option
        for action in parser._actions
        if action.help != argparse.SUPPRESS
        for option in action.option_strings
        if option.startswith("--") and option != "--help"
    }


def _sections(text: str) -> list[tuple[str, str]]:
    """(heading, heading and body) for each ``## `` section of the page."""
    parts = HEADING.split(text)
    return [(parts[i], parts[i] + "\n" + parts[i + 1]) for i in range(1, len(parts), 2)]


SECTIONS = _sections(PAGE.read_text(encoding="utf-8"))


def _heading_path(heading: str) -> tuple[str, ...]:
    """``wuzi rules forbidden`` -> ("rules", "forbidden"); () for another heading."""
    match = re.match(r"`wuzi ([^`]*)`", heading)
    return tuple(match.group(1).split()) if match else ()


def _section_text(path: tuple[str, ...]) -> str:
    """What the page says about ``path``: the sections whose heading names it (or starts
    with it), else its command's sections; the screens' shared options for a screen."""
    own = [body for head, body in SECTIONS if _heading_path(head)[: len(path)] == path]
    if not own:
        own = [body for head, body in SECTIONS if _heading_path(head)[:1] == path[:1]]
    if path[0] in SCREENS:
        own += [body for head, body in SECTIONS if head.startswith(SHARED)]
    return "\n".join(own)


def _code_spans(text: str) -> list[str]:
    """The inline code spans and the lines of the fenced blocks of ``text``."""
    spans: list[str] = []
    fenced = re.compile(r"```[a-z]*\n(.*?)```", re.S)
    for block in fenced.findall(text):
        spans.extend(block.splitlines())
    spans.extend(re.findall(r"`([^`\n]+)`", fenced.sub("", text)))
    return spans


def _tree_options(command: str) -> set[str]:
    """Every option of ``command`` and of its subcommands, ``--help`` included."""
    out = {"--help"}
    for path, parser in COMMANDS.items():
        if path[0] == command:
            out |= {o for a in parser._actions for o in a.option_strings if o.startswith("--")}
    return out


def test_the_page_covers_the_whole_parser() -> None:
    assert ("rules", "forbidden") in COMMANDS and ("tournament", "new") in COMMANDS
    assert len(SECTIONS) > 20


@pytest.mark.parametrize("path", sorted(COMMANDS), ids=" ".join)
def test_every_command_has_its_section_and_every_option_is_in_it(path: tuple[str, ...]) -> None:
    text = _section_text(path)
    assert text, f"docs/cli.md has no section for `wuzi {' '.join(path)}`"
    if len(path) > 1:
        assert re.search(rf"(?<![\w-]){re.escape(path[-1])}(?![\w-])", text), (
            f"docs/cli.md does not name `wuzi {' '.join(path)}` in its section"
        )
    missing = sorted(o for o in _options(COMMANDS[path]) if not re.search(
        rf"{re.escape(o)}(?![\w-])", text
    ))  # fmt: skip
    assert not missing, f"`wuzi {' '.join(path)}` options not in docs/cli.md: {missing}"


@pytest.mark.parametrize(
    "heading", [h for h, _ in SECTIONS if _heading_path(h)], ids=lambda h: h.strip("`")
)
def test_every_option_the_page_shows_is_one_the_command_has(heading: str) -> None:
    """In the code of a command's section, an option after ``wuzi X`` is one of X's (or
    its subcommands'); an option in a span naming no command is one of the section's."""
    body = dict(SECTIONS)[heading]
    command = _heading_path(heading)[0]
    assert command in {p[0] for p in COMMANDS}, f"{heading}: no such command"
    unknown = []
    for span in _code_spans(body):
        named = WUZI.findall(span)
        owners = [n for n in named if (n,) in COMMANDS] or ([] if named else [command])
        if not owners:
            continue  # a command of another tool (make, pip, systemctl …)
        known = set().union(*(_tree_options(o) for o in owners))
        unknown += [o for o in OPTION.findall(span) if o not in known]
    assert not unknown, f"{heading}: options no command of it has: {sorted(set(unknown))}"


def test_the_check_catches_a_missing_option() -> None:
    """The check itself: the section of `wuzi demo` without its --seed fails it."""
    text = _section_text(("demo",)).replace("--seed", "--sead")
    assert not re.search(r"--seed(?![\w-])", text)
    assert "--seed" in _options(COMMANDS[("demo",)])


ROOT = PAGE.parents[1]


def test_the_readme_is_a_front_page_whose_links_lead_somewhere() -> None:
    """Under 150 lines, with its picture (a small PNG) and every relative link resolving —
    into docs/, where the contracts (cli.md) and the words (glossary.md) now live."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) < 150
    links = re.findall(r"\]\(([^)#\s]+)\)", readme)
    for page in ("docs/cli.md", "docs/glossary.md", "docs/install.md", "docs/scoreboard.png"):
        assert page in links, page
    broken = [link for link in links if "://" not in link and not (ROOT / link).exists()]
    assert not broken, f"README links to nothing: {broken}"
    picture = (ROOT / "docs" / "scoreboard.png").read_bytes()
    assert picture.startswith(b"\x89PNG\r\n\x1a\n") and len(picture) < 300_000
    for name in ("cli.md", "glossary.md", "layout.md", "venue.md"):
        text = (ROOT / "docs" / name).read_text(encoding="utf-8")
        dead = [
            link
            for link in re.findall(r"\]\(([^)#\s]+)\)", text)
            if "://" not in link and not (ROOT / "docs" / link).exists()
        ]
        assert not dead, f"docs/{name} links to nothing: {dead}"
