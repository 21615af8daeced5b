"""gnubg Match IDs (and Position IDs) for every state of a match.

``match_id(state)`` gives the :class:`bgboard.rules.ids.MatchId` fields of a state;
``match_id_text(state)`` its 12-character text and ``position_id_text(state)`` the
14-character Position ID of the board from the view of the player on roll.
"""

from __future__ import annotations

from bgboard.match.state import DOUBLED, GAME_OVER, MATCH_OVER, OPENING, RESIGNED, MatchState
from bgboard.rules.ids import MatchId, encode_match_id, position_id

# gnubg game states: 0 no game, 1 playing, 2 over, 3 resigned, 4 dropped.
_ENDED = {"drop": 4, "resign": 3}


def match_id(state: MatchState) -> MatchId:
    """The Match ID fields of ``state`` (player 0 = gnubg's player 0)."""
    on_roll = state.turn if state.turn is not None else 0
    if state.phase in (GAME_OVER, MATCH_OVER):
        game_state = _ENDED.get(state.games[-1].result, 2)
    elif state.phase == OPENING:
        game_state = 0
    else:
        game_state = 1
    decider = state.decider if state.decider is not None else on_roll
    return MatchId(
        cube=state.cube,
        cube_owner=state.cube_owner,
        on_roll=on_roll,
        crawford=state.crawford,
        game_state=game_state,
        turn=decider,
        double_offered=state.phase == DOUBLED,
        resignation=state.resign_level if state.phase == RESIGNED else 0,
        dice=state.dice if state.dice is not None else (0, 0),
        match_length=state.length,
        score=state.score,
        jacoby=state.rules.jacoby,
    )


def match_id_text(state: MatchState) -> str:
    """The 12-character gnubg Match ID of ``state``."""
    return encode_match_id(match_id(state))


def position_id_text(state: MatchState) -> str:
    """The 14-character gnubg Position ID of the board seen by the player on roll."""
    return position_id(state.position)
