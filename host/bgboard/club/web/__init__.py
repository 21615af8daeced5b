"""The club's web pages (``bgboard club serve --http``): the room, boards, brackets, standings,
ratings, match records and the director's pages.  ``boardview`` and ``boardsvg`` are pure;
``app`` is the Starlette adapter."""
