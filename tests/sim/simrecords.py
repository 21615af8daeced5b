"""What a simulated match left behind, read back for the sim tests: the journalled actions
and gnubg's reading of the exported .mat."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

from bgboard.store.journal import Journal


def journal_actions(out: Path) -> list[dict]:
    """The match actions the host journalled in ``out``."""
    with Journal(out / "journal.sqlite") as j:
        return [e.body for e in j.entries() if e.kind == "action"]


def gnubg_games(mat: Path) -> list[tuple[int, int]]:
    """(winner as 0 = left column, points) of every game, as gnubg imports the .mat."""
    script = textwrap.dedent(
        f"""
        import json, gnubg
        gnubg.command("import mat {mat}")
        m = gnubg.match()
        print("RESULT", json.dumps([[g["info"]["winner"], g["info"]["points-won"]] for g in m["games"]]))
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=600)
    line = next(l for l in done.stdout.splitlines() if l.startswith("RESULT "))
    return [(0 if w == "X" else 1, p) for w, p in json.loads(line[7:])]
