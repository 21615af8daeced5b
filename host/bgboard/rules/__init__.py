"""The rules engine: positions, dice, legal plays and steps, notation, IDs, and the registry of
the games bgboard plays (:mod:`bgboard.rules.games`) (pure code)."""

from bgboard.rules import ids
from bgboard.rules.ids import (
    GAME_STATES,
    InvalidIdError,
    MatchId,
    Xgid,
    decode_match_id,
    encode_match_id,
    parse_position,
    position_from_id,
    position_id,
    xgid_decode,
    xgid_encode,
)
from bgboard.rules.explain import explain
from bgboard.rules.legal import IllegalStepError, InvalidDiceError, legal_plays, legal_steps, steps_to
from bgboard.rules.notation import IllegalPlayError, NotationError, flip_points, parse_dice
from bgboard.rules.reading import AmbiguousPlayError, Reading, parse_play, read_play
from bgboard.rules.play import Play, format_play
from bgboard.rules.position import BAR, CHECKERS, OFF, InvalidPositionError, Position
from bgboard.rules.result import GameResult, game_result, is_race, pip_counts
from bgboard.rules.step import Step, apply_step
from bgboard.rules.starts import STARTS, UnknownVariantError, checkers_of, start_position

__all__ = [
    "BAR",
    "GAME_STATES",
    "MatchId",
    "Xgid",
    "decode_match_id",
    "encode_match_id",
    "xgid_decode",
    "xgid_encode",
    "CHECKERS",
    "OFF",
    "GameResult",
    "IllegalPlayError",
    "NotationError",
    "explain",
    "parse_dice",
    "parse_play",
    "read_play",
    "Reading",
    "AmbiguousPlayError",
    "flip_points",
    "parse_position",
    "IllegalStepError",
    "InvalidDiceError",
    "InvalidIdError",
    "InvalidPositionError",
    "Play",
    "Position",
    "Step",
    "UnknownVariantError",
    "STARTS",
    "apply_step",
    "checkers_of",
    "format_play",
    "game_result",
    "ids",
    "is_race",
    "legal_plays",
    "legal_steps",
    "steps_to",
    "pip_counts",
    "position_from_id",
    "position_id",
    "start_position",
]
