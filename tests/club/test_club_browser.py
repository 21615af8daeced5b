"""The club's pages in a real headless Chromium over a real club database: the bracket's
champion, the director's login (a wrong password refused), a corrected result changing the
standings and the ratings, a form without its CSRF token refused, a hostile name shown as
text; and the screenshots of docs/club.md."""

from __future__ import annotations


import pytest
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from bgboard.club.director import Director
from bgboard.club.live_boards import LiveHub
from bgboard.club.web.server import club_site
from bgboard.club.web.pages import event_url, standings_url
from tests.club.evening import Evening
from tests.club.test_room_browser import IMAGES, texts
from tests.club.webclub import DOUBLE, HOSTILE, PASSWORD, SWISS, make_club
from tests.club.webrun import PAGE_WAIT_S, ServedSite, chromium, log_in, submit


@pytest.fixture
def store() -> str:
    """The pages are the same on both stores (tests/club/test_club_pages.py runs them on
    both): a Chromium per test on SQLite only."""
    return "sqlite"


@pytest.fixture
def served(db):
    served = ServedSite(club_site(db, LiveHub()))
    yield served
    served.close()


@pytest.fixture
def browser(tmp_path):
    driver = chromium()
    yield driver
    driver.quit()


@pytest.mark.slow
def test_the_bracket_shows_the_champion_and_names_as_text(served, browser):
    browser.get(served.url + event_url(DOUBLE))
    assert browser.find_element(By.ID, "champion").text == "Champion: Gus"
    flights = [e.get_attribute("data-flight") for e in browser.find_elements(By.CSS_SELECTOR, ".bracket")]
    assert flights == ["main", "consolation"]
    assert HOSTILE in texts(browser, ".bracket .who")
    assert browser.find_elements(By.CSS_SELECTOR, "main img") == []
    browser.set_window_size(1280, 1000)
    IMAGES.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(IMAGES / "club-bracket.png"))


@pytest.mark.slow
def test_a_wrong_password_is_refused(served, browser):
    log_in(browser, served.url, "not the password")
    WebDriverWait(browser, PAGE_WAIT_S).until(lambda d: d.find_elements(By.CSS_SELECTOR, "p.refused"))
    assert browser.find_element(By.CSS_SELECTOR, "p.refused").text == \
        "That password is not the director's password."
    browser.get(served.url + "/director")
    assert browser.current_url.endswith("/director/login")


@pytest.mark.slow
def test_the_director_corrects_a_result_and_standings_and_ratings_change(served, browser, db):
    evening = Evening(served.site.hub, boards=2, seed=3)
    served.call(evening.advance, 12)
    with Director.open(db) as d:
        match = d.matches(SWISS)[0]
        winner = match.winner
        loser = next(p for p in match.players if p != winner)
        ratings = {p.name: f"{p.rating:.2f}" for p in d.ratings()}
    browser.get(served.url + standings_url(SWISS))
    wins = dict(zip(texts(browser, "table.standings td.name"),
                    texts(browser, "table.standings td:nth-child(3)")))

    log_in(browser, served.url, PASSWORD)
    WebDriverWait(browser, PAGE_WAIT_S).until(lambda d: d.current_url.endswith("/director"))
    row = browser.find_element(By.ID, f"done-{match.id}")
    row.find_element(By.NAME, "score").send_keys("0-3" if winner == match.players[0] else "3-0")
    row.find_element(By.NAME, "reason").send_keys("reported the wrong way round")
    submit(browser, row.find_element(By.CSS_SELECTOR, "form.correct button"))
    WebDriverWait(browser, PAGE_WAIT_S).until(lambda d: d.find_elements(By.CSS_SELECTOR, "p.flash"))
    assert f"Match {match.id}: result corrected" in browser.find_element(By.CSS_SELECTOR, "p.flash").text

    browser.get(served.url + standings_url(SWISS))
    after = dict(zip(texts(browser, "table.standings td.name"),
                     texts(browser, "table.standings td:nth-child(3)")))
    assert int(after[loser]) == int(wins[loser]) + 1
    assert int(after[winner]) == int(wins[winner]) - 1
    browser.get(served.url + "/ratings")
    shown = dict(zip(texts(browser, "table.ratings td.name"), texts(browser, "table.ratings td.rating")))
    assert float(shown[loser]) > float(ratings[loser])
    assert float(shown[winner]) < float(ratings[winner])


@pytest.mark.slow
def test_a_form_without_its_csrf_token_is_refused(served, browser, db):
    log_in(browser, served.url, PASSWORD)
    WebDriverWait(browser, PAGE_WAIT_S).until(lambda d: d.current_url.endswith("/director"))
    with Director.open(db) as d:
        match = d.matches(SWISS)[0]
        before = d.standings(SWISS)
    row = browser.find_element(By.ID, f"done-{match.id}")
    browser.execute_script("arguments[0].querySelector('input[name=csrf]').remove()", row)
    row.find_element(By.NAME, "score").send_keys("3-2")
    submit(browser, row.find_element(By.CSS_SELECTOR, "form.correct button"))
    WebDriverWait(browser, PAGE_WAIT_S).until(lambda d: d.find_elements(By.CSS_SELECTOR, "p.refused"))
    assert "did not come from this site" in browser.find_element(By.CSS_SELECTOR, "p.refused").text
    with Director.open(db) as d:
        assert d.standings(SWISS) == before and d.audit()[-1].action != "correct"


@pytest.mark.slow
def test_the_director_pairs_a_round_from_the_page(tmp_path, browser):
    path = make_club(tmp_path / "fresh.sqlite", finish_double=False, swiss_rounds=0)
    served = ServedSite(club_site(path, LiveHub()))
    try:
        log_in(browser, served.url, PASSWORD)
        WebDriverWait(browser, PAGE_WAIT_S).until(lambda d: d.current_url.endswith("/director"))
        section = browser.find_element(By.CSS_SELECTOR, f'section[data-event="{SWISS}"]')
        submit(browser, section.find_element(By.CSS_SELECTOR, "form.pair button"))
        WebDriverWait(browser, PAGE_WAIT_S).until(lambda d: d.find_elements(By.CSS_SELECTOR, "p.flash"))
        assert "Round 1 of Tuesday Swiss: 3 matches paired." in browser.find_element(By.CSS_SELECTOR, "p.flash").text
        browser.set_window_size(1280, 1000)
        IMAGES.mkdir(parents=True, exist_ok=True)
        browser.save_screenshot(str(IMAGES / "club-director.png"))
        forfeit = browser.find_elements(By.CSS_SELECTOR, f'section[data-event="{SWISS}"] form.forfeit')[0]
        Select(forfeit.find_element(By.NAME, "winner")).select_by_index(1)
        forfeit.find_element(By.NAME, "reason").send_keys("no-show")
        submit(browser, forfeit.find_element(By.CSS_SELECTOR, "button"))
        WebDriverWait(browser, PAGE_WAIT_S).until(lambda d: "by forfeit" in " ".join(texts(d, "p.flash")))
    finally:
        served.close()
    with Director.open(path) as d:
        assert [a.action for a in d.audit(SWISS)][-2:] == ["pair_round", "forfeit"]


@pytest.mark.slow
def test_the_tv_view_cycles_through_the_room_and_the_running_events(tmp_path, browser):
    path = make_club(tmp_path / "fresh.sqlite", finish_double=False, swiss_rounds=1)
    site = club_site(path, LiveHub())
    site.tv_seconds = 1
    served = ServedSite(site)
    # every page the tab shows writes its address down as it opens (sessionStorage lives
    # across the tab's navigations): polling the current address instead could miss a page
    # when a loaded machine delays a poll past the 1 s cycle
    browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": (
        "sessionStorage.setItem('tv', (sessionStorage.getItem('tv') || '') + ' ' + location.pathname + location.search)")})

    def shown(d) -> list[str]:
        try:
            return (d.execute_script("return sessionStorage.getItem('tv')") or "").split()
        except WebDriverException:  # read while the tab was between two pages
            return []

    try:
        browser.get(served.url + "/?tv")
        assert "tv" in browser.find_element(By.TAG_NAME, "body").get_attribute("class")
        WebDriverWait(browser, 2 * PAGE_WAIT_S).until(lambda d: len(shown(d)) >= 6)
        first, *paths = shown(browser)[:6]
    finally:
        served.close()
    assert first == "/?tv"
    double, swiss = event_url(DOUBLE), event_url(SWISS)
    assert paths == [f"{double}?tv", f"{standings_url(DOUBLE)}?tv", f"{swiss}?tv",
                     f"{standings_url(SWISS)}?tv", "/?tv"]


@pytest.mark.slow
def test_pages_fit_a_phone(served, browser):
    evening = Evening(served.site.hub, boards=3, seed=2)
    served.call(evening.advance, 10)
    browser.set_window_size(390, 844)
    for url in ("/", "/board/1", event_url(DOUBLE), standings_url(SWISS), "/ratings", "/match/1"):
        browser.get(served.url + url)
        overflow = browser.execute_script(
            "return document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, f"{url} is {overflow} px wider than a phone"
