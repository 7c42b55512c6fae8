"""Every relative link of the documentation leads somewhere: README.md, CONTRIBUTING.md, docs/*.md and the
referee's pages name files of the repository (and headings of them) that exist, never a path outside it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = sorted({"README.md", "CONTRIBUTING.md", *(p.relative_to(ROOT).as_posix() for p in ROOT.glob("docs/*.md")),
                    *(p.relative_to(ROOT).as_posix() for p in ROOT.glob("referee/*.md"))})
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)


def links(text: str) -> list[str]:
    return LINK.findall(FENCE.sub("", text))


def anchor(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    return {anchor(line.lstrip("#")) for line in FENCE.sub("", path.read_text()).splitlines() if line.startswith("#")}


def test_anchors_are_githubs():
    assert anchor("The Expert's review of a deal") == "the-experts-review-of-a-deal"
    assert anchor("Explanations are data") == "explanations-are-data"
    assert links("[a](b.md) `[c](d.md)`\n```\n[e](f.md)\n```\n[g](h.md#i)") == ["b.md", "d.md", "h.md#i"]


@pytest.mark.parametrize("name", DOCUMENTS)
def test_every_relative_link_resolves(name):
    source = ROOT / name
    broken = []
    for target in links(source.read_text()):
        if re.match(r"[a-z]+:", target):  # https:, mailto:
            continue
        path, _, fragment = target.partition("#")
        resolved = (source.parent / path).resolve() if path else source
        if not resolved.is_relative_to(ROOT) or not resolved.exists():
            broken.append(target)
        elif fragment and resolved.suffix == ".md" and fragment not in anchors(resolved):
            broken.append(target)
    assert broken == []
