"""Every [match] key of the config reaches the controller's settings (bgboard.app.settings_of)."""

from pathlib import Path

from bgboard.app import settings_of
from bgboard.config import config_from_dict


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
