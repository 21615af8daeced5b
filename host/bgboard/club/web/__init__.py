"""The club's web pages (``bgboard club serve --http``): the room, boards, brackets, standings,
ratings, match records and the director's pages.  ``boardview`` and ``board_picture`` are pure;
``site`` is the Starlette adapter (imported with the names that need it, on first use:
:mod:`bgboard.exports`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bgboard.exports import exports

if TYPE_CHECKING:
    from bgboard.club.web.board_picture import board_svg
    from bgboard.club.web.boardview import board_view
    from bgboard.club.web.password import hash_password, verify
    from bgboard.club.web.server import club_site, parse_listen, serve_club, serve_http
    from bgboard.club.web.site import Site, create_app

#: Each submodule and the public names it defines (imported when a name is first used).
__getattr__ = exports(__name__, {
    "board_picture": "board_svg",
    "boardview": "board_view",
    "password": "hash_password verify",
    "server": "club_site parse_listen serve_club serve_http",
    "site": "Site create_app",
})

__all__ = [
    "Site", "board_svg", "board_view", "club_site", "create_app", "hash_password", "parse_listen",
    "serve_club", "serve_http", "verify",
]
