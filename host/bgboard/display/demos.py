"""Demo display states: one per situation the display must show (``bgboard render --demo``).

They double as the golden-image test cases and the README pictures.
"""

from __future__ import annotations

from bgboard.display.display_state import BoardDiagram, ClockState, DisplayState, Ending
from bgboard.errors import InputError


class UnknownDemoError(InputError):
    """A demo name that does not exist (the message lists the valid ones)."""


_START = (
    -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5,  # physical points 1..12 (white +, black -)
    5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2,  # 13..24
)

DEMOS: dict[str, DisplayState] = {
    "opening": DisplayState(
        names=("Alice", "Bob"), match_length=7, score=(0, 0), phase="opening",
        dice=(5, 3), pips=(167, 167),
        message=("Alice's 5 beats Bob's 3: Alice plays 5-3 first", "Alice plays 5-3 first",
                 "Alice first"),
    ),
    "cube-offered": DisplayState(
        names=("Alice", "Bob"), match_length=7, score=(2, 3), cube=1, cube_owner=None,
        turn=0, phase="cube-offered", pips=(98, 131),
    ),
    "crawford": DisplayState(
        names=("Alice", "Bob"), match_length=7, score=(6, 4), crawford="crawford",
        turn=1, phase="moving", dice=(6, 4), pips=(121, 140),
        message=("Crawford game: no doubling this game", "No doubling this game",
                 "No cube"),
    ),
    "illegal-move": DisplayState(
        names=("Alice", "Bob"), match_length=5, score=(1, 2), cube=2, cube_owner=1,
        turn=0, phase="moving", dice=(4, 2), pips=(142, 155), severity="error",
        message=("Illegal: a checker is on the bar, enter it first",
                 "Illegal: enter from the bar first", "Enter from the bar first"),
        put_back=("put back: 13→8, clear 4", "13→8, clear 4"),
    ),
    "hint": DisplayState(
        names=("Alice", "Bob"), match_length=0, score=(0, 0), cube=2, cube_owner=0,
        turn=0, phase="moving", dice=(3, 1), pips=(167, 167),
        hint=("8/5 6/5 makes the 5-point (best by 0.14)", "8/5 6/5 (best)", "8/5 6/5"),
    ),
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
                  "PR 4.2 / 9.8 · error rate 8.4 / 19.6", "PR 4.2 · 9.8 (8 · 20 mEMG)", "PR 4.2 · 9.8"),
    ),
    "game-over": DisplayState(
        names=("Alice", "Bob"), match_length=7, score=(2, 5), cube=2, cube_owner=1,
        phase="game-over", winner=1,
        ending=Ending(winner=1, how="resignation", points=4, cube=2, level="gammon"),
    ),
    "lesson": DisplayState(
        names=("Alice", "Bob"), match_length=5, score=(1, 1), turn=1, phase="rolling",
        pips=(154, 161),
        lesson=("Alice 24/18 13/10: bad, -0.094; best 13/7 13/10 (leaves 11 shots, best 2)",
                "24/18 13/10 bad -0.094; best 13/7 13/10", "bad -0.094; best 13/7 13/10",
                "bad -0.094"),
    ),
    "clock-low": DisplayState(
        names=("Alice", "Bob"), match_length=9, score=(4, 7), crawford="post-crawford",
        cube=4, cube_owner=0, turn=1, phase="rolling", pips=(88, 64),
        clock=ClockState(reserve_ms=(612_000, 41_300), delay_ms=12_000, running=1),
        severity="warning",
        message=("Bob: under a minute left on the clock", "Bob: under a minute left",
                 "Clock low"),
    ),
    "setup": DisplayState(
        names=("Alice", "Bob"), match_length=7, phase="setup",
        diagram=BoardDiagram(
            points=tuple({6: 7, 13: 3}.get(p, n) for p, n in enumerate(_START, start=1)),
            marked=(6, 13),
        ),
        severity="warning",
        message=("Set up: move 2 white checkers from point 6 to point 13",
                 "Move 2 white from 6 to 13", "6 → 13 (2)"),
    ),
}


def demo_state(name: str) -> DisplayState:
    """The demo called ``name``; :class:`UnknownDemoError` lists the valid names."""
    try:
        return DEMOS[name]
    except KeyError:
        raise UnknownDemoError(
            f"unknown demo {name!r}: choose one of {', '.join(DEMOS)}"
        ) from None
