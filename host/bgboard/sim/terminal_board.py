"""The terminal board's picture: the table in two rows of points, white's view, with the bar,
the borne-off checkers, both pip counts, the cube and the match (text only; colours as ANSI
codes when asked).

``W3`` is three white checkers, ``B2`` two black, ``.`` an empty point (the letters, ``bar``
and ``off`` are the same in every language: notation; the other words follow ``words``).  The checkers the
other side's play moves are marked: ``^`` where one is lifted, ``+`` where one is put down
(with colours: reverse video and underline).  Colours are used when the terminal has them
and ``NO_COLOR`` is not set (https://no-color.org): :func:`uses_colour`.
"""

from __future__ import annotations

from typing import Any, Collection, Mapping, Sequence

from bgboard.language import ENGLISH, Words, say
from bgboard.sim.layout import Layout

RESET = "\x1b[0m"
#: White's checkers bold, black's cyan; a point lifted from reverse video, landed on underlined.
STYLE = {"W": "\x1b[1m", "B": "\x1b[36m", "from": "\x1b[7m", "to": "\x1b[4m"}


def uses_colour(stream: Any, environ: Mapping[str, str]) -> bool:
    """Colours for ``stream``: a terminal, not ``TERM=dumb``, and no ``NO_COLOR`` set."""
    if environ.get("NO_COLOR", "") != "" or environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def pips(layout: Layout) -> tuple[int, int]:
    """(white's, black's) pip count: white moves towards physical point 1, black towards 24."""
    white = sum(n * p for p, n in enumerate(layout.points, 1) if n > 0) + 25 * layout.bar[0]
    black = sum(-n * (25 - p) for p, n in enumerate(layout.points, 1) if n < 0) + 25 * layout.bar[1]
    return white, black


def match_line(state: Any, w: Words = ENGLISH) -> str:
    """The cube, the match score and its length, Crawford: ``cube 2 (White's)  match to 5:
    White 1, Black 3 (Crawford game)``."""
    # source: cube = "verdubbelsteen" seeds/000, "doblingskube" seeds/001, "Verdoppelungswürfel" seeds/004
    owner = say(w, "centred") if state.cube_owner is None else say(w, "%(who)s's", who=state.players[state.cube_owner])
    a, b = state.score
    crawford = (" " + say(w, "(Crawford game)") if state.crawford
                else " " + say(w, "(after Crawford)") if state.post_crawford else "")
    # source: cube = "verdubbelsteen" seeds/000, "doblingskube" seeds/001, "Verdoppelungswürfel" seeds/004
    cube = say(w, "no cube (Crawford)") if state.crawford else say(w, "cube %(value)d (%(owner)s)", value=state.cube, owner=owner)
    score = say(w, "match to %(length)d: %(white)s %(a)d, %(black)s %(b)d", length=state.length,
                white=state.players[0], a=a, black=state.players[1], b=b)
    return f"{cube}   {score}{crawford}"


def clock_line(names: Sequence[str], remaining_ms: Sequence[int], running: int | None = None,
               w: Words = ENGLISH) -> str:
    """Both players' reserves: ``clock White 4:05*  Black 3:59`` (``*`` on the running one)."""
    cells = []
    for p, (name, ms) in enumerate(zip(names, remaining_ms)):
        seconds = max(0, ms) // 1000
        cells.append(f"{name} {seconds // 60}:{seconds % 60:02d}{'*' if running == p else ''}")
    return say(w, "clock %(clocks)s", clocks="  ".join(cells))


def board_text(layout: Layout, state: Any = None, *, lifted: Collection[int] = (), landed: Collection[int] = (),
               colour: bool = False, clocks: tuple[tuple[int, int], int | None] | None = None,
               words: Words = ENGLISH) -> str:
    """The table (white's view, physical points), its bar, off and pips; with ``state`` the
    cube and match line too, and with ``clocks`` (both reserves in ms, the running player)
    the clocks; ``lifted``/``landed`` physical points are marked."""

    def cell(p: int) -> str:
        n = layout.points[p - 1]
        text = f"{'W' if n > 0 else 'B'}{abs(n)}" if n else "."
        mark = "^" if p in lifted else "+" if p in landed else ""
        if not colour:
            return f"{text + mark:>3}"
        styled = f"{STYLE['W' if n > 0 else 'B']}{text}{RESET}" if n else text
        if mark:
            styled = f"{STYLE['from' if mark == '^' else 'to']}{text}{RESET}"
        return " " * (3 - len(text)) + styled

    top = " ".join(f"{p:>3}" for p in range(13, 25))
    up = " ".join(cell(p) for p in range(13, 25))
    down = " ".join(cell(p) for p in range(12, 0, -1))
    bottom = " ".join(f"{p:>3}" for p in range(12, 0, -1))
    white, black = pips(layout)
    pip_label = say(words, "pips")
    extra = (f"bar W{layout.bar[0]} B{layout.bar[1]}   off W{layout.off[0]} B{layout.off[1]}   "
             f"{pip_label} W{white} B{black}")
    lines = [top, up, down, bottom, extra]
    if state is not None:
        lines.append(match_line(state, words))
        if clocks is not None:
            lines.append(clock_line(state.players, clocks[0], clocks[1], words))
    return "\n".join(lines)
