#!/usr/bin/env python3
"""Build the static site in dist/: web/ + vendored Pyodide + the engine wheel.

    python3 tools/build_site.py [--out dist]

Needs only the standard library, pip (with network access to PyPI the first time), npm (for `npm pack`)
and Node (which npm brings).
The environment variable COINCHE_REFEREE_URL (e.g. wss://referee.example.org) sets the page's default 1v1
referee, written into build-info.json ("referee"); unset, the site has none until a player enters one.

Steps, each printed as it runs:
1. Pinned downloads, cached in .cache/ and checked against the sha256 constants below: the Pyodide core
   (`npm pack pyodide@VERSION`), the micropip wheel (`pip download`) and the illustrated deck's art
   (`npm pack svg-cards@VERSION`, cut into img/cards/ by tools/card_art.py). A second build with nothing
   changed downloads nothing.
2. The engine wheel, built by `pip wheel` from a clean copy of an explicit list of files (the modules of
   ENGINE_PACKAGES and the license, with a pyproject.toml of its own: wheel_pyproject; never README.md,
   docs/ or the lab, so that editing them leaves its bytes and URL as they are) with a fixed
   SOURCE_DATE_EPOCH (same sources, same bytes), cached in .cache/engine/ under a hash of its inputs (the
   latest only); then
   the bytecode of Pyodide's own Python added beside each module (tools/precompile_wheel.py, run under
   Node by tools/pyodide_node.mjs; cached in .cache/engine-web/), so the browser imports without compiling.
3. dist/ made anew: web/, the Pyodide files needed to boot (pyodide/; in place of python_stdlib.zip,
   python_stdlib-<hash>.zip with the bytecode of every module the site imports instead of their sources,
   tools/precompile_stdlib.py, cached in .cache/stdlib-web/: Python starts without compiling its own library;
   named by its content, since every file under pyodide/ is cached as immutable), the engine wheel
   (wheels/<hash>/) without LATER_MODULES, and those in an archive of their own (wheels/<hash>/coinche-later.zip,
   precached after the install, mounted by the worker when a command first needs one), the first deals that a
   first visit draws while its engine starts, dealt by that wheel (first-deals.json, tools/first_deals.py), what
   the engine offers (variants, targets, levels, house rules, notation limits: options.json,
   tools/engine_options.py), build-info.json (engine version, wheel URL and hash, the later archive's, sha256 of
   every file), and the service worker's precache list written into dist/sw.js (tools/precache.py).
4. Sizes: dist in total and what a first visit transfers (the service worker and all it precaches) as
   served (tools/serve.py's encodings, Netlify's: text and WebAssembly compressed), against FIRST_VISIT_GOAL.

To move to another Pyodide or micropip version: change the version, run the build once, and paste the
sha256 it reports into the constant (the build refuses any file that does not match its pin).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import tomllib
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import card_art  # noqa: E402  (tools/card_art.py: the illustrated deck cut from SVG-cards)
import precache  # noqa: E402  (tools/precache.py: the service worker's generated precache list)
import serve  # noqa: E402  (tools/serve.py: which files are sent compressed, and how)

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / ".cache"

PYODIDE_VERSION = "314.0.7"
PYODIDE_TGZ = f"pyodide-{PYODIDE_VERSION}.tgz"
PYODIDE_TGZ_SHA256 = "66b7949e5a0cba2250b586d7e368bf12fb482800748d182c4618254b685ffaa0"
# What the browser and Node need to boot: loader, Emscripten glue, interpreter, stdlib, lock file.
# Where the web worker puts the engine wheel in Pyodide's file system (web/js/engine-worker.js ENGINE_ZIP):
# the precompiled modules name their files under it.
ENGINE_ZIP_PATH = "/coinche/engine.whl"
# The engine's modules that no first visit needs, taken out of the wheel into an archive of their own
# (wheels/<hash>/coinche-later.zip, build-info.json "later"), precached after the install (tools/precache.py
# LATER): the command line (never run in a page), the puzzles (their page and "your mistakes"), the par and the
# deals of the day. The worker mounts it at ENGINE_LATER_ZIP_PATH when a command first needs one of them
# (web/js/engine-worker.js); the modules a page imports at its start must never be among them
# (e2e/test_pyodide_node.py).
LATER_MODULES = ("coinche/cli.py", "coinche/daily.py", "coinche/par.py", "coinche/puzzle.py")
ENGINE_LATER_ZIP_PATH = "/coinche/later.zip"
ENGINE_LATER = "coinche-later.zip"
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")

MICROPIP_VERSION = "0.11.1"
MICROPIP_WHEEL = f"micropip-{MICROPIP_VERSION}-py3-none-any.whl"
MICROPIP_WHEEL_SHA256 = "768de165adb8e66906039d8fec4127a57f522dfdf8e6fbff877a4616941ecfd3"

# The illustrated deck's art: David Bellot's SVG-cards (LGPL-2.1), cut into CARD_ART_DIR by tools/card_art.py.
CARD_ART_VERSION = "4.0.2"
CARD_ART_TGZ = f"svg-cards-{CARD_ART_VERSION}.tgz"
CARD_ART_TGZ_SHA256 = "d442a2c3c912bbb5dbc69eac86ef8c374fdcc6be55e4c4d3e8a3e021d69c4cd5"
CARD_ART_DIR = "img/cards"

# What the site's engine wheel holds: the modules (*.py) of these packages under engine/, and the license. A new
# sub-package of the engine is added here (tests/test_site_wheel.py fails until it is).
ENGINE_PACKAGES = ("coinche", "coinche.bots")
ENGINE_LICENSE = "LICENSE"
# What the wheel's own pyproject.toml takes from the project's: its identity, nothing about development.
WHEEL_PROJECT_FIELDS = ("name", "version", "description", "requires-python", "license", "dependencies")
# 1980-01-01, the earliest date a zip can hold: wheel bytes depend on the sources only.
SOURCE_DATE_EPOCH = "315532800"

# The engine's first deals for a first visit's preview (web/js/main.js reads it; tools/first_deals.py)
FIRST_DEALS = "first-deals.json"
# The engine's variants, targets, levels, house rules and notation limits (web/js/options.js; tools/engine_options.py)
ENGINE_OPTIONS = "options.json"

# What a first visit may download at most, compressed: the pages, Pyodide, the engine, all precached.
FIRST_VISIT_GOAL = 8_000_000
# The puzzle set (docs/puzzles.md): re-solved by the shipped engine at every build, precached after the install
# (tools/precache.py LATER), at most this big gzipped.
PUZZLES = "puzzles/open.jsonl"
PUZZLES_GOAL = 300_000


class BuildError(Exception):
    """A build step failed: the message says which and what to do."""


def say(message: str) -> None:
    print(f"build_site: {message}", flush=True)


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def human(size: int) -> str:
    return f"{size / 1e6:.2f} MB" if size >= 100_000 else f"{size / 1e3:.1f} kB"


def run(command: list[str], what: str, cwd: Path | None = None, env: dict | None = None) -> None:
    """Run a command quietly; on failure raise BuildError with its output."""
    try:
        done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True)
    except FileNotFoundError:
        raise BuildError(f"{what}: `{command[0]}` is not installed or not on PATH") from None
    if done.returncode != 0:
        output = (done.stdout + done.stderr).strip()
        raise BuildError(f"{what} failed (exit {done.returncode}): {' '.join(command)}\n{output}")


def fetch_pinned(name: str, sha256: str, download) -> Path:
    """Return .cache/NAME, downloading it with download(tmpdir) -> path unless a verified copy is there."""
    cached = CACHE / name
    if cached.exists():
        if sha256_of(cached) == sha256:
            say(f"{name}: cached, sha256 ok, nothing downloaded")
            return cached
        say(f"{name}: cached copy does not match its pin, downloading again")
        cached.unlink()
    CACHE.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory(dir=CACHE) as tmp:
        say(f"{name}: downloading")
        got = download(Path(tmp))
        actual = sha256_of(got)
        if actual != sha256:
            raise BuildError(
                f"{name}: sha256 mismatch, refusing to use it\n  expected {sha256}\n  got      {actual}\n"
                "If the version was changed on purpose, update the pinned sha256 in tools/build_site.py."
            )
        got.replace(cached)
    say(f"{name}: downloaded, sha256 ok ({human(cached.stat().st_size)})")
    return cached


def download_pyodide(tmp: Path) -> Path:
    run(["npm", "pack", "--silent", f"pyodide@{PYODIDE_VERSION}"], "npm pack pyodide", cwd=tmp)
    return tmp / PYODIDE_TGZ


def download_card_art(tmp: Path) -> Path:
    run(["npm", "pack", "--silent", f"svg-cards@{CARD_ART_VERSION}"], "npm pack svg-cards", cwd=tmp)
    return tmp / CARD_ART_TGZ


def download_micropip(tmp: Path) -> Path:
    run(
        [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--python-version", "3.14",
         "--only-binary=:all:", "-d", str(tmp), f"micropip=={MICROPIP_VERSION}"],
        "pip download micropip",
    )
    return tmp / MICROPIP_WHEEL


def engine_inputs(root: Path = ROOT) -> list[Path]:
    """The files the engine wheel is built from, relative to root, sorted: the license and every module of
    ENGINE_PACKAGES."""
    files = [Path(ENGINE_LICENSE)]
    for package in ENGINE_PACKAGES:
        folder = root / "engine" / Path(*package.split("."))
        if not (folder / "__init__.py").is_file():
            raise BuildError(f"engine wheel: {folder.relative_to(root)}/__init__.py is missing, "
                             f"there is no package {package} to build")
        files += sorted(p.relative_to(root) for p in folder.glob("*.py"))
    return files


def wheel_pyproject(root: Path = ROOT) -> str:
    """The wheel's pyproject.toml: the project's name, version, licence and dependencies (WHEEL_PROJECT_FIELDS),
    ENGINE_PACKAGES from engine/; no readme, scripts, extras or entry points, which the browser has no use for
    and which would change the wheel with the project's documentation or tooling."""
    project = tomllib.loads((root / "pyproject.toml").read_text())["project"]
    missing = [name for name in WHEEL_PROJECT_FIELDS if name not in project]
    if missing:
        raise BuildError(f"pyproject.toml: [project] has no {', '.join(missing)}, the engine wheel needs them")
    lines = ["# Written by tools/build_site.py for the site's engine wheel.", "[build-system]",
             'requires = ["setuptools>=77"]', 'build-backend = "setuptools.build_meta"', "", "[project]"]
    lines += [f"{name} = {json.dumps(project[name])}" for name in WHEEL_PROJECT_FIELDS]
    lines += [f"license-files = {json.dumps([ENGINE_LICENSE])}", "", "[tool.setuptools]",
              f"packages = {json.dumps(list(ENGINE_PACKAGES))}", 'package-dir = {"" = "engine"}', ""]
    return "\n".join(lines)


def wheel_inputs_key(root: Path = ROOT) -> str:
    """A hash of everything the engine wheel is built from: its files (names and bytes) and its pyproject.toml."""
    digest = hashlib.sha256(wheel_pyproject(root).encode() + b"\0")
    for rel in engine_inputs(root):
        digest.update(rel.as_posix().encode() + b"\0" + (root / rel).read_bytes() + b"\0")
    return digest.hexdigest()[:20]


def build_wheel(root: Path, out: Path) -> Path:
    """Build the engine wheel from root's engine_inputs into the folder out; return it."""
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "src"
        for rel in engine_inputs(root):  # a clean copy: no stale build/ or egg-info can leak into the wheel
            (source / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(root / rel, source / rel)
        (source / "pyproject.toml").write_text(wheel_pyproject(root))
        env = dict(os.environ, SOURCE_DATE_EPOCH=SOURCE_DATE_EPOCH, PIP_DISABLE_PIP_VERSION_CHECK="1")
        run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(out), str(source)],
            "pip wheel (engine)", env=env)
    built = sorted(out.glob("*.whl"))
    if len(built) != 1:
        raise BuildError(f"engine wheel: expected one wheel, pip made {[p.name for p in built]}")
    if not built[0].name.endswith("-py3-none-any.whl"):
        raise BuildError(f"engine wheel: {built[0].name} is not pure Python, Pyodide cannot install it")
    with zipfile.ZipFile(built[0]) as zf:
        if not any(name.startswith("coinche/") for name in zf.namelist()):
            raise BuildError(f"engine wheel: {built[0].name} holds no coinche/ package")
    return built[0]


def build_engine_wheel() -> Path:
    """Return the engine wheel in .cache/engine/<inputs hash>/, building it if its inputs changed."""
    key = wheel_inputs_key()
    slot = CACHE / "engine" / key
    wheels = sorted(slot.glob("*.whl")) if slot.is_dir() else []
    if len(wheels) == 1:
        say(f"engine wheel: sources unchanged, reusing {wheels[0].name} ({key})")
        return wheels[0]
    say(f"engine wheel: building from {len(engine_inputs())} files ({key})")
    with tempfile.TemporaryDirectory() as tmp:
        built = build_wheel(ROOT, Path(tmp))
        if slot.parent.exists():  # only the latest engine wheel is kept
            shutil.rmtree(slot.parent)
        slot.mkdir(parents=True)
        wheel = slot / built.name
        shutil.move(built, wheel)
    say(f"engine wheel: built {wheel.name} ({human(wheel.stat().st_size)})")
    return wheel


def precompiled_under_node(folder: str, inputs: str, name: str, what: str, arguments) -> Path:
    """CACHE/folder/<key>/name, written by a script that Pyodide's own Python runs under Node
    (tools/pyodide_node.mjs; the bytecode must be that exact Python's), or reused: key is a hash of `inputs`,
    which names everything the result depends on; only the latest is kept. arguments(slot, partial) gives the
    runner's arguments (the script writes `partial`; the slot is under the repository, which Pyodide sees)."""
    key = hashlib.sha256(inputs.encode()).hexdigest()[:20]
    slot = CACHE / folder / key
    target = slot / name
    if target.is_file():
        say(f"{what}: bytecode for Pyodide's Python unchanged, reusing it ({key})")
        return target
    if slot.parent.exists():
        shutil.rmtree(slot.parent)
    slot.mkdir(parents=True)
    partial = slot / (name + ".partial")
    run(["node", str(ROOT / "tools" / "pyodide_node.mjs"), *arguments(slot, partial)],
        f"precompile the {what} for Pyodide's Python", cwd=ROOT)
    partial.rename(target)
    return target


def precompiled_wheel(wheel: Path, site: Path) -> Path:
    """The engine wheel with the bytecode of the site's own Python beside each module (tools/precompile_wheel.py,
    run by that Python under Node): the browser imports the engine without compiling it. Cached in
    .cache/engine-web/ under the wheel's hash, the Pyodide version and the script's hash."""
    script = ROOT / "tools" / "precompile_wheel.py"
    later = [ENGINE_LATER_ZIP_PATH, *LATER_MODULES]
    target = precompiled_under_node(
        "engine-web", f"{sha256_of(wheel)} {PYODIDE_VERSION} {sha256_of(script)} {' '.join(later)}", wheel.name,
        "engine wheel",
        lambda slot, partial: ["--dist", str(site), "--install", "none", "--no-snapshot", str(script), str(wheel),
                               str(partial), ENGINE_ZIP_PATH, *later])
    say(f"engine wheel: with bytecode, {human(wheel.stat().st_size)} -> {human(target.stat().st_size)}")
    return target


def split_wheel(wheel: Path, core: Path, later: Path) -> None:
    """The precompiled wheel as two archives: `core`, the wheel without LATER_MODULES (and without their RECORD
    lines: it stays a valid wheel), and `later`, a zip of those modules, source and bytecode, at the same
    paths (coinche/x.py): the worker adds its coinche/ folder to the package's path."""
    with zipfile.ZipFile(wheel) as whole:
        entries = [(info, whole.read(info)) for info in whole.infolist()]
    moved = {name + suffix for name in LATER_MODULES for suffix in ("", "c")}
    missing = moved - {info.filename for info, _ in entries}
    if missing:
        raise BuildError(f"engine wheel: LATER_MODULES names what it does not hold: {', '.join(sorted(missing))}")
    with zipfile.ZipFile(core, "w", zipfile.ZIP_DEFLATED) as first, zipfile.ZipFile(later, "w", zipfile.ZIP_DEFLATED) as rest:
        for info, data in entries:
            if info.filename in moved:
                rest.writestr(info, data)
            elif info.filename.endswith(".dist-info/RECORD"):
                lines = [line for line in data.decode().split("\n") if line.split(",", 1)[0] not in moved]
                first.writestr(info, "\n".join(lines))
            else:
                first.writestr(info, data)


def precompiled_stdlib(site: Path, wheel: Path) -> str:
    """Replace the site's python_stdlib.zip by one holding the bytecode of every module that Python's start-up,
    Pyodide's and the engine's imports load (tools/precompile_stdlib.py, run by that Python under Node with
    the engine installed): Python then starts without compiling them. Its name, which it returns, holds the
    start of its sha256: the files under pyodide/ are cached as immutable, and a browser holding another
    build's library under the same URL would start Python on bytes that its memory snapshot does not
    describe. Cached in .cache/stdlib-web/ under the hashes of the stock library, the engine wheel and the
    script."""
    stdlib = site / "pyodide" / PYODIDE_VERSION / "python_stdlib.zip"
    script = ROOT / "tools" / "precompile_stdlib.py"

    def arguments(slot: Path, partial: Path) -> list[str]:
        stock = slot / "stock.zip"
        shutil.copy2(stdlib, stock)  # the site may be outside the repository, which Pyodide sees
        return ["--dist", str(site), "--install", "unpack", "--wheel", str(wheel), "--no-snapshot", str(script),
                str(stock), str(partial)]

    target = precompiled_under_node(
        "stdlib-web", f"{sha256_of(stdlib)} {sha256_of(wheel)} {PYODIDE_VERSION} {sha256_of(script)}", stdlib.name,
        "standard library", arguments)
    (target.parent / "stock.zip").unlink(missing_ok=True)  # arguments()'s copy, once the step has run
    name = f"python_stdlib-{sha256_of(target)[:16]}.zip"
    say(f"standard library: with bytecode, {human(stdlib.stat().st_size)} -> {human(target.stat().st_size)} ({name})")
    shutil.copy2(target, stdlib.with_name(name))
    stdlib.unlink()  # nothing may start Python on the library without bytecode by mistake
    return name


def write_pyodide_current(out: Path, stdlib: str | None) -> None:
    """js/pyodide-current.mjs: the Pyodide this build ships (its loader, indexURL) and, once made, the URL of
    its precompiled standard library (stdLibURL: the engine's worker, the bench's bare page and
    tools/pyodide_node.mjs pass it to loadPyodide; undefined while the build makes it)."""
    folder = f"../pyodide/{PYODIDE_VERSION}/"
    stdlib_url = f'new URL("{folder}{stdlib}", import.meta.url).href' if stdlib else "undefined"
    (out / "js" / "pyodide-current.mjs").write_text(
        "// Written by tools/build_site.py: the Pyodide this build ships, under its versioned folder.\n"
        f'export * from "{folder}pyodide.mjs";\n'
        f'export const indexURL = new URL("{folder}", import.meta.url).href;\n'
        f"export const stdLibURL = {stdlib_url};\n"
    )


def wheel_version(wheel: Path) -> str:
    with zipfile.ZipFile(wheel) as zf:
        name = next(n for n in zf.namelist() if n.endswith(".dist-info/METADATA"))
        for line in zf.read(name).decode().splitlines():
            if line.startswith("Version:"):
                return line.split(":", 1)[1].strip()
    raise BuildError(f"{wheel.name}: no Version in its METADATA")


def pyodide_file(tgz: Path, name: str) -> bytes:
    """A file of the Pyodide package (`npm pack`'s tgz), as it is released."""
    with tarfile.open(tgz) as tar:
        try:
            member = tar.extractfile(f"package/{name}")
        except KeyError:
            member = None
        if member is None:
            raise BuildError(f"{tgz.name} has no package/{name}: is PYODIDE_FILES right for this version?")
        return member.read()


def vendor_pyodide(tgz: Path, micropip: Path, dest: Path) -> dict:
    """Copy the boot files and micropip into dest; ship a lock file that lists what is shipped."""
    dest.mkdir(parents=True)
    for name in PYODIDE_FILES:
        (dest / name).write_bytes(pyodide_file(tgz, name))
    lock_path = dest / "pyodide-lock.json"
    lock = json.loads(lock_path.read_text())
    if lock["packages"].get("micropip", {}).get("version") != MICROPIP_VERSION:
        raise BuildError(f"pyodide-lock.json does not list micropip {MICROPIP_VERSION}")
    # Only what dist/ holds: loading anything else fails at once instead of fetching a missing file
    # (in Node, Pyodide would quietly fall back to a public CDN). The PyPI wheel's hash differs from
    # the one in the lock, and Pyodide checks it.
    shutil.copy2(micropip, dest / micropip.name)
    micropip_entry = dict(lock["packages"]["micropip"], file_name=micropip.name, sha256=sha256_of(micropip))
    lock["packages"] = {"micropip": micropip_entry}
    lock_path.write_text(json.dumps(lock, indent=1, sort_keys=True) + "\n")
    return lock["info"]


def file_hashes(dist: Path) -> dict[str, str]:
    return {p.relative_to(dist).as_posix(): sha256_of(p) for p in sorted(dist.rglob("*")) if p.is_file()}


def served_size(path: Path, accept_encoding: str) -> int:
    """The bytes a browser sending this Accept-Encoding receives for the file, as tools/serve.py and Netlify
    send it: compressed if its type is compressible, else as it is."""
    data = path.read_bytes()
    encoding = serve.choose_encoding(serve.content_type(str(path)), accept_encoding)
    return len(serve.compress(data, encoding)) if encoding else len(data)


def report_sizes(dist: Path, files: list[str], precached: list[str]) -> None:
    total = sum((dist / name).stat().st_size for name in files)
    first = [*precached, precache.SERVICE_WORKER]
    codings = ["gzip", *(["br"] if "br" in serve.encodings() else [])]
    say(f"dist: {len(files)} files, {human(total)}")
    say("first visit, at most (the service worker and everything it precaches), as served: text and WebAssembly "
        f"compressed ({', '.join(codings)}), archives and images as they are:")
    sums = {"raw": 0, **{c: 0 for c in codings}}
    for name in sorted(first, key=lambda n: -(dist / n).stat().st_size):
        sizes = {"raw": (dist / name).stat().st_size, **{c: served_size(dist / name, c) for c in codings}}
        for key, size in sizes.items():
            sums[key] += size
        say(f"  {name:44} " + " ".join(f"{human(size):>10}" for size in sizes.values()))
    say(f"  {'total (' + str(len(first)) + ' files)':44} " + " ".join(f"{human(size):>10}" for size in sums.values()))
    say(f"  {'':44} " + " ".join(f"{key:>10}" for key in sums))
    served = sums["br"] if "br" in sums else sums["gzip"]
    verdict = "ok" if served <= FIRST_VISIT_GOAL else "OVER THE GOAL"
    say(f"first visit: {human(served)} transferred ({'br' if 'br' in sums else 'gzip'}, as served), "
        f"goal under {human(FIRST_VISIT_GOAL)}: {verdict}")


STYLESHEET = re.compile(r'^[ \t]*<link rel="stylesheet" href="(css/[\w-]+\.css)">\n', re.MULTILINE)


def bundle_styles(page: Path, bundle: str) -> None:
    """The page's stylesheets, in their order, as one file `bundle` linked where the first was: one request
    instead of six while the engine's worker fetches its own files (the sources stay one file per concern;
    the other pages link them as they are)."""
    html = page.read_text()
    sheets = STYLESHEET.findall(html)
    if len(sheets) < 2:
        raise BuildError(f"{page.name}: expected its stylesheets as <link rel=\"stylesheet\" href=\"css/….css\"> lines")
    root = page.parent
    text = "".join(f"/* ---- {name} */\n{(root / name).read_text()}\n" for name in sheets)
    (root / bundle).write_text(text)
    where = STYLESHEET.search(html).start()  # nothing before the first link is removed
    rest = STYLESHEET.sub("", html)
    page.write_text(f'{rest[:where]}  <link rel="stylesheet" href="{bundle}">\n{rest[where:]}')


def assemble(out: Path, wheel: Path, pyodide_tgz: Path, micropip: Path, card_art_tgz: Path) -> dict:
    """Fill the empty folder out with the site; return its build-info."""
    shutil.copytree(ROOT / "web", out)
    made = ("pyodide", "wheels", "build-info.json", "js/pyodide-current.mjs", FIRST_DEALS, ENGINE_OPTIONS,
            CARD_ART_DIR)
    if any((out / name).exists() for name in made):
        raise BuildError(f"web/ must not hold any of {', '.join(made)}: the build makes them")
    try:
        art = card_art.cut(card_art_tgz, out / CARD_ART_DIR)
    except card_art.ArtError as error:
        raise BuildError(str(error)) from None
    say(f"card art: {len(art)} files in {CARD_ART_DIR}/ "
        f"({human(sum((out / CARD_ART_DIR / name).stat().st_size for name in art))}) from {card_art_tgz.name}")
    # Under a folder named by its version, cached as immutable: an upgrade moves to new URLs. The page
    # reaches it through js/pyodide-current.mjs, which is revalidated like any script.
    info = vendor_pyodide(pyodide_tgz, micropip, out / "pyodide" / PYODIDE_VERSION)
    bundle_styles(out / "index.html", "css/index.css")
    write_pyodide_current(out, None)
    whole = precompiled_wheel(wheel, out)
    stdlib = precompiled_stdlib(out, whole)  # the bytecode of what every module of the engine imports
    write_pyodide_current(out, stdlib)
    # engine-boot.js starts the first visit's downloads of Pyodide's two big files: it names them
    boot = out / "js" / "engine-boot.js"
    boot_text = boot.read_text()
    for placeholder in ('"@PYODIDE_VERSION@"', '"@PYODIDE_STDLIB@"'):
        if placeholder not in boot_text:
            raise BuildError(f"web/js/engine-boot.js has lost its {placeholder} placeholder")
    boot.write_text(boot_text.replace('"@PYODIDE_VERSION@"', json.dumps(PYODIDE_VERSION))
                    .replace('"@PYODIDE_STDLIB@"', json.dumps(stdlib)))
    # Under a folder named by its hash: the URL changes with the bytes, so it is cached as immutable.
    with tempfile.TemporaryDirectory() as tmp:
        wheel, later = Path(tmp) / whole.name, Path(tmp) / ENGINE_LATER
        split_wheel(whole, wheel, later)
        wheel_url = f"wheels/{sha256_of(wheel)[:16]}/{wheel.name}"
        later_url = f"wheels/{sha256_of(later)[:16]}/{later.name}"
        for made, url in ((wheel, wheel_url), (later, later_url)):
            (out / url).parent.mkdir(parents=True)
            shutil.copy2(made, out / url)
    wheel = out / wheel_url
    say(f"engine wheel: {human(wheel.stat().st_size)} at install, {human((out / later_url).stat().st_size)} "
        f"later ({', '.join(LATER_MODULES)})")
    # The first deals a first visit draws while its engine starts, dealt by this very wheel (tools/first_deals.py)
    run([sys.executable, "-I", str(ROOT / "tools" / "first_deals.py"), str(out / wheel_url), str(out / FIRST_DEALS)],
        "first deals")
    say(f"first deals: {FIRST_DEALS} ({human((out / FIRST_DEALS).stat().st_size)})")
    run([sys.executable, "-I", str(ROOT / "tools" / "engine_options.py"), str(out / wheel_url),
         str(out / ENGINE_OPTIONS)], "engine options")
    say(f"engine options: {ENGINE_OPTIONS} ({human((out / ENGINE_OPTIONS).stat().st_size)})")

    if (out / PUZZLES).is_file():
        run([sys.executable, "-I", str(ROOT / "tools" / "check_puzzles.py"), str(out / wheel_url), str(out / PUZZLES),
             str(out / later_url)], "the puzzle set's check")
        size = served_size(out / PUZZLES, "gzip")
        if size > PUZZLES_GOAL:
            raise BuildError(f"{PUZZLES}: {human(size)} gzip, over its goal of {human(PUZZLES_GOAL)}")
        say(f"puzzles: {PUZZLES} re-solved, {human(size)} gzip (goal {human(PUZZLES_GOAL)}), precached after the "
            "install: not in the first visit")

    hashes = file_hashes(out)
    build_info = {
        "version": wheel_version(wheel),
        "wheel": {
            "url": wheel_url,
            "file_name": wheel.name,
            "sha256": hashes[wheel_url],
            "size": wheel.stat().st_size,
        },
        # The engine's modules a first visit does not need (LATER_MODULES): mounted when a command needs one.
        "later": {
            "url": later_url,
            "file_name": ENGINE_LATER,
            "sha256": hashes[later_url],
            "size": (out / later_url).stat().st_size,
            "modules": [name.removesuffix(".py").replace("/", ".") for name in LATER_MODULES],
        },
        "pyodide": {"version": PYODIDE_VERSION, "python": info["python"], "url": f"pyodide/{PYODIDE_VERSION}/",
                    # the standard library, precompiled; a memory snapshot holds its zip directory: it is
                    # restored only with these bytes
                    "stdlib": stdlib, "stdlib_sha256": hashes[f"pyodide/{PYODIDE_VERSION}/{stdlib}"]},
        # The 1v1 referee the page uses unless the player sets another (web/js/online/prefs.js); "": none.
        "referee": os.environ.get("COINCHE_REFEREE_URL", "").strip(),
        # One id for the whole build: changes whenever any shipped byte does.
        "build_id": hashlib.sha256(json.dumps(hashes, sort_keys=True).encode()).hexdigest()[:16],
        "files": hashes,
    }
    (out / "build-info.json").write_text(json.dumps(build_info, indent=1) + "\n")
    # Last: the precache lists every file above, build-info.json included, with its hash.
    build_info["precache"] = precache.write_service_worker(out)
    return build_info


def build(dist: Path) -> None:
    if not (ROOT / "web" / "index.html").is_file():
        raise BuildError(f"{ROOT / 'web'}/index.html is missing")
    tgz = fetch_pinned(PYODIDE_TGZ, PYODIDE_TGZ_SHA256, download_pyodide)
    micropip = fetch_pinned(MICROPIP_WHEEL, MICROPIP_WHEEL_SHA256, download_micropip)
    card_art_tgz = fetch_pinned(CARD_ART_TGZ, CARD_ART_TGZ_SHA256, download_card_art)
    wheel = build_engine_wheel()

    # Built beside dist/ and swapped in by two renames: a server of dist/ never sees a half-made site.
    staging, old = dist.parent / f".{dist.name}.staging", dist.parent / f".{dist.name}.old"
    for leftover in (staging, old):
        if leftover.exists():
            shutil.rmtree(leftover)
    try:
        build_info = assemble(staging, wheel, tgz, micropip, card_art_tgz)
        if dist.exists():
            dist.rename(old)
        staging.rename(dist)
    finally:
        for leftover in (staging, old):
            if leftover.exists():
                shutil.rmtree(leftover)
    say(f"wrote {dist.relative_to(ROOT) if dist.is_relative_to(ROOT) else dist}/ "
        f"(coinche {build_info['version']}, build {build_info['build_id']})")
    report_sizes(dist, [*build_info["files"], "build-info.json"], list(build_info["precache"]["files"]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--out", type=Path, default=ROOT / "dist", help="output folder (default: dist)")
    args = parser.parse_args(argv)
    try:
        build(args.out.resolve())
    except BuildError as error:
        print(f"build_site: error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
