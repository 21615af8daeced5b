"""What the e-ink display shows during a simulated match (pure: match state -> DisplayState).

The host controller builds the same kind of :class:`bgboard.display.state.DisplayState`;
this is the simulator's mapping from a :class:`bgboard.match.state.MatchState` and the
latest message (an illegal play's reason, a result).
"""

from __future__ import annotations

from bgboard.display.state import DisplayState
from bgboard.match.state import DOUBLED, GAME_OVER, MATCH_OVER, OPENING, PLAY, MatchState

_PHASES = {
    OPENING: "opening",
    "turn": "rolling",
    PLAY: "moving",
    DOUBLED: "cube-offered",
    GAME_OVER: "game-over",
    MATCH_OVER: "match-over",
    "resigned": "rolling",
}


def display_state(state: MatchState, message: str = "", severity: str = "info") -> DisplayState:
    """The display for ``state`` with an optional one-line ``message``."""
    turn = state.turn
    pips = None
    if turn is not None:
        white, black = state.board
        pips = (sum(i * n for i, n in enumerate(white)), sum(i * n for i, n in enumerate(black)))
    crawford = "crawford" if state.crawford else ("post-crawford" if state.post_crawford else "none")
    phase = _PHASES.get(state.phase, "rolling")
    winner = None
    if phase in ("game-over", "match-over") and state.games:
        winner = state.games[-1].winner
        if not message:
            g = state.games[-1]
            unit = "point" if g.points == 1 else "points"
            message = f"{state.players[g.winner]} wins {g.points} {unit} ({g.result})"
    dice = state.dice if phase == "moving" else None
    score = state.score
    if state.length and max(score) > state.length:
        # The display refuses a score above the length (a gammon or a cube at the end of a
        # match does overshoot); show the winner at the length until it accepts more.
        score = (min(score[0], state.length), min(score[1], state.length))
    return DisplayState(
        names=state.players,
        match_length=state.length,
        score=score,
        crawford=crawford,
        cube=state.cube,
        cube_owner=state.cube_owner,
        turn=turn if phase not in ("opening", "game-over", "match-over") else None,
        dice=dice,
        pips=pips,
        phase=phase,
        winner=winner,
        message=(message,) if message else (),
        severity=severity,
    )
