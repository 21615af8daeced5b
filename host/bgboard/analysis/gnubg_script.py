"""Runs *inside* GNU Backgammon's embedded Python, not in bgboard's own interpreter:

    BGBOARD_GNUBG_PLIES=0 BGBOARD_GNUBG_FILES=FILE.mat gnubg -t -q -p gnubg_script.py

(gnubg passes a script no arguments: the plies and the files, joined by the path separator,
come in the environment; ``BGBOARD_GNUBG_FILES=-``: one file name a line on standard input,
each analysed as it comes, until the input ends)

(Debian's ``gnubg`` package, built for arm64 and armhf as for x86-64: the Raspberry Pi's
analysis engine, :mod:`bgboard.analysis.gnubg_program`).  For each file gnubg imports the
match, analyses it (``set threads 1``: with its default threads ``analyse match`` never
returns there, REFERENCE.md) and prints one line ``@@`` + JSON: the text of ``show
statistics match`` (gnubg writes it to the C stdout: caught through a file descriptor) and
each decision gnubg graded, for the worst decisions and the PR's interval.  One decision:
``[game, move number, player (0 = the file's first), kind, error EMG, played, better]``.
"""

import importlib
import json
import os
import sys
import tempfile
from typing import Any

#: gnubg's embedded module, imported by :func:`main`: there only inside the program (PyPI's
#: gnubg differs in places), and importing this file elsewhere runs nothing
gnubg: Any = None

#: gnubg's EMG of a double/pass (normalised money equity: one cube)
DROP = 1.0


def _move_text(board, move):
    try:
        return gnubg.movetupletostring(move, board)
    except Exception:  # noqa: BLE001 — gnubg refuses some boards' strings: the tuple then
        return " ".join(f"{a}/{b}" for a, b in move)


def _cube_options(analysis, ci):
    """(no double, double/take) in EMG for the player on roll: gnubg's analysis keeps a
    match's cube equities as match winning chances (``mwc2eq`` under the position's cube)."""
    nd, dt = analysis.get("nd-cubeful-eq"), analysis.get("dt-cubeful-eq")
    if nd is None or dt is None:
        return None
    if ci is not None:
        nd, dt = gnubg.mwc2eq(nd, ci), gnubg.mwc2eq(dt, ci)
    return nd, dt


def decisions(match, names):
    info = match["match-info"]
    length = int(info.get("match-length") or 0)
    crawford_rule = "Crawford" in (info.get("rules") or ())
    out = []
    crawford_done = False
    for g, game in enumerate(match["games"], start=1):
        score = (int(game["info"].get("score-X", 0)), int(game["info"].get("score-O", 0)))
        crawford = bool(length and crawford_rule and not crawford_done and length - 1 in score)
        crawford_done = crawford_done or crawford
        cube, owner, doubler, last_dt = 1, -1, None, None
        for n, action in enumerate(game["game"], start=1):
            analysis = action.get("analysis") or {}
            player = names.index(action["player"]) if action.get("player") in names else 0
            kind = action["action"]
            ci = gnubg.cubeinfo(cube, owner, player, length, score, int(crawford), 0) if length else None
            options = _cube_options(analysis, ci)
            if kind == "move" and options is not None:  # the roller chose not to double
                nd, doubled = options[0], min(options[1], DROP)
                if max(nd, doubled) - nd > 1e-9:
                    better = "double, pass" if doubled >= DROP else "double, take"
                    out.append([g, n, player, "cube", max(nd, doubled) - nd, "no double", better])
            if kind == "double":
                doubler, last_dt = player, None
                if options is not None:
                    nd, last_dt = options
                    doubled = min(last_dt, DROP)
                    if max(nd, doubled) - doubled > 1e-9:
                        out.append([g, n, player, "cube", max(nd, doubled) - doubled, "double", "no double"])
            if kind in ("take", "drop") and last_dt is not None:
                # the taker's loss: a take gives the doubler double/take, a pass DROP
                error = max(0.0, last_dt - DROP) if kind == "take" else max(0.0, DROP - last_dt)
                if error > 1e-9:
                    out.append([g, n, player, "cube", error, "take" if kind == "take" else "pass",
                                "pass" if kind == "take" else "take"])
            if kind == "take":
                cube, owner = cube * 2, player
            moves = analysis.get("moves")
            if kind == "move" and moves and len(moves) > 1 and "imove" in analysis:
                played = moves[analysis["imove"]]
                board = gnubg.positionfromid(action["board"]) if "board" in action else None
                error = max(0.0, moves[0]["score"] - played["score"])
                out.append([g, n, player, "play", error, _move_text(board, played["move"]),
                            _move_text(board, moves[0]["move"])])
    return out


def table():
    with tempfile.TemporaryFile(mode="w+") as out:
        sys.stdout.flush()
        saved = os.dup(1)
        os.dup2(out.fileno(), 1)
        try:
            gnubg.command("show statistics match")
        finally:
            sys.stdout.flush()
            os.dup2(saved, 1)
            os.close(saved)
        out.seek(0)
        return out.read()


def main():
    global gnubg
    gnubg = importlib.import_module("gnubg")
    plies = int(os.environ.get("BGBOARD_GNUBG_PLIES", "0"))
    for command in ("set sound enable off", "set display off", "set confirm new off", "set threads 1",
                    f"set analysis chequerplay evaluation plies {plies}",
                    f"set analysis cubedecision evaluation plies {plies}", "set output mwc off"):
        gnubg.command(command)
    given = os.environ.get("BGBOARD_GNUBG_FILES", "")
    # "-": the files' names come one a line on standard input (one gnubg for a whole batch)
    files = (line.rstrip("\n") for line in sys.stdin) if given == "-" else iter(given.split(os.pathsep))
    for name in files:
        try:
            print("@@" + json.dumps(analysed(name)), flush=True)
        except Exception as exc:  # noqa: BLE001 — the caller waits for one line per file: say why
            if given != "-":
                raise
            print("@@" + json.dumps({"file": name, "error": f"{type(exc).__name__}: {exc}"}), flush=True)


def analysed(name):
    """One file's line: gnubg's statistics table and the decisions it graded."""
    gnubg.command(f'import mat "{name}"')
    gnubg.command("analyse match")
    match = gnubg.match(analysis=1, boards=1, statistics=0, verbose=0)
    names = [k for k in ("X", "O")]
    text = table()
    return {"file": name, "table": text, "decisions": decisions(match, names)}


if os.environ.get("BGBOARD_GNUBG_FILES"):  # run by gnubg for bgboard.analysis.gnubg_program
    main()
