"""What the display says about a seed (tavli) game (pure): the game in the tavli
rotation, Plakoto's pins and a mother checker in danger, Race's checkers waiting to enter,
and that no hint engine knows these games (so no backgammon hint is shown for them)."""

from __future__ import annotations

from bgboard.language import Phrase
from bgboard.match.state import GAME_OVER, MatchState
from bgboard.rules import plakoto
from bgboard.rules.games import variant

COLOURS = (Phrase("white"), Phrase("black"))


def hints_known(state: MatchState) -> bool:
    """Whether a hint engine knows the game being played (the registry's :attr:`Game.hints`:
    gnubg, bgsage and pubeval play backgammon's starts only)."""
    return state.playing.hints


def variant_notes(state: MatchState) -> tuple[str, ...]:
    """Short lines for the display (empty for plain backgammon)."""
    lines: list[str] = []
    if state.phase == GAME_OVER and state.games and state.games[-1].result == "draw":
        lines.append(Phrase("a draw: both mother checkers pinned, no points; roll for the next game"))
    played = variant(state.rules.variant)
    if played.rotates:
        following = played.game_title(state.game + 1)
        lines.append(Phrase("%(variant)s game %(number)d: %(game)s (next %(following)s)", variant=played.name,
                            number=state.game, game=played.game_title(state.game), following=following))
    game = state.playing
    if not game.seed:
        return tuple(lines)
    if not played.rotates:
        lines.append(game.title)
    if not game.hints:
        lines.append(Phrase("no hints: %(what)s", what=Phrase("no engine knows %(game)s", game=game.title)))
    if game.pins:
        for player in (0, 1):
            points = [_physical(player, p) for p in range(1, 25) if state.pins[player] >> p & 1]
            if points:
                where = ", ".join(str(p) for p in sorted(points))
                lines.append(Phrase("%(colour)s pinned on %(points)s", colour=COLOURS[player], points=where))
            side = state.board[player]
            if side[plakoto.START] == 1:
                start = _physical(player, plakoto.START)
                if state.pins[player] >> plakoto.START & 1:
                    lines.append(Phrase("%(colour)s's mother checker is pinned on %(point)d", colour=COLOURS[player],
                                        point=start))
                else:
                    lines.append(Phrase("%(colour)s's mother checker is alone on %(point)d: in danger",
                                        colour=COLOURS[player], point=start))
    if any(state.reserve):
        lines.append(Phrase("to enter: white %(white)d, black %(black)d", white=state.reserve[0],
                            black=state.reserve[1]))
    return tuple(lines)


def _physical(player: int, point: int) -> int:
    """Player ``player``'s own point on the physical board (white's numbering); Plakoto's
    sides go opposite ways."""
    return point if player == 0 else 25 - point


__all__ = ["hints_known", "variant_notes"]
