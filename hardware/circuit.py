"""The bgboard circuit as code (SKiDL 3, KiCad 6 symbol libraries), from pins.toml and grid.toml.

    python hardware/circuit.py --out DIR      (a Python with skidl: ``pip install -e '.[hardware]'``)

writes, into DIR:

* ``strip5.net``, ``strip4.net``, ``controller.net``, ``dice.net``: one KiCad netlist per board
  (hardware/boards.py lays each out and routes it);
* ``system.net``: the whole board set wired together -- the controller, one strip per place
  of grid.toml, the dice module, each ribbon cable a net joining the two connectors' pins;
* ``erc.txt``: SKiDL's electrical rules check of every circuit above (exit 1 if any error or
  warning).

The boards (hardware/README.md, "Boards"):

* **strip** (``strip5`` for the points and trays, ``strip4`` for the bar halves): two DRV5055
  hall sensors per slot (U1.. from the base: each slot's centre sensor, then the one half a
  pitch further) with their 100 nF, the strip's CD74HC4067 (U20; sensor j on channel j, the
  spare channels no-connect; its 100 nF), an MCP1700 3.3 V regulator (U30) for the sensors
  and the multiplexer with its two 1 uF, the place's WS2812B with its 100 nF and 330 Ohm on its
  data input and 330 Ohm on its data output, 10 k from /E to 3.3 V, two SRV05-4 ESD arrays on
  the header's signals, and a keyed 2x10 box header J1 (``HEADER_PINOUT``: a ribbon whose socket is
  pressed on turned round at one end hurts nothing, hardware/ribbon.py).
* **controller**: the Pico, one strip header per place (place order) with S0-S3 bused to the
  select pins and each header's /E and SIG on the enable and ADC lines pins.toml gives its
  multiplexer (enable[m % banks], adc[m // banks]), a 100 kOhm pull-down on each ADC line, the
  74AHCT125 level shifter and 330 Ohm on the LED data, the LED chain from strip to strip in LED
  order, the dice header, the 5 V input with its 1000 uF and the Schottky diode into VSYS.
* **dice**: the 14 dice pips (two 7-pip dice, pip order of firmware/leds.py), 330 Ohm on the first
  pip's data input, an SRV05-4 on the header's two signals, and the roll button.

Every part names its maker's part number (MPN); hardware/lcsc.csv adds the maker and the fab's
LCSC number of each part the fab assembles (fields MANUFACTURER and LCSC).

A strip's sensors take their supply from the strip's own regulator: the sensors are
ratiometric, and the empty-board calibration (CALIBRATE mode 0) records each sensor's no-field
reading, so a regulator's tolerance costs nothing.  Pins of the Pico the design does not
use are marked no-connect; so are the multiplexer channels a strip leaves free.  grid.toml
must wire the boards' way (each place's sensors on one multiplexer of its own, sensor j on
channel j: make_grid.py --per-slot 2); another grid is refused in one sentence.
"""

from __future__ import annotations

import argparse
import os
import sys
import tomllib
from pathlib import Path

HARDWARE = Path(__file__).resolve().parent
SYMBOLS = os.environ.get("KICAD6_SYMBOL_DIR", "/usr/share/kicad/symbols")

# The places of grid.toml in LED order (firmware/leds.py, hardware/README.md): LED i < 24 under
# point i + 1, then the white bar, black bar, white tray, black tray; the dice pips follow.
PLACES = tuple(str(p) for p in range(1, 25)) + ("bar-white", "bar-black", "off-white", "off-black")
# The strip header J1 (both ends of each 20-wire ribbon, pin 1 to pin 1): a keyed 2 x 10 box
# header (DIN 41651), net -> pins, in HEADER_NETS order (+5V, GND, LED in, LED out, S0-S3, /E, SIG).
# Pin n and pin 21 - n -- the pins a socket pressed on the ribbon turned round at one end joins --
# carry the same supply or two signals that may meet (hardware/ribbon.py checks every pin): the
# supplies and the select lines on two pins each, so every row of the header (pins 2k - 1, 2k) but
# the middle two is one net, bused along the controller's row of headers.
HEADER_PINS = 20
HEADER_NETS = ("+5V", "GND", "DI", "DO", "S0", "S1", "S2", "S3", "/E", "SIG")
HEADER_PINOUT: dict[str, tuple[int, ...]] = {
    "+5V": (1, 2, 19, 20), "GND": (3, 4, 17, 18), "DI": (9,), "DO": (12,),
    "S0": (5, 6), "S1": (7, 8), "S2": (13, 14), "S3": (15, 16), "/E": (10,), "SIG": (11,),
}
HEADER_LEGEND = "1-2 5V 3-4 GND 5-6 S0 7-8 S1 9 DI 10 /E 11 SIG 12 DO 13-14 S2 15-16 S3 17-18 GND 19-20 5V"
# The dice header: a keyed 2 x 4 box header whose pin n and pin 9 - n carry the same net (the
# LED data and the button on two wires each), so a socket turned round changes nothing.
DICE_NETS = ("+5V", "GND", "DI", "BTN")
DICE_PINOUT: dict[str, tuple[int, ...]] = {"+5V": (1, 8), "GND": (2, 7), "DI": (3, 6), "BTN": (4, 5)}
MUX_REF = 20  # a strip's multiplexer is U20 (its 100 nF C20); the sensors U1.., the regulator U30
CHANNELS = 16
PIPS = 7
HEADER_MPN = "61202021621"  # Wurth WR-BHD 2.54 mm male box header, 2 x 10, vertical (keyed)
DICE_HEADER_MPN = "61200821621"  # Wurth WR-BHD 2.54 mm male box header, 2 x 4, vertical (keyed)
LED_MPN = "WS2812B-B/W"  # Worldsemi WS2812B, 5050 PLCC4
TVS_MPN = "SRV05-4-P-T7"  # ProTek SRV05-4: four lines' ESD clamp (IEC 61000-4-2, 15 kV air), SOT-23-6
# Raspberry Pi Pico pins (datasheet, "Pinout"): header pin -> name.  GP25 is the on-board LED.
PICO_PINS = {
    1: "GP0", 2: "GP1", 3: "GND", 4: "GP2", 5: "GP3", 6: "GP4", 7: "GP5", 8: "GND", 9: "GP6", 10: "GP7",
    11: "GP8", 12: "GP9", 13: "GND", 14: "GP10", 15: "GP11", 16: "GP12", 17: "GP13", 18: "GND", 19: "GP14",
    20: "GP15", 21: "GP16", 22: "GP17", 23: "GND", 24: "GP18", 25: "GP19", 26: "GP20", 27: "GP21", 28: "GND",
    29: "GP22", 30: "RUN", 31: "GP26", 32: "GP27", 33: "AGND", 34: "GP28", 35: "ADC_VREF", 36: "3V3",
    37: "3V3_EN", 38: "GND", 39: "VSYS", 40: "VBUS",
}
FOOTPRINT = {
    "sensor": "Package_TO_SOT_SMD:SOT-23",
    "c0603": "Capacitor_SMD:C_0603_1608Metric",
    "r0603": "Resistor_SMD:R_0603_1608Metric",
    "ldo": "Package_TO_SOT_SMD:SOT-23",
    "led": "LED_SMD:LED_WS2812B_PLCC4_5.0x5.0mm_P3.2mm",
    "mux": "Package_SO:SOIC-24W_7.5x15.4mm_P1.27mm",
    "tvs": "Package_TO_SOT_SMD:SOT-23-6",
    "buffer": "Package_SO:SOIC-14_3.9x8.7mm_P1.27mm",
    "idc20": "Connector_IDC:IDC-Header_2x10_P2.54mm_Vertical",
    "idc8": "Connector_IDC:IDC-Header_2x04_P2.54mm_Vertical",
    "power": "TerminalBlock_Phoenix:TerminalBlock_Phoenix_MKDS-1,5-2-5.08_1x02_P5.08mm_Horizontal",
    "bulk": "Capacitor_THT:CP_Radial_D10.0mm_P5.00mm",
    "schottky": "Diode_SMD:D_SOD-123",
    "button": "Button_Switch_THT:SW_PUSH_6mm_H4.3mm",
    "pico": "bgboard:RaspberryPi_Pico",
}


def lcsc_table(hardware: Path = HARDWARE) -> dict[str, tuple[str, str]]:
    """hardware/lcsc.csv: manufacturer part number -> (manufacturer, the fab's LCSC part number)."""
    import csv

    with open(hardware / "lcsc.csv", newline="") as f:
        return {r["mpn"]: (r["manufacturer"], r["lcsc"]) for r in csv.DictReader(f)}


LCSC = lcsc_table()


def load(hardware: Path = HARDWARE) -> tuple[dict, dict]:
    """pins.toml and grid.toml, parsed."""
    with open(hardware / "pins.toml", "rb") as f:
        pins = tomllib.load(f)
    with open(hardware / "grid.toml", "rb") as f:
        grid = tomllib.load(f)
    # Which slot is which channel is grid.toml's; where the slots lie and which sensor sits
    # under them is the sensing design's (sensing.toml, chosen by the physics: README.md
    # "Sensing physics"), read here so that the boards follow it.
    with open(hardware / "sensing.toml", "rb") as f:
        sensing = tomllib.load(f)
    grid["layout"] = {"sensor": sensing["sensor"]["name"],
                      "slot_pitch_mm": float(sensing["board"]["slot_pitch_mm"])}
    return pins, grid


def sensor_symbol(grid: dict) -> str:
    """The KiCad symbol of the design's sensor variant (sensing.toml ``[sensor] name``, as
    :func:`load` puts it in ``grid["layout"]``; SOT-23 package)."""
    variant = grid["layout"]["sensor"]
    return f"{variant}xDBZxQ1"


def slots_of(grid: dict) -> dict[str, int]:
    """Place -> number of slots."""
    count: dict[str, int] = {}
    for s in grid["slot"]:
        count[s["place"]] = count.get(s["place"], 0) + 1
    return count


def sensors_of(slot: dict) -> list[tuple[int, int]]:
    """A grid.toml slot's sensors as (mux, channel), base side first."""
    if "sensors" in slot:
        return [(int(m), int(c)) for m, c in slot["sensors"]]
    return [(int(slot["mux"]), int(slot["channel"]))]


def per_slot(grid: dict) -> int:
    """Sensors per slot (grid.toml: one, or two half a slot pitch apart)."""
    return len(sensors_of(grid["slot"][0]))


def mux_of(grid: dict, channels: int = CHANNELS) -> dict[str, int]:
    """Place -> its strip's multiplexer, after checking that grid.toml wires the boards' way:
    every sensor of a place on one multiplexer of its own, sensor j (from the base) on channel j.
    A grid wired otherwise is a SystemExit in one sentence."""
    per = per_slot(grid)
    found: dict[str, int] = {}
    for s in grid["slot"]:
        for k, (m, c) in enumerate(sensors_of(s)):
            n = s["index"] * per + k
            if found.setdefault(s["place"], m) != m or c != n or not 0 <= c < channels:
                raise SystemExit(f"circuit.py: grid.toml puts sensor {n} of place {s['place']} on multiplexer {m} "
                                 f"channel {c}, but each strip carries one multiplexer with sensor j on channel j "
                                 "(python hardware/make_grid.py --per-slot 2 writes that grid)")
    if len(set(found.values())) != len(found):
        raise SystemExit("circuit.py: grid.toml gives two places the same multiplexer; each strip has its own")
    return found


def tag(place: str) -> str:
    """A place as a reference prefix and net-name part: P1..P24, BW, BB, OW, OB."""
    return {"bar-white": "BW", "bar-black": "BB", "off-white": "OW", "off-black": "OB"}.get(place, f"P{place}")


class Builder:
    """SKiDL parts and nets of one circuit; ``prefix`` keeps references unique in the system."""

    def __init__(self, skidl, prefix: str = "") -> None:
        self.sk = skidl
        self.prefix = prefix

    def part(self, lib: str, name: str, ref: str, value: str, footprint: str, **fields) -> object:
        p = self.sk.Part(library(self.sk, lib), name, ref=self.prefix + ref, value=value, footprint=FOOTPRINT[footprint])
        for key, val in fields.items():
            p.fields[key.upper()] = val  # written into the netlist's (fields ...): the BOM reads MPN
        known = LCSC.get(fields.get("mpn", ""))
        if known:  # the fab's part number and the maker (hardware/lcsc.csv): the assembly BOM's
            p.fields["MANUFACTURER"], p.fields["LCSC"] = known
        return p

    def net(self, name: str, power: bool = False):
        n = self.sk.Net(self.prefix + name)
        if power:
            n.drive = self.sk.POWER
        return n

    def nc(self):
        """The current circuit's no-connect net (SKiDL puts it in builtins when a circuit is entered)."""
        import builtins

        return builtins.NC  # type: ignore[attr-defined]

    def cap(self, ref: str, value: str, a, b, mpn: str) -> None:
        c = self.part("Device", "C", ref, value, "c0603", mpn=mpn)
        c[1] += a
        c[2] += b

    def pico(self, ref: str):
        sk = self.sk
        pico = sk.Part(tool=sk.SKIDL, name="RaspberryPi_Pico", ref=self.prefix + ref, value="Raspberry Pi Pico",
                       footprint=FOOTPRINT["pico"], dest=sk.NETLIST)
        power_pins = {"GND", "AGND"}
        for num, name in PICO_PINS.items():
            func = sk.Pin.types.BIDIR
            if name in power_pins or name == "VSYS":
                func = sk.Pin.types.PWRIN
            elif name == "3V3":
                func = sk.Pin.types.PWROUT
            elif name in ("VBUS", "RUN", "3V3_EN", "ADC_VREF"):
                func = sk.Pin.types.PASSIVE
            pico += sk.Pin(num=num, name=name, func=func)
        pico.fields["MPN"] = "SC0915"
        return pico


# ------------------------------------------------------------------------------ the boards
def strip(b: Builder, grid: dict, sensors: int, cable: list | None = None) -> None:
    """One strip of ``sensors`` DRV5055 (two per slot: U1.. from the base) and its CD74HC4067
    (sensor j on channel j).  ``cable``: the nets of the controller's header for it (HEADER_NETS
    order; the system circuit), else the strip's own nets."""
    if cable is None:
        v5, gnd = b.net("+5V", power=True), b.net("GND", power=True)
        din, dout = b.net("LED_DI"), b.net("LED_DO")
        select = [b.net(f"S{i}") for i in range(4)]
        enable, sig = b.net("~{E}"), b.net("SIG")
    else:
        v5, gnd, din, dout, *select, enable, sig = cable
    v33 = b.net("+3V3")
    j = b.part("Connector_Generic", f"Conn_02x{HEADER_PINS // 2:02d}_Odd_Even", "J1", "strip header",
               f"idc{HEADER_PINS}", mpn=HEADER_MPN)
    wire(j, HEADER_PINOUT, HEADER_NETS, (v5, gnd, din, dout, *select, enable, sig))
    reg = b.part("Regulator_Linear", "MCP1700x-330xxTT", "U30", "MCP1700-3.3", "ldo", mpn="MCP1700T-3302E/TT")
    reg["VI"] += v5
    reg["VO"] += v33
    reg["GND"] += gnd
    b.cap("C30", "1uF", v5, gnd, "CL10A105KB8NNNC")
    b.cap("C31", "1uF", v33, gnd, "CL10A105KB8NNNC")
    mux = b.part("74xx", "CD74HC4067M", f"U{MUX_REF}", "CD74HC4067M", "mux", mpn="CD74HC4067M96")
    mux["VCC"] += v33
    mux["GND"] += gnd
    mux["COM"] += sig
    mux["~{E}"] += enable
    for i in range(4):
        mux[f"S{i}"] += select[i]
    b.cap(f"C{MUX_REF}", "100nF", v33, gnd, "CC0603KRX7R9BB104")
    symbol = sensor_symbol(grid)
    for n in range(sensors):
        u = b.part("Sensor_Magnetic", symbol, f"U{n + 1}", symbol.replace("xDBZxQ1", "DBZR"), "sensor",
                   mpn=symbol.replace("xDBZxQ1", "QDBZR"))
        out = b.net(f"OUT{n}")
        u["VCC"] += v33
        u["GND"] += gnd
        u["OUT"] += out
        mux[f"I{n}"] += out  # sensor n (from the base) on channel n: grid.toml's wiring (check_grid)
        b.cap(f"C{n + 1}", "100nF", v33, gnd, "CC0603KRX7R9BB104")
    for ch in range(sensors, CHANNELS):
        mux[f"I{ch}"] += b.nc()
    # /E pulled up on the strip: a multiplexer stays off while the Pico's pins float or are
    # pulled down (at reset the RP2040's pins have pull-downs: every /E low would put all 28
    # multiplexers on the ADC lines at once); 10 k against the RP2040's 50-80 k pull-down
    # leaves /E above 2.6 V, over the CD74HC4067's 2.31 V V_IH at 3.3 V
    pull = b.part("Device", "R", "R1", "10k", "r0603", mpn="0603WAF1002T5E")
    pull[1] += enable
    pull[2] += v33
    # ESD: every signal the ribbon brings in or takes out is clamped at the header
    esd(b, "U40", [din, dout, enable, sig], v5, gnd)
    esd(b, "U41", select, v5, gnd)
    led = b.part("LED", "WS2812B", "D1", "WS2812B", "led", mpn=LED_MPN)
    led["VDD"] += v5
    led["VSS"] += gnd
    led["DIN"] += series_in(b, "R2", din)
    led["DOUT"] += series_out(b, "R3", dout)
    b.cap("C32", "100nF", v5, gnd, "CC0603KRX7R9BB104")


def esd(b: Builder, ref: str, lines: list, v5, gnd) -> None:
    """An SRV05-4 clamping up to four signal ``lines`` at an off-board connector (its VP on the
    5 V rail, its VN on ground); a spare input is left open."""
    tvs = b.part("Power_Protection", "SRV05-4", ref, "SRV05-4", "tvs", mpn=TVS_MPN)
    tvs["VP"] += v5
    tvs["VN"] += gnd
    for k, pin in enumerate(("IO1", "IO2", "IO3", "IO4")):
        tvs[pin] += lines[k] if k < len(lines) else b.nc()


def wire(j, pinout: dict[str, tuple[int, ...]], names: tuple[str, ...], nets: tuple | list) -> None:
    """Connect each of ``nets`` (``names`` order) to every pin ``pinout`` gives its name."""
    for name, net in zip(names, nets):
        for pin in pinout[name]:
            j[pin] += net


def series_out(b: Builder, ref: str, dout) -> object:
    """A 330 Ohm resistor in series with a strip's LED data output, at the LED: it terminates
    the metre of ribbon at its source and limits to 15 mA what flows when a ribbon turned round
    puts this output against the controller's LED data line (hardware/ribbon.py).  The net at
    the LED."""
    r = b.part("Device", "R", ref, "330", "r0603", mpn="0603WAF3300T5E")
    at_led = b.net(f"{ref}_LED_DO")
    r[1] += at_led
    r[2] += dout
    return at_led


def series_in(b: Builder, ref: str, din) -> object:
    """A 330 Ohm resistor in series with an LED's data input, at the LED: about a metre of
    ribbon comes before it; the resistor damps the line's ringing and limits the current into
    the input's clamp diodes (the LED may still be unpowered when data arrives).  The net at
    the LED."""
    r = b.part("Device", "R", ref, "330", "r0603", mpn="0603WAF3300T5E")
    at_led = b.net(f"{ref}_LED_DI")
    r[1] += din
    r[2] += at_led
    return at_led


def dice(b: Builder, cable: list | None = None) -> None:
    """The dice module: 14 WS2812B pips (die 1 then die 2, firmware/leds.py pip order) and the
    roll button; header J1 (``DICE_PINOUT``): +5V, GND, LED data in, button.  ``cable`` as for
    :func:`strip`."""
    if cable is None:
        v5, gnd = b.net("+5V", power=True), b.net("GND", power=True)
        din, button = b.net("LED_DI"), b.net("BUTTON")
    else:
        v5, gnd, din, button = cable
    j = b.part("Connector_Generic", "Conn_02x04_Odd_Even", "J1", "dice header", "idc8", mpn=DICE_HEADER_MPN)
    wire(j, DICE_PINOUT, DICE_NETS, (v5, gnd, din, button))
    esd(b, "U1", [din, button], v5, gnd)  # the cable's two signals, clamped at the header
    data = series_in(b, "R1", din)  # the ribbon from the controller ends here
    for k in range(2 * PIPS):
        led = b.part("LED", "WS2812B", f"D{k + 1}", "WS2812B", "led", mpn=LED_MPN)
        led["VDD"] += v5
        led["VSS"] += gnd
        led["DIN"] += data
        if k + 1 < 2 * PIPS:
            data = b.net(f"PIP{k + 1}")
            led["DOUT"] += data
        else:
            led["DOUT"] += b.nc()
        b.cap(f"C{k + 1}", "100nF", v5, gnd, "CC0603KRX7R9BB104")
    sw = b.part("Switch", "SW_Push", "SW1", "roll", "button", mpn="B3F-1000")  # 6 x 6 mm, the footprint's
    sw[1] += button
    sw[2] += gnd


def controller(b: Builder, pins: dict, grid: dict) -> dict[str, list]:
    """The controller board; returns the nets of each header: place -> HEADER_NETS order
    (+5V, GND, LED in, LED out, S0-S3, /E, SIG), "dice" -> [+5V, GND, LED data, button]."""
    mux_pins = pins["pico"]["mux"]
    mux = mux_of(grid, mux_pins["channels"])
    v5, gnd = b.net("+5V", power=True), b.net("GND", power=True)
    vsys = b.net("VSYS", power=True)  # the 5 V input through the Schottky diode
    pico = b.pico("U1")
    gp = {name: num for num, name in PICO_PINS.items()}

    used: set[str] = set()

    def gpio(n: int, net) -> None:
        pin = pico[gp[f"GP{n}"]]
        pin += net
        used.add(f"GP{n}")

    for num, name in PICO_PINS.items():
        if name in ("GND", "AGND"):
            pico[num] += gnd
    pico[gp["VSYS"]] += vsys
    for name in ("VBUS", "RUN", "3V3_EN", "ADC_VREF", "3V3"):  # the strips make their own 3.3 V
        pico[gp[name]] += b.nc()

    # a screw terminal rated far above the 3.5 A worst case (hardware/README.md, "Power budget");
    # the supply's 5.5 x 2.1 mm plug goes into a barrel-jack-to-screw-terminal adapter (bom.csv)
    power = b.part("Connector_Generic", "Conn_01x02", "J30", "5V in", "power", mpn="1715721")
    power[1] += v5
    power[2] += gnd
    bulk = b.part("Device", "C_Polarized", "C30", "1000uF 10V", "bulk", mpn="EEU-FR1A102")
    bulk[1] += v5
    bulk[2] += gnd
    diode = b.part("Device", "D_Schottky", "D1", "B5819W", "schottky", mpn="B5819W SL")
    diode["A"] += v5
    diode["K"] += vsys

    # the 5 V supply present, on a spare GPIO through a 100k / 100k divider (2.5 V, above the
    # RP2040's 2.0 V input-high threshold): the firmware drives no line to the strips without
    # it (a Pico on USB alone would feed them through their clamp diodes; pins.toml [pico.power])
    sense = b.net("SUPPLY_SENSE")
    gpio(pins["pico"]["power"]["supply_sense"], sense)
    for ref, a, k in (("R5", v5, sense), ("R6", sense, gnd)):
        r = b.part("Device", "R", ref, "100k", "r0603", mpn="RC0603FR-07100KL")
        r[1] += a
        r[2] += k

    select = [b.net(f"S{i}") for i in range(4)]  # bused to every header
    for i, n in enumerate(mux_pins["select"]):
        gpio(n, select[i])
    enable = [b.net(f"EN{k}") for k in range(len(mux_pins["enable"]))]
    for k, n in enumerate(mux_pins["enable"]):
        gpio(n, enable[k])
    adc = [b.net(f"ADC{k}") for k in range(len(mux_pins["adc"]))]
    for k, n in enumerate(mux_pins["adc"]):
        gpio(n, adc[k])
        r = b.part("Device", "R", f"R{k + 1}", "100k", "r0603", mpn="RC0603FR-07100KL")
        r[1] += adc[k]
        r[2] += gnd
    banks = len(mux_pins["enable"])
    if mux_pins["count"] != len(mux) or max(mux.values()) >= banks * len(adc):
        raise SystemExit(f"circuit.py: pins.toml's [pico.mux] count = {mux_pins['count']} with {banks} enable lines "
                         f"and {len(adc)} ADC lines does not serve grid.toml's {len(mux)} strip multiplexers")

    # one header per place (place order = LED order), its multiplexer's /E and SIG as pins.toml says
    headers: dict[str, list] = {}
    # link[k] is the data into LED k: link[0] from the level shifter, link[k + 1] from LED k's
    # data out (the strip of PLACES[k]), the last one into the dice module
    link = [b.net(f"LED{k}_DI") for k in range(len(PLACES) + 1)]
    for k, place in enumerate(PLACES):
        j = b.part("Connector_Generic", f"Conn_02x{HEADER_PINS // 2:02d}_Odd_Even", f"J{k + 1}", "strip header",
                   f"idc{HEADER_PINS}", mpn=HEADER_MPN)  # one BOM line: the place is on the silkscreen
        m = mux[place]
        nets = [v5, gnd, link[k], link[k + 1], *select, enable[m % banks], adc[m // banks]]
        wire(j, HEADER_PINOUT, HEADER_NETS, nets)
        headers[place] = nets
    # LED chain: GP16 -> buffer -> 330 Ohm -> first strip; each strip's out -> the next one's in; last -> dice
    shifter = b.part("74xx", "74LS125", "U2", "SN74AHCT125", "buffer", mpn="SN74AHCT125DR")
    shifter[14] += v5
    shifter[7] += gnd
    b.cap("C32", "100nF", v5, gnd, "CC0603KRX7R9BB104")
    data_in, shifted = b.net("LED_DATA"), b.net("LED_5V")
    gpio(pins["pico"]["leds"]["data"], data_in)
    shifter[1] += gnd  # 1OE active low: always on
    shifter[2] += data_in
    shifter[3] += shifted
    for oe, a, y in ((4, 5, 6), (10, 9, 8), (13, 12, 11)):  # unused gates: input grounded, output off
        shifter[oe] += v5
        shifter[a] += gnd
        shifter[y] += b.nc()
    series = b.part("Device", "R", "R4", "330", "r0603", mpn="0603WAF3300T5E")
    series[1] += shifted
    series[2] += link[0]
    dice_j = b.part("Connector_Generic", "Conn_02x04_Odd_Even", "J29", "dice", "idc8", mpn=DICE_HEADER_MPN)
    button = b.net("DICE_BUTTON")
    wire(dice_j, DICE_PINOUT, DICE_NETS, (v5, gnd, link[-1], button))
    gpio(pins["pico"]["dice"]["button"], button)
    headers["dice"] = [v5, gnd, link[-1], button]
    # ESD: every signal of the 30 connectors meets an SRV05-4 (U10..): first the LED chain's
    # links, four to an array, then the select, enable and ADC lines (each bused to several
    # headers) and the dice button
    groups = [link[k:k + 4] for k in range(0, len(link), 4)]
    others = select + enable + adc + [button]
    groups += [others[k:k + 4] for k in range(0, len(others), 4)]
    for k, group in enumerate(groups):
        esd(b, f"U{10 + k}", group, v5, gnd)
    for num, name in PICO_PINS.items():
        if name.startswith("GP") and name not in used:
            pico[num] += b.nc()
    return headers


_LIBRARIES: dict[str, object] = {}  # KiCad symbol library name -> SKiDL's SchLib of it


def library(skidl, name: str) -> object:
    """SKiDL's SchLib of the KiCad symbol library ``name``, read once for every circuit: a new
    Circuit empties SKiDL's own cache, and reading a library again (its pickle) cost seconds."""
    if name not in _LIBRARIES:
        _LIBRARIES[name] = skidl.SchLib(name)
    return _LIBRARIES[name]


def quick_trace(skidl_dir: str):
    """SKiDL's get_skidl_trace (where each part and net was made: the netlist's "SKiDL Line")
    by walking the frames, without inspect.stack(), which reads the source of every frame of
    the stack for every part and net and took about half of this script's time.  The same
    list: (absolute file, line) of each frame outside the skidl package, outermost first."""

    def get_skidl_trace() -> list[tuple[str, str]]:
        trace = []
        frame = sys._getframe(1)
        while frame is not None:
            filename = frame.f_code.co_filename
            if not filename.startswith(skidl_dir):
                trace.append((os.path.abspath(filename), str(frame.f_lineno)))
            frame = frame.f_back
        return trace[::-1]

    return get_skidl_trace


# ------------------------------------------------------------------------------ the run
def build(out: Path, hardware: Path = HARDWARE) -> int:
    """Write the netlists and erc.txt into ``out``; the number of ERC errors and warnings."""
    import logging

    import schematic
    import skidl as sk

    logging.getLogger("skidl").setLevel(logging.ERROR)
    import skidl.circuit
    import skidl.logger
    import skidl.node
    import skidl.scriptinfo

    trace = quick_trace(os.path.dirname(skidl.scriptinfo.__file__))
    for module in (skidl.circuit, skidl.node, skidl.logger):  # each imported the function by name
        module.get_skidl_trace = trace  # type: ignore[attr-defined]
    sk.set_default_tool(sk.KICAD6)
    if SYMBOLS not in sk.lib_search_paths[sk.KICAD6]:
        sk.lib_search_paths[sk.KICAD6].append(SYMBOLS)
    pins, grid = load(hardware)
    counts = slots_of(grid)
    out.mkdir(parents=True, exist_ok=True)
    report: list[str] = []
    problems = 0

    library = schematic.Library(SYMBOLS)

    def run(name: str, make, draw: bool = True) -> None:
        nonlocal problems
        circuit = sk.Circuit()
        with circuit:
            make()
            if draw:  # the board's KiCad 6 schematic, for eeschema's ERC (hardware/erc.py)
                schematic.write(circuit, out / f"{name}.kicad_sch", library, name, sk.POWER)
        circuit.ERC()
        errors, warnings = sk.erc_logger.error.count, sk.erc_logger.warning.count
        problems += errors + warnings
        report.append(f"{name}: {errors} errors, {warnings} warnings, {len(circuit.parts)} parts, "
                      f"{len([n for n in circuit.nets if n.pins])} nets")
        circuit.generate_netlist(file_=str(out / f"{name}.net"), do_backup=False)

    sizes = sorted(set(counts.values()), reverse=True)
    per = per_slot(grid)
    mux_of(grid, pins["pico"]["mux"]["channels"])  # grid.toml wired the boards' way, or one sentence
    for size in sizes:  # named by its slots, carrying per x slots sensors
        run(f"strip{size}", lambda size=size: strip(Builder(sk), grid, size * per))
    run("controller", lambda: controller(Builder(sk), pins, grid))
    run("dice", lambda: dice(Builder(sk)))

    def system() -> None:
        headers = controller(Builder(sk), pins, grid)
        for place in PLACES:  # each ribbon cable joins a strip's J1 to its header, pin to pin
            strip(Builder(sk, prefix=f"{tag(place)}-"), grid, counts[place] * per, cable=headers[place])
        dice(Builder(sk, prefix="DICE-"), cable=headers["dice"])

    run("system", system, draw=False)  # the boards' ribbons: SKiDL's ERC checks the whole set
    (out / "erc.txt").write_text("SKiDL " + sk.__version__ + " ERC\n" + "\n".join(report) + "\n")
    print("\n".join(report), file=sys.stderr)
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True, help="directory for the netlists and erc.txt")
    args = parser.parse_args(argv)
    out = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    os.chdir(out)  # SKiDL writes its circuit.log and circuit.erc into the working directory
    try:
        problems = build(out)
    except SystemExit as exc:  # a grid.toml or pins.toml the boards cannot carry: its one sentence
        if isinstance(exc.code, str):
            print(exc.code, file=sys.stderr)
            return 2
        raise
    if problems:
        print(f"circuit.py: the electrical rules check found {problems} problems (see {out / 'erc.txt'})",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
