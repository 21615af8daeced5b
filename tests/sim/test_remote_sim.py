"""The simulated person at a board of a remote match (bgboard.sim.remote): what they do when
the other board acts, over the real remote controller (the network is tests/net's)."""

from __future__ import annotations

from bgboard.control.events import DOUBLE, DROP, ROLL, ButtonPressed, DiceRolled
from bgboard.match.state import Phase
from bgboard.sense.board import BLACK, WHITE
from bgboard.sim.driver import Options, Players, Resumed, SetUp, Wait
from bgboard.sim.remote import remote_decides
from tests.control.test_remote_controller import Board


def test_the_table_is_laid_out_again_when_the_other_board_started_the_next_game_meanwhile() -> None:
    white, black = Board(WHITE), Board(BLACK)
    white.c.handle(ButtonPressed(WHITE, ROLL, 2))
    white.c.handle(DiceRolled((1, 3), 1, 3))
    white.to(black, 4)
    players = Players(Options(match_length=3, seed=1, remote="black"), lambda: black.c, black.c.journal, Resumed(),
                      lambda: 5, 5)
    players.laid = black.c.state.game
    black.c.handle(ButtonPressed(BLACK, DROP, 5))  # black resigns at black's board
    black.c.handle(ButtonPressed(BLACK, ROLL, 6))
    black.to(white, 7)
    white.c.handle(ButtonPressed(WHITE, DOUBLE, 8))  # white accepts, starts the next game and wins its opening
    white.c.handle(ButtonPressed(WHITE, ROLL, 9))
    white.c.handle(ButtonPressed(WHITE, ROLL, 10))
    white.c.handle(DiceRolled((5, 2), 2, 11))
    assert white.c.state.phase == Phase.PLAY and white.c.state.turn == WHITE
    white.to(black, 12)  # all of it reaches black's board at once
    assert black.c.actions == white.c.actions and remote_decides(black.c, black.c.state)
    script = players.decide()
    assert isinstance(next(script), SetUp)  # the board is laid out for the new game first
    assert isinstance(next(script), Wait)  # then the person waits to see white's play
