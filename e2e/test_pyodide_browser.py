"""tools/pyodide_browser.py runs a script under the site's Pyodide in headless Chromium (the benches' browser
figures): the engine importable, the arguments passed, the output and the exit status returned."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.full_only
def test_a_script_runs_in_the_browser_with_its_arguments_output_and_exit_status(build_info, tmp_path):
    script = tmp_path / "probe.py"
    script.write_text(
        "import sys\n"
        "from coinche.solver import solve_cards\n"
        "from coinche.deal import Deal\n"
        "outcomes = solve_cards(Deal.new('coinche', dealer=3, seed=3).hands, 0, [], 1)\n"
        "print(sys.platform, sys.argv[1:], max(o.points[0] for o in outcomes.values()))\n"
        "sys.exit(int(sys.argv[1]))\n"
    )
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "pyodide_browser.py"), str(script), "3", "x"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.stdout == "emscripten ['3', 'x'] 73\n", done.stderr
    assert done.returncode == 3
