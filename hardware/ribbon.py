"""What a strip's cable does when one of its ends is turned round (issue 32: "keyed, polarised
connectors with reverse insertion made harmless"), pin by pin, for a header's pin order.

A keyed boxed header takes its IDC socket one way only, but the socket can still be pressed onto
the ribbon turned round at one end (and an unkeyed 1 x N plug can be pushed on either way): then
pin n of the controller's header meets pin N + 1 - n of the strip's.  Each wire then joins one
net of the controller's side to one net of the strip's, and :func:`verdict` says what that does:

* two supplies of one rail, or a signal the controller drives into a strip input, or a strip's
  output into a controller input: harmless (the strip misreads or stays dark; nothing is hurt);
* a supply on a signal, or two different rails (+5 V on ground: a short of the supply): harmful;
* two outputs driving one wire (the controller's output against a strip's): harmful, unless a
  series resistor limits the current (the LED data lines behind 330 ohm) or the strip's output is
  off (the multiplexer drives SIG only while its /E is low; its /E has a 10 k pull-up, so it is off
  when /E meets a controller input).

Pure: the pin orders are data (the boards' own, ``circuit.HEADER_PINOUT`` and ``DICE_PINOUT``,
and the 1 x 12 order before them); tests/hardware/test_ribbon.py checks them, and
``python hardware/ribbon.py`` prints the tables of hardware/README.md, "Keyed connectors".
"""

from __future__ import annotations

from typing import Mapping, Sequence

#: The cable's nets by what drives them: "supply", "drive" (the controller drives, the strip
#: receives), "return" (the strip drives, the controller receives).
KIND: Mapping[str, str] = {
    "+5V": "supply", "GND": "supply",
    "DI": "drive", "S0": "drive", "S1": "drive", "S2": "drive", "S3": "drive", "/E": "drive",
    "DO": "return", "SIG": "return", "BTN": "return",
}
#: Strip outputs behind a series resistor (330 ohm at the LED's data input and output: a
#: contention draws at most 5 V / 330 ohm = 15 mA).
LIMITED = frozenset({"DI", "DO"})
#: A strip output that is off while the strip's input named here is not driven low.
ENABLED_BY: Mapping[str, str] = {"SIG": "/E"}



def _order(pinout: Mapping[str, tuple[int, ...]]) -> tuple[str, ...]:
    """A header's nets by pin (pin n - 1 -> net) from a net -> pins table."""
    order = [""] * sum(len(pins) for pins in pinout.values())
    for net, pins in pinout.items():
        for pin in pins:
            order[pin - 1] = net
    return tuple(order)


def _as_built() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The strip and dice headers as built (hardware/circuit.py's keyed box headers)."""
    from circuit import DICE_PINOUT, HEADER_PINOUT

    return _order(HEADER_PINOUT), _order(DICE_PINOUT)


#: The strip's and the dice module's header as built: pin n - 1 -> net.
AS_BUILT, DICE = _as_built()
#: The strip header before issue 32's keyed one: an unkeyed 1 x 12 pin header (a Dupont plug
#: goes on either way round).
BEFORE = ("+5V", "DI", "DO", "GND", "S0", "S1", "S2", "S3", "/E", "GND", "SIG", "GND")


def mirror(order: Sequence[str]) -> list[tuple[int, str, str]]:
    """``(pin, controller's net, strip's net)`` for every pin of the controller's header when the
    cable is turned round at one end (pin n meets pin N + 1 - n)."""
    n = len(order)
    return [(k + 1, order[k], order[n - 1 - k]) for k in range(n)]


def verdict(controller: str, strip: str, order: Sequence[str]) -> str:
    """What joining the controller's net ``controller`` to the strip's net ``strip`` does, with the
    rest of the cable turned round as ``order`` says: a sentence starting "harmless" or "harmful"."""
    a, b = KIND[controller], KIND[strip]
    if controller == strip:
        return "harmless: the same net"
    if a == "supply" and b == "supply":
        return f"harmful: {controller} on {strip}, a short of the supply"
    if "supply" in (a, b):
        return f"harmful: the supply {controller if a == 'supply' else strip} on the signal {strip if a == 'supply' else controller}"
    if a == "drive" and b == "return":
        gate = ENABLED_BY.get(strip)
        if gate is not None:
            at = order[len(order) - 1 - order.index(gate)]  # the controller's net the strip's gate meets
            if KIND[at] == "return":
                return f"harmless: the strip's {gate} meets the controller's input {at}, is pulled up, and {strip} is off"
        if strip in LIMITED:
            return f"harmless: the controller's {controller} against the strip's {strip}, limited by its 330 ohm"
        return f"harmful: the controller's {controller} drives against the strip's output {strip}"
    if a == "drive":
        return f"harmless: the controller's {controller} into the strip's input {strip}"
    if b == "return":
        return f"harmless: the strip's {strip} into the controller's input {controller}"
    pulled = " (pulled up: the multiplexer is off)" if strip in ENABLED_BY.values() else " (it floats)"
    return f"harmless: the controller's input {controller} meets the strip's input {strip}{pulled}"


def table(order: Sequence[str]) -> list[tuple[int, str, str, str]]:
    """Every pin of ``order`` turned round: ``(pin, controller's net, strip's net, verdict)``."""
    return [(pin, a, b, verdict(a, b, order)) for pin, a, b in mirror(order)]


def harmless(order: Sequence[str]) -> bool:
    """Whether turning the cable round at one end hurts nothing."""
    return all(v.startswith("harmless") for *_, v in table(order))


if __name__ == "__main__":
    for name, order in (("before (1 x 12)", BEFORE), ("strip, as built (2 x 10)", AS_BUILT), ("dice (2 x 4)", DICE)):
        print(f"{name}: {'harmless' if harmless(order) else 'HARMFUL'} when turned round")
        for pin, a, b, v in table(order):
            print(f"| {pin} | {a} | {b} | {v} |")
