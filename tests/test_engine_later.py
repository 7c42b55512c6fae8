"""The engine's modules a first visit does not need, shipped apart (tools/build_site.py LATER_MODULES): the
wheel split in two, what a page imports at its start never among them, and a command that needs one answered
`engine_module_missing` (the worker then mounts the archive and runs it again: web/js/engine-worker.js; in
Pyodide, e2e/test_pyodide_node.py; offline after a first visit, e2e/test_offline.py)."""
from __future__ import annotations

import json
import subprocess
import sys
import zipfile

import pytest

from coinche import webapi
from test_site_wheel import ROOT, build_site


def test_a_command_needing_a_missing_engine_module_says_which(monkeypatch):
    def needs_later():
        from coinche.not_mounted import anything  # noqa: F401

    def needs_other():
        import not_a_module_at_all  # noqa: F401

    monkeypatch.setitem(webapi.COMMANDS, "needs_later", needs_later)
    monkeypatch.setitem(webapi.COMMANDS, "needs_other", needs_other)
    missing = json.loads(webapi.handle("needs_later", "{}"))["error"]
    assert (missing["code"], missing["params"]) == ("engine_module_missing", {"cmd": "needs_later", "module": "coinche.not_mounted"})
    assert json.loads(webapi.handle("needs_other", "{}"))["error"]["code"] == "internal_error"  # a bug, not a part


def test_a_pages_start_imports_none_of_the_later_modules():
    """What the worker imports at its boot and its snapshot holds (web/js/engine-worker.js SNAPSHOT_IMPORTS),
    and a match's commands, load no module of the later archive."""
    later = [name.removesuffix(".py").replace("/", ".") for name in build_site.LATER_MODULES]
    probe = ("import json, sys, coinche.webapi as w, coinche.bots, coinche.record\n"
             "w.handle('new_match', json.dumps({'seed': 'later'}))\n"
             "print(json.dumps(sorted(sys.modules)))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT)
    assert not set(later) & set(json.loads(done.stdout))


def wheel_of(path, names):
    with zipfile.ZipFile(path, "w") as wheel:
        for name in names:
            wheel.writestr(name, f"# {name}\n")
        wheel.writestr("coinche-0.1.0.dist-info/RECORD", "".join(f"{name},sha256=x,1\n" for name in names))
    return path


def test_the_wheel_split_moves_the_later_modules_and_their_record_lines(tmp_path, monkeypatch):
    monkeypatch.setattr(build_site, "LATER_MODULES", ("coinche/puzzle.py",))
    names = ["coinche/__init__.py", "coinche/__init__.pyc", "coinche/puzzle.py", "coinche/puzzle.pyc"]
    whole = wheel_of(tmp_path / "whole.whl", names)
    build_site.split_wheel(whole, tmp_path / "core.whl", tmp_path / "later.zip")
    core, later = zipfile.ZipFile(tmp_path / "core.whl"), zipfile.ZipFile(tmp_path / "later.zip")
    assert later.namelist() == ["coinche/puzzle.py", "coinche/puzzle.pyc"]
    assert core.namelist() == ["coinche/__init__.py", "coinche/__init__.pyc", "coinche-0.1.0.dist-info/RECORD"]
    record = core.read("coinche-0.1.0.dist-info/RECORD").decode()
    assert "coinche/__init__.pyc" in record and "puzzle" not in record
    assert later.read("coinche/puzzle.py") == b"# coinche/puzzle.py\n"

    monkeypatch.setattr(build_site, "LATER_MODULES", ("coinche/gone.py",))
    with pytest.raises(build_site.BuildError, match="coinche/gone.py"):
        build_site.split_wheel(whole, tmp_path / "core2.whl", tmp_path / "later2.zip")
