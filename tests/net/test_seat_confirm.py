"""The club seat asks both players before it reports (issue 26), on a real SQLite journal and
the real controller: the answers are journalled, survive a reboot, and only then is the
result reported — disputed here — with the buttons kept from the controller meanwhile."""

from __future__ import annotations

from pathlib import Path

from bgboard.control.controller import Controller, Settings
from bgboard.control.events import ButtonPressed, Button, DiceRolled, Tick
from bgboard.net.protocol import Assignment, ClockSettings
from bgboard.net.seat import ClubSeat
from bgboard.store.journal import Journal

# 0.3 s a point, no delay: white loses on time right after the opening roll
ASSIGNMENT = Assignment("Friday", 7, 3, ("Ann", "Bob"), 1, "standard", 1, ClockSettings(300, 0, 0), confirm=True)


class Sent:
    """The link's two methods, kept (the network side is tested on a real Mosquitto)."""

    def __init__(self) -> None:
        self.results: list = []

    def publish_state(self, state: object) -> None:
        pass

    def submit_result(self, result: object) -> None:
        self.results.append(result)


def boot(path: Path, now: int) -> tuple[Journal, Controller, ClubSeat, Sent]:
    journal = Journal(path)
    c = Controller.resume(journal, Settings(length=1), now)
    seat = ClubSeat(journal, 3, Settings(length=1), lambda: now)
    sent = Sent()
    seat.link = sent
    seat.attach(c)
    return journal, c, seat, sent


def test_the_answers_outlive_a_reboot_and_a_dispute_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    journal, c, seat, sent = boot(path, 1000)
    seat.offer(ASSIGNMENT)
    assert c.state is not None and c.state.players == ("Ann", "Bob")
    for event in (DiceRolled((3, 1), 1, 2000), Tick(5000)):
        c.handle(event)
        seat.after()
    assert c.over and c.forfeit == 0 and sent.results == []  # over, not reported: waiting for answers
    assert c.message() is not None and "both players press done" in c.message().text
    assert seat.press(0, Button.ROLL, 6000)  # Ann confirms; the controller never sees it
    assert seat.press(0, Button.ROLL, 6100) and sent.results == []  # again: no change
    journal.close()

    journal, c, seat, sent = boot(path, 7000)  # the board reboots
    ask = seat.confirmation()
    assert ask is not None and ask.confirmed == [True, False] and "Bob, press done" in c.message().text
    assert seat.press(1, Button.DROP, 8000)  # Bob disputes
    [r] = sent.results
    assert (r.match, r.winner, r.disputed, r.confirmed) == (7, 1, True, False)
    assert "Bob disputed the result" in c.message().text
    assert not seat.press(1, Button.ROLL, 9000)  # reported: the buttons are the controller's again
    c.handle(ButtonPressed(1, Button.ROLL, 9000))
    assert not c.over and c.actions[0].players == ("White", "Black")  # a new match of the players' own
    rows = [(e.body["what"], e.body.get("player"), e.body.get("answer")) for e in journal.entries() if e.kind == "club"]
    assert rows[-3:] == [("answer", 0, "confirm"), ("answer", 1, "dispute"), ("reported", None, None)]
    journal.close()
