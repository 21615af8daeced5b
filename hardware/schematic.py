"""A KiCad 6 schematic of a SKiDL circuit, for KiCad's own electrical rules check.

KiCad 6 checks a *schematic* (eeschema's ERC), not a netlist, and SKiDL 3 draws schematics
only in KiCad 7's file format (through the ``schematizer`` package), which KiCad 6 cannot
open.  So this module writes the circuit of hardware/circuit.py as a KiCad 6 schematic
(file version 20211123) in the plainest form that keeps its connectivity exact: every
symbol unit placed on a grid, a net label on every connected pin's end (labels of the same
name are one net), a no-connect flag on every pin the circuit marks NC, and a ``PWR_FLAG``
on every supply net the circuit marks as driven from outside the board (through its
connector).  The symbols are KiCad 6's own library symbols (``extends`` resolved), embedded
as KiCad embeds them; the Pico, which the library lacks, is drawn from the pins
circuit.py gives it.  hardware/erc.py runs eeschema's ERC on the files (KiAuto, under Xvfb).
"""

from __future__ import annotations

import re
import uuid
from pathlib import Path
from typing import Any

Sexp = Any  # str or list of Sexp

_TOKEN = re.compile(r'\s*(?:(\()|(\))|("(?:[^"\\]|\\.)*")|([^\s()"]+))')
_TOP_SYMBOL = re.compile(r'^  \(symbol ("(?:[^"\\]|\\.)*")', re.M)
_NS = uuid.UUID("5b0d1c9e-3f0a-4c53-9a4e-8c1b2d7e6f10")
GRID = 2.54


PART_FIELDS = ("MPN", "MANUFACTURER", "LCSC")  # circuit.py's part fields a symbol carries


def parse(text: str) -> Sexp:
    """The s-expression of ``text`` (strings keep their quotes)."""
    stack: list[list] = [[]]
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            if text[pos:].strip():
                raise ValueError(f"cannot parse s-expression at {pos}")
            break
        pos = m.end()
        if m.group(1):
            stack.append([])
        elif m.group(2):
            done = stack.pop()
            stack[-1].append(done)
        else:
            stack[-1].append(m.group(3) or m.group(4))
    return stack[0][0]


def dump(node: Sexp, indent: int = 0) -> str:
    """``node`` as text, one list per line where it holds lists."""
    if not isinstance(node, list):
        return node
    if not any(isinstance(x, list) for x in node):
        return "(" + " ".join(node) + ")"
    pad = "  " * (indent + 1)
    out = "(" + node[0]
    for x in node[1:]:
        out += ("\n" + pad + dump(x, indent + 1)) if isinstance(x, list) else " " + x
    return out + ")"


def q(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def unq(token: str) -> str:
    return token[1:-1].replace('\\"', '"').replace("\\\\", "\\") if token.startswith('"') else token


def _uid(*parts: object) -> str:
    return str(uuid.uuid5(_NS, "/".join(str(p) for p in parts)))


def _mm(v: float) -> str:
    return f"{round(v, 4):g}"


# ------------------------------------------------------------------------------ the library
class Library:
    """KiCad 6 symbol libraries (``*.kicad_sym``) read on demand, and of each only the symbols
    asked for parsed (a library holds hundreds; a board uses a few)."""

    def __init__(self, directory: str | Path) -> None:
        self.dir = Path(directory)
        self._files: dict[str, dict[str, str]] = {}  # lib -> symbol name -> its text
        self._parsed: dict[tuple[str, str], list] = {}

    def _lib(self, lib: str) -> dict[str, str]:
        if lib not in self._files:
            text = (self.dir / f"{lib}.kicad_sym").read_text(encoding="utf-8")
            self._files[lib] = _top_symbols(text)
        return self._files[lib]

    def _own(self, lib: str, name: str) -> list:
        if (lib, name) not in self._parsed:
            piece = self._lib(lib)[name]
            tree = parse("(" + piece + ")")  # one list around it: a piece cut wrongly shows as more
            if len(tree) != 1 or tree[0][:2] != ["symbol", q(name)]:
                raise ValueError(f"{lib}.kicad_sym: the symbol {name} is not where KiCad writes it")
            self._parsed[lib, name] = tree[0]
        return self._parsed[lib, name]

    def symbol(self, lib: str, name: str) -> list:
        """The symbol ``name`` of ``lib``, its ``extends`` resolved, named ``lib:name``."""
        own = self._own(lib, name)
        parent = next((x for x in own if isinstance(x, list) and x[0] == "extends"), None)
        if parent is None:
            body = [x for x in own[2:]]
        else:
            base = self.symbol(lib, unq(parent[1]))
            base_name = unq(parent[1])
            own_props = [x for x in own if isinstance(x, list) and x[0] == "property"]
            flags, units = [], []
            for x in base[2:]:  # the parent's flags and drawing, the child's own properties
                if isinstance(x, list) and x[0] == "symbol":
                    units.append([x[0], q(unq(x[1]).replace(base_name, name, 1))] + x[2:])
                elif not (isinstance(x, list) and x[0] == "property"):
                    flags.append(x)
            body = flags + own_props + units
        return ["symbol", q(f"{lib}:{name}")] + body


def _top_symbols(text: str) -> dict[str, str]:
    """A library's top-level symbols, name -> text.  KiCad writes each at the start of a line
    indented two spaces, so the text is cut there (no tokens read); :meth:`Library._own`
    checks that what it parses of a piece is one whole symbol of that name."""
    found: dict[str, str] = {}
    heads = list(_TOP_SYMBOL.finditer(text))
    for k, m in enumerate(heads):
        end = heads[k + 1].start() if k + 1 < len(heads) else text.rindex(")")
        found[unq(m.group(1))] = text[m.start():end]
    return found


def units_of(symbol: list) -> dict[int, list[dict]]:
    """unit -> its pins ({number, x, y, angle, type}), the common pins (unit 0) in every unit."""
    name = unq(symbol[1]).split(":", 1)[1]
    per: dict[int, list[dict]] = {}
    for sub in symbol:
        if not (isinstance(sub, list) and sub[0] == "symbol"):
            continue
        m = re.fullmatch(re.escape(name) + r"_(\d+)_(\d+)", unq(sub[1]))
        if not m or m.group(2) not in ("0", "1"):
            continue
        for pin in sub:
            if isinstance(pin, list) and pin[0] == "pin":
                at = next(x for x in pin if isinstance(x, list) and x[0] == "at")
                num = next(x for x in pin if isinstance(x, list) and x[0] == "number")
                per.setdefault(int(m.group(1)), []).append(
                    {"number": unq(num[1]), "x": float(at[1]), "y": float(at[2]), "angle": int(float(at[3])),
                     "type": pin[1]})
    common = per.pop(0, [])
    if not per:
        return {1: common}
    return {u: pins + common for u, pins in sorted(per.items())}


# SKiDL pin functions -> KiCad electrical types (the Pico's pins)
_TYPES = {"INPUT": "input", "OUTPUT": "output", "BIDIR": "bidirectional", "TRISTATE": "tri_state",
          "PASSIVE": "passive", "PULLUP": "passive", "PULLDN": "passive", "UNSPEC": "unspecified",
          "PWRIN": "power_in", "PWROUT": "power_out", "OPENCOLL": "open_collector", "OPENEMIT": "open_emitter",
          "NOCONNECT": "no_connect", "FREE": "free"}


def drawn_symbol(name: str, pins: list[tuple[str, str, str]]) -> list:
    """A symbol for a part the library lacks: a box, pins 1..n/2 on the left (top down), the rest
    on the right (bottom up, as a DIP module's pins run).  ``pins``: (number, name, KiCad type)."""
    half = (len(pins) + 1) // 2
    top = (half - 1) * GRID / 2
    top = round(top / GRID) * GRID
    width = 15.24
    body = ["symbol", q(f"{name}_0_1"),
            ["rectangle", ["start", _mm(-width + 2.54), _mm(top + GRID)], ["end", _mm(width - 2.54), _mm(top - half * GRID)],
             ["stroke", ["width", "0.254"], ["type", "default"], ["color", "0", "0", "0", "0"]], ["fill", ["type", "background"]]]]
    unit = ["symbol", q(f"{name}_1_1")]
    for i, (num, pname, ptype) in enumerate(pins):
        if i < half:
            x, y, angle = -width, top - i * GRID, 0
        else:
            x, y, angle = width, top - (len(pins) - 1 - i) * GRID, 180
        unit.append(["pin", ptype, "line", ["at", _mm(x), _mm(y), str(angle)], ["length", "2.54"],
                     ["name", q(pname), ["effects", ["font", ["size", "1.27", "1.27"]]]],
                     ["number", q(num), ["effects", ["font", ["size", "1.27", "1.27"]]]]])
    prop = lambda key, val, i: ["property", q(key), q(val), ["id", str(i)], ["at", "0", "0", "0"],  # noqa: E731
                                ["effects", ["font", ["size", "1.27", "1.27"]], "hide"]]
    return ["symbol", q(f"bgboard:{name}"), ["in_bom", "yes"], ["on_board", "yes"],
            prop("Reference", "U", 0), prop("Value", name, 1), prop("Footprint", "", 2), prop("Datasheet", "", 3),
            body, unit]


# ------------------------------------------------------------------------------ the sheet
def write(circuit: Any, path: Path, library: Library, title: str, power_drive: int) -> dict[str, int]:
    """Write ``circuit`` (a SKiDL Circuit built by hardware/circuit.py) as a KiCad 6 schematic
    at ``path``; the counts of what it placed.  ``power_drive``: SKiDL's POWER drive, which
    circuit.py gives the supply nets that come from off the board."""
    import builtins

    nc_net = getattr(builtins, "NC", None)
    lib_symbols: dict[str, list] = {}
    items: list[list] = []
    instances: list[list] = []
    col_x, row_y, row_h, x_max = 25.4, 25.4, 0.0, 560.0
    counts = {"symbols": 0, "labels": 0, "no_connects": 0, "power_flags": 0}
    driven_nets = []

    def place(width: float, height: float) -> tuple[float, float]:
        nonlocal col_x, row_y, row_h
        if col_x + width > x_max:
            col_x, row_y, row_h = 25.4, row_y + row_h + 2 * GRID, 0.0
        at = (col_x, row_y)
        col_x += width + 4 * GRID
        row_h = max(row_h, height)
        return at

    def snap(v: float) -> float:
        return round(v / GRID) * GRID

    def label(net_name: str, x: float, y: float, angle: int) -> None:
        # the label's text runs away from the pin's body
        text_angle = {0: 180, 180: 0, 90: 270, 270: 90}[angle]
        justify = "right" if text_angle in (180, 270) else "left"
        items.append(["label", q(net_name), ["at", _mm(x), _mm(y), str(text_angle)],
                      ["effects", ["font", ["size", "1.27", "1.27"]], ["justify", justify, "bottom"]],
                      ["uuid", _uid(title, "label", net_name, x, y)]])
        counts["labels"] += 1

    for part in sorted(circuit.parts, key=lambda p: p.ref):
        origin = (str(part.lib.filename), str(part.name)) if str(part.tool) == "kicad6" else None
        if origin is None:  # a part drawn in code (the Pico)
            key = f"bgboard:{part.name}"
            if key not in lib_symbols:
                pins = [(str(p.num), str(p.name), _TYPES.get(p.func.name, "unspecified"))
                        for p in sorted(part.pins, key=lambda p: int(p.num))]
                lib_symbols[key] = drawn_symbol(part.name, pins)
        else:
            key = f"{origin[0]}:{origin[1]}"
            if key not in lib_symbols:
                lib_symbols[key] = library.symbol(*origin)
        units = units_of(lib_symbols[key])
        by_number = {str(p.num): p for p in part.pins}
        for unit, pins in units.items():
            xs = [p["x"] for p in pins] or [0.0]
            ys = [p["y"] for p in pins] or [0.0]
            width, height = max(xs) - min(xs) + 12 * GRID, max(ys) - min(ys) + 3 * GRID
            cx, cy = place(width, height)
            ox, oy = snap(cx - min(xs) + 5 * GRID), snap(cy + max(ys) + GRID)
            sym_uuid = _uid(title, part.ref, unit)
            value, footprint = str(part.value), str(part.footprint or "")
            sym = ["symbol", ["lib_id", q(key)], ["at", _mm(ox), _mm(oy), "0"], ["unit", str(unit)],
                   ["in_bom", "yes"], ["on_board", "yes"], ["uuid", sym_uuid],
                   ["property", q("Reference"), q(part.ref), ["id", "0"], ["at", _mm(ox), _mm(oy - max(ys) - GRID), "0"],
                    ["effects", ["font", ["size", "1.27", "1.27"]]]],
                   ["property", q("Value"), q(value), ["id", "1"], ["at", _mm(ox), _mm(oy - min(ys) + GRID), "0"],
                    ["effects", ["font", ["size", "1.27", "1.27"]]]],
                   ["property", q("Footprint"), q(footprint), ["id", "2"], ["at", _mm(ox), _mm(oy), "0"],
                    ["effects", ["font", ["size", "1.27", "1.27"]], "hide"]],
                   ["property", q("Datasheet"), q(""), ["id", "3"], ["at", _mm(ox), _mm(oy), "0"],
                    ["effects", ["font", ["size", "1.27", "1.27"]], "hide"]]]
            for n, field in enumerate(f for f in PART_FIELDS if part.fields.get(f)):  # for the fab's BOM (KiKit)
                sym.append(["property", q(field), q(str(part.fields[field])), ["id", str(4 + n)], ["at", _mm(ox), _mm(oy), "0"],
                            ["effects", ["font", ["size", "1.27", "1.27"]], "hide"]])
            for pin in pins:
                sym.append(["pin", q(pin["number"]), ["uuid", _uid(title, part.ref, unit, pin["number"])]])
            items.append(sym)
            instances.append(["path", q(f"/{sym_uuid}"), ["reference", q(part.ref)], ["unit", str(unit)],
                              ["value", q(value)], ["footprint", q(footprint)]])
            counts["symbols"] += 1
            for pin in pins:
                sk_pin = by_number.get(pin["number"])
                if sk_pin is None:
                    raise ValueError(f"{part.ref}: symbol pin {pin['number']} is not a pin of the circuit's part")
                x, y = ox + pin["x"], oy - pin["y"]
                net = sk_pin.net
                if net is None:
                    continue  # left for the ERC to report: an unconnected pin
                if net is nc_net or type(net).__name__ == "NCNet":
                    items.append(["no_connect", ["at", _mm(x), _mm(y)], ["uuid", _uid(title, "nc", part.ref, pin["number"])]])
                    counts["no_connects"] += 1
                    continue
                label(net.name, x, y, pin["angle"])
                if net.drive == power_drive and net.name not in driven_nets:  # SKiDL POWER drive
                    driven_nets.append(net.name)

    if driven_nets:
        key = "power:PWR_FLAG"
        lib_symbols[key] = library.symbol("power", "PWR_FLAG")
        for i, name in enumerate(driven_nets):
            ox, oy = place(6 * GRID, 3 * GRID)
            ox, oy = snap(ox + GRID), snap(oy + 2 * GRID)
            sym_uuid = _uid(title, "flag", name)
            ref = f"#FLG{i + 1:02d}"
            items.append(["symbol", ["lib_id", q(key)], ["at", _mm(ox), _mm(oy), "0"], ["unit", "1"],
                          ["in_bom", "yes"], ["on_board", "yes"], ["uuid", sym_uuid],
                          ["property", q("Reference"), q(ref), ["id", "0"], ["at", _mm(ox), _mm(oy - 1.905), "0"],
                           ["effects", ["font", ["size", "1.27", "1.27"]], "hide"]],
                          ["property", q("Value"), q("PWR_FLAG"), ["id", "1"], ["at", _mm(ox), _mm(oy - 3.81), "0"],
                           ["effects", ["font", ["size", "1.27", "1.27"]]]],
                          ["pin", q("1"), ["uuid", _uid(title, "flag", name, 1)]]])
            instances.append(["path", q(f"/{sym_uuid}"), ["reference", q(ref)], ["unit", "1"],
                              ["value", q("PWR_FLAG")], ["footprint", q("")]])
            label(name, ox, oy, 90)
            counts["power_flags"] += 1

    drawn = [k for k in lib_symbols if k.startswith("bgboard:")]
    if drawn:  # the symbols drawn here, as a project library the sheet names (KiCad checks them)
        lib = ["kicad_symbol_lib", ["version", "20211014"], ["generator", "bgboard_hardware_schematic"]]
        for k in sorted(drawn):
            sym = lib_symbols[k]
            lib.append([sym[0], q(k.split(":", 1)[1])] + sym[2:])
        (path.parent / "bgboard.kicad_sym").write_text(dump(lib) + "\n", encoding="utf-8")
        (path.parent / "sym-lib-table").write_text(
            '(sym_lib_table\n  (lib (name "bgboard")(type "KiCad")(uri "${KIPRJMOD}/bgboard.kicad_sym")'
            '(options "")(descr "symbols hardware/schematic.py draws"))\n)\n', encoding="utf-8")

    height = max(297.0, row_y + row_h + 25.4)
    sheet = ["kicad_sch", ["version", "20211123"], ["generator", "bgboard_hardware_schematic"],
             ["uuid", _uid(title, "sheet")], ["paper", "User", _mm(x_max + 25.4), _mm(height)],
             ["title_block", ["title", q(title)], ["comment", "1", q("hardware/circuit.py -> hardware/schematic.py (for KiCad's ERC)")]],
             ["lib_symbols"] + [lib_symbols[k] for k in sorted(lib_symbols)]]
    sheet += items
    sheet += [["sheet_instances", ["path", q("/"), ["page", q("1")]]], ["symbol_instances"] + instances]
    path.write_text(dump(sheet) + "\n", encoding="utf-8")
    return counts


__all__ = ["Library", "drawn_symbol", "dump", "parse", "q", "units_of", "unq", "write"]
