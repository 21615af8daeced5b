"""Read a KiCad netlist (the ``.net`` files hardware/circuit.py writes): parts and nets.

Standard library only, so the tests (the project's Python) and hardware/boards.py (Debian's
python3 with pcbnew) share it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path


def sexpr(text: str) -> list:
    """A KiCad s-expression as nested lists of strings."""
    tokens = re.findall(r'\(|\)|"(?:[^"\\]|\\.)*"|[^\s()]+', text)
    stack: list[list] = [[]]
    for tok in tokens:
        if tok == "(":
            stack.append([])
        elif tok == ")":
            done = stack.pop()
            stack[-1].append(done)
        else:
            stack[-1].append(tok[1:-1] if tok.startswith('"') else tok)
    return stack[0][0]


def find(node: list, key: str) -> list | None:
    for item in node[1:]:
        if isinstance(item, list) and item and item[0] == key:
            return item
    return None


@dataclass
class Netlist:
    parts: dict[str, dict[str, str]] = field(default_factory=dict)  # ref -> value, footprint, mpn, manufacturer, lcsc
    nets: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # name -> (ref, pin)


def read_netlist(path: Path) -> Netlist:
    tree = sexpr(path.read_text())
    result = Netlist()
    for comp in find(tree, "components")[1:]:
        ref = find(comp, "ref")[1]
        fields = {}
        for f in (find(comp, "fields") or ["fields"])[1:]:
            name = find(f, "name")
            if name and len(name) > 1 and len(f) > 2:
                fields[name[1]] = f[2]
        result.parts[ref] = {"value": find(comp, "value")[1], "footprint": find(comp, "footprint")[1],
                             "mpn": fields.get("MPN", ""), "manufacturer": fields.get("MANUFACTURER", ""),
                             "lcsc": fields.get("LCSC", "")}
    for net in find(tree, "nets")[1:]:
        name = find(net, "name")[1]
        nodes = [(find(n, "ref")[1], find(n, "pin")[1]) for n in net[1:] if isinstance(n, list) and n[0] == "node"]
        if nodes and not name.startswith("__NOCONNECT"):
            result.nets[name] = nodes
    return result


