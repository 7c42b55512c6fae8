"""Write docs/glossary.md, the readable form of docs/glossary.json: `python tools/glossary_md.py`.

tests/test_catalogues.py checks that the Markdown lists every term of the JSON.
"""
from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def markdown(glossary: dict) -> str:
    lines = ["# Glossary: each language's words", "", glossary["about"], "",
             "| language | term | word | what it names | catalogue keys | seed |", "|---|---|---|---|---|---|"]
    for lang, spec in glossary["languages"].items():
        for term, word in spec["words"].items():
            meta = glossary["terms"][term]
            keys = ", ".join(f"`{k}`" for k in meta["keys"])
            lines.append(f"| {lang} | {term} | {word} | {meta['names']} | {keys} | {spec['seed']} |")
    lines += ["", "Words the catalogues do not use (each with the reason):", ""]
    for lang, spec in glossary["languages"].items():
        for word, why in spec["avoid"].items():
            lines.append(f"- {lang}: “{word}” — {why}")
    exempt = "; ".join(f"`{k}` ({why})" for k, why in glossary["exempt"].items())
    lines += ["", "Exempt keys: " + (exempt or "none: every key, the coach's sentences included, is checked"), ""]
    return "\n".join(lines)


if __name__ == "__main__":
    glossary = json.loads((ROOT / "docs" / "glossary.json").read_text(encoding="utf-8"))
    (ROOT / "docs" / "glossary.md").write_text(markdown(glossary), encoding="utf-8")
