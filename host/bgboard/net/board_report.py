"""What a board reports to the club, built from its match (pure: time is passed in).

:func:`board_state` is the retained ``state`` message of a match as it stands;
:func:`result_of` the ``result`` message of a finished match, with its whole .mat record
written by :func:`bgboard.match.mat.export_mat` (the writer gnubg is checked against).
"""

from __future__ import annotations

from typing import Sequence

from bgboard.match.actions import Action
from bgboard.match.mat import MatInfo, export_mat
from bgboard.match.matchid import match_id_text, position_id_text
from bgboard.match.state import MatchState
from bgboard.net.protocol import Assignment, BoardState, Game, Result


def board_state(
    state: MatchState,
    now_ms: int,
    *,
    clocks: tuple[int, int] | None = None,
    clock_running: int | None = None,
    assignment: Assignment | None = None,
    match_uuid: str = "",
) -> BoardState:
    """The ``state`` message of ``state`` at ``now_ms``."""
    return BoardState(
        players=state.players,
        length=state.length,
        score=state.score,
        cube=state.cube,
        cube_owner=state.cube_owner,
        crawford=state.crawford,
        turn=state.turn,
        dice=state.dice,
        position_id=position_id_text(state),
        match_id=match_id_text(state),
        phase=state.phase,
        game=state.game,
        updated_ms=int(now_ms),
        clocks=clocks,
        clock_running=clock_running,
        event=assignment.event if assignment is not None else "",
        match=assignment.match if assignment is not None else 0,
        match_uuid=match_uuid,
    )


def mat_info(assignment: Assignment | None) -> MatInfo | None:
    """The .mat header tags of a club match (event and round), None outside the club."""
    if assignment is None or not assignment.match:
        return None
    return MatInfo(event=assignment.event, round=str(assignment.round) if assignment.round else None)


def result_of(
    actions: Sequence[Action],
    state: MatchState,
    *,
    uuid: str,
    board: int,
    assignment: Assignment | None,
    last_seq: int,
    finished_ms: int,
    forfeit: int | None = None,
) -> Result:
    """The ``result`` message of a finished match (``forfeit``: the player who lost on time)."""
    if forfeit is not None:
        winner = 1 - forfeit
    elif (won := state.winner) is not None:
        winner = won
    else:
        raise ValueError("the match is not over")
    return Result(
        uuid=uuid,
        board=board,
        event=assignment.event if assignment is not None else "",
        match=assignment.match if assignment is not None else 0,
        players=state.players,
        length=state.length,
        score=state.score,
        winner=winner,
        # a drawn game (Plakoto) has no winner and the club protocol has no draw yet
        games=tuple(Game(g.winner, g.points, g.result) for g in state.games),  # pyright: ignore[reportArgumentType]
        mat=export_mat(actions, mat_info(assignment)),
        last_seq=last_seq,
        finished_ms=int(finished_ms),
        forfeit=forfeit,
    )
