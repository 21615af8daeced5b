"""What the display shows, built from the controller: a :class:`DisplayState` (pure)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bgboard.display.state import BoardDiagram, ClockState, DisplayState

if TYPE_CHECKING:
    from bgboard.control.controller import Controller

MAX_CUBE = 4096

PHASES = {
    "opening": "opening",
    "turn": "rolling",
    "play": "moving",
    "doubled": "cube-offered",
    "resigned": "rolling",
    "game_over": "game-over",
    "match_over": "match-over",
}


def display_state(controller: "Controller") -> DisplayState:
    """The display state of the controller's match, message and clocks at its last event."""
    state = controller.state
    assert state is not None
    now = controller.now_ms
    notice = controller.message()
    phase = PHASES.get(state.phase, "rolling")
    if controller.forfeit is not None:
        phase = "match-over"
    diagram = None
    if phase in ("opening", "game-over") and notice is not None and notice.text.startswith("set up"):
        phase = "setup"
        diagram = _diagram(controller)
    clock = None
    if controller.clock is not None:
        c = controller.clock
        clock = ClockState(  # whole seconds: the display state changes once a second, not every tick
            (_seconds(c.remaining(0, now)), _seconds(c.remaining(1, now))), _seconds(c.delay_left(now)), c.running
        )
    pips = None
    if state.phase in ("turn", "play", "doubled") and state.turn is not None:
        mine, theirs = state.position.pips()
        pips = (mine, theirs) if state.turn == 0 else (theirs, mine)
    crawford = "crawford" if state.crawford else ("post-crawford" if state.post_crawford else "none")
    winner = state.winner if state.phase == "match_over" else None
    if controller.forfeit is not None:
        winner = 1 - controller.forfeit
    elif state.phase == "game_over" and state.games:
        winner = state.games[-1].winner
    dice = state.dice if state.phase == "play" else None
    return DisplayState(
        names=state.players,
        match_length=state.length,
        score=state.score,  # a match can end above its length (a gammon or a cube in the last game)
        crawford=crawford if state.length else "none",
        cube=min(state.cube, MAX_CUBE),  # the display draws cubes up to 4096
        cube_owner=state.cube_owner,
        turn=state.turn if phase not in ("opening", "setup") else None,
        dice=dice,
        pips=pips,
        clock=clock,
        phase=phase,
        winner=winner,
        hint=(controller.hint_text,) if controller.hint_text and state.phase == "play" else (),
        message=_variants(notice.text, notice.short) if notice is not None and notice.text.strip() else (),
        severity=notice.severity if notice is not None else "info",
        diagram=diagram,
    )


def _diagram(controller: "Controller") -> BoardDiagram | None:
    from bgboard.sense.board import BLACK_BAR, BLACK_OFF, WHITE_BAR, WHITE_OFF
    from bgboard.sense.recognise import setup_fixes

    observation = controller.observation
    if observation is None:
        return None
    readings = observation.readings()

    def signed(place: int) -> int:
        r = readings[place - 1]
        if r.colour is None:
            return 0
        return r.low if r.colour == 0 else -r.low

    fixes = setup_fixes(observation, controller._start(), controller.settings.slots)
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
