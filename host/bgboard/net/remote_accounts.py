"""The broker accounts of remote matches (adapter: files and ``mosquitto_passwd``).

A folder holds everything a Mosquitto needs to host remote matches, written from one list
of seats — ``seats.txt``, a line ``USER MATCH SIDE`` per board — so that the ACL and the
password file never disagree with it:

* ``secrets/<user>.password``: each board user's random password (kept once made; what a
  board's ``[remote] password_file`` holds);
* ``passwd``: those passwords hashed by Mosquitto's own ``mosquitto_passwd``;
* ``acl``: each board may write only its own side's topics of the match it joined and read
  only the other side's (:func:`bgboard.net.remote_wire.remote_acl_text`).

A board user seated again (a new match for the same board) leaves its old match: a board
plays one match at a time.  ``bgboard invite`` and the private brokers of the tests and the
simulator (:class:`bgboard.net.remotelink.RemoteBroker`) both write through here.
"""

from __future__ import annotations

import os
import re
import secrets
from pathlib import Path
from typing import Iterable

from bgboard.errors import InputError
from bgboard.net.mosquitto import write_password_file
from bgboard.net.remote_wire import SIDES, check_match, remote_acl_text

Seat = tuple[str, str, str]  # (broker user, match, side)

_USER_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")


class SeatsFileError(InputError):
    """A ``seats.txt`` that is not lines of ``USER MATCH SIDE``."""


def check_user(user: str) -> str:
    """``user`` if it can be a broker user name (1-64 letters, digits, ``-``, ``_``)."""
    if not _USER_RE.match(user):
        raise InputError(f"a broker user name is 1-64 letters, digits, '-' or '_', not {user[:40]!r}")
    return user


def read_seats(root: Path) -> list[Seat]:
    """The seats written in ``root/seats.txt`` (none when there is no such file)."""
    path = Path(root) / "seats.txt"
    if not path.exists():
        return []
    seats: list[Seat] = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        if len(words) != 3 or words[2] not in SIDES:
            raise SeatsFileError(f"{path}, line {number}: write 'USER MATCH white|black', not {line.strip()[:60]!r}")
        try:
            seats.append((check_user(words[0]), check_match(words[1]), words[2]))
        except ValueError as exc:
            raise SeatsFileError(f"{path}, line {number}: {exc}") from None
    return seats


def seat(seats: Iterable[Seat], new: Iterable[Seat]) -> tuple[list[Seat], list[Seat]]:
    """``seats`` with the ``new`` ones added, and the seats they replaced: a user keeps one
    seat (its newest), and a match side has one user."""
    new = list(new)
    users = {user for user, _, _ in new}
    places = {(match, side) for _, match, side in new}
    kept, left = [], []
    for old in seats:
        (left if old[0] in users or (old[1], old[2]) in places else kept).append(old)
    return kept + new, [old for old in left if old not in new]


def write_accounts(root: Path, seats: list[Seat]) -> None:
    """The folder's ``seats.txt``, ``secrets/``, ``passwd`` and ``acl`` for ``seats``."""
    root = Path(root)
    (root / "secrets").mkdir(parents=True, exist_ok=True)
    passwords: dict[str, str] = {}
    for user in sorted({user for user, _, _ in seats}):
        f = password_file(root, user)
        if not f.exists():
            f.write_text(secrets.token_urlsafe(18) + "\n")
            os.chmod(f, 0o600)
        passwords[user] = f.read_text().strip()
    write_password_file(root / "passwd", passwords)
    (root / "acl").write_text(remote_acl_text(seats))
    (root / "seats.txt").write_text(
        "# bgboard remote matches: USER MATCH SIDE, one board a line (bgboard invite writes it)\n"
        + "".join(f"{user} {match} {side}\n" for user, match, side in seats))


def password_file(root: Path, user: str) -> Path:
    """The file holding ``user``'s password in the folder ``root``."""
    return Path(root) / "secrets" / f"{user}.password"


__all__ = ["Seat", "SeatsFileError", "check_user", "password_file", "read_seats", "seat", "write_accounts"]
