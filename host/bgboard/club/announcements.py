"""What ``bgboard club`` tells the players at the terminal (pure): the standings, the ratings,
a round's pairings — in the players' language (the ``club`` catalogue; ``--lang``, else the
locale, else English).  The director's own messages and the errors stay English.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from bgboard.club.vocabulary import named
from bgboard.language import Words, say, say_n


def standings_lines(rows: Iterable[Any], words: Words) -> list[str]:
    """One line per player: rank, name, won, lost, points, the tie-breaks, the status."""
    lines = []
    for r in rows:
        tb = ", ".join(f"{named(words, k)} {v:g}" for k, v in r.tiebreaks.items())
        lines.append(say(words, "%(rank)s. %(name)s: %(won)s won, %(lost)s lost, points %(points_for)s-"
                                "%(points_against)s, %(tiebreaks)s, %(status)s",
                         rank=r.rank, name=r.name, won=r.wins, lost=r.losses, points_for=r.points_for,
                         points_against=r.points_against, tiebreaks=tb, status=named(words, r.status)))
    return lines


def rating_lines(players: Iterable[Any], words: Words) -> list[str]:
    """One line per player: name, rating, experience."""
    return [say(words, "%(name)s: %(rating)s (experience %(experience)s)", name=p.name,
                rating=format(p.rating, ".2f"), experience=p.experience) for p in players]


def pairing_lines(number: int, matches: Sequence[Any], byes: Sequence[str], walkovers: Sequence[Any],
                  words: Words) -> list[str]:
    """A round's pairings: each match with its board and length, the byes, the walkovers."""
    lines = []
    for m in matches:
        length = say_n(words, "%(n)d point", "%(n)d points", m.length)
        lines.append(say(words, "round %(round)s board %(board)s: match %(number)s %(first)s v %(second)s, "
                                "%(length)s (%(flight)s)",
                         round=number, board=m.board, number=m.number, first=m.players[0], second=m.players[1],
                         length=length, flight=named(words, m.flight))
                     + (f" [id {m.id}]" if m.id != m.number else ""))
    for name in byes:
        lines.append(say(words, "round %(round)s: %(name)s has a bye", round=number, name=name))
    for m in walkovers:
        lines.append(say(words, "round %(round)s: match %(number)s %(first)s v %(second)s goes to %(winner)s "
                                "(withdrawn opponent)",
                         round=number, number=m.number, first=m.players[0], second=m.players[1], winner=m.winner))
    return lines


__all__ = ["pairing_lines", "rating_lines", "standings_lines"]
