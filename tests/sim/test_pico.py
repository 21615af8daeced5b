"""The virtual Pico's process handling: relative directories, a firmware that cannot start."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from bgboard.link import messages as m
from bgboard.link.frames import Frame, FrameDecoder
from bgboard.sim import pico as pico_module
from bgboard.sim.pico import FirmwareUnavailableError, VirtualPico


def test_a_relative_directory_still_reaches_the_firmware(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``bgboard sim --out out/sim`` names a relative directory; the firmware runs inside it."""
    monkeypatch.chdir(tmp_path)
    board = VirtualPico(Path("out") / "pico", clock="fast:8")
    board.start()
    try:
        fd = os.open(board.slave_name, os.O_RDWR | os.O_NONBLOCK)
        decoder, got = FrameDecoder(), []
        deadline = time.monotonic() + 60  # against a hang; returns at the first CHANGES
        sent = False
        while not any(isinstance(x, m.Changes) for x in got) and time.monotonic() < deadline:
            if not sent and any(isinstance(x, m.Snapshot) for x in got):
                board.send("slot 12 41768")  # a white checker (the README example), after boot
                sent = True
            try:
                data = os.read(fd, 4096)
            except BlockingIOError:
                data = b""
            got += [m.decode(f) for f in decoder.feed(data) if isinstance(f, Frame)]
            time.sleep(0.01)
        os.close(fd)
    finally:
        board.close()
    assert isinstance(got[0], m.Hello)
    assert any(isinstance(x, m.Changes) for x in got)  # it read the field channel
    assert (tmp_path / "out" / "pico" / "flash").is_dir()


def test_a_firmware_that_dies_at_start_is_one_sentence_not_a_hang(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pico_module, "micropython", lambda: Path("/bin/false"))
    board = VirtualPico(tmp_path / "pico")
    # "exit code 1": the death itself was seen, not the start's 30 s deadline (that one says
    # "it did not open its field channel"), so no clock is needed to tell a hang from an answer
    with pytest.raises(FirmwareUnavailableError, match="did not start.*exit code 1"):
        board.start()
    board.close()
