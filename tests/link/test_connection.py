"""The board link over a real pty with the real codec: handshake, resync, watchdog,
re-sent commands, firmware reboots, unplugging and replugging."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path
from typing import Awaitable, Callable

import pytest

from bgboard.link.connection import Beat, BoardSeen, Connected, Connection, LinkEvent, Lost, Rolled, Timing, Trouble
from bgboard.link.messages import Changes, RequestSnapshot, SetRolling, SlotChange, slot_state
from bgboard.link.backoff import Backoff
from bgboard.link.reconnect import Link
from bgboard.link.transport import PortUnavailableError, open_serial
from tests.control.fakeboard import FakeBoard
from tests.control.guard import no_leftover_tasks  # noqa: F401  (autouse)
from tests.support import until

# Short timeouts keep the tests fast; the watchdog is long (the fake board sends no heartbeat
# of its own, and a loaded machine that holds the test back must not lose the board) except
# in the test of the watchdog itself (SILENT).
FAST = Timing(hello_s=0.3, watchdog_s=30.0, snapshot_s=0.3, ack_s=0.15, tick_s=0.02)
SILENT = replace(FAST, watchdog_s=0.6)
WHITE1 = slot_state(1, 1)


async def session(tmp_path: Path, script: Callable[[FakeBoard, Connection, list[LinkEvent]], Awaitable[None]],
                  timing: Timing = FAST, **board_kw) -> list[LinkEvent]:
    """Run a Connection against a FakeBoard while ``script`` plays the board."""
    board = FakeBoard(tmp_path / "bgboard", **board_kw)
    board.plug()
    events: list[LinkEvent] = []
    port = await open_serial(str(board.path))
    connection = Connection(port, events.append, timing)
    task = asyncio.create_task(connection.run())
    try:
        await script(board, connection, events)
    finally:
        board.unplug()
        await asyncio.wait_for(task, 30)
    return events


def states_seen(events: list[LinkEvent]) -> list[tuple[int, ...]]:
    return [e.states for e in events if isinstance(e, BoardSeen)]


def test_handshake_snapshot_changes_rolls_and_acknowledged_commands(tmp_path: Path) -> None:
    async def script(board: FakeBoard, c: Connection, events: list[LinkEvent]) -> None:
        board.states[0] = WHITE1
        board.boot()
        await until(lambda: c.in_sync)
        assert isinstance(events[0], Connected) and events[0].hello.firmware == "fake 1.0"
        board.change(5, WHITE1)
        board.roll((6, 2))
        await until(lambda: any(isinstance(e, Rolled) for e in events))
        c.send(SetRolling(True))
        await until(lambda: board.rolling)
        await until(lambda: not c._pending)
        assert states_seen(events)[-1][5] == WHITE1 and states_seen(events)[0][0] == WHITE1

    events = asyncio.run(session(tmp_path, script))
    assert Rolled(1, (6, 2)) in events
    assert isinstance(events[-1], Lost) and "plug it back in" in events[-1].text


def test_frames_one_byte_at_a_time_read_the_same(tmp_path: Path) -> None:
    async def script(board: FakeBoard, c: Connection, events: list[LinkEvent]) -> None:
        real_raw = board.raw

        def trickle(data: bytes) -> None:
            for i in range(len(data)):
                real_raw(data[i : i + 1])

        board.raw = trickle  # type: ignore[method-assign]
        board.boot()
        board.change(7, WHITE1)
        await until(lambda: len(states_seen(events)) == 2)
        assert states_seen(events)[-1][7] == WHITE1

    asyncio.run(session(tmp_path, script))


def test_corrupted_bytes_make_the_host_resynchronise(tmp_path: Path) -> None:
    async def script(board: FakeBoard, c: Connection, events: list[LinkEvent]) -> None:
        board.boot()
        await until(lambda: c.in_sync)
        board.states[3] = WHITE1
        board.corrupt(Changes((SlotChange(3, WHITE1),)))  # the change is lost in the noise
        board.raw(b"\x00\xffnoise\xb6")
        await until(lambda: any(isinstance(m, RequestSnapshot) for m in board.received))
        await until(lambda: c.in_sync and states_seen(events)[-1][3] == WHITE1)
        assert c.resyncs >= 1

    asyncio.run(session(tmp_path, script))


def test_a_dropped_frame_is_noticed_and_nothing_is_trusted_until_the_snapshot(tmp_path: Path) -> None:
    async def script(board: FakeBoard, c: Connection, events: list[LinkEvent]) -> None:
        board.boot()
        await until(lambda: c.in_sync)
        board.answer_snapshots = False
        board.states[9] = WHITE1  # this change is "lost": the next frame skips a number
        board.change(10, WHITE1, skip=1)
        await until(lambda: any(isinstance(m, RequestSnapshot) for m in board.received))
        seen = len(states_seen(events))
        board.change(11, WHITE1)  # not trusted while out of sync
        beats = sum(isinstance(e, Beat) for e in events)
        board.heartbeat()  # frames are read in order: once its beat is seen, the change was read
        await until(lambda: sum(isinstance(e, Beat) for e in events) > beats)
        assert len(states_seen(events)) == seen and not c.in_sync
        board.answer_snapshots = True
        await until(lambda: c.in_sync)  # the host asks again and gets it
        assert states_seen(events)[-1][9:12] == (WHITE1, WHITE1, WHITE1)

    asyncio.run(session(tmp_path, script))


def test_a_silent_board_is_declared_lost(tmp_path: Path) -> None:
    async def script(board: FakeBoard, c: Connection, events: list[LinkEvent]) -> None:
        board.boot()
        await until(lambda: any(isinstance(e, Lost) for e in events))

    events = asyncio.run(session(tmp_path, script, SILENT))
    assert events[-1] == Lost("the board stopped answering: check its USB cable")


def test_a_board_already_running_is_reset_to_say_hello(tmp_path: Path) -> None:
    async def script(board: FakeBoard, c: Connection, events: list[LinkEvent]) -> None:
        board.heartbeat()  # the host came up while the board was running: no HELLO
        await until(lambda: c.in_sync)

    events = asyncio.run(session(tmp_path, script))
    assert isinstance(events[0], Connected)


def test_a_wrong_protocol_version_is_one_sentence(tmp_path: Path) -> None:
    async def script(board: FakeBoard, c: Connection, events: list[LinkEvent]) -> None:
        board.boot()
        await until(lambda: bool(events))

    events = asyncio.run(session(tmp_path, script, protocol=2))
    assert events == [
        Lost("the board's firmware speaks protocol 2, this host speaks 1: update the firmware with 'bgboard firmware deploy'")
    ]


def test_commands_without_an_ack_are_sent_again(tmp_path: Path) -> None:
    async def script(board: FakeBoard, c: Connection, events: list[LinkEvent]) -> None:
        board.boot()
        await until(lambda: c.in_sync)
        board.ack = False
        c.send(SetRolling(True))
        await until(lambda: sum(isinstance(m, SetRolling) for m in board.received) == 3)
        await until(lambda: any(isinstance(e, Trouble) for e in events))
        board.heartbeat()

    events = asyncio.run(session(tmp_path, script))
    assert Trouble("the board did not confirm a command: check its USB cable") in events


def test_a_firmware_reboot_mid_game_is_a_new_handshake(tmp_path: Path) -> None:
    async def script(board: FakeBoard, c: Connection, events: list[LinkEvent]) -> None:
        board.boot()
        await until(lambda: c.in_sync)
        board.states[20] = WHITE1
        board.boot()  # watchdog reset on the Pico: HELLO again, sequence from 0
        await until(lambda: any(isinstance(e, Connected) and e.rebooted for e in events))
        await until(lambda: c.in_sync and states_seen(events)[-1][20] == WHITE1)

    asyncio.run(session(tmp_path, script))


@pytest.mark.slow
def test_unplug_and_replug_reconnects_with_backoff(tmp_path: Path) -> None:
    async def main() -> list[LinkEvent]:
        board = FakeBoard(tmp_path / "bgboard")
        events: list[LinkEvent] = []
        attempts = [0]

        def opener():  # type: ignore[no-untyped-def]
            attempts[0] += 1
            return open_serial(str(board.path))

        link = Link(opener, events.append, backoff=Backoff(0.05, 0.2, jitter=0), timing=FAST)
        task = asyncio.create_task(link.run())
        await until(lambda: bool(events))  # no board yet
        assert isinstance(events[0], Lost) and "cannot be opened" in events[0].text
        board.plug()
        board.boot()
        await until(lambda: link.connection is not None and link.connection.in_sync)
        assert link.send(SetRolling(True))
        board.unplug()
        await until(lambda: isinstance(events[-1], Lost))
        assert not link.send(SetRolling(False))
        tried = attempts[0]
        await until(lambda: attempts[0] >= tried + 3)  # a few failed attempts: reported once (below)
        board.plug()
        board.boot()
        await until(lambda: link.connection is not None and link.connection.in_sync)
        link.stop()
        await asyncio.wait_for(task, 30)
        board.unplug()
        assert link.sessions == 2
        return events

    events = asyncio.run(main())
    kinds = [type(e).__name__ for e in events if not isinstance(e, BoardSeen)]
    assert kinds == ["Lost", "Connected", "Lost", "Connected"]


def test_a_port_that_does_not_exist_is_one_sentence(tmp_path: Path) -> None:
    async def main() -> None:
        try:
            await open_serial(str(tmp_path / "nothing"))
        except PortUnavailableError as exc:
            assert str(exc).startswith(f"the board port {tmp_path / 'nothing'} cannot be opened")
        else:
            raise AssertionError("opened a port that does not exist")

    asyncio.run(main())
