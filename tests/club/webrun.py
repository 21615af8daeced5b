"""The club web site served for real (uvicorn on a free localhost port, in a thread with its own
asyncio loop) and a real headless Chromium driven by Selenium through Debian's chromedriver.

A test that needs Chromium FAILS (never skips) when it is missing: run tools/test-services.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import threading
from pathlib import Path
from typing import Any, Callable

import pytest
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from bgboard.club.web.site import Site, create_app
from bgboard.club.web.server import serve_http

CHROMIUM = Path(os.environ.get("BGBOARD_CHROMIUM", "/usr/bin/chromium"))
CHROMEDRIVER = Path(os.environ.get("BGBOARD_CHROMEDRIVER", "/usr/bin/chromedriver"))
# How long a page may take to show what a test waits for. Generous: a wait that succeeds
# returns at once, and a loaded CI machine must not turn a slow page into a failure (the
# live pages' latency is measured in benchmarks/, not asserted here).
PAGE_WAIT_S = 30
# The same for the server's own loop (start, a call into it, a task's end, a page load).
SERVER_WAIT_S = 60


class ServedSite:
    """``site`` served on 127.0.0.1 (a free port) by a loop in a thread; :meth:`call` runs a
    function in that loop (as the MQTT side feeds the hub) and returns its result."""

    def __init__(self, site: Site) -> None:
        self.site = site
        self.app = create_app(site)
        self.loop = asyncio.new_event_loop()
        self._stop: asyncio.Event | None = None
        self._ready = threading.Event()
        self.url = ""
        self._thread = threading.Thread(target=self._run, name="club-web", daemon=True)
        self._thread.start()
        if not self._ready.wait(SERVER_WAIT_S):
            raise RuntimeError(f"the club web server did not start in {SERVER_WAIT_S} s")

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)

        async def main() -> None:
            self._stop = asyncio.Event()

            def ready(host: str, port: int) -> None:
                self.url = f"http://{host}:{port}"
                self._ready.set()

            await serve_http(self.app, "127.0.0.1", 0, ready=ready, stop=self._stop,
                             on_stop=self.site.hub.close)

        self.loop.run_until_complete(main())
        pending = asyncio.all_tasks(self.loop)   # open event streams: end them, then the loop
        for task in pending:
            task.cancel()
        self.loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
        self.loop.close()

    def call(self, fn: Callable[..., Any], *args: Any) -> Any:
        future: concurrent.futures.Future = concurrent.futures.Future()

        def run() -> None:
            try:
                future.set_result(fn(*args))
            except BaseException as exc:  # handed back to the caller's thread
                future.set_exception(exc)

        self.loop.call_soon_threadsafe(run)
        return future.result(SERVER_WAIT_S)

    def wait(self, task: "asyncio.Future[Any]", timeout: float = SERVER_WAIT_S) -> Any:
        """Wait (from the test's thread) for a task of the server's loop to finish."""
        return asyncio.run_coroutine_threadsafe(_await(task), self.loop).result(timeout)

    def close(self) -> None:
        if self._stop is not None:
            self.loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(SERVER_WAIT_S)


async def _await(task: "asyncio.Future[Any]") -> Any:
    return await task


_FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
          "--disable-background-networking", "--disable-component-update",
          "--no-first-run", "--disable-sync", "--disable-extensions")
#: The window every test starts with (a test that wants a phone sets its own size).
WINDOW = (1280, 900)
#: This test process's Chromium (one per pytest-xdist worker), made by the first test that asks.
_shared: list[Any] = []


def chromium():
    """A headless Chromium (Debian's) through Debian's chromedriver, as new to the test as one
    just started; fails when missing.

    One Chromium serves every test of the process (starting one cost 0.7-2 s a test): each
    test gets a new tab with every other tab closed (no page, script, emulated device, extra
    header or session storage of the last test's tab), the browser's cookies and cache
    cleared and the window at :data:`WINDOW`.  ``quit()`` hands it back for the next test;
    the process's end (tests/conftest.py) closes it; its profile folder is its own."""
    missing = [str(p) for p in (CHROMIUM, CHROMEDRIVER) if not p.exists()]
    if missing:
        pytest.fail(f"{' and '.join(missing)} missing: run tools/test-services "
                    "(apt-get install chromium chromium-driver)", pytrace=False)
    if _shared and _shared[0].in_use:
        raise AssertionError("one Chromium per test at a time: quit() the first before asking again")
    if _shared:
        try:
            _shared[0].fresh()
        except WebDriverException:  # the last test left it broken: a new one
            close_chromium()
    if not _shared:
        _shared.append(_start())
    _shared[0].in_use = True
    return _shared[0]


def _start():
    import tempfile

    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    class SharedChromium(webdriver.Chrome):
        """A Chromium whose ``quit`` hands it back to the next test (:func:`chromium`)."""

        def fresh(self) -> None:
            for handle in self.window_handles[1:]:
                self.switch_to.window(handle)
                super().close()
            self.switch_to.window(self.window_handles[0])
            old = self.current_window_handle
            self.switch_to.new_window("tab")
            new = self.current_window_handle
            self.switch_to.window(old)
            super().close()
            self.switch_to.window(new)
            self.execute_cdp_cmd("Network.clearBrowserCookies", {})
            self.execute_cdp_cmd("Network.clearBrowserCache", {})
            self.set_window_size(*WINDOW)
            self.set_page_load_timeout(SERVER_WAIT_S)

        def quit(self) -> None:
            self.in_use = False
            try:
                self.get("about:blank")   # the test's page and its event streams end now
            except WebDriverException:
                close_chromium()

        def close_for_good(self) -> None:
            super().quit()

    profile = Path(tempfile.mkdtemp(prefix="bgboard-chromium-", dir="/dev/shm" if os.path.isdir("/dev/shm") else None))
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in (*_FLAGS, f"--user-data-dir={profile}", f"--window-size={WINDOW[0]},{WINDOW[1]}"):
        options.add_argument(flag)
    driver = SharedChromium(service=Service(executable_path=str(CHROMEDRIVER)), options=options)
    driver.profile_folder = profile
    driver.set_page_load_timeout(SERVER_WAIT_S)
    return driver


def close_chromium() -> None:
    """Close this process's Chromium, if it has one (the end of the test process)."""
    import shutil

    while _shared:
        driver = _shared.pop()
        try:
            driver.close_for_good()
        except WebDriverException:
            pass
        shutil.rmtree(driver.profile_folder, ignore_errors=True)


def submit(browser: Any, button: Any) -> None:
    """Click a form's button and wait until a new document has replaced the form's page: the
    old page carries a mark the new one lacks (asking during the navigation may fail: ask again)."""
    browser.execute_script("window.__beforeSubmit = true")
    button.click()

    def replaced(driver) -> bool:
        try:
            return driver.execute_script("return window.__beforeSubmit === undefined "
                                         "&& document.readyState === 'complete'")
        except WebDriverException:
            return False

    WebDriverWait(browser, PAGE_WAIT_S).until(replaced)


def log_in(browser: Any, url: str, password: str) -> None:
    """Submit the director's login form and wait for its answer page."""
    browser.get(url + "/director/login")
    browser.find_element(By.NAME, "password").send_keys(password)
    submit(browser, browser.find_element(By.CSS_SELECTOR, "form.login button"))
