"""Plakoto pins through the simulator's hall field and the firmware's own classifier and run
rule (firmware/classify.py, firmware/runs.py, run here under CPython), recognised by the host
from the history of plays (bgboard.sense.tavli); the other variants' starts on the table."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from bgboard.hardware import Grid, load_grid, parse_grid
from bgboard.rules.games import GAMES, SEED_GAMES
from bgboard.sense.places import SensorFaultError
from bgboard.sense.slots import SlotMap
from bgboard.sense.recognise import Ambiguous, Illegal, Played, Unchanged
from bgboard.sense.tavli import VariantTurn, physical, read_board, setup_text
from bgboard.sim.field import NOISE_LEVELS, readings
from bgboard.sim.layout import Layout

from tests.rules.variant_boards import board_of, random_game

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"
sys.path.insert(0, str(FIRMWARE))
sys.path.insert(0, str(FIRMWARE.parent / "hardware"))
import calibration as fw_calibration  # noqa: E402  the firmware's modules, as on the Pico
import classify as fw_classify  # noqa: E402
from runs import Runs  # noqa: E402
import make_grid  # noqa: E402  (hardware/make_grid.py: the grids it writes)

GRID = load_grid()
SLOT_MAP = SlotMap.from_slots(GRID.slots)
_PLACES = list(dict.fromkeys(s.place for s in GRID.slots))


def sensed(layout: Layout, noise: str = "low", seed: int = 1, grid: Grid = GRID) -> bytes:
    """The slot states the firmware's classifier and run rule give for the table at rest."""
    raw = readings(grid, layout, random.Random(seed), noise=NOISE_LEVELS[noise])
    classifier = fw_classify.Classifier(fw_calibration.defaults(len(raw)), len(raw))
    runs = Runs(grid.per_slot, bytes(_PLACES.index(s.place) for s in grid.slots), bytes(s.index for s in grid.slots))
    return bytes(runs.combine(classifier.classify_all(list(raw))))


def table_after(game, board, steps_text, dice, on_roll=0) -> Layout:
    result = game.play_steps(board, _pairs(steps_text), dice)
    return Layout.from_physical(physical(game.name, result, on_roll))


def _pairs(text):
    from bgboard.rules.notation import parse_moves

    return [(a, b) for points, _ in parse_moves(text) for a, b in zip(points, points[1:])]


PIN_UNDER_TWO = {"mine": {"8": 1, "6": 1}, "theirs": {"20": 1}}  # black's 20 = physical 5
ONE_ON_ONE = {"mine": {"8": 1, "3": 1}, "theirs": {"20": 1}}


@pytest.mark.parametrize("noise", ["none", "low", "medium"])
def test_a_pin_under_two_reads_one_of_the_top_colour_from_the_base(noise):
    """Two sensors per slot (the committed grid): the pin's spot reads dark (the two magnets
    leave 0.46 of a checker) and the firmware reports the point's runs from its base, so the
    second pinner is reported on slot 0.  (With one sensor per slot it lay on slot 1 after a
    dark base: the last test of this module.)"""
    game = GAMES["plakoto"]
    board = game.validate(board_of(PIN_UNDER_TWO))
    layout = table_after(game, board, "8/5 6/5", (3, 1))
    assert layout.pins == frozenset({5}) and layout.points[4] == 2
    states = sensed(layout, noise)
    five = [states[s] & 3 for s in range(len(GRID.slots)) if GRID.slots[s].place == "5"]
    assert five == [1, 0, 0, 0, 0]  # N - 1 of the top colour, from the base
    assert SLOT_MAP.observation(states).codes[4] == 1  # without the history: one white
    verdict = VariantTurn(game, board, 0, (3, 1), slot_map=SLOT_MAP).recognise(read_board(SLOT_MAP, states))
    assert isinstance(verdict, Played) and verdict.play.notation == "8/5* 6/5"


def test_a_one_on_one_pin_reads_empty_and_the_history_explains_it():
    game = GAMES["plakoto"]
    board = game.validate(board_of(ONE_ON_ONE))
    layout = table_after(game, board, "8/5 3/2", (3, 1))
    states = sensed(layout)
    assert all(states[s] & 3 == 0 for s in range(len(GRID.slots)) if GRID.slots[s].place == "5")
    verdict = VariantTurn(game, board, 0, (3, 1), slot_map=SLOT_MAP).recognise(read_board(SLOT_MAP, states))
    assert isinstance(verdict, Played) and verdict.play.notation == "8/5* 3/2"


def test_forbidden_plays_are_never_accepted():
    game = GAMES["plakoto"]
    board = game.validate(board_of(ONE_ON_ONE))
    turn = VariantTurn(game, board, 0, (3, 1), slot_map=SLOT_MAP)
    before = Layout.from_physical(physical("plakoto", board, 0))
    assert isinstance(turn.recognise(read_board(SLOT_MAP, sensed(before))), Unchanged)
    # hitting as in backgammon (black's checker to the bar) is not Plakoto
    points = list(before.points)
    points[7], points[4], points[2], points[1] = 0, 1, 0, 1  # 8/5 "hitting", 3/2
    hit = Layout(tuple(points), (0, 1), before.off)
    assert isinstance(turn.recognise(read_board(SLOT_MAP, sensed(hit))), Illegal)
    # the pinned checker may not move: black's checker under white's cannot leave
    pinned = game.validate(board_of({"mine": {"8": 1, "5": 1}, "theirs": {"20": 1}, "pinned": [[], [20]]}))
    turn = VariantTurn(game, pinned, 0, (2, 1), slot_map=SLOT_MAP)
    legal = {p.position for p in turn.plays}
    for play in turn.plays:
        layout = Layout.from_physical(physical("plakoto", play.position, 0))
        verdict = turn.recognise(read_board(SLOT_MAP, sensed(layout)))
        assert isinstance(verdict, (Played, Ambiguous))
        chosen = (verdict.play,) if isinstance(verdict, Played) else verdict.plays
        assert all(p.position in legal for p in chosen)


def test_each_start_on_the_table():
    assert physical("plakoto", GAMES["plakoto"].start(), 0).counts[23] == 15
    assert physical("plakoto", GAMES["plakoto"].start(), 0).counts[0] == -15
    fevga = physical("fevga", GAMES["fevga"].start(), 1)
    assert fevga.counts[23] == 15 and fevga.counts[11] == -15
    race = physical("race", GAMES["race"].start(), 0)
    assert race.counts[26] == 15 and race.counts[27] == -15 and not any(race.counts[:26])
    states = sensed(Layout.from_physical(physical("fevga", GAMES["fevga"].start(), 0)))
    turn = VariantTurn(GAMES["fevga"], GAMES["fevga"].start(), 0, (6, 5), slot_map=SLOT_MAP)
    assert isinstance(turn.recognise(read_board(SLOT_MAP, states)), Unchanged)
    assert "black on 12" in " ".join(setup_text("fevga")) and "tray" in " ".join(setup_text("race"))


@pytest.mark.parametrize("name", ["plakoto", "fevga", "anti", "race"])
def test_the_roll_context_keeps_the_rules_plays_and_boards(name):
    """A roll's recognition context generates each (board, die) step once (a table kept for
    the roll) and places black's checkers from a point table: it must hold exactly the
    rules' own plays, and every board it places must put each checker where black_point
    says (the pinned points, the counts)."""
    from bgboard.sense.tavli import black_point

    game = GAMES[name]
    rolls = 0
    for seed in range(2):
        for board, dice, plays, _ in random_game(game, random.Random(seed)):
            colour = rolls % 2
            turn = VariantTurn(game, board, colour, dice)
            assert turn.plays == plays
            boards = [board, *(p.position for p in plays), *turn.partials()]
            for b in boards[:: max(1, len(boards) // 8)]:
                white = b if colour == 0 else b.swap()
                place = physical(name, b, colour)
                for p in range(1, 25):
                    q = black_point(name, p)
                    w, k = white.mine[p], white.theirs[q]
                    assert (p in place.pinned) == bool(w and k)
                    if not (w and k):
                        assert place.counts[p - 1] == w - k
            rolls += 1
    assert rolls > 50


GRID1 = parse_grid(make_grid.grid_text(1))
SLOT_MAP1 = SlotMap.from_slots(GRID1.slots)


def test_one_sensor_per_slot_still_reads_a_pin_after_its_dark_base() -> None:
    """A grid with one sensor per slot (make_grid.py --per-slot 1) reports slots as its
    sensors read them: the pin's base dark, the further pinners on slots 1, 2 ...; the host
    skips the dark base of a point the history says is pinned (and without the history
    calls it a gap: a faulty sensor)."""
    game = GAMES["plakoto"]
    board = game.validate(board_of(PIN_UNDER_TWO))
    layout = table_after(game, board, "8/5 6/5", (3, 1))
    states = sensed(layout, "low", grid=GRID1)
    five = [states[s] & 3 for s in range(len(GRID1.slots)) if GRID1.slots[s].place == "5"]
    assert five == [0, 1, 0, 0, 0]
    with pytest.raises(SensorFaultError, match="point 5"):
        SLOT_MAP1.observation(states)
    verdict = VariantTurn(game, board, 0, (3, 1), slots=SLOT_MAP1.slots(), slot_map=SLOT_MAP1).recognise(
        read_board(SLOT_MAP1, states))
    assert isinstance(verdict, Played) and verdict.play.notation == "8/5* 6/5"


def test_the_players_take_a_pin_read_with_its_pinner_on_the_pins_spot() -> None:
    """A point pinned under one black pinner: the pin's spot may read the pinner (code -1 where
    the expected codes have 0, the pinner's slot unread); the host's recognition takes that
    reading (the states read with the pin), so the simulated players do too — waiting for the
    exact codes instead waited out a 1 s nudge after another (most of a Plakoto match's time)."""
    from bgboard.hardware import load_grid
    from bgboard.sense.places import Slots
    from bgboard.sense.slots import SlotMap
    from bgboard.sense.tavli import Physical, read_board
    from bgboard.sim.firmware_board import reads_as

    grid = load_grid()
    slot_map = SlotMap.from_slots(grid.slots)
    slots = Slots(point=grid.count("point"), bar=grid.count("bar"), tray=grid.count("off"))
    counts = [0] * 28
    counts[12] = -1  # point 13: one black pinner on a white checker
    table = Physical(tuple(counts), frozenset({13}))
    states = [0] * slot_map.count
    base = slot_map.places[12][0]
    states[base] = 1 << 2 | 2  # the pin's spot reads one black checker
    seen = read_board(slot_map, bytes(states))
    assert seen.codes[12] == -1 and table.expected(slots).codes[12] == 0
    assert reads_as(table, seen, slot_map, slots)
    assert reads_as(table, read_board(slot_map, bytes(slot_map.count)), slot_map, slots)  # the spot dark
    states[base] = 1 << 2 | 1  # the pinned white checker read there: still the pin
    assert reads_as(table, read_board(slot_map, bytes(states)), slot_map, slots)
    states[slot_map.places[13][0]] = 1 << 2 | 1  # a white checker on point 14 too: not this table
    assert not reads_as(table, read_board(slot_map, bytes(states)), slot_map, slots)
    assert not reads_as(table, None, slot_map, slots)
