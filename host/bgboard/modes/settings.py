"""The match the board plays: the controller's settings read from the config (``[match]``,
``[clock]``, ``[teach]``), with the board's slots."""

from __future__ import annotations

from bgboard.config import Config
from bgboard.control.clock import ClockRules
from bgboard.control.controller import IllegalPolicy, Settings
from bgboard.match.state import ROTATIONS
from bgboard.rules.games import recorded
from bgboard.sense.places import Slots
from bgboard.sense.slots import SlotMap


def settings_of(config: Config, slots: Slots, slot_map: SlotMap | None = None) -> Settings:
    """The controller settings of a config (``slot_map``: the board's slots, from which a
    seed variant's pins are read; tavli is played under its own rule set)."""
    m, c = config.match, config.clock
    clock = None
    if c.enabled:
        clock = ClockRules(
            int(c.per_point_s * 1000), int(c.scored_s * 1000), int(c.delay_s * 1000), int(c.overtime_s * 1000)
        )
    return Settings(
        length=m.length,
        rules=m.variant if m.variant in ROTATIONS else m.rules,
        players=m.players,
        variant=None if m.variant in ROTATIONS else recorded(m.variant),
        takebacks=m.takebacks,
        illegal=IllegalPolicy(m.illegal),
        clock=clock,
        slots=slots,
        jacoby=m.jacoby,
        beavers=m.beavers,
        numbering=m.numbering,
        teach="learner" if config.teach.mode == "learner" else "off",  # practice: the PracticeRoom
        slot_map=slot_map,
    )
