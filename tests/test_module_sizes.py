"""No module of host/bgboard is over 600 lines (issue 21: small modules along their seams).

Every module is a test of its own (``pytest tests/test_module_sizes.py -v`` lists them all;
``python tests/test_module_sizes.py`` prints each module's line count, largest first).  A
module over the limit fails, unless it is on :data:`STILL_OVER` — the modules not split yet,
each with its size when it was listed: such a module fails as soon as it grows, and the
entry fails once the module is within the limit (take it off the list).  The list only
shrinks; the goal is an empty one.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "host" / "bgboard"
LIMIT = 600

#: Modules still over :data:`LIMIT` (path under host/bgboard -> its lines when listed).
STILL_OVER: dict[str, int] = {}

MODULES = sorted(ROOT.rglob("*.py"))


def lines(path: Path) -> int:
    """The module's line count (as ``wc -l`` counts a file ending in a newline)."""
    return len(path.read_text(encoding="utf-8").splitlines())


def too_long(name: str, count: int, still_over: dict[str, int]) -> str | None:
    """Why a module of ``count`` lines is too long (None: it is not)."""
    allowed = still_over.get(name)
    if allowed is not None:
        if count > allowed:
            return f"{name} has grown to {count} lines (listed at {allowed}): split it instead"
        return None
    if count > LIMIT:
        return f"{name} has {count} lines, more than {LIMIT}: split it along its seams"
    return None


def test_every_module_is_found():
    names = {str(p.relative_to(ROOT)) for p in MODULES}
    assert {"cli.py", "club/director.py", "display/renderer.py", "match/state.py"} <= names
    assert len(names) > 150


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_module_is_at_most_600_lines(path: Path):
    name = str(path.relative_to(ROOT))
    assert too_long(name, lines(path), STILL_OVER) is None


def stale(still_over: dict[str, int]) -> list[str]:
    """Why entries of ``still_over`` should go: the module is gone or within the limit."""
    why = []
    for name in sorted(still_over):
        path = ROOT / name
        if not path.is_file():
            why.append(f"{name} is gone: take it off STILL_OVER")
        elif lines(path) <= LIMIT:
            why.append(f"{name} has {lines(path)} lines now: take it off STILL_OVER")
    return why


def test_a_module_still_over_the_limit_is_listed_only_while_it_is():
    """One test however long the list (an empty list is the goal, and a parametrised test of
    an empty list would be a skip)."""
    assert stale(STILL_OVER) == []
    assert stale({"cli.py": 700, "gone.py": 700}) == [
        "cli.py has %d lines now: take it off STILL_OVER" % lines(ROOT / "cli.py"),
        "gone.py is gone: take it off STILL_OVER",
    ]


def test_the_check_catches_a_long_module(tmp_path: Path):
    """The same check on files that break it: it must say so."""
    long = tmp_path / "long.py"
    long.write_text("x = 1\n" * (LIMIT + 1))
    assert lines(long) == LIMIT + 1
    assert too_long("long.py", lines(long), {}) == "long.py has 601 lines, more than 600: split it along its seams"
    assert too_long("long.py", LIMIT, {}) is None
    assert too_long("big.py", 700, {"big.py": 700}) is None
    assert "has grown to 701 lines" in (too_long("big.py", 701, {"big.py": 700}) or "")


if __name__ == "__main__":
    counts = sorted(((lines(p), str(p.relative_to(ROOT))) for p in MODULES), reverse=True)
    for count, name in counts:
        mark = " (over the limit, listed)" if name in STILL_OVER else (" (OVER)" if count > LIMIT else "")
        print(f"{count:6d}  {name}{mark}")
    sys.exit(0)
