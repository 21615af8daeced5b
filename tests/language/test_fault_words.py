"""The board's faults on the display in the players' language: a sensor's fault and a count
the grid does not expect (bgboard.sense) and the link's own sentences (bgboard.link) are
Phrases, kept as such by the app (``sentence_of``) and said whole; English reads as before."""

from __future__ import annotations

import asyncio

import pytest

from bgboard.hardware import load_grid
from bgboard.language import LANGUAGES, Phrase, said, sentence_of
from bgboard.language.catalogues import words_for
from bgboard.link.connection import Lost
from bgboard.link.backoff import Backoff
from bgboard.link.reconnect import Link
from bgboard.link.transport import PortUnavailableError
from bgboard.rules.starts import start_position
from bgboard.sense.places import WHITE, SensorFaultError, board_of
from bgboard.sense.slots import SlotMap
from tests.control.fakeboard import slot_states

GRID = SlotMap.from_slots(load_grid().slots)


def _fault() -> SensorFaultError:
    states = slot_states(board_of(start_position(), WHITE), GRID)
    states[GRID.places[6][2]] = 3  # a fault on point 7's third slot
    with pytest.raises(SensorFaultError) as caught:
        GRID.observation(states)
    return caught.value


def test_a_sensor_fault_is_said_in_german_and_dutch() -> None:
    sentence = sentence_of(_fault())
    assert isinstance(sentence, Phrase) and sentence == "check point 7: a sensor reports a fault"
    assert said(sentence, words_for("de")) == "prüfe Punkt 7: ein Sensor meldet einen Fehler"
    assert said(sentence, words_for("nl")).startswith("controleer punt 7: ")
    with pytest.raises(SensorFaultError) as caught:
        GRID.observation([0, 0, 0])
    assert said(sentence_of(caught.value), words_for("nb")) == "brettet meldte 3 plasser, rutenettet har 138"


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_an_unplugged_board_is_said_in_the_language(lang: str) -> None:
    """The real reconnecting link, its port not there: its Lost event says so in ``lang``."""
    events: list = []

    async def absent():
        raise PortUnavailableError("/dev/bgboard is not there")

    async def run() -> None:
        link = Link(absent, events.append, backoff=Backoff(0.01, 0.01, jitter=0), port="/dev/bgboard")
        task = asyncio.ensure_future(link.run())
        while not events:
            await asyncio.sleep(0.005)
        link.stop()
        await asyncio.wait_for(task, 5)

    asyncio.run(run())
    lost = events[0]
    assert isinstance(lost, Lost) and lost.text == "/dev/bgboard is not there: plug the board in"
    assert isinstance(lost.text, Phrase)
    text = said(lost.text, words_for(lang))
    assert text.startswith("/dev/bgboard is not there: ") and "plug the board in" not in text


def test_a_plain_exception_keeps_its_sentence() -> None:
    assert sentence_of(ValueError("plain words")) == "plain words"
    assert sentence_of(OSError(2, "No such file")) == "[Errno 2] No such file"
