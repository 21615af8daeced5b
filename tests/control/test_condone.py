"""The ``condone`` setting: the opponent accepts an illegal play with the roll button.

The real controller, match machine, rules engine, recognition and journal (SQLite for the
restart test); only the events are scripted.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bgboard.config import ConfigError, DEFAULT_TOML, config_from_dict
from bgboard.control.controller import Controller, Settings
from bgboard.control.events import ROLL, BoardRead, ButtonPressed, DiceRolled
from bgboard.link.messages import SetRolling
from bgboard.match import Condone, Move, replay
from bgboard.rules.starts import start_position
from bgboard.sense.places import WHITE, Observation, board_of
from bgboard.store.journal import Journal, MemoryJournal

START = Observation.of_board(board_of(start_position(), WHITE))
CONDONE = Settings(length=3, players=("Ann", "Bob"), illegal="condone")
CORRECT = Settings(length=3, players=("Ann", "Bob"))


def _opened(settings: Settings, journal=None) -> tuple[Controller, list, list]:
    sent: list = []
    shown: list = []
    c = Controller.resume(journal or MemoryJournal(), settings, 0, send=sent.append, show=shown.append)
    c.handle(BoardRead(START, 1))
    c.handle(ButtonPressed(0, ROLL, 2))
    c.handle(DiceRolled((3, 1), 1, 3))  # Ann (white) wins the opening roll with 3-1
    return c, sent, shown


def _board(*moves: tuple[int, int]) -> Observation:
    """The start position with white checkers moved (physical points)."""
    board = list(board_of(start_position(), WHITE))
    for frm, to in moves:
        board[frm - 1] -= 1
        board[to - 1] += 1
    return Observation.of_board(board)


def test_the_opponent_accepts_an_illegal_play_with_the_roll_button() -> None:
    c, sent, shown = _opened(CONDONE)
    c.handle(BoardRead(_board((8, 2)), 10))  # one checker moved six with 3-1
    c.handle(ButtonPressed(0, ROLL, 11))  # Ann: done
    assert c.state.phase == "play" and c.offer is not None
    assert shown[-1].severity == "warning"
    assert "Bob may accept the play as it stands by pressing roll, or put back" in shown[-1].message[0]
    sent.clear()
    c.handle(ButtonPressed(1, ROLL, 12))  # Bob accepts
    assert c.state.phase == "turn" and c.state.turn == 1
    last = c.actions[-1]
    assert isinstance(last, Condone)
    expected = list(start_position().mine)
    expected[8] -= 1
    expected[2] += 1
    assert c.state.board[0] == tuple(expected) == last.mine
    assert SetRolling(True) in sent  # Bob goes on to roll
    assert shown[-1].message[0] == "illegal play condoned: roll the dice"
    c.handle(DiceRolled((6, 5), 2, 13))
    assert c.state.phase == "play" and c.state.turn == 1 and c.state.dice == (6, 5)


def test_without_condone_the_opponent_cannot_accept() -> None:
    c, _, shown = _opened(CORRECT)
    c.handle(BoardRead(_board((8, 2)), 10))
    c.handle(ButtonPressed(0, ROLL, 11))
    assert shown[-1].severity == "error" and "put back" in shown[-1].message[0]
    c.handle(ButtonPressed(1, ROLL, 12))
    assert shown[-1].message == ("it is not your turn",)
    assert c.state.phase == "play" and c.state.rules.illegal_plays == "correct"
    assert not any(isinstance(a, Condone) for a in c.actions)


def test_a_backwards_move_is_never_condoned() -> None:
    c, _, shown = _opened(CONDONE)
    c.handle(BoardRead(_board((6, 9)), 10))  # a checker moved back from 6 to 9
    c.handle(ButtonPressed(0, ROLL, 11))
    assert c.offer is None and shown[-1].severity == "error"
    assert "moving backwards is never condoned" in shown[-1].message[0]
    assert "put back" in shown[-1].message[0]
    c.handle(ButtonPressed(1, ROLL, 12))
    assert shown[-1].message == ("it is not your turn",)
    assert c.state.phase == "play"


def test_an_opponent_checker_moved_is_never_condoned() -> None:
    c, _, shown = _opened(CONDONE)
    board = list(board_of(start_position(), WHITE))  # black's checkers count negative
    board[1 - 1] += 1  # one of black's two checkers on physical 1 moved to physical 3
    board[3 - 1] -= 1
    board[8 - 1] -= 1  # and Ann plays 8/5 6/5
    board[6 - 1] -= 1
    board[5 - 1] += 2
    c.handle(BoardRead(Observation.of_board(board), 10))
    c.handle(ButtonPressed(0, ROLL, 11))
    assert c.offer is None and "opponent's checker was moved" in shown[-1].message[0]


def test_the_offer_lapses_when_the_board_changes() -> None:
    c, _, shown = _opened(CONDONE)
    c.handle(BoardRead(_board((8, 2)), 10))
    c.handle(ButtonPressed(0, ROLL, 11))
    assert c.offer is not None
    c.handle(BoardRead(_board((8, 5), (6, 5)), 12))  # Ann corrects it
    assert c.offer is None
    c.handle(ButtonPressed(1, ROLL, 13))
    assert shown[-1].message == ("it is not your turn",)
    c.handle(ButtonPressed(0, ROLL, 14))
    assert isinstance(c.actions[-1], Move) and c.actions[-1].steps == ((8, 5), (6, 5))


def test_an_unfinished_play_can_be_condoned() -> None:
    c, _, shown = _opened(CONDONE)
    c.handle(BoardRead(_board((8, 5)), 10))  # only the 3 played
    c.handle(ButtonPressed(0, ROLL, 11))
    assert "not all of the 3-1 is played" in shown[-1].message[0] and c.offer is not None
    c.handle(ButtonPressed(1, ROLL, 12))
    assert isinstance(c.actions[-1], Condone) and c.state.turn == 1


def test_a_checker_in_the_hand_is_not_offered() -> None:
    c, _, shown = _opened(CONDONE)
    board = list(board_of(start_position(), WHITE))
    board[8 - 1] -= 1  # a checker lifted from 8, still in the hand
    c.handle(BoardRead(Observation.of_board(board), 10))
    c.handle(ButtonPressed(0, ROLL, 11))
    assert shown[-1].message == ("finish your play first",) and c.offer is None


def test_a_condoned_play_survives_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "journal.db"
    journal = Journal(path)
    c, _, _ = _opened(CONDONE, journal)
    c.handle(BoardRead(_board((8, 2)), 10))
    c.handle(ButtonPressed(0, ROLL, 11))
    c.handle(ButtonPressed(1, ROLL, 12))
    before = c.state
    journal.close()
    again = Controller.resume(Journal(path), CORRECT, 20)  # the setting applies to new matches only
    assert again.state == before and isinstance(again.actions[-1], Condone)
    assert again.state.rules.illegal_plays == "condone"
    assert replay(again.actions) == before


def test_config_condone_key() -> None:
    assert config_from_dict({}).match.condone is False
    assert config_from_dict({}).match.illegal == "correct"
    assert config_from_dict({"match": {"condone": True}}).match.illegal == "condone"
    assert "condone = false" in DEFAULT_TOML
    with pytest.raises(ConfigError, match="match.condone must be true or false"):
        config_from_dict({"match": {"condone": "yes"}})


def test_white_accepts_an_illegal_play_of_black() -> None:
    c, _, _ = _opened(CONDONE)
    c.handle(BoardRead(_board((8, 5), (6, 5)), 10))
    c.handle(ButtonPressed(0, ROLL, 11))  # Ann plays 8/5 6/5
    c.handle(ButtonPressed(1, ROLL, 12))
    c.handle(DiceRolled((2, 1), 2, 13))
    # Bob runs a back checker six pips with 2-1 (his 24 -> 18: physical 1 -> 7)
    physical = list(board_of(c.state.position, 1))
    physical[1 - 1] += 1  # black checkers count negative: one fewer on physical 1
    physical[7 - 1] -= 1
    c.handle(BoardRead(Observation.of_board(physical), 14))
    c.handle(ButtonPressed(1, ROLL, 15))  # Bob: done
    assert c.offer is not None
    c.handle(ButtonPressed(0, ROLL, 16))  # Ann accepts
    assert isinstance(c.actions[-1], Condone) and c.state.turn == 0 and c.state.phase == "turn"
    assert c.state.board[1][24] == 1 and c.state.board[1][18] == 1


def test_a_condoned_play_can_be_taken_back_before_the_opponent_rolls() -> None:
    c, _, shown = _opened(Settings(length=3, players=("Ann", "Bob"), illegal="condone", takebacks=True))
    c.handle(BoardRead(_board((8, 2)), 10))
    c.handle(ButtonPressed(0, ROLL, 11))
    c.handle(ButtonPressed(1, ROLL, 12))  # Bob accepts ...
    assert isinstance(c.actions[-1], Condone)
    c.handle(BoardRead(START, 13))  # ... but Ann puts the checker back before Bob rolls
    assert c.state.phase == "play" and c.state.turn == 0 and not isinstance(c.actions[-1], Condone)
    assert shown[-1].message[0] == "play taken back: play the roll again"
    again = Controller.resume(c.journal, c.settings, 20)  # the undo is journalled
    assert again.state == c.state


def _match_events(c: Controller, rng) -> list:
    """The next events of a match in which about a third of the plays are condonable
    illegal plays (one checker moved forwards by a random distance), offered with done and
    accepted by the opponent's roll button."""
    from bgboard.rules import Position, legal_plays
    from tests.match.test_condone import _some_play

    state = c.state
    at = 1_000_000 + 1_000 * len(c.actions)
    dice = (rng.randint(1, 6), rng.randint(1, 6))
    if state.phase == "opening":
        return [ButtonPressed(0, ROLL, at), DiceRolled(dice, len(c.actions), at + 1)]
    if state.phase == "turn":
        return [ButtonPressed(state.turn, ROLL, at), DiceRolled(dice, len(c.actions), at + 1)]
    if state.phase == "game_over":
        return [BoardRead(START, at), ButtonPressed(0, ROLL, at + 1)]
    assert state.phase == "play"
    position, mover = state.position, state.turn
    action = _some_play(state, rng, 0.35)  # a legal play, or a condonable slip of one checker
    illegal = isinstance(action, Condone)
    if illegal:
        result = Position(action.mine, action.theirs)
    else:
        result = next((p.position for p in legal_plays(position, state.dice) if Move.of(p) == action), position)
    events = [BoardRead(Observation.of_board(board_of(result, mover)), at), ButtonPressed(mover, ROLL, at + 1)]
    if illegal:
        events.append(ButtonPressed(1 - mover, ROLL, at + 2))  # the opponent accepts
    return events


@pytest.mark.slow
def test_whole_matches_with_condoned_plays_survive_restarts(tmp_path: Path) -> None:
    """Matches played through the controller with condoned plays end, every condoned board
    reads exactly as the board did, and a restart after any event resumes the same match."""
    import random

    condoned = 0
    for seed in range(3):
        rng = random.Random(seed)
        path = tmp_path / f"j{seed}.db"
        journal = Journal(path)
        c = Controller.resume(journal, Settings(length=3, illegal="condone"), 0)
        for step in range(20_000):
            if c.over:
                break
            for event in _match_events(c, rng):
                before = len(c.actions)
                c.handle(event)
                if len(c.actions) > before and isinstance(c.actions[-1], Condone):
                    condoned += 1
                    action, observation = c.actions[-1], c.observation
                    mover = replay(c.actions[:-1]).turn
                    from bgboard.rules import Position

                    shown = Observation.of_board(board_of(Position(action.mine, action.theirs), mover))
                    assert shown.codes == observation.codes
            if step % 37 == 0:  # a restart: the journal alone rebuilds the match
                journal.close()
                journal = Journal(path)
                again = Controller.resume(journal, Settings(length=3, illegal="condone"), 0)
                assert again.state == c.state and again.actions == c.actions
                c = again
        assert c.over and replay(c.actions) == c.state
        journal.close()
    assert condoned >= 30
