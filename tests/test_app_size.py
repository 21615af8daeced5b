"""Issue 33's size bar — no class over 300 lines, no function over 60 — for the app's
wiring, which meets it: ``App`` was 476 lines (31 methods, an 84-line ``_open``) and is now a
coordinator that owns the adapters (the board's side, the hint requests, what follows a
match's end) and hands every event to one room.  The rest of the package does not meet the
bar yet (Controller, DirectorLink, Director and the club's route tables), so it is
checked here for these modules only."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "host" / "bgboard"
MEETING_THE_BAR = ["app.py", "modes/afterwards.py", "modes/engine.py", "modes/club.py",
                   "display/footer.py", "display/demos.py", "display/diagram.py",
                   "display/ending.py", "display/display_state.py",
                   "rules/ids.py", "rules/explain.py", "link/messages.py", "config.py",
                   "analysis/stats.py", "hints/learner_report.py",
                   "match/mat_read.py", "match/mat_turns.py", "match/mat_scoresheet.py", "match/mat_write.py"]
# the club's director, its boards' side, its pages and command, the federation's portal
MEETING_THE_BAR += [
    "club/standings.py", "club/pairing.py", "club/director.py", "club/board_gate.py", "club/board_outbox.py",
    "club/board_checking.py", "club/boards.py", "club/web/site.py", "club/web/room.py", "club/web/refusals.py",
    "club/web/pages.py", "club/web/director_pages.py", "club/web/evening_pages.py", "club/web/setup_pages.py",
    "commands/club.py", "commands/club_serve.py", "federation/portal.py", "sim/clubdemo.py",
]
MEETING_THE_BAR += ["sim/players.py", "sim/backgammon_habits.py", "sim/tavli_habits.py", "sim/checker_moves.py",
                    "sim/driver.py", "sim/firmware_board.py", "sim/host_side.py", "sim/remote_run.py",
                    "sim/interactive.py", "commands/sim.py"]
CLASS_LINES, FUNCTION_LINES = 300, 60


def oversized(source: str) -> list[str]:
    """Each class over ``CLASS_LINES`` lines and each function over ``FUNCTION_LINES``, with
    its length (decorators and docstrings count)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            lines = (node.end_lineno or node.lineno) - first + 1
            limit = CLASS_LINES if isinstance(node, ast.ClassDef) else FUNCTION_LINES
            if lines > limit:
                found.append(f"{node.name}: {lines} lines (at most {limit})")
    return found


@pytest.mark.parametrize("module", MEETING_THE_BAR)
def test_no_class_or_function_of_the_apps_wiring_is_too_big_to_hold_in_your_head(module: str) -> None:
    assert oversized((ROOT / module).read_text()) == []


def test_the_check_finds_a_class_and_a_function_too_big() -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(300))
    long_function = "def f():\n" + "\n".join(f"    y{i} = {i}" for i in range(60))
    assert oversized(f"class Big:\n{body}\n\n{long_function}\n") == [
        "Big: 301 lines (at most 300)", "f: 61 lines (at most 60)"]
