"""The engine wheel installs and runs under the real Pyodide interpreter in Node (tools/pyodide_node.mjs)."""
from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # --import-mode=importlib: the helpers beside this file
from conftest import load_tool  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
RUNNER = ROOT / "tools" / "pyodide_node.mjs"
PING = "import coinche, coinche.webapi; print(coinche.webapi.handle('ping', '{}'))"


def pyodide_node(*args: str) -> subprocess.CompletedProcess:
    if shutil.which("node") is None:
        pytest.fail("node is not installed: the Pyodide runner needs Node 20 or later", pytrace=False)
    return subprocess.run(["node", str(RUNNER), *args], cwd=ROOT, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("options", [["--install", "micropip"], ["--install", "unpack", "--no-snapshot"]])
def test_wheel_installs_and_answers_ping(build_info, options):
    done = pyodide_node(*options, "-c", PING)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"result": {"pong": True, "version": build_info["version"]}}


def test_script_runs_with_argv_stdout_and_exit_status(build_info, tmp_path):
    script = tmp_path / "probe.py"
    script.write_text(
        "import sys, importlib.metadata\n"
        "print(sys.platform, sys.argv[1:], importlib.metadata.version('coinche'))\n"
        "sys.exit(int(sys.argv[1]))\n"
    )
    done = pyodide_node(str(script), "3")
    assert done.stdout == f"emscripten ['3'] {build_info['version']}\n"
    assert done.returncode == 3


def test_output_survives_a_reader_slower_than_python(build_info):
    """Lines written while the pipe is full are kept whole and in order (CI's parity run once lost 1,900)."""
    code = "for i in range(20000): print(f'line {i:05d} ' + 'x' * 40)"
    runner = subprocess.Popen(["node", str(RUNNER), "-c", code], cwd=ROOT, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE)
    time.sleep(3)  # Python fills the pipe (64 kB) long before this: later writes wait in Node
    out, err = runner.communicate(timeout=120)
    assert runner.returncode == 0, err.decode()
    assert out.decode().splitlines() == [f"line {i:05d} " + "x" * 40 for i in range(20000)]


def test_python_exception_fails_with_its_traceback(build_info):
    done = pyodide_node("-c", "raise ValueError('boom')")
    assert done.returncode == 1
    assert "ValueError: boom" in done.stderr


ZIP_PROBE = """
import importlib, json, sys, zipfile
wheel, later = sys.argv[1:3]
sys.path.insert(0, wheel)
import coinche.webapi, coinche.bots, coinche.record  # what a page imports at its start (and its snapshot)
names = zipfile.ZipFile(wheel).namelist() + zipfile.ZipFile(later).namelist()
sources = [n for n in names if n.endswith('.py')]
before = json.loads(coinche.webapi.handle('puzzle_parse', json.dumps({'text': 'x'})))['error']
coinche.__path__.append(later + '/coinche')  # as web/js/engine-worker.js mounts it
importlib.invalidate_caches()
after = json.loads(coinche.webapi.handle('puzzle_parse', json.dumps({'text': 'x'})))['error']
import coinche.cli, coinche.daily, coinche.par, coinche.puzzle
loaded = sorted(m.__name__ for m in list(sys.modules.values())
                if getattr(m, '__name__', '').startswith('coinche') and m.__file__.endswith('.pyc'))
print(len(sources), all(n + 'c' in names for n in sources), coinche.webapi.handle('ping', '{}'))
print(coinche.webapi.handle.__code__.co_filename, coinche.puzzle.solve_puzzle.__code__.co_filename)
print(' '.join(loaded))
print(before['code'], before['params']['module'], after['code'])
"""


def test_the_browser_imports_the_engine_from_its_wheel_as_bytecode(build_info, tmp_path):
    """The web worker puts the wheel on sys.path as it is (web/js/engine-worker.js): every module has the
    bytecode of Pyodide's Python beside it, imported without compiling, its source named under the path the
    worker uses. What a page imports at its start is in the wheel; the modules no first visit needs are in the
    later archive, as bytecode too: a command needing one is answered engine_module_missing until the worker
    mounts the archive, then runs."""
    script = tmp_path / "zip_probe.py"
    script.write_text(ZIP_PROBE)
    wheel = ROOT / "dist" / build_info["wheel"]["url"]
    later = ROOT / "dist" / build_info["later"]["url"]
    done = pyodide_node("--install", "none", str(script), str(wheel.relative_to(ROOT)), str(later.relative_to(ROOT)))
    assert done.returncode == 0, done.stderr
    counts, filenames, loaded, missing = done.stdout.splitlines()
    count, all_compiled, answer = counts.split(" ", 2)
    assert int(count) > 10 and all_compiled == "True"
    assert json.loads(answer)["result"]["pong"] is True
    worker = (ROOT / "web" / "js" / "engine-worker.js").read_text()
    assert 'const ENGINE_ZIP = "/coinche/engine.whl";' in worker
    assert 'const ENGINE_LATER_ZIP = "/coinche/later.zip";' in worker
    assert filenames.split() == ["/coinche/engine.whl/coinche/webapi.py", "/coinche/later.zip/coinche/puzzle.py"]
    assert {"coinche", "coinche.webapi", "coinche.cards", "coinche.session", "coinche.puzzle", "coinche.par",
            "coinche.daily", "coinche.cli"} <= set(loaded.split())
    assert missing.split() == ["engine_module_missing", "coinche.puzzle", "malformed_position"]
    assert build_info["later"]["modules"] == ["coinche.cli", "coinche.daily", "coinche.par", "coinche.puzzle"]


STDLIB_PROBE = """
import sys, traceback, zipfile
library = next(entry for entry in sys.path if entry.endswith('.zip'))
import coinche.webapi, coinche.bots, coinche.record
from_library = {m.__name__: m.__file__ for m in list(sys.modules.values())
                if (getattr(m, '__file__', None) or '').startswith(library + '/') and m.__spec__.origin != 'frozen'}
import xml.dom.minidom  # not used by the site: still imported, from its source
try:
    __import__('json').loads('{')
except ValueError:
    frames = [frame.filename for frame in traceback.extract_tb(sys.exc_info()[2])]
print(len(from_library), sorted(name for name, file in from_library.items() if not file.endswith('.pyc')))
print(xml.dom.minidom.__file__, xml.dom.minidom.parseString('<a>b</a>').documentElement.tagName)
print(library + '/json/decoder.py' in frames)
"""


def test_python_and_the_engine_start_on_the_standard_librarys_bytecode(tmp_path):
    """The build ships python_stdlib.zip with the bytecode of every module that Python's start-up and the
    engine load (tools/precompile_stdlib.py): none of them is compiled at a boot; a module the site does not
    use still imports from its source; a traceback still names the library's source files."""
    script = tmp_path / "stdlib_probe.py"
    script.write_text(STDLIB_PROBE)
    done = pyodide_node("--no-snapshot", str(script))
    assert done.returncode == 0, done.stderr
    loaded, unused, traceback_names_source = done.stdout.splitlines()
    count, compiled_from_source = loaded.split(" ", 1)
    assert int(count) > 100 and compiled_from_source == "[]"
    assert unused == "/lib/python314.zip/xml/dom/minidom.py a"
    assert traceback_names_source == "True"


def test_the_standard_library_is_named_by_its_content_and_the_stock_one_is_not_shipped(build_info):
    """Every file under pyodide/ is cached as immutable: the precompiled library's URL changes with its bytes
    (a browser holding another build's library must not start Python on it), and Pyodide's own library,
    without bytecode, is not there for anything to start on by mistake."""
    folder = ROOT / "dist" / build_info["pyodide"]["url"]
    name = build_info["pyodide"]["stdlib"]
    digest = hashlib.sha256((folder / name).read_bytes()).hexdigest()
    assert name == f"python_stdlib-{digest[:16]}.zip" and build_info["pyodide"]["stdlib_sha256"] == digest
    assert not (folder / "python_stdlib.zip").exists()
    current = (ROOT / "dist" / "js" / "pyodide-current.mjs").read_text()
    assert f'export const stdLibURL = new URL("../{build_info["pyodide"]["url"]}{name}", import.meta.url).href;' in current
    boot = (ROOT / "dist" / "js" / "engine-boot.js").read_text()
    assert json.dumps(name) in boot and "@PYODIDE_STDLIB@" not in boot


def test_precompiling_again_on_the_sites_own_library_finds_the_same_modules(build_info, tmp_path):
    """tools/precompile_stdlib.py run on a Python that already reads the precompiled library (the site's, as
    any run after a build does) takes the same modules as the build did, from their bytecode's names."""
    stock = ROOT / ".cache" / "tmp-precompile" / "stock.zip"
    stock.parent.mkdir(parents=True, exist_ok=True)  # under the repository, which Pyodide sees
    out = stock.with_name("out.zip")
    try:
        build = load_tool("build_site")
        stock.write_bytes(build.pyodide_file(build.CACHE / build.PYODIDE_TGZ, "python_stdlib.zip"))
        done = pyodide_node("--no-snapshot", "tools/precompile_stdlib.py", str(stock.relative_to(ROOT)),
                            str(out.relative_to(ROOT)))
        assert done.returncode == 0, done.stderr
        site = ROOT / "dist" / build_info["pyodide"]["url"] / build_info["pyodide"]["stdlib"]
        compiled = [{name for name in zipfile.ZipFile(path).namelist() if name.endswith(".pyc")} for path in (out, site)]
        assert len(compiled[0]) > 100 and compiled[0] == compiled[1]
    finally:
        shutil.rmtree(stock.parent, ignore_errors=True)
