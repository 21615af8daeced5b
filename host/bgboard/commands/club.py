"""``bgboard club``: the club tournament director (docs/club.md).

    bgboard club [--db PATH] [--by NAME] init --name "Club name"
    bgboard club player add NAME [--rating R] [--experience E]
    bgboard club player list [--json]
    bgboard club player link NAME MEMBER-ID     (the federation's member id: club/member_links.py)
    bgboard club event new NAME --format double-elimination|swiss|round-robin|single-elimination
                               --length N [--rounds R] [--consolation-length N] [--last-chance]
                               [--rules standard|brainking] [--clock-minutes M] [--clock-delay S]
    bgboard club event enter EVENT NAME...
    bgboard club round EVENT [--json]
    bgboard club result EVENT MATCH_ID --score A-B [--mat FILE] [--correct [--reason TEXT]]
    bgboard club forfeit EVENT MATCH_ID --winner NAME --reason TEXT
    bgboard club withdraw EVENT NAME --reason TEXT
    bgboard club penalty EVENT NAME --points P --reason TEXT
    bgboard club standings EVENT [--json]
    bgboard club ratings [--json]
    bgboard club export EVENT --out DIR
    bgboard club analyse [--all]     (the queue of results to analyse: club/analysis_queue.py)
    bgboard club checkin | matches | payouts | backup | restore, event set | list | late,
        player edit | remove          (commands/club_evening.py)
    bgboard club serve [--http HOST:PORT] [--broker URL --password-file FILE [--topic NAME]
                       [--feed-password-file FILE]]
    bgboard club director-password [--password-stdin]
    bgboard club demo --boards 8 --players 16 --out DIR [--length N]

The database is ``--db``, else ``$BGBOARD_CLUB_DB``, else ``club.sqlite``: an SQLite file, or
a PostgreSQL database given as ``postgresql://USER@HOST/DATABASE`` (docs/club.md); ``--by`` names
who makes the change in the audit log (default ``director``).  Every operation is
:mod:`bgboard.club.director`'s; this module only parses and prints.
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import json
import os
import sqlite3
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Any, Callable

from bgboard.club import evening
from bgboard.club.announcements import pairing_lines, rating_lines, standings_lines
from bgboard.club.checks import MAX_MAT, parse_score
from bgboard.club.db import club_location, database_error, shown
from bgboard.club.director import Director
from bgboard.club.model import FORMATS
from bgboard.commands import club_evening
from bgboard.digits import decimal_argument, whole_argument
from bgboard.errors import InputError
from bgboard.files import read_fd, read_text
from bgboard.language import Words, choose_language
from bgboard.language.catalogues import add_lang_argument, words_for

MAX_PASSWORD_LINE = 4096  # longer than any allowed director password (they stop at 256)


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "club", help="club tournament director: players, events, pairings, results, ratings",
        description="Run a club's tournaments: players, events in four formats, pairings, "
        "results (checked against .mat records), FIBS ratings and standings.")
    parser.add_argument("--db", metavar="PATH|URL", help="club database: an SQLite file or a PostgreSQL "
                        "database's postgresql://... address (default $BGBOARD_CLUB_DB or club.sqlite)")
    parser.add_argument("--by", default="director", metavar="NAME",
                        help="who makes the change, for the audit log (default: director)")
    sub = parser.add_subparsers(dest="club_command", metavar="COMMAND")
    sub.required = True

    p = sub.add_parser("init", help="create the club database")
    p.add_argument("--name", required=True, help="the club's name")

    psub = _add_player_parsers(sub)
    esub = _add_event_parsers(sub)
    _add_result_parsers(sub)
    _add_report_parsers(sub)
    _add_serve_parser(sub)
    club_evening.add_parsers(sub, psub, esub)
    _add_demo_and_password_parsers(sub)
    return parser


def _add_player_parsers(sub: argparse._SubParsersAction) -> argparse._SubParsersAction:  # type: ignore[type-arg]
    """``player add | list | link`` (the evening adds its own to the ``player`` subparsers returned)."""
    player = sub.add_parser("player", help="add or list players")
    psub = player.add_subparsers(dest="player_command", metavar="COMMAND")
    psub.required = True
    p = psub.add_parser("add", help="add a player")
    p.add_argument("name", metavar="NAME")
    p.add_argument("--rating", type=decimal_argument("--rating", "1500"), default=1500.0, help="starting rating (default 1500)")
    p.add_argument("--experience", type=whole_argument("--experience", 0, 10_000_000), default=0, help="starting experience (default 0)")
    p = psub.add_parser("list", help="list the players")
    p.add_argument("--json", action="store_true")
    p = psub.add_parser("link", help="link a player to his federation member id (docs/club-network.md)")
    p.add_argument("name", metavar="NAME")
    p.add_argument("member_id", metavar="MEMBER-ID")
    return psub


def _add_event_parsers(sub: argparse._SubParsersAction) -> argparse._SubParsersAction:  # type: ignore[type-arg]
    """``event new | enter`` (the evening adds its own to the ``event`` subparsers returned)."""
    event = sub.add_parser("event", help="create events and enter players")
    esub = event.add_subparsers(dest="event_command", metavar="COMMAND")
    esub.required = True
    p = esub.add_parser("new", help="create an event")
    p.add_argument("name", metavar="NAME")
    p.add_argument("--format", required=True, choices=FORMATS)
    p.add_argument("--length", type=whole_argument("--length", 0, 9999), required=True, metavar="N", help="match length (points)")
    p.add_argument("--rounds", type=whole_argument("--rounds", 0, 9999), metavar="R", help="Swiss rounds (default: about log2 of the field)")
    p.add_argument("--consolation-length", type=whole_argument("--consolation-length", 0, 9999), metavar="N",
                   help="match length in the consolation flight (double elimination)")
    p.add_argument("--last-chance", action="store_true",
                   help="double elimination: a last-chance flight for the first consolation losers")
    p.add_argument("--rules", default="standard", help="standard or brainking (default standard)")
    p.add_argument("--clock-minutes", type=whole_argument("--clock-minutes", 0, 9999), default=2, metavar="M",
                   help="reserve time per match point, minutes (default 2)")
    p.add_argument("--clock-delay", type=whole_argument("--clock-delay", 0, 9999), default=12, metavar="S",
                   help="delay per move, seconds (default 12)")
    club_evening.add_event_options(p)
    p = esub.add_parser("enter", help="enter players in an event")
    p.add_argument("event", metavar="EVENT")
    p.add_argument("names", nargs="+", metavar="NAME")
    return esub


def _add_result_parsers(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """``round``, ``result``, ``forfeit``, ``withdraw``, ``penalty``: what changes an event."""
    p = sub.add_parser("round", help="pair every match that can be played now")
    p.add_argument("event", metavar="EVENT")
    p.add_argument("--json", action="store_true")
    add_lang_argument(p)


    p = sub.add_parser("result", help="enter (or with --correct, correct) a match's score")
    p.add_argument("event", metavar="EVENT")
    p.add_argument("match_id", metavar="MATCH_ID")
    p.add_argument("--score", required=True, metavar="A-B", help="players[0]'s points - players[1]'s")
    p.add_argument("--mat", metavar="FILE", help="the match's .mat record (replayed and checked)")
    p.add_argument("--correct", action="store_true", help="correct a result already entered")
    p.add_argument("--reason", default="", help="why the result is corrected (audit log)")

    p = sub.add_parser("forfeit", help="award a match by forfeit")
    p.add_argument("event", metavar="EVENT")
    p.add_argument("match_id", metavar="MATCH_ID")
    p.add_argument("--winner", required=True, metavar="NAME")
    p.add_argument("--reason", required=True, metavar="TEXT")

    p = sub.add_parser("withdraw", help="withdraw a player from an event")
    p.add_argument("event", metavar="EVENT")
    p.add_argument("name", metavar="NAME")
    p.add_argument("--reason", required=True, metavar="TEXT")

    p = sub.add_parser("penalty", help="penalty points against a player")
    p.add_argument("event", metavar="EVENT")
    p.add_argument("name", metavar="NAME")
    p.add_argument("--points", type=whole_argument("--points", 0, 9999), required=True, metavar="P")
    p.add_argument("--reason", required=True, metavar="TEXT")


def _add_report_parsers(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """``standings``, ``ratings``, ``export``, ``analyse``: what an event and the club came to."""
    p = sub.add_parser("standings", help="an event's standings with tie-breaks")
    p.add_argument("event", metavar="EVENT")
    p.add_argument("--json", action="store_true")
    add_lang_argument(p)

    p = sub.add_parser("ratings", help="every player's FIBS rating")
    p.add_argument("--json", action="store_true")
    add_lang_argument(p)

    p = sub.add_parser("export", help="an event's CSV, .mat files and printable HTML page")
    p.add_argument("event", metavar="EVENT")
    p.add_argument("--out", required=True, metavar="DIR")
    p.add_argument("--analyse", nargs="?", const="gnubg-nn", metavar="ENGINE",
                   help="also analyse every match (docs/analysis.md): analysis.csv, per player PR, error rate, luck")
    add_lang_argument(p)   # the draw's and the slips' language

    p = sub.add_parser("analyse", help="analyse the stored results waiting in the queue (PR, error rates, luck)",
                       description="Analyse every stored result with a .mat record still queued "
                       "(club serve does it in the background) with gnubg-nn at 0-ply, or bgsage "
                       "when gnubg-nn is not installed (docs/club.md).")
    p.add_argument("--all", action="store_true", help="analyse every stored record again, not only the queued")


def _add_serve_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """``serve``: the club's web pages, the boards through the broker, the feed, the gallery."""
    p = sub.add_parser("serve", help="the director's server: the club's live web pages",
                       description="Serve the club's web pages (the room's live boards, brackets, "
                       "standings, ratings, match records and the director's pages) in one "
                       "asyncio process.")
    p.add_argument("--http", metavar="HOST:PORT",
                   help="serve the web pages here, such as 0.0.0.0:8080 (every address) or 127.0.0.1:8080")
    p.add_argument("--broker", metavar="URL",
                   help="take the boards' states and results from this MQTT broker and send them their "
                   "assignments, such as mqtt://localhost:1883 (docs/club-network.md)")
    p.add_argument("--topic", default="club", metavar="NAME",
                   help="the club's topic name on the broker (default: club)")
    p.add_argument("--user", default="director", metavar="NAME", help="the director's broker user (default: director)")
    p.add_argument("--password-file", metavar="FILE", help="a file holding the director's broker password")
    p.add_argument("--ca-file", default="", metavar="FILE", help="the club's CA certificate for mqtts://")
    p.add_argument("--feed-password-file", metavar="FILE",
                   help="also send every stored result to the club's federation through the broker (user feed; "
                   "'bgboard federation join' writes the bridge)")
    p.add_argument("--gallery", metavar="URL",
                   help="publish the room's live boards for the spectators' gallery (a Mosquitto bridged to "
                   "--broker) and have the pages watch it at this WebSocket address, such as "
                   "ws://club.local:9001/ (docs/club-network.md)")


def _add_demo_and_password_parsers(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """``demo`` (a simulated evening) and ``director-password``."""
    p = sub.add_parser("demo", help="a whole simulated club evening on this machine (Mosquitto, director, boards)",
                       description="Play a double-elimination club evening to its champion: a private "
                       "Mosquitto, the director and simulated boards (modelled firmware) on this machine.")
    p.add_argument("--boards", type=whole_argument("--boards", 0, 10**6), default=8, help="simulated boards (default 8)")
    p.add_argument("--players", type=whole_argument("--players", 0, 10**6), default=16, help="players in the draw (default 16)")
    p.add_argument("--length", type=whole_argument("--length", 0, 10**6), default=1, help="match length in points (default 1; consolation 1)")
    p.add_argument("--out", required=True, type=Path, metavar="DIR", help="where everything is written")
    p = sub.add_parser("director-password", help="set the password of the director's web pages")
    p.add_argument("--password-stdin", action="store_true",
                   help="read the password from one line of standard input instead of asking twice")


def db_path(args: argparse.Namespace) -> Path | str:
    """The club's database: an SQLite file, or a PostgreSQL database's address (checked)."""
    return club_location(args.db or os.environ.get("BGBOARD_CLUB_DB") or "club.sqlite")


def _club_words(args: argparse.Namespace) -> Words:
    """The players' language for the club's texts (the ``club`` catalogue): ``--lang``, else
    the locale (LANGUAGE, LC_ALL, LC_MESSAGES, LANG), else English."""
    return words_for(choose_language(getattr(args, "lang", None), "", os.environ), "club")


def _read_mat(path: str) -> str:
    """The .mat file's text: bounded by the bytes read (a device), in time (a named pipe)."""
    return read_text(path, "the .mat file", limit=MAX_MAT)


def _score(m: object) -> str:
    score = getattr(m, "score")
    return f"{score[0]}-{score[1]}" if score else getattr(m, "status")


def run(args: argparse.Namespace) -> int:
    path = db_path(args)
    try:
        return _command(path, args)
    except sqlite3.Error as exc:  # locked, read-only, damaged...: one sentence, never a traceback
        raise database_error(exc, shown(path)) from None
    except OverflowError:  # a number past SQLite's integers that no check caught
        raise InputError("a number given is far too large for the club database: check the command") from None


def _command(path: Path | str, args: argparse.Namespace) -> int:
    by = args.by
    if args.club_command == "serve":
        from bgboard.commands.club_serve import serve

        return serve(path, args)
    if args.club_command == "demo":
        return _demo(args)
    done = club_evening.without_db(path, args)
    if done is not None:
        return done
    if args.club_command == "init":
        with Director.create(path, args.name, actor=by) as d:
            print(f"club {d.club_name()!r} created in {d.club.path}")
        return 0
    with Director.open(path) as d:
        return _run(d, args, by)


def _run(d: Director, args: argparse.Namespace, by: str) -> int:
    done = club_evening.run(d, args, by)
    if done is not None:
        return done
    if args.club_command in ("result", "forfeit"):
        args.match_id = evening.match_id(d, args.event, args.match_id)
    command = COMMANDS.get(args.club_command)
    if command is not None:
        command(d, args, by)
    return 0


def _player(d: Director, args: argparse.Namespace, by: str) -> None:
    """``player add | link | list``."""
    if args.player_command == "add":
        p = d.add_player(args.name, args.rating, args.experience, actor=by)
        print(f"player {p.name} added: rating {p.rating:.2f}, experience {p.experience}")
    elif args.player_command == "link":
        from bgboard.club.member_links import link_member

        print(f"player {link_member(d.club, args.name, args.member_id, actor=by)} is federation member "
              f"{args.member_id.strip()}")
    else:
        players = d.players()
        if args.json:
            print(json.dumps([asdict(p) for p in players]))
        for p in players if not args.json else ():
            print(f"{p.name}: rating {p.rating:.2f}, experience {p.experience}")


def _event(d: Director, args: argparse.Namespace, by: str) -> None:
    """``event new | enter``."""
    if args.event_command == "new":
        e = d.new_event(args.name, args.format, args.length, args.rounds, args.consolation_length,
                        args.rules, {"reserve_per_point_s": args.clock_minutes * 60,
                                     "delay_s": args.clock_delay}, args.last_chance, actor=by)
        extra = f", consolation {e.consolation_length}" if e.consolation_length else ""
        print(f"event {e.name} created: {e.format}, {e.length}-point matches{extra}, rules {e.rules}")
        club_evening.configure(d, e.name, args, by, args.check_in)
    else:
        e = d.enter(args.event, args.names, actor=by)
        print(f"{len(e.players)} players entered in {e.name}: {', '.join(e.players)}")


def _round(d: Director, args: argparse.Namespace, by: str) -> None:
    """``round``: pair what can be played now."""
    r = d.pair_round(args.event, actor=by)
    if args.json:
        print(json.dumps(r.as_json()))
    else:
        for line in pairing_lines(r.round, r.matches, r.byes, r.walkovers, _club_words(args)):
            print(line)
        if d.last_backup:
            print(d.last_backup)


def _result(d: Director, args: argparse.Namespace, by: str) -> None:
    """``result``: enter or correct a match's score (its .mat replayed)."""
    mat = _read_mat(args.mat) if args.mat else None
    score = parse_score(args.score)
    if args.correct:
        m = d.correct_result(args.event, args.match_id, score, mat, args.reason, actor=by)
    else:
        m = d.record_result(args.event, args.match_id, score, mat, actor=by)
    print(f"match {m.number}: {m.players[0]} {m.score[0]} - {m.score[1]} {m.players[1]}, "  # type: ignore[index]
          f"{m.winner} wins" + (" (.mat checked)" if mat else ""))


def _forfeit(d: Director, args: argparse.Namespace, by: str) -> None:
    """``forfeit``."""
    m = d.forfeit(args.event, args.match_id, args.winner, args.reason, actor=by)
    print(f"match {m.number}: {m.winner} wins by forfeit ({m.forfeit_reason})")


def _withdraw(d: Director, args: argparse.Namespace, by: str) -> None:
    """``withdraw``."""
    forfeited = d.withdraw(args.event, args.name, args.reason, actor=by)
    print(f"{args.name} withdrawn from {args.event}")
    for m in forfeited:
        print(f"match {m.id}: {m.winner} wins by forfeit ({m.forfeit_reason})")


def _penalty(d: Director, args: argparse.Namespace, by: str) -> None:
    """``penalty``."""
    d.penalty(args.event, args.name, args.points, args.reason, actor=by)
    print(f"{args.name}: {args.points} penalty point{'s' if args.points != 1 else ''} in {args.event}")


def _standings(d: Director, args: argparse.Namespace, by: str) -> None:
    """``standings``: as lines in the players' language, or JSON."""
    rows = d.standings(args.event)
    if args.json:
        print(json.dumps([r.as_json() for r in rows]))
    for line in standings_lines(rows, _club_words(args)) if not args.json else ():
        print(line)


def _ratings(d: Director, args: argparse.Namespace, by: str) -> None:
    """``ratings``: as lines, or JSON."""
    players = d.ratings()
    if args.json:
        print(json.dumps([asdict(p) for p in players]))
    for line in rating_lines(players, _club_words(args)) if not args.json else ():
        print(line)


def _director_password(d: Director, args: argparse.Namespace, by: str) -> None:
    """``director-password``: stored as an argon2id hash."""
    from bgboard.club.web.password import hash_password

    d.set_director_password_hash(hash_password(_new_password(args.password_stdin)), actor=by)
    print(f"director password set for {d.club_name()!r} (stored as an argon2id hash)")


def _analyse(d: Director, args: argparse.Namespace, by: str) -> None:
    """``analyse``: drain the analysis queue."""
    from bgboard.club import analysis_queue

    if args.all:
        analysis_queue.queue_all(d.club)
    waiting = analysis_queue.counts(d.db)["queued"]

    def each(match_id: int, result: dict[str, Any]) -> None:
        said = result.get("problem") or ", ".join(
            f"{p['name']} PR {p['pr']:.2f} ({p['decisions']} decisions)" for p in result["players"])
        print(f"match {match_id}: {said}", flush=True)

    print(f"{waiting} match{'es' if waiting != 1 else ''} queued", flush=True)
    done = analysis_queue.drain(d.club.location, on_each=each)
    print(f"{done} match{'es' if done != 1 else ''} analysed")


def _export(d: Director, args: argparse.Namespace, by: str) -> None:
    """``export``: the event's files, with the analysis figures (stored, or with ``--analyse`` made now)."""
    evaluator = None
    if args.analyse:  # the engine opened first: an unknown or missing one is refused before any file is written
        from bgboard.analysis.evaluators import open_evaluator

        evaluator = open_evaluator(args.analyse.strip().lower())
    written = d.export(args.event, args.out, _club_words(args))
    print(f"{len(written)} files written to {args.out}")
    csv_path = Path(args.out) / "analysis.csv"
    if evaluator is not None:  # every record analysed now (cached beside them), not the stored figures
        from bgboard.analysis.file_batch import write_figures_csv

        rows = write_figures_csv(Path(args.out) / "mat", csv_path, evaluator)
        print(f"{rows} players' figures analysed into {csv_path}")
    else:
        from bgboard.club import analysis_queue

        rows = analysis_queue.write_csv(d.db, d.event(args.event).name, csv_path)
        print(f"{rows} players' figures from the stored analyses in {csv_path}")


#: Each ``bgboard club`` command that works on an open club (the evening's are club_evening's).
COMMANDS: dict[str, Callable[[Director, argparse.Namespace, str], None]] = {
    "player": _player,
    "event": _event,
    "round": _round,
    "result": _result,
    "forfeit": _forfeit,
    "withdraw": _withdraw,
    "penalty": _penalty,
    "standings": _standings,
    "ratings": _ratings,
    "director-password": _director_password,
    "analyse": _analyse,
    "export": _export,
}


def _new_password(from_stdin: bool) -> str:
    """The new director password: one line of stdin, or asked twice without echo."""
    if from_stdin:
        # one line, bounded by the bytes read (</dev/zero has no newline) and, unless a person
        # types it at a terminal, in time (a pipe that never ends)
        try:
            fd = sys.stdin.fileno()
        except (AttributeError, OSError, ValueError):  # not a real file (a test's StringIO)
            text = sys.stdin.readline(MAX_PASSWORD_LINE + 1)
            if len(text) > MAX_PASSWORD_LINE:
                raise InputError("the line on standard input is too long for a password") from None
            return text.rstrip("\r\n")
        line = read_fd(fd, "standard input", MAX_PASSWORD_LINE, line=True, forever=os.isatty(fd))
        try:
            return line.decode("utf-8").rstrip("\r")
        except UnicodeDecodeError:
            raise InputError("the password on standard input is not UTF-8 text") from None
    first = getpass.getpass("New director password: ")
    if getpass.getpass("The same again: ") != first:
        raise InputError("the two passwords differ: nothing was changed, run the command again")
    return first


def _demo(args: argparse.Namespace) -> int:
    """``club demo``: play the evening, then print the standings and where everything is."""
    from bgboard.net.mosquitto import mosquitto_binary
    from bgboard.sim.clubdemo import play_evening

    mosquitto_binary()  # one sentence if Mosquitto is not installed
    result = asyncio.run(play_evening(args.out, args.boards, args.players, args.length, on_line=lambda t: print(t, flush=True)))
    print(f"champion: {result.champion} after {result.matches} matches")
    for s in result.standings:
        print(f"{s.rank:>3}. {s.name:<12} {s.wins}-{s.losses}  {s.status}")
    if result.pages:
        print(f"the live pages were at {result.pages}; see them again: "
              f"bgboard club --db {args.out / 'club.sqlite'} serve --http 127.0.0.1:8080")
    print(f"draw, standings and every .mat: {result.export}/ (draw.html); boards' records: {args.out}/board*/matches/")
    return 0
