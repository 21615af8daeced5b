"""The club: players, events, results, ratings (issue 11) and the room's live boards and pages.

The tournament director: players, events, pairings, results, FIBS ratings, standings.

Pure core (no I/O, no clock): ``model`` (data), ``ratings`` (FIBS), ``bracket`` (elimination
brackets), ``swiss``, ``formats`` (the four formats behind one interface), ``standings``
(tie-breaks), ``export`` (CSV and HTML text).  Adapter: ``db`` (SQLite, versioned
migrations, WAL, one transaction per change).  Service: ``director`` — every operation the
CLI and the web pages call (read its docstring).  docs/club.md explains it for directors.
``live`` and ``web`` are the room's live boards and pages (their own docstrings).
"""
