"""Helpers of the offline, PWA and saves tests: the service worker's control, the table's state."""
from __future__ import annotations

import time

from playwright.sync_api import expect

BOOT_MS = 60_000

BOOTED = "() => { const { state, engine } = document.body.dataset; return (state ?? engine) !== 'loading'; }"
CONTROLLED = "() => navigator.serviceWorker.controller ? navigator.serviceWorker.controller.scriptURL : null"


def wait_until(page, script: str, seconds: float = 60, arg=None):
    """Poll page.evaluate(script) until it returns a truthy value (wait_for_function fails under the CSP)."""
    deadline = time.monotonic() + seconds
    while True:
        value = page.evaluate(script, arg)
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {script}")
        time.sleep(0.1)


def wait_for_control(page, seconds: float = 120) -> str:
    """The URL of the service worker controlling the page, once it does: the first visit registers it
    once booted and precaches the site; a page not yet controlled then is reloaded once."""
    deadline = time.monotonic() + seconds
    reloaded = False
    while time.monotonic() < deadline:
        url = page.evaluate(CONTROLLED)
        if url:
            if reloaded:  # the reloaded page boots again (without a snapshot if its maker was cut short)
                wait_until(page, BOOTED, max(1, deadline - time.monotonic()))
            return url
        active = page.evaluate(
            "async () => { const r = await navigator.serviceWorker.getRegistration();"
            " return !!(r && r.active && r.active.state === 'activated'); }")
        if active and not reloaded:
            page.reload()
            reloaded = True
        time.sleep(0.2)
    raise AssertionError("the service worker never controlled the page")


def boot_ready(page):
    expect(page.locator("body")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
