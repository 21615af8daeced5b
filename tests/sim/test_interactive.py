"""bgboard sim --interactive, driven by scripted input lines."""

from __future__ import annotations

from pathlib import Path

import pytest

from bgboard.sim.interactive import play_interactive
from bgboard.sim.run import Options


def _session(tmp_path: Path, lines: list[str]) -> list[str]:
    said: list[str] = []
    feed = iter(lines)

    def read(prompt: str) -> str:
        said.append(prompt)
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    play_interactive(Options(1, seed=4), tmp_path, read=read, write=said.append)
    return said


@pytest.mark.slow
def test_a_wrong_play_is_refused_with_its_reason_and_a_right_one_taken(tmp_path: Path) -> None:
    # seed 4: black wins the opening roll and plays; white then rolls 5-4
    said = _session(tmp_path, ["r", "r", "13/7", "r", "zz/1", "7/13", "13/8", "13/9", "r", "b", "q"])
    text = "\n".join(said)
    assert "13/7 moves 6 pips: the roll 5-4 cannot play that" in text
    assert "display: 13/9 13/8: press done" in text
    assert "write one checker as FROM/TO" in text
    assert list((tmp_path / "frames").glob("frame-*.png"))
    assert (tmp_path / "match.mat").read_text().count("54: 13/8 13/9") == 1


def test_quitting_and_coming_back_resumes_the_match(tmp_path: Path) -> None:
    _session(tmp_path, ["r", "q"])
    said = _session(tmp_path, ["b", "q"])
    assert any("[turn] white 0 black 0>" in s or "[play]" in s for s in said)
