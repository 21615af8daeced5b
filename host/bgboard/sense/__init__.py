"""Sensing (pure code): hall-sensor slot readings to board observations, settling of
flicker, and recognition of the play a player made (or why it is not one).

A roll of any game is read with :class:`RollReading` (:mod:`bgboard.sense.roll`, from the
game's registry entry); its one set of verdicts (``Played``, ``Ambiguous``, ``Unchanged``
...) is exported here (:mod:`bgboard.sense.recognise`)."""

from __future__ import annotations

from bgboard.sense import tavli
from bgboard.sense.places import (
    BLACK,
    BLACK_BAR,
    BLACK_OFF,
    CAPPED,
    COLOUR_NAMES,
    MIXED,
    WHITE,
    WHITE_BAR,
    WHITE_OFF,
    Fix,
    Observation,
    Reading,
    SensorFaultError,
    Slots,
    board_of,
    code_reading,
    describe_fixes,
    guess_board,
    physical_point,
    position_of,
    put_back,
    reading_from_slots,
)
from bgboard.sense.recognise import (
    Ambiguous,
    Illegal,
    Miscount,
    Moving,
    Played,
    Takeback,
    Turn,
    Unchanged,
    Verdict,
    setup_fixes,
    setup_message,
)
from bgboard.sense.roll import RollReading
from bgboard.sense.settle import Flicker, Settler
from bgboard.sense.slots import PLACE_NUMBERS, SlotMap
from bgboard.sense.tavli import Physical, VariantTurn, physical, setup_text

__all__ = [
    "BLACK", "BLACK_BAR", "BLACK_OFF", "CAPPED", "COLOUR_NAMES", "MIXED", "PLACE_NUMBERS", "WHITE",
    "WHITE_BAR", "WHITE_OFF", "Ambiguous", "Fix", "Flicker", "Illegal", "Miscount", "Moving",
    "Observation", "Physical", "Played", "Reading", "RollReading", "SensorFaultError", "Settler", "SlotMap",
    "Slots", "Takeback", "Turn", "Unchanged", "VariantTurn", "Verdict", "board_of",
    "code_reading", "describe_fixes", "guess_board", "physical", "physical_point", "position_of",
    "put_back", "reading_from_slots", "setup_fixes", "setup_message", "setup_text", "tavli",
]
