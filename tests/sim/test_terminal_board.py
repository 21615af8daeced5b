"""The terminal board's picture: pips, cube, match, Crawford, marks, colours and NO_COLOR."""

from __future__ import annotations

import io
from types import SimpleNamespace

from bgboard.sim.layout import Layout
from bgboard.sim.terminal_board import board_text, clock_line, match_line, pips, uses_colour

START = Layout((-2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2))


def _state(**changes: object) -> SimpleNamespace:
    state = dict(players=("White", "Black"), score=(0, 0), length=5, cube=1, cube_owner=None, crawford=False,
                 post_crawford=False)
    return SimpleNamespace(**{**state, **changes})


def test_pips_of_both_sides() -> None:
    assert pips(START) == (167, 167)
    assert pips(Layout(START.points, bar=(1, 0))) == (192, 167)


def test_the_cube_its_owner_the_score_and_crawford() -> None:
    assert match_line(_state()) == "cube 1 (centred)   match to 5: White 0, Black 0"
    assert match_line(_state(cube=4, cube_owner=1, score=(2, 1))) == "cube 4 (Black's)   match to 5: White 2, Black 1"
    assert match_line(_state(crawford=True, score=(4, 2))) == "no cube (Crawford)   match to 5: White 4, Black 2 (Crawford game)"
    assert match_line(_state(post_crawford=True, score=(4, 3))).endswith("(after Crawford)")


def test_the_board_marks_the_checkers_to_move_in_text_or_colour() -> None:
    plain = board_text(START, _state(), lifted=(24,), landed=(20,)).splitlines()
    assert plain[1].split()[-1] == "W2^" and plain[1].split()[7] == ".+"
    assert plain[4] == "bar W0 B0   off W0 B0   pips W167 B167"
    coloured = board_text(START, lifted=(24,), landed=(20,), colour=True)
    assert "\x1b[7mW2\x1b[0m" in coloured and "\x1b[4m.\x1b[0m" in coloured and "\x1b[1mW5\x1b[0m" in coloured


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_colours_only_on_a_terminal_without_no_color() -> None:
    assert uses_colour(_Tty(), {"TERM": "xterm"})
    assert not uses_colour(_Tty(), {"TERM": "xterm", "NO_COLOR": "1"})
    assert not uses_colour(_Tty(), {"TERM": "dumb"})
    assert not uses_colour(io.StringIO(), {"TERM": "xterm"})
    assert uses_colour(_Tty(), {"NO_COLOR": ""})  # (set but empty: no-color.org says colours stay)


def test_the_clocks_both_reserves_and_the_running_one() -> None:
    assert clock_line(("White", "Black"), (245_400, 239_000), running=0) == "clock White 4:05*  Black 3:59"
    assert clock_line(("White", "Black"), (0, -5), None) == "clock White 0:00  Black 0:00"
    lines = board_text(START, _state(), clocks=((600_000, 59_999), 1)).splitlines()
    assert lines[-1] == "clock White 10:00  Black 0:59*"
    assert not any(line.startswith("clock") for line in board_text(START, _state()).splitlines())  # a match without clocks


def test_the_terminal_shows_a_running_match_clock() -> None:
    """The interactive session's board: the controller's own clock at the board's virtual time."""
    from bgboard.control.clock import Clock, ClockRules
    from bgboard.sim.interactive import _Session

    clock = Clock.set(ClockRules(), 5).start(0, 0)
    controller = SimpleNamespace(state=_state(), clock=clock)
    sim = SimpleNamespace(controller=controller, table=SimpleNamespace(layout=START), board=SimpleNamespace(clock=65_000))
    session = _Session.__new__(_Session)
    session.sim, session.colour = sim, False
    last = session.board().splitlines()[-1]
    white, black = clock.remaining(0, 65_000) // 1000, clock.remaining(1, 65_000) // 1000
    assert last == f"clock White {white // 60}:{white % 60:02d}*  Black {black // 60}:{black % 60:02d}"
    assert white < black  # White's clock ran for 65 s
