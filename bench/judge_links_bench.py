#!/usr/bin/env python3
"""How fast the judge page tells a bad link, whatever its size, in headless Chromium.

    .venv/bin/python bench/judge_links_bench.py [--runs 7] [--dist dist]

Serves dist/ (run `make build` first) with tools/serve.py on a free localhost port. Each link is opened in
a new page --runs times; the figure is the page's measure "judge-link-read" (reading the fragment and
drawing the editor and the link's message, web/js/judge/main.js), median and minimum, with the height of
the message box. Goal: under 100 ms for any link (issue 12: 100,000 characters once took about 4 s).
The machine's load is printed: on a shared machine the minimum is the page's own cost.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "e2e"))
from conftest import CHROMIUM, CHROMIUM_ARGS, load_tool  # noqa: E402

LINKS = {
    "a good position": "trump=h&trick=8h,Ah,7c&hand=Jh,Kd,7s",
    "a short bad link": "trump=h&trick=8h&hand=Jh,Xx,7s",
    "100,000 characters": "x" * 100_000,
    "a hand of 33,000 cards": "trump=h&trick=&hand=" + ",".join(["Jh"] * 33_000),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--dist", type=Path, default=ROOT / "dist")
    args = parser.parse_args()
    server = load_tool("serve").make_server(args.dist, port=0, quiet=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/judge.html#"
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        for name, fragment in LINKS.items():
            times, height = [], 0.0
            for _ in range(args.runs):
                page = browser.new_page()
                page.goto(url + fragment)
                page.wait_for_selector("#picker button")
                times.append(page.evaluate('() => performance.getEntriesByName("judge-link-read")[0].duration'))
                height = page.evaluate('() => document.getElementById("link-problem").getBoundingClientRect().height')
                page.close()
            print(f"{name:24s} median {statistics.median(times):6.1f} ms  min {min(times):6.1f} ms  "
                  f"message box {height:.0f} px")
        browser.close()
    server.shutdown()


if __name__ == "__main__":
    main()
