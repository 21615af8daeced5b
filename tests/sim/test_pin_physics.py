"""Plakoto pins on the physics field (issue 22): every magnet's field at every sensor of the
committed grid (two sensors per slot; magpylib's table through bgboard.sim.placement), the
firmware's own classifier, run rule and crowd correction (firmware/classify.py, runs.py,
crowd.py, under CPython), the host's reading of a pinned point (bgboard.sense.tavli) — for pins set
anywhere along their point, the pinner anywhere on its victim, 1 to 5 pinners, neighbours
crowded.

What a pin's spot reads depends on where the player set it: dark (the two magnets leave
0.48 of a checker centred), the pinned colour (the pinner set off its victim's centre away
from the sensor), the pinners' colour (set off towards it; the disc before the array showed
one of each side by side too). The host must read the pin right in every case, never by luck."""

from __future__ import annotations

import random
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from bgboard.hardware import Grid, firmware_dir, load_grid
from bgboard.hardware.physics import Magnet, load_design, load_table
from bgboard.rules.games import GAMES
from bgboard.sense.slots import PLACE_NUMBERS, SlotMap
from bgboard.sense.recognise import Played
from bgboard.sense.tavli import Physical, VariantTurn, observe, physical, read_board
from bgboard.sim.layout import Layout
from bgboard.sim.placement import Scatter, fields_mt, place_magnets, rows

from tests.rules.variant_boards import board_of

from tests.support import firmware_slot_states  # the firmware's classifier, run rule and crowd correction
from tests.board_field import at, crowd

DESIGN = load_design()
TABLE = load_table(DESIGN)
GRID = load_grid()
SLOT_MAP = SlotMap.from_slots(GRID.slots)
ROWS = rows(DESIGN)
PITCH = DESIGN.slot_pitch_mm
D = DESIGN.checker_diameter_mm
PLACE_LENGTH = DESIGN.base_mm + 4 * PITCH + PITCH / 2  # a point's length from its frame (5 slots)
WHITE, BLACK = 1, 2  # slot colours (docs/protocol.md)


def test_the_committed_grid_has_two_sensors_per_slot() -> None:
    assert GRID.per_slot == 2 and len(GRID.sensors()) == 276


def states_of(grid: Grid, magnets: list[Magnet]) -> bytes:
    """The slot states the firmware reports for ``magnets`` on the table (no noise: the
    field as computed; default calibration)."""
    fields = fields_mt(DESIGN, grid, TABLE, magnets)
    return firmware_slot_states(grid, [int(round(32768 + fields[s] * DESIGN.counts_per_mt)) for s in grid.sensors()])


def pin(place: str, n: int, sign: int, start: float, offset: tuple[float, float], rng: random.Random) -> list[Magnet]:
    """A pin under ``n`` pinners of colour ``sign`` (+1 white): the pinned checker from
    ``start`` (0..1 of the room the pinners leave after it) along ``place``, the first
    pinner on it ``offset`` (along, across) mm off its centre, the others in a row after it
    (each touching the one before or a little apart), up to 3 mm across the row's line."""
    room = PLACE_LENGTH - D / 2 - (n - 1) * (D + 1.5)
    along = D / 2 + start * max(0.0, room - D / 2)
    row = ROWS[place]
    x, y = at(row, along, rng.uniform(-3.0, 3.0))
    px, py = x + row.dx * offset[0] + row.dy * offset[1], y + row.dy * offset[0] + row.dx * offset[1]
    magnets = [Magnet(x, y, 0, -sign), Magnet(px, py, 1, sign)]
    for _ in range(n - 1):
        along += D + abs(rng.gauss(0.0, 1.5))
        x, y = at(row, along, rng.uniform(-3.0, 3.0))
        magnets.append(Magnet(x, y, 0, sign))
    return magnets


def point_row(states: bytes, place: str) -> list[int]:
    """The colours of ``place``'s slots from its base."""
    return [states[w] & 3 for w in SLOT_MAP.places[PLACE_NUMBERS[place] - 1]]


def pinned_board(place: str, n: int, sign: int) -> Physical:
    counts = [0] * 28
    counts[int(place) - 1] = sign * n
    return Physical(tuple(counts), frozenset({int(place)}))


@settings(max_examples=400, deadline=None)
@given(place=st.sampled_from(["3", "16"]), n=st.integers(1, 5), sign=st.sampled_from([1, -1]),
       start=st.floats(0.0, 1.0), along=st.floats(-15.0, 15.0), across=st.floats(-15.0, 15.0),
       crowded=st.booleans(), seed=st.integers(0, 2**32 - 1))
def test_a_pin_anywhere_reads_as_its_pinners(place: str, n: int, sign: int, start: float, along: float,
                                             across: float, crowded: bool, seed: int) -> None:
    """A pin under 1..5 pinners, its pinned checker anywhere along the point, the pinner up to
    15 mm off its victim in any direction (it sits there: hardware/README.md, "Plakoto pins"),
    with or without both neighbouring points full: the firmware reports at most one checker
    of the pinned colour and N - 1 or N of the pinners' colour, and the host, knowing the
    pin from the history of plays, reads the point as this pin — never as another count."""
    rng = random.Random(seed)
    magnets = pin(place, n, sign, start, (along, across), rng) + (crowd(place, rng) if crowded else [])
    states = states_of(GRID, magnets)
    row = point_row(states, place)
    pinners, pinned = (WHITE, BLACK) if sign > 0 else (BLACK, WHITE)
    assert row.count(pinned) <= 1 and row.count(pinners) in (n - 1, n), row
    board = pinned_board(place, n, sign)
    seen = observe(SLOT_MAP, states, board.pins)
    code = seen.codes[int(place) - 1]
    assert code in (sign * (n - 1), sign * n)
    assert board.settled(seen).codes[int(place) - 1] == board.expected().codes[int(place) - 1]
    # two pinners fewer or more are another board (one more or fewer may read alike: a
    # reading of M pinners fits M or M + 1, and the rest of the board tells them apart)
    if n >= 3:
        assert not pinned_board(place, n - 2, sign).fits(seen)
    if n <= 3:  # (beyond, the row is full: a taller stack may read only "full")
        assert not pinned_board(place, n + 2, sign).fits(seen)


def test_where_a_pin_is_set_decides_what_its_spot_reads_and_the_host_reads_each_right() -> None:
    """The same 1-on-1 pin, its pinner set 0..15 mm off its victim either way along the
    point, its victim at the base, half a pitch or a pitch further: the spot reads dark or the
    pinned colour (so the reading cannot count on one of them; the pinners' colour shows now
    and then beside a point full of the pinned colour: the property above; the 28 mm disc
    before the array also showed one of each side by side) — and the host reads each as the pin."""
    kinds: set[tuple[int, ...]] = set()
    board = pinned_board("16", 1, 1)
    row = ROWS["16"]
    for base in (DESIGN.base_mm, DESIGN.base_mm + PITCH / 2, DESIGN.base_mm + PITCH):
        for offset in range(-15, 16):
            x, y = at(row, base)
            states = states_of(GRID, [Magnet(x, y, 0, -1), Magnet(x + row.dx * offset, y + row.dy * offset, 1, 1)])
            seen = tuple(c for c in point_row(states, "16") if c)
            kinds.add(seen)
            assert board.fits(observe(SLOT_MAP, states, board.pins)), (base, offset, seen)
    assert kinds == {(), (BLACK,)}


PIN_UNDER_TWO = {"mine": {"8": 1, "6": 1, "13": 2}, "theirs": {"20": 1, "11": 2}}  # black's 20 = physical 5
ONE_ON_ONE = {"mine": {"8": 1, "3": 1, "13": 2}, "theirs": {"20": 1, "11": 2}}


@settings(max_examples=60, deadline=None)
@given(case=st.sampled_from([(PIN_UNDER_TWO, "8/5 6/5", "8/5* 6/5"), (ONE_ON_ONE, "8/5 3/2", "8/5* 3/2")]),
       seed=st.integers(0, 2**32 - 1))
def test_a_pinning_play_put_down_as_players_do_is_recognised(case: tuple[dict, str, str], seed: int) -> None:
    """The play that pins, its checkers put down as players do (bgboard.sim.placement: the
    pinned checker anywhere along its point, the pinner off its centre, every checker
    scattered, the sensors' noise and gain spread), read through the firmware and recognised
    by the host from the history of plays: exactly that play."""
    from bgboard.rules.notation import parse_moves
    from bgboard.sim.placement import readings

    spec, moves, notation = case
    game = GAMES["plakoto"]
    board = game.validate(board_of(spec))
    steps = [(a, b) for points, _ in parse_moves(moves) for a, b in zip(points, points[1:])]
    layout = Layout.from_physical(physical("plakoto", game.play_steps(board, steps, (3, 1)), 0))
    assert layout.pins == frozenset({5})
    raw = readings(DESIGN, GRID, TABLE, layout, random.Random(seed), Scatter(lone=1.0, pin=5.0), gain_spread=0.02)
    states = firmware_slot_states(GRID, raw)
    verdict = VariantTurn(game, board, 0, (3, 1), slot_map=SLOT_MAP).recognise(read_board(SLOT_MAP, states))
    assert isinstance(verdict, Played) and verdict.play.notation == notation, (verdict, point_row(states, "5"))


def test_placement_puts_a_pin_as_the_pinned_checker_under_its_first_pinner() -> None:
    layout = Layout(tuple(2 if p == 5 else 0 for p in range(1, 25)), pins=frozenset({5}))
    magnets = place_magnets(DESIGN, GRID, layout, random.Random(1), Scatter(base=0.0, gap=0.0, across=0.0, pin=0.0))
    assert sorted((m.level, m.sign) for m in magnets) == [(0, -1), (0, 1), (1, 1)]
    low = [m for m in magnets if m.sign < 0][0]
    top = [m for m in magnets if m.level == 1][0]
    assert (low.x, low.y) == (top.x, top.y)  # no scatter: the pinner right on its victim


def test_a_pins_spot_flickering_at_the_threshold_never_hides_its_pinners() -> None:
    """A pin under two (the simulator's field model: the spot's two magnets leave 0.48 of a
    checker, inside the classifier's 0.42..0.58 hysteresis band) with the simulator's low
    noise (180 counts, 1.5 times the sensor's own allowance: 0.065 of the array's checker, as
    medium noise was of the disc's before it; medium noise, 0.16 of a checker, lights a
    sensor somewhere on the board now and then in 800,000 readings unfiltered): the spot
    flickers, and the firmware's run rule leaves a flickering sensor beside a steadily lit
    one dark instead of reporting the place as a FAULT, so every scan reads the pin."""
    from bgboard.sim.field import NOISE_LEVELS, readings

    sys.path.insert(0, str(firmware_dir()))
    import calibration as fw_calibration  # the firmware's own modules, scan after scan
    import classify as fw_classify
    from crowd import Crowd
    from runs import Runs

    layout = Layout(tuple(2 if p == 5 else 0 for p in range(1, 25)), pins=frozenset({5}))
    rng = random.Random(1)
    count = len(GRID.sensors())
    classifier = fw_classify.Classifier(fw_calibration.defaults(count), count)
    runs = Runs(*GRID.firmware_layout())
    spot = 2 * SLOT_MAP.places[4][0]  # the sensor under the base slot's centre
    board = pinned_board("5", 2, 1)
    crowd = Crowd(classifier, len(GRID.slots))
    flickered = 0
    for _ in range(3000):
        raw = readings(GRID, layout, rng, noise=NOISE_LEVELS["low"])
        states = bytes(runs.combine(classifier.classify_all(list(raw)), None, classifier.flicker))
        crowd.update(states)  # as the firmware's scan does
        flickered += classifier.flicker[spot]
        assert FAULT_COLOUR not in point_row(states, "5")
        assert board.fits(observe(SLOT_MAP, states, board.pins))
    assert flickered > 100  # the classifier did call the spot flickering (seeded: the same every run)


FAULT_COLOUR = 3
