"""Choosing the engine: by name, from the environment, from the config file."""

from __future__ import annotations

import pytest

from bgboard.config import HINT_ENGINES, config_from_dict
from bgboard.hints import ENGINES, UnknownEngineError, open_configured, open_engine


def test_every_config_name_opens_something_or_nothing() -> None:
    for name in HINT_ENGINES:
        config = config_from_dict({"hints": {"engine": name}})
        opened = open_configured(config.hints.engine)
        if name == "none":
            assert opened is None
        else:
            assert opened is not None and opened.engine.name in ENGINES


def test_auto_takes_the_strongest_installed(bgsage_engine) -> None:
    assert open_engine("auto").engine.name == "bgsage"


def test_environment_names_the_engine(monkeypatch, gnubg_engine) -> None:
    monkeypatch.setenv("BGBOARD_HINT_ENGINE", "gnubg-nn")
    assert open_engine().engine.name == "gnubg-nn"
    monkeypatch.setenv("BGBOARD_HINT_ENGINE", "pubeval")
    assert open_engine().engine.name == "pubeval"


def test_unknown_names_are_one_sentence() -> None:
    with pytest.raises(UnknownEngineError, match="unknown engine 'snowie': choose one of bgsage, gnubg-nn, pubeval or auto"):
        open_engine("snowie")
