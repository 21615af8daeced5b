"""A federation of clubs (issue 36; docs/club-network.md, "A federation").

Pure core: :mod:`~bgboard.federation.stored_result` (a stored result),
:mod:`~bgboard.federation.rating_list` (the FIBS rating list over every club's results, by
:mod:`bgboard.club.ratings`' formula), :mod:`~bgboard.federation.season` (a season's
standings) and :mod:`~bgboard.federation.bridge_conf` (the broker files and a club's bridge,
as text).  Adapters: :mod:`~bgboard.federation.ledger` (the PostgreSQL database),
:mod:`~bgboard.federation.hub_broker` (the federation's Mosquitto files and process),
:mod:`~bgboard.federation.home` (the federation's folder), :mod:`~bgboard.federation.intake`
(the service taking the clubs' results exactly once), :mod:`~bgboard.federation.portal`
(the web pages) and :mod:`~bgboard.federation.live_watch` (every club's bridged live boards).  The club's side is :mod:`bgboard.club.federation_feed`; the messages
between them, :mod:`bgboard.net.results_feed`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bgboard.exports import exports

if TYPE_CHECKING:
    from bgboard.federation.home import Home, Settings
    from bgboard.federation.intake import ResultsIntake
    from bgboard.federation.ledger import Ledger
    from bgboard.federation.rating_list import RatingLine, rating_list
    from bgboard.federation.season import season_standings
    from bgboard.federation.stored_result import StoredResult

#: Each submodule and the public names it defines (imported when a name is first used: the
#: pure core does not load psycopg).
__getattr__ = exports(__name__, {
    "home": "Home Settings",
    "intake": "ResultsIntake",
    "ledger": "Ledger",
    "rating_list": "RatingLine rating_list",
    "season": "season_standings",
    "stored_result": "StoredResult",
})

__all__ = ["Home", "Ledger", "RatingLine", "ResultsIntake", "Settings", "StoredResult", "rating_list",
           "season_standings"]
