"""What the display shows: a frozen :class:`View` of the match at one moment, turned into a
:class:`~bgboard.display.state.DisplayState` by :func:`display_state`.  Pure.

The controller builds the view (:meth:`bgboard.control.controller.Controller.view`); this
module knows nothing of the controller.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bgboard.control.clock import Clock
from bgboard.control.notice import Notice, Severity, Topic
from bgboard.display.state import BoardDiagram, ClockState, DisplayPhase, DisplayState
from bgboard.match.state import MatchState, Phase
from bgboard.rules.position import Position
from bgboard.sense.board import BLACK_BAR, BLACK_OFF, WHITE_BAR, WHITE_OFF, Observation, Slots
from bgboard.sense.recognise import setup_fixes

__all__ = ["MAX_CUBE", "PHASES", "View", "display_state"]

MAX_CUBE = 4096

#: The display's phase for each phase of the match.
PHASES = {
    Phase.OPENING: DisplayPhase.OPENING,
    Phase.TURN: DisplayPhase.ROLLING,
    Phase.PLAY: DisplayPhase.MOVING,
    Phase.DOUBLED: DisplayPhase.CUBE_OFFERED,
    Phase.RESIGNED: DisplayPhase.ROLLING,
    Phase.GAME_OVER: DisplayPhase.GAME_OVER,
    Phase.MATCH_OVER: DisplayPhase.MATCH_OVER,
}


@dataclass(frozen=True, slots=True)
class View:
    """Everything the display shows, at ``now_ms``: the match, what to say, the clocks, a
    loss on time, the hint for the roll, and the board as read (for the set-up diagram)."""

    state: MatchState
    now_ms: int
    notice: Notice | None = None
    clock: Clock | None = None
    forfeit: int | None = None
    hint: str | None = None
    observation: Observation | None = None
    start: Position | None = None
    slots: Slots = field(default_factory=Slots)


def display_state(view: View) -> DisplayState:
    """The display state of a view."""
    state, now, notice = view.state, view.now_ms, view.notice
    phase = PHASES[state.phase]
    if view.forfeit is not None:
        phase = DisplayPhase.MATCH_OVER
    diagram = None
    if phase in (DisplayPhase.OPENING, DisplayPhase.GAME_OVER) and notice is not None and notice.topic == Topic.SETUP:
        phase = DisplayPhase.SETUP
        diagram = _diagram(view)
    clock = None
    if view.clock is not None:
        c = view.clock
        clock = ClockState(  # whole seconds: the display state changes once a second, not every tick
            (_seconds(c.remaining(0, now)), _seconds(c.remaining(1, now))), _seconds(c.delay_left(now)), c.running
        )
    pips = None
    if state.phase in (Phase.TURN, Phase.PLAY, Phase.DOUBLED) and state.turn is not None:
        mine, theirs = state.position.pips()
        pips = (mine, theirs) if state.turn == 0 else (theirs, mine)
    crawford = "crawford" if state.crawford else ("post-crawford" if state.post_crawford else "none")
    winner = state.winner if state.phase == Phase.MATCH_OVER else None
    if view.forfeit is not None:
        winner = 1 - view.forfeit
    elif state.phase == Phase.GAME_OVER and state.games:
        winner = state.games[-1].winner
    dice = state.dice if state.phase == Phase.PLAY else None
    return DisplayState(
        names=state.players,
        match_length=state.length,
        score=state.score,  # a match can end above its length (a gammon or a cube in the last game)
        crawford=crawford if state.length else "none",
        cube=min(state.cube, MAX_CUBE),  # the display draws cubes up to 4096
        cube_owner=state.cube_owner,
        turn=state.turn if phase not in (DisplayPhase.OPENING, DisplayPhase.SETUP) else None,
        dice=dice,
        pips=pips,
        clock=clock,
        phase=phase,
        winner=winner,
        hint=(view.hint,) if view.hint and state.phase == Phase.PLAY else (),
        message=_variants(notice.text, notice.short) if notice is not None and notice.text.strip() else (),
        severity=notice.severity if notice is not None else Severity.INFO,
        diagram=diagram,
    )


def _diagram(view: View) -> BoardDiagram | None:
    observation = view.observation
    if observation is None or view.start is None:
        return None
    readings = observation.readings()

    def signed(place: int) -> int:
        r = readings[place - 1]
        if r.colour is None:
            return 0
        return r.low if r.colour == 0 else -r.low

    fixes = setup_fixes(observation, view.start, view.slots)
    marked = sorted({f.place if f.place <= 24 else (25 if f.place in (WHITE_BAR, BLACK_BAR) else 0) for f in fixes})
    return BoardDiagram(
        points=tuple(signed(p) for p in range(1, 25)),
        bar=(signed(WHITE_BAR), -signed(BLACK_BAR)),
        off=(signed(WHITE_OFF), -signed(BLACK_OFF)),
        marked=tuple(marked),
    )


def _variants(text: str, short: str) -> tuple[str, ...]:
    """The message and its shorter variant (longest first), for the renderer to fit."""
    if short.strip() and len(short) < len(text):
        return (text, short)
    return (text,)


def _seconds(ms: int) -> int:
    """``ms`` rounded up to whole seconds (a clock shows 0:00 only when time is up)."""
    return -(-ms // 1000) * 1000
