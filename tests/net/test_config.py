"""The [club] table of config.toml: checked with one sentence per mistake."""

from __future__ import annotations

from pathlib import Path

import pytest

from bgboard.config import ConfigError, club_password, config_from_dict, load_config


def test_the_default_is_a_board_outside_any_club() -> None:
    assert not load_config(None).club.enabled


def test_a_networked_board(tmp_path: Path) -> None:
    secret = tmp_path / "pw"
    secret.write_text("s3cret\n")
    c = config_from_dict({"club": {"broker": "mqtt://director.local", "board": 7, "password_file": str(secret)}}).club
    assert c.enabled and c.user == "board7" and club_password(c) == "s3cret"


@pytest.mark.parametrize(
    "table, words",
    [
        ({"broker": "http://x", "password_file": "p"}, "mqtt://host:1883"),
        ({"broker": "mqtt://x", "club": "My Club", "password_file": "p"}, "lower-case"),
        ({"broker": "mqtt://x", "board": 0, "password_file": "p"}, "club.board must be 1..9999"),
        ({"broker": "mqtt://x"}, "club.password_file must name"),
        ({"broker": "mqtt://x", "board": "7"}, "club.board must be a whole number"),
    ],
)
def test_mistakes_are_one_sentence(table: dict[str, object], words: str) -> None:
    with pytest.raises(ConfigError, match=words):
        config_from_dict({"club": table})


def test_an_unreadable_password_file_is_one_sentence(tmp_path: Path) -> None:
    c = config_from_dict({"club": {"broker": "mqtt://x", "password_file": str(tmp_path / "missing")}}).club
    with pytest.raises(ConfigError, match="cannot be read"):
        club_password(c)
