"""The progress page's figures (web/js/progress/figures.js, under Node) against the same figures computed
here, plainly, from the same records: a history file as the site exports it (coinche_lab.history), read by
the page's own import (web/js/history-format.js parseExport) and taken as the engine has read it (every line
checked: the lines here are all real deals)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from coinche_lab.history import history_text, reference_figures

from coinche.review import DECISION_TYPES

WEB = Path(__file__).resolve().parent.parent / "web"
NODE = shutil.which("node")


def page_figures(text: str) -> dict:
    script = (
        f"import {{ parseExport }} from {json.dumps((WEB / 'js' / 'history-format.js').as_uri())};\n"
        f"import {{ figures, tables }} from {json.dumps((WEB / 'js' / 'progress' / 'figures.js').as_uri())};\n"
        "let input = ''; process.stdin.on('data', (d) => { input += d; });\n"
        "process.stdin.on('end', () => { const read = parseExport(input);\n"
        "  const { errors } = read; const entries = read.entries.map((e) => ({ ...e, checked: true }));\n"
        "  const kinds = tables(entries);\n"
        "  console.log(JSON.stringify({ errors, tables: kinds, all: figures(entries),\n"
        "    each: Object.fromEntries(kinds.map((k) => [k.key, figures(entries, k.key)])) })); });\n"
    )
    done = subprocess.run([NODE, "--input-type=module", "-e", script], capture_output=True, text=True, check=True,
                          input=text)
    return json.loads(done.stdout)


def check(page: dict, want: dict) -> None:
    for key in ("deals", "matches", "declared", "coinches", "reviewed"):
        assert page[key] == want[key], key
    assert len(page["series"]) == want["reviewed"]
    for shown, computed in zip(page["series"], want["series"]):
        for key, value in computed.items():
            assert shown[key] == pytest.approx(value, abs=0.11), key
    if want["average"]:
        for key, value in want["average"].items():
            assert page["average"][key] == pytest.approx(value, abs=0.11), key
    for shown, (mean, error) in zip(page["moving"], want["moving"]):
        assert shown["mean"] == pytest.approx(mean, abs=0.11)
        assert shown["high"] - shown["low"] == pytest.approx(2 * error, abs=0.25)
    assert [(t["type"], t["decisions"]) for t in page["types"]] == [(t, c) for t, c, _, _ in want["types"]]
    for shown, (_, _, per_deal, per_decision) in zip(page["types"], want["types"]):
        assert shown["per_deal"] == pytest.approx(per_deal, abs=0.11)
        assert shown["per_decision"] == pytest.approx(per_decision, abs=0.11)
    duplicate, computed = page["duplicate"], want["duplicate"]
    assert duplicate["deals"] == computed["deals"]
    assert duplicate["mean"] == pytest.approx(computed["mean"], abs=0.11)
    assert [d["difference"] for d in duplicate["series"]] == pytest.approx(computed["series"], abs=0.11)
    for shown, (mean, error) in zip(duplicate["moving"], computed["moving"], strict=True):
        assert shown["mean"] == pytest.approx(mean, abs=0.11)
        assert shown["high"] - shown["low"] == pytest.approx(2 * error, abs=0.25)


@pytest.mark.skipif(NODE is None, reason="Node is not installed")
def test_the_pages_figures_are_those_of_the_records():
    text = history_text(60, seed="figures")
    lines = [json.loads(line) for line in text.splitlines()]
    page = page_figures(text)
    assert page["errors"] == []
    check(page["all"], reference_figures(lines))
    # each kind of table (game, level, house rules) on its own
    assert sum(t["deals"] for t in page["tables"]) == len(lines)
    assert len(page["tables"]) > 1
    for table in page["tables"]:
        mine = [line for line in lines if (line["variant"], line["history"]["level"], line["rules"])
                == (table["game"], table["level"], table["rules"])]
        check(page["each"][table["key"]], reference_figures(mine))
    # the figures are not empty: the made-up history has every sort of them
    figures = page["all"]
    assert figures["matches"]["won"] + figures["matches"]["lost"] > 3
    assert figures["coinches"]["made"] + figures["coinches"]["suffered"] > 0
    assert figures["average"]["lost"] > 0 and figures["average"]["luck"] > 0
    assert 0 < figures["duplicate"]["deals"] < len(lines)
    assert min(d["difference"] for d in figures["duplicate"]["series"]) < 0 < max(d["difference"] for d in figures["duplicate"]["series"])
    assert {t["type"] for t in figures["types"]} <= set(DECISION_TYPES)
    assert {"lead", "follow", "discard", "bid"} <= {t["type"] for t in figures["types"]}
