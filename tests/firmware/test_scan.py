"""scan -> classify -> debounce -> frames, under the real MicroPython unix port."""

from __future__ import annotations

import tomllib

import pytest

from bgboard.link import messages as m
from bgboard.link.frames import SequenceWatch

from fwrun import ROOT, SWING, TOP_LEVEL, as_reported, counts, host

GRID = tomllib.loads((ROOT / "hardware" / "grid.toml").read_text())["slot"]
N = len(GRID)


def reported_slot(slot: int, state: int) -> int:
    """Where the firmware reports one checker (``state``) set on ``slot`` alone: the slot
    itself with one sensor per slot; its place's base slot with two (rows from the base)."""
    states = as_reported([state if i == slot else 0 for i in range(N)])
    return next(i for i, st in enumerate(states) if st)


def test_boot_sends_hello_then_an_empty_snapshot(run_firmware) -> None:
    run = run_firmware(["@50", "stop"])
    assert run.returncode == 0, run.stderr
    assert run.problems == []
    hello, snapshot = run.messages[:2]
    assert hello == m.Hello(1, N, m.CALIBRATION_DEFAULTS, "bgboard-fw 0.1.0")
    assert snapshot == m.Snapshot(m.SNAPSHOT_BOOT, (0,) * N)
    assert [f.seq for f in run.frames] == list(range(len(run.frames)))


def crowd_of(states: tuple[int, ...]) -> list[int]:
    """The field (counts) the checkers of the slot ``states`` give each slot's centre sensor,
    as the firmware's crowd table has it (firmware/crowd.py): what a real board's sensor reads
    besides its own checker, and what the firmware takes away again."""
    import sys

    from bgboard.hardware import firmware_dir, load_grid
    from fwrun import PER_SLOT, _BOARD

    from tests.support import crowd_table

    if str(firmware_dir()) not in sys.path:
        sys.path.insert(0, str(firmware_dir()))
    from crowd import Crowd

    class Tally:
        crowd = [0] * (N * PER_SLOT)

        def add_crowd(self, s: int, field: int) -> None:
            self.crowd[s] += field

    tally = Tally()
    Crowd(tally, N, crowd_table(load_grid())).update(bytes(states))
    return [round(SWING * tally.crowd[slot * PER_SLOT] / _BOARD["CROWD_SCALE"]) for slot in range(N)]


def test_every_slot_is_read_through_its_own_mux_channel(run_firmware) -> None:
    """A distinct state on every slot: the scan order and the grid numbering agree.  (Each
    reading carries the field of the checkers around it, as on a board: the array's reaches a
    quarter of a checker, which the firmware takes away.)"""
    kinds = [("white", 1), ("black", 1), ("white", 3), ("black", 2), ("white", 0)]
    wanted = [kinds[(i * 7 + i // 5) % len(kinds)] for i in range(N)]
    lying = tuple(0 if k == 0 else m.slot_state(m.WHITE if c == "white" else m.BLACK, k) for c, k in wanted)
    expected = as_reported(lying)
    around = crowd_of(lying)  # where the checkers lie
    values = " ".join(str(counts(c, k) + field) for (c, k), field in zip(wanted, around))
    run = run_firmware([f"slots {values}", "@50", "stop"])
    snapshot = run.of(m.Snapshot)[0]
    assert snapshot.states == expected



def test_a_checker_set_down_is_reported_after_four_identical_scans(run_firmware) -> None:
    run = run_firmware(["@100", f"slot 12 {counts('white')}", "@400", "stop"])
    changes = run.of(m.Changes)
    white = m.slot_state(m.WHITE, 1)
    assert changes == [m.Changes((m.SlotChange(reported_slot(12, white), white),))]
    watch = SequenceWatch()
    assert all(watch.observe(f.seq) is None for f in run.frames)


def test_a_blip_shorter_than_the_debounce_is_not_reported(run_firmware) -> None:
    run = run_firmware(["@100", f"slot 3 {counts('black')}", "@125", f"slot 3 {counts('white', 0)}",
                        "@600", "stop"])
    assert run.of(m.Changes) == []


def test_hysteresis_keeps_a_reading_on_the_threshold_steady(run_firmware) -> None:
    """0.55 units is above the leave-threshold and below the enter-threshold: no change
    either way, whatever the previous state."""
    edge = round(32768 + 0.55 * SWING)
    run = run_firmware([
        "@100", f"slot 0 {edge}",                      # empty stays empty
        "@300", f"slot 1 {counts('white')}", "@500", f"slot 1 {edge}",  # white stays white
        "@900", "stop",
    ])
    white = m.slot_state(m.WHITE, 1)
    assert run.of(m.Changes) == [m.Changes((m.SlotChange(reported_slot(1, white), white),))]


def test_stacks_beyond_the_slots_report_a_level_on_the_last_slot(run_firmware) -> None:
    last = next(i for i, s in enumerate(GRID) if s["place"] == "6" and s["index"] == 4)
    first = last - 4
    lines = [f"slot {first + i} {counts('black')}" for i in range(4)]
    lines += [f"slot {last} {counts('black', k)}" for k in [1]]
    lines += ["@100", f"slot {last} {counts('black', 2)}", "@200", f"slot {last} {counts('black', 3)}",
              "@300", f"slot {last} {counts('black', 7)}", "@400", "stop"]
    run = run_firmware(lines)
    assert run.stderr == ""
    snap = run.of(m.Snapshot)[0]
    assert snap.states[first:last + 1] == (6, 6, 6, 6, 6)
    settled = [c.state for ch in run.of(m.Changes) for c in ch.changes if c.slot == last]
    # 3 stacked read level 3; 7 stacked too: the physics cannot tell 4 or more from 3 (each
    # further magnet adds less), so level 3 is the top the firmware reaches ("3 or more")
    assert settled == [m.slot_state(m.BLACK, 2), m.slot_state(m.BLACK, 3)]


def test_one_scan_with_many_changes_fills_several_frames(run_firmware) -> None:
    values = " ".join(str(counts("white")) for _ in range(N))
    run = run_firmware(["@100", f"slots {values}", "@300", "stop"])
    changes = run.of(m.Changes)
    assert sum(len(c.changes) for c in changes) == N
    assert all(len(c.changes) <= m.MAX_CHANGES for c in changes)


def test_heartbeat_every_second(run_firmware) -> None:
    run = run_firmware(["@3500", "stop"])
    beats = run.of(m.Heartbeat)
    assert len(beats) == 3
    assert [b.uptime_ms // 1000 for b in beats] == [1, 2, 3]
    assert beats[-1].scans > beats[0].scans > 90
    assert not beats[0].rolling


def test_a_stuck_sensor_reads_fault(run_firmware) -> None:
    run = run_firmware(["slot 20 0", "@100", "slot 21 65535", "@300", "stop"])
    assert run.of(m.Snapshot)[0].states[20] == m.FAULT
    assert run.of(m.Changes) == [m.Changes((m.SlotChange(21, m.FAULT),))]


def test_a_flickering_sensor_reads_fault_and_recovers(run_firmware) -> None:
    lines = []
    for t in range(100, 1100, 20):  # white / empty every 20 ms: 2 scans each, never debounced
        lines += [f"@{t}", f"slot 40 {counts('white')}", f"@{t + 10}", f"slot 40 {counts('white', 0)}"]
    lines += ["@2500", "stop"]
    run = run_firmware(lines)
    settled = [c.state for ch in run.of(m.Changes) for c in ch.changes if c.slot == 40]
    assert settled == [m.FAULT, m.EMPTY]


def test_the_firmware_fits_a_small_heap(run_firmware) -> None:
    """152 KB of 64-bit unix-port heap: objects are about twice their size on the RP2040,
    whose MicroPython heap is about 190 KB, and the machine shim (hal's 16 KB here) is built
    into the Pico's MicroPython.  Boot, changes, a snapshot request, heartbeats, a calibration
    and a roll all run in it.  (128 KB until the crowd table, 4.4 KB of bytes that weigh the
    same on the Pico, and 276 sensors' crowd fields: board.py, firmware/crowd.py; 136 KB until
    the scan stopped allocating: its work arrays, made once, and their code take 8 KB here and
    spare the Pico a garbage collection inside the scan, test_scan_allocation.py; 144 KB until
    the scan averaged four conversions a sensor: it then ran in 144 KB only when the test's
    temporary paths were short, and needs 148 KB under pytest-xdist's longer ones, so 152 KB
    leaves the same few kilobytes to spare as before.)"""
    run = run_firmware([
        "@100", f"slot 3 {counts('white')}", "@300", host(m.RequestSnapshot(), 0),
        host(m.Calibrate(m.CALIBRATE_DEFAULTS), 1), host(m.SetRolling(True), 2),
        "@400", "button down", "@500", "button up", "@2500", "stop",
    ], heap="152k")
    assert run.returncode == 0, run.stderr
    assert len(run.of(m.Snapshot)) == 3 and len(run.of(m.Roll)) == 1 and len(run.of(m.Heartbeat)) == 2


from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

KINDS = [("white", 0), ("white", 1), ("black", 1), ("white", 2), ("black", 4), ("white", 7)]


def ideal_state(colour: str, k: int) -> int:
    if k == 0:
        return 0
    return m.slot_state(m.WHITE if colour == "white" else m.BLACK, min(k, TOP_LEVEL))


@pytest.mark.slow
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, N - 1), st.sampled_from(KINDS), st.integers(50, 200)),
                min_size=1, max_size=25))
def test_reported_states_follow_every_held_reading(run_firmware, steps) -> None:
    """Any sequence of readings, each held at least 50 ms: the CHANGES applied to the boot
    SNAPSHOT give exactly the classification of the final readings, and a SNAPSHOT
    requested at the end says the same.  (Each slot's reading carries the field of the
    checkers around it, :func:`crowd_of`, as on a board.)"""
    lines, t, final = [], 20, [0] * N
    kinds: list[tuple[str, int]] = [("white", 0)] * N
    for slot, (colour, k), hold in steps:
        kinds[slot] = (colour, k)
        lying = tuple(ideal_state(c, n) for c, n in kinds)
        values = " ".join(str(counts(c, n) + field) for (c, n), field in zip(kinds, crowd_of(lying)))
        lines += [f"@{t}", f"slots {values}"]
        final[slot] = ideal_state(colour, k)
        t += hold
    final = list(as_reported(final))
    lines += [f"@{t}", host(m.RequestSnapshot(), 0), f"@{t + 20}", "stop"]
    run = run_firmware(lines)
    snapshots = run.of(m.Snapshot)
    states = list(snapshots[0].states)
    for frame in run.of(m.Changes):
        for change in frame.changes:
            assert change.state != states[change.slot]  # a change is a change
            states[change.slot] = change.state
    assert states == final
    assert list(snapshots[-1].states) == final
