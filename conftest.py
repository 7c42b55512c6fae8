"""The test tiers, shared by tests/ and e2e/.

- ``make test`` (``pytest tests e2e -n JOBS``): every test at its default size, the layout tests at a
  representative subset of languages and widths.
- ``make test-full`` (``--full``, what CI runs): the long differential runs (tests/conftest.py ``counts``,
  e2e/test_judge_diff.py, e2e/test_pyodide_parity.py) and the tests marked ``full_only`` (every layout screen).

Both run in parallel with pytest-xdist; the tests that take longest are handed out first (LONGEST_FIRST), so
that no worker is left with a long one at the end while the others wait, and one or two at a time
(``--maxschedchunk``, set below unless given): xdist's default first hands each worker a quarter of its share
in one block, and the first block held every long test, so one worker ran them all while the others finished
two minutes sooner and waited.
"""
from __future__ import annotations

import pytest

# Node ids (or their beginnings) of the tests that take longest, longest first (measured with
# `make test PYTEST_ARGS=--durations=40`, 2026-12-02; with --full the Pyodide parity and differential runs
# grow most).  Only the order changes: every test still runs.
LONGEST_FIRST = (
    "tests/test_bidding.py::test_the_coach_never_prefers",  # 98 s of CPU with --full, 11 without
    "e2e/test_pyodide_parity.py",
    "e2e/test_judge_diff.py::test_pyodide_in_node_agrees_with_cpython",
    "e2e/test_online.py::test_a_private_table_by_link_and_a_whole_match",
    "e2e/test_friends.py::test_four_friends_play_a_whole_deal_at_one_table",
    "tests/test_referee_cluster.py::test_the_audit_s_whole_recording_on_a_referee_with_redis",
    "e2e/test_table.py::test_a_whole_match_through_the_page",
    "e2e/test_replay.py",
    "e2e/test_daily.py",
    "e2e/test_boot.py::test_a_first_boot_saves_a_snapshot_for_the_next_and_a_broken_or_stale_one_is_replaced",
    "e2e/test_review.py",
    "e2e/test_offline.py",
    "e2e/test_online.py",
    "tests/test_review.py::test_the_experts_own_play_is_flagged_nearly_nothing",
    "e2e/test_judge_diff.py",
    "tests/test_referee_cluster.py",
    "tests/test_differential.py",
    "e2e/test_whatif.py",
    "e2e/test_pwa.py",
    "e2e/test_saves.py",
    "e2e/test_pyodide_node.py",
    "e2e/test_layout.py::test_the_game_fits_every_screen",
)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.getgroup("coinche").addoption(
        "--full", action="store_true", default=False,
        help="the long tier (make test-full, CI): long differential runs (200,000 random positions and 20,000 "
             "random deals) and the tests marked full_only")


def pytest_configure(config: pytest.Config) -> None:
    if getattr(config.option, "maxschedchunk", "absent") is None:  # xdist's, not given
        config.option.maxschedchunk = 1


def rank(nodeid: str) -> int:
    """Where a test goes in the queue: the index of its LONGEST_FIRST entry, else after all of them."""
    return next((i for i, prefix in enumerate(LONGEST_FIRST) if nodeid.startswith(prefix)), len(LONGEST_FIRST))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not config.getoption("--full"):
        kept = [item for item in items if item.get_closest_marker("full_only") is None]
        if len(kept) < len(items):
            config.hook.pytest_deselected(items=[item for item in items if item not in kept])
            items[:] = kept
    items.sort(key=lambda item: rank(item.nodeid))  # stable: the rest keep their order
