"""JSON for match states and action logs.

``to_json(state)`` / ``from_json(text)`` round-trip a :class:`MatchState` exactly;
``log_to_json(actions)`` / ``log_from_json(text)`` do the same for an action log.
"""

from __future__ import annotations

import json
from typing import Any, Sequence, cast

from bgboard.match.actions import Action, action_from_dict, actions_to_list
from bgboard.match.rule_errors import MatchRecordError
from bgboard.match.ruleset import RuleSet
from bgboard.match.state import GameRecord, MatchState, Phase


def state_to_dict(state: MatchState) -> dict[str, Any]:
    """A JSON-ready dict of every field."""
    return {
        "rules": state.rules.to_dict(),
        "length": state.length,
        "players": list(state.players),
        "score": list(state.score),
        "game": state.game,
        "phase": str(state.phase),
        "board": [list(state.board[0]), list(state.board[1])],
        "turn": state.turn,
        "dice": list(state.dice) if state.dice is not None else None,
        "cube": state.cube,
        "cube_owner": state.cube_owner,
        "crawford": state.crawford,
        "post_crawford": state.post_crawford,
        "resign_level": state.resign_level,
        "games": [
            {
                "number": g.number,
                "winner": g.winner,
                "points": g.points,
                "cube": g.cube,
                "result": g.result,
                "level": g.level,
                "crawford": g.crawford,
            }
            for g in state.games
        ],
        "checkers": state.checkers,
        "pins": list(state.pins),
        "reserve": list(state.reserve),
    }


def state_from_dict(data: dict[str, Any]) -> MatchState:
    """Rebuild a state written by :func:`state_to_dict` (bad data: MatchRecordError)."""
    try:
        phase = Phase(str(data["phase"]))  # ValueError for an unknown phase
        board = tuple(tuple(int(n) for n in side) for side in data["board"])
        if len(board) != 2 or any(len(side) != 26 for side in board):
            raise ValueError("board")
        dice = data["dice"]
        state = MatchState(
            rules=RuleSet.from_dict(data["rules"]),
            length=int(data["length"]),
            players=(str(data["players"][0]), str(data["players"][1])),
            score=(int(data["score"][0]), int(data["score"][1])),
            game=int(data["game"]),
            phase=phase,
            board=(board[0], board[1]),
            turn=None if data["turn"] is None else int(data["turn"]),
            dice=None if dice is None else (int(dice[0]), int(dice[1])),
            cube=int(data["cube"]),
            cube_owner=None if data["cube_owner"] is None else int(data["cube_owner"]),
            crawford=bool(data["crawford"]),
            post_crawford=bool(data["post_crawford"]),
            resign_level=int(data["resign_level"]),
            games=tuple(
                GameRecord(
                    number=int(g["number"]),
                    winner=None if g["winner"] is None else int(g["winner"]),
                    points=int(g["points"]),
                    cube=int(g["cube"]),
                    result=str(g["result"]),
                    level=int(g["level"]),
                    crawford=bool(g["crawford"]),
                )
                for g in data["games"]
            ),
            checkers=int(data["checkers"]),
            pins=_pair(data.get("pins", [0, 0])),  # older journals: backgammon only
            reserve=_pair(data.get("reserve", [0, 0])),
        )
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise MatchRecordError(f"the saved match state is malformed ({exc})") from None
    problem = _problem(state)
    if problem:
        raise MatchRecordError(f"the saved match state is impossible: {problem}")
    return state


def _pair(value: Any) -> tuple[int, int]:
    if not isinstance(value, list):
        raise ValueError("pins and reserve are pairs of numbers")
    pair = cast(list[Any], value)
    if len(pair) != 2:
        raise ValueError("pins and reserve are pairs of numbers")
    return int(pair[0]), int(pair[1])


def _problem(state: MatchState) -> str | None:
    """The first reason ``state`` cannot occur, or ``None``."""
    for player, side in enumerate(state.board):
        if min(side) < 0 or state.reserve[player] < 0 or sum(side) + state.reserve[player] != state.checkers:
            return f"player {player} does not have {state.checkers} checkers"
    if state.cube < 1 or state.cube & (state.cube - 1):
        return f"a cube of {state.cube}"
    if state.turn not in (None, 0, 1) or state.cube_owner not in (None, 0, 1):
        return "players are 0 and 1"
    if state.dice is not None and not all(1 <= d <= 6 for d in state.dice):
        return f"dice {state.dice}"
    if min(state.score) < 0 or state.length < 0:
        return "a negative score or length"
    return None


def to_json(state: MatchState) -> str:
    """The state as compact, key-sorted JSON."""
    return json.dumps(state_to_dict(state), sort_keys=True, separators=(",", ":"))


def from_json(text: str) -> MatchState:
    """Rebuild a state from :func:`to_json` text."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        raise MatchRecordError("the saved match state is not JSON") from None
    if not isinstance(data, dict):
        raise MatchRecordError("the saved match state is not a JSON object")
    return state_from_dict(cast(dict[str, Any], data))


def log_to_json(actions: Sequence[Action]) -> str:
    """An action log as JSON (a list of action objects)."""
    return json.dumps(actions_to_list(actions), separators=(",", ":"))


def log_from_json(text: str) -> list[Action]:
    """Rebuild an action log written by :func:`log_to_json`."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        raise MatchRecordError("the match log is not JSON") from None
    if not isinstance(data, list):
        raise MatchRecordError("the match log is not a JSON list")
    return [action_from_dict(item) for item in cast(list[dict[str, Any]], data)]
