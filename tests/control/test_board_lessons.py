"""At the board (issue 14): resigning with the buttons, beavers, the end-of-game screen for
every way a game ends, one numbering per message, and the learner mode."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from bgboard.control.clock import ClockRules
from bgboard.control.controller import Controller, Settings
from bgboard.control.events import DOUBLE, DROP, ROLL, BoardRead, ButtonPressed, DiceRolled, Tick
from bgboard.display.panels import PANELS
from bgboard.display.renderer import render_report, required_items
from bgboard.link.messages import SetLeds
from bgboard.match import export_mat, read_mat, replay
from bgboard.match.sgf import export_sgf
from bgboard.match.selfplay import selfplay
from bgboard.match.state import apply
from bgboard.rules.starts import start_position
from bgboard.sense.places import WHITE, Observation, board_of
from bgboard.store.journal import MemoryJournal
from tests.sim.simrecords import gnubg_games

START = Observation.of_board(board_of(start_position(), WHITE))


def _opened(settings: Settings = Settings(length=7), **kw) -> tuple[Controller, list, list]:
    sent: list = []
    shown: list = []
    c = Controller.resume(MemoryJournal(), settings, 0, send=sent.append, show=shown.append, **kw)
    c.handle(BoardRead(START, 1))
    c.handle(ButtonPressed(0, ROLL, 2))
    c.handle(DiceRolled((3, 1), 1, 3))  # white wins the opening roll with 3-1
    return c, sent, shown


def _board(*moves: tuple[int, int]) -> Observation:
    """The start position with checkers moved (physical numbering; either colour)."""
    board = list(board_of(start_position(), WHITE))
    for frm, to in moves:
        sign = 1 if board[frm - 1] > 0 else -1
        board[frm - 1] -= sign
        board[to - 1] += sign
    return Observation.of_board(board)


def _every_panel_shows_what_it_must(state) -> None:
    for name, spec in PANELS.items():
        missing = required_items(state) - render_report(state, spec).placed
        assert not missing, f"{name} lost {sorted(missing)}"


# ------------------------------------------------------------------ resigning
@pytest.mark.parametrize("level,name", [(1, "single"), (2, "gammon"), (3, "backgammon")])
@pytest.mark.parametrize("accepted", [True, False])
def test_a_resignation_at_each_level_accepted_or_declined(tmp_path: Path, level: int, name: str, accepted: bool) -> None:
    c, _, shown = _opened()
    c.handle(ButtonPressed(0, DROP, 10))  # white, on roll, starts to resign
    assert c.resigning == (0, 1) and "Resign a single game (1 point)?" in shown[-1].message[0]
    for i in range(level - 1):
        c.handle(ButtonPressed(0, DOUBLE, 11 + i))  # more
    assert c.resigning == (0, level) and f"Resign a {name}" in shown[-1].message[0].replace("a single game", "a single")
    c.handle(ButtonPressed(0, ROLL, 20))  # offer it
    assert c.state.phase == "resigned" and c.state.resign_level == level
    assert f"White resigns a {name}" in shown[-1].title[0].replace("a single game", "a single")
    assert "Black, double accepts, drop declines" in shown[-1].title[0]
    c.handle(ButtonPressed(0, DOUBLE, 21))  # the resigner cannot answer
    assert c.state.phase == "resigned" and shown[-1].severity == "warning"
    c.handle(ButtonPressed(1, DOUBLE if accepted else DROP, 22))
    kinds = [a.kind for a in c.actions]
    assert kinds[-2:] == ["resign", "accept" if accepted else "reject"]
    assert [e.body["type"] for e in c.journal.entries() if e.kind == "action"][-2:] == kinds[-2:]
    if not accepted:
        assert c.state.phase == "play" and c.state.turn == 0 and c.state.score == (0, 0)
        assert shown[-1].message == ("resignation declined: play on",)
        c.handle(BoardRead(_board((8, 5), (6, 5)), 30))  # and white plays on
        c.handle(ButtonPressed(0, ROLL, 31))
        assert c.state.phase == "turn" and c.state.turn == 1
        return
    assert c.state.phase == "game_over" and c.state.score == (0, level)
    state = shown[-1]
    assert state.phase == "game-over" and state.ending is not None
    assert (state.ending.winner, state.ending.how, state.ending.level, state.ending.points) == (1, "resignation", name, level)
    _every_panel_shows_what_it_must(state)
    # the records say it as gnubg does: SGF "RE[B+2R]", and gnubg reads the .mat's game
    assert f"RE[B+{level}R]" in export_sgf(c.actions)
    mat = tmp_path / "m.mat"
    mat.write_text(export_mat(c.actions))
    assert replay(read_mat(mat.read_text())).games[-1].result == "resign"
    assert gnubg_games(mat) == [(1, level)]


def test_the_resigner_may_cancel_and_only_the_player_on_roll_may_resign() -> None:
    c, _, shown = _opened()
    c.handle(ButtonPressed(1, DROP, 10))  # black is not on roll
    assert c.resigning is None and shown[-1].message == ("there is no double to drop",)
    c.handle(ButtonPressed(0, DROP, 11))
    c.handle(ButtonPressed(0, DOUBLE, 12))
    c.handle(ButtonPressed(0, DOUBLE, 13))
    c.handle(ButtonPressed(0, DOUBLE, 14))  # round again: a single
    assert c.resigning == (0, 1)
    c.handle(ButtonPressed(0, DROP, 15))
    assert c.resigning is None and c.state.phase == "play" and shown[-1].message == ("resignation cancelled: play on",)


def test_a_resignation_before_rolling_counts_the_cube() -> None:
    c, _, shown = _opened()
    c.handle(BoardRead(_board((8, 5), (6, 5)), 10))
    c.handle(ButtonPressed(0, ROLL, 11))
    c.handle(ButtonPressed(1, DOUBLE, 12))  # black doubles, white takes: cube 2, white's
    c.handle(ButtonPressed(0, DOUBLE, 13))
    c.handle(ButtonPressed(1, DROP, 14))  # black resigns a gammon before rolling
    c.handle(ButtonPressed(1, DOUBLE, 15))
    assert "(4 points)" in shown[-1].message[0]
    c.handle(ButtonPressed(1, ROLL, 16))
    c.handle(ButtonPressed(0, DOUBLE, 17))
    assert c.state.score == (4, 0)
    ending = shown[-1].ending
    assert (ending.winner, ending.points, ending.cube, ending.level) == (0, 4, 2, "gammon")


# ------------------------------------------------------------------ money play: beavers and Jacoby
def test_a_beaver_in_money_play() -> None:
    c, _, shown = _opened(Settings(length=0, rules="money", beavers=True, jacoby=True))
    assert c.state.rules.beavers and c.state.rules.jacoby
    c.handle(BoardRead(_board((8, 5), (6, 5)), 10))
    c.handle(ButtonPressed(0, ROLL, 11))
    c.handle(ButtonPressed(1, DOUBLE, 12))  # black doubles
    assert "roll beavers" in shown[-1].title[0]
    c.handle(ButtonPressed(0, ROLL, 13))  # white beavers: takes at 4 and owns the cube
    assert c.actions[-1].kind == "beaver"
    assert (c.state.cube, c.state.cube_owner, c.state.phase, c.state.turn) == (4, 0, "turn", 1)
    assert shown[-1].cube == 4 and shown[-1].cube_owner == 0


def test_without_beavers_the_roll_button_does_not_beaver() -> None:
    c, _, shown = _opened(Settings(length=0, rules="money"))
    c.handle(BoardRead(_board((8, 5), (6, 5)), 10))
    c.handle(ButtonPressed(0, ROLL, 11))
    c.handle(ButtonPressed(1, DOUBLE, 12))
    assert shown[-1].title == ()
    c.handle(ButtonPressed(0, ROLL, 13))
    assert c.state.phase == "doubled" and shown[-1].message == ("it is not your turn",)


# ------------------------------------------------------------------ the end of a game, every way
def _game_ending(result: str) -> list:
    """The actions of a self-play match up to the end of its first game ended by ``result``."""
    for seed in range(400):
        actions = selfplay(7, seed)
        state = None
        for i, action in enumerate(actions):
            state = apply(state, action)
            if state.phase in ("game_over", "match_over") and state.games[-1].result == result:
                return actions[: i + 1]
    raise AssertionError(f"no self-play game ends by {result}")


@pytest.mark.slow
@pytest.mark.parametrize("result,how", [("single", "single"), ("gammon", "gammon"), ("backgammon", "backgammon"),
                                        ("drop", "drop"), ("resign", "resignation")])
def test_the_end_of_game_screen_for_every_way_a_game_ends(result: str, how: str) -> None:
    from bgboard.match import action_to_dict

    journal = MemoryJournal()
    for action in _game_ending(result):
        journal.append("action", action_to_dict(action), 0)
    shown: list = []
    c = Controller.resume(journal, Settings(length=7), 5, show=shown.append)
    game = c.state.games[-1]
    state = shown[-1]
    assert state.phase in ("game-over", "match-over") and state.ending is not None
    e = state.ending
    assert (e.winner, e.how, e.points, e.cube) == (game.winner, how, game.points, game.cube)
    assert state.score == c.state.score
    _every_panel_shows_what_it_must(state)
    # the screen stays until a player asks for the next game, then the set-up guidance shows
    c.handle(BoardRead(Observation.of_board(board_of(c.state.position, 0)), 6))
    assert shown[-1].phase == state.phase and shown[-1].ending == e
    if c.state.phase == "game_over":
        c.handle(ButtonPressed(0, ROLL, 7))
        assert shown[-1].phase == "setup"
        c.handle(BoardRead(START, 8))  # set up: the end screen again, then roll starts the game
        assert shown[-1].phase == "game-over" and shown[-1].title == () and shown[-1].message == ()
        c.handle(ButtonPressed(0, ROLL, 9))
        assert c.state.phase == "opening"


def test_the_end_of_a_match_on_time_and_the_club_flag() -> None:
    settings = Settings(length=1, clock=ClockRules(per_point_ms=10_000, delay_ms=1_000))
    shown: list = []
    c = Controller.resume(MemoryJournal(), settings, 0, show=shown.append)
    c.handle(BoardRead(START, 1))
    c.handle(ButtonPressed(0, ROLL, 2))
    c.handle(DiceRolled((3, 1), 1, 3))
    c.handle(Tick(60_000))  # white's clock runs out
    state = shown[-1]
    assert state.phase == "match-over" and (state.ending.winner, state.ending.how) == (1, "time")
    assert state.ending.sent is None  # not a club match
    _every_panel_shows_what_it_must(state)
    c.mark_result(False)  # the club link is sending it...
    assert shown[-1].ending.sent is False
    c.mark_result(True)  # ...and the event has it
    assert shown[-1].ending.sent is True and "sent" in required_items(shown[-1])
    _every_panel_shows_what_it_must(shown[-1])


# ------------------------------------------------------------------ numbering
def _black_illegal(numbering: str):
    """White plays 8/5 6/5, black rolls 6-5 and moves a checker from its 13-point three
    pips (physical 12 → 15): illegal."""
    sent: list = []
    shown: list = []
    c = Controller.resume(MemoryJournal(), Settings(length=7, numbering=numbering), 0, send=sent.append,
                          show=shown.append)
    c.handle(BoardRead(START, 1))
    c.handle(ButtonPressed(0, ROLL, 2))
    c.handle(DiceRolled((3, 1), 1, 3))
    c.handle(BoardRead(_board((8, 5), (6, 5)), 10))
    c.handle(ButtonPressed(0, ROLL, 11))
    c.handle(ButtonPressed(1, ROLL, 12))
    c.handle(DiceRolled((6, 5), 2, 13))
    c.handle(BoardRead(_board((8, 5), (6, 5), (12, 15)), 14))
    return c, sent, shown


def _named(text: str) -> set[int]:
    return {int(n) for n in re.findall(r"point (\d+)", text)}


@pytest.mark.parametrize("numbering", ["own", "physical"])
def test_black_reads_one_numbering_and_the_lights_agree(numbering: str) -> None:
    c, sent, shown = _black_illegal(numbering)
    message = shown[-1].message[0]
    reason, _, fixes = message.partition(": put back ")
    leds = {led.index + 1 for led in [m for m in sent if isinstance(m, SetLeds)][-1].leds}
    assert leds == {12, 15}  # the LEDs light physical places
    if numbering == "own":  # black's own numbers: 13 and 10, in the reason and in the fixes
        assert reason.startswith("13/10 ")
        assert _named(fixes) == {13, 10} == {25 - p for p in leds}
        assert shown[-1].put_back == ("put back: 10→13", "10→13")
    else:  # the board's numbers, white's, for both
        assert reason.startswith("12/15 ")
        assert _named(fixes) == {12, 15} == leds
        assert shown[-1].put_back == ("put back: 15→12", "15→12")
    _every_panel_shows_what_it_must(shown[-1])


@pytest.mark.parametrize("numbering", ["own", "physical"])
def test_white_reads_the_same_in_both_numberings(numbering: str) -> None:
    c, sent, shown = _opened(Settings(length=7, numbering=numbering))
    c.handle(BoardRead(_board((8, 2)), 10))  # one checker six pips with 3-1: illegal
    message = shown[-1].message[0]
    leds = {led.index + 1 for led in [m for m in sent if isinstance(m, SetLeds)][-1].leds}
    assert message.endswith("put back clear point 2 (now 1 white); point 8: 3 white (now 2 white)")
    assert _named(message.partition(": put back ")[2]) == leds == {2, 8}
    assert shown[-1].put_back == ("put back: 2→8", "2→8")
    c.handle(BoardRead(_board((8, 5), (6, 5)), 11))
    assert shown[-1].message == ("8/5 6/5: press done",)


@pytest.mark.parametrize("numbering,said", [("own", "13/8 13/7: press done"), ("physical", "12/17 12/18: press done")])
def test_black_reads_its_recognised_play_in_the_chosen_numbering(numbering: str, said: str) -> None:
    c, _, shown = _black_illegal(numbering)
    c.handle(BoardRead(_board((8, 5), (6, 5), (12, 18), (12, 17)), 20))
    assert shown[-1].message == (said,)


_GUIDED = {  # white one short on its 8-point, black one short on its 24-point (physical 1)
    "own": ("set up the board — white: put 3 on your 8-point (now 2 white); "
            "black: put 2 on your 24-point (now 1 black)"),
    "physical": "set up the board — white: put 3 on point 8 (now 2 white); black: put 2 on point 1 (now 1 black)",
}


def _short_of_both() -> Observation:
    board = list(board_of(start_position(), WHITE))
    board[8 - 1] -= 1
    board[1 - 1] += 1  # black's checkers count negative: one fewer (the two are in hand)
    return Observation.of_board(board)


def _places(text: str) -> set[int]:
    """The physical places a guidance text names, read in its numbering."""
    own = {("white", int(n)) for n in re.findall(r"white: [^;]*?your (\d+)-point", text)}
    own |= {("black", 25 - int(n)) for n in re.findall(r"black: [^;]*?your (\d+)-point", text)}
    return {p for _, p in own} | {int(n) for n in re.findall(r"point (\d+)", text)}


@pytest.mark.parametrize("numbering", ["own", "physical"])
def test_set_up_guidance_speaks_to_each_player_in_the_chosen_numbering(numbering: str) -> None:
    """Before a game each instruction goes to the player whose checkers it moves, in that
    player's numbering (own) or the board's (physical); the diagram marks the same places."""
    shown: list = []
    c = Controller.resume(MemoryJournal(), Settings(length=7, numbering=numbering), 0, show=shown.append)
    c.handle(BoardRead(_short_of_both(), 1))
    state = shown[-1]
    assert state.phase == "setup" and state.message[0] == _GUIDED[numbering]
    assert _places(state.message[0]) == {1, 8} == set(state.diagram.marked) - {0, 25}
    c.handle(BoardRead(START, 2))
    assert "set up" not in " ".join(shown[-1].message)


@pytest.mark.parametrize("numbering,black", [("own", "your 24-point"), ("physical", "point 12")])
def test_fevga_set_up_names_blacks_start_as_fevga_numbers_it(numbering: str, black: str) -> None:
    """In Fevga both sides go the same way round: black's 24-point is physical 12, not 1."""
    shown: list = []
    c = Controller.resume(MemoryJournal(), Settings(length=3, variant="fevga", numbering=numbering), 0,
                          show=shown.append)
    c.handle(BoardRead(Observation.of_board([0] * 28), 1))
    said = shown[-1].message[0]
    where = "your 24-point" if numbering == "own" else "point 24"
    assert said == f"set up the board — white: put 15 on {where} (now empty); black: put 15 on {black} (now empty)"
    assert set(shown[-1].diagram.marked) == {12, 24}


@pytest.mark.parametrize("numbering", ["own", "physical"])
def test_the_practice_room_lays_out_drills_in_the_chosen_numbering(numbering: str) -> None:
    from bgboard.control.practice_room import PracticeRoom
    from bgboard.hints.drills import drill_from_position_id

    shown: list = []
    room = PracticeRoom([drill_from_position_id("4HPwATDgc/ABMA", "31")], grade=lambda *a: None,
                        show=shown.append, numbering=numbering)
    room.handle(BoardRead(_short_of_both(), 1))
    state = shown[-1]
    said = state.message[0]
    assert state.phase == "setup" and said.startswith("Drill 1/1: ") and "Lay out the board — " in said
    assert said.endswith(_GUIDED[numbering].removeprefix("set up the board — "))
    assert _places(said) == {1, 8} == set(state.diagram.marked) - {0, 25}


# ------------------------------------------------------------------ learner mode
@dataclass(frozen=True)
class _Lesson:
    play: str
    text: tuple[str, ...]


def test_the_learner_sees_no_hint_until_asking_and_a_grade_after_the_play() -> None:
    asked: list = []
    graded: list = []

    def hint(position, dice):
        asked.append(dice)
        return "best: 8/5 6/5"

    def grade(player, before, dice, after, state):
        graded.append((player, dice, state.phase))
        return _Lesson("8/5 6/5", ("8/5 6/5: good, the best play", "best"))

    c, _, shown = _opened(Settings(length=7, teach="learner"), hint=hint, grade=grade)
    assert asked == [] and shown[-1].hint == ()
    c.handle(ButtonPressed(0, DOUBLE, 9))  # the learner asks
    assert asked == [(3, 1)] and shown[-1].hint == ("best: 8/5 6/5",)
    c.handle(BoardRead(_board((8, 5), (6, 5)), 10))
    c.handle(ButtonPressed(0, ROLL, 11))
    assert graded == [(0, (3, 1), "play")]
    assert shown[-1].lesson[0] == "White: 8/5 6/5: good, the best play"
    assert c.lessons == [_Lesson("8/5 6/5", ("8/5 6/5: good, the best play", "best"))]


def test_without_teaching_the_hint_comes_at_once_and_nothing_is_graded() -> None:
    asked: list = []
    c, _, shown = _opened(Settings(length=7), hint=lambda p, d: asked.append(d) or "best: 8/5 6/5",
                          grade=lambda *a: pytest.fail("graded outside teaching mode"))
    assert asked == [(3, 1)] and shown[-1].hint == ("best: 8/5 6/5",)
    c.handle(BoardRead(_board((8, 5), (6, 5)), 10))
    c.handle(ButtonPressed(0, ROLL, 11))
    assert c.lessons == [] and shown[-1].lesson == ()


def test_the_match_end_shows_the_session_in_short() -> None:
    from tests.control.scripted import play_out

    shown: list = []
    c = Controller.resume(MemoryJournal(), Settings(length=1, teach="learner"), 0, show=shown.append,
                          grade=lambda player, before, dice, after, state: _Lesson("x", (f"play {dice}",)),
                          summarise=lambda lessons: (f"{len(lessons)} plays graded", "graded"))
    play_out(c, seed=3)
    assert c.over and len(c.lessons) > 5
    assert shown[-1].phase == "match-over" and shown[-1].lesson == (f"{len(c.lessons)} plays graded", "graded")
    _every_panel_shows_what_it_must(shown[-1])
