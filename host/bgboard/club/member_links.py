"""A club player's federation member id (service): ``bgboard club player link NAME MEMBER-ID``.

The results the club sends its federation (:mod:`bgboard.club.federation_feed`) carry each
player's member id, so one member's matches at every club are one line of the federation's
rating list.  A member id belongs to one player of the club; linking again replaces it; the
change is audited (``player_link``) like every other.
"""

from __future__ import annotations

from bgboard.club import audit, db as queries
from bgboard.club.audit import now
from bgboard.club.checks import clean_name
from bgboard.club.db import Club
from bgboard.errors import InputError
from bgboard.net.results_feed import check_member_id


def link_member(club: Club, name: str, member_id: str, *, actor: str = "director", at: str | None = None) -> str:
    """Link the player ``name`` to the federation member ``member_id``; the player's name."""
    member_id = check_member_id(str(member_id).strip())
    with club.transaction() as db:
        pid = queries.player_id(db, name)
        row = db.execute("SELECT name, member_id FROM players WHERE id = ?", (pid,)).fetchone()
        other = db.execute("SELECT name FROM players WHERE member_id = ? AND id != ?", (member_id, pid)).fetchone()
        if other is not None:
            raise InputError(f"member {member_id} is already linked to {other['name']!r} in this club: "
                             "one member is one player")
        db.execute("UPDATE players SET member_id = ? WHERE id = ?", (member_id, pid))
        audit.write(db, "player_link", {"name": clean_name(name), "member_id": member_id},
                    {"member_id": row["member_id"]}, {"member_id": member_id}, actor, at or now())
    return str(row["name"])


def member_ids(club: Club) -> dict[str, str]:
    """Every linked player's member id by name."""
    return {r["name"]: r["member_id"] for r in
            club.conn.execute("SELECT name, member_id FROM players WHERE member_id IS NOT NULL ORDER BY name")}


__all__ = ["link_member", "member_ids"]
