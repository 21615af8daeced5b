"""The rules engine: positions, dice, legal plays and steps, notation, IDs (pure code)."""

from bgboard.rules.position import BAR, CHECKERS, OFF, InvalidPositionError, Position

__all__ = ["BAR", "CHECKERS", "OFF", "InvalidPositionError", "Position"]
