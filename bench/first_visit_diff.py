#!/usr/bin/env python3
"""What a change adds to a first visit's transfer: two built sites compared file by file, as served (gzip).

    .venv/bin/python bench/first_visit_diff.py BEFORE_DIST [AFTER_DIST]

A first visit downloads the service worker and everything it precaches (tools/precache.py); each file is
counted as tools/build_site.py's size report counts it (`served_size`: text and WebAssembly compressed, archives
and images as they are). AFTER_DIST is dist/ by default. The site of an earlier commit, built beside this one
with this checkout's Python (the cache copied, so that nothing is downloaded again):

    mkdir /tmp/before && git archive COMMIT | tar -x -C /tmp/before && cp -r .cache /tmp/before/
    (cd /tmp/before && "$OLDPWD/.venv/bin/python" tools/build_site.py)

With `--by-issue SINCE` (the commit the two builds differ from, BEFORE_DIST's), the growth is also told
apart by issue: each line of a source of a first visit's file (web/X for dist/X; engine/coinche/M.py for
the wheel's module M) is the issue's whose commit wrote it (git blame SINCE..HEAD), a commit being the
issue's if it came in with a merge of a branch named hN-... (all that branch's commits) or says "issue N"
(`issues_of_commits`). An issue's share of a file is what its lines weigh gzipped (the file gzipped with
and without them); of the wheel, each module's entries (source and bytecode, as compressed in the wheel)
in the proportion its lines weigh in the module's source. Generated files (sw.js, build-info.json, the
bundled css/index.css, Pyodide, the card art) are no issue's.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
import zipfile
from fnmatch import fnmatch
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "e2e"))
from conftest import load_tool  # noqa: E402

build_site = load_tool("build_site")


def first_visit(dist: Path) -> dict[str, int]:
    """{file: bytes as served (gzip)} of the service worker and its precache list."""
    sw = (dist / "sw.js").read_text(encoding="utf-8")
    listed = json.loads(sw.split("const PRECACHE = ", 1)[1].split("; /* END PRECACHE */", 1)[0])
    return {name: build_site.served_size(dist / name, "gzip") for name in [*listed["files"], "sw.js"]}


def git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True, text=True).stdout


# Commits of an issue that reached main without a merge (main moved to its branch) and do not name it.
LANDED_ALONE = {"27852ee": 41, "5b0e1e1": 41}


def issues_of_commits(since: str) -> dict[str, int | None]:
    """{commit: issue or None} for the commits since `since` on HEAD's history. Walking a first-parent chain
    (main's, to start with): a merge of a branch hN-... brings that branch's chain, walked in turn as issue N's;
    a merge of main brings main's chain of then, walked in turn; a merge of main into hN-... says that the chain walked
    is hN-...'s from there on (main was moved to that branch), so its own commits are issue N's; on main's
    chain, a commit is the issue's it names ("issue N"), else no issue's."""
    issues: dict[str, int | None] = {git("rev-parse", sha).strip(): n for sha, n in LANDED_ALONE.items()}

    def walk(tip: str, exclude: list[str], context: int | None) -> None:
        log = git("log", "--first-parent", "--format=%H %P%x00%s", tip, *(f"^{x}" for x in exclude))
        for line in log.splitlines():
            shas, subject = line.split("\0", 1)
            commit, *parents = shas.split()
            into = re.search(r"\binto h(\d+)-", subject)
            if into:
                context = int(into.group(1))
            said = re.search(r"\bissue (\d+)", subject)
            issues.setdefault(commit, int(said.group(1)) if context is None and said else context)
            if len(parents) < 2:
                continue
            merged = re.match(r"Merge (?:branch )?'?([\w./-]+)", subject)
            branch = re.match(r"h(\d+)-", merged.group(1)) if merged else None
            walk(parents[1], [parents[0], since], int(branch.group(1)) if branch else None)

    walk("HEAD", [since], None)
    return issues


def lines_by_issue(source: Path, since: str, issues: dict[str, int]) -> list[tuple[int | None, str]]:
    """The lines of source at HEAD, each with the issue whose commit wrote it (None: before since, or no
    issue's)."""
    out, commit = [], None
    for line in git("blame", "--line-porcelain", f"{since}..HEAD", "--", str(source.relative_to(ROOT))).splitlines():
        if line.startswith("\t"):
            out.append((issues.get(commit), line[1:] + "\n"))
        elif re.match(r"[0-9a-f]{40} ", line):
            commit = line[:40]
    return out


def gz(text: str) -> int:
    return len(build_site.serve.compress(text.encode(), "gzip"))


def shares(lines: list[tuple[int | None, str]]) -> dict[int, int]:
    """{issue: bytes gzip its lines add to the file} (the file gzipped with and without them)."""
    whole = gz("".join(text for _, text in lines))
    return {issue: whole - gz("".join(text for who, text in lines if who != issue))
            for issue in {who for who, _ in lines if who is not None}}


TEXT = (".js", ".mjs", ".css", ".html", ".json", ".webmanifest", ".svg", ".txt")
WHEEL = "wheels/*/coinche-*.whl"
NO_ISSUE = ("sw.js", "build-info.json", "css/index.css", "pyodide/*", "img/cards/*", "first-deals.json",
            "js/pyodide-current.mjs", "options.json")


def by_issue(dist: Path, names: list[str], since: str) -> dict[int, dict[str, int]]:
    """{issue: {what: bytes gzip}} of the first visit's files `names` of dist (see the module's docstring)."""
    issues = issues_of_commits(since)
    found: dict[int, dict[str, int]] = {}
    for name in names:
        if fnmatch(name, WHEEL):
            with zipfile.ZipFile(dist / name) as wheel:
                entries = {}
                for info in wheel.infolist():
                    module = info.filename.removesuffix("c")
                    entries[module] = entries.get(module, 0) + info.compress_size + 76 + 2 * len(info.filename)
            for module, size in entries.items():
                source = ROOT / "engine" / module
                if not module.endswith(".py") or not source.is_file():
                    continue
                lines = lines_by_issue(source, since, issues)
                whole = gz("".join(text for _, text in lines))
                for issue, share in shares(lines).items():
                    found.setdefault(issue, {})[f"wheel: {module}(c)"] = round(size * share / whole)
        elif (not any(fnmatch(name, pattern) for pattern in NO_ISSUE) and (ROOT / "web" / name).is_file()
              and Path(name).suffix in TEXT):
            for issue, share in shares(lines_by_issue(ROOT / "web" / name, since, issues)).items():
                found.setdefault(issue, {})[name] = share
    return found


def main(argv: list[str]) -> int:
    since = None
    if "--by-issue" in argv:
        at = argv.index("--by-issue")
        since = argv[at + 1]
        argv = argv[:at] + argv[at + 2:]
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    before = first_visit(Path(argv[0]))
    after_dist = Path(argv[1]) if len(argv) > 1 else ROOT / "dist"
    after = first_visit(after_dist)
    print(f"before: {sum(before.values()):,} bytes gzip in {len(before)} files")
    print(f"after:  {sum(after.values()):,} bytes gzip in {len(after)} files")
    print(f"growth: {sum(after.values()) - sum(before.values()):+,} bytes")
    changed = {name: after.get(name, 0) - before.get(name, 0) for name in set(before) | set(after)}
    for name, delta in sorted(changed.items(), key=lambda item: -item[1]):
        if delta:
            print(f"  {name:60} {delta:+8,}")
    if since:
        for issue, parts in sorted(by_issue(after_dist, sorted(after), since).items()):
            print(f"issue {issue}: {sum(parts.values()):+,} bytes gzip in the first visit")
            for what, size in sorted(parts.items(), key=lambda item: -item[1]):
                if size:
                    print(f"  {what:60} {size:+8,}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
