"""The judge page's engine agrees exactly with `coinche judge --batch` (CPython) on random positions.

Three paths, each against the command line:
- the engine under Pyodide in Node, through coinche.webapi.handle("judge_batch") as the worker calls it
  (20,000 positions; 200,000 with --full);
- the page's own engine client in Chromium (`judge_batch` through the worker: 5,000; 50,000 with --full);
- the real URL: 120 positions (2,000 with --full) opened as links and read off the page as a user sees them
  (data-card, data-legal, data-rule on the rendered cards).
A few percent of the random positions are broken on purpose: the error key and params must agree too.
"""
from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

from playwright.sync_api import expect

ROOT = Path(__file__).resolve().parent.parent
SUITS = "shdc"
RANKS = "789TJQKA"
DECK = [r + s for s in SUITS for r in RANKS]
BOOT_TIMEOUT_MS = 60_000
SEED = 20240601


def random_position(rng: random.Random) -> str:
    trump = rng.choice(SUITS)
    k = rng.randrange(4)
    m = rng.randint(1, 8)
    cards = rng.sample(DECK, k + m)
    if rng.random() < 0.35:  # more trump leads and more trumps around: rules 2 and 4 in all their cases
        trump = cards[0][1]
    return f"trump={trump}&trick={','.join(cards[:k])}&hand={','.join(cards[k:])}"


def broken(position: str, rng: random.Random) -> str:
    """One of the ways a link goes wrong."""
    kind = rng.randrange(7)
    fields = dict(part.split("=", 1) for part in position.split("&"))
    hand = fields["hand"].split(",")
    if kind == 0:
        fields["hand"] = ",".join(hand + [rng.choice(["Xx", "10h", "jh", "H", "1s"])])
    elif kind == 1:
        fields["hand"] = ",".join(hand + [hand[0]])
    elif kind == 2:
        fields["trick"] = ",".join(rng.sample(DECK, 4))
        fields["hand"] = ",".join(c for c in hand if c not in fields["trick"]) or "Jh"
    elif kind == 3:
        fields["hand"] = ",".join(DECK[:9])
        fields["trick"] = ""
    elif kind == 4:
        fields["trump"] = rng.choice(["x", "hearts", "", "H"])
    elif kind == 5:
        fields[rng.choice(["seat", "trumps", "x"])] = "1"
    else:
        return rng.choice(["garbage", "trump=h&&hand=Jh", "=", "trump=h&hand", "%", "trump=h&trick=8h&trick=9h&hand=Jh"])
    return "&".join(f"{k}={v}" for k, v in fields.items())


def positions(n: int, seed: int = SEED, broken_share: float = 0.03) -> list[str]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        position = random_position(rng)
        out.append(broken(position, rng) if rng.random() < broken_share else position)
    return out


def comparable(answer: dict) -> tuple:
    """What both sides must agree on: the ruling, or the error's key and params."""
    if "error" in answer:
        error = answer["error"]
        return ("error", error["key"], error["params"])
    return ("ruling", answer["position"], answer["rule"], answer["note"], answer["legal"], answer["forbidden"])


def cpython_rulings(texts: list[str]) -> list[dict]:
    run = subprocess.run(
        [sys.executable, "-m", "coinche.cli", "judge", "--batch"],
        input="\n".join(texts) + "\n", capture_output=True, text=True, check=True, cwd=ROOT,
    )
    lines = run.stdout.splitlines()
    assert len(lines) == len(texts)
    return [json.loads(line) for line in lines]


def assert_same(texts, ours, theirs, where: str) -> None:
    assert len(ours) == len(texts)
    mismatches = [
        (text, a, b) for text, a, b in zip(texts, ours, theirs) if comparable(a) != comparable(b)
    ]
    assert not mismatches, f"{len(mismatches)} positions differ ({where} vs CPython), first: {mismatches[0]}"


def count(request, small: int, full: int) -> int:
    return full if request.config.getoption("--full") else small


# Runs under Pyodide in Node: the worker's entry point, coinche.webapi.handle, in chunks.
NODE_CODE = """
import json, sys
from coinche.webapi import handle
texts = open(sys.argv[1]).read().split("\\n")
with open(sys.argv[2], "w") as out:
    for i in range(0, len(texts), 10000):
        answer = json.loads(handle("judge_batch", json.dumps({"positions": texts[i:i + 10000]})))
        for ruling in answer["result"]:
            out.write(json.dumps(ruling) + "\\n")
"""


def test_pyodide_in_node_agrees_with_cpython(request, tmp_path, build_info):
    texts = positions(count(request, 20_000, 200_000))
    (tmp_path / "positions.txt").write_text("\n".join(texts))
    subprocess.run(
        ["node", str(ROOT / "tools" / "pyodide_node.mjs"), "--dist", str(ROOT / "dist"), "-c", NODE_CODE,
         "positions.txt", "rulings.jsonl"],
        cwd=tmp_path, check=True, capture_output=True, text=True, timeout=1800,
    )
    ours = [json.loads(line) for line in (tmp_path / "rulings.jsonl").read_text().splitlines()]
    theirs = cpython_rulings(texts)
    assert_same(texts, ours, theirs, "Pyodide in Node")
    assert sum("error" in a for a in ours) > len(texts) // 100  # the broken ones were exercised
    assert {a["rule"] for a in ours if "rule" in a} == {0, 1, 2, 3, 4, 5}
    notes = {a["note"] for a in ours if "note" in a}
    assert notes == {None, "overtrump_partner", "no_undertrump", "partner_master"}


def open_judge(page, site_url: str, fragment: str = "") -> None:
    page.goto(f"{site_url}judge.html{'#' + fragment if fragment else ''}")
    expect(page.locator("body")).not_to_have_attribute("data-engine", "loading", timeout=BOOT_TIMEOUT_MS)
    assert page.locator("body").get_attribute("data-engine") == "ready", page.locator("#engine-text").inner_text()


def test_the_pages_worker_agrees_with_cpython(request, returning_page, site_url):
    page = returning_page
    texts = positions(count(request, 5_000, 50_000), seed=SEED + 1)
    open_judge(page, site_url)
    ours = []
    for i in range(0, len(texts), 10_000):
        ours += page.evaluate(
            """async (texts) => {
                const { engine } = await import("/js/judge/main.js");
                return engine.call("judge_batch", { positions: texts });
            }""",
            texts[i:i + 10_000],
        )
    assert_same(texts, ours, cpython_rulings(texts), "the page's worker")


def read_ruling(page) -> dict:
    """The ruling as the page shows it: one entry per rendered card of the hand."""
    return page.evaluate("""() => {
        const section = document.getElementById("ruling");
        const cards = [...document.querySelectorAll("#verdicts li[data-card]")].map((li) => ({
            card: li.dataset.card, legal: li.dataset.legal === "true", rule: Number(li.dataset.rule),
            why: li.querySelector(".verdict-why")?.textContent ?? "",
        }));
        return { position: section.dataset.position, rule: Number(section.dataset.rule),
                 note: section.dataset.note ?? null, cards };
    }""")


def expected_cards(cli: dict) -> list[dict]:
    hand = dict(part.split("=", 1) for part in cli["position"].split("&"))["hand"].split(",")
    return [
        {"card": c, "legal": c in cli["legal"], "rule": cli["forbidden"][c]["rule"] if c in cli["forbidden"] else cli["rule"]}
        for c in hand
    ]


def test_links_read_off_the_page_agree_with_cpython(request, returning_page, site_url):
    page = returning_page
    texts = positions(count(request, 120, 2_000), seed=SEED + 2, broken_share=0)
    open_judge(page, site_url)
    ruling = page.locator("#ruling")
    for text, cli in zip(texts, cpython_rulings(texts)):
        page.goto(f"{site_url}judge.html#{text}")
        expect(ruling).to_have_attribute("data-position", text)
        expect(ruling).to_have_attribute("data-state", "ruled")
        shown = read_ruling(page)
        assert shown["rule"] == cli["rule"], text
        assert shown["note"] == cli["note"], text
        assert [{k: c[k] for k in ("card", "legal", "rule")} for c in shown["cards"]] == expected_cards(cli), text
        assert all(c["why"] for c in shown["cards"] if not c["legal"]), text
