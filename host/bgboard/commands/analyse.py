"""``bgboard analyse FILE.mat|JOURNAL|FOLDER... [--engine auto|gnubg-nn|gnubg|bgsage] [--ply 0|1|2] [--json]``

Per player, the figures of gnubg's ``show statistics match`` (checker play, cube, overall
error rate, Snowie error rate, rating words, luck) and XG's PR with a 95 % interval, the
worst decisions with the better choice (docs/analysis.md).  A folder is analysed with
every ``.mat`` file under it, with a progress bar on stderr and a results cache
(``--cache``, by default in the user's cache folder, never in the folder analysed) that lets
an interrupted run resume; a file that cannot be analysed is named with its sentence.  Exit code 2 when a file cannot be
analysed (one sentence each) or the options are wrong.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from pathlib import Path
from typing import Any, Mapping

from bgboard.language import ENGLISH, N_, Words, say
from bgboard.language.catalogues import add_lang_argument, players_words
from bgboard.errors import InputError


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:  # type: ignore[type-arg]
    p = subparsers.add_parser(
        "analyse",
        help="analyse matches: error rates, PR and luck per player, as gnubg and XG report them",
        description="Analyse .mat files, board journals or folders of .mat files: per player the "
        "checker, cube and overall error rates as gnubg's 'show statistics match' counts them, "
        "XG's PR with a confidence interval, luck, and the worst decisions.",
    )
    p.add_argument("files", nargs="+", type=Path, metavar="FILE", help=".mat file, journal.db or folder")
    p.add_argument("--engine", default="auto", help="gnubg-nn (0-ply, agrees with gnubg), gnubg (the gnubg program: Debian's package, the Pi's engine), bgsage, or auto (default: the first of them installed)")
    p.add_argument("--ply", type=int, default=0, help="0, 1 or 2 (gnubg's numbering: 0 = the raw net)")
    p.add_argument("--json", action="store_true", help='print {"players": [...]} (one object per file)')
    p.add_argument("--cache", type=Path, help="results cache for folders (default: one per folder in "
                   "$XDG_CACHE_HOME/bgboard or ~/.cache/bgboard, never in the folder analysed)")
    p.add_argument("--worst", type=int, default=5, help="how many worst decisions to list per player")
    add_lang_argument(p)
    return p


def default_cache(folder: Path, environ: Mapping[str, str] = os.environ) -> Path:
    """The results cache of ``folder``'s analysis: in the user's cache folder
    (``$XDG_CACHE_HOME``, else ``~/.cache``), one file per folder analysed — nothing is
    written into the folder itself."""
    base = Path(environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    digest = hashlib.sha256(str(folder.resolve()).encode()).hexdigest()[:16]
    return base / "bgboard" / f"analysis-{digest}.jsonl"


def one_line(text: str, longest: int = 120) -> str:
    """A file's sentence as one bounded, printable line (as the CLI prints its own)."""
    text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    return text if len(text) <= 4 * longest else f"{text[: 2 * longest]}... ({len(text)} characters)"


def _bar(done: int, total: int, name: str) -> None:
    width = 30
    filled = width * done // max(total, 1)
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {one_line(name[-40:]):40s}")
    sys.stderr.flush()


#: The longest player's name the table shows whole (a club's names, an engine and its level).
NAME_MOST = 40


def _text(result: dict[str, Any], w: Words = ENGLISH) -> str:
    lines = [say(w, "%(file)s (%(engine)s, %(plies)d-ply)", file=result["file"], engine=result["engine"],
                 plies=result["plies"])]
    players = result["players"]
    rows = [  # gnubg's own labels (its ratings' words stay gnubg's, in English)
        (N_("Total moves"), "total_moves", "{}"),
        (N_("Unforced moves"), "unforced_moves", "{}"),
        (N_("Checker error EMG"), "checker_error_emg", "{:.3f}"),
        (N_("Checker error rate mEMG"), "checker_rate_memg", "{:.1f}"),
        (N_("Cube decisions"), "cube_decisions", "{}"),
        (N_("Close or actual cube decisions"), "close_cube_decisions", "{}"),
        (N_("Cube error EMG"), "cube_error_emg", "{:.3f}"),
        (N_("Error rate mEMG"), "error_rate_memg", "{:.1f}"),
        (N_("Snowie error rate"), "snowie_error_rate", "{:.1f}"),
        ("PR", "pr", "{:.2f}"),
        (N_("Rating"), "overall_rating", "{}"),
        (N_("Luck EMG"), "luck_emg", "{:+.3f}"),
        (N_("Luck rating"), "luck_rating", "{}"),
    ]
    # each column as wide as its player's name (an engine's "gnubg-nn (intermediate)" whole), up to NAME_MOST
    names = [p["name"] if len(p["name"]) <= NAME_MOST else p["name"][: NAME_MOST - 1] + "…" for p in players]
    width = [max(20, len(name)) for name in names]
    lines.append(f"  {'':32s} {names[0]:>{width[0]}s} {names[1]:>{width[1]}s}")
    missing = say(w, "n/a")
    for label, key, fmt in rows:
        cells = [fmt.format(p[key]) if p[key] is not None else missing for p in players]
        lines.append(f"  {say(w, label):32s} {cells[0]:>{width[0]}s} {cells[1]:>{width[1]}s}")
    for p in players:
        lo, hi = p["pr_low"], p["pr_high"]
        ci = f"{lo:.1f}–{hi:.1f}" if lo is not None and hi is not None else missing
        note = f" ({p['pr_note']})" if p.get("pr_note") else ""
        summary = say(w, "%(name)s: PR %(pr)s, 95 %% interval %(interval)s over %(decisions)s decisions%(note)s",
                      name=p["name"], pr=f"{p['pr']:.2f}", interval=ci, decisions=p["decisions"], note=note)
        lines.append(f"  {summary}")
        for d in p["worst"]:
            where = (say(w, "line %(line)s", line=d["line"]) if d.get("line") is not None
                     else say(w, "move %(number)s", number=d.get("move")))
            worst = say(w, "game %(game)s %(where)s: %(played)s — better %(better)s (−%(error)s EMG)",
                        game=d["game"], where=where, played=d["played"], better=d["better"],
                        error=f"{d['error_emg']:.3f}")
            lines.append(f"    {worst}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    from bgboard.analysis.file_batch import Cache, expand, iter_results
    from bgboard.analysis.evaluators import open_engine

    if args.worst < 0 or args.worst > 50:
        raise InputError("--worst must be between 0 and 50")
    files = expand(list(args.files))
    if not files:
        raise InputError("no .mat file found in the folders named")
    folder = next((p for p in args.files if p.is_dir()), None)
    cache_path = args.cache or (default_cache(folder) if folder is not None else None)
    cache = Cache.open(cache_path) if cache_path is not None else None
    evaluator = open_engine(args.engine.strip().lower(), args.ply)
    failed = 0
    results: list[dict[str, Any]] = []
    show_bar = len(files) > 1 and sys.stderr.isatty() or folder is not None
    try:
        for done, (path, figures) in enumerate(iter_results(files, evaluator, args.ply, cache), 1):
            if show_bar:
                _bar(done, len(files), str(path))
            if isinstance(figures, str):
                if len(files) == 1:
                    raise InputError(figures)  # one file: the CLI's one line, exit code 2
                failed += 1
                if show_bar:
                    sys.stderr.write("\n")
                print(f"bgboard: {path}: {one_line(figures)}", file=sys.stderr)  # (which of the files)
                continue
            for p in figures["players"]:
                p["worst"] = p["worst"][: args.worst]
            results.append(figures)
            if not args.json:
                if show_bar:  # the bar's line is cleared before the figures (stderr and stdout share a terminal)
                    sys.stderr.write("\r" + " " * 80 + "\r")
                    sys.stderr.flush()
                print(_text(figures, players_words(args.lang)), flush=True)
    except KeyboardInterrupt:
        sys.stderr.write(f"\ninterrupted after {len(results)} files; run again to resume"
                         f"{' (cache ' + str(cache_path) + ')' if cache_path else ''}\n")
        return 130
    finally:
        close = getattr(evaluator, "close", None)  # (the gnubg program: its one process for every file)
        if close is not None:
            close()
    if show_bar:
        sys.stderr.write("\n")
    if args.json:
        if len(args.files) == 1 and len(results) == 1 and not args.files[0].is_dir():
            print(json.dumps(results[0]))
        else:
            print(json.dumps({"files": results}))
    return 2 if failed else 0
