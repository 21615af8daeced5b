"""A seed variant's match at the board: the real controller, match machine, rules and
journal, fed the slot states the firmware's own classifier gives for the simulator's hall
field (Plakoto's pins as opposite magnets on one slot)."""

from __future__ import annotations

from bgboard.control.controller import Controller, Settings
from bgboard.control.events import DOUBLE, ROLL, BoardRead, ButtonPressed, DiceRolled
from bgboard.control.judge import GREEN, RED
from bgboard.link.messages import SetLeds
from bgboard.match import Move
from bgboard.rules.games import GAMES, SEED_GAMES
from bgboard.sense.recognise import Illegal, Moving, Played
from bgboard.sense.tavli import physical, read_board
from bgboard.sim.layout import Layout
from bgboard.store.journal import MemoryJournal
from tests.sim.test_variant_field import SLOT_MAP, sensed

PLAKOTO = Settings(length=1, variant="plakoto", slots=SLOT_MAP.slots(), slot_map=SLOT_MAP)


def _read(layout: Layout, at: int) -> BoardRead:
    return BoardRead(read_board(SLOT_MAP, sensed(layout, "medium")), at)


def _moved(layout: Layout, *moves: tuple[str, str]) -> Layout:
    for src, dst in moves:
        layout, colour = layout.lift(src)
        layout = layout.put(dst, colour)
    return layout


START = Layout.from_physical(physical("plakoto", GAMES["plakoto"].start(), 0))


def _opened(journal: MemoryJournal) -> tuple[Controller, list, list]:
    sent: list = []
    shown: list = []
    c = Controller.resume(journal, PLAKOTO, 0, send=sent.append, show=shown.append)
    c.handle(_read(Layout(tuple([0] * 24)), 1))
    notice = c.message()
    assert notice is not None and notice.topic == "setup"
    assert "white: put 15 on your 24-point" in notice.text and "black: put 15 on your 24-point" in notice.text
    assert shown[-1].phase == "setup" and shown[-1].diagram is not None
    c.handle(_read(START, 2))
    assert c.message() is None or c.message().topic != "setup"
    c.handle(ButtonPressed(0, ROLL, 3))
    c.handle(DiceRolled((3, 1), 1, 4))  # white wins the opening roll with 3-1
    assert c.state.phase == "play" and c.state.turn == 0
    return c, sent, shown


def test_a_plakoto_roll_at_the_board_illegal_then_part_then_the_play() -> None:
    journal = MemoryJournal()
    c, sent, shown = _opened(journal)
    assert any("no engine knows Plakoto" in h for h in shown[-1].hint)  # no backgammon hint
    # 24/19: a 5, not a play of 3-1 — refused with what to put back, red LEDs
    c.handle(_read(_moved(START, ("24", "19")), 10))
    assert isinstance(c.verdict, Illegal) and "no legal play of 3-1 in Plakoto" in c.verdict.reason
    leds = [m for m in sent if isinstance(m, SetLeds)][-1]
    assert {led.index + 1 for led in leds.leds if led.rgb == RED} == {19}  # (24: a stack too tall to count)
    c.handle(ButtonPressed(0, ROLL, 11))
    assert len(c.actions) == 2 and "put back" in c.message().text and c.message().severity == "error"
    # half of the play: the other die's destinations light green
    c.handle(_read(_moved(START, ("24", "21")), 20))
    assert isinstance(c.verdict, Moving)
    leds = [m for m in sent if isinstance(m, SetLeds)][-1]
    assert {led.index + 1 for led in leds.leds if led.rgb == GREEN} == {20, 23}
    c.handle(_read(_moved(START, ("24", "21"), ("24", "23")), 30))
    assert isinstance(c.verdict, Played)
    c.handle(ButtonPressed(0, ROLL, 31))  # done
    assert c.actions[-1] == Move(((24, 21), (24, 23))) and c.state.turn == 1
    # no cube in Plakoto: the double button says so
    c.handle(ButtonPressed(1, DOUBLE, 40))
    assert len(c.actions) == 3 and "no doubling cube in Plakoto" in c.message().text
    # the journal stands exactly where the match is
    again = Controller.resume(journal, PLAKOTO, 50)
    assert again.state == c.state


def test_a_pin_is_read_by_the_controller_from_the_history_of_plays() -> None:
    journal = MemoryJournal()
    c, sent, shown = _opened(journal)
    table = _moved(START, ("24", "21"), ("24", "23"))
    c.handle(_read(table, 10))
    c.handle(ButtonPressed(0, ROLL, 11))
    # black (its start is physical 1) plays 3-2: 1/4 and 1/3 (own 24/21 24/22)
    c.handle(ButtonPressed(1, ROLL, 12))
    c.handle(DiceRolled((3, 2), 2, 13))
    table = _moved(table, ("1", "4"), ("1", "3"))
    c.handle(_read(table, 20))
    c.handle(ButtonPressed(1, ROLL, 21))
    assert c.state.turn == 0
    # white 21/19 23/22: single white checkers on physical 19 and 22
    c.handle(ButtonPressed(0, ROLL, 22))
    c.handle(DiceRolled((2, 1), 3, 23))
    table = _moved(table, ("21", "19"), ("23", "22"))
    c.handle(_read(table, 30))
    c.handle(ButtonPressed(0, ROLL, 31))
    assert c.state.turn == 1
    # black rolls 6-6 and pins one of them (the pinner set on the pinned checker's slot)
    c.handle(ButtonPressed(1, ROLL, 32))
    c.handle(DiceRolled((6, 6), 4, 33))
    before = c.state.board_view
    plays = GAMES["plakoto"].plays(before, (6, 6))
    pinning = [p for p in plays if p.position.pins[1]]
    assert pinning, "6-6 must be able to pin one of white's single checkers"
    chosen = pinning[0]
    from bgboard.sim.players import variant_moves

    moves = variant_moves(GAMES["plakoto"], before, chosen.steps, 1)
    for m in moves:
        table, colour = table.lift(m.src)
        table = table.put(m.dst, colour, pin=m.pin)
    assert table.pins  # the pinner's magnet on the pinned one's slot
    c.handle(_read(table, 40))
    assert isinstance(c.verdict, Played) and c.verdict.play == chosen
    shown.clear()
    c.handle(ButtonPressed(1, ROLL, 41))
    assert c.state.pins[0]
    where = ", ".join(str(p) for p in sorted(p for p in table.pins if table.points[p - 1] < 0))
    assert shown[-1].lesson[0].startswith(f"white pinned on {where}")  # the display's variant line


def test_bgboard_run_takes_the_seed_variants_and_tavli_from_its_config() -> None:
    import pytest

    from bgboard.modes.settings import settings_of
    from bgboard.config import ConfigError, config_from_dict

    tavli = settings_of(config_from_dict({"match": {"variant": "tavli", "length": 5}}), SLOT_MAP.slots(), SLOT_MAP)
    assert (tavli.rules, tavli.variant, tavli.slot_map) == ("tavli", None, SLOT_MAP)
    race = settings_of(config_from_dict({"match": {"variant": "race", "length": 3}}), SLOT_MAP.slots(), SLOT_MAP)
    assert (race.rules, race.variant) == ("standard", "race")
    with pytest.raises(ConfigError) as refused:
        config_from_dict({"match": {"variant": "tavli", "length": 3}})
    assert str(refused.value).startswith("match: ") and "5" in str(refused.value)
    with pytest.raises(ConfigError, match="match.variant must be one of .*plakoto.*tavli"):
        config_from_dict({"match": {"variant": "portes"}})


def test_a_drawn_plakoto_game_shows_no_winner_and_says_it_was_a_draw() -> None:
    from dataclasses import replace

    from bgboard.control.presenter import View, display_state
    from bgboard.control.seed_notes import variant_notes
    from bgboard.display.panels import panel_spec
    from bgboard.display.renderer import render
    from bgboard.match import StartMatch, apply
    from bgboard.match.state import GameRecord, Phase

    state = apply(None, StartMatch(3, variant="plakoto"))
    drawn = GameRecord(number=1, winner=None, points=0, cube=1, result="draw", level=0, crawford=False)
    state = replace(state, phase=Phase.GAME_OVER, games=(drawn,))
    shown = display_state(View(state=state, now_ms=0, variant=variant_notes(state)))
    assert shown.winner is None and shown.ending is None
    assert shown.lesson[0].startswith("a draw: both mother checkers pinned, no points")
    assert render(shown, panel_spec("waveshare-4in2")).size == (400, 300)
