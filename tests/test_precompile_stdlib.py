"""tools/precompile_stdlib.py rewrites a standard library zip: the modules it is given as bytecode only, the
others untouched; the result imports under zipimport. Run here under CPython, whose bytecode it then holds
(the build runs it under Pyodide's Python, e2e/test_pyodide_node.py checks that one)."""
from __future__ import annotations

import importlib.machinery
import importlib.util
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("precompile_stdlib", ROOT / "tools" / "precompile_stdlib.py")
precompile_stdlib = importlib.util.module_from_spec(spec)
spec.loader.exec_module(precompile_stdlib)


@pytest.fixture
def library(tmp_path: Path) -> Path:
    stock = tmp_path / "stock.zip"
    with zipfile.ZipFile(stock, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("used_mod.py", "VALUE = 6 * 7\n\ndef fail():\n    raise ValueError('from used_mod')\n")
        archive.writestr("pkg/__init__.py", "from .inner import WHO\n")
        archive.writestr("pkg/inner.py", "WHO = 'inner'\n")
        archive.writestr("other_mod.py", "VALUE = 'source'\n")
        archive.writestr("data.txt", "kept as it is\n")
    return stock


def test_the_given_modules_become_bytecode_and_the_rest_is_untouched(library, tmp_path):
    out = tmp_path / "out.zip"
    count = precompile_stdlib.precompile(str(library), str(out), "/lib/stock.zip",
                                         {"used_mod.py", "pkg/__init__.py", "pkg/inner.py"})
    assert count == 3
    with zipfile.ZipFile(out) as archive, zipfile.ZipFile(library) as stock:
        names = archive.namelist()
        assert names == ["used_mod.pyc", "pkg/__init__.pyc", "pkg/inner.pyc", "other_mod.py", "data.txt"]
        assert archive.read("other_mod.py") == stock.read("other_mod.py")
        assert archive.read("data.txt") == stock.read("data.txt")
        assert all(info.compress_type == zipfile.ZIP_DEFLATED for info in archive.infolist())
        assert archive.read("used_mod.pyc")[:4] == importlib.util.MAGIC_NUMBER
    probe = (
        "import sys, traceback; sys.path.insert(0, sys.argv[1])\n"
        "import used_mod, pkg, other_mod\n"
        "print(used_mod.VALUE, pkg.WHO, other_mod.VALUE, used_mod.__file__.endswith('used_mod.pyc'))\n"
        "try:\n    used_mod.fail()\nexcept ValueError:\n"
        "    print(traceback.extract_tb(sys.exc_info()[2])[-1].filename)\n"
    )
    done = subprocess.run([sys.executable, "-B", "-c", probe, str(out)], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines() == ["42 inner source True", "/lib/stock.zip/used_mod.py"]


def test_a_module_the_library_does_not_hold_stops_the_build(library, tmp_path):
    with pytest.raises(SystemExit, match="missing_mod.py"):
        precompile_stdlib.precompile(str(library), str(tmp_path / "out.zip"), "/lib/stock.zip",
                                     {"used_mod.py", "missing_mod.py"})
    assert not (tmp_path / "out.zip").exists()


def test_only_modules_loaded_from_the_library_are_taken(monkeypatch):
    fake = type(sys)("fake_from_library")
    fake.__file__ = "/lib/stock.zip/deep/fake_from_library.py"
    elsewhere = type(sys)("fake_elsewhere")
    elsewhere.__file__ = "/site-packages/fake_elsewhere.py"
    compiled = type(sys)("fake_compiled")  # loaded from bytecode an earlier run made: its source is named
    compiled.__file__ = "/lib/stock.zip/fake_compiled.pyc"
    frozen = type(sys)("fake_frozen")  # a frozen module names its source in the library but never reads it
    frozen.__file__ = "/lib/stock.zip/fake_frozen.py"
    frozen.__spec__ = importlib.machinery.ModuleSpec("fake_frozen", None, origin="frozen")
    for module in (fake, elsewhere, compiled, frozen):
        monkeypatch.setitem(sys.modules, module.__name__, module)
    assert precompile_stdlib.used_sources("/lib/stock.zip") == {"deep/fake_from_library.py", "fake_compiled.py"}
