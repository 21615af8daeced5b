"""gnubg's ``show statistics match`` table, read (pure): each player's figures as gnubg
prints them, errors positive for a loss (gnubg prints them with a minus sign), EMG and MWC
(0..1 in a match, points in a money session).  Used by the gnubg program's analysis
(:mod:`bgboard.analysis.gnubg_program`) and by the tests' gnubg oracle.
"""

from __future__ import annotations

import re

__all__ = ["statistics"]

_NUMBER = r"([+-]?\d+(?:\.\d+)?)"


def _rows(text: str) -> dict[str, tuple[str, str]]:
    """Each statistics row's label → (player 0's cell, player 1's cell), split at the
    table's fixed columns (gnubg's ``%-40s %-23s %-23s``)."""
    rows: dict[str, tuple[str, str]] = {}
    section = ""
    for line in text.splitlines():
        if line.endswith("statistics") and not line.startswith(" "):
            section = line.split()[0].lower()
            continue
        if len(line) < 41 or not line[:40].strip():
            continue
        # a money session writes "(Points)" where a match writes "(MWC)"
        label = line[:40].strip().replace("(Points)", "(MWC)")
        cells = (line[41:65].strip(), line[65:].strip())
        key = f"{section}:{label}" if label.startswith(("Error", "Luck total", "Luck rate")) else label
        rows[key] = cells
    return rows


def _first(cell: str) -> float:
    m = re.search(_NUMBER, cell)
    return float(m.group(1)) if m else 0.0


def _paren(cell: str) -> tuple[int, float]:
    """``4 (-0.136 ( -1.718%))`` → (4, -0.136); ``0`` → (0, 0.0)."""
    numbers = re.findall(_NUMBER, cell)
    if not numbers:
        return 0, 0.0
    return int(float(numbers[0])), float(numbers[1]) if len(numbers) > 1 else 0.0


def _second(cell: str) -> float:
    """The figure in brackets: ``-0.019 ( -0.125%)`` → -0.00125 (a match's MWC); at money
    ``-0.002 ( -0.002)`` → -0.002 (points)."""
    numbers = re.findall(_NUMBER, cell)
    if len(numbers) < 2:
        return 0.0
    return float(numbers[1]) / 100.0 if "%" in cell else float(numbers[1])


def statistics(text: str) -> list[dict[str, object]]:
    rows = _rows(text)
    players = []
    for i in (0, 1):
        def cell(key: str) -> str:
            return rows[key][i]

        mistakes = {}
        for label, key in (
            ("Missed doubles below CP (EMG (MWC))", "missed doubles below CP"),
            ("Missed doubles above CP (EMG (MWC))", "missed doubles above CP"),
            ("Wrong doubles below DP (EMG (MWC))", "wrong doubles below DP"),
            ("Wrong doubles above TG (EMG (MWC))", "wrong doubles above TG"),
            ("Wrong takes (EMG (MWC))", "wrong takes"),
            ("Wrong passes (EMG (MWC))", "wrong passes"),
        ):
            n, e = _paren(cell(label)) if label in rows else (0, 0.0)
            mistakes[key] = {"count": n, "emg": -e}
        players.append(
            {
                "name": rows["Player"][i],
                "total_moves": int(_first(cell("Total moves"))),
                "unforced_moves": int(_first(cell("Unforced moves"))),
                "doubtful": int(_first(cell("Moves marked doubtful"))),
                "bad": int(_first(cell("Moves marked bad"))),
                "very_bad": int(_first(cell("Moves marked very bad"))),
                "checker_error_emg": -_first(cell("chequerplay:Error total EMG (MWC)")),
                "checker_error_mwc": -_second(cell("chequerplay:Error total EMG (MWC)")),
                "cube_error_mwc": -_second(cell("cube:Error total EMG (MWC)")),
                "luck_mwc": _second(cell("luck:Luck total EMG (MWC)")),
                "luck_adjusted_result": (_first(cell("Luck adjusted result")) / 100.0
                                         if "%" in cell("Luck adjusted result") else _first(cell("Luck adjusted result"))),
                "checker_rate_memg": -_first(cell("chequerplay:Error rate mEMG (MWC)")),
                "checker_rating": cell("Chequerplay rating"),
                "luck_emg": _first(cell("luck:Luck total EMG (MWC)")),
                "luck_rate_memg": _first(cell("luck:Luck rate mEMG (MWC)")),
                "luck_rating": cell("Luck rating"),
                "cube_decisions": int(_first(cell("Total cube decisions"))),
                "close_cube_decisions": int(_first(cell("Close or actual cube decisions"))),
                "doubles": int(_first(cell("Doubles"))),
                "takes": int(_first(cell("Takes"))),
                "passes": int(_first(cell("Passes"))),
                "cube_mistakes": mistakes,
                "cube_error_emg": -_first(cell("cube:Error total EMG (MWC)")),
                "cube_rate_memg": -_first(cell("cube:Error rate mEMG (MWC)")),
                "error_emg": -_first(cell("overall:Error total EMG (MWC)")),
                "error_rate_memg": -_first(cell("overall:Error rate mEMG (MWC)")),
                "snowie_error_rate": -_first(cell("Snowie error rate")),
                "overall_rating": cell("Overall rating"),
            }
        )
    return players
