"""The firmware's wire constants (firmware/wire.py, classify.py, board.py, calibration.py)
are the host's (bgboard.link.frames, bgboard.link.messages): one protocol, written on both
sides of the cable, checked number by number.  The golden frames check the layouts; this
checks every code, including those no golden frame happens to carry."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from bgboard.link import frames, messages
from bgboard.link.frames import Reason
from bgboard.link.messages import ErrorCode, Kind

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"


def _firmware(name: str) -> ModuleType:
    """A firmware module loaded by CPython from its file (they are plain Python)."""
    spec = importlib.util.spec_from_file_location(f"firmware_{name}", FIRMWARE / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(FIRMWARE))  # its own imports (classify imports calibration)
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(FIRMWARE))
    return module


WIRE = _firmware("wire")


@pytest.mark.parametrize("name", ["PREAMBLE", "HEADER_SIZE", "CRC_SIZE", "MAX_PAYLOAD"])
def test_frame_constants(name: str) -> None:
    assert getattr(WIRE, name) == getattr(frames, name)


def test_protocol_version_and_limits() -> None:
    assert WIRE.PROTOCOL_VERSION == messages.PROTOCOL_VERSION
    assert WIRE.MAX_CHANGES == messages.MAX_CHANGES
    assert _firmware("board").HOST_LEDS == messages.HOST_LEDS
    assert _firmware("wire").ROLL_NOW == messages.ROLL_NOW


def test_every_frame_kind_has_the_same_number_on_both_sides() -> None:
    firmware = {name: getattr(WIRE, name) for name in Kind.__members__ if hasattr(WIRE, name)}
    assert firmware == {kind.name: int(kind) for kind in Kind}


def test_every_error_code_has_the_same_number_on_both_sides() -> None:
    firmware = {name: getattr(WIRE, name) for name in ErrorCode.__members__ if hasattr(WIRE, name)}
    assert firmware == {code.name: int(code) for code in ErrorCode}


def test_decoder_problems_have_the_same_names() -> None:
    assert {WIRE.GARBAGE, WIRE.BAD_CRC, WIRE.TOO_LONG} == {str(reason) for reason in Reason}


def test_slot_states_have_the_same_colours_and_levels() -> None:
    classify = _firmware("classify")
    for name in ("EMPTY", "WHITE", "BLACK", "FAULT", "MAX_LEVEL"):
        assert getattr(classify, name) == getattr(messages, name), name


def test_calibration_statuses_and_snapshot_reasons() -> None:
    calibration = _firmware("calibration")
    assert (calibration.LOADED, calibration.DEFAULTS, calibration.CORRUPT) == (
        messages.CALIBRATION_LOADED,
        messages.CALIBRATION_DEFAULTS,
        messages.CALIBRATION_CORRUPT,
    )
    controller = _firmware("controller")
    assert (controller.SNAPSHOT_BOOT, controller.SNAPSHOT_REQUESTED, controller.SNAPSHOT_CALIBRATED) == (
        messages.SNAPSHOT_BOOT,
        messages.SNAPSHOT_REQUESTED,
        messages.SNAPSHOT_CALIBRATED,
    )


def test_a_changed_constant_would_be_caught() -> None:
    """The comparison above is not vacuous: the firmware's names cover every host code."""
    assert all(hasattr(WIRE, kind.name) for kind in Kind)
    assert all(hasattr(WIRE, code.name) for code in ErrorCode)
