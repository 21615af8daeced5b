"""A board of the club's pages as SVG text, from a :class:`~.boardview.BoardView` (pure): the
picture is :func:`bgboard.boardsvg.board_svg`'s, its title the board, players and score.
"""

from __future__ import annotations

from bgboard.boardsvg import board_svg as draw
from bgboard.club.web.boardview import BoardView
from bgboard.language import ENGLISH, Words, say


def title(view: BoardView, words: Words = ENGLISH) -> str:
    """The picture's one-line description (unescaped), in ``words``' language."""
    white, black = view.name(0, words), view.name(1, words)
    score = f" {view.score[0]}-{view.score[1]}" if view.score else ""
    return say(words, "Board %(number)s: %(white)s (white) v %(black)s (black)", number=view.board,
               white=white, black=black) + score


def board_svg(view: BoardView, words: Words = ENGLISH) -> str:
    """The board as a standalone ``<svg>`` element (a string; safe to put in HTML)."""
    return draw(view.sides, title(view, words), cube=view.cube, cube_owner=view.cube_owner, dice=view.dice,
                turn=view.turn)
