"""The club: players, events, results, ratings (issue 11) and the room's live boards and pages.

The tournament director: players, events, pairings, results, FIBS ratings, standings.

Pure core (no I/O, no clock): ``model`` (data), ``ratings`` (FIBS), ``bracket`` (elimination
brackets), ``swiss``, ``formats`` (the four formats behind one interface), ``standings``
(tie-breaks), ``csv_export`` (CSV text), ``printing`` (draw sheets and match slips as HTML),
``payouts`` (the pot and its split).  Adapters: ``db`` (SQLite, versioned migrations, WAL, one
transaction per change, and the services' queries), ``backup`` (SQLite's online backup,
restore), ``audit`` (the log), ``rating_store`` (ratings kept).  Service: ``director`` — every
operation the CLI and the web pages call (read its docstring), with its ``views``, ``checks``,
``results`` and ``pairing`` — ``operations`` (the table of audited operations, ``replay_audit``) and ``evening``
(check-in, late entries, payouts, per-event match numbers, the backup after each round).  docs/club.md explains it for directors.
``live_boards`` and ``web`` are the room's live boards and pages (their own docstrings).

The public names are imported on first use (:mod:`bgboard.exports`): the pure core does not
load SQLite, MQTT or Starlette.  ``Director`` is the tournament director's service;
``boards`` holds the director's link to the boards over MQTT (``boards.DirectorLink``), with
``board_limits`` (pure), ``board_checks`` (run in worker processes), ``board_tournament``,
``board_gate``, ``board_outbox`` and ``board_checking``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bgboard.exports import exports

if TYPE_CHECKING:
    from bgboard.club import boards, bracket, formats, standings, swiss, web
    from bgboard.club.board_tournament import ClubTournament
    from bgboard.club.boards import DirectorSettings, serve_boards
    from bgboard.club.checks import MAX_MAT, parse_score
    from bgboard.club.db import Club
    from bgboard.club.director import Director
    from bgboard.club.live_boards import BadBoardError, LiveHub
    from bgboard.club.model import (
        CHAMPION,
        CONSOLATION_WINNER,
        ELIMINATED,
        FORMATS,
        Entrant,
        EventSpec,
        Played,
    )
    from bgboard.club.operations import replay_audit
    from bgboard.club.ratings import RatedResult, Rating, fibs_change, k_factor, rate, upset_probability

#: Each submodule and the public names it defines (imported when a name is first used).
__getattr__ = exports(__name__, {
    ".": "boards bracket formats standings swiss web",
    "board_tournament": "ClubTournament",
    "boards": "DirectorSettings serve_boards",
    "checks": "MAX_MAT parse_score",
    "db": "Club",
    "director": "Director",
    "live_boards": "BadBoardError LiveHub",
    "model": "CHAMPION CONSOLATION_WINNER ELIMINATED FORMATS Entrant EventSpec Played",
    "operations": "replay_audit",
    "ratings": "RatedResult Rating fibs_change k_factor rate upset_probability",
})

__all__ = [
    "CHAMPION", "CONSOLATION_WINNER", "ELIMINATED", "FORMATS", "MAX_MAT", "BadBoardError", "Club",
    "ClubTournament", "Director", "DirectorSettings", "Entrant", "EventSpec", "LiveHub", "Played",
    "RatedResult", "Rating", "boards", "bracket", "fibs_change", "formats", "k_factor",
    "parse_score", "rate", "replay_audit", "serve_boards", "standings", "swiss",
    "upset_probability", "web",
]
