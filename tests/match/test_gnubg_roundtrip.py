"""Round trips through gnubg: our .mat files imported by gnubg, gnubg's .mat files imported
by us, our Match IDs decoded by gnubg.  gnubg runs in a subprocess (tests/match/gnubg_oracle.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("gnubg", reason="the gnubg wheel cannot be imported on this platform")

from bgboard.match import MATCH_OVER, replay, states  # noqa: E402
from bgboard.match.mat import export_mat, read_mat  # noqa: E402
from bgboard.match.matchid import match_id_text  # noqa: E402
from bgboard.match.selfplay import selfplay  # noqa: E402

pytestmark = pytest.mark.slow  # whole matches / engines / firmware runs: the full run, not -m "not slow"

ORACLE = Path(__file__).with_name("gnubg_oracle.py")

# 20 matches: lengths 1..15 under standard rules and BrainKing's odd lengths, varied seeds,
# including seeds known to hold a resignation (3/15), a resignation after rolling (5/21),
# a backgammon (3/20) and a rejected resignation (3/44).
MATCHES = [(n, seed, "standard") for n, seed in zip((1, 2, 4, 6, 9, 11, 15), range(100, 107))] + [
    (3, 15, "standard"), (5, 21, "standard"), (3, 20, "standard"), (3, 44, "standard")
] + [(n, seed, "brainking") for n, seed in zip((3, 5, 7, 9, 11, 13, 3, 5, 7), range(200, 209))]


def oracle(*args: str) -> list[dict]:
    result = subprocess.run(
        [sys.executable, str(ORACLE), *args], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr[-2000:]
    return [json.loads(line[2:]) for line in result.stdout.splitlines() if line.startswith("@@")]


def test_gnubg_imports_twenty_self_played_matches_with_the_same_results(tmp_path: Path) -> None:
    expected = {}
    files = []
    for length, seed, rules in MATCHES:
        actions = selfplay(length, seed, rules)
        state = replay(actions)
        path = tmp_path / f"m{length}_{seed}.mat"
        path.write_text(export_mat(actions))
        files.append(str(path))
        expected[str(path)] = (length, state)
    seen = oracle("import", *files)
    assert [r["file"] for r in seen] == files
    kinds = set()
    for record in seen:
        length, state = expected[record["file"]]
        assert record["length"] == length
        ours = [(g.winner, g.points) for g in state.games]
        theirs = [(g["winner"], g["points"]) for g in record["games"]]
        assert theirs == ours, record["file"]
        # gnubg's score before each game, then the final score.
        last = record["games"][-1]
        final = list(last["score"])
        final[last["winner"]] += last["points"]
        assert tuple(final) == state.score
        assert [g["crawford"] for g in record["games"]] == [g.crawford for g in state.games]
        kinds |= {g.result for g in state.games}
    assert len(MATCHES) == 20
    assert {"single", "gammon", "backgammon", "drop", "resign"} <= kinds


@pytest.mark.parametrize("seed", [1, 4, 6])
def test_a_match_gnubg_plays_and_exports_is_read_with_every_result(tmp_path: Path, seed: int) -> None:
    out = tmp_path / "gnubg.mat"
    (played,) = oracle("play", "7", str(seed), str(out))
    text = out.read_text()
    assert text.splitlines()[2] == " 7 point match"
    state = replay(read_mat(text))
    assert [{"winner": g.winner, "points": g.points} for g in state.games] == played["games"]
    assert state.phase == MATCH_OVER and max(state.score) >= 7


def test_match_ids_of_every_position_decode_in_gnubg() -> None:
    checked = []
    for length, seed in ((5, 3), (3, 7)):
        for _action, state, _before in states(selfplay(length, seed)):
            if state.phase == MATCH_OVER or state.phase == "opening" or state.phase == "game_over":
                continue  # gnubg refuses a Match ID whose score has reached the length
            checked.append((match_id_text(state), state))
    ids = [mid for mid, _ in checked]
    decoded = oracle("matchid", *ids)
    assert len(decoded) == len(checked) > 300
    for (mid, state), got in zip(checked, decoded):
        # gnubg writes the dice high die first when it re-encodes, and its `set matchid`
        # does not restore a pending double; every other bit agrees.
        doubled = state.phase == "doubled"
        if (state.dice is None or state.dice[0] >= state.dice[1]) and not doubled:
            assert got["echo"] == mid
        assert got["cube"] == state.cube
        assert got["owner"] == (-1 if state.cube_owner is None else state.cube_owner)
        assert tuple(got["score"]) == state.score
        assert got["length"] == state.length
        assert got["crawford"] == state.crawford
        assert sorted(got["dice"]) == sorted(state.dice or (0, 0))
        if not doubled:
            assert got["turn"] == state.decider


def _sgf_games(text: str) -> list[tuple[str, list[str]]]:
    """(root properties without AP/DT/GS, nodes with each move's steps sorted) per game."""
    import re

    games = []
    for tree in re.findall(r"\(;(.*?)\)\n", text, re.DOTALL):
        root, *nodes = tree.split("\n;")
        root = re.sub(r"AP\[[^\]]*\]|DT\[[^\]]*\]|GS(\[[^\]]*\])+", "", root)
        normal = []
        for node in nodes:
            # Dice rolled before a resignation: gnubg writes PL[W]DI[56] for its own
            # records, but reads the .mat line "56:" back as a move without steps.
            node = re.sub(r"^PL\[([WB])\]DI\[(\d\d)\]$", r"\1[\2]", node)
            m = re.fullmatch(r"([WB])\[(\d\d)([a-z]*)\]", node)
            if m:
                pairs = sorted(m.group(3)[i : i + 2] for i in range(0, len(m.group(3)), 2))
                node = f"{m.group(1)}[{m.group(2)}{''.join(pairs)}]"
            normal.append(node)
        games.append((root, normal))
    return games


@pytest.mark.parametrize(("length", "seed"), [(3, 7), (5, 2), (3, 15), (5, 21), (3, 20)])
def test_sgf_equals_what_gnubg_saves_for_the_same_match(tmp_path: Path, length: int, seed: int) -> None:
    from bgboard.match.sgf import export_sgf

    actions = selfplay(length, seed)
    mat = tmp_path / "m.mat"
    mat.write_text(export_mat(actions))
    oracle("sgf", str(mat), str(tmp_path / "g.sgf"))
    theirs = _sgf_games((tmp_path / "g.sgf").read_text())
    ours = _sgf_games(export_sgf(actions))
    assert len(ours) == len(replay(actions).games) >= 1
    assert ours == theirs


def test_variant_matches_import_in_gnubg_with_the_same_results(tmp_path: Path) -> None:
    files, expected = [], []
    for variant in ("nackgammon", "hypergammon1", "hypergammon2", "hypergammon3"):
        actions = selfplay(3, 5, variant=variant)
        path = tmp_path / f"{variant}.mat"
        text = export_mat(actions)
        assert "; [Variation" in text.splitlines()[0]
        path.write_text(text)
        files.append(str(path))
        expected.append([(g.winner, g.points) for g in replay(actions).games])
    seen = oracle("import", *files)
    assert [[(g["winner"], g["points"]) for g in r["games"]] for r in seen] == expected


def _sorted_steps(text: str) -> str:
    """The .mat text with the steps of every roll in one order (gnubg stores a move it
    reads from a file in its generator's order; the writer keeps the played order)."""
    import re

    def fix(m: "re.Match[str]") -> str:
        steps = m.group(2).split()
        return m.group(1) + " ".join(sorted(steps)) + m.group(3)

    return re.sub(r"(\d\d: )((?:(?:\d+/\d+\*?) ?){1,4}?)( ?)(?=\s{2,}|$)", fix, text, flags=re.M)


@pytest.mark.parametrize(("length", "seed"), [(3, 7), (5, 2), (3, 15), (3, 20), (3, 44), (9, 300)])
def test_gnubg_rewrites_our_mat_files_identically(tmp_path: Path, length: int, seed: int) -> None:
    from bgboard.match.mat import MatInfo

    path = tmp_path / "ours.mat"
    # gnubg dates the file it exports; give ours the same date line.
    import datetime

    today = datetime.date.today()
    text = export_mat(selfplay(length, seed), MatInfo(event_date=(today.year, today.month, today.day)))
    path.write_text(text)
    oracle("reexport", str(path))
    theirs = (tmp_path / "ours.mat.gnubg").read_text()
    assert len(theirs) == len(text)
    assert _sorted_steps(theirs) == _sorted_steps(text)
