"""Build the offline install bundle of Wuzi (`make bundle`; docs/install.md).

    python scripts/bundle.py [--out build/wuzi-bundle] [--extras host] [--platform pi|native]...

The bundle is a folder (and a .tar.gz of it): the whole kit of an offline venue.

    wuzi-<version>-py3-none-any.whl   the product's wheel (host/ only: no simulator, no screen;
                                      boards/ and firmware/ inside, as package data)
    wuzi_screens-…whl, wuzi_sim-…whl  only with the groups that bring them ([screens], [demo])
    wheels/                           every dependency of wuzi[<extras>], as wheels, for each
                                      platform: `pi` (Raspberry Pi OS Bookworm: linux aarch64,
                                      CPython 3.11) and `native` (this machine's Python)
    requirements.lock                 every wheel pinned with its sha256 (pip --require-hashes);
                                      a package only one platform needs carries its marker
    install.sh                        checks the Debian packages, creates a venv and installs
                                      from the files above only, then the deploy/ files
    system-deps.txt                   the Debian packages each role needs (install.sh: apt)
    deploy/                           systemd units, udev rules, the wuzi user, a venue example
    docs/                             the pages a venue's people read (docs/install.md first)
    firmware/, boards/                the boards' firmware and descriptions (the same files
                                      `wuzi board flash` copies from the installed wheel)
    CONTENTS                          every distribution of the bundle, and the groups asked for
    SHA256SUMS, PYTHON                checked by install.sh before anything is installed

Building needs the package index (this machine's pip configuration); installing does not.
Pure-Python packages published only as sources are built into wheels here; a compiled package
with no wheel for a platform stops the build and names the package.

pip cannot evaluate environment markers for another platform (`pip download --platform`
evaluates them for the running interpreter), so the markers of the project's own requirements
are evaluated here for each platform, and the chosen requirements are handed to pip unmarked.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.tags import Tag, compatible_tags, cpython_tags, sys_tags
from packaging.utils import canonicalize_name, parse_wheel_filename

ROOT = Path(__file__).resolve().parents[1]
HERE = Path(__file__).resolve().parent

# Raspberry Pi OS Bookworm (64-bit): glibc 2.36, CPython 3.11.
PI_PYTHON = (3, 11)
PI_GLIBC = (2, 36)
PI_PLATFORMS = [
    *(f"manylinux_2_{minor}_aarch64" for minor in range(PI_GLIBC[1], 16, -1)),
    "manylinux2014_aarch64",
    "linux_aarch64",
]
PI_ENVIRONMENT = {
    "implementation_name": "cpython",
    "platform_machine": "aarch64",
    "platform_python_implementation": "CPython",
    "platform_system": "Linux",
    "python_version": "3.11",
    "python_full_version": "3.11.2",
    "sys_platform": "linux",
    "os_name": "posix",
}

# What a copy of the source tree for the product's wheel needs (symlinks are copied as their
# files: firmware/ and boards/ come in through host/wuzi/io's links).
SOURCES = ("pyproject.toml", "README.md", "host")
# Wuzi's other distributions, each a folder with its own pyproject.toml: only a group that
# names one puts it in the bundle.
LOCAL_DISTS = {"wuzi-screens": "display", "wuzi-sim": "sim"}
# The kit beside the wheels: what a venue installs and reads, copied as files.
KIT = ("deploy", "firmware", "boards", "scripts/system-deps.txt")
VENUE_DOCS = (
    "install.md",
    "config.md",
    "security.md",
    "host.md",
    "table.md",
    "buttons.md",
    "referee.md",
    "director.md",
    "display.md",
    "bus.md",
)


def pi_tags() -> set[Tag]:
    cpython = cpython_tags(PI_PYTHON, abis=["cp311"], platforms=PI_PLATFORMS)
    return set(cpython) | set(compatible_tags(PI_PYTHON, "cp311", PI_PLATFORMS))


def local_dists(extras: list[str]) -> list[str]:
    """Wuzi's own distributions besides the product that ``extras`` bring (LOCAL_DISTS)."""
    found: list[str] = []
    requirements(extras, None, found)
    return found


def requirements(
    extras: list[str], environment: dict[str, str] | None, local: list[str] | None = None
) -> list[str]:
    """The project's third-party requirements with ``extras``, for one platform (None: this
    machine); Wuzi's own distributions met on the way are added to ``local`` instead, and
    their requirements followed."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    groups: dict[str, list[str]] = project.get("optional-dependencies", {})
    chosen: list[str] = []
    seen: set[str] = set()
    local = [] if local is None else local
    pending = [(line, "") for line in project.get("dependencies", [])]
    for extra in extras:
        if extra not in groups:
            raise SystemExit(f"bundle: no group {extra!r} in pyproject.toml")
        pending += [(line, extra) for line in groups[extra]]
    while pending:
        line, extra = pending.pop(0)
        req = Requirement(line)
        if canonicalize_name(req.name) == canonicalize_name(project["name"]):
            for inner in sorted(req.extras - seen):
                seen.add(inner)
                pending += [(sub, inner) for sub in groups[inner]]
            continue
        if req.name in LOCAL_DISTS:
            if req.name not in local:
                local.append(req.name)
                folder = ROOT / LOCAL_DISTS[req.name] / "pyproject.toml"
                inner_project = tomllib.loads(folder.read_text(encoding="utf-8"))["project"]
                pending += [(sub, "") for sub in inner_project.get("dependencies", [])]
            continue
        env = dict(environment or {})
        env["extra"] = extra
        if req.marker is not None and not req.marker.evaluate(env):
            continue
        req.marker = None
        if str(req) not in chosen:
            chosen.append(str(req))
    return chosen


def pip(*args: str) -> None:
    command = [sys.executable, "-m", "pip", *args]
    print("bundle: " + " ".join(command[2:]), flush=True)
    subprocess.run(command, check=True)


def build_wheel(out: Path, base: Path, sources: tuple[str, ...], name: str) -> Path:
    """The wheel of the project in ``base``, built from a clean copy of ``sources`` (no stale
    build/ of the work tree; symlinks copied as their files)."""
    with tempfile.TemporaryDirectory(prefix="wuzi-src-") as tmp:
        src = Path(tmp) / "src"
        src.mkdir()
        ignore = shutil.ignore_patterns("__pycache__", "*.egg-info", "*.pyc", "build")
        for item in sources:
            path = base / item
            if path.is_dir():
                shutil.copytree(path, src / item, symlinks=False, ignore=ignore)
            else:
                shutil.copy2(path, src / item)
        pip("wheel", "--quiet", "--no-deps", "--wheel-dir", str(out), str(src))
    (wheel,) = out.glob(f"{name.replace('-', '_')}-*.whl")
    return wheel


def copy_kit(out: Path) -> None:
    """deploy/, firmware/, boards/, system-deps.txt and the venue's docs, as files."""
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for item in KIT:
        path = ROOT / item
        if path.is_dir():
            shutil.copytree(path, out / item, symlinks=False, ignore=ignore)
        else:
            shutil.copy2(path, out / path.name)
    (out / "docs").mkdir()
    for page in VENUE_DOCS:
        shutil.copy2(ROOT / "docs" / page, out / "docs" / page)


def contents(out: Path, extras: list[str]) -> str:
    """CONTENTS: the groups, every distribution (name, version, file, size) and the kit."""
    lines = [f"# wuzi[{','.join(extras)}], made by scripts/bundle.py (make bundle)"]
    for path in sorted([*out.glob("*.whl"), *(out / "wheels").glob("*.whl")]):
        name, version, _, _ = parse_wheel_filename(path.name)
        where = path.relative_to(out).as_posix()
        lines.append(f"{name} {version} {where} {path.stat().st_size}")
    kit = sorted(
        p.relative_to(out).as_posix()
        for p in out.rglob("*")
        if p.is_file() and p.suffix != ".whl"
    )
    lines += [f"file {name}" for name in kit]
    return "\n".join(lines) + "\n"


def fetch(platform: str, reqs: list[str], wheels: Path) -> None:
    if platform == "native":
        # Wheels from the index; sources (pure Python) are built into wheels.
        pip("wheel", "--quiet", "--wheel-dir", str(wheels), "--find-links", str(wheels), *reqs)
        return
    args = ["download", "--quiet", "--dest", str(wheels), "--find-links", str(wheels)]
    args += ["--only-binary=:all:", "--implementation", "cp", "--abi", "cp311"]
    args += ["--python-version", "".join(map(str, PI_PYTHON))]
    for plat in PI_PLATFORMS:
        args += ["--platform", plat]
    try:
        pip(*args, *reqs)
    except subprocess.CalledProcessError:
        # A pure-Python package published only as a source: build it here (a py3-none-any
        # wheel serves the Pi too), then try again; a compiled one stays missing and pip
        # names it.
        pip("wheel", "--quiet", "--no-deps", "--wheel-dir", str(wheels), *reqs)
        pip(*args, *reqs)


@dataclass
class Locked:
    versions: set[str] = field(default_factory=set)
    hashes: list[str] = field(default_factory=list)
    on: set[str] = field(default_factory=set)


def lock(wheels: Path, platforms: dict[str, set[Tag]], machines: dict[str, str]) -> str:
    """requirements.lock: each package's version, its files' hashes, a marker if not on all."""
    by_name: dict[str, Locked] = {}
    for path in sorted(wheels.glob("*.whl")):
        name, version, _, tags = parse_wheel_filename(path.name)
        on = {plat for plat, accepted in platforms.items() if tags & accepted}
        if not on:
            path.unlink()  # a wheel no platform of the bundle can use (a pip cache leftover)
            continue
        entry = by_name.setdefault(name, Locked())
        entry.versions.add(str(version))
        entry.hashes.append(hashlib.sha256(path.read_bytes()).hexdigest())
        entry.on |= on
    lines = [
        "# Every wheel of this bundle, pinned with its hash; install.sh runs",
        "#   pip install --no-index --find-links wheels --require-hashes -r requirements.lock",
        "# Written by scripts/bundle.py (make bundle); do not edit.",
    ]
    for name, entry in sorted(by_name.items()):
        if len(entry.versions) != 1:
            raise SystemExit(f"bundle: {name} has several versions: {sorted(entry.versions)}")
        spec = f"{name}=={next(iter(entry.versions))}"
        if entry.on != set(platforms):
            wanted = sorted({machines[plat] for plat in entry.on})
            marker = " or ".join(f'platform_machine == "{m}"' for m in wanted)
            Marker(marker)  # a valid marker, or stop here
            spec += f" ; {marker}"
        hashes = [f"    --hash=sha256:{h}" for h in sorted(entry.hashes)]
        lines.append(" \\\n".join([spec, *hashes]))
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "wuzi-bundle")
    parser.add_argument("--extras", default="host", help="groups, comma-separated (host)")
    parser.add_argument(
        "--platform",
        action="append",
        choices=("pi", "native"),
        help="whose wheels (repeatable; default: pi and native)",
    )
    parser.add_argument("--no-tar", action="store_true", help="no .tar.gz beside the folder")
    args = parser.parse_args(argv)
    extras = [e for e in args.extras.split(",") if e]
    chosen = args.platform or ["pi", "native"]
    out: Path = args.out.resolve()
    if out.exists():
        shutil.rmtree(out)
    wheels = out / "wheels"
    wheels.mkdir(parents=True)

    wheel = build_wheel(out, ROOT, SOURCES, "wuzi")
    for dist in local_dists(extras):
        folder = ROOT / LOCAL_DISTS[dist]
        build_wheel(out, folder, tuple(p.name for p in folder.iterdir()), dist)
    copy_kit(out)
    platforms: dict[str, set[Tag]] = {}
    machines: dict[str, str] = {}
    native_python = f"{sys.version_info.major}.{sys.version_info.minor}"
    for plat in chosen:
        if plat == "pi":
            platforms[plat], machines[plat] = pi_tags(), "aarch64"
            fetch(plat, requirements(extras, PI_ENVIRONMENT), wheels)
        else:
            platforms[plat], machines[plat] = set(sys_tags()), os.uname().machine
            fetch(plat, requirements(extras, None), wheels)
    if len(set(machines.values())) != len(machines):
        raise SystemExit(f"bundle: two platforms of one machine type: {machines}")

    (out / "requirements.lock").write_text(lock(wheels, platforms, machines), encoding="utf-8")
    pythons = {"3.11" if p == "pi" else native_python for p in chosen}
    (out / "PYTHON").write_text(" ".join(sorted(pythons)) + "\n", encoding="utf-8")
    install = out / "install.sh"
    shutil.copy2(HERE / "bundle-install.sh", install)
    install.chmod(0o755)
    (out / "CONTENTS").write_text(contents(out, extras), encoding="utf-8")
    sums = []
    for path in sorted(p for p in out.rglob("*") if p.is_file() and p.name != "SHA256SUMS"):
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        sums.append(f"{digest}  {path.relative_to(out).as_posix()}")
    (out / "SHA256SUMS").write_text("\n".join(sums) + "\n", encoding="utf-8")

    count = len(list(wheels.glob("*.whl")))
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    print(f"bundle: {out}: {wheel.name}, {count} wheels ({', '.join(chosen)}), {size // 1024} KiB")
    if not args.no_tar:
        archive = shutil.make_archive(str(out), "gztar", out.parent, out.name)
        print(f"bundle: {archive}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
