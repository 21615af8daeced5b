"""gnubg's own match analysis, as the oracle for ``bgboard analyse`` (run in a subprocess:
gnubg's embedded module keeps global state).

    python gnubg_stats.py PLIES FILE...     one JSON line per file (prefixed ``@@``): the
                                            figures of gnubg's ``show statistics match``
                                            for both players, and the seconds its
                                            ``analyse match`` took

gnubg analyses fast only after ``set threads 1`` (REFERENCE.md); its statistics come back
as text only (``gnubg.match(statistics=1)`` does not return them), so the table is parsed.
"""

from __future__ import annotations

import contextlib
import json
import sys
import time

import gnubg  # type: ignore[import-not-found]

from bgboard.analysis import gnubg_script
from bgboard.analysis.gnubg_table import statistics  # the table's reader, shared with the gnubg program's analysis

gnubg_script.gnubg = gnubg  # its table() asks this module (PyPI's gnubg here, the program's own there)


def main() -> None:
    plies = int(sys.argv[1])
    for command in (
        "set sound enable off",
        "set display off",
        "set confirm new off",
        "set threads 1",
        f"set analysis chequerplay evaluation plies {plies}",
        f"set analysis cubedecision evaluation plies {plies}",
        "set output mwc off",
    ):
        gnubg.command(command)
    for name in sys.argv[2:]:
        gnubg.command(f"import mat {name}")
        start = time.perf_counter()
        gnubg.command("analyse match")
        seconds = time.perf_counter() - start
        text = gnubg_script.table()  # the C stdout caught as the gnubg program's analysis catches it
        print("@@" + json.dumps({"file": name, "seconds": seconds, "players": statistics(text)}), flush=True)


if __name__ == "__main__":
    with contextlib.suppress(BrokenPipeError):
        main()
