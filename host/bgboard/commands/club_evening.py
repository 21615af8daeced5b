"""``bgboard club``'s evening commands (check-in, late entries, players, payouts, backups).

    bgboard club event new ... [--check-in] [--confirm-results] [--entry-fee AMOUNT --payout 50,30,20
                               [--consolation-payout 60,40] [--rake PERCENT] [--round-to UNIT]]
    bgboard club event set EVENT [the same options]
    bgboard club event list [--json]
    bgboard club event late EVENT NAME [--score 0|0.5]
    bgboard club player edit NAME [--name NEW] [--rating R]
    bgboard club player remove NAME
    bgboard club checkin EVENT NAME... [--undo]  |  checkin EVENT --close  |  checkin EVENT --list
    bgboard club held [--json]  |  held --accept N  |  held --decide N --score A-B
    bgboard club matches EVENT [--json]
    bgboard club payouts EVENT [--json]
    bgboard club payouts EVENT --correct [--entry-fee AMOUNT] [--payout 50,30,20] [...] --reason TEXT
    bgboard club backup --out FILE  |  backup --auto DIR  |  backup --auto off
    bgboard club restore FILE

Every operation is :mod:`bgboard.club.evening`'s or :mod:`bgboard.club.backup`'s; this module
only parses and prints (``commands/club.py`` hands it the commands it does not know).
"""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

from bgboard.club import evening
from bgboard.club.checks import shell_word
from bgboard.club.db import shown
from bgboard.digits import decimal_argument
from bgboard.errors import InputError


def add_event_options(p: argparse.ArgumentParser, new: bool = True) -> None:
    """The check-in and money options of ``event new`` (and ``event set``)."""
    if new:
        p.add_argument("--check-in", action="store_true",
                       help="pair only the players who check in; the draw is made when check-in closes")
    p.add_argument("--entry-fee", metavar="AMOUNT", help="each entrant's fee, such as 10 or 7.50")
    p.add_argument("--payout", metavar="P1,P2,...", help="percentages of the pot by place, such as 50,30,20")
    p.add_argument("--consolation-payout", metavar="P1,P2,...",
                   help="double elimination: the consolation flight's percentages (with --payout, 100 in all)")
    p.add_argument("--rake", type=decimal_argument("--rake", "5"), metavar="PERCENT", help="the club's share of the entry fees")
    p.add_argument("--round-to", metavar="UNIT", help="round each amount down to this unit (default 1)")
    p.add_argument("--confirm-results", action=argparse.BooleanOptionalAction, default=None,
                   help="networked boards: a result counts once both players confirm it at the board; "
                        "a disputed one waits for the director")


def add_parsers(sub: Any, player: Any, event: Any) -> None:
    """The evening's subcommands, beside ``club``'s own."""
    p = player.add_parser("edit", help="rename a player or set his starting rating")
    p.add_argument("name", metavar="NAME")
    p.add_argument("--name", dest="new_name", metavar="NEW")
    p.add_argument("--rating", type=decimal_argument("--rating", "1500"), metavar="R", help="starting rating (every rating is re-derived)")
    p = player.add_parser("remove", help="remove a player who never entered an event")
    p.add_argument("name", metavar="NAME")

    p = event.add_parser("set", help="set an event's entry fee and payouts")
    p.add_argument("event", metavar="EVENT")
    add_event_options(p, new=False)
    p = event.add_parser("list", help="list the events")
    p.add_argument("--json", action="store_true")
    p = event.add_parser("late", help="enter a player in a running event (the format's rule)")
    p.add_argument("event", metavar="EVENT")
    p.add_argument("name", metavar="NAME")
    p.add_argument("--score", default="0", choices=("0", "0.5"),
                   help="Swiss: the starting score (0.5: a half-point bye; default 0)")

    p = sub.add_parser("checkin", help="check players in (an event made with --check-in)")
    p.add_argument("event", metavar="EVENT")
    p.add_argument("names", nargs="*", metavar="NAME")
    group = p.add_mutually_exclusive_group()
    group.add_argument("--undo", action="store_true", help="check the players out again")
    group.add_argument("--close", action="store_true",
                       help="close check-in: drop who did not check in and make the draw")
    group.add_argument("--list", action="store_true", help="who is checked in")

    p = sub.add_parser("matches", help="an event's matches with their numbers")
    p.add_argument("event", metavar="EVENT")
    p.add_argument("--json", action="store_true")
    p = sub.add_parser("payouts", help="an event's pot and each paid place (--correct: a finished event's money)")
    p.add_argument("event", metavar="EVENT")
    p.add_argument("--json", action="store_true")
    p.add_argument("--correct", action="store_true",
                   help="correct a finished event's entry fee, payouts, rake or unit (audited, with --reason)")
    p.add_argument("--reason", default="", help="why the money is corrected (audit log)")
    add_event_options(p, new=False)
    p = sub.add_parser("backup", help="copy the club database safely, even while 'club serve' runs")
    group = p.add_mutually_exclusive_group(required=True)
    group.add_argument("--out", metavar="FILE", help="the backup file to write")
    group.add_argument("--auto", metavar="DIR", help="back up into DIR after each round ('off' to stop)")
    p = sub.add_parser("restore", help="replace the club database by a backup (checked first)")
    p.add_argument("file", metavar="FILE")
    p = sub.add_parser("held", help="board results waiting for the director (disputed or not confirmed)")
    group = p.add_mutually_exclusive_group()
    group.add_argument("--accept", metavar="N", help="accept held result N: the board's score and .mat count")
    group.add_argument("--decide", metavar="N", help="enter the right score of held result N (with --score)")
    p.add_argument("--score", metavar="A-B", help="with --decide: the score that counts")
    p.add_argument("--json", action="store_true")


def without_db(path: Path | str, args: argparse.Namespace) -> int | None:
    """The commands that must not open the database first (None: not one of them)."""
    from bgboard.club import backup

    if args.club_command == "restore":
        kept = backup.restore(args.file, path)
        print(f"club {backup.club_name(path)!r} restored into {shown(path)} from {args.file}"
              + (f" (what was there is kept as {kept})" if kept else ""))
        return 0
    if args.club_command == "backup" and args.out:
        out = backup.backup(path, args.out)
        print(f"club {backup.check_club_file(out)!r} backed up to {out}")
        return 0
    return None


def configure(d: Any, event: str, args: argparse.Namespace, by: str, check_in: bool | None = None) -> None:
    options = {"entry_fee": args.entry_fee, "payout": args.payout,
               "consolation_payout": args.consolation_payout, "rake": args.rake, "round_to": args.round_to,
               "confirm_results": args.confirm_results}
    if check_in:
        options["check_in"] = True
    if any(v is not None for v in options.values()):
        s = evening.configure(d, event, **{k: v for k, v in options.items() if v is not None}, actor=by)
        if args.confirm_results is not None:
            print("board results: " + ("both players confirm them at the board" if s.get("confirm_results")
                                       else "they count when the board reports them"))
        if s.get("check_in") == evening.OPEN:
            print(f"check-in is open: 'bgboard club checkin {shell_word(event)} NAME...', then --close")
        elif s.get("check_in") == evening.CLOSED:
            print("check-in is closed")
        if "fee_cents" in s:
            split = ",".join(f"{p:g}" for p in s.get("payout", [100]))
            extra = (" consolation " + ",".join(f"{p:g}" for p in s["consolation_payout"])
                     if s.get("consolation_payout") else "")
            print(f"entry fee {s['fee_cents'] / 100:.2f}, payout {split}{extra}, rake {s.get('rake', 0):g}%")


def run(d: Any, args: argparse.Namespace, by: str) -> int | None:
    """Run an evening command on the open Director ``d`` (None: not one of them)."""
    cmd = args.club_command
    if cmd == "player" and args.player_command == "edit":
        name = evening.edit_player(d, args.name, args.new_name, args.rating, actor=by)
        p = next(p for p in d.players() if p.name == name)
        print(f"player {p.name}: rating {p.rating:.2f}, experience {p.experience}")
    elif cmd == "player" and args.player_command == "remove":
        evening.remove_player(d, args.name, actor=by)
        print(f"player {args.name} removed")
    elif cmd == "event" and args.event_command == "set":
        configure(d, args.event, args, by)
    elif cmd == "event" and args.event_command == "list":
        events = d.events()
        if args.json:
            print(json.dumps([asdict(e) for e in events]))
        for e in events if not args.json else ():
            print(f"{e.name}: {e.format}, {e.length}-point matches, {len(e.players)} "
                  f"player{'s' if len(e.players) != 1 else ''}, {e.status}")
    elif cmd == "event" and args.event_command == "late":
        print(evening.late_entry(d, args.event, args.name, float(args.score), actor=by))
    elif cmd == "checkin":
        _checkin(d, args, by)
    elif cmd == "matches":
        matches = [m for m in d.matches(args.event) if m.status != "bye"]
        if args.json:
            print(json.dumps([asdict(m) for m in matches]))
        for m in matches if not args.json else ():
            score = f"{m.score[0]}-{m.score[1]}" if m.score else m.status
            board = f" board {m.board}" if m.board and m.status == "pending" else ""
            print(f"match {m.number} (id {m.id}), round {m.round}{board}: {m.players[0]} v {m.players[1]}, "
                  f"{score}" + (f", {m.winner} wins" if m.winner else ""))
    elif cmd == "payouts":
        out = _payouts(d, args, by)
        if args.json:
            print(json.dumps(out["paid"] if out["final"] else out))
            return 0
        print(f"pot {out['pot']} ({out['gross']} in entry fees, rake {out['rake']})")
        if not out["final"]:
            print("the places are paid when the event is finished")
        for p in out["paid"]:
            print(f"{p['flight']} {p['place']}. {p['name']}: {p['amount']}")
    elif cmd == "held":
        _held(d, args, by)
    elif cmd == "backup":
        folder = None if args.auto.lower() == "off" else args.auto
        evening.set_backup_dir(d, folder, actor=by)
        print(f"automatic backup after each round into {evening.backup_dir(d)}" if folder
              else "no automatic backup")
    else:
        return None
    return 0


def _payouts(d: Any, args: argparse.Namespace, by: str) -> dict[str, Any]:
    """``club payouts``: the event's pot and places, after a correction with ``--correct``."""
    money = {"entry_fee": args.entry_fee, "payout": args.payout, "consolation_payout": args.consolation_payout,
             "rake": args.rake, "round_to": args.round_to}
    money = {k: v for k, v in money.items() if v is not None}
    if args.confirm_results is not None:
        raise InputError("--confirm-results goes with 'bgboard club event set', not with payouts")
    if not args.correct:
        if money or args.reason:
            raise InputError("changing a finished event's money is a correction: add --correct and --reason WHY "
                             "(before it is finished: 'bgboard club event set')")
        return evening.payouts(d, args.event)
    out = evening.correct_money(d, args.event, reason=args.reason, **money, actor=by)
    if not args.json:
        print(f"corrected ({' '.join(args.reason.split())}); the audit log keeps what was paid before")
    return out


def _held(d: Any, args: argparse.Namespace, by: str) -> None:
    """``club held``: list the results waiting for the director, or settle one (club/confirmations.py)."""
    from bgboard.club import confirmations

    if args.accept or args.decide:
        if args.decide and not args.score:
            raise InputError("say the score that counts: 'bgboard club held --decide N --score A-B'")
        m = (confirmations.accept(d, args.accept, actor=by) if args.accept else
             confirmations.decide(d, args.decide, args.score, actor=by))
        print(f"match {m.number or m.id} of {m.event}: {m.score[0]}-{m.score[1]} recorded, {m.winner} wins")
        return
    if args.score:
        raise InputError("--score goes with --decide N")
    held = confirmations.held(d)
    if args.json:
        print(json.dumps([asdict(h) for h in held]))
        return
    for h in held:
        board = f" board {h.board}," if h.board else ""
        print(f"held {h.id}: {h.event} match {h.number or h.match_id},{board} {h.players[0]} v {h.players[1]} "
              f"{h.score[0]}-{h.score[1]} ({h.why})")
    if not held:
        print("no result waits for you")


def _checkin(d: Any, args: argparse.Namespace, by: str) -> None:
    if args.close:
        if args.names:
            raise InputError("--close takes no names: check them in first")
        absent = evening.close_check_in(d, args.event, actor=by)
        if absent:
            print(f"not checked in, removed: {', '.join(absent)}")
        r = d.pair_round(args.event, actor=by)
        print(f"check-in closed; round {r.round} of {r.event}: {len(r.matches)} "
              f"match{'es' if len(r.matches) != 1 else ''}" + (f", bye for {', '.join(r.byes)}" if r.byes else ""))
        for m in r.matches:
            print(f"board {m.board}: match {m.number} {m.players[0]} v {m.players[1]}")
        if d.last_backup:
            print(d.last_backup)
        return
    if args.list or not args.names:
        for name, checked in evening.check_in_list(d, args.event):
            print(f"{'✓' if checked else ' '} {name}")
        return
    done = evening.check_in(d, args.event, args.names, args.undo, actor=by)
    present = sum(1 for _, c in evening.check_in_list(d, args.event) if c)
    print(f"{'checked out' if args.undo else 'checked in'}: {', '.join(done)} ({present} checked in)")


__all__ = ["add_parsers", "add_event_options", "without_db", "configure", "run"]
