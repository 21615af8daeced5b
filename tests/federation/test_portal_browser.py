"""The federation's pages in a real headless Chromium over a real PostgreSQL: the rating list
and a member's history read by the public, a hostile name shown as text, the officers' page
behind the password (a wrong one refused, a right one letting an officer count an event in a
season), a form without its CSRF token refused."""

from __future__ import annotations

import asyncio
import threading

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from bgboard.club.web.password import hash_password
from bgboard.federation.ledger import Ledger
from bgboard.federation.portal import Portal, create_portal
from bgboard.club.web.server import serve_http
from bgboard.net.results_feed import ClubResult
from tests.club.webrun import PAGE_WAIT_S, SERVER_WAIT_S, chromium, submit

PASSWORD = "officers of the league"
HOSTILE = "<script>alert(1)</script>"


def _result(n: int, a: str, b: str, winner: int, club: str = "north", names=("Ann", "Bob")) -> ClubResult:
    return ClubResult(f"{n:08d}-0000-4000-8000-000000000000", club, "Club night", n, names, (a, b), 5,
                      (5, 2) if winner == 0 else (2, 5), winner, True, n, f"2026-11-29T20:{n:02d}:00+00:00")


@pytest.fixture
def served(postgres_url):
    with Ledger(postgres_url) as ledger:
        ledger.add_club("north", "North")
        ledger.add_club("south", "South")
        ledger.store([_result(1, "M1", "M2", 0, names=("Ann", HOSTILE)), _result(2, "M2", "M3", 1, "south",
                                                                                 names=(HOSTILE, "Cid")),
                      _result(3, "M1", "M3", 0)])
        ledger.set_meta("officer_password", hash_password(PASSWORD))
    app = create_portal(Portal(postgres_url, "Northern League"))
    loop = asyncio.new_event_loop()
    ready = threading.Event()
    where: list[str] = []
    stop: list[asyncio.Event] = []

    def run() -> None:
        asyncio.set_event_loop(loop)

        async def main() -> None:
            stop.append(asyncio.Event())
            await serve_http(app, "127.0.0.1", 0, ready=lambda h, p: (where.append(f"http://{h}:{p}"), ready.set()),
                             stop=stop[0])

        loop.run_until_complete(main())
        loop.close()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert ready.wait(SERVER_WAIT_S)
    yield where[0]
    loop.call_soon_threadsafe(stop[0].set)
    thread.join(SERVER_WAIT_S)


@pytest.fixture
def browser(tmp_path):
    driver = chromium()
    yield driver
    driver.quit()


def test_the_public_reads_the_list_and_officers_count_an_event(served, browser):
    browser.get(served + "/ratings")
    rows = browser.find_elements(By.CSS_SELECTOR, "#ratings tbody tr")
    assert [r.find_elements(By.TAG_NAME, "td")[1].text for r in rows] == ["M1", "M3", "M2"]
    assert HOSTILE in [r.find_elements(By.TAG_NAME, "td")[2].text for r in rows]  # text, never markup
    assert browser.find_elements(By.CSS_SELECTOR, "main script") == []
    browser.get(served + "/member/M1")
    assert browser.find_element(By.ID, "rating").text.startswith("Rating 15")
    assert len(browser.find_elements(By.CSS_SELECTOR, "#history tbody tr")) == 2
    browser.get(served + "/director")  # the officers' page: the door sends the public away
    assert browser.current_url.endswith("/director/login") and "Count an event" not in browser.page_source
    browser.get(served + "/director/login")
    browser.find_element(By.NAME, "password").send_keys("not the password")
    submit(browser, browser.find_element(By.CSS_SELECTOR, "form.login button"))
    assert browser.find_element(By.CSS_SELECTOR, "p.refused").text == "That password is not the officers' password."
    browser.find_element(By.NAME, "password").send_keys(PASSWORD)
    submit(browser, browser.find_element(By.CSS_SELECTOR, "form.login button"))
    assert browser.current_url.endswith("/director")
    browser.find_element(By.NAME, "season").send_keys("2027")
    browser.find_element(By.NAME, "event").send_keys("Club night")
    submit(browser, browser.find_element(By.CSS_SELECTOR, "form.count button"))
    assert browser.current_url.endswith("/season/2027")
    rows = browser.find_elements(By.CSS_SELECTOR, "#season tbody tr")
    # north's two results only: M1 won both; M3 and M2 lost one each, M3 ahead on the rating list
    assert [r.find_elements(By.TAG_NAME, "td")[1].text for r in rows] == ["M1", "M3", "M2"]
    # a form without the session's CSRF token is refused
    browser.get(served + "/director")
    browser.execute_script("document.querySelector('form.count input[name=csrf]').value = 'forged'")
    browser.find_element(By.NAME, "season").send_keys("2028")
    browser.find_element(By.NAME, "event").send_keys("Club night")
    submit(browser, browser.find_element(By.CSS_SELECTOR, "form.count button"))
    WebDriverWait(browser, PAGE_WAIT_S).until(lambda d: d.find_elements(By.CSS_SELECTOR, "p.refused"))
    assert "out of date" in browser.find_element(By.CSS_SELECTOR, "p.refused").text
