"""A venue's install (docs/install.md): the optional groups of pyproject.toml, the clear
message of a command whose group is missing, boards/ as package data, and the offline bundle
of `make bundle` installed in a fresh venv with no index and no pip configuration, where the
venue's commands run with only ``wuzi[host]``.

The bundle test builds from the package index (like `make setup`); the install it then does
reads only the bundle (install.sh: ``--no-index``, ``PIP_CONFIG_FILE=/dev/null``).
"""

from __future__ import annotations

import argparse
import os
import runpy
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path
from typing import Any

import pytest
from packaging.requirements import Requirement

import wuzi.cli as cli
from wuzi.base import __version__
from wuzi.io.boards import boards_dir, load_board_spec

ROOT = Path(__file__).resolve().parents[1]
PI_ENV = {"platform_machine": "aarch64", "sys_platform": "linux", "extra": "host"}
X86_ENV = {"platform_machine": "x86_64", "sys_platform": "linux", "extra": "host"}


def _project() -> dict[str, Any]:
    project: dict[str, Any] = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return project


def _names(lines: list[str]) -> set[str]:
    return {Requirement(line).name for line in lines}


def test_every_install_gets_only_what_a_host_and_the_director_need() -> None:
    project = _project()
    groups = project["optional-dependencies"]
    assert _names(project["dependencies"]) == {"pyserial", "gpiozero", "paho-mqtt"}
    lgpio, mpremote = (Requirement(line) for line in groups["host"])
    assert lgpio.name == "lgpio" and lgpio.marker is not None
    assert lgpio.marker.evaluate(PI_ENV) and not lgpio.marker.evaluate(X86_ENV)
    assert mpremote.name == "mpremote" and mpremote.marker is None  # `wuzi board flash`
    # the screens and the simulators are distributions of their own, of Wuzi's version
    assert _names(groups["screens"]) == {"wuzi-screens"}
    assert _names(groups["demo"]) == {"wuzi-sim"}
    for folder, name, needs in (
        # aiohttp: `wuzi web`'s server (issue 37), never on a table host's Pi
        ("display", "wuzi-screens", {"wuzi", "pyglet", "aiohttp"}),
        ("sim", "wuzi-sim", {"wuzi", "wuzi-screens", "amqtt"}),
    ):
        part = tomllib.loads((ROOT / folder / "pyproject.toml").read_text())["project"]
        assert (part["name"], part["version"]) == (name, __version__)
        assert _names(part["dependencies"]) == needs
        assert all(
            str(Requirement(r).specifier) == f"=={__version__}"
            for r in part["dependencies"]
            if Requirement(r).name.startswith("wuzi")
        )
    # the organisers' laptop: the certificates' PDFs (`wuzi tournament export certificates`)
    assert _names(groups["desk"]) == {"fpdf2"}
    # a laptop or CI: .[all]; `make setup` installs .[dev]: all, and the tools
    assert Requirement(groups["all"][0]).extras == {"host", "screens", "demo", "desk"}
    assert Requirement(groups["dev"][0]).extras == {"all"}
    assert {"pytest", "mypy", "ruff", "hypothesis"} <= _names(groups["dev"])
    setup = (ROOT / "Makefile").read_text()
    assert "pip install --quiet -e '.[dev]' -e ./display -e ./sim" in setup


def test_a_command_whose_group_is_missing_names_the_group(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def needs_pyglet(args: argparse.Namespace) -> int:
        raise ModuleNotFoundError("No module named 'pyglet'", name="pyglet")

    def parser(only: object = None) -> argparse.ArgumentParser:
        p = argparse.ArgumentParser(prog="wuzi")
        sub = p.add_subparsers(dest="command")
        sub.add_parser("scoreboard").set_defaults(func=needs_pyglet)
        return p

    monkeypatch.setattr(cli, "build_parser", parser)
    assert cli.main(["scoreboard"]) == 1
    err = capsys.readouterr().err
    assert err == "wuzi scoreboard: pyglet is not installed: pip install 'wuzi[screens]'\n"


def test_an_unknown_missing_module_is_still_a_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(args: argparse.Namespace) -> int:
        raise ModuleNotFoundError("No module named 'wuzi.nothing'", name="wuzi.nothing")

    def parser(only: object = None) -> argparse.ArgumentParser:
        p = argparse.ArgumentParser(prog="wuzi")
        p.add_subparsers(dest="command").add_parser("x").set_defaults(func=broken)
        return p

    monkeypatch.setattr(cli, "build_parser", parser)
    with pytest.raises(ModuleNotFoundError):
        cli.main(["x"])


def test_a_command_module_that_needs_a_missing_group_leaves_the_others(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = cli.optional_module

    def without_amqtt(name: str) -> Any:
        if name == "wuzi.sim.demo":
            raise ModuleNotFoundError("No module named 'amqtt'", name="amqtt")
        return real(name)

    monkeypatch.setattr(cli, "optional_module", without_amqtt)
    parser = cli.build_parser()
    assert "wuzi.sim.demo is unavailable: amqtt is not installed" in (parser.epilog or "")
    (commands,) = (a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    assert {"host", "director", "tournament", "venue"} <= set(commands.choices)
    assert "demo" not in commands.choices


def test_the_board_descriptions_are_package_data_linked_to_boards() -> None:
    link = ROOT / "host/wuzi/io/board-revisions"
    assert link.is_symlink() and link.resolve() == ROOT / "boards"
    assert boards_dir() == ROOT / "boards"
    assert load_board_spec("sensor-rev-a").kind == "sensor"
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert "board-revisions/*/board.json" in data["package-data"]["wuzi.io"]


def _bundle_script() -> dict[str, Any]:
    return runpy.run_path(str(ROOT / "scripts/bundle.py"), run_name="bundle")


def test_the_host_group_brings_no_simulator_no_screen_and_no_pyglet(tmp_path: Path) -> None:
    """What `make bundle` (EXTRAS=host) puts in the bundle for a Pi: the product's wheel holds
    host/ only, and neither Wuzi's other distributions nor pyglet are among its wheels."""
    bundle = _bundle_script()
    pi = bundle["PI_ENVIRONMENT"]
    for extras in (["host"], []):
        wanted = {Requirement(r).name for r in bundle["requirements"](extras, pi)}
        assert {"pyserial", "gpiozero", "paho-mqtt"} <= wanted
        assert not wanted & {"pyglet", "amqtt", "wuzi-sim", "wuzi-screens", "wuzi"}
        assert bundle["local_dists"](extras) == []
    assert "lgpio" in {Requirement(r).name for r in bundle["requirements"](["host"], pi)}
    # the other groups bring Wuzi's other distributions, and what they need
    assert bundle["local_dists"](["host", "screens"]) == ["wuzi-screens"]
    assert bundle["local_dists"](["demo"]) == ["wuzi-sim", "wuzi-screens"]
    demo = {Requirement(r).name for r in bundle["requirements"](["demo"], pi)}
    assert {"pyglet", "amqtt"} <= demo

    wheel = bundle["build_wheel"](tmp_path, ROOT, bundle["SOURCES"], "wuzi")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    assert not [n for n in names if n.startswith(("wuzi/sim/", "wuzi/display/", "pyglet"))]
    assert "wuzi/host/service.py" in names and "wuzi/io/firmware-images/main.py" in names
    assert "wuzi/io/board-revisions/sensor-rev-a/board.json" in names


def _run(*command: str | Path, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        [str(c) for c in command], capture_output=True, text=True, env=env, timeout=300
    )
    assert done.returncode == 0, f"{command}:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def test_the_offline_bundle_installs_with_no_index_and_runs_the_venue(tmp_path: Path) -> None:
    bundle = tmp_path / "wuzi-bundle"
    _run(sys.executable, ROOT / "scripts/bundle.py", "--out", bundle, "--no-tar")

    lock = (bundle / "requirements.lock").read_text()
    wheels = sorted(p.name for p in (bundle / "wheels").iterdir())
    assert any(
        w.startswith("lgpio-0.2.2.0-cp311-cp311-manylinux") and "aarch64" in w for w in wheels
    )
    assert 'lgpio==0.2.2.0 ; platform_machine == "aarch64"' in lock
    pins = [line for line in lock.splitlines() if "==" in line]
    assert len(pins) == lock.count("\\\n    --hash=sha256:") >= 5
    for unwanted in ("pyglet", "amqtt", "pytest", "hypothesis", "wasmtime", "mypy", "ruff"):
        assert unwanted not in lock

    # A fresh venv from the bundle alone: install.sh drops every index and pip configuration.
    venv = tmp_path / "venv"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "VIRTUAL_ENV"))}
    env["PYTHON"] = sys.executable
    env["DEPLOY"] = "no"  # not this machine's /etc (tests/test_install_arm64.py tries deploy/)
    out = _run("sh", bundle / "install.sh", venv, env=env)
    assert "install: wuzi " in out
    # the dataclasses' compiled methods are kept, as make pyc keeps them (issue 22)
    kept = list(venv.glob("lib/python3*/site-packages/wuzi/base/__pycache__/dataclass-code.*"))
    assert kept and kept[0].stat().st_size > 10_000
    frozen = _run(venv / "bin/python", "-m", "pip", "list", "--format=freeze", env=env)
    installed = {line.split("==")[0].lower() for line in frozen.split()}
    assert installed - {"pip", "setuptools"} == {
        "wuzi",
        "pyserial",
        "gpiozero",
        "colorzero",
        "paho-mqtt",
        "mpremote",
        "platformdirs",  # mpremote's
    } | ({"lgpio"} if os.uname().machine == "aarch64" else set())
    site = next(venv.glob("lib/python3*/site-packages"))
    assert not (site / "wuzi/sim").exists() and not (site / "wuzi/display").exists()
    assert not list(site.glob("pyglet*"))

    wuzi = venv / "bin/wuzi"
    listing = _run(wuzi, "--help", env=env)
    for command in ("host", "director", "tournament", "venue", "referee", "scoreboard", "demo"):
        assert f"    {command} " in listing, command
    for command in ("host", "director", "tournament", "venue"):
        _run(wuzi, command, "--help", env=env)
    checked = _run(
        venv / "bin/python",
        "-c",
        "from wuzi.io.boards import boards_dir, load_board_spec;"
        "print(load_board_spec('clock-rev-a').kind, boards_dir())",
        env=env,
    )
    assert checked.startswith("clock ") and "site-packages" in checked

    screen = subprocess.run(
        [wuzi, "scoreboard", "--sample"], capture_output=True, text=True, env=env, timeout=60
    )
    assert screen.returncode == 1
    assert screen.stderr == (
        "wuzi scoreboard: wuzi.display is not installed: pip install 'wuzi[screens]'\n"
    )
    demo = subprocess.run([wuzi, "demo"], capture_output=True, text=True, env=env, timeout=60)
    assert demo.returncode == 1
    assert demo.stderr == "wuzi demo: wuzi.sim is not installed: pip install 'wuzi[demo]'\n"
    # the firmware comes with the wheel: a board is flashed from the unpacked bundle
    flash = _run(wuzi, "board", "flash", "/dev/ttyACM0", "--board", "clock-rev-a", "--dry-run")
    assert " -m mpremote connect /dev/ttyACM0 cp " in flash
    assert "site-packages/wuzi/io/firmware-images/main.py" in flash
    assert "site-packages/wuzi/io/board-revisions/clock-rev-a/board.json :board.json" in flash
    # the kit beside the wheels
    for kit in (
        "deploy/systemd/wuzi-host.service",
        "deploy/udev/99-wuzi-boards.rules",
        "deploy/sysusers.d/wuzi.conf",
        "docs/install.md",
        "docs/referee.md",
        "firmware/main.py",
        "boards/sensor-rev-a/board.json",
        "system-deps.txt",
    ):
        assert (bundle / kit).is_file(), kit
        assert f"file {kit}\n" in (bundle / "CONTENTS").read_text()
