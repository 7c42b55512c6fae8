"""The counts of the long differential runs (``--full``, declared by the root conftest.py), and the hypothesis
profiles.

The default run is small and fast; ``pytest --full`` plays at least 200,000 random positions and
20,000 random deals against the naive implementation (tests/naive.py), and gives hypothesis more
examples.  ``--diff-seed N`` changes the seed of the random positions and deals.
"""

from __future__ import annotations

import asyncio
import sys
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# tests/ is not a package and pytest imports in importlib mode: make ``import naive`` work.
TESTS = Path(__file__).resolve().parent
if str(TESTS) not in sys.path:
    sys.path.insert(0, str(TESTS))

settings.register_profile("default", max_examples=60, deadline=None)
settings.register_profile(
    "full", max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@dataclass(frozen=True)
class Counts:
    """How much random material the differential tests use."""

    positions: int
    deals: int
    cli_lines: int
    seed: int


SMALL = dict(positions=20_000, deals=2_000, cli_lines=3_000)
FULL = dict(positions=200_000, deals=20_000, cli_lines=30_000)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.getgroup("coinche").addoption(
        "--diff-seed", type=int, default=20240601,
        help="seed of the random positions and deals of the differential tests")


def pytest_configure(config: pytest.Config) -> None:
    settings.load_profile("full" if config.getoption("--full") else "default")


@pytest.fixture(scope="session")
def counts(request: pytest.FixtureRequest) -> Counts:
    """The sizes of the differential runs: small by default, at least 200,000/20,000 with ``--full``."""
    sizes = FULL if request.config.getoption("--full") else SMALL
    return Counts(seed=request.config.getoption("--diff-seed"), **sizes)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item: pytest.Item):
    with no_running_loop():
        yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item: pytest.Item):
    with no_running_loop():
        yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None):
    if nextitem is None:  # the worker's last test: the session's fixtures (Playwright's) go with it
        yield
        return
    with no_running_loop():
        yield


@contextmanager
def no_running_loop():
    """Playwright's sync API (the browser tests, e2e/) leaves its event loop set as the thread's running loop
    between its calls. A worker that ran a browser test before would then refuse the referee tests'
    ``asyncio.run``. The tests of this folder are set up, run and torn down with no running loop (module-scoped
    fixtures included, which a function-scoped fixture would not cover), and Playwright's is put back after;
    but for the tear-down of a worker's last test, which ends the browser's session-scoped fixtures too."""
    loop = asyncio.events._get_running_loop()
    if loop is None:
        yield
        return
    asyncio.events._set_running_loop(None)
    try:
        yield
    finally:
        asyncio.events._set_running_loop(loop)
