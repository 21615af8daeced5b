"""The config file: the default file is written from the dataclasses (one place for every
key and default), docs/config.md documents exactly those keys with those defaults, and every
mistake is one sentence naming the key."""

from __future__ import annotations

import re
import tomllib
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest

from bgboard.cli import main
from bgboard.config import DEFAULT_TOML, SECTIONS, Config, ConfigError, config_from_dict, load_config

DOCS = Path(__file__).resolve().parents[1] / "docs" / "config.md"


def _documented() -> dict[tuple[str, str], str]:
    """(table, key) -> the default column of docs/config.md's tables."""
    found: dict[tuple[str, str], str] = {}
    table = None
    for line in DOCS.read_text().splitlines():
        heading = re.match(r"^## `\[(\w+)\]`", line)
        if heading:
            table = heading.group(1)
            continue
        row = re.match(r"^\| `(\w+)` \| `(.*?)` \|", line)
        if row and table:
            found[(table, row.group(1))] = row.group(2)
    return found


def _as_doc(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def test_the_default_file_reads_back_as_the_defaults() -> None:
    assert config_from_dict(tomllib.loads(DEFAULT_TOML)) == Config()
    assert load_config(None) == Config()


def test_the_default_file_has_every_key_of_every_table() -> None:
    data = tomllib.loads(DEFAULT_TOML)
    assert list(data) == list(SECTIONS)
    for name, cls in SECTIONS.items():
        assert list(data[name]) == [f.name for f in fields(cls)], name


def test_docs_config_md_documents_exactly_the_keys_with_their_defaults() -> None:
    documented = _documented()
    keys = {(name, f.name): f.default for name, cls in SECTIONS.items() for f in fields(cls)}
    assert set(documented) == set(keys)
    for (name, key), default in keys.items():
        shown = tomllib.loads(f"v = {documented[name, key]}")["v"]
        assert shown == _as_doc(default), f"docs/config.md shows {name}.{key} = {shown!r}, the code {default!r}"


def test_print_default_prints_the_default_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "--print-default"]) == 0
    assert capsys.readouterr().out == DEFAULT_TOML


@pytest.mark.parametrize(
    "data, sentence",
    [
        ({"bord": {}}, "unknown table [bord]: the tables are board, buttons, display, match, clock, hints, opponent, teach, journal, club, remote"),
        ({"board": {"prot": "x"}}, "unknown key board.prot: [board] has port, baudrate, grid, settle_ms"),
        ({"board": "x"}, "[board] must be a table of keys"),
        ({"board": {"settle_ms": "300"}}, "board.settle_ms must be a whole number, not '300'"),
        ({"board": {"settle_ms": True}}, "board.settle_ms must be a whole number, not True"),
        ({"board": {"settle_ms": 9000}}, "board.settle_ms must be 0..5000, not 9000"),
        ({"buttons": {"enabled": "yes"}}, "buttons.enabled must be true or false, not 'yes'"),
        ({"clock": {"delay_s": "twelve"}}, "clock.delay_s must be a number, not 'twelve'"),
        ({"clock": {"delay_s": -1}}, "clock.delay_s cannot be negative"),
        ({"match": {"players": ["A"]}}, "match.players must be a list of 2 names, not ['A']"),
        ({"match": {"variant": "tavla"}}, "match.variant must be one of"),
        ({"hints": {"engine": "deepblue"}}, "hints.engine must be one of none, auto, bgsage, gnubg-nn, pubeval, not 'deepblue'"),
        ({"journal": {"path": " "}}, "journal.path must name the journal file"),
        ({"display": {"panel": "crt"}}, "display.panel: "),
        ({"teach": {"mode": "practice", "drills": ["opening", "xyzzy"]}}, "teach.drills: 'xyzzy' is not \"all\", a kind"),
        ({"teach": {"mode": "practice", "drills": 3}}, "teach.drills must be a text in quotes or a list of texts, not 3"),
        ({"teach": {"mode": "practice", "drills": []}}, "teach.drills must be a text in quotes or a list of texts"),
        ({"match": {"length": 7, "beavers": True}}, "match.jacoby and match.beavers apply to money play only"),
        ({"teach": {"learner": "grey"}}, "teach.learner must be one of white, black, both, not 'grey'"),
        ({"teach": {"learner": 0}}, "teach.learner must be a text in quotes, not 0"),
        ({"teach": {"mode": "learner"}}, 'teach.mode = "learner" grades every play with a hint engine: set [hints] engine'),
    ],
)
def test_every_mistake_is_one_sentence_naming_the_key(data: dict, sentence: str) -> None:
    with pytest.raises(ConfigError) as caught:
        config_from_dict(data)
    text = str(caught.value)
    assert text.startswith(sentence) and "\n" not in text


def test_a_file_that_is_not_toml_or_missing_is_one_sentence(tmp_path: Path) -> None:
    bad = tmp_path / "config.toml"
    bad.write_text("[board\nport = 1\n")
    with pytest.raises(ConfigError, match=r"is not valid TOML"):
        load_config(bad)
    with pytest.raises(ConfigError, match=r"cannot be read"):
        load_config(tmp_path / "missing.toml")


def test_a_file_overrides_only_what_it_names(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[match]\nlength = 7\nplayers = ["Ann", "Bob"]\n[clock]\nenabled = true\ndelay_s = 18\n')
    config = load_config(path)
    assert config.match.length == 7 and config.match.players == ("Ann", "Bob")
    assert config.clock.enabled and config.clock.delay_s == 18.0 and isinstance(config.clock.delay_s, float)
    assert config.board == Config().board and config.match.rules == "standard"


def test_practice_drills_are_kinds_names_and_position_ids_in_the_order_given() -> None:
    from bgboard.hints.drills import builtin_drills, select_drills

    config = config_from_dict({"hints": {"engine": "pubeval"}, "teach": {"mode": "practice",
                                         "drills": ["Opening 3-1", "bar", "4HPwATDgc/ABMA:65", "4HPwATDgc/ABMA"]}})
    assert config.teach.drills == ("Opening 3-1", "bar", "4HPwATDgc/ABMA:65", "4HPwATDgc/ABMA")
    drills = select_drills(config.teach.drills)
    bar = [d for d in builtin_drills() if d.kind == "bar"]
    assert [d.name for d in drills[:1 + len(bar)]] == ["Opening 3-1", *(d.name for d in bar)]
    assert (drills[-2].position_id, drills[-2].dice, drills[-1].dice) == ("4HPwATDgc/ABMA", (6, 5), None)
    assert select_drills(config_from_dict({}).teach.drills) == builtin_drills()


def test_mine_is_the_learners_own_worst_positions_and_none_kept_is_one_sentence() -> None:
    from bgboard.hints.drills import DrillError, select_drills

    config = config_from_dict({"hints": {"engine": "pubeval"}, "teach": {"mode": "practice", "drills": ["mine", "bar"],
                                                                          "learner": "black"}})
    assert config.teach.learner == "black"
    drills = select_drills(config.teach.drills, mine=["4HPwATDgc/ABMA:65", "4HPwATDgc/ABMA:31"])
    assert [(d.position_id, d.dice) for d in drills[:2]] == [("4HPwATDgc/ABMA", (6, 5)), ("4HPwATDgc/ABMA", (3, 1))]
    assert all(d.kind == "bar" for d in drills[2:]) and drills[2:]
    with pytest.raises(DrillError, match="none is kept yet: play a match in learner mode first"):
        select_drills("mine", mine=[])
