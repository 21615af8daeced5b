"""The federation's export (adapter: writes files): its members, results, rating list and each
member's rating history as CSV, every cell safe to open in a spreadsheet.  Used by ``bgboard
federation export`` and the federation demo."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

from bgboard.federation.rating_list import rating_list


def write_export(ledger: Any, out: Path) -> str:
    """Write members.csv, results.csv, ratings.csv and rating_history.csv into ``out``; returns
    the line that says what was written."""
    out.mkdir(parents=True, exist_ok=True)
    results = ledger.results()
    lines, steps = rating_list(results)
    tables: dict[str, tuple[list[str], list[list[Any]]]] = {
        "members.csv": (["id", "name", "club"], [[m["id"], m["name"], m["club"] or ""] for m in ledger.members()]),
        "results.csv": (["played_at", "club", "id", "event", "player_a", "player_b", "member_a", "member_b", "length",
                         "score_a", "score_b", "winner", "rated"],
                        [[r.played_at, r.club, r.id, r.event, *r.players, r.members[0] or "", r.members[1] or "",
                          r.length, *(r.score or ("", "")), r.winner, int(r.rated)] for r in results]),
        "ratings.csv": (["member", "rating", "experience", "matches"],
                        [[x.member, f"{x.rating:.4f}", x.experience, x.matches] for x in lines]),
        "rating_history.csv": (["member", "played_at", "club", "result", "before", "after", "opponent", "won"],
                               [[s.member, s.played_at, s.club, s.result, f"{s.before:.4f}", f"{s.after:.4f}",
                                 s.opponent, int(s.won)] for s in steps]),
    }
    for name, (header, rows) in tables.items():
        with open(out / name, "w", newline="", encoding="utf-8") as f:
            writer = csv.writer(f)
            writer.writerow(header)
            writer.writerows([[_safe(v) for v in row] for row in rows])
    return f"{len(tables)} files written to {out}: {len(results)} results, {len(lines)} rated members"


def _safe(value: Any) -> Any:
    """A CSV cell a spreadsheet will not run as a formula (a club's names are untrusted text)."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value
