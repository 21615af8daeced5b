"""The controller over the real match machine, rules, recognition and journal."""

from __future__ import annotations

from pathlib import Path

from bgboard.control.clock import ClockRules
from bgboard.control.controller import Controller, Settings
from bgboard.control.events import DOUBLE, DROP, ROLL, BoardFault, BoardRead, ButtonPressed, DiceRolled, LinkChanged, Tick
from bgboard.display.display_state import DisplayState
from bgboard.link.messages import SetLeds, SetRolling
from bgboard.match import Move, replay
from bgboard.rules.starts import start_position
from bgboard.sense.places import BLACK, WHITE, Observation, board_of
from bgboard.store.journal import Journal, MemoryJournal
from tests.control.scripted import next_events, play_out

START = Observation.of_board(board_of(start_position(), WHITE))


def _opened(settings: Settings = Settings(length=3), **kw) -> tuple[Controller, list, list]:
    sent: list = []
    shown: list = []
    c = Controller.resume(MemoryJournal(), settings, 0, send=sent.append, show=shown.append, **kw)
    c.handle(BoardRead(START, 1))
    c.handle(ButtonPressed(0, ROLL, 2))
    c.handle(DiceRolled((3, 1), 1, 3))  # white wins the opening roll with 3-1
    return c, sent, shown


def _board(*moves: tuple[int, int]) -> Observation:
    board = list(board_of(start_position(), WHITE))
    for frm, to in moves:  # white moves, physical numbering
        board[frm - 1] -= 1
        board[to - 1] += 1
    return Observation.of_board(board)


def _redoubled(c: Controller, cube: int) -> int:
    """White plays 8/5 6/5, then each player in turn doubles, is taken and plays a 21 until
    the cube reaches ``cube``; returns the next free event time."""
    from bgboard.rules.legal import legal_plays

    c.handle(BoardRead(_board((8, 5), (6, 5)), 10))
    c.handle(ButtonPressed(0, ROLL, 11))
    at = 20
    while c.state.cube < cube:
        player = c.state.turn
        c.handle(ButtonPressed(player, DOUBLE, at))
        c.handle(ButtonPressed(1 - player, DOUBLE, at + 1))  # take
        c.handle(ButtonPressed(player, ROLL, at + 2))
        c.handle(DiceRolled((2, 1), at, at + 3))
        play = legal_plays(c.state.position, (2, 1))[0]
        c.handle(BoardRead(Observation.of_board(board_of(play.position, player)), at + 4))
        c.handle(ButtonPressed(player, ROLL, at + 5))
        at += 10
    return at


def test_done_records_the_play_the_board_shows() -> None:
    c, sent, shown = _opened()
    assert SetRolling(True) in sent and SetRolling(False) in sent
    assert c.state is not None and c.state.phase == "play" and c.state.turn == 0
    c.handle(BoardRead(_board((8, 5), (6, 5)), 10))
    assert shown[-1].message == ("8/5 6/5: press done",)
    c.handle(ButtonPressed(0, ROLL, 11))
    assert c.state.phase == "turn" and c.state.turn == 1
    assert [a.kind for a in c.actions] == ["start", "opening", "move"]
    assert c.actions[-1].steps == ((8, 5), (6, 5))
    assert isinstance(shown[-1], DisplayState) and shown[-1].phase == "rolling"


def test_done_is_refused_until_the_board_shows_a_complete_legal_play() -> None:
    c, sent, shown = _opened()
    c.handle(BoardRead(_board((8, 5)), 10))  # half a play
    assert any(isinstance(m, SetLeds) and m.leds for m in sent)
    c.handle(ButtonPressed(0, ROLL, 11))
    assert shown[-1].message == ("finish your play first",)
    c.handle(BoardRead(_board((8, 2)), 12))  # one checker moved six: illegal
    c.handle(ButtonPressed(0, ROLL, 13))
    assert c.state.phase == "play"
    assert shown[-1].severity == "error"
    assert shown[-1].message[0].endswith(": put back clear point 2 (now 1 white); point 8: 3 white (now 2 white)")
    assert shown[-1].message[1] == c.verdict.reason  # the rules engine's explanation, short form
    c.handle(ButtonPressed(1, ROLL, 14))  # the other player cannot press done
    assert shown[-1].message == ("it is not your turn",)


def test_cube_buttons_double_take_and_drop() -> None:
    c, _, shown = _opened()
    c.handle(BoardRead(_board((8, 5), (6, 5)), 10))
    c.handle(ButtonPressed(0, ROLL, 11))
    c.handle(ButtonPressed(1, DOUBLE, 12))  # black doubles
    assert c.state.phase == "doubled" and shown[-1].phase == "cube-offered"
    c.handle(ButtonPressed(0, DOUBLE, 13))  # white takes
    assert c.state.cube == 2 and c.state.cube_owner == 0 and c.state.phase == "turn"
    c.handle(ButtonPressed(1, DOUBLE, 14))  # black no longer owns the cube
    assert c.state.phase == "turn" and shown[-1].severity == "warning"
    c.handle(ButtonPressed(1, ROLL, 15))
    c.handle(DiceRolled((6, 6), 2, 16))
    assert c.state.phase == "play" and c.state.turn == 1


def test_a_dropped_double_ends_the_game_and_the_next_needs_the_board_set_up() -> None:
    c, _, shown = _opened()
    c.handle(BoardRead(_board((8, 5), (6, 5)), 10))
    c.handle(ButtonPressed(0, ROLL, 11))
    c.handle(ButtonPressed(1, DOUBLE, 12))
    c.handle(ButtonPressed(0, DROP, 13))
    assert c.state.phase == "game_over" and c.state.score == (0, 1)
    c.handle(ButtonPressed(0, ROLL, 14))
    assert c.state.phase == "game_over" and shown[-1].phase == "setup"
    assert shown[-1].message[0] == ("set up the board — white: clear your 5-point (now 2 white), "
                                    "put 5 on your 6-point (now 4 white), put 3 on your 8-point (now 2 white)")
    c.handle(BoardRead(START, 15))
    c.handle(ButtonPressed(1, ROLL, 16))
    assert c.state.phase == "opening" and c.state.game == 2


def test_a_whole_match_resumes_from_the_journal_at_every_step(tmp_path: Path) -> None:
    reference = Controller.resume(MemoryJournal(), Settings(length=3), 0)
    play_out(reference, seed=5)
    assert reference.state is not None and reference.state.phase == "match_over"
    journal = Journal(tmp_path / "j.db")
    c = Controller.resume(journal, Settings(length=3), 0)
    steps = 0
    while not c.over:
        for event in next_events(c, 5):
            c.handle(event)
        steps += 1
        if steps % 7 == 0:  # a restart now and then: same place, same state
            again = Controller.resume(Journal(tmp_path / "j.db"), Settings(length=3), 0)
            assert again.actions == c.actions and again.state == c.state
    assert c.actions == reference.actions
    assert replay(c.actions).score == reference.state.score


def test_running_out_of_time_loses_the_match_and_survives_a_restart(tmp_path: Path) -> None:
    settings = Settings(length=1, clock=ClockRules(per_point_ms=10_000, delay_ms=1_000))
    c = Controller.resume(Journal(tmp_path / "j.db"), settings, 0)
    c.handle(ButtonPressed(0, ROLL, 0))
    c.handle(DiceRolled((1, 4), 1, 0))  # black wins the opening roll: black's clock runs
    assert c.clock is not None and c.clock.running == 1
    c.handle(Tick(10_999))
    assert not c.over
    c.handle(Tick(11_000))
    assert c.over and c.forfeit == 1
    again = Controller.resume(Journal(tmp_path / "j.db"), settings, 99_999)
    assert again.over and again.message().text == "Black ran out of time: White wins the match"


def test_a_takeback_before_the_opponent_rolls_when_allowed() -> None:
    c, _, shown = _opened(Settings(length=3, takebacks=True))
    c.handle(BoardRead(_board((8, 5), (6, 5)), 10))
    c.handle(ButtonPressed(0, ROLL, 11))
    assert c.state.turn == 1 and c.state.phase == "turn"
    c.handle(BoardRead(START, 12))  # white puts the checkers back
    assert c.state.phase == "play" and c.state.turn == 0 and c.state.dice == (3, 1)
    assert shown[-1].message == ("play taken back: play the roll again",)


def test_the_players_see_when_the_board_link_is_lost() -> None:
    c, _, shown = _opened()
    c.handle(LinkChanged(False, "the board was unplugged: plug it back in", 20))
    assert shown[-1].message == ("the board was unplugged: plug it back in", "board not connected")
    assert shown[-1].severity == "error"
    c.handle(ButtonPressed(0, ROLL, 21))
    assert shown[-1].message == ("the board cannot be read: check the board's cable",)


def test_black_plays_are_read_from_the_physical_board() -> None:
    c, _, _ = _opened()
    c.handle(BoardRead(_board((8, 5), (6, 5)), 10))
    c.handle(ButtonPressed(0, ROLL, 11))
    c.handle(ButtonPressed(1, ROLL, 12))
    c.handle(DiceRolled((6, 4), 2, 13))
    board = list(board_of(c.state.position, BLACK))
    board[1 - 1] += 1  # black 24/14: physical 1 -> 11
    board[11 - 1] -= 1
    c.handle(BoardRead(Observation.of_board(board), 14))
    c.handle(ButtonPressed(1, ROLL, 15))
    assert c.actions[-1].steps in (((24, 18), (18, 14)), ((24, 20), (20, 14)))


def test_a_hint_asked_at_the_roll_is_shown_when_it_comes_and_only_for_that_roll() -> None:
    from bgboard.app import open_hints
    from bgboard.control.events import HintReady

    asked: list = []
    shown: list = []
    c = Controller.resume(MemoryJournal(), Settings(length=3), 0, show=shown.append,
                          hint=lambda position, dice: asked.append((position, dice)))
    c.handle(ButtonPressed(0, ROLL, 1))
    c.handle(DiceRolled((6, 1), 1, 2))  # white opens with 6-1: the hint is asked, not awaited
    assert asked == [(c.state.position, (6, 1))] and shown[-1].hint == ()
    c.handle(HintReady(c.state.position, (5, 2), "best: 13/8", 3))  # for another roll: too late
    assert shown[-1].hint == ()
    c.handle(HintReady(c.state.position, (6, 1), "best: 13/7 8/7", 4))
    assert shown[-1].hint == ("best: 13/7 8/7",)
    c.handle(BoardRead(START, 5))
    assert shown[-1].hint == ("best: 13/7 8/7",)
    assert open_hints("none") == (None, None)


def test_an_ambiguous_reading_is_resolved_by_the_player_with_the_buttons() -> None:
    """Late in a game the trays and the ace point hold more checkers than they have slots:
    '3/off 2/off' and '3/1 2/off' read the same.  The player picks with double, then done."""
    c = Controller.resume(MemoryJournal(), Settings(length=1), 0)
    while True:  # scripted play (seed 0) up to the first roll whose plays can read alike
        assert not c.over, "the script no longer reaches an ambiguous roll"
        if c.state.phase == "play":
            s = c.state
            readings: dict[tuple[int, ...], list] = {}
            for play in s.playing.plays(s.board_view, s.dice):  # each legal play as the sensors read it
                readings.setdefault(Observation.of_board(board_of(play.position.plain(), s.turn)).codes, []).append(play)
            alike = [(codes, plays) for codes, plays in readings.items() if len(plays) > 1]
            if alike:
                break
        for event in next_events(c, 0):
            c.handle(event)
    codes, plays = alike[0]
    mover = c.state.turn
    shown: list = []
    c.show = shown.append
    c.handle(BoardRead(Observation(codes), 1))
    first, second = plays[0].notation, plays[1].notation
    assert shown[-1].message == (f"{first}? press done, or double for another reading", f"{first}?")
    c.handle(ButtonPressed(mover, DOUBLE, 2))
    assert shown[-1].message == (f"{second}? press done, or double for another reading", f"{second}?")
    c.handle(ButtonPressed(mover, ROLL, 3))
    assert c.actions[-1] == Move.of(plays[1])


def test_a_sensor_fault_is_shown_as_an_error() -> None:
    c, _, shown = _opened()
    c.handle(BoardFault("check point 7: a sensor reports a fault", 5))
    assert shown[-1].message == ("check point 7: a sensor reports a fault",) and shown[-1].severity == "error"


def test_the_display_shows_both_clocks() -> None:
    c, _, shown = _opened(Settings(length=3, clock=ClockRules()))
    assert shown[-1].clock is not None
    assert shown[-1].clock.running == 0 and shown[-1].clock.reserve_ms == (360_000, 360_000)
    c.handle(Tick(3 + 12_000 + 1_500))  # 1.5 s into white's reserve: shown in whole seconds
    assert shown[-1].clock.reserve_ms == (359_000, 360_000) and shown[-1].clock.delay_ms == 0


def test_a_cube_beyond_the_display_range_does_not_stop_the_host() -> None:
    """Found by benchmarks/crash_restarts.py: a 3-point match redoubled up to 8192."""
    c, _, shown = _opened()
    _redoubled(c, 8192)
    assert shown[-1].cube == 4096


def test_a_kill_between_a_play_and_its_clock_entry_still_passes_the_clock(tmp_path: Path) -> None:
    settings = Settings(length=3, clock=ClockRules())
    c = Controller.resume(Journal(tmp_path / "j.db"), settings, 0)
    c.handle(ButtonPressed(0, ROLL, 1))
    c.handle(DiceRolled((3, 1), 1, 2))
    c.handle(BoardRead(_board((8, 5), (6, 5)), 3))
    c.handle(ButtonPressed(0, ROLL, 4))
    assert c.clock is not None and c.clock.running == 1
    import sqlite3

    db = sqlite3.connect(tmp_path / "j.db")  # as if killed after the move, before its clock row
    db.execute("DELETE FROM journal WHERE seq = (SELECT max(seq) FROM journal)")
    db.commit()
    db.close()
    again = Controller.resume(Journal(tmp_path / "j.db"), settings, 10)
    assert again.clock is not None and again.clock.running == 1


def test_the_final_score_is_shown_even_above_the_match_length() -> None:
    """A dropped redouble to 8 in a 3-point match wins 4 points: the display shows 0–4, not 0–3."""
    c, _, shown = _opened()
    at = _redoubled(c, 4)
    c.handle(ButtonPressed(1, DOUBLE, at))
    c.handle(ButtonPressed(0, DROP, at + 1))
    assert c.state.phase == "match_over" and c.state.score == (0, 4)
    assert shown[-1].phase == "match-over" and shown[-1].score == (0, 4) and shown[-1].winner == 1


def test_a_cube_war_past_what_the_display_draws_ends_the_match_and_keeps_the_real_score():
    # seed 19 of the scripted players doubles a 3-point match to 4096 and wins a gammon: a
    # legal match (match play sets no cube limit) whose score no panel can draw; the kill -9
    # campaign met it only when a faster run needed more matches, and the controller raised
    controller = Controller.resume(MemoryJournal(), Settings(length=3, clock=ClockRules(per_point_ms=10**9)), 0)
    shown: list[DisplayState] = []
    controller.show = shown.append
    play_out(controller, 19)
    state = replay(controller.actions)
    assert max(state.score) > 9999 and state.cube > 4096        # the record keeps the real numbers
    assert max(shown[-1].score) == 9999 and shown[-1].ending is not None  # the display its bounds
