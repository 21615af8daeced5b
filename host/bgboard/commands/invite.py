"""``bgboard invite MATCH --dir DIR``: the broker accounts of a remote match, and each board's ``[remote]``.

    bgboard invite ann-bob-1 --dir /etc/mosquitto/bgboard-remote --broker mqtts://club.example.org:8883
    bgboard invite ann-bob-1 --dir DIR --users board7,board9       (the boards' own accounts)

Seats the match's two boards in the broker folder ``DIR`` (:mod:`bgboard.net.remote_accounts`:
``seats.txt``, hashed ``passwd``, ``acl``, ``secrets/<user>.password``) and writes
``DIR/MATCH-white.toml`` and ``DIR/MATCH-black.toml``: the ``[remote]`` table of each board.
Other matches seated in ``DIR`` stay; a board user seated again leaves its old match.  The
Mosquitto that hosts the matches reads ``DIR/passwd`` and ``DIR/acl`` (docs/remote.md) and
re-reads them on ``systemctl reload mosquitto``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from bgboard.errors import InputError


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:  # type: ignore[type-arg]
    p = subparsers.add_parser(
        "invite",
        help="the broker accounts and ACL of a remote match, and each board's [remote]",
        description="Seat a remote match's two boards on a Mosquitto: accounts, passwords, ACL and the boards' [remote].",
    )
    p.add_argument("match", metavar="MATCH", help="the match's name (1-32 lower-case letters, digits, '-', '_')")
    p.add_argument("--dir", required=True, type=Path, metavar="DIR",
                   help="the broker's folder of remote accounts (made if missing)")
    p.add_argument("--broker", default="mqtts://localhost:8883", metavar="URL",
                   help="the broker's address as the boards reach it (default mqtts://localhost:8883)")
    p.add_argument("--users", default="", metavar="WHITE,BLACK",
                   help="the two boards' broker users (default MATCH-white,MATCH-black)")
    return p


def run(args: argparse.Namespace) -> int:
    from bgboard.net.protocol import parse_broker_url
    from bgboard.net.remote_wire import SIDES, check_match
    from bgboard.net.remote_accounts import check_user, password_file, read_seats, seat, write_accounts

    try:
        match = check_match(args.match)
        parse_broker_url(args.broker)
    except ValueError as exc:
        raise InputError(str(exc)) from None
    users = [u.strip() for u in args.users.split(",")] if args.users else [f"{match}-{side}" for side in SIDES]
    if len(users) != 2 or users[0] == users[1]:
        raise InputError("--users names the two boards' broker users, White's then Black's: two different names")
    for user in users:
        check_user(user)
    root: Path = args.dir
    if root.exists() and not root.is_dir():
        raise InputError(f"--dir {root} is a file, not a folder")
    seats, left = seat(read_seats(root), [(user, match, side) for user, side in zip(users, SIDES)])
    write_accounts(root, seats)
    for user, old, side in left:
        print(f"{user} left {old} ({side}): a board plays one match at a time")
    for user, side in zip(users, SIDES):
        secret = password_file(root, user).resolve()
        table = (f'[remote]\nbroker = "{args.broker}"\nmatch = "{match}"\nside = "{side}"\n'
                 f'username = "{user}"\npassword_file = "{secret}"\n')
        (root / f"{match}-{side}.toml").write_text(
            f"# {side.capitalize()}'s board of the remote match {match}: add to its config; copy {secret.name}\n"
            f"# to the board and point password_file at it there.\n" + table)
        print(f"{side}: {root / f'{match}-{side}.toml'} (user {user}, password in {secret})")
    print(f"{len(seats)} board(s) seated in {root}: Mosquitto reads {root / 'passwd'} and {root / 'acl'} "
          f"(password_file and acl_file in mosquitto.conf; 'systemctl reload mosquitto' after each invite)")
    return 0
