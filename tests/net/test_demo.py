"""``bgboard club demo``: a whole double-elimination evening on a private Mosquitto to its
champion; one sentence when Mosquitto is not installed."""

from __future__ import annotations

from pathlib import Path

import pytest

from bgboard.cli import main
from bgboard.club.director import Director as Service
from bgboard.errors import EXIT_ENVIRONMENT
from tests.net.club_harness import mat_results


@pytest.mark.slow
def test_a_small_evening_ends_with_its_champion(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from bgboard.net.mosquitto import mosquitto_binary

    mosquitto_binary()  # fails here (not skips) without Mosquitto
    out = tmp_path / "demo"
    assert main(["club", "demo", "--boards", "4", "--players", "6", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    with Service.open(out / "club.sqlite") as s:
        [event] = s.events()
        standings = s.standings(event.name)
        finished = [m for m in s.matches(event.name) if m.status == "finished"]
    assert event.status == "finished"
    [champion] = [st.name for st in standings if st.status == "champion"]
    assert f"champion: {champion} after {len(finished)} matches" in text
    # one board record per stored result (counted as files: a double elimination may pair
    # the same two players twice, and mat_results keeps one result per pair); each replays
    assert len(list(out.glob("board*/matches/*/match.mat"))) == len(finished)
    assert set(mat_results(out)) == {(m.players[0], m.players[1]) for m in finished}
    assert (out / "export" / "draw.html").exists()


def test_without_mosquitto_it_is_one_sentence_and_exit_69(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import bgboard.net.mosquitto as mosquitto

    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(mosquitto, "SBIN", str(tmp_path / "no-mosquitto"))
    assert main(["club", "demo", "--out", str(tmp_path / "demo")]) == EXIT_ENVIRONMENT
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "apt-get install mosquitto" in err
    assert not (tmp_path / "demo").exists()
