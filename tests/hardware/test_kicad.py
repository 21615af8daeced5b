"""The boards as built by hardware/build.py with the real tools: SKiDL's ERC, KiCad 6's own ERC
(eeschema, through KiAuto under Xvfb), KiCad 6's DRC (pcbnew under Debian's /usr/bin/python3), the fab files, and the netlist checked against
grid.toml and pins.toml.  KiCad missing is a failure, not a skip (tools/test-services installs it).

One build (about 35 s of CPU, a minute or more of wall time on a loaded machine) feeds every test here.
"""

from __future__ import annotations

import csv
import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.support import shared_run

ROOT = Path(__file__).resolve().parents[2]
HARDWARE = ROOT / "hardware"
DEBIAN_PYTHON = "/usr/bin/python3"
HANG_S = 1800  # a bound against a hang, not a measure of speed

sys.path.insert(0, str(HARDWARE))
from netlist import read_netlist  # noqa: E402
import circuit  # noqa: E402

pytestmark = pytest.mark.slow
GRID = tomllib.loads((HARDWARE / "grid.toml").read_text())
SENSING = tomllib.loads((HARDWARE / "sensing.toml").read_text())  # the slot pitch and the sensor
PINS = tomllib.loads((HARDWARE / "pins.toml").read_text())
BOARDS = ("controller", "dice", "strip4", "strip5")
# CD74HC4067 (TI datasheet, SOIC-24): channel -> pin; COM 1, S0 10, S1 11, S2 14, S3 13, /E 15
MUX_CHANNEL_PIN = {ch: 9 - ch for ch in range(8)} | {ch: 31 - ch for ch in range(8, 16)}
MUX_SELECT_PIN = (10, 11, 14, 13)
STRIP_MUX = 20  # each strip's CD74HC4067 is U20 (hardware/circuit.py MUX_REF)
# Raspberry Pi Pico (datasheet pinout): GPn -> header pin, for the pins bgboard uses
PICO_GP_PIN = {0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15, 12: 16, 13: 17,
               14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27, 22: 29, 26: 31, 27: 32, 28: 34}
TAG = {"bar-white": "BW", "bar-black": "BB", "off-white": "OW", "off-black": "OB"}


def sensors_of(slot: dict) -> list[tuple[int, int]]:
    """A grid.toml slot's sensors as (mux, channel): its centre's, then the one half a pitch further."""
    return [tuple(p) for p in slot["sensors"]] if "sensors" in slot else [(slot["mux"], slot["channel"])]


PER_SLOT = len(sensors_of(GRID["slot"][0]))
#: every sensor of grid.toml: (place, its number along the place from the base, mux, channel)
SENSORS = [(s["place"], s["index"] * PER_SLOT + k, m, c) for s in GRID["slot"] for k, (m, c) in enumerate(sensors_of(s))]


def with_pcbnew() -> dict[str, str]:
    """This environment with Debian's pcbnew module on PYTHONPATH (KiAuto imports it), as build.py does."""
    where = subprocess.run([DEBIAN_PYTHON, "-c", "import os, pcbnew; print(os.path.dirname(pcbnew.__file__))"],
                           capture_output=True, text=True, check=True).stdout.strip()
    return dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (where, os.environ.get("PYTHONPATH", "")) if p))


def tag(place: str) -> str:
    return TAG.get(place, f"P{place}")


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, SimpleNamespace]:
    """The build and its outcome (returncode, stderr), made once per test run for every test
    and xdist worker (tests.support.shared_run)."""
    check = subprocess.run([DEBIAN_PYTHON, "-c", "import pcbnew"], capture_output=True)
    if check.returncode:
        pytest.fail("KiCad 6's pcbnew is missing from /usr/bin/python3: run tools/test-services "
                    "(apt-get install kicad kicad-footprints kicad-symbols)")

    def build(out: Path) -> dict:
        run = subprocess.run([DEBIAN_PYTHON, str(HARDWARE / "build.py"), "--out", str(out), "--skidl-python",
                              sys.executable], capture_output=True, text=True, timeout=HANG_S)
        return {"returncode": run.returncode, "stderr": run.stderr}

    outcome, out = shared_run(tmp_path_factory, "kicad-build", build)
    return out, SimpleNamespace(**outcome)


def test_build_exits_0_with_every_board(built) -> None:
    out, run = built
    assert run.returncode == 0, run.stderr[-3000:]
    assert sorted(r["board"] for r in json.loads((out / "drc.json").read_text())) == list(BOARDS)


def test_the_build_writes_the_stack_up_and_the_checker_insert(built) -> None:
    """hardware/stackup.py's files, into DIR/stackup: what a maker prints the checkers' inserts from."""
    out, _ = built
    for name in ("stackup-point.step", "stackup-section.png", "checker.stl", "insert.stl", "insert-drawing.png"):
        assert (out / "stackup" / name).stat().st_size > 1000, name


def test_skidl_erc_is_clean_for_every_circuit(built) -> None:
    out, _ = built
    lines = (out / "erc.txt").read_text().splitlines()
    circuits = {line.split(":")[0]: line for line in lines[1:]}
    assert set(circuits) == set(BOARDS) | {"system"}
    for name, line in circuits.items():
        assert " 0 errors, 0 warnings," in line, line


@pytest.mark.parametrize("board", BOARDS)
def test_kicad_erc_is_clean_for_every_board(built, board: str) -> None:
    out, _ = built
    lines = (out / "kicad-erc.txt").read_text().splitlines()
    assert lines[0] == "KiCad 6 eeschema ERC (KiAuto)"
    assert f"{board}: 0 errors, 0 warnings (eeschema ERC, erc/{board}/{board}.erc)" in lines
    report = (out / "work" / "nets" / "erc" / board / f"{board}.erc").read_text()
    assert report.startswith("ERC report") and re.search(r"\*\* ERC messages: 0\s+Errors 0\s+Warnings 0", report)


@pytest.mark.parametrize("board", BOARDS)
def test_the_schematic_kicad_checks_is_the_boards_circuit(built, board: str) -> None:
    out, _ = built
    nets = read_netlist(out / "work" / "nets" / f"{board}.net")
    sheet = (out / "work" / "nets" / f"{board}.kicad_sch").read_text()
    assert sheet.startswith("(kicad_sch\n  (version 20211123)")  # KiCad 6's own format
    drawn = set(re.findall(r'\(reference "([^"#][^"]*)"\)', sheet))
    assert drawn == set(nets.parts)
    # every connected pin carries its net's label: as many labels of a net as it has pins
    for name, pins in nets.nets.items():
        if len(pins) > 1:
            assert sheet.count(f'(label "{name}"') >= len(pins), name


def test_kicad_erc_finds_a_fault(built, tmp_path: Path) -> None:
    """eeschema's ERC is a real check: the controller's schematic with one no-connect flag
    taken off and one supply's PWR_FLAG taken off reports both."""
    out, _ = built
    nets = out / "work" / "nets"
    sheet = (nets / "controller.kicad_sch").read_text()
    start = sheet.index("  (no_connect")
    sheet = sheet[:start] + sheet[sheet.index("\n  (", start + 3) + 1:]
    flag = sheet.index('(lib_id "power:PWR_FLAG")')
    start = sheet.rindex("\n  (symbol", 0, flag) + 1
    sheet = sheet[:start] + sheet[sheet.index("\n  (", start + 3) + 1:]
    (tmp_path / "controller.kicad_sch").write_text(sheet)
    for extra in ("bgboard.kicad_sym", "sym-lib-table"):
        (tmp_path / extra).write_text((nets / extra).read_text())
    run = subprocess.run([sys.executable, str(HARDWARE / "erc.py"), "--nets", str(tmp_path), "--board", "controller"],
                         capture_output=True, text=True, timeout=HANG_S, env=with_pcbnew())
    assert run.returncode == 1, run.stderr
    report = (tmp_path / "erc" / "controller" / "controller.erc").read_text()
    assert "[pin_not_connected]" in report and "[power_pin_not_driven]" in report, report


@pytest.mark.parametrize("board", BOARDS)
def test_kicad_drc_is_clean(built, board: str) -> None:
    out, _ = built
    report = (out / board / f"{board}-drc.rpt").read_text()
    for what in ("DRC violations", "unconnected pads", "Footprint errors"):
        found = re.search(rf"\*\* Found (\d+) {what}", report)
        assert found and found.group(1) == "0", (what, report[:3000])
    pcb = (out / "work" / f"{board}.kicad_pcb").read_text()
    assert "(segment" in pcb and "Edge.Cuts" in pcb  # routed, with an outline


@pytest.mark.parametrize("board", BOARDS)
def test_fab_files_for_every_board(built, board: str) -> None:
    out, _ = built
    folder = out / board
    for suffix in ("CuTop.gtl", "CuBottom.gbl", "MaskTop.gts", "MaskBottom.gbs", "SilkTop.gto", "PasteTop.gtp",
                   "EdgeCuts.gm1"):
        path = folder / "gerber" / f"{board}-{suffix}"
        assert path.stat().st_size > 100, path
    assert "TF.FileFunction,Profile" in (folder / "gerber" / f"{board}-EdgeCuts.gm1").read_text()
    assert "M48" in (folder / "gerber" / f"{board}.drl").read_text()  # an Excellon header
    assert (folder / f"{board}-gerbers.zip").stat().st_size > 1000
    nets = read_netlist(out / "work" / "nets" / f"{board}.net")
    smd = smd_parts(out, board)
    assert smd and smd <= set(nets.parts)
    bom = list(csv.DictReader((folder / f"{board}-bom.csv").open()))
    assert list(bom[0]) == ["Comment", "Designator", "Footprint", "LCSC", "Manufacturer", "Manufacturer Part", "Quantity"]
    assert sorted(ref for row in bom for ref in row["Designator"].split(",")) == sorted(smd)
    cpl = list(csv.DictReader((folder / f"{board}-cpl.csv").open()))
    assert list(cpl[0]) == ["Designator", "Mid X", "Mid Y", "Layer", "Rotation"]
    assert sorted(r["Designator"] for r in cpl) == sorted(smd)  # the fab places what it solders
    with open(folder / f"{board}.png", "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"


def smd_parts(out: Path, board: str) -> set[str]:
    """The references of the board's surface-mount parts (every pad SMD): what the fab assembles."""
    pcb = (out / "work" / f"{board}.kicad_pcb").read_text()
    found = set()
    for chunk in pcb.split("\n  (footprint ")[1:]:
        ref = re.search(r'\(fp_text reference "([^"]+)"', chunk)
        pads = re.findall(r'\(pad "[^"]*" (\w+) ', chunk)
        if ref and pads and all(kind == "smd" for kind in pads):
            found.add(ref.group(1))
    return found


def test_strip_sensors_sit_one_pitch_apart(built) -> None:
    """Slot i's sensor at its centre, (i + 0.5) pitches from the strip's base; with two sensors
    per slot the second half a pitch further."""
    out, _ = built
    pitch = SENSING["board"]["slot_pitch_mm"]
    for board, slots in (("strip4", 4), ("strip5", 5)):
        rows = {r["Designator"]: r for r in csv.DictReader((out / board / f"{board}-cpl.csv").open())}
        parts = read_netlist(out / "work" / "nets" / f"{board}.net").parts
        sensors = sorted((k for k, part in parts.items() if part["value"].startswith("DRV5055")), key=lambda k: int(k[1:]))
        assert sensors == [f"U{j + 1}" for j in range(slots * PER_SLOT)]  # U1.. along the strip
        xs = [float(rows[k]["Mid X"].removesuffix("mm")) for k in sensors]
        assert xs == pytest.approx([(j // PER_SLOT + 0.5) * pitch + (j % PER_SLOT) * pitch / PER_SLOT
                                    for j in range(len(xs))], abs=1e-3)
        assert len({rows[k]["Mid Y"] for k in sensors}) == 1


def test_every_board_is_a_bom_row_and_the_sensors_add_up_to_the_slots(built) -> None:
    out, _ = built
    rows = {r["part_number"]: r for r in csv.DictReader((HARDWARE / "bom.csv").open())}
    sensors = 0
    for board in BOARDS:
        assert board in rows, f"hardware/bom.csv has no row for the board {board}"
        nets = read_netlist(out / "work" / "nets" / f"{board}.net")
        on_board = sum(1 for p in nets.parts.values() if p["value"].startswith("DRV5055"))
        sensors += on_board * int(rows[board]["quantity"])
    assert sensors == len(SENSORS)
    sensor = SENSING["sensor"]["name"]
    assert int(next(r for r in rows.values() if r["part_number"] == f"{sensor}QDBZR")["quantity"]) == len(SENSORS)


def place_of_mux() -> dict[int, str]:
    """grid.toml: multiplexer -> the place whose strip carries it (every sensor of a place on one)."""
    found: dict[int, str] = {}
    for place, _, mux, _ in SENSORS:
        assert found.setdefault(mux, place) == place, (mux, place)
    return found


def test_netlist_joins_every_sensor_to_its_multiplexer_channel(built) -> None:
    """Sensor n of a place reaches channel n of the multiplexer on its own strip, and nothing else."""
    out, _ = built
    nets = read_netlist(out / "work" / "nets" / "system.net")
    net_of = {node: name for name, nodes in nets.nets.items() for node in nodes}
    for place, n, mux, channel in SENSORS:
        sensor_out = (f"{tag(place)}-U{n + 1}", "2")  # DRV5055 SOT-23: pin 2 = OUT
        mux_in = (f"{tag(place)}-U{STRIP_MUX}", str(MUX_CHANNEL_PIN[channel]))
        assert nets.parts[mux_in[0]]["value"] == "CD74HC4067M"
        assert sensor_out in net_of and net_of[sensor_out] == net_of.get(mux_in), (place, n, mux, channel)
        assert len(nets.nets[net_of[sensor_out]]) == 2  # the sensor and its channel: nothing else
    used = {(tag(place), channel) for place, _, _, channel in SENSORS}
    for place in set(p for p, *_ in SENSORS):
        for channel in range(PINS["pico"]["mux"]["channels"]):
            pin = (f"{tag(place)}-U{STRIP_MUX}", str(MUX_CHANNEL_PIN[channel]))
            assert (pin in net_of) == ((tag(place), channel) in used), pin  # spare channels: no-connect


def test_netlist_joins_every_function_to_its_pico_pin(built) -> None:
    """Every multiplexer's S0-S3, /E and SIG reach the Pico pins pins.toml gives, through its
    strip's ribbon; the LED chain and the dice button too."""
    out, _ = built
    nets = read_netlist(out / "work" / "nets" / "system.net")
    net_of = {node: name for name, nodes in nets.nets.items() for node in nodes}
    mux = PINS["pico"]["mux"]

    def pico(gp: int) -> str:
        return net_of[("U1", str(PICO_GP_PIN[gp]))]

    banks = len(mux["enable"])
    places = place_of_mux()
    assert sorted(places) == list(range(mux["count"]))
    for m, place in places.items():
        u = f"{tag(place)}-U{STRIP_MUX}"
        for i, gp in enumerate(mux["select"]):
            assert net_of[(u, str(MUX_SELECT_PIN[i]))] == pico(gp), (u, f"S{i}")
        assert net_of[(u, "15")] == pico(mux["enable"][m % banks]), (u, "/E")
        assert net_of[(u, "1")] == pico(mux["adc"][m // banks]), (u, "COM")
    for k, gp in enumerate(mux["adc"]):  # one 100 kOhm pull-down on each ADC line, to ground
        downs = [ref for ref, pin in nets.nets[pico(gp)] if nets.parts[ref]["value"] == "100k"]
        assert len(downs) == 1, (gp, downs)
        assert {net_of[(downs[0], "1")], net_of[(downs[0], "2")]} == {pico(gp), "GND"}
        commons = [ref for ref, pin in nets.nets[pico(gp)] if nets.parts[ref]["value"] == "CD74HC4067M"]
        assert len(commons) == sum(1 for m in places if m // banks == k)  # ten multiplexers share a line
    assert net_of[("DICE-SW1", "1")] == pico(PINS["pico"]["dice"]["button"])
    assert net_of[("U2", "2")] == pico(PINS["pico"]["leds"]["data"])  # into the level shifter
    # the LED chain in LED order: shifter -> 330 Ohm -> point 1 ... black tray -> the dice pips
    places_in_order = [str(p) for p in range(1, 25)] + list(TAG)
    chain = [f"{tag(p)}-D1" for p in places_in_order] + [f"DICE-D{k}" for k in range(1, 15)]
    assert len(chain) == PINS["pico"]["leds"]["count"]
    assert net_of[("R4", "1")] == net_of[("U2", "3")]

    def ribbon_in(led: str) -> str:
        """The net that reaches an LED's data input (WS2812B pin 4) through its 330 Ohm series
        resistor, the only other part on the input's net."""
        (ref, pin), = [node for node in nets.nets[net_of[(led, "4")]] if node[0] != led]
        assert nets.parts[ref]["value"] == "330", (led, ref)
        return net_of[(ref, "1" if pin == "2" else "2")]

    def ribbon_out(led: str) -> str:
        """The net an LED's data output (WS2812B pin 2) drives through its 330 Ohm series resistor
        (issue 32: a strip's LED data output has one, so a ribbon turned round stays harmless)."""
        (ref, pin), = [node for node in nets.nets[net_of[(led, "2")]] if node[0] != led]
        assert nets.parts[ref]["value"] == "330", (led, ref)
        return net_of[(ref, "1" if pin == "2" else "2")]

    assert net_of[("R4", "2")] == ribbon_in(chain[0])  # WS2812B: 4 DIN, 2 DOUT
    for a, b in zip(chain, chain[1:]):
        if not b.startswith("DICE-D") or b == "DICE-D1":
            assert ribbon_out(a) == ribbon_in(b), (a, b)
        else:  # from pip to pip on the dice module: no ribbon between them
            assert net_of[(a, "2")] == net_of[(b, "4")], (a, b)


def test_every_enable_line_is_pulled_up_on_its_strip(built) -> None:
    """Each strip's /E has 10 k to the strip's 3.3 V: a multiplexer stays off while the Pico's
    pins float or hold their reset pull-downs (issue 32)."""
    out, _ = built
    nets = read_netlist(out / "work" / "nets" / "system.net")
    net_of = {node: name for name, nodes in nets.nets.items() for node in nodes}
    for place in set(p for p, *_ in SENSORS):
        t = tag(place)
        enable = net_of[(f"{t}-U{STRIP_MUX}", "15")]
        ups = [ref for ref, _ in nets.nets[enable] if ref.startswith(f"{t}-R") and nets.parts[ref]["value"] == "10k"]
        assert len(ups) == 1, (place, ups)
        assert {net_of[(ups[0], "1")], net_of[(ups[0], "2")]} == {enable, net_of[(f"{t}-U30", "2")]}


def test_each_strip_regulator_feeds_its_sensors_and_multiplexer(built) -> None:
    """A strip's DRV5055s and its CD74HC4067 run from the strip's own MCP1700 (3.3 V), which
    takes the ribbon's 5 V."""
    out, _ = built
    nets = read_netlist(out / "work" / "nets" / "system.net")
    net_of = {node: name for name, nodes in nets.nets.items() for node in nodes}
    for place in set(p for p, *_ in SENSORS):
        t = tag(place)
        v33 = net_of[(f"{t}-U30", "2")]  # MCP1700 SOT-23: 1 GND, 2 VOUT, 3 VIN
        assert net_of[(f"{t}-U30", "3")] == "+5V" and net_of[(f"{t}-U30", "1")] == "GND"
        assert net_of[(f"{t}-U{STRIP_MUX}", "24")] == v33  # CD74HC4067 VCC
        for _, n, _, _ in (s for s in SENSORS if s[0] == place):
            assert net_of[(f"{t}-U{n + 1}", "1")] == v33  # DRV5055 SOT-23: 1 VCC


def test_controller_supply_trunks_are_wide(built) -> None:
    """The controller's +5V and GND trunks (about 3.5 A worst case, hardware/README.md) are
    2 mm tracks through every strip header's supply pins, from the 5 V input."""
    out, _ = built
    pcb = (out / "work" / "controller.kicad_pcb").read_text()
    numbers = dict((name, num) for num, name in re.findall(r'\(net (\d+) "([^"]*)"\)', pcb))
    for name in ("+5V", "GND"):
        runs = re.findall(r"\(segment \(start ([\d.]+) ([\d.]+)\) \(end ([\d.]+) ([\d.]+)\) \(width ([\d.]+)\)"
                          r" \(layer \"F.Cu\"\) \(net " + numbers[name] + r"\)", pcb)
        wide = [r for r in runs if float(r[4]) >= 2.0 and r[1] == r[3]]  # horizontal 2 mm runs
        assert wide, name
        length = max(abs(float(r[2]) - float(r[0])) for r in wide)
        assert length > 27 * 10.795, (name, length)  # from the first header to the last and on


@pytest.mark.parametrize("board", BOARDS)
def test_committed_pictures_are_the_built_ones(built, board: str) -> None:
    from PIL import Image

    out, _ = built
    committed = Image.open(HARDWARE / "boards" / f"{board}.png").convert("RGB")
    fresh = Image.open(out / board / f"{board}.png").convert("RGB")
    assert committed.size == fresh.size and committed.tobytes() == fresh.tobytes(), \
        "redraw with: python3 hardware/build.py --out DIR --pictures"


def test_every_signal_of_every_off_board_connector_is_clamped(built) -> None:
    """ESD (issue 32): each signal of every off-board connector -- each strip's and the dice
    module's header, the controller's 28 strip headers and its dice header -- meets an SRV05-4
    input on its board, whose VP and VN are the board's 5 V and ground."""
    out, _ = built
    strip = tuple(pin for net, pins in circuit.HEADER_PINOUT.items() if net not in ("+5V", "GND") for pin in pins)
    dice = tuple(pin for net, pins in circuit.DICE_PINOUT.items() if net not in ("+5V", "GND") for pin in pins)
    assert len(strip) == 12 and len(dice) == 4
    for board, header, signals in (("strip5", "J1", strip), ("strip4", "J1", strip), ("dice", "J1", dice)) + tuple(
            ("controller", f"J{k}", strip) for k in range(1, 29)) + (("controller", "J29", dice),):
        nets = read_netlist(out / "work" / "nets" / f"{board}.net")
        net_of = {node: name for name, nodes in nets.nets.items() for node in nodes}
        clamps = [ref for ref, p in nets.parts.items() if p["mpn"] == "SRV05-4-P-T7"]
        assert clamps, board
        for ref in clamps:  # SRV05-4: 2 VN, 5 VP
            assert (net_of[(ref, "2")], net_of[(ref, "5")]) == ("GND", "+5V"), (board, ref)
        for pin in signals:
            clamped = [ref for ref, _ in nets.nets[net_of[(header, str(pin))]] if ref in clamps]
            assert clamped, (board, pin)


@pytest.mark.parametrize("board", ("strip5", "strip4", "dice"))
def test_each_header_pin_carries_the_net_its_pinout_names(built, board: str) -> None:
    """The keyed headers as built (issue 32): every pin of a strip's and the dice module's J1
    on the net circuit.py's pinout gives it, the pinout hardware/ribbon.py proves harmless when a
    ribbon's socket is pressed on turned round (tests/hardware/test_ribbon.py)."""
    out, _ = built
    nets = read_netlist(out / "work" / "nets" / f"{board}.net")
    net_of = {node: name for name, nodes in nets.nets.items() for node in nodes}
    names = {"DI": "LED_DI", "DO": "LED_DO", "/E": "~{E}", "BTN": "BUTTON"}
    pinout = circuit.DICE_PINOUT if board == "dice" else circuit.HEADER_PINOUT
    assert nets.parts["J1"]["footprint"].startswith("Connector_IDC:IDC-Header_2x")
    for net, pins in pinout.items():
        for pin in pins:
            assert net_of[("J1", str(pin))] == names.get(net, net), (board, pin)
