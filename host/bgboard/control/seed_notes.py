"""What the display says about a seed (tavli) game (pure): the game in the tavli
rotation, Plakoto's pins and a mother checker in danger, Race's checkers waiting to enter,
and that no hint engine knows these games (so no backgammon hint is shown for them)."""

from __future__ import annotations

from bgboard.display.display_state import BoardDiagram, DisplayPhase, DisplayState
from bgboard.match.state import GAME_OVER, MATCH_OVER, OPENING, PLAY, TURN, MatchState
from bgboard.rules import plakoto
from bgboard.rules.games import variant

COLOURS = ("white", "black")


def hints_known(state: MatchState) -> bool:
    """False in a seed variant: gnubg, bgsage and pubeval play backgammon only."""
    return state.game_rules is None


def variant_notes(state: MatchState) -> tuple[str, ...]:
    """Short lines for the display (empty for plain backgammon)."""
    lines: list[str] = []
    if state.phase == GAME_OVER and state.games and state.games[-1].result == "draw":
        lines.append("a draw: both mother checkers pinned, no points; roll for the next game")
    played = variant(state.rules.variant)
    if played.rotates:
        following = played.game_title(state.game + 1)
        lines.append(f"{played.name} game {state.game}: {played.game_title(state.game)} (next {following})")
    game = state.game_rules
    if game is None:
        return tuple(lines)
    if not played.rotates:
        lines.append(game.title)
    lines.append(f"no hints: no engine knows {game.title}")
    if game.pins:
        for player in (0, 1):
            points = [_physical(player, p) for p in range(1, 25) if state.pins[player] >> p & 1]
            if points:
                where = ", ".join(str(p) for p in sorted(points))
                lines.append(f"{COLOURS[player]} pinned on {where}")
            side = state.board[player]
            if side[plakoto.START] == 1:
                start = _physical(player, plakoto.START)
                if state.pins[player] >> plakoto.START & 1:
                    lines.append(f"{COLOURS[player]}'s mother checker is pinned on {start}")
                else:
                    lines.append(f"{COLOURS[player]}'s mother checker is alone on {start}: in danger")
    if any(state.reserve):
        lines.append(f"to enter: white {state.reserve[0]}, black {state.reserve[1]}")
    return tuple(lines)


def display_state(state: MatchState, setup: tuple[str, ...] = (), diagram: tuple[int, ...] | None = None) -> DisplayState:
    """The display of a seed variant's game: the variant notes as the message and, instead
    of a backgammon hint, that no engine knows the game.  ``setup`` (the set-up lines of
    :func:`bgboard.sense.tavli.setup_text`) and ``diagram`` (24 signed physical counts)
    show the set-up guidance of a new game."""
    notes = variant_notes(state)
    hint = tuple(n.removeprefix("no hints: ") for n in notes if n.startswith("no hints"))
    message = tuple(n for n in notes if not n.startswith("no hints"))
    common = {
        "names": state.players,
        "match_length": state.length,
        "score": state.score,
        "cube": state.cube,
        "cube_owner": state.cube_owner,
        "hint": hint,
        "may_double": state.phase != TURN or state.may_double,  # the prompt: "to roll" alone
    }
    if setup:
        board = BoardDiagram(tuple(diagram), (0, 0), (0, 0)) if diagram is not None else None
        return DisplayState(phase=DisplayPhase.SETUP, title=("set up",), message=setup + message, diagram=board, **common)
    if state.phase in (GAME_OVER, MATCH_OVER) and state.games and state.games[-1].winner is not None:
        phase = DisplayPhase.MATCH_OVER if state.phase == MATCH_OVER else DisplayPhase.GAME_OVER
        last = state.games[-1]
        return DisplayState(phase=phase, winner=last.winner, message=message + (f"{last.result}: {last.points}",), **common)
    if state.phase in (GAME_OVER, MATCH_OVER):  # a draw: nobody won, the match goes on
        return DisplayState(phase=DisplayPhase.ROLLING, message=message + ("a draw: both mothers pinned",), **common)
    phase = DisplayPhase.OPENING if state.phase == OPENING else DisplayPhase.MOVING if state.phase == PLAY else DisplayPhase.ROLLING
    return DisplayState(phase=phase, turn=state.turn, dice=state.dice if state.phase == PLAY else None, message=message, **common)


def _physical(player: int, point: int) -> int:
    """Player ``player``'s own point on the physical board (white's numbering); Plakoto's
    sides go opposite ways."""
    return point if player == 0 else 25 - point


__all__ = ["display_state", "hints_known", "variant_notes"]
