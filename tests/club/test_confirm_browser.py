"""A result disputed at a board, on the director's page in a real headless Chromium (issue
26): on a 390 px phone screen the held result shows with its .mat link and buttons that fit;
"Accept" stores it and it leaves the list."""

from __future__ import annotations

import uuid as uuids

import pytest
from selenium.webdriver.common.by import By

from bgboard.club import confirmations, evening
from bgboard.club.board_tournament import ClubTournament
from bgboard.club.director import Director
from bgboard.club.web.password import hash_password
from bgboard.net.protocol import Game, Result
from tests.club.conftest import selfplay_mat
from tests.club.test_evening_browser import overflow, serve
from tests.club.webrun import log_in, submit
from tests.club.webclub import PASSWORD
from tests.club.webrun import chromium


@pytest.fixture
def browser(tmp_path):
    driver = chromium()
    yield driver
    driver.quit()


@pytest.mark.slow
def test_a_disputed_result_on_the_directors_phone(tmp_path, browser):
    path = tmp_path / "club.sqlite"
    with Director.create(path, "Phone club") as d:
        d.set_director_password_hash(hash_password(PASSWORD))
        for name in ("Ann", "Bob", "Cleo", "Dev"):
            d.add_player(name)
        d.new_event("Friday Night Swiss", "swiss", 1, rounds=1)
        d.enter("Friday Night Swiss", ["Ann", "Bob", "Cleo", "Dev"])
        evening.configure(d, "Friday Night Swiss", confirm_results=True)
        m = d.pair_round("Friday Night Swiss").matches[0]
        mat, score = selfplay_mat(1, 4, (m.players[0], m.players[1]))
        result = Result(str(uuids.uuid4()), m.board, m.event, m.id, (m.players[0], m.players[1]), 1, score,
                        0 if score[0] > score[1] else 1, (Game(0, 1, "single"),), mat, 10, 1, disputed=True)
        assert ClubTournament(d).report(m.board, result).status == "stored"
        [held] = confirmations.held(d)
    served = serve(path)
    try:
        browser.set_window_size(390, 844)
        log_in(browser, served.url, PASSWORD)
        browser.get(served.url + "/director")
        row = browser.find_element(By.ID, f"held-{held.id}")
        assert "disputed at the board" in row.text and f"{score[0]}-{score[1]}" in row.text
        assert row.find_element(By.LINK_TEXT, ".mat").get_attribute("href").endswith(f"/director/held/{held.id}/mat")
        assert overflow(browser) <= 0
        width = browser.execute_script("return document.documentElement.clientWidth")
        for b in browser.find_elements(By.CSS_SELECTOR, "#held button, #held input:not([type=hidden])"):
            b.location_once_scrolled_into_view
            right = browser.execute_script("return arguments[0].getBoundingClientRect().right", b)
            assert right <= width, b.get_attribute("outerHTML")[:80]
        submit(browser, row.find_element(By.CSS_SELECTOR, "form.accept button"))
        assert "recorded" in browser.find_element(By.CSS_SELECTOR, "p.flash").text
        assert not browser.find_elements(By.ID, f"held-{held.id}")
    finally:
        served.close()
    with Director.open(path) as d:
        assert d.match(m.id).status == "finished" and d.match(m.id).score == list(score)
