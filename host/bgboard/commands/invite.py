"""``bgboard invite MATCH --dir DIR``: the broker accounts of a remote match, and each board's ``[remote]``.

    bgboard invite ann-bob-1 --dir /etc/mosquitto/bgboard-remote --broker mqtts://club.example.org:8883
    bgboard invite ann-bob-1 --dir DIR --users board7,board9       (the boards' own accounts)

Seats the match's two boards in the broker folder ``DIR`` (:mod:`bgboard.net.remote_accounts`:
``seats.txt``, hashed ``passwd``, ``acl``, ``secrets/<user>.password``) and writes
``DIR/MATCH-white.toml`` and ``DIR/MATCH-black.toml``: the ``[remote]`` table of each board.
Other matches seated in ``DIR`` stay; a board user seated again leaves its old match.  The
Mosquitto that hosts the matches reads ``DIR/passwd`` and ``DIR/acl`` (docs/remote.md) and
re-reads them on ``systemctl reload mosquitto``.

It also writes ``DIR/mosquitto.conf`` (the listener of ``--broker``'s port, with TLS from
``--certfile``/``--keyfile`` for ``mqtts://``; ``password_file``, ``acl_file``, persistence in
``DIR/data/``), so ``mosquitto -c DIR/mosquitto.conf`` runs as it is, and makes ``passwd``,
``acl`` and ``data/`` the broker's: Mosquitto started as root (Debian's service) drops to its
own user, ``mosquitto``, before it reads them.  The boards' passwords in ``secrets/`` stay
readable by the one who ran ``invite`` only.
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
    p.add_argument("--certfile", default=DEBIAN_CERT, metavar="PEM",
                   help=f"the broker's TLS certificate for an mqtts:// broker (default {DEBIAN_CERT})")
    p.add_argument("--keyfile", default=DEBIAN_KEY, metavar="PEM",
                   help=f"the broker's TLS key for an mqtts:// broker (default {DEBIAN_KEY})")
    return p


#: Where Debian's Mosquitto keeps its certificates (/etc/mosquitto/certs/README).
DEBIAN_CERT = "/etc/mosquitto/certs/server.crt"
DEBIAN_KEY = "/etc/mosquitto/certs/server.key"
#: The account Mosquitto runs as when started as root (its default, and Debian's).
BROKER_USER = "mosquitto"


def broker_user() -> str:
    """Who the broker runs as: ``mosquitto`` when it exists and we are root (the files are
    handed to it), else whoever runs ``invite`` (a broker started by them keeps their rights)."""
    import os
    import pwd

    if os.geteuid() == 0:
        try:
            pwd.getpwnam(BROKER_USER)
            return BROKER_USER
        except KeyError:
            pass
    return pwd.getpwuid(os.geteuid()).pw_name


def write_broker_conf(root: Path, url: object, certfile: str, keyfile: str) -> Path:
    """``DIR/mosquitto.conf`` for the matches of ``root``, and ``passwd``, ``acl`` and ``data/``
    made the broker user's (see the module docstring)."""
    import os
    import pwd

    from bgboard.net.broker import Listener, mosquitto_conf

    root = root.resolve()
    user = broker_user()
    tls = bool(getattr(url, "tls", False))
    data = root / "data"
    data.mkdir(exist_ok=True)
    conf = root / "mosquitto.conf"
    conf.write_text(mosquitto_conf(
        Listener(int(getattr(url, "port")), "", certfile if tls else "", keyfile if tls else ""),
        str(root / "passwd"), str(root / "acl"), persistence_dir=f"{data}/", user=user,
    ).replace("# bgboard club broker (Mosquitto 2.0): boards and the director, nobody else.",
              "# bgboard remote matches (Mosquitto 2.0): the seated boards, nobody else (bgboard invite writes it)."))
    entry = pwd.getpwnam(user)
    for path, mode in ((root / "passwd", 0o600), (root / "acl", 0o600), (data, 0o700)):
        if os.geteuid() == 0:
            os.chown(path, entry.pw_uid, entry.pw_gid)
        os.chmod(path, mode)
    os.chmod(root, os.stat(root).st_mode | 0o111)  # (the broker's user passes through the folder)
    return conf


def closed_to(root: Path, user: str) -> Path | None:
    """The first folder above ``root`` that ``user`` cannot pass through (None: it can reach it)."""
    import os
    import pwd

    entry = pwd.getpwnam(user)
    if entry.pw_uid == 0:
        return None
    for folder in reversed(root.resolve().parents):
        st = os.stat(folder)
        bit = 0o100 if st.st_uid == entry.pw_uid else 0o010 if st.st_gid == entry.pw_gid else 0o001
        if not st.st_mode & bit:
            return folder
    return None


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
    conf = write_broker_conf(root, parse_broker_url(args.broker), args.certfile, args.keyfile)
    print(f"{len(seats)} board(s) seated in {root}: Mosquitto reads {root / 'passwd'} and {root / 'acl'}, "
          f"owned by {broker_user()} (the user it runs as)")
    closed = closed_to(root, broker_user())
    if closed is not None:
        print(f"note: {broker_user()} cannot pass through {closed}: open it (chmod o+x) or seat the matches in a "
              "folder it can reach, such as /etc/mosquitto/bgboard-remote")
    print(f"run the broker: mosquitto -c {conf}   (or include its lines in /etc/mosquitto/conf.d/; "
          "'systemctl reload mosquitto' after each invite)")
    return 0
