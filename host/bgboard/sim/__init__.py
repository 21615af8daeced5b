"""The board simulator: simulated players and hands on a virtual sensor field, the real
firmware under the MicroPython unix port (or its in-process model), and the drivers that
play whole matches, replays, drills and club evenings against the real host.

The public names are imported on first use (:mod:`bgboard.exports`), so importing one part
(the field, the players) does not load the others.  docs/simulator.md explains it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bgboard.exports import exports

if TYPE_CHECKING:
    from bgboard.sim.clubboard import ClubSimBoard, match_seed
    from bgboard.sim.clubdemo import play_evening
    from bgboard.sim.driver import Options
    from bgboard.sim.ops import SimulationError
    from bgboard.sim.field import NOISE_LEVELS, Calibration, Faults, Hand, default_grid, readings, slot_units
    from bgboard.sim.hand import carry
    from bgboard.sim.interactive import play_interactive
    from bgboard.sim.layout import COLOURS, Layout, place_of
    from bgboard.sim.firmware_board import LiveRun
    from bgboard.sim.pico import FirmwareUnavailableError, VirtualPico, micropython
    from bgboard.sim.players import choose_play, dice_for, moves_of, takes, wants_double
    from bgboard.sim.practice_run import run_drills, run_firmware_drills
    from bgboard.sim.records import write_mat
    from bgboard.sim.replay_run import guided_moves, simulate_replay
    from bgboard.sim.modelled_board import Simulation, noise_level
    from bgboard.sim.match_run import run_firmware_match, run_match, write_gif

#: Each submodule and the public names it defines (imported when a name is first used).
__getattr__ = exports(__name__, {
    "clubboard": "ClubSimBoard match_seed",
    "clubdemo": "play_evening",
    "driver": "Options",
    "ops": "SimulationError",
    "field": "NOISE_LEVELS Calibration Faults Hand default_grid readings slot_units",
    "hand": "carry",
    "interactive": "play_interactive",
    "layout": "COLOURS Layout place_of",
    "firmware_board": "LiveRun",
    "pico": "FirmwareUnavailableError VirtualPico micropython",
    "players": "choose_play dice_for moves_of takes wants_double",
    "practice_run": "run_drills run_firmware_drills",
    "records": "write_mat",
    "replay_run": "guided_moves simulate_replay",
    "modelled_board": "Simulation noise_level",
    "match_run": "run_firmware_match run_match write_gif",
})

__all__ = [
    "COLOURS", "NOISE_LEVELS", "Calibration", "ClubSimBoard", "Faults", "FirmwareUnavailableError",
    "Hand", "Layout", "LiveRun", "Options", "Simulation", "SimulationError", "VirtualPico", "carry",
    "choose_play", "default_grid", "dice_for", "guided_moves", "match_seed", "micropython",
    "moves_of", "noise_level", "place_of", "play_evening", "play_interactive",
    "readings", "run_drills", "run_firmware_drills", "run_firmware_match", "run_match", "simulate_replay", "slot_units",
    "takes", "wants_double", "write_gif", "write_mat",
]
