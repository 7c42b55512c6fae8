"""Add the bytecode of the browser's Python to the engine wheel, so that the first visit imports it without
compiling.

Run under Pyodide's own interpreter (the bytecode must be that exact Python's), by tools/build_site.py:

    node tools/pyodide_node.mjs --dist DIST --install none tools/precompile_wheel.py IN.whl OUT.whl ZIP_PATH \
        [LATER_ZIP_PATH MODULE...]

Each ``coinche/**/x.py`` gets a ``coinche/**/x.pyc`` beside it (zipimport looks for ``x.pyc`` before
``x.py``), unchecked-hash based: nothing is compared at import, the wheel's sha256 in build-info.json already pins
the pair. Code objects carry ``ZIP_PATH/coinche/x.py`` as their file name, what zipimport would give the source, so
tracebacks read the same; the MODULEs named (``coinche/puzzle.py``...) carry LATER_ZIP_PATH instead:
tools/build_site.py moves them into the archive the worker mounts there when a command first needs one. The
bytecode has no docstrings (the sources beside it keep them, for doctest and for a reader): nothing in the engine
reads a docstring at run time, and they were a sixth of the wheel as served. The entries are listed in RECORD: the
wheel stays a valid wheel, and any
other Python ignores bytecode of another version (zipimport falls back to the source on a magic mismatch).
"""
from __future__ import annotations

import ast
import base64
import hashlib
import importlib._bootstrap_external as external
import importlib.util
import sys
import zipfile

FIXED_TIME = (1980, 1, 1, 0, 0, 0)  # reproducible archives


def record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def without_docstrings(source: bytes) -> ast.Module:
    """The module's syntax tree with every docstring (module, class, function) made empty: each keeps its line,
    so line numbers in tracebacks are the source's."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                first.value.value = ""
    return tree


def precompile(source: str, target: str, zip_path: str, later_zip_path: str = "", *later: str) -> int:
    with zipfile.ZipFile(source) as wheel:
        entries = [(info, wheel.read(info)) for info in wheel.infolist()]
    record = next(info for info, _ in entries if info.filename.endswith(".dist-info/RECORD"))
    added: list[tuple[str, bytes]] = []
    for info, data in entries:
        if info.filename.endswith(".py"):
            where = later_zip_path if info.filename in later else zip_path
            code = compile(without_docstrings(data), f"{where}/{info.filename}", "exec", dont_inherit=True, optimize=0)
            pyc = external._code_to_hash_pyc(code, importlib.util.source_hash(data), checked=False)
            added.append((info.filename + "c", bytes(pyc)))
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as out:
        for info, data in entries:
            if info is not record:
                out.writestr(info, data)
        for name, data in added:
            out.writestr(zipfile.ZipInfo(name, FIXED_TIME), data, zipfile.ZIP_DEFLATED)
        lines = dict(entries)[record].decode().rstrip("\n").split("\n")
        lines += [record_line(name, data) for name, data in added]
        out.writestr(record, "\n".join(lines) + "\n")
    magic = importlib.util.MAGIC_NUMBER.hex()
    print(f"precompile_wheel: {len(added)} modules compiled for Python {sys.version.split()[0]} (magic {magic})")
    return len(added)


def main(argv: list[str]) -> int:
    if len(argv) < 3 or len(argv) == 4:
        print("usage: precompile_wheel.py IN.whl OUT.whl ZIP_PATH [LATER_ZIP_PATH MODULE...]", file=sys.stderr)
        return 2
    precompile(*argv)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
