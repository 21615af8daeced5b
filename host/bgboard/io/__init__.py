"""The players' buttons on the Raspberry Pi's GPIO (adapter; gpiozero is imported when the
buttons are opened), each press handed to the asyncio loop as a control event."""

from __future__ import annotations

from bgboard.io.buttons import Buttons, ButtonsUnavailableError, PinConfigError, to_loop

__all__ = [
    "Buttons", "ButtonsUnavailableError", "PinConfigError", "to_loop",
]
