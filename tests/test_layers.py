"""The package's layers import one way only (docs/architecture.md).

Each layer may import only the layers listed for it; anything else is a layering
defect (for example the rules engine reaching up into the match or the display).
Hardware libraries are imported only inside adapters, never at module level of a pure layer.
"""

from __future__ import annotations

import ast
import functools
import sys
from pathlib import Path

import pytest
from tests.support import parse_module

ROOT = Path(__file__).resolve().parents[1] / "host" / "bgboard"

# layer -> the bgboard layers it may import
ALLOWED: dict[str, set[str]] = {
    "errors": set(),
    "language": {"errors"},
    "digits": {"errors"},
    "exports": set(),
    "newest": set(),
    "hardware": {"errors"},
    "rules": {"language", "errors"},
    "match": {"language", "errors", "files", "newest", "rules"},
    "sense": {"language", "errors", "rules"},
    "link": {"language", "errors"},
    "display": {"language", "errors", "exports", "hardware", "newest"},
    "boardsvg": set(),
    "hints": {"language", "errors", "rules", "boardsvg"},
    "store": {"errors"},
    "control": {"language", "errors", "exports", "rules", "match", "sense", "link", "display", "hints"},
    "io": {"errors", "control", "hardware"},
    "config": {"language", "errors", "files", "rules", "match", "display", "io", "net", "hints"},
    "net": {"language", "errors", "digits", "exports", "rules", "match", "control", "link"},
    "app": {"language", "errors", "config", "control", "display", "files", "hardware", "hints", "io", "link", "sense", "store", "net", "match",
            "teaching", "analysis", "opponents", "modes", "rules"},
    "modes": {"language", "errors", "config", "control", "hints", "match", "net", "opponents", "sense", "store", "teaching",
              "display", "link", "rules", "analysis"},
    "opponents": {"language", "errors", "rules", "match", "control", "hints", "teaching"},
    "club": {"language", "errors", "digits", "exports", "rules", "match", "store", "net", "analysis", "boardsvg"},
    "federation": {"errors", "digits", "exports", "files", "store", "net", "club"},
    "teaching": {"language", "errors", "files", "rules", "match", "hints", "analysis", "store"},
    "analysis": {"language", "errors", "files", "rules", "match", "hints", "store"},
    "sim": {"language", "errors", "analysis", "exports", "files", "hardware", "hints", "rules", "match", "sense", "link", "display", "store", "control", "config", "app", "net",
            "club", "teaching", "opponents"},
    "commands": {"language", "errors", "digits", "hardware", "rules", "match", "sense", "link", "display", "hints", "store",
                 "control", "io", "config", "app", "sim", "club", "net", "logs", "teaching", "files", "analysis",
                 "opponents", "federation"},
    "logs": set(),
    "files": {"errors"},
    "cli": {"language", "errors", "files", "logs", "commands"},
    "__main__": {"cli"},
    "__init__": set(),
}
PURE = {"language", "rules", "match", "sense", "display", "hints", "link", "boardsvg"}
HARDWARE = {"spidev", "machine", "inky", "RPi", "lgpio", "smbus2", "neopixel"}
# The MQTT client library: imported by one adapter only (the club network's session).
NETWORK = {"aiomqtt", "paho"}
NETWORK_ADAPTERS = {"net/mqtt_client.py"}


def _layer(path: Path) -> str:
    parts = path.relative_to(ROOT).parts
    return parts[0].removesuffix(".py")


@functools.lru_cache(maxsize=None)
def _imports(path: Path) -> list[tuple[str, bool]]:
    """(module, at module level?) for every absolute import in the file."""
    tree = parse_module(path)
    top = {id(node) for node in tree.body}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, id(node) in top) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.module, id(node) in top))
    return found


FILES = sorted(ROOT.rglob("*.py"))


def test_every_layer_is_known():
    assert {_layer(f) for f in FILES} <= set(ALLOWED)


def _upward(path: Path, layer: str) -> list[str]:
    """The imports of ``path`` (a file of ``layer``) that its layer may not use."""
    wrong = []
    for module, _ in _imports(path):
        if module.startswith("bgboard."):
            target = module.split(".")[1]
            if not (target == layer or target in ALLOWED[layer]):
                wrong.append(f"{module}: layer '{layer}' may use only {sorted(ALLOWED[layer])}")
    return wrong


def _hardware_at_top(path: Path) -> list[str]:
    """Hardware libraries ``path`` imports at module level."""
    return [module for module, at_top in _imports(path) if at_top and module.split(".")[0] in HARDWARE]


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_imports_point_downwards(path: Path):
    assert _upward(path, _layer(path)) == [], str(path.relative_to(ROOT))


@pytest.mark.parametrize("path", [f for f in FILES if _layer(f) in PURE],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_no_hardware_library_at_module_level_of_a_pure_layer(path: Path):
    assert _hardware_at_top(path) == [], f"{path.relative_to(ROOT)} imports a hardware library at module level"


def test_the_checks_catch_a_bad_file(tmp_path: Path):
    """The same checks as above, run on files that break them: they must say so."""
    bad = tmp_path / "bad.py"
    bad.write_text("import spidev\nfrom bgboard.match import apply\nfrom bgboard.rules import Position\n")
    assert _upward(bad, "rules") == ["bgboard.match: layer 'rules' may use only ['errors', 'language']"]
    assert _hardware_at_top(bad) == ["spidev"]
    inside = tmp_path / "inside.py"
    inside.write_text("def f():\n    import spidev\n    from bgboard.rules import Position\n")
    assert _upward(inside, "match") == [] and _hardware_at_top(inside) == []


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_mqtt_library_is_imported_only_by_the_network_session(path: Path):
    if str(path.relative_to(ROOT)) in NETWORK_ADAPTERS:
        return
    for module, _ in _imports(path):
        assert module.split(".")[0] not in NETWORK, (
            f"{path.relative_to(ROOT)} imports {module}: only {sorted(NETWORK_ADAPTERS)} may use the MQTT library"
        )


# The magnetic-field library (the sensing physics): imported by one adapter only.
FIELD = {"magpylib", "numpy"}
FIELD_ADAPTERS = {"hardware/magnets.py"}


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_field_library_is_imported_only_by_the_magnets_adapter(path: Path):
    if str(path.relative_to(ROOT)) in FIELD_ADAPTERS:
        return
    for module, _ in _imports(path):
        assert module.split(".")[0] not in FIELD, (
            f"{path.relative_to(ROOT)} imports {module}: only {sorted(FIELD_ADAPTERS)} may use magpylib"
        )


# Inside a layer: the pure parts import only pure parts of their own layer (and no SQLite), so
# the renderer, the club's core and the match's core stay free of their layer's adapters.
PURE_PARTS: dict[str, set[str]] = {
    "club": {"model", "ratings", "bracket", "swiss", "formats", "standings", "csv_export", "payouts",
             "printing", "live_boards", "views", "checks", "board_limits", "vocabulary",
             "announcements"},
    "display": {"display_state", "panels", "texts", "fonts", "demos", "refresh", "renderer", "canvas", "layouts",
                "scoreboard", "ending", "diagram", "footer"},
    "match": {p.stem for p in (ROOT / "match").glob("*.py")} - {"__init__", "recordfile"},
    "federation": {"stored_result", "rating_list", "season", "bridge_conf"},
}
# The director's parts (issue 21) import one way: each only the parts before it.
DIRECTOR_PARTS = ["checks", "views", "db", "audit", "rating_store", "desk", "results", "pairing", "director",
                  "operations"]
# The director's MQTT side (issue 21) likewise: the limits (pure), the checks the worker
# processes run, the club database as the link sees it, then the link itself.
BOARDS_PARTS = ["board_limits", "board_checks", "board_tournament", "board_gate", "board_outbox",
                "board_checking", "boards"]


def _part(path: Path) -> tuple[str, str]:
    """(layer, module within the layer) of a file: club/views.py -> ("club", "views")."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return parts[0], parts[1] if len(parts) > 1 else ""


def _impure_imports(path: Path) -> list[str]:
    layer, part = _part(path)
    wrong = []
    for module, _ in _imports(path):
        words = module.split(".")
        if words[0] == "sqlite3":
            wrong.append(f"{module}: a pure part of '{layer}' uses no database")
        elif words[:2] == ["bgboard", layer] and len(words) > 2 and words[2] not in PURE_PARTS[layer]:
            wrong.append(f"{module}: '{layer}.{part}' is pure and may use only {sorted(PURE_PARTS[layer])}")
    return wrong


def _is_pure_part(path: Path) -> bool:
    layer, part = _part(path)
    return part in PURE_PARTS.get(layer, set())


@pytest.mark.parametrize("path", [f for f in FILES if _is_pure_part(f)], ids=lambda p: str(p.relative_to(ROOT)))
def test_a_pure_part_imports_only_pure_parts_of_its_layer(path: Path):
    assert _impure_imports(path) == [], str(path.relative_to(ROOT))


def _director_order(path: Path, parts: list[str] = DIRECTOR_PARTS) -> list[str]:
    _, part = _part(path)
    before = set(parts[:parts.index(part)])
    later = set(parts) - before - {part}
    return [module for module, at_top in _imports(path)
            if at_top and module.startswith("bgboard.club.") and module.split(".")[2] in later]


@pytest.mark.parametrize("part", DIRECTOR_PARTS)
def test_the_directors_parts_import_one_way(part: str):
    assert _director_order(ROOT / "club" / f"{part}.py") == []


@pytest.mark.parametrize("part", BOARDS_PARTS)
def test_the_boards_parts_import_one_way(part: str):
    assert _director_order(ROOT / "club" / f"{part}.py", BOARDS_PARTS) == []


def test_the_inside_checks_catch_a_bad_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """The checks above on files that break them, placed as if in the package."""
    fake = tmp_path / "bgboard"
    (fake / "club").mkdir(parents=True)
    views = fake / "club" / "views.py"
    views.write_text("import sqlite3\nfrom bgboard.club.db import Club\nfrom bgboard.club.model import Entrant\n")
    checks = fake / "club" / "checks.py"
    checks.write_text("from bgboard.club.director import Director\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", fake)
    assert _impure_imports(views) == [
        "sqlite3: a pure part of 'club' uses no database",
        f"bgboard.club.db: 'club.views' is pure and may use only {sorted(PURE_PARTS['club'])}",
    ]
    assert _director_order(checks) == ["bgboard.club.director"]
    limits = fake / "club" / "board_limits.py"
    limits.write_text("from bgboard.club.boards import DirectorLink\n")
    assert _director_order(limits, BOARDS_PARTS) == ["bgboard.club.boards"]
    assert _impure_imports(limits) == [
        f"bgboard.club.boards: 'club.board_limits' is pure and may use only {sorted(PURE_PARTS['club'])}"]


def _rules_graph() -> dict[str, set[str]]:
    """Module -> the ``bgboard.rules`` modules it imports, ``TYPE_CHECKING`` imports and
    imports inside functions included (``from bgboard.rules import fevga`` is the module
    ``fevga``; the package's ``__init__`` only gathers names and is left out)."""
    folder = ROOT / "rules"
    modules = {p.stem for p in folder.glob("*.py") if p.stem != "__init__"}
    graph: dict[str, set[str]] = {}
    for name in modules:
        found: set[str] = set()
        for node in ast.walk(parse_module(folder / f"{name}.py")):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                if node.module == "bgboard.rules":
                    found |= {a.name for a in node.names if a.name in modules}
                elif node.module.startswith("bgboard.rules."):
                    found.add(node.module.split(".")[2])
            elif isinstance(node, ast.Import):
                found |= {a.name.split(".")[2] for a in node.names if a.name.startswith("bgboard.rules.")}
        graph[name] = found & modules
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every import cycle of ``graph``, each once (from its smallest module)."""
    cycles: list[list[str]] = []

    def walk(node: str, path: list[str]) -> None:
        for nxt in sorted(graph[node]):
            if nxt == path[0]:
                cycles.append(path + [nxt])
            elif nxt not in path and nxt > path[0]:
                walk(nxt, path + [nxt])

    for start in sorted(graph):
        walk(start, [start])
    return cycles


def test_no_import_cycle_among_the_rules_modules() -> None:
    """Issue 21: ``rules/games.py`` and ``rules/refusal.py`` imported each other (under
    TYPE_CHECKING); no module of ``rules`` may reach itself through its imports."""
    graph = _rules_graph()
    assert "search" in graph["refusal"] and "game" in graph["games"]  # the graph was read
    assert _cycles(graph) == []
    # the check finds the circle that was there: refusal -> games (TYPE_CHECKING) -> refusal
    assert _cycles({**graph, "refusal": graph["refusal"] | {"games"}, "games": graph["games"] | {"refusal"}})


def _package_graph(root: Path) -> dict[str, set[str]]:
    """Module -> the bgboard modules it imports, every import counted: at module level, inside
    functions and under ``TYPE_CHECKING`` (``from bgboard.club import evening`` is the module
    ``club.evening``; ``from bgboard.rules import Position`` is the package ``rules``)."""
    paths = {_module_name_in(root, p): p for p in sorted(root.rglob("*.py"))}
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        found: set[str] = set()
        for node in ast.walk(parse_module(path)):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                if node.module == "bgboard" or node.module.startswith("bgboard."):
                    base = node.module.removeprefix("bgboard").lstrip(".") or "bgboard"
                    for alias in node.names:
                        sub = alias.name if base == "bgboard" else f"{base}.{alias.name}"
                        found.add(sub if sub in paths else base)
            elif isinstance(node, ast.Import):
                found |= {a.name.removeprefix("bgboard.") for a in node.names if a.name.startswith("bgboard.")}
        graph[name] = {m for m in found if m in paths and m != name}
    return graph


def _module_name_in(root: Path, path: Path) -> str:
    """``club/director.py`` -> ``club.director``; a package's ``__init__`` is the package."""
    parts = path.relative_to(root).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts) or "bgboard"


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that reach each other through their imports (the strongly
    connected components of more than one module, Tarjan's algorithm without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, targets = work[-1]
            nxt = next(targets, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return sorted(found)


def test_no_import_circle_anywhere_in_the_package() -> None:
    """Issue 33: club/director <-> evening <-> results and seven modules of sim/ reached each
    other through function-level and TYPE_CHECKING imports; no module of the package may
    reach itself through its imports, whichever kind."""
    graph = _package_graph(ROOT)
    assert len(graph) > 200 and "club.director" in graph["club.operations"]  # the graph was read
    assert _circles(graph) == []


def test_the_circle_check_finds_circles_of_every_kind_of_import(tmp_path: Path) -> None:
    """A TYPE_CHECKING import and one inside a function close circles the check must report."""
    fake = tmp_path / "bgboard"
    (fake / "club").mkdir(parents=True)
    (fake / "__init__.py").write_text("")
    (fake / "club" / "__init__.py").write_text("")
    (fake / "club" / "director.py").write_text("from bgboard.club import evening\n")
    (fake / "club" / "evening.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from bgboard.club.director import Director\n")
    (fake / "club" / "results.py").write_text("def f():\n    from bgboard.club.standings import x\n")
    (fake / "club" / "standings.py").write_text("import bgboard.club.results\n")
    (fake / "club" / "views.py").write_text("from bgboard.club.director import Director\n")
    graph = _package_graph(fake)
    assert graph["club.director"] == {"club.evening"} and graph["club.results"] == {"club.standings"}
    assert _circles(graph) == [["club.director", "club.evening"], ["club.results", "club.standings"]]
