"""Builds the .mat corpus in tests/data/match/world/ (run once; the files are committed).

    .venv/bin/python tests/match/make_world_corpus.py

* ``gnubg_headers_*.mat``: bgboard selfplay matches imported by gnubg 1.1.0a16, given every
  match info its exporter writes (Site, Event, Round, EventDate, Transcriber, a comment,
  ratings) and exported by gnubg (``export match mat``);
* ``gnubg_match_*.mat``: matches gnubg played itself (its dice, gnubg-nn 0-ply plays, a
  pip-count cube rule) and exported;
* ``gnubg_session_*.mat``: money sessions gnubg played, with resignations, exported;
* ``style_*.mat``: those files rewritten in the styles other programs write (XG's BOM, CRLF,
  its header tags, ``???`` and ``Cannot Move``; GridGammon's ratings after the names;
  ``[Variation "Backgammon"]``; Jellyfish's bare layout) — the transformations are below;
* ``hand_*.mat``: written by hand (see each file's comment lines).
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "host"))

from bgboard.match.mat_write import export_mat  # noqa: E402
from bgboard.match.selfplay import selfplay  # noqa: E402

WORLD = ROOT / "tests" / "data" / "match" / "world"
ORACLE = ROOT / "tests" / "match" / "gnubg_oracle.py"

# (length, seed): a resignation (3/15), one after rolling (5/21), a dance then a
# resignation (7/21), a backgammon (3/20), a rejected resignation (3/44), longer matches.
SELFPLAY = [(3, 15), (5, 21), (7, 21), (3, 20), (3, 44), (9, 300), (5, 2), (11, 101), (1, 7)]
GNUBG_MATCHES = [(5, 11), (3, 12), (7, 13)]
SESSIONS = [(6, 3), (5, 8)]


def oracle(*args: str) -> None:
    subprocess.run([sys.executable, str(ORACLE), *args], check=True, capture_output=True, timeout=600)


def date_free(text: str) -> str:
    """gnubg dates its exports today: keep the corpus stable."""
    return re.sub(r'; \[EventDate "[^"]*"\]', '; [EventDate "2026.11.23"]', text)


def xg_style(text: str, jacoby: bool = False) -> bytes:
    """eXtreme Gammon's layout: BOM, CRLF, its header tags, ``Cannot Move`` for a dance,
    ``???`` for dice rolled before a resignation."""
    head = (
        '; [Site "eXtreme Gammon"]\n; [Match ID "123456789"]\n; [Player 1 "White"]\n'
        '; [Player 2 "Black"]\n; [Player 1 Elo "1600.00/0"]\n; [Player 2 Elo "1600.00/0"]\n'
        '; [EventDate "2026.11.23"]\n; [EventTime "17.05"]\n; [Variation "Backgammon"]\n'
        '; [Unrated "Off"]\n; [Jacoby "' + ("On" if jacoby else "Off") + '"]\n; [Beaver "Off"]\n; [Crawford "On"]\n'
        '; [CubeLimit "1024"]\n\n'
    )
    body = text.split("\n\n", 1)[1]
    lines = []
    for line in body.split("\n"):
        # a roll with nothing after it, followed by the other column's Wins: XG's ???
        line = re.sub(r"(\d\d): (\s*)(?=Wins)", r"\1: ???\2", line)
        lines.append(line)
    out = head + "\n".join(lines)
    out = re.sub(r"(?m)^(\s*\d+\) )(\d\d): $", r"\1\2: Cannot Move", out)
    return b"\xef\xbb\xbf" + out.replace("\n", "\r\n").encode()


def gridgammon_style(text: str, ratings: tuple[str, str]) -> str:
    """GridGammon's names with ratings (``Ann,1650 : 0``) and trailing blank lines."""
    def names(m: "re.Match[str]") -> str:
        left = f"{m.group(1)},{ratings[0]} : {m.group(2)}"
        return f" {left:<31}{m.group(3)},{ratings[1]} : {m.group(4)}"

    out = re.sub(r"(?m)^ (\S+) : (\d+)\s+(\S+) : (\d+)$", names, text)
    return out + "\n\n\n"


def main() -> None:
    WORLD.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        files = []
        for length, seed in SELFPLAY:
            path = Path(tmp) / f"selfplay_{length}_{seed}.mat"
            path.write_text(export_mat(selfplay(length, seed)))
            files.append(path)
        oracle("headers", *map(str, files))
        for path in files:
            text = date_free(Path(f"{path}.gnubg").read_text())
            (WORLD / f"gnubg_headers_{path.stem}.mat").write_text(text)
        for length, seed in GNUBG_MATCHES:
            out = Path(tmp) / "m.mat"
            oracle("play", str(length), str(seed), str(out))
            (WORLD / f"gnubg_match_{length}_{seed}.mat").write_text(date_free(out.read_text()))
        for games, seed in SESSIONS:
            out = Path(tmp) / "s.mat"
            oracle("session", str(games), str(seed), str(out))
            (WORLD / f"gnubg_session_{games}_{seed}.mat").write_text(date_free(out.read_text()))
    for name in ("gnubg_headers_selfplay_7_21.mat", "gnubg_headers_selfplay_5_21.mat", "gnubg_session_6_3.mat"):
        text = (WORLD / name).read_text()
        (WORLD / f"style_xg_{name.removeprefix('gnubg_').removeprefix('headers_')}").write_bytes(xg_style(text, "session" in name))
    for name, ratings in (("gnubg_match_5_11.mat", ("1650", "1702")), ("gnubg_headers_selfplay_9_300.mat", ("1500", "1999"))):
        text = (WORLD / name).read_text()
        (WORLD / f"style_gridgammon_{name.removeprefix('gnubg_')}").write_text(gridgammon_style(text, ratings))


if __name__ == "__main__":
    main()
