"""A logger in every module that runs a task, a process or a connection (docs/architecture.md,
"Errors and logging"; issue 33): such a module has something to say when a part of it starts,
stops or fails, and says it through ``logging.getLogger(__name__)``."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "host" / "bgboard"

#: the calls that start a task, a process, a server or a thread's worth of work in a module
RUNNERS = {"create_task", "Popen", "create_subprocess_exec", "create_subprocess_shell", "start_server", "Process"}


def _runs_something(tree: ast.AST) -> bool:
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
            if name in RUNNERS:
                return True
    return False


def _has_logger(tree: ast.AST) -> bool:
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "getLogger":
            if [a.id for a in node.args if isinstance(a, ast.Name)] == ["__name__"]:
                return True
    return False


def test_every_module_that_runs_a_task_or_a_process_has_a_logger() -> None:
    runners, missing = [], []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if _runs_something(tree):
            runners.append(path)
            if not _has_logger(tree):
                missing.append(str(path.relative_to(PACKAGE)))
    assert len(runners) > 10  # the scan finds them (app, links, workers, the simulator...)
    assert missing == []
