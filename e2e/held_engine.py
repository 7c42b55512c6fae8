"""The engine held back while a test acts on the page as it boots: the worker's download of the engine wheel
waits until the test releases it, so that "before the engine is up" does not depend on how loaded the machine
is (under CI's load, an engine left free was once up before Play's click landed)."""
from __future__ import annotations


class HeldRequests:
    """The page's requests for URLs matching `pattern` (a glob or a regular expression, as Playwright's route
    takes it), held until `release`. One asked for after the release (a slow worker can ask later than the test
    releases) goes through at once rather than wait for ever."""

    def __init__(self, page, pattern) -> None:
        self.waiting: list = []
        self.released = False
        page.route(pattern, self._arrived)

    def _arrived(self, route) -> None:
        if self.released:
            route.continue_()
        else:
            self.waiting.append(route)

    def release(self) -> None:
        self.released = True
        while self.waiting:
            self.waiting.pop().continue_()


class HeldEngine(HeldRequests):
    """The worker's download of the engine wheel, held until `release`."""

    def __init__(self, page) -> None:
        super().__init__(page, "**/wheels/**")


def hold_the_engine(page) -> HeldEngine:
    return HeldEngine(page)


def release(held: HeldRequests) -> None:
    held.release()
