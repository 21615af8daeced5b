"""The club's standings and a board page in a real headless Chromium on a phone's 390 px
screen, the browser asking for Dutch and for German (Accept-Language): the texts are Dutch or
German, every text is at least 11 px, and nothing is wider than the screen (no element's
content overflows its box, no element reaches past the viewport).  The screenshots go where
the other pages' go (tests/club/test_room_browser.py's IMAGES; BGBOARD_DOC_IMAGES=docs/images
refreshes docs/images/club-*-nl.png and -de.png)."""

from __future__ import annotations

import pytest
from selenium.webdriver.support.ui import WebDriverWait

from bgboard.club.live_boards import LiveHub
from bgboard.club.web.pages import event_url, standings_url
from bgboard.club.web.server import club_site
from tests.club.evening import Evening
from tests.club.test_room_browser import IMAGES, texts
from tests.club.webclub import DOUBLE, SWISS
from tests.club.webrun import PAGE_WAIT_S, ServedSite, chromium

PHONE = {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True}
SMALLEST_PX = 11
#: Words each page must show in the language asked for (and the English it replaces must not).
WORDS = {
    "nl": {"standings": ["Stand", "Gewonnen", "Verloren", "onderling resultaat", "afgelopen", "Toernooien"],
           "board": ["Bord 1", "match tot 5", "Zaal"]},
    "de": {"standings": ["Tabelle", "Gewonnen", "Verloren", "direkter Vergleich", "beendet", "Turniere"],
           "board": ["Brett 1", "Match auf 5", "Saal"]},
}
ENGLISH = {"standings": ["Standings", "Player", "Lost", "head to head", "finished", "Events"], "board": ["Board 1", "5-point match"]}

#: Every visible element that shows text of its own (a text node child; the board's SVG drawing,
#: whose point numbers are notation, is left out): its font size; every element whose content is
#: wider than its box, or that reaches past the viewport.
MEASURE = r"""
const out = {small: [], overflowing: [], outside: [], labels: []};
const width = document.documentElement.clientWidth;
for (const e of document.querySelectorAll('body, body *')) {
  if (e.closest('svg')) continue;
  const style = getComputedStyle(e);
  if (style.display === 'none' || style.visibility === 'hidden' || e.getClientRects().length === 0) continue;
  const own = Array.from(e.childNodes).some(n => n.nodeType === 3 && n.textContent.trim());
  const pseudo = getComputedStyle(e, '::before').content;
  const label = pseudo && pseudo !== 'none' && pseudo !== 'normal' && pseudo !== '""';
  if (own && parseFloat(style.fontSize) < arguments[0])
    out.small.push(e.tagName + ' ' + style.fontSize + ' ' + e.textContent.trim().slice(0, 30));
  if (label) {
    out.labels.push(pseudo);
    const size = getComputedStyle(e, '::before').fontSize;
    if (parseFloat(size) < arguments[0]) out.small.push(e.tagName + '::before ' + size + ' ' + pseudo);
  }
  if (e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1)
    out.overflowing.push(e.tagName + '.' + e.className + ' ' + e.scrollWidth + '>' + e.clientWidth);
  const r = e.getBoundingClientRect();
  if (r.right > width + 1 || r.left < -1)
    out.outside.push(e.tagName + '.' + e.className + ' ' + Math.round(r.left) + '..' + Math.round(r.right));
}
out.page = [document.documentElement.scrollWidth, document.documentElement.clientWidth];
out.lang = document.documentElement.lang;
out.text = document.body.innerText + '\n' + out.labels.join('\n');   // the labels (::before) are seen too
return out;
"""


@pytest.fixture(scope="module")
def served(finished_club, tmp_path_factory):
    hub = LiveHub()
    served = ServedSite(club_site(finished_club, hub))
    evening = Evening(hub, boards=2, seed=3)
    served.call(evening.advance, 12)
    yield served
    served.close()


@pytest.fixture
def phone(tmp_path):
    driver = chromium()
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)
    driver.execute_cdp_cmd("Network.enable", {})
    yield driver
    driver.quit()


def asking(browser, language: str) -> None:
    """Every request of the browser says Accept-Language: ``language``."""
    browser.execute_cdp_cmd("Network.setExtraHTTPHeaders", {"headers": {"Accept-Language": language}})


def measured(browser, url: str, ready_css: str) -> dict:
    browser.get(url)
    WebDriverWait(browser, PAGE_WAIT_S).until(lambda d: texts(d, ready_css))
    return browser.execute_script(MEASURE, SMALLEST_PX)


@pytest.mark.slow
@pytest.mark.parametrize("language", ["nl", "de"])
@pytest.mark.parametrize("page", ["standings", "board"])
def test_the_page_speaks_the_language_and_fits_a_phone(served, phone, language, page):
    asking(phone, language)
    url, ready = ((standings_url(SWISS), "table.standings td.name") if page == "standings" else
                  ("/board/1", "section.large h1"))
    found = measured(phone, served.url + url, ready)
    assert found["lang"] == language
    for word in WORDS[language][page]:
        assert word in found["text"], (language, page, word)
    for word in ENGLISH[page]:
        assert word not in found["text"], (language, page, word)
    assert found["small"] == [], f"text under {SMALLEST_PX} px"
    assert found["overflowing"] == [] and found["outside"] == [], "wider than the 390 px screen"
    assert found["page"][0] <= found["page"][1] == PHONE["width"]
    IMAGES.mkdir(parents=True, exist_ok=True)
    phone.save_screenshot(str(IMAGES / f"club-{page}-{language}.png"))


@pytest.mark.slow
def test_every_public_page_fits_a_phone_in_german(served, phone):
    """The room, the events, the ratings, a Swiss table, a double-elimination bracket (its rounds
    one under the other), a match and a player: German, text at least 11 px, nothing wider."""
    asking(phone, "de")
    pages = {"/": "article.card", "/events": "table.grid td", "/ratings": "table.ratings td.name",
             event_url(SWISS): "table.swiss td", event_url(DOUBLE): ".bracket .who", "/match/1": "h1.page",
             "/players/Gus": "h1.page"}
    for path, ready in pages.items():
        found = measured(phone, served.url + path, ready)
        assert found["lang"] == "de", path
        assert (found["small"], found["overflowing"], found["outside"]) == ([], [], []), path
        assert found["page"][0] <= found["page"][1] == PHONE["width"], path
