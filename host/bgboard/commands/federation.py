"""``bgboard federation``: a federation of clubs (docs/club-network.md, "A federation").

    bgboard federation [--dir DIR] init --name NAME --db postgresql://... [--port 1884]
                                        [--listen 127.0.0.1] [--public-host HOST]
    bgboard federation serve [--with-broker] [--http HOST:PORT]
    bgboard federation join CLUB --out DIR [--title TEXT]
    bgboard federation members [--json] [--add MEMBER-ID --name NAME]
    bgboard federation ratings [--json] [--history MEMBER-ID]
    bgboard federation season NAME [--count CLUB:EVENT ...] [--json]
    bgboard federation export --out DIR
    bgboard federation officer-password [--password-stdin]
    bgboard federation demo --clubs 3 --out DIR     (commands/federation_demo.py)

The folder is ``--dir``, else ``$BGBOARD_FEDERATION_DIR``, else ``./federation``.  Every
operation is :mod:`bgboard.federation`'s; this module only parses and prints.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
from pathlib import Path
from collections.abc import Awaitable, Callable
from typing import Any

from bgboard.digits import whole_argument
from bgboard.errors import InputError


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "federation", help="a federation of clubs: one rating list over every club's results",
        description="Gather every club's results (bridged Mosquitto brokers, PostgreSQL), exactly once, "
        "into one FIBS rating list and season standings.")
    parser.add_argument("--dir", metavar="DIR", help="the federation's folder (default $BGBOARD_FEDERATION_DIR "
                        "or ./federation)")
    sub = parser.add_subparsers(dest="federation_command", metavar="COMMAND")
    sub.required = True
    p = sub.add_parser("init", help="make the federation's folder, database schema and broker files")
    p.add_argument("--name", required=True, help="the federation's name")
    p.add_argument("--db", required=True, metavar="URL", help="its PostgreSQL database, postgresql://...")
    p.add_argument("--port", type=whole_argument("--port", 1, 65535), default=1884, help="its broker's port (default 1884)")
    p.add_argument("--listen", default="127.0.0.1", metavar="ADDRESS",
                   help="where its broker listens (default 127.0.0.1; 0.0.0.0: every address)")
    p.add_argument("--public-host", default="127.0.0.1", metavar="HOST",
                   help="the host name the clubs' bridges reach the broker at (default 127.0.0.1)")
    p = sub.add_parser("serve", help="take the clubs' results (and serve the federation's pages)")
    p.add_argument("--with-broker", action="store_true", help="also run the federation's Mosquitto from the folder")
    p.add_argument("--http", metavar="HOST:PORT", help="serve the federation's web pages here")
    p = sub.add_parser("join", help="add a club: its broker user, and the bridge its Mosquitto needs")
    p.add_argument("club", metavar="CLUB", help="the club's topic name (as its 'club serve --topic')")
    p.add_argument("--out", required=True, type=Path, metavar="DIR", help="where the club's files are written")
    p.add_argument("--title", default="", help="the club's name as people read it")
    p = sub.add_parser("members", help="the federation's members")
    p.add_argument("--json", action="store_true")
    p.add_argument("--add", metavar="MEMBER-ID", help="register a member")
    p.add_argument("--name", default="", help="the new member's name (with --add)")
    p = sub.add_parser("ratings", help="the rating list over every club's results")
    p.add_argument("--json", action="store_true")
    p.add_argument("--history", metavar="MEMBER-ID", help="one member's rating, result by result")
    p = sub.add_parser("season", help="a season's standings over the events it counts")
    p.add_argument("season", metavar="NAME")
    p.add_argument("--count", action="append", default=[], metavar="CLUB:EVENT", help="count this club's event")
    p.add_argument("--json", action="store_true")
    p = sub.add_parser("export", help="members, results and the rating list as CSV files")
    p.add_argument("--out", required=True, type=Path, metavar="DIR")
    p = sub.add_parser("officer-password", help="set the password of the federation's officers' pages")
    p.add_argument("--password-stdin", action="store_true", help="read it from one line of standard input")
    p = sub.add_parser("demo", help="three clubs' evenings on this machine, one rating list",
                       description="Start a private PostgreSQL, the federation's broker and service, and a "
                       "broker, a database and an evening for each club, bridged to the federation.")
    p.add_argument("--clubs", type=whole_argument("--clubs", 1, 50), default=3, help="clubs (default 3)")
    p.add_argument("--out", required=True, type=Path, metavar="DIR", help="where everything is written")
    return parser


def run(args: argparse.Namespace) -> int:
    from bgboard.federation.home import Home, Settings, home_folder

    cmd = args.federation_command
    folder = home_folder(args.dir)
    if cmd == "demo":
        from bgboard.commands.federation_demo import run_demo

        return run_demo(args.clubs, args.out)
    if cmd == "init":
        home = Home.create(folder, Settings(args.name, args.db, args.port, args.listen, args.public_host))
        print(f"federation {args.name.strip()!r} made in {folder} (broker files in {home.broker.root}, "
              f"port {args.port})")
        return 0
    home = Home(folder)
    if cmd == "serve":
        return _serve(home, args)
    if cmd == "join":
        return _join(home, args)
    with home.ledger() as ledger:
        if cmd == "members":
            if args.add:
                from bgboard.net.results_feed import check_member_id

                name = " ".join(args.name.split())
                if not name or len(name) > 64:
                    raise InputError("--add needs --name NAME (1-64 characters)")
                new = ledger.add_member(check_member_id(args.add), name)
                print(f"member {args.add} {'added' if new else 'was already registered'}")
                return 0
            members = ledger.members()
            if args.json:
                print(json.dumps(members))
            for m in members if not args.json else ():
                print(f"{m['id']}: {m['name']} ({m['club'] or 'no club'})")
        elif cmd == "ratings":
            _ratings(ledger, args)
        elif cmd == "season":
            _season(ledger, args)
        elif cmd == "export":
            _export(ledger, args.out)
        elif cmd == "officer-password":
            ledger.set_meta("officer_password", _officer_hash(args.password_stdin))
            ledger.set_meta("officer_sessions", "")  # a new password ends every officer's session
            print("the officers' password is set (stored as an argon2id hash)")
    return 0


def _officer_hash(from_stdin: bool) -> str:
    """The new officers' password (one line of stdin, or asked twice), hashed by the club
    pages' rules (argon2id; at least 8 characters)."""
    import getpass

    from bgboard.club.web.password import PasswordRuleError, hash_password
    from bgboard.commands.club import _new_password

    if from_stdin:
        password = _new_password(True)
    else:
        password = getpass.getpass("New officers' password: ")
        if getpass.getpass("The same again: ") != password:
            raise InputError("the two passwords differ: nothing was changed, run the command again")
    try:
        return hash_password(password)
    except PasswordRuleError as exc:
        raise InputError(str(exc).replace("the director password", "the officers' password")) from None


def _ratings(ledger: Any, args: argparse.Namespace) -> None:
    from bgboard.federation.rating_list import rating_list

    lines, steps = rating_list(ledger.results())
    names = {m["id"]: m["name"] for m in ledger.members()}
    if args.history:
        mine = [s for s in steps if s.member == args.history]
        if args.json:
            print(json.dumps([_row(s) for s in mine]))
            return
        for s in mine:
            print(f"{s.played_at} {s.club}: {'beat' if s.won else 'lost to'} {s.opponent}, "
                  f"{s.before:.2f} -> {s.after:.2f}")
        return
    if args.json:
        print(json.dumps([{**_row(line), "name": names.get(line.member, "")} for line in lines]))
        return
    for rank, line in enumerate(lines, 1):
        print(f"{rank:>3}. {line.member:<12} {names.get(line.member, ''):<20} {line.rating:8.2f}  "
              f"(experience {line.experience}, {line.matches} matches)")


def _row(value: Any) -> dict[str, Any]:
    return {name: getattr(value, name) for name in value.__slots__}


def _season(ledger: Any, args: argparse.Namespace) -> None:
    from bgboard.federation.rating_list import rating_list
    from bgboard.federation.season import season_standings
    from bgboard.net.protocol import check_club

    for pair in args.count:
        club, sep, event = pair.partition(":")
        if not sep or not event.strip():
            raise InputError(f"--count takes CLUB:EVENT, not {pair!r}")
        ledger.count_event(args.season, check_club(club.strip()), " ".join(event.split()))
    if args.season not in ledger.seasons():
        raise InputError(f"there is no season {args.season!r}: count an event in it with --count CLUB:EVENT")
    results = ledger.results()
    ratings = {line.member: line.rating for line in rating_list(results)[0]}
    lines = season_standings(results, ledger.counted_events(args.season), ratings)
    if args.json:
        print(json.dumps([_row(line) for line in lines]))
        return
    for line in lines:
        print(f"{line.rank:>3}. {line.member:<12} {line.points} points ({line.won} won, {line.lost} lost)")


def _export(ledger: Any, out: Path) -> None:
    from bgboard.federation.export_files import write_export

    print(write_export(ledger, out))


def _join(home: Any, args: argparse.Namespace) -> int:
    from bgboard.federation.bridge_conf import bridge_section, club_user
    from bgboard.net.protocol import check_club

    club = check_club(args.club)
    new, password = home.join(club, args.title)
    args.out.mkdir(parents=True, exist_ok=True)
    bridge = args.out / "federation-bridge.conf"
    bridge.write_text(bridge_section(club, home.settings.public_host, home.settings.port, password))
    os.chmod(bridge, 0o600)
    print(f"club {club!r} {'joined' if new else 'was already a member; its files are written again'}: "
          f"user {club_user(club)} on the federation's broker")
    print(f"copy {bridge} to the club's /etc/mosquitto/conf.d/ and restart its Mosquitto; run the club with "
          f"'bgboard club serve --broker URL --topic {club} --feed-password-file FILE' (the broker's 'feed' user)")
    return 0


def _serve(home: Any, args: argparse.Namespace) -> int:
    from bgboard.commands.club_serve import run_until_signal
    from bgboard.federation.intake import IntakeSettings, serve_intake
    from bgboard.federation.bridge_conf import SERVICE_USER
    from bgboard.net.protocol import parse_broker_url

    with home.ledger():  # one sentence now if the database cannot be used
        pass
    if args.with_broker:
        home.broker.write()
        home.broker.start()
    settings = IntakeSettings(parse_broker_url(home.broker.url), home.broker.password(SERVICE_USER))
    said = []

    def subscribed() -> None:
        print(f"federation service {'subscribed again' if said else 'subscribed'} to every club's results",
              flush=True)
        said.append(1)

    tasks: list[Callable[[], Awaitable[object]]] = [
        lambda: serve_intake(settings, home.settings.db, on_subscribed=subscribed)]
    print(f"federation {home.settings.name!r}: results from {home.broker.url} into {_shown(home.settings.db)}",
          flush=True)
    if args.http:
        from bgboard.club.web.server import parse_listen
        from bgboard.federation.portal import serve_portal

        from bgboard.federation.bridge_conf import PAGES_USER
        from bgboard.federation.live_watch import LiveWatch

        host, port = parse_listen(args.http)
        if not home.broker.secret_file(PAGES_USER).exists():  # a folder made before the pages had a user
            home.broker.write()
            home.broker.reload()
        watch = LiveWatch(parse_broker_url(home.broker.url), home.broker.password(PAGES_USER))
        tasks.append(watch.run)
        tasks.append(lambda: serve_portal(home.settings.db, home.settings.name, host, port, watch=watch,
                                          ready=lambda h, p: print(f"federation pages on http://{h}:{p}/", flush=True)))

    async def main() -> None:
        await asyncio.gather(*(make() for make in tasks))

    try:
        run_until_signal(main)
    finally:
        if args.with_broker:
            home.broker.stop()
    return 0


def _shown(url: str) -> str:
    from bgboard.federation.ledger import shown_url

    return shown_url(url)


__all__ = ["add_parser", "run"]
