"""The club's stored words as the pages say them (pure): an event's format and status, a
player's standing, a match's state, a flight, a tie-break.

The club database keeps these as fixed English codes (``double-elimination``, ``runner-up``,
``median_buchholz``); :func:`named` says one in the page's language (the ``club`` catalogue),
and a code it does not know stays as it is.
"""

from __future__ import annotations

from bgboard.language import N_, Words

#: Each stored code and its words (in English the code itself, as the pages showed it before).
NAMES: dict[str, str] = {
    # formats (bgboard.club.model)
    "double-elimination": N_("double-elimination"),
    "single-elimination": N_("single-elimination"),
    "swiss": N_("swiss"),
    "round-robin": N_("round-robin"),
    # an event's status
    "open": N_("open"),
    "running": N_("running"),
    "finished": N_("finished"),
    # a player's standing
    "playing": N_("playing"),
    "eliminated": N_("eliminated"),
    "champion": N_("champion"),
    "runner-up": N_("runner-up"),
    "consolation-winner": N_("consolation-winner"),
    "last-chance-winner": N_("last-chance-winner"),
    "withdrawn": N_("withdrawn"),
    # a match
    "pending": N_("pending"),
    "forfeit": N_("forfeit"),
    "bye": N_("bye"),
    # flights
    "main": N_("main"),
    "consolation": N_("consolation"),
    "last-chance": N_("last-chance"),
    # tie-breaks (bgboard.club.standings)
    "head_to_head": N_("head to head"),
    "buchholz": N_("buchholz"),
    "median_buchholz": N_("median buchholz"),
    "points_difference": N_("points difference"),
    "penalty_points": N_("penalty points"),
}


def named(words: Words, code: object) -> str:
    """``code`` (a stored word) in ``words``' language; an unknown code as it is."""
    text = "" if code is None else str(code)
    english = NAMES.get(text)
    return words.gettext(english) if english is not None else text.replace("_", " ")


__all__ = ["NAMES", "named"]
