"""Demo display states: one per situation the display must show (``bgboard render --demo``).

They double as the golden-image test cases and the README pictures.
"""

from __future__ import annotations

from bgboard.display.display_state import BoardDiagram, ClockState, DisplayState, Ending
from bgboard.errors import InputError
from bgboard.language import ENGLISH, Words, say


class UnknownDemoError(InputError):
    """A demo name that does not exist (the message lists the valid ones)."""


_START = (
    -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5,  # physical points 1..12 (white +, black -)
    5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2,  # 13..24
)


def _playing(w: Words) -> dict[str, DisplayState]:
    """The demos of a game in play: the opening roll, a cube offered, the Crawford game, an
    illegal move and a hint."""
    return {
        "opening": DisplayState(
            names=("Alice", "Bob"), match_length=7, score=(0, 0), phase="opening",
            dice=(5, 3), pips=(167, 167),
            message=(say(w, "%(who)s's %(high)d beats %(other)s's %(low)d: %(who)s plays %(dice)s first",
                         who="Alice", other="Bob", high=5, low=3, dice="5-3"),
                     say(w, "%(who)s plays %(dice)s first", who="Alice", dice="5-3"),
                     say(w, "%(who)s first", who="Alice")),
        ),
        "cube-offered": DisplayState(
            names=("Alice", "Bob"), match_length=7, score=(2, 3), cube=1, cube_owner=None,
            turn=0, phase="cube-offered", pips=(98, 131),
        ),
        "crawford": DisplayState(
            names=("Alice", "Bob"), match_length=7, score=(6, 4), crawford="crawford",
            turn=1, phase="moving", dice=(6, 4), pips=(121, 140),
            message=(say(w, "Crawford game: no doubling this game"), say(w, "No doubling this game"),
                     say(w, "No cube")),
        ),
        "illegal-move": DisplayState(
            names=("Alice", "Bob"), match_length=5, score=(1, 2), cube=2, cube_owner=1,
            turn=0, phase="moving", dice=(4, 2), pips=(142, 155), severity="error",
            message=(say(w, "Illegal: a checker is on the bar, enter it first"),
                     say(w, "Illegal: enter from the bar first"), say(w, "Enter from the bar first")),
            put_back=(say(w, "put back: %(moves)s", moves="13→8, " + say(w, "clear %(point)d", point=4)),
                      "13→8, " + say(w, "clear %(point)d", point=4)),
        ),
        "hint": DisplayState(
            names=("Alice", "Bob"), match_length=0, score=(0, 0), cube=2, cube_owner=0,
            turn=0, phase="moving", dice=(3, 1), pips=(167, 167),
            hint=(say(w, "%(play)s makes the %(point)d-point (best by %(margin)s)", play="8/5 6/5",
                      point=5, margin="0.14"),
                  say(w, "%(play)s (best)", play="8/5 6/5"), "8/5 6/5"),
        ),
    }


def _endings(w: Words) -> dict[str, DisplayState]:
    """The demos of an end: of a match (with and without its analysis) and of a game."""
    return {
        "match-over": DisplayState(
            names=("Alice", "Bob"), match_length=7, score=(8, 5), crawford="post-crawford",
            cube=2, cube_owner=0, phase="match-over", winner=0,
            ending=Ending(winner=0, how="gammon", points=4, cube=2, sent=True),
        ),
        "match-analysis": DisplayState(
            names=("Alice", "Bob"), match_length=7, score=(7, 4), crawford="post-crawford",
            cube=1, phase="match-over", winner=0,
            ending=Ending(winner=0, how="single", points=1, cube=1),
            analysis=("Alice PR 4.2 (8.4 mEMG) · Bob PR 9.8 (19.6 mEMG)",
                      say(w, "PR %(pr)s · error rate %(rate)s", pr="4.2 / 9.8", rate="8.4 / 19.6"),
                      "PR 4.2 · 9.8 (8 · 20 mEMG)", "PR 4.2 · 9.8"),
        ),
        "game-over": DisplayState(
            names=("Alice", "Bob"), match_length=7, score=(2, 5), cube=2, cube_owner=1,
            phase="game-over", winner=1,
            ending=Ending(winner=1, how="resignation", points=4, cube=2, level="gammon"),
        ),
    }


def _asides(w: Words) -> dict[str, DisplayState]:
    """The demos of what is said beside the play: a teaching grade, a low clock and setting up."""
    return {
        "lesson": DisplayState(
            names=("Alice", "Bob"), match_length=5, score=(1, 1), turn=1, phase="rolling",
            pips=(154, 161),
            lesson=(say(w, "%(who)s %(play)s: %(grade)s, %(loss)s; best %(best)s (leaves %(shots)d shots, best %(fewest)d)",
                        who="Alice", play="24/18 13/10", grade=say(w, "bad"), loss="-0.094",
                        best="13/7 13/10", shots=11, fewest=2),
                    say(w, "%(play)s %(grade)s %(loss)s; best %(best)s", play="24/18 13/10",
                        grade=say(w, "bad"), loss="-0.094", best="13/7 13/10"),
                    say(w, "%(grade)s %(loss)s; best %(best)s", grade=say(w, "bad"), loss="-0.094",
                        best="13/7 13/10"),
                    say(w, "bad") + " -0.094"),
        ),
        "clock-low": DisplayState(
            names=("Alice", "Bob"), match_length=9, score=(4, 7), crawford="post-crawford",
            cube=4, cube_owner=0, turn=1, phase="rolling", pips=(88, 64),
            clock=ClockState(reserve_ms=(612_000, 41_300), delay_ms=12_000, running=1),
            severity="warning",
            message=(say(w, "%(who)s: under a minute left on the clock", who="Bob"),
                     say(w, "%(who)s: under a minute left", who="Bob"), say(w, "Clock low")),
        ),
        "setup": DisplayState(
            names=("Alice", "Bob"), match_length=7, phase="setup",
            diagram=BoardDiagram(
                points=tuple({6: 7, 13: 3}.get(p, n) for p, n in enumerate(_START, start=1)),
                marked=(6, 13),
            ),
            severity="warning",
            message=(say(w, "Set up: move %(n)d white checkers from point %(frm)d to point %(to)d",
                         n=2, frm=6, to=13),
                     say(w, "Move %(n)d white from %(frm)d to %(to)d", n=2, frm=6, to=13), "6 → 13 (2)"),
        ),
    }


def demos(w: Words) -> dict[str, DisplayState]:
    """Every demo with its texts in ``w``'s language."""
    return _playing(w) | _endings(w) | _asides(w)


#: The demos in English (their names are the same in every language).
DEMOS: dict[str, DisplayState] = demos(ENGLISH)


def demo_state(name: str, words: Words = ENGLISH) -> DisplayState:
    """The demo called ``name`` in ``words``' language; :class:`UnknownDemoError` lists the
    valid names."""
    try:
        return DEMOS[name] if words is ENGLISH else demos(words)[name]
    except KeyError:
        raise UnknownDemoError(
            f"unknown demo {name!r}: choose one of {', '.join(DEMOS)}"
        ) from None
