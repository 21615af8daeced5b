"""A finished match's record, game by game, for its page (pure).

The ``.mat`` text is read by ``bgboard.match.mat.read_mat`` and replayed by the match state
machine, so the page shows exactly what the record holds: each turn's roll and play (gnubg's
notation), each cube action, and how each game ended, in the page's language (the ``club``
catalogue; the plays stay in gnubg's notation).  A record that does not read gives
:class:`~bgboard.match.rule_errors.MatchRecordError` (one sentence) and the page says so.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bgboard.language import ENGLISH, N_, Words, say, say_n
from bgboard.match import (
    AcceptResign, Beaver, Condone, Double, Drop, Move, NextGame, OpeningRoll, Pass,
    RejectResign, Resign, Roll, StartMatch, Take,
)
from bgboard.match.mat import format_steps, read_mat
from bgboard.match.state import GAME_OVER, MATCH_OVER, states

RESULT_WORDS = {"single": N_("a single game"), "gammon": N_("a gammon"), "backgammon": N_("a backgammon"),
                "drop": N_("a dropped double"), "resign": N_("a resignation")}
LEVELS = {1: N_("a single game"), 2: N_("a gammon"), 3: N_("a backgammon")}


@dataclass
class Turn:
    """One line of the record: the ``player`` (0/1) and what happened, in words."""

    player: int | None
    dice: str
    text: str
    cube: bool = False


@dataclass
class Game:
    number: int
    score: tuple[int, int]
    crawford: bool
    turns: list[Turn] = field(default_factory=list)
    end: str = ""


@dataclass
class Record:
    players: tuple[str, str]
    length: int
    games: list[Game]
    score: tuple[int, int]
    winner: int | None


def _dice(dice: tuple[int, int] | None) -> str:
    return f"{dice[0]}{dice[1]}" if dice else ""


def read_record(mat_text: str, words: Words = ENGLISH) -> Record:
    """The record of a ``.mat`` text in ``words``' language (raises ``MatchRecordError`` if it
    does not read)."""
    rolls, cannot = say(words, "rolls"), say(words, "cannot move")
    games: list[Game] = []
    state = None
    for action, after, before in states(read_mat(mat_text)):
        state = after
        if isinstance(action, StartMatch) or (isinstance(action, NextGame)):
            games.append(Game(after.game, after.score, after.crawford))
            continue
        game = games[-1]
        mover = before.turn if before is not None else None
        decider = before.decider if before is not None else None
        if isinstance(action, OpeningRoll):
            if after.turn is not None:
                game.turns.append(Turn(None, _dice(action.dice), say(words, "opening roll: %(name)s starts",
                                                                       name=after.players[after.turn])))
        elif isinstance(action, Roll):
            game.turns.append(Turn(mover, _dice(action.dice), rolls))
        elif isinstance(action, Move):
            assert before is not None
            text = format_steps(before.position, action.steps).strip()
            if game.turns and game.turns[-1].player == mover and game.turns[-1].text == rolls:
                game.turns[-1].text = text
            else:
                game.turns.append(Turn(mover, _dice(before.dice), text))
        elif isinstance(action, Condone):
            game.turns.append(Turn(mover, _dice(before.dice if before else None), say(words, "illegal play, condoned")))
        elif isinstance(action, Pass):
            if game.turns and game.turns[-1].player == mover and game.turns[-1].text == rolls:
                game.turns[-1].text = cannot
            else:
                game.turns.append(Turn(mover, _dice(before.dice if before else None), cannot))
        elif isinstance(action, Double):
            assert before is not None
            game.turns.append(Turn(mover, "", say(words, "doubles to %(cube)s", cube=2 * before.cube), cube=True))
        elif isinstance(action, Take):
            game.turns.append(Turn(decider, "", say(words, "takes (cube at %(cube)s)", cube=after.cube), cube=True))
        elif isinstance(action, Beaver):
            game.turns.append(Turn(decider, "", say(words, "beavers to %(cube)s", cube=after.cube), cube=True))
        elif isinstance(action, Drop):
            game.turns.append(Turn(decider, "", say(words, "drops"), cube=True))
        elif isinstance(action, Resign):
            level = LEVELS.get(action.level)
            game.turns.append(Turn(mover, "", say(words, "resigns %(what)s", what=say(words, level)) if level else
                                   say(words, "resigns")))
        elif isinstance(action, AcceptResign):
            game.turns.append(Turn(decider, "", say(words, "accepts the resignation")))
        elif isinstance(action, RejectResign):
            game.turns.append(Turn(decider, "", say(words, "rejects the resignation")))
        if after.phase in (GAME_OVER, MATCH_OVER) and (before is None or before.phase not in (GAME_OVER, MATCH_OVER)):
            last = after.games[-1]
            how = RESULT_WORDS.get(last.result)
            game.end = say(words, "the game is a draw") if last.winner is None else say_n(
                words, "%(name)s wins %(n)d point with %(result)s", "%(name)s wins %(n)d points with %(result)s",
                last.points, name=after.players[last.winner], result=say(words, how) if how else last.result)
    assert state is not None
    return Record(tuple(state.players), state.length, games, tuple(state.score), state.winner)  # type: ignore[arg-type]
