#!/usr/bin/env python3
"""What a change adds to a first visit's transfer: two built sites compared file by file, as served (gzip).

    .venv/bin/python bench/first_visit_diff.py BEFORE_DIST [AFTER_DIST]

A first visit downloads the service worker and everything it precaches (tools/precache.py); each file is
counted as tools/build_site.py's size report counts it (`served_size`: text and WebAssembly compressed, archives
and images as they are). AFTER_DIST is dist/ by default. The site of an earlier commit, built beside this one
with this checkout's Python (the cache copied, so that nothing is downloaded again):

    mkdir /tmp/before && git archive COMMIT | tar -x -C /tmp/before && cp -r .cache /tmp/before/
    (cd /tmp/before && "$OLDPWD/.venv/bin/python" tools/build_site.py)
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "e2e"))
from chromium import load_tool  # noqa: E402

build_site = load_tool("build_site")


def first_visit(dist: Path) -> dict[str, int]:
    """{file: bytes as served (gzip)} of the service worker and its precache list."""
    sw = (dist / "sw.js").read_text(encoding="utf-8")
    listed = json.loads(sw.split("const PRECACHE = ", 1)[1].split("; /* END PRECACHE */", 1)[0])
    return {name: build_site.served_size(dist / name, "gzip") for name in [*listed["files"], "sw.js"]}


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    before = first_visit(Path(argv[0]))
    after = first_visit(Path(argv[1]) if len(argv) > 1 else ROOT / "dist")
    print(f"before: {sum(before.values()):,} bytes gzip in {len(before)} files")
    print(f"after:  {sum(after.values()):,} bytes gzip in {len(after)} files")
    print(f"growth: {sum(after.values()) - sum(before.values()):+,} bytes")
    changed = {name: after.get(name, 0) - before.get(name, 0) for name in set(before) | set(after)}
    for name, delta in sorted(changed.items(), key=lambda item: -item[1]):
        if delta:
            print(f"  {name:60} {delta:+8,}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
