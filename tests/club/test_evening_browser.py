"""The evening's pages in a real headless Chromium (issue 26): check-in with one tap per
player on a phone-sized page and the draw made when it closes; the director's pages within a
390 px screen; the draw printed through Chromium's own print to PDF (WebDriver's print_page):
a 32-player bracket on one landscape page, A4 and Letter, each flight of a double
elimination on its own page; the standings page with a champion keeps its rows as rows."""

from __future__ import annotations

import base64
import re

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.print_page_options import PrintOptions

from bgboard.club import evening
from bgboard.club.director import Director
from bgboard.club.live_boards import LiveHub
from bgboard.club.web.password import hash_password
from bgboard.club.web.server import club_site

from tests.club.webclub import DOUBLE, PASSWORD, make_club
from tests.club.webrun import ServedSite, chromium, log_in, submit

PAPER = {"A4": (21.0, 29.7), "Letter": (21.59, 27.94)}   # cm, portrait


@pytest.fixture
def browser(tmp_path):
    driver = chromium()
    yield driver
    driver.quit()


def serve(path):
    return ServedSite(club_site(path, LiveHub()))


def overflow(browser) -> int:
    return browser.execute_script(
        "return document.documentElement.scrollWidth - document.documentElement.clientWidth")


def pdf_pages(browser, paper: str) -> int:
    """Print the page with Chromium's print to PDF, landscape on ``paper``; its page count."""
    options = PrintOptions()
    options.orientation = "landscape"
    options.page_width, options.page_height = PAPER[paper]
    options.background = True
    pdf = base64.b64decode(browser.print_page(options))
    assert pdf.startswith(b"%PDF")
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", pdf))


@pytest.mark.slow
def test_check_in_from_a_phone_then_the_draw(tmp_path, browser):
    path = tmp_path / "club.sqlite"
    names = ["Ann", "Bob", "Cleo", "Dev", "Eli", "Fay"]
    with Director.create(path, "Phone Club") as d:
        for n in names:
            d.add_player(n)
        d.new_event("Friday Swiss", "swiss", 1, rounds=2)
        evening.configure(d, "Friday Swiss", check_in=True)
        d.set_director_password_hash(hash_password(PASSWORD))
    served = serve(path)
    try:
        browser.set_window_size(390, 844)
        log_in(browser, served.url, PASSWORD)
        browser.get(served.url + "/director/checkin/Friday%20Swiss")
        assert overflow(browser) <= 0
        for name in ("Ann", "Bob", "Cleo", "Dev", "Eli"):
            button = browser.find_element(By.CSS_SELECTOR, f'button.tap[data-player="{name}"]')
            assert button.size["height"] >= 44          # a thumb's tap
            submit(browser, button)
        submit(browser, browser.find_element(By.CSS_SELECTOR, 'button.tap[data-player="Eli"]'))  # undo
        assert browser.find_element(By.ID, "present").text == "4"
        assert browser.find_element(By.CSS_SELECTOR, 'button.tap[data-player="Eli"]').text == "Eli"
        assert browser.find_element(By.CSS_SELECTOR, 'button.tap[data-player="Ann"]').text == "✓ Ann"
        assert overflow(browser) <= 0
        submit(browser, browser.find_element(By.CSS_SELECTOR, "button.close-draw"))
        assert "Check-in closed: round 1, 2 matches. Not checked in: Eli." in \
            browser.find_element(By.CSS_SELECTOR, "p.flash").text
        assert overflow(browser) <= 0        # the director's page with its forms, on the phone
        for button in browser.find_elements(By.CSS_SELECTOR, "section.event-admin button"):
            right = browser.execute_script("return arguments[0].getBoundingClientRect().right", button)
            assert right <= 390, button.text     # no button clipped at the screen's edge
    finally:
        served.close()
    with Director.open(path) as d:
        paired = {p for m in d.matches("Friday Swiss") for p in m.players}
        assert paired == {"Ann", "Bob", "Cleo", "Dev"}


@pytest.mark.slow
def test_the_director_sets_up_an_evening_on_the_web(tmp_path, browser):
    path = tmp_path / "club.sqlite"
    with Director.create(path, "Web Club") as d:
        d.set_director_password_hash(hash_password(PASSWORD))
    served = serve(path)
    try:
        browser.set_window_size(390, 844)
        log_in(browser, served.url, PASSWORD)
        for name in ("Ann", "Bob", "Cleo"):
            browser.get(served.url + "/director/setup")
            form = browser.find_element(By.CSS_SELECTOR, "form.add-player")
            form.find_element(By.NAME, "name").send_keys(name)
            submit(browser, form.find_element(By.TAG_NAME, "button"))
        form = browser.find_element(By.CSS_SELECTOR, "form.new-event")
        form.find_element(By.NAME, "name").send_keys("Cup")
        form.find_element(By.NAME, "length").clear()
        form.find_element(By.NAME, "length").send_keys("1")
        submit(browser, form.find_element(By.TAG_NAME, "button"))
        assert browser.find_element(By.CSS_SELECTOR, "p.flash").text.startswith("Event Cup created")
        form = browser.find_element(By.CSS_SELECTOR, "form.enter")
        for box in form.find_elements(By.CSS_SELECTOR, "input[type=checkbox]"):
            box.click()
        submit(browser, form.find_element(By.TAG_NAME, "button"))
        assert browser.find_element(By.CSS_SELECTOR, "p.flash").text == "3 entered in Cup: 3 players."
        assert overflow(browser) <= 0
    finally:
        served.close()
    with Director.open(path) as d:
        assert d.event("Cup").players == ["Ann", "Bob", "Cleo"]


def bracket_club(path, fmt: str, players: int = 32):
    with Director.create(path, "Print Club") as d:
        names = [f"Player {i:02d} Longname" for i in range(1, players + 1)]
        for i, n in enumerate(names):
            d.add_player(n, 1800 - i)
        d.new_event("Big Cup", fmt, 3)
        d.enter("Big Cup", names)
        d.pair_round("Big Cup")
    return path


@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_a_32_player_bracket_prints_on_one_landscape_page(tmp_path, browser, paper):
    served = serve(bracket_club(tmp_path / "club.sqlite", "single-elimination"))
    try:
        browser.get(served.url + "/print/Big%20Cup")
        boxes = browser.find_elements(By.CSS_SELECTOR, ".sheet-bracket .box")
        assert len(boxes) == 31
        tables = [b.text for b in browser.find_elements(By.CSS_SELECTOR, ".box b.table")]
        assert sorted(tables, key=lambda t: int(t.split()[1])) == [f"board {n}" for n in range(1, 17)]
        assert pdf_pages(browser, paper) == 1
    finally:
        served.close()


def test_each_flight_of_a_32_player_double_elimination_prints_on_its_own_page(tmp_path, browser):
    served = serve(bracket_club(tmp_path / "club.sqlite", "double-elimination"))
    try:
        browser.get(served.url + "/print/Big%20Cup")
        assert len(browser.find_elements(By.CSS_SELECTOR, "section.flight")) == 2
        assert pdf_pages(browser, "A4") == 2
        browser.get(served.url + "/slips/Big%20Cup")
        assert len(browser.find_elements(By.CSS_SELECTOR, ".slip")) == 16
        assert pdf_pages(browser, "A4") <= 4            # 16 slips, two columns
    finally:
        served.close()


@pytest.mark.slow
def test_the_standings_rows_stay_rows_when_there_is_a_champion(tmp_path, browser):
    served = serve(make_club(tmp_path / "club.sqlite"))
    try:
        browser.set_window_size(390, 844)
        browser.get(served.url + "/standings/" + DOUBLE.replace(" ", "%20"))
        rows = browser.find_elements(By.CSS_SELECTOR, "table.standings tr")
        assert len(rows) == 9 and all(r.is_displayed() for r in rows[1:])   # the heads: labels on a phone
        champion = browser.find_element(By.CSS_SELECTOR, "tr.champion")
        other = rows[2]
        # on a phone every player is one wrapped row of labelled figures (the standings fit 390 px
        # in every language, docs/languages.md); the champion's is laid out as the others'
        assert champion.value_of_css_property("display") == other.value_of_css_property("display")
        assert champion.size["width"] == other.size["width"]          # a row like the others, not a card
        assert champion.value_of_css_property("border-top-width") == "0px"
    finally:
        served.close()


@pytest.mark.slow
def test_the_director_page_of_a_whole_evening_fits_a_phone(tmp_path, browser):
    served = serve(make_club(tmp_path / "club.sqlite", finish_double=False, swiss_rounds=1))
    try:
        browser.set_window_size(390, 844)
        log_in(browser, served.url, PASSWORD)
        for url in ("/director", "/director/setup", "/players/Ann", "/print/Friday%20Double"):
            browser.get(served.url + url)
            if url.startswith("/print"):
                continue        # a sheet for paper: it scrolls sideways on a phone
            assert overflow(browser) <= 0, url
            width = browser.execute_script("return document.documentElement.clientWidth")
            buttons = browser.find_elements(By.CSS_SELECTOR, "main button, main input, main select")
            assert buttons or url.startswith("/players")
            for b in buttons:
                if b.get_attribute("type") == "hidden":
                    continue
                right = browser.execute_script("return arguments[0].getBoundingClientRect().right", b)
                assert right <= width, (url, b.get_attribute("outerHTML")[:80])
    finally:
        served.close()


@pytest.mark.slow
def test_a_32_player_swiss_table_and_its_standings_print_one_landscape_page_each(tmp_path, browser):
    path = tmp_path / "club.sqlite"
    with Director.create(path, "Print Club") as d:
        names = [f"Player {i:02d} Longname" for i in range(1, 33)]
        for i, n in enumerate(names):
            d.add_player(n, 1800 - i)
        d.new_event("Big Swiss", "swiss", 3, rounds=5)
        d.enter("Big Swiss", names)
        for _ in range(4):
            for m in d.pair_round("Big Swiss").matches:
                d.record_result("Big Swiss", m.id, (3, 1) if m.id % 2 else (0, 3))
        d.pair_round("Big Swiss")                       # round 5 to play: its boards on the sheet
    served = serve(path)
    try:
        browser.get(served.url + "/print/Big%20Swiss")
        assert len(browser.find_elements(By.CSS_SELECTOR, "table.sheet tr")) == 33
        assert len(browser.find_elements(By.CSS_SELECTOR, "table.sheet b.table")) == 32   # 16 boards, both rows
        for paper in PAPER:
            assert pdf_pages(browser, paper) == 1
        browser.get(served.url + "/print/Big%20Swiss?sheet=standings")
        assert len(browser.find_elements(By.CSS_SELECTOR, "section.standings tr")) == 33
        for paper in PAPER:
            assert pdf_pages(browser, paper) == 1
    finally:
        served.close()
