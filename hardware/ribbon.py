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

Pure: the pin orders are data (the board's own, ``circuit.HEADER_PIN``, and the keyed one
proposed here); tests/hardware/test_ribbon.py checks both and prints the table of README's
"Keyed connectors".
"""

from __future__ import annotations

from typing import Mapping, Sequence

#: The cable's nets by what drives them: "supply", "drive" (the controller drives, the strip
#: receives), "return" (the strip drives, the controller receives).
KIND: Mapping[str, str] = {
    "+5V": "supply", "GND": "supply",
    "DI": "drive", "S0": "drive", "S1": "drive", "S2": "drive", "S3": "drive", "/E": "drive",
    "DO": "return", "SIG": "return",
}
#: Strip outputs behind a series resistor (330 ohm: a contention draws at most 5 V / 330 ohm).
#: DO's resistor is part of the keyed order's proposal (the board today has one at DI only).
LIMITED = frozenset({"DI", "DO"})
#: A strip output that is off while the strip's input named here is not driven low.
ENABLED_BY: Mapping[str, str] = {"SIG": "/E"}



def _as_built() -> tuple[str, ...]:
    """The strip header as built (hardware/circuit.py's 1 x 12 pin header, 2.54 mm: its
    ``HEADER_PIN`` and ``GND_PINS``): pin n - 1 -> net."""
    from circuit import GND_PINS, HEADER_PIN, HEADER_PINS

    order = [""] * HEADER_PINS
    for net, pin in zip(("+5V", "GND", "DI", "DO", "S0", "S1", "S2", "S3", "/E", "SIG"), HEADER_PIN):
        order[pin - 1] = net
    for pin in GND_PINS:
        order[pin - 1] = "GND"
    return tuple(order)


AS_BUILT = _as_built()
#: The keyed order proposed (a 2 x 8 boxed IDC header, DIN 41651, KiCad 6's
#: Connector_IDC:IDC-Header_2x08_P2.54mm_Vertical): every pin and its mirror are the same
#: supply or two signals that may meet; SIG and /E each between two grounds, as SIG is today.
KEYED = ("+5V", "GND", "DI", "S0", "GND", "SIG", "GND", "S1",
         "S2", "GND", "/E", "GND", "S3", "DO", "GND", "+5V")


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
    for name, order in (("as built", AS_BUILT), ("keyed", KEYED)):
        print(f"{name}: {'harmless' if harmless(order) else 'HARMFUL'} when turned round")
        for pin, a, b, v in table(order):
            print(f"| {pin} | {a} | {b} | {v} |")
