"""Compiled dataclass methods kept between runs, as ``.pyc`` files keep modules (issue 22).

Every ``@dataclass`` writes the source text of its ``__init__``, ``__repr__``, ``__eq__``,
``__setattr__`` … and compiles it with ``exec``, each time the class is created: the
``.pyc`` of its module cannot hold them. A table host creates about 190 dataclasses at
its start, 1,063 functions, and compiling them was ~70 ms of its ~0.19 s of imports on
the development machine (~0.3 s on a Pi 4; docs/performance.md).

The same text compiled by the same interpreter always gives the same code, so the code
can be kept: ``write_cache`` (run by ``make pyc`` after ``compileall``, and by
``python -m wuzi.base.codecache``) imports every module of the ``wuzi`` packages and
stores each function text a dataclass compiled with its code object, in one ``marshal``
file in this package's ``__pycache__`` folder (named by the interpreter's cache tag, like
a ``.pyc``). ``install`` (``wuzi.cli`` calls it first thing) loads that file and gives the
``dataclasses`` module an ``exec`` that looks the text up before compiling it.

Why this is the same program: the cache is keyed by the *whole* source text, and a hit
runs the code ``compile`` made of exactly that text, with the flags ``dataclasses``' own
``exec`` would have used (none: it has no ``__future__`` imports) — the function created,
its defaults, closures, globals and annotations are those the text gives. A text not in
the file (a class changed since ``make pyc``, another program's dataclass) is compiled as
before. A file written by another interpreter (its bytecode magic differs) or with
another optimisation level, or one that cannot be read, is ignored: everything is
compiled, as without a cache. The file is as trusted as the ``.pyc`` files beside it.
"""

import builtins
import dataclasses
import importlib
import importlib.util
import marshal
import os
import sys
from collections.abc import Callable
from pathlib import Path
from types import CodeType
from typing import Any

__all__ = ["CodeCache", "cache_path", "install", "installed", "load_cache", "main", "write_cache"]

_FORMAT = 1
"""Bumped when the file's layout changes: a file of another format is ignored."""

Exec = Callable[..., None]


def cache_path() -> Path | None:
    """Where the cache of this interpreter lives (None: it keeps no bytecode caches)."""
    tag = sys.implementation.cache_tag
    if tag is None:
        return None
    return Path(__file__).parent / "__pycache__" / f"dataclass-code.{tag}.marshal"


def _header() -> tuple[int, bytes, int]:
    """What a file must carry to be used: the format, the bytecode magic number of this
    interpreter (code objects are only valid in the interpreter that made them) and the
    optimisation level (``-O`` compiles differently)."""
    return _FORMAT, importlib.util.MAGIC_NUMBER, sys.flags.optimize


def _compile(text: str) -> CodeType:
    """``text`` compiled as ``dataclasses``' ``exec(text, …)`` compiles it: file name
    ``<string>``, and no ``__future__`` flags (``dont_inherit``: never this module's)."""
    return compile(text, "<string>", "exec", dont_inherit=True)


class CodeCache:
    """The cached code of a file, by defining module and source text. The file holds
    each module's table as marshalled bytes of its own, decoded when a class of that
    module is first created: a process pays only for the modules it imports (a host
    imports about 60% of the functions a ``make pyc`` keeps)."""

    def __init__(self, blobs: dict[str, bytes]) -> None:
        self._blobs = blobs
        self._tables: dict[str, dict[str, CodeType]] = {}

    def __len__(self) -> int:
        return len(self._blobs)

    def code(self, module: object, text: str) -> CodeType | None:
        """The code of ``text`` as a class of ``module`` compiles it, if kept."""
        if not isinstance(module, str):
            return None
        table = self._tables.get(module)
        if table is None:
            table = self._tables[module] = _decode(self._blobs.get(module))
        return table.get(text)


def _decode(blob: bytes | None) -> dict[str, CodeType]:
    """One module's table; empty if it cannot be read (its texts are then compiled)."""
    if blob is None:
        return {}
    try:
        table = marshal.loads(blob)
    except Exception:  # a damaged file: no cache for the module, everything is compiled
        return {}
    if not isinstance(table, dict):
        return {}
    return {
        text: code
        for text, code in table.items()
        if isinstance(text, str) and isinstance(code, CodeType)
    }


def load_cache(path: Path | None = None) -> CodeCache:
    """The cache of the file at ``path`` (default ``cache_path()``); empty when there is
    no usable file."""
    path = cache_path() if path is None else path
    empty = CodeCache({})
    if path is None:
        return empty
    try:
        data = path.read_bytes()
    except OSError:
        return empty
    try:
        header, blobs = marshal.loads(data)
    except Exception:  # a truncated or foreign file: no cache, everything is compiled
        return empty
    if header != _header() or not isinstance(blobs, dict):
        return empty
    kept = {name: blob for name, blob in blobs.items() if isinstance(name, str)}
    return CodeCache({name: blob for name, blob in kept.items() if type(blob) is bytes})


def _cached_exec(cache: CodeCache) -> Exec:
    """An ``exec`` for the ``dataclasses`` module that takes a text's code from ``cache``
    (see the module docstring for why the result is the same). ``dataclasses`` runs its
    texts in the globals of the class's module: their ``__name__`` says which table."""

    def exec_(source: Any, globals: Any = None, locals: Any = None, /) -> None:
        if isinstance(source, str):
            module = globals.get("__name__") if isinstance(globals, dict) else None
            code = cache.code(module, source)
            source = _compile(source) if code is None else code
        builtins.exec(source, globals, locals)

    return exec_


def installed() -> bool:
    """Whether ``dataclasses`` takes its functions' code from a cache in this process."""
    return "exec" in vars(dataclasses)


def install(path: Path | None = None) -> int:
    """Let ``dataclasses`` use the cached code from now on; the number of modules the
    file has code for (0: no usable file, nothing changed). Once per process: a second call, or a
    ``dataclasses`` whose ``exec`` someone else has replaced, changes nothing."""
    if installed():
        return 0
    cache = load_cache(path)
    if cache:
        vars(dataclasses)["exec"] = _cached_exec(cache)
    return len(cache)


def _walk(package: str) -> list[str]:
    """The names of every module of the regular package ``package`` and below, except
    ``__main__`` modules (importing them runs a program)."""
    import pkgutil  # only ``make pyc`` walks packages: a start does not pay for it

    root = importlib.import_module(package)
    names = [package]
    for info in pkgutil.walk_packages(root.__path__, prefix=f"{package}.", onerror=lambda _: None):
        if info.name.rpartition(".")[2] != "__main__":
            names.append(info.name)
    return names


def _packages() -> list[str]:
    """The packages of the ``wuzi`` folder this module is installed in (an installed
    wheel has every one there; a development checkout has ``host/wuzi``'s: name
    ``wuzi.display`` and ``wuzi.sim`` to ``main`` to have them too). ``wuzi`` is a
    namespace package, which ``pkgutil`` cannot list through an editable install."""
    folder = Path(__file__).resolve().parents[1]
    return sorted(
        f"wuzi.{child.name}"
        for child in folder.iterdir()
        if (child / "__init__.py").is_file() and child.name.isidentifier()
    )


def write_cache(packages: list[str] | None = None, path: Path | None = None) -> int:
    """Import every module of ``packages`` (default: ``_packages()``) and write the code
    of every dataclass function text compiled meanwhile, by module; the number of texts.
    A module that cannot be imported here (an optional package missing) adds nothing: its
    classes are compiled at run time."""
    path = cache_path() if path is None else path
    if path is None:
        return 0
    seen: dict[str, dict[str, CodeType]] = {}

    def recording(source: Any, globals: Any = None, locals: Any = None, /) -> None:
        module = globals.get("__name__") if isinstance(globals, dict) else None
        if isinstance(source, str) and isinstance(module, str):
            table = seen.setdefault(module, {})
            table[source] = code = table.get(source) or _compile(source)
            source = code
        builtins.exec(source, globals, locals)

    before = vars(dataclasses).get("exec")
    vars(dataclasses)["exec"] = recording
    try:
        for package in _packages() if packages is None else packages:
            for name in _walk(package):
                if name in sys.modules:
                    continue  # created before recording began: not seen, so not kept
                try:
                    importlib.import_module(name)
                except Exception:  # optional groups (pyglet …): their classes compile later
                    continue
    finally:
        if before is None:
            del vars(dataclasses)["exec"]
        else:
            vars(dataclasses)["exec"] = before
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    blobs = {module: marshal.dumps(table) for module, table in seen.items()}
    temporary.write_bytes(marshal.dumps((_header(), blobs)))
    os.replace(temporary, path)  # readers see the old file or the new, never half of one
    return sum(len(table) for table in seen.values())


def main(argv: list[str] | None = None) -> int:
    """``python -m wuzi.base.codecache [PACKAGE …]``: write the cache for the packages of
    this ``wuzi`` folder and the ``PACKAGE``s named (``make pyc``: ``wuzi.display`` and
    ``wuzi.sim``, which a checkout keeps in folders of their own)."""
    extra = sys.argv[1:] if argv is None else argv
    count = write_cache([*_packages(), *(name for name in extra if name not in _packages())])
    print(f"{cache_path()}: {count} dataclass functions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
