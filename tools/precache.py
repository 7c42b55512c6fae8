"""The service worker's precache, generated from the built site: no hand-kept list of files.

    from precache import write_service_worker
    manifest = write_service_worker(dist)   # {"version": ..., "files": {path: sha256}}

Every file of dist/ is precached except those matching EXCLUDE (the service worker itself, and what no page needs:
the benchmark pages, the micropip wheel the engine worker does not load). Those matching LATER (the puzzle set, the
puzzle page, the engine's later modules) are precached later, not at install: once a page has booted and the
browser is idle, the page asks the service worker for them (web/js/pwa.js, "precache-later"), and the puzzles
page's own fetch caches them too; so they are no part of a first visit's download (tools/build_site.py counts the
install's list only). The list and the content hash of each file are written into dist/sw.js in place of the
placeholder between `/* PRECACHE */` and `/* END PRECACHE */`; `version` is a hash of that list, so any changed
byte makes a new service worker and a new cache, and an unchanged file is copied from the old cache instead of
downloaded again.

Run alone, `python3 tools/precache.py [dist]` rewrites dist/sw.js and prints the list's size.
"""
from __future__ import annotations

import fnmatch
import hashlib
import json
import re
import sys
from pathlib import Path

SERVICE_WORKER = "sw.js"
# dist/ files a service worker does not precache: itself, and what no page needs.
EXCLUDE = (SERVICE_WORKER, "bench/*", "pyodide/*/micropip-*.whl")
# dist/ files precached after the install (see above): listed apart, in PRECACHE.later. The puzzle page's own
# files too: no first visit needs them (the progress page imports js/puzzles/progress.js only if it is there).
LATER = ("puzzles/*", "puzzles.html", "js/puzzles/*", "css/puzzles.css",
         # the engine's modules no first visit needs (tools/build_site.py LATER_MODULES)
         "wheels/*/coinche-later.zip")
PLACEHOLDER = re.compile(r"/\* PRECACHE \*/.*?/\* END PRECACHE \*/", re.DOTALL)


def sha256_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def excluded(name: str) -> bool:
    return any(fnmatch.fnmatch(name, pattern) for pattern in EXCLUDE)


def later(name: str) -> bool:
    return any(fnmatch.fnmatch(name, pattern) for pattern in LATER)


def precache_manifest(dist: Path) -> dict:
    """{"version", "files": {path relative to dist: sha256}, "later": {...}} for every file of dist/ but
    EXCLUDE, those matching LATER apart."""
    every = {
        p.relative_to(dist).as_posix(): sha256_of(p)
        for p in sorted(dist.rglob("*"))
        if p.is_file() and not excluded(p.relative_to(dist).as_posix())
    }
    files = {name: sha for name, sha in every.items() if not later(name)}
    after = {name: sha for name, sha in every.items() if later(name)}
    version = hashlib.sha256(json.dumps(every, sort_keys=True).encode()).hexdigest()[:16]
    return {"version": version, "files": files, "later": after}


def write_service_worker(dist: Path) -> dict:
    """Put the precache manifest of dist/ into dist/sw.js; return the manifest."""
    sw = dist / SERVICE_WORKER
    source = sw.read_text(encoding="utf-8")
    if len(PLACEHOLDER.findall(source)) != 1:
        raise ValueError(f"{sw}: expected one /* PRECACHE */ ... /* END PRECACHE */ placeholder")
    manifest = precache_manifest(dist)
    line = f"/* PRECACHE */ const PRECACHE = {json.dumps(manifest, indent=1)}; /* END PRECACHE */"
    sw.write_text(PLACEHOLDER.sub(lambda _: line, source), encoding="utf-8")
    return manifest


def main(argv: list[str]) -> int:
    dist = Path(argv[0] if argv else Path(__file__).resolve().parent.parent / "dist")
    manifest = write_service_worker(dist)
    size = sum((dist / name).stat().st_size for name in manifest["files"])
    print(f"precache: {len(manifest['files'])} files, {size / 1e6:.2f} MB, version {manifest['version']}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
