"""Ship Pyodide's standard library with the bytecode of what the site imports, so that Python starts without
compiling it.

Pyodide's ``python_stdlib.zip`` holds sources only: each of the ~150 modules that Python's own start-up,
Pyodide's and the engine import is compiled at every boot (measured on a 2-core machine: a bare Pyodide
boot in Chromium takes 1.8 s with them as sources, 0.66 s with their bytecode). This script, run under
Pyodide's own interpreter (the bytecode must be that exact Python's) with the engine installed, by
tools/build_site.py:

    node tools/pyodide_node.mjs --dist DIST --install unpack --wheel WHEEL --no-snapshot \\
        tools/precompile_stdlib.py STOCK.zip OUT.zip

imports every module of the ``coinche`` package, takes every module then loaded from the standard library's
zip, and writes OUT.zip: STOCK.zip with each of those ``x.py`` replaced by ``x.pyc`` (unchecked-hash based,
as in tools/precompile_wheel.py; zipimport looks for ``x.pyc`` before ``x.py``). Only these modules go
sourceless, so that the download grows by the bytecode of what is used (~0.7 MB), not of the whole library;
every other module stays a source, compiled when first imported, as before. Code objects carry
``ZIP/x.py`` as their file name, what an import from source gives, so tracebacks name the same file and
line (without the line's text).
"""
from __future__ import annotations

import importlib
import importlib._bootstrap_external as external
import importlib.util
import pkgutil
import sys
import zipfile

FIXED_TIME = (1980, 1, 1, 0, 0, 0)  # reproducible archives


def stdlib_zip() -> str:
    """Where this interpreter reads its standard library, e.g. /lib/python314.zip."""
    zips = [entry for entry in sys.path if entry.endswith(".zip")]
    if len(zips) != 1:
        raise SystemExit(f"precompile_stdlib: expected one zip on sys.path, found {zips}")
    return zips[0]


def import_engine() -> None:
    import coinche

    for module in pkgutil.walk_packages(coinche.__path__, "coinche."):
        importlib.import_module(module.name)


def used_sources(zip_path: str) -> set[str]:
    """The names inside the zip of the source of every module loaded from it so far, whether this Python read
    the source or bytecode made by an earlier run (frozen modules, which name their source in the zip but
    never read it, are left as they are)."""
    prefix = zip_path + "/"
    files = {getattr(module, "__file__", None) for module in list(sys.modules.values())
             if getattr(getattr(module, "__spec__", None), "origin", None) != "frozen"}
    return {name.removeprefix(prefix).removesuffix("c") for name in files
            if name and name.startswith(prefix) and name.endswith((".py", ".pyc"))}


def precompile(stock: str, target: str, zip_path: str, used: set[str]) -> int:
    with zipfile.ZipFile(stock) as archive:
        entries = [(info, archive.read(info)) for info in archive.infolist()]
    missing = used - {info.filename for info, _ in entries}
    if missing:
        raise SystemExit(f"precompile_stdlib: {stock} does not hold {sorted(missing)}: is it this Python's library?")
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as out:
        for info, data in entries:
            if info.filename in used:
                code = compile(data, f"{zip_path}/{info.filename}", "exec", dont_inherit=True, optimize=0)
                pyc = external._code_to_hash_pyc(code, importlib.util.source_hash(data), checked=False)
                out.writestr(zipfile.ZipInfo(info.filename + "c", FIXED_TIME), bytes(pyc), zipfile.ZIP_DEFLATED)
            else:
                out.writestr(info, data)
    return len(used)


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: precompile_stdlib.py STOCK.zip OUT.zip", file=sys.stderr)
        return 2
    zip_path = stdlib_zip()
    import_engine()
    count = precompile(*argv, zip_path, used_sources(zip_path))
    magic = importlib.util.MAGIC_NUMBER.hex()
    print(f"precompile_stdlib: {count} modules of {zip_path} compiled for Python {sys.version.split()[0]} (magic {magic})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
