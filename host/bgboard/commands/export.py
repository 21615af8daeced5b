"""``bgboard export --journal FILE --out DIR``: the match record of a board's journal.

Rebuilds ``match.mat`` and ``match.sgf`` of the journal's current match (takebacks undone,
a club match with its event and round in the .mat header) exactly as ``bgboard run`` writes
them beside the journal during play.  The journal is only read.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from bgboard.errors import InputError


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:  # type: ignore[type-arg]
    p = subparsers.add_parser(
        "export",
        help="write match.mat and match.sgf from a board's journal",
        description="Rebuild the match record (match.mat, match.sgf) of a journal's current match.",
    )
    p.add_argument("--journal", required=True, type=Path, metavar="FILE", help="the board's journal (journal.db)")
    p.add_argument("--out", required=True, type=Path, metavar="DIR", help="where to write match.mat and match.sgf")
    return p


def run(args: argparse.Namespace) -> int:
    from bgboard.control.session import MatchSession, ReadOnlyJournal, Settings
    from bgboard.match.recordfile import write_records
    from bgboard.net.board_report import mat_info
    from bgboard.net.seat import club_match_of
    from bgboard.store.journal import read_entries

    entries = read_entries(args.journal)
    if not any(e.kind == "action" for e in entries):
        raise InputError(f"{args.journal} holds no match yet: nothing to export")
    session, _ = MatchSession.resume(ReadOnlyJournal(entries), Settings(), 0)
    if not session.actions:
        raise InputError(f"{args.journal}'s last match has no action yet: nothing to export")
    club = club_match_of(entries)
    out = args.out
    if out.exists() and not out.is_dir():
        raise InputError(f"--out {out} is a file, not a directory")
    out.mkdir(parents=True, exist_ok=True)
    write_records(session.actions, out, mat_info(club[0]) if club else None)
    state = session.state
    assert state is not None
    print(f"{len(session.actions)} actions, {state.players[0]} {state.score[0]} - {state.score[1]} {state.players[1]}:"
          f" {out / 'match.mat'}, {out / 'match.sgf'}")
    return 0
