"""The club seat asks both players before it reports (issue 26), on a real SQLite journal and
the real controller: the answers are journalled, survive a reboot, and only then is the
result reported — disputed here — with the buttons kept from the controller meanwhile."""

from __future__ import annotations

from pathlib import Path

from bgboard.control.controller import Controller, Settings
from bgboard.control.events import ButtonPressed, Button, DiceRolled, Tick
from bgboard.control.rooms import Room
from bgboard.control.seated_room import SeatedRoom
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


def test_the_seated_room_hands_the_seat_its_presses_and_the_match_the_rest(tmp_path: Path) -> None:
    """The one room the app drives with [club] set: the match room with the club seat beside
    it (control/seated_room.py) — while the result waits for the players, their presses are the
    seat's and never reach the match; once it is reported, the buttons are the match's again."""
    journal, c, seat, sent = boot(tmp_path / "journal.sqlite", 1000)
    room: Room = SeatedRoom(c, [seat])
    seat.offer(ASSIGNMENT)
    for event in (DiceRolled((3, 1), 1, 2000), Tick(5000)):
        room.handle(event)
        room.follow()
    assert room.over and c.forfeit == 0 and sent.results == []  # over, waiting for the answers
    done = len(room.actions)
    for player in (0, 1):  # Ann, then Bob, confirm
        room.handle(ButtonPressed(player, Button.ROLL, 6000 + player))
        room.follow()
    [r] = sent.results
    assert (r.match, r.confirmed, r.disputed) == (7, True, False) and len(room.actions) == done and room.over
    room.handle(ButtonPressed(1, Button.ROLL, 9000))  # reported: the press is the match's (a new match)
    room.follow()
    assert not room.over and [a.kind for a in room.actions] == ["start"]
    assert isinstance(room, Room) and room.display() == c.display() and room.other_side() is None
    journal.close()
