"""Issue 33's size bar — no class over 300 lines and no function over 60 anywhere in
host/bgboard, so that a newcomer can hold each in their head.  Before the redesign was
finished: ``App`` 476 lines (an 84-line ``_open``), ``Controller`` 482 (a 64-line
``_on_button``, under ``OpponentRoom`` 302 and ``RemoteRoom``), ``DirectorLink`` 406,
``Director`` 354, ``LiveRun`` 359, the ``.mat`` reader's ``_Importer`` 432, route tables of
123–208 lines and 30 functions over 60 lines.  Each module is a test of its own, so a module
added later is held to the bar too."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "host" / "bgboard"
MODULES = sorted(str(path.relative_to(ROOT)) for path in ROOT.rglob("*.py"))
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


@pytest.mark.parametrize("module", MODULES)
def test_no_class_or_function_is_too_big_to_hold_in_your_head(module: str) -> None:
    assert oversized((ROOT / module).read_text()) == []


def test_every_module_of_the_package_is_checked() -> None:
    """The walk finds the package's modules, big and small (not an empty list passing)."""
    assert {"app.py", "control/controller.py", "club/boards.py", "sim/firmware_board.py",
            "match/mat_read.py"} <= set(MODULES)
    assert len(MODULES) > 250


def test_the_check_finds_a_class_and_a_function_too_big() -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(300))
    long_function = "def f():\n" + "\n".join(f"    y{i} = {i}" for i in range(60))
    assert oversized(f"class Big:\n{body}\n\n{long_function}\n") == [
        "Big: 301 lines (at most 300)", "f: 61 lines (at most 60)"]
