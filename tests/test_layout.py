"""The repository's layout holds: every package is installed, what runs at a venue (``host/``)
holds no simulator, benchmark or screen, the firmware imports nothing of Wuzi, and the tests
share code through tests/support only. The layers themselves are ``lint-imports``'s job
(``make lint``); these are the rules it cannot state."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PORTIONS = {"host": ROOT / "host", "display": ROOT / "display", "sim": ROOT / "sim"}


def _packages_on_disk(portion: str) -> set[str]:
    found = set()
    for base in [PORTIONS[portion]]:
        for init in (base / "wuzi").rglob("__init__.py"):
            parts = init.parent.relative_to(base).parts
            if "__pycache__" not in parts:
                found.add(".".join(parts))
    return found


def _imports(path: Path) -> set[str]:
    """Every module a file imports, at any depth (inside functions and ``if`` blocks too)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_every_package_in_the_three_folders_is_installed_by_its_distribution() -> None:
    """host/ is the product (the root pyproject.toml), display/ and sim/ are distributions of
    their own (wuzi-screens, wuzi-sim): each lists exactly the packages of its folder."""
    for portion, project in (("host", ROOT), ("display", ROOT / "display"), ("sim", ROOT / "sim")):
        config = tomllib.loads((project / "pyproject.toml").read_text(encoding="utf-8"))
        listed = set(config["tool"]["setuptools"]["packages"])
        assert listed == _packages_on_disk(portion), portion


def test_wuzi_is_one_namespace_over_host_display_and_sim() -> None:
    for name, base in PORTIONS.items():
        assert not (base / "wuzi" / "__init__.py").exists(), f"{name}/wuzi must stay a namespace"
    assert sorted(p.name for p in (ROOT / "display" / "wuzi").iterdir() if p.is_dir()) == [
        "display"
    ]
    assert sorted(p.name for p in (ROOT / "sim" / "wuzi").iterdir() if p.is_dir()) == ["sim"]


def test_host_holds_no_simulator_benchmark_demo_or_screen() -> None:
    host = ROOT / "host" / "wuzi"
    assert not (host / "sim").exists() and not (host / "display").exists()
    offenders = [
        str(p.relative_to(ROOT))
        for p in host.rglob("*.py")
        if p.stem in ("bench", "demo", "showcase") or p.stem.startswith(("bench_", "bot"))
    ]
    assert offenders == []
    for path in host.rglob("*.py"):
        wrong = {
            m for m in _imports(path) if m.split(".")[:2] in (["wuzi", "sim"], ["wuzi", "display"])
        }
        assert not wrong, f"{path.relative_to(ROOT)} imports {sorted(wrong)}"


def test_the_firmware_imports_nothing_of_wuzi() -> None:
    for path in sorted((ROOT / "firmware").glob("*.py")):
        wuzi = {m for m in _imports(path) if m == "wuzi" or m.startswith("wuzi.")}
        assert not wuzi, f"firmware/{path.name} imports {sorted(wuzi)}"


def test_the_hosts_copies_of_firmware_files_are_links_to_them() -> None:
    """The simulator and the link run the very files flashed on the MCU."""
    copies = [ROOT / "host/wuzi/link/wire.py", ROOT / "host/wuzi/link/debounce.py"]
    copies += [p for p in (ROOT / "sim/wuzi/sim/firmware").glob("*.py") if p.name != "__init__.py"]
    for copy in copies:
        assert copy.is_symlink(), f"{copy.relative_to(ROOT)} must link to firmware/"
        assert copy.resolve() == (ROOT / "firmware" / copy.name).resolve()


def test_tests_share_code_through_the_support_package_only() -> None:
    for path in sorted((ROOT / "tests").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if path.name in ("micropython.py", "test_layout.py"):  # the child's sys.path; this test
            continue
        assert "sys.path.insert" not in text and "sys.path.append" not in text, path


def test_no_product_module_names_the_simulators() -> None:
    """A simulated device is a serial URL resolved by wuzi-sim's plug-in (wuzi.io.ports), not
    a string the host tests (issue 34: ``SIMULATED = "sim"``, ``clock_port != "sim"``)."""
    offenders = []
    for path in (ROOT / "host" / "wuzi").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Compare):
                values = [node.left, *node.comparators]
                if any(isinstance(v, ast.Constant) and v.value == "sim" for v in values):
                    offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}")
            if isinstance(node, ast.Name | ast.Attribute):
                name = node.id if isinstance(node, ast.Name) else node.attr
                if name in ("SIMULATED", "simulated_board"):
                    offenders.append(f"{path.relative_to(ROOT)}:{node.lineno} {name}")
    assert offenders == []
