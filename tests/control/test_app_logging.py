"""``bgboard run`` says on stderr (journald under systemd) what it does and what it waits for."""

from __future__ import annotations

import asyncio
import logging
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.control.test_app import _running, press, until


def _config(tmp_path: Path) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(
        f'[board]\nport = "{tmp_path / "no-board"}"\n'
        '[buttons]\nenabled = false\n'
        f'[display]\nframes_dir = "{tmp_path / "frames"}"\n'
        f'[journal]\npath = "{tmp_path / "journal.db"}"\n'
    )
    return path


def _wait_until_sigterm_is_handled(pid: int, deadline: float) -> None:
    """Wait until the process has installed its SIGTERM handler (bit 15 of SigCgt), so a SIGTERM
    sent to a slow-starting process (a loaded machine) is a clean stop and not a kill."""
    while time.monotonic() < deadline:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("SigCgt:") and int(line.split()[1], 16) & (1 << (signal.SIGTERM - 1)):
                return
        time.sleep(0.05)


def _run_until(tmp_path: Path, *options: str, wait_for: str | None) -> tuple[int, str]:
    """Start ``bgboard run``, wait until stderr shows ``wait_for`` (None: until the display
    has shown a frame), SIGTERM it."""
    err = tmp_path / "stderr.txt"
    with open(err, "wb") as sink:
        proc = subprocess.Popen([sys.executable, "-m", "bgboard", "run", "--config", str(_config(tmp_path)), *options],
                                stderr=sink, stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + 60  # at once; the bound only against a loaded machine
        while time.monotonic() < deadline:
            text = err.read_text()
            if wait_for is not None and wait_for in text:
                break
            if wait_for is None and list((tmp_path / "frames").glob("*.png")):
                break
            time.sleep(0.05)
        _wait_until_sigterm_is_handled(proc.pid, deadline)
        proc.send_signal(signal.SIGTERM)
        code = proc.wait(60)
    return code, err.read_text()


def test_run_says_what_it_waits_for_and_stops_cleanly(tmp_path: Path) -> None:
    code, text = _run_until(tmp_path, wait_for="waiting for the board")
    assert code == 0, text
    assert f"waiting for the board on {tmp_path / 'no-board'} (not present)" in text
    assert "INFO bgboard.commands.run: starting with" in text
    assert "journal.db: 1 match action, phase opening" in text and "display: waveshare-2in9; hints: none" in text
    assert "Traceback" not in text


@pytest.mark.slow
def test_quiet_keeps_only_warnings_and_verbose_says_every_step(tmp_path: Path) -> None:
    (tmp_path / "q").mkdir()
    code, text = _run_until(tmp_path / "q", "--quiet", wait_for=None)
    assert code == 0 and "INFO" not in text and "waiting for the board" not in text, text
    (tmp_path / "v").mkdir()
    code, text = _run_until(tmp_path / "v", "-v", wait_for="still no board")
    assert code == 0 and "DEBUG bgboard.link.reconnect: still no board on" in text, text


@pytest.mark.slow
def test_connections_link_errors_reconnects_and_match_actions_are_logged(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bgboard")

    async def main() -> None:
        async with _running(tmp_path) as (board, factory, app):
            from bgboard.link.messages import Heartbeat

            board.corrupt(Heartbeat(0, 0, 0, False))
            board.corrupt(Heartbeat(0, 0, 0, False))
            await until(lambda: "(2 so far)" in caplog.text)
            press(factory, 5)  # white: roll
            await until(lambda: board.rolling)
            board.roll((3, 1))
            await until(lambda: "match action" in caplog.text and app.controller.state.phase == "play")
            board.unplug()
            await until(lambda: "reconnecting to the board" in caplog.text)
            board.plug()
            board.boot()
            await until(lambda: caplog.text.count("board connected") == 2)

    asyncio.run(main())
    text = caplog.text
    assert "board connected: firmware fake 1.0, 138 slots" in text
    assert "link error: garbled bytes or a corrupt frame (1 so far)" in text
    assert "link error: garbled bytes or a corrupt frame (2 so far)" in text
    assert "board lost:" in text and f"reconnected to {tmp_path / 'bgboard'}" in text
    assert re.search(r"INFO +bgboard.app:.*match action \d+: OpeningRoll", text), text
