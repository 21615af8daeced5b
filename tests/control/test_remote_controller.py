"""A person at another board: two match rooms, each given a ``RemotePlayer`` for the other
board, over the real match room, rules and journal, their moves handed across as the link hands them (the network is tests/net's)."""

from __future__ import annotations

from bgboard.control.clock import ClockRules
from bgboard.control.controller import Controller, Settings
from bgboard.control.events import DOUBLE, DROP, ROLL, BoardRead, ButtonPressed, DiceRolled, OpponentMoved, Tick
from bgboard.control.remote import FORFEIT, RemotePeer, RemotePlayer, author
from bgboard.link.messages import Led, SetLeds, SetRolling
from bgboard.match import Move
from bgboard.match.actions import Double, OpeningRoll, Roll, action_to_dict
from bgboard.match.state import Phase
from bgboard.rules import Position, apply_step, legal_plays, start_position
from bgboard.rules.step import Step
from bgboard.sense.places import BLACK, WHITE, Observation, board_of
from bgboard.store.journal import MemoryJournal

START = Observation.of_board(board_of(start_position(), WHITE))
BLUE, GREEN, RED = (0, 0, 160), (0, 160, 0), (160, 0, 0)


class Board:
    """One board of a remote match: its controller, what it sent to the LEDs and display."""

    def __init__(self, local: int, settings: Settings = Settings(length=3)) -> None:
        self.sent: list = []
        self.shown: list = []
        name = ("White", "Black")[1 - local]
        self.peer = RemotePeer(name, online=True)
        self.c = Controller.resume(MemoryJournal(), settings, 0, other=RemotePlayer(self.peer, 1 - local),
                                   send=self.sent.append, show=self.shown.append)
        self.c.handle(BoardRead(START, 1))

    def to(self, other: "Board", at: int) -> None:
        """Hand every action made here to ``other`` (as the link does once journalled there)."""
        for seq, action in enumerate(self.c.actions):
            if seq and seq not in self.peer.inbox:
                other.peer.inbox.setdefault(seq, action_to_dict(action))
        other.c.handle(OpponentMoved(("remote", len(self.c.actions)), None, at))

    def read(self, position: Position, side: int, at: int) -> None:
        self.c.handle(BoardRead(Observation.of_board(board_of(position, side)), at))


def _after(position: Position, steps: tuple[tuple[int, int], ...]) -> Position:
    for frm, to in steps:
        position = apply_step(position, Step(frm, to, 0))
    return position


def _opened() -> tuple[Board, Board]:
    """White's board rolls the opening 1-3: Black (at the other board) plays first."""
    white, black = Board(WHITE), Board(BLACK)
    white.c.handle(ButtonPressed(WHITE, ROLL, 2))
    assert white.sent[-1] == SetRolling(True)
    white.c.handle(DiceRolled((1, 3), 1, 3))
    white.to(black, 4)
    return white, black


def test_the_opening_is_rolled_at_whites_board_and_shown_at_both() -> None:
    white, black = Board(WHITE), Board(BLACK)
    black.c.handle(ButtonPressed(BLACK, ROLL, 2))  # black's board does not roll the opening
    assert black.shown[-1].message[0] == "White starts the opening at their board"
    black.c.handle(DiceRolled((6, 1), 1, 3))  # nor do its dice count for it
    assert len(black.c.actions) == 1 and black.sent[-1] == SetRolling(False)
    white.c.handle(ButtonPressed(WHITE, ROLL, 2))
    white.c.handle(DiceRolled((1, 3), 1, 3))
    white.to(black, 4)
    assert black.c.actions == white.c.actions and black.c.actions[-1] == OpeningRoll((1, 3))
    assert black.c.state.phase == Phase.PLAY and black.c.state.turn == BLACK
    assert black.shown[-1].message[0] == "opening roll: White 1, Black 3"


def test_the_other_boards_play_is_lit_checked_and_recorded_as_that_play_only() -> None:
    white, black = _opened()
    start = start_position().swap()  # black on roll
    play = next(p for p in legal_plays(start, (3, 1)) if p.notation == "8/5 6/5")
    black.read(play.position.swap().swap(), BLACK, 5)  # black's person plays 8/5 6/5 at black's board
    black.c.handle(ButtonPressed(BLACK, ROLL, 6))
    assert black.c.actions[-1] == Move(((8, 5), (6, 5)))
    black.to(white, 7)
    assert white.shown[-1].message[0] == "Black plays 17/20 19/20: move 17/20 (1 of 2)"  # white's own numbering
    assert white.sent[-1] == SetLeds((Led(16, BLUE), Led(19, GREEN)))
    other = next(p for p in legal_plays(start, (3, 1)) if p.notation == "24/23 24/21")
    white.read(other.position, BLACK, 8)  # another legal play: a wrong execution, never recorded
    assert white.shown[-1].severity == "error" and white.shown[-1].message[0].startswith("that is not Black's play")
    assert white.sent[-1] == SetLeds(tuple(Led(p - 1, RED) for p in (1, 2, 4)))
    white.c.handle(ButtonPressed(BLACK, ROLL, 9))  # black's buttons at white's board do nothing
    assert white.shown[-1].message[0] == "Black plays at their own board: these buttons do nothing here"
    assert len(white.c.actions) == 2
    white.read(_after(start, ((8, 5), (6, 5))), BLACK, 10)
    assert white.c.actions == black.c.actions
    assert white.c.state.phase == Phase.TURN and white.c.state.turn == WHITE


def test_dice_are_rolled_on_the_rollers_board_and_cube_actions_come_by_the_buttons() -> None:
    white, black = _opened()
    start = start_position().swap()
    black.read(_after(start, ((8, 5), (6, 5))), BLACK, 5)
    black.c.handle(ButtonPressed(BLACK, ROLL, 6))
    black.to(white, 7)
    white.read(_after(start, ((8, 5), (6, 5))), BLACK, 8)
    white.to(black, 9)
    black.c.handle(DiceRolled((5, 5), 2, 10))  # white's roll: black's dice module does not count
    assert black.shown[-1].message[0] == "these dice do not count: White rolls at their board"
    white.c.handle(ButtonPressed(WHITE, DOUBLE, 11))  # white doubles at white's board
    white.to(black, 12)
    assert black.c.actions[-1] == Double(player=WHITE) and black.c.state.phase == Phase.DOUBLED
    assert black.shown[-1].message[0] == "White doubles"
    black.c.handle(ButtonPressed(BLACK, DOUBLE, 13))  # black takes at black's board
    black.to(white, 14)
    assert white.c.state.phase == Phase.TURN and white.c.state.cube == 2 and white.c.state.cube_owner == BLACK
    assert white.shown[-1].message[0] == "Black takes"
    white.c.handle(ButtonPressed(WHITE, ROLL, 15))
    white.c.handle(DiceRolled((4, 6), 3, 16))
    white.to(black, 17)
    # the other board's roll said as the terminal says it: "rolls", the higher die first
    assert black.c.actions[-1] == Roll((4, 6)) and black.shown[-1].message[0] == "White rolls 6-4"
    assert black.c.actions == white.c.actions


def test_a_resignation_is_offered_and_answered_at_each_persons_own_board() -> None:
    white, black = _opened()
    black.c.handle(ButtonPressed(BLACK, DROP, 5))  # black resigns a single game
    black.c.handle(ButtonPressed(BLACK, ROLL, 6))
    black.to(white, 7)
    assert white.c.state.phase == Phase.RESIGNED and white.shown[-1].message[0] == "Black resigns a single game"
    white.c.handle(ButtonPressed(WHITE, DOUBLE, 8))  # white accepts
    white.to(black, 9)
    assert black.c.state.phase == Phase.GAME_OVER and black.c.actions == white.c.actions
    black.c.handle(ButtonPressed(BLACK, ROLL, 10))  # the next game starts at white's board
    assert black.shown[-1].message[0] == "White starts the next game at their board"


def test_an_action_that_is_not_the_other_boards_to_make_stops_the_match_with_one_sentence() -> None:
    white, black = _opened()
    white.peer.inbox[3] = action_to_dict(Roll((6, 6)))  # a forged action: seq 3 is not black's roll
    black.peer.inbox[3] = action_to_dict(Roll((6, 6)))
    white.peer.inbox[2] = action_to_dict(Move(((24, 18), (24, 18))))  # not a legal play of 3-1
    white.c.handle(OpponentMoved(("remote", 2), None, 5))
    assert white.peer.problem is not None and "not a legal play of 3-1" in white.peer.problem
    assert white.shown[-1].severity == "error" and len(white.c.actions) == 2
    black2 = Board(BLACK)
    black2.peer.inbox[1] = action_to_dict(Roll((6, 6)))  # a roll when the opening is to be rolled
    black2.c.handle(OpponentMoved(("remote", 1), None, 2))
    assert black2.peer.problem is not None and "not theirs to make now" in black2.peer.problem
    assert len(black2.c.actions) == 1


def test_each_action_is_made_at_the_board_of_the_player_whose_decision_it_is() -> None:
    white, _ = _opened()
    s = white.c.state
    assert author(s, Move(((8, 5), (6, 5)))) == BLACK
    assert author(s, OpeningRoll((1, 3))) == WHITE and author(s, Roll((1, 2))) == BLACK


def test_both_clocks_run_at_both_boards_and_each_board_judges_its_own_players_time() -> None:
    clocked = Settings(length=3, clock=ClockRules(per_point_ms=10_000, scored_ms=0, delay_ms=0))
    white, black = Board(WHITE, clocked), Board(BLACK, clocked)
    white.c.handle(ButtonPressed(WHITE, ROLL, 2))
    white.c.handle(DiceRolled((1, 3), 1, 3))
    white.to(black, 3)
    assert white.c.clock.running == black.c.clock.running == BLACK
    start = start_position().swap()
    black.read(_after(start, ((8, 5), (6, 5))), BLACK, 5000)
    black.c.handle(ButtonPressed(BLACK, ROLL, 5000))
    black.to(white, 5000)  # black's clock stops at white's board when the play arrives, not when carried out
    assert white.c.clock.running == black.c.clock.running == WHITE
    assert white.c.clock.remaining(BLACK, 6000) == black.c.clock.remaining(BLACK, 6000) == 30_000 - 4997
    shown = [board.shown[-1].clock for board in (white, black)]  # both clocks on both displays, alike
    assert shown[0] is not None and shown[0].running == WHITE and shown[1].running == WHITE
    assert shown[0].reserve_ms == shown[1].reserve_ms and abs(shown[0].reserve_ms[BLACK] - 25_003) <= 1000
    black.c.handle(Tick(40_000))  # white's time is up: not black's board to say so
    assert not black.c.over
    white.c.handle(Tick(40_000))  # white's board says so, and tells black's
    assert white.c.over and white.c.forfeit == WHITE
    black.peer.inbox[len(black.c.actions)] = {"type": FORFEIT, "loser": WHITE}
    black.c.handle(OpponentMoved(("remote", 0), None, 40_001))
    assert black.c.over and black.c.forfeit == WHITE
    assert [e.body for e in black.c.journal.entries() if e.kind == "forfeit"] == [{"loser": WHITE}]


def test_the_display_says_when_the_other_board_is_not_reachable() -> None:
    white, black = _opened()
    black.peer.online = False
    black.c.handle(BoardRead(START, 5))
    assert black.shown[-1].message == ("the other board is not reachable: play on, your moves go to it when the link "
                                       "is back", "other board offline")
    assert black.shown[-1].severity == "warning"
    white.peer.online = False
    white.c.handle(OpponentMoved(("remote", "link"), None, 6))
    assert white.shown[-1].message[0] == ("Black plays at their board (the link to the other board is down: it "
                                          "catches up when back)")
