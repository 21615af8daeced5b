"""SGF match records (``GM[6]``), written as gnubg's ``save match`` writes them.

One game tree per game: ``(;FF[4]GM[6]CA[UTF-8]AP[bgboard:V]MI[length:N][game:i][ws:a][bs:b]
PW[..]PB[..]RU[Crawford]RE[W+2]`` then one node per action: ``;W[52hcdh]`` (dice, then
``from``/``to`` letters: ``a``..``x`` are White's points 1..24, ``y`` the bar, ``z`` off;
Black's moves are written from White's side, as gnubg does), ``;B[double]``, ``;W[take]``,
``;W[drop]``.  A condoned illegal play (:class:`~bgboard.match.Condone`) is written as
gnubg writes an edited position (``MOVE_SETDICE`` then ``MOVE_SETBOARD`` in gnubg's
sgf.c): ``;PL[W]DI[52]`` for the roll, then ``;AE[a:y]AW[..]AB[..]`` — every place
cleared, then one letter per checker (White's from White's side, Black's as gnubg writes
them, ``y`` the bar; checkers borne off are not listed, nor an empty ``AW``/``AB``) — with ``PL[B]`` (the opponent on
roll) unless the play ended the game and a ``C[..]`` comment.  A game header carries its result, so SGF is written for whole games
(:func:`export_sgf`), unlike the appendable .mat.
"""

from __future__ import annotations

from typing import Iterable

from bgboard import __version__
from bgboard.match.actions import (
    AcceptResign,
    Action,
    Beaver,
    Condone,
    Double,
    Drop,
    Move,
    Pass,
    Take,
)
from bgboard.match.state import GAME_OVER, MATCH_OVER, MatchState, states
from bgboard.rules import BAR, fevga
from bgboard.rules.games import GAMES



def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


def _letter(point: int, player: int, same_way: bool = False) -> str:
    """gnubg's WriteMove: point (1..24 from the mover's view, 25 bar, 0 off) → letter.
    ``same_way``: Fevga, where Black's point q lies on White's point q ∓ 12."""
    if point == BAR:
        return "y"
    if point == 0:
        return "z"
    if player and same_way:
        return chr(ord("a") + fevga.theirs_at(point) - 1)
    index = point - 1
    return chr(ord("x") - index) if player else chr(ord("a") + index)


def _colour(player: int) -> str:
    return "B" if player else "W"


def _header(start: MatchState, end: MatchState) -> str:
    """The root node of one game: ``start`` is the state at its first action, ``end`` the
    state at its last."""
    out = [f"(;FF[4]GM[6]CA[UTF-8]AP[bgboard:{__version__}]"]
    out.append(f"MI[length:{start.length}][game:{start.game - 1}][ws:{start.score[0]}][bs:{start.score[1]}]")
    out.append(f"PW[{_escape(start.players[0])}]PB[{_escape(start.players[1])}]")
    rules: list[str] = []
    if start.rules.crawford and start.length > 1:
        rules.append("Crawford")
    if start.crawford:
        rules.append("CrawfordGame")
    if start.rules.money and start.rules.jacoby:
        rules.append("Jacoby")
    sgf_name = start.playing.sgf_name  # the registry's (the seed games' are bgboard's extension; in tavli each game's own)
    if sgf_name is not None:
        rules.append(sgf_name)
    if rules:
        out.append(f"RU[{':'.join(rules)}]")
    if end.phase in (GAME_OVER, MATCH_OVER) and len(end.games) >= start.game:
        game = end.games[start.game - 1]
        if game.winner is None:
            out.append("RE[0]")  # SGF's draw (Plakoto: both mothers pinned)
        else:
            out.append(f"RE[{_colour(game.winner)}+{game.points}{'R' if game.result == 'resign' else ''}]")
    return "".join(out)


def _setup(action: Condone, before: MatchState) -> str:
    """gnubg's nodes for an edited position: the dice, then the board as the mover left it."""
    turn = before.turn
    assert turn is not None and before.dice is not None
    sides = (action.mine, action.theirs) if turn == 0 else (action.theirs, action.mine)
    white = "".join(f"[{_letter(p, 0)}]" * sides[0][p] for p in range(1, BAR + 1))
    black = "".join(f"[{_letter(p, 1)}]" * sides[1][p] for p in range(1, BAR + 1))
    over = action.mine[0] == before.checkers
    d1, d2 = before.dice
    return (
        f"\n;PL[{_colour(turn)}]DI[{d1}{d2}]"
        f"\n;AE[a:y]{'AW' + white if white else ''}{'AB' + black if black else ''}"
        f"{'' if over else f'PL[{_colour(1 - turn)}]'}"
        f"C[illegal play of {d1}-{d2} condoned]"
    )


def _node(action: Action, before: MatchState) -> str:
    turn = before.turn
    if isinstance(action, Condone):
        return _setup(action, before)
    if isinstance(action, (Move, Pass)):
        assert turn is not None and before.dice is not None
        steps = action.steps if isinstance(action, Move) else ()
        same_way = GAMES[before.variant].same_way
        letters = "".join(_letter(a, turn, same_way) + _letter(b, turn, same_way) for a, b in steps)
        return f"\n;{_colour(turn)}[{before.dice[0]}{before.dice[1]}{letters}]"
    if isinstance(action, Double):
        assert turn is not None
        return f"\n;{_colour(turn)}[double]"
    if isinstance(action, (Take, Beaver)):
        assert turn is not None
        return f"\n;{_colour(1 - turn)}[take]"
    if isinstance(action, Drop):
        assert turn is not None
        return f"\n;{_colour(1 - turn)}[drop]"
    if isinstance(action, AcceptResign) and before.dice is not None:
        assert turn is not None
        return f"\n;PL[{_colour(turn)}]DI[{before.dice[0]}{before.dice[1]}]"
    return ""


def export_sgf(actions: Iterable[Action]) -> str:
    """The SGF text of an action log (one game tree per game started)."""
    return sgf_of_states(states(actions))


def sgf_of_states(replayed: Iterable[tuple[Action, MatchState, MatchState | None]]) -> str:
    """The SGF text of a log already replayed (:func:`bgboard.match.state.states`)."""
    games: list[tuple[MatchState, MatchState, list[str]]] = []
    for action, after, before in replayed:
        if before is None or after.game != before.game:
            games.append((after, after, []))
        else:
            start, _end, nodes = games[-1]
            nodes.append(_node(action, before))
            games[-1] = (start, after, nodes)
    return "".join(_header(start, end) + "".join(nodes) + ")\n" for start, end, nodes in games)
