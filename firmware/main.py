"""Firmware entry point: wiring only.  Hold the dice button at power-on for safe mode
(returns to the REPL at once, so mpremote can reach the board)."""

from hal import Hal
from controller import Controller


def main() -> None:
    hal = Hal()
    if hal.button_pressed():
        return
    Controller(hal).run()


main()
