"""A module's name is unique in the package (issue 21), so a name in an import, a traceback or
a log line says which file it is.

The rule: no two modules of ``host/bgboard`` share a file name, except ``commands/X.py`` (named
for the subcommand ``bgboard X``) and ``modes/X.py`` (named for the mode), which may share a
name with each other.  Any other module whose name is also a command's or a mode's breaks it:
``club/export.py`` beside ``commands/export.py`` was renamed ``club/csv_export.py``.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "host" / "bgboard"

# Named for what the user types: a subcommand, a mode.
NAMED_FOR_THE_USER = {"commands", "modes"}

# The two core modules whose subcommand is named for them: ``bgboard legal`` lists
# rules/legal.py's legal plays and ``bgboard selfplay`` runs match/selfplay.py.  Any other
# repeat fails; the test below fails when a name listed here is no longer repeated, so the
# list stays true.
STILL_REPEATED = {
    "legal",  # rules/legal.py, the legal plays, beside commands/legal.py (bgboard legal)
    "selfplay",  # match/selfplay.py beside commands/selfplay.py (bgboard selfplay)
}


def module_names(root: Path) -> dict[str, list[str]]:
    """Each module file name (without ``.py``; ``__init__`` and ``__main__`` left out) and where
    it is, relative to ``root``."""
    where: dict[str, list[str]] = defaultdict(list)
    for path in sorted(root.rglob("*.py")):
        if path.stem not in {"__init__", "__main__"}:
            where[path.stem].append(str(path.relative_to(root)))
    return dict(where)


def repeated(where: dict[str, list[str]]) -> dict[str, list[str]]:
    """The names that break the rule, with their files."""
    broken = {}
    for name, paths in where.items():
        others = [p for p in paths if Path(p).parts[0] not in NAMED_FOR_THE_USER or len(Path(p).parts) != 2]
        if len(paths) > 1 and others:
            broken[name] = paths
    return broken


def test_no_two_modules_share_a_name_but_commands_and_modes():
    broken = repeated(module_names(ROOT))
    unexpected = {name: paths for name, paths in broken.items() if name not in STILL_REPEATED}
    assert unexpected == {}, "rename one of each (for what it holds) so the module's name is unique"


def test_every_name_on_the_allow_list_is_still_repeated():
    broken = repeated(module_names(ROOT))
    stale = sorted(STILL_REPEATED - set(broken))
    assert stale == [], f"no longer repeated: take {stale} off STILL_REPEATED"


def test_the_rule_tells_a_repeat_from_a_command_and_a_mode(tmp_path: Path):
    for name in ("commands/club.py", "modes/club.py", "commands/export.py", "club/export.py",
                 "display/state.py", "match/state.py", "modes/engine.py", "hints/hint_engine.py",
                 "commands/sub/deep.py", "club/deep.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    assert repeated(module_names(tmp_path)) == {
        "export": ["club/export.py", "commands/export.py"],  # a command's name taken by a module
        "state": ["display/state.py", "match/state.py"],
        "deep": ["club/deep.py", "commands/sub/deep.py"],  # only commands/X.py itself is exempt
    }
