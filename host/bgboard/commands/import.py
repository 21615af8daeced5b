"""``bgboard import``: read match files (``.mat``) the way gnubg's ``import mat`` reads them.

    bgboard import FILE|FOLDER... [--json] [--strict]

Prints, per file, the players, the length, the games and the score, then each problem
found with its line number (``bgboard.match.import_mat`` says what counts as one).  A
folder is read with every ``.mat`` file under it.  Exit code 2 only when some file could
not be read at all (not a match record, not readable), or with ``--strict`` when a file
has a problem; 0 otherwise.  ``--json`` prints ``{"files": [{"file": ..., "ok": true,
"match": {...}} | {"file": ..., "ok": false, "error": "..."}]}``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from bgboard.errors import InputError
from bgboard.files import open_for_reading, read_fd
from bgboard.match import ImportedMatch, MatchRecordError, import_mat

#: Files bigger than this are no match record (the longest matches are a few hundred kB).
MAX_BYTES = 16 * 1024 * 1024


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "import",
        help="read .mat match files (as gnubg imports them) and report games, score and problems",
        description="Read .mat match files written by gnubg, eXtreme Gammon, Snowie, online "
        "servers ...: per file the players, length, games and score, and every problem found "
        "with its line number.  A folder is read with every .mat file under it.",
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help=".mat file or folder")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--strict", action="store_true",
                        help="refuse a file with any problem (an illegal play, a wrong score ...)")
    return parser


def mat_files(names: list[str]) -> list[Path]:
    """The files named, folders expanded to their ``.mat`` files (sorted)."""
    out: list[Path] = []
    for name in names:
        path = Path(name)
        if path.is_dir():
            found = sorted(p for p in path.rglob("*") if p.suffix.lower() == ".mat" and p.is_file())
            if not found:
                raise InputError(f"{name} holds no .mat file: name .mat files or a folder with some")
            out += found
        else:
            out.append(path)
    return out


def read_file(path: Path, strict: bool = False) -> ImportedMatch:
    """One file read; :class:`InputError` (one sentence) when it cannot be read at all."""
    try:
        fd = open_for_reading(path)
    except IsADirectoryError:
        raise InputError("is a folder") from None
    except FileNotFoundError:
        raise InputError("no such file: check the name") from None
    except OSError as exc:
        raise InputError(f"cannot be read ({exc.strerror or exc})") from None
    try:  # bounded by the bytes read (a device), and in time (a named pipe nobody writes to)
        data = read_fd(fd, "it", MAX_BYTES)
    finally:
        os.close(fd)
    try:
        return import_mat(data, strict=strict)
    except MatchRecordError as exc:
        raise InputError(str(exc)) from None


def read_named(path: Path) -> ImportedMatch:
    """:func:`read_file` for one file named on the command line: the sentence names it."""
    try:
        return read_file(path)
    except InputError as exc:
        raise InputError(f"{path}: {exc}") from None


def describe(match: ImportedMatch) -> str:
    """One line: players, length, games, score."""
    a, b = match.players
    games = len(match.games)
    what = "money session" if match.length == 0 else f"{match.length} point match"
    line = f"{a} {match.score[0]} - {match.score[1]} {b}, {what}, {games} game{'s' if games != 1 else ''}"
    if match.winner is not None:
        line += f", won by {match.players[match.winner]}"
    elif match.length:
        line += ", not finished"
    if match.problems:
        n = len(match.problems)
        line += f", {n} problem{'s' if n != 1 else ''}"
    return line


def run(args: argparse.Namespace) -> int:
    files = mat_files(args.files)
    failed = 0
    results = []
    for path in files:
        try:
            match = read_file(path, args.strict)
        except InputError as exc:
            failed += 1
            if args.json:
                results.append({"file": str(path), "ok": False, "error": str(exc)})
            else:
                print(f"bgboard: {path}: {exc}", file=sys.stderr)
            continue
        if args.json:
            results.append({"file": str(path), "ok": True, "match": match.to_dict()})
            continue
        print(f"{path}: {describe(match)}")
        for problem in match.problems:
            game = f" (game {problem.game})" if problem.game is not None else ""
            print(f"  {problem}{game}")
    if args.json:
        print(json.dumps({"files": results}, ensure_ascii=False))
    return 2 if failed else 0
