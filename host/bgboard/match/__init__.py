"""Match play (pure code): the match/cube/Crawford state machine, rule sets, records.

The API (documented in docs/match.md)::

    from bgboard.match import StartMatch, OpeningRoll, Roll, Move, apply, replay
    state = apply(None, StartMatch(length=5, rules="standard", players=("Ann", "Bob")))
    state = apply(state, OpeningRoll((5, 3)))       # player 0 wins the opening roll
    state = apply(state, Move(((13, 8), (6, 3))))   # steps from the mover's view
    state.phase, state.turn, state.score, state.cube, state.cube_owner, state.crawford

An action the rules forbid raises :class:`MatchRuleError` naming the rule.  Under
``illegal_plays="condone"`` a :class:`Condone` records an illegal (but condonable) play as
the board shows it.

Match records: :func:`export_mat` writes a log as gnubg writes ``.mat`` files;
:func:`import_mat` reads any ``.mat`` file gnubg imports into an :class:`ImportedMatch`
(players, length, games, score, every problem with its line); :func:`read_mat` is its
strict form giving an action log.
"""

from bgboard.match.actions import (
    ACTION_TYPES,
    AcceptResign,
    Action,
    Beaver,
    Condone,
    Double,
    Drop,
    Move,
    NextGame,
    OpeningRoll,
    Pass,
    RejectResign,
    Resign,
    Roll,
    StartMatch,
    Take,
    action_from_dict,
    action_to_dict,
)
from bgboard.match.json_codec import from_json, log_from_json, log_to_json, to_json
from bgboard.match.rule_errors import IllegalPlayError, MatchRecordError, MatchRuleError
from bgboard.match.mat_read import import_mat, read_mat
from bgboard.match.mat_types import ImportedMatch, MatGame, MatPlay, MatProblem
from bgboard.match.mat_write import MatInfo, export_mat
from bgboard.match.ruleset import ILLEGAL_PLAYS, PRESETS, RuleSet, UnknownRuleSetError, rule_set
from bgboard.match.state import (
    DOUBLED,
    GAME_OVER,
    MATCH_OVER,
    OPENING,
    PHASES,
    PLAY,
    RESIGNED,
    TURN,
    GameRecord,
    MatchState,
    apply,
    replay,
    start,
    states,
)

__all__ = [
    "ACTION_TYPES", "AcceptResign", "Action", "Beaver", "Condone", "DOUBLED", "Double", "Drop",
    "ILLEGAL_PLAYS",
    "GAME_OVER", "GameRecord", "IllegalPlayError", "ImportedMatch", "MATCH_OVER", "MatGame",
    "MatInfo", "MatPlay", "MatProblem", "MatchRecordError", "export_mat", "import_mat", "read_mat",
    "MatchRuleError", "MatchState", "Move", "NextGame", "OPENING", "OpeningRoll", "PHASES",
    "PLAY", "PRESETS", "Pass", "RESIGNED", "RejectResign", "Resign", "Roll", "RuleSet",
    "StartMatch", "TURN", "Take", "UnknownRuleSetError", "action_from_dict",
    "action_to_dict", "apply", "from_json", "log_from_json", "log_to_json", "replay",
    "rule_set", "start", "states", "to_json",
]
