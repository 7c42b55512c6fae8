"""The site's engine wheel (tools/build_site.py): built from the engine's explicit list of files, never the lab's,
and byte for byte the same when only the documentation changes (a new wheel is a new immutable URL, and every
returning player's memory snapshot dropped)."""

from __future__ import annotations

import importlib.util
import shutil
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def load_build_site():
    spec = importlib.util.spec_from_file_location("tools_build_site", ROOT / "tools" / "build_site.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


build_site = load_build_site()


def test_the_wheel_is_built_from_the_engines_modules_and_the_license_only():
    inputs = [p.as_posix() for p in build_site.engine_inputs()]
    assert inputs[0] == "LICENSE"
    assert "engine/coinche/__init__.py" in inputs and "engine/coinche/bots/__init__.py" in inputs
    assert all(p.startswith("engine/coinche/") and p.endswith(".py") for p in inputs[1:])
    for absent in ("README.md", "pyproject.toml", "CONTRIBUTING.md"):
        assert absent not in inputs
    assert not [p for p in inputs if p.startswith(("docs/", "lab/", "referee/"))]


def test_every_package_and_file_of_the_engine_is_in_the_list():
    """A new sub-package, or a data file, would be left out of the browser's engine without a word."""
    packages = sorted(".".join(p.parent.relative_to(ROOT / "engine").parts)
                      for p in (ROOT / "engine" / "coinche").rglob("__init__.py"))
    assert packages == sorted(build_site.ENGINE_PACKAGES)
    files = {p.relative_to(ROOT) for p in (ROOT / "engine").rglob("*")
             if p.is_file() and "__pycache__" not in p.parts}
    assert files == set(build_site.engine_inputs()) - {Path("LICENSE")}


def test_the_wheels_pyproject_names_no_readme_and_no_lab():
    text = build_site.wheel_pyproject()
    assert 'name = "coinche"' in text and 'packages = ["coinche", "coinche.bots"]' in text
    assert "readme" not in text and "README" not in text and "coinche_lab" not in text and "lab" not in text


def project_copy(tmp: Path) -> Path:
    """What the wheel could depend on: the project's files, docs and lab included."""
    root = tmp / "project"
    root.mkdir()
    for name in ("pyproject.toml", "LICENSE", "README.md"):
        shutil.copy2(ROOT / name, root / name)
    for folder in ("engine", "lab", "docs"):
        if (ROOT / folder).is_dir():
            shutil.copytree(ROOT / folder, root / folder, ignore=shutil.ignore_patterns("__pycache__"))
    return root


def edit_the_docs(root: Path) -> None:
    (root / "README.md").write_text((root / "README.md").read_text() + "\nA typo fixed.\n")
    (root / "docs").mkdir(exist_ok=True)
    (root / "docs" / "rules.md").write_text("# Rules, reworded\n")
    (root / "docs" / "new-page.md").write_text("# A new page\n")
    (root / "lab" / "coinche_lab" / "another_arena.py").write_text('"""A new experiment."""\n')


def test_the_inputs_key_ignores_the_docs_and_follows_the_engine(tmp_path):
    root = project_copy(tmp_path)
    before = build_site.wheel_inputs_key(root)
    edit_the_docs(root)
    assert build_site.wheel_inputs_key(root) == before
    cards = root / "engine" / "coinche" / "cards.py"
    cards.write_text(cards.read_text() + "\n")
    assert build_site.wheel_inputs_key(root) != before


def test_the_wheels_bytes_do_not_change_when_only_the_docs_do(tmp_path):
    root = project_copy(tmp_path)
    first = build_site.build_wheel(root, tmp_path / "first")
    edit_the_docs(root)
    second = build_site.build_wheel(root, tmp_path / "second")
    assert first.name == second.name and first.read_bytes() == second.read_bytes()
    with zipfile.ZipFile(first) as zf:
        names = zf.namelist()
    modules = {name for name in names if name.endswith(".py")}
    assert modules == {p.relative_to("engine").as_posix() for p in build_site.engine_inputs(root)[1:]}
    assert not [name for name in names if "coinche_lab" in name or "arena" in name or "auction_v1" in name]
    assert not [name for name in names if name.lower().startswith("readme") or name.startswith("docs/")]


@pytest.mark.parametrize("field", ["version", "license"])
def test_a_project_without_what_the_wheel_needs_is_refused(tmp_path, field):
    root = project_copy(tmp_path)
    text = (root / "pyproject.toml").read_text()
    (root / "pyproject.toml").write_text("\n".join(line for line in text.splitlines()
                                                  if not line.startswith(f"{field} =")))
    with pytest.raises(build_site.BuildError, match=field):
        build_site.wheel_pyproject(root)
