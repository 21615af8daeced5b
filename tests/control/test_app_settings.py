"""Every [match] key of the config reaches the controller's settings (bgboard.app.settings_of)."""

from pathlib import Path

from bgboard.modes.settings import settings_of
from bgboard.config import config_from_dict
from bgboard.control.events import DOUBLE, ROLL, BoardRead, ButtonPressed
from bgboard.sense.places import Slots
from tests.control.test_board_lessons import _board, _opened


def _settings(tmp_path: Path, match: dict):
    config = config_from_dict(
        {
            "board": {"port": str(tmp_path / "bgboard")},
            "match": {"length": 5, **match},
            "journal": {"path": str(tmp_path / "journal.db")},
        }
    )
    return settings_of(config, None)


def test_condone_key_reaches_the_controller(tmp_path: Path):
    assert _settings(tmp_path, {}).illegal == "correct"
    assert _settings(tmp_path, {"condone": True}).illegal == "condone"


def test_match_keys_reach_the_controller(tmp_path: Path):
    settings = _settings(tmp_path, {"takebacks": False, "rules": "brainking"})
    assert settings.length == 5 and settings.rules == "brainking" and settings.takebacks is False



def test_money_play_keys_reach_the_controller_and_the_board_beavers(tmp_path: Path):
    """[match] jacoby and beavers (money play) are the controller's rules: a doubled player
    beavers with the roll button where the config allows it, and not otherwise."""
    for beavers, jacoby in ((True, True), (False, False)):
        config = config_from_dict({"match": {"length": 0, "rules": "money", "beavers": beavers, "jacoby": jacoby}})
        c, _, _ = _opened(settings_of(config, Slots()))  # the board's slots as the controller's tests use them
        assert (c.state.length, c.state.rules.beavers, c.state.rules.jacoby) == (0, beavers, jacoby)
        c.handle(BoardRead(_board((8, 5), (6, 5)), 10))
        c.handle(ButtonPressed(0, ROLL, 11))
        c.handle(ButtonPressed(1, DOUBLE, 12))  # black doubles
        c.handle(ButtonPressed(0, ROLL, 13))  # white: a beaver where the config allows it
        assert (c.actions[-1].kind == "beaver") == beavers
        assert (c.state.cube, c.state.phase) == ((4, "turn") if beavers else (1, "doubled"))
