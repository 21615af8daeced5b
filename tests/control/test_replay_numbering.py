"""``bgboard run --replay`` follows ``[match] numbering`` (issue 14): black's plays, grades and
set-up instructions in black's own numbering by default, in the board's (white's) numbering
with ``numbering = "physical"``; white reads the same in both (the replay controller, pure)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bgboard.control.events import BoardRead
from bgboard.control.numbering import Numbering
from bgboard.control.replay_room import ReplayRoom, replay_steps
from bgboard.match import import_mat
from bgboard.rules import Position
from bgboard.sense.places import WHITE, Observation, board_of

FILE = Path(__file__).parents[1] / "data" / "match" / "world" / "hand_notation.mat"


def _grade(play) -> str:  # what an engine's grade reads like: the best play in the mover's notation
    return "best 24/18 13/11" if play.player == 1 else "best 13/7"


@pytest.mark.parametrize("numbering, black", [(Numbering.OWN, "Bob 44: 24/16 13/9(2)"),
                                              (Numbering.PHYSICAL, "Bob 44: 1/9 12/16(2)")])
def test_black_plays_and_grades_are_said_in_the_configured_numbering(numbering: Numbering, black: str) -> None:
    steps = replay_steps(import_mat(FILE.read_bytes()), _grade, numbering)
    white, bob = steps[0], steps[1]
    assert white.text == "Game 1, 1: Ann 61: 13/6 - best 13/7"  # white: the same in both numberings
    expected_best = "best 24/18 13/11" if numbering == Numbering.OWN else "best 1/7 12/14"
    assert bob.text == f"Game 1, 2: {black} - {expected_best}"
    assert bob.display.message[0] == bob.text


@pytest.mark.parametrize("numbering, said", [(Numbering.OWN, "black: put 2 on your 24-point (now empty)"),
                                             (Numbering.PHYSICAL, "black: put 2 on point 1 (now empty)")])
def test_the_set_up_guidance_speaks_in_the_configured_numbering(numbering: Numbering, said: str) -> None:
    steps = replay_steps(import_mat(FILE.read_bytes()), numbering=numbering)
    shown: list = []
    replay = ReplayRoom(steps, send=lambda m: None, show=shown.append, numbering=numbering)
    start = steps[0].position
    # black's back checkers are missing from the board: black's 24-point is physical point 1
    black = list(start.theirs)
    black[24] = 0
    replay.handle(BoardRead(Observation.of_board(board_of(Position(start.mine, tuple(black)), WHITE)), 0))
    assert not replay.laid_out
    message = " ".join(shown[-1].message)
    assert said in message, message
    assert shown[-1].phase == "setup"


def test_a_replayed_play_is_named_once_in_the_engines_notation_beside_its_grade() -> None:
    # the file writes black's 6-1 bear-off "3/0 3/2"; the engine names it 3/2 3/off: one name, then the verdict
    from bgboard.commands.sim import _grader

    match = import_mat((FILE.parents[1] / "gnubg_7pt_seed4.mat").read_bytes())
    steps = replay_steps(match, _grader("gnubg-nn"))
    [step] = [s for s in steps if ": 3/2 3/off" in s.text or "3/0 3/2" in s.text]
    assert "3/0" not in step.text and step.text.count("3/2") == 1
    assert step.text.endswith(": 3/2 3/off - the best play"), step.text
