"""Match files the world writes (tests/data/match/world/, built by make_world_corpus.py and
written by hand): each is read by gnubg (``import mat``) and by us, and compared game by
game and play by play — players, the game's score, winner and points, and for every
record the player, the dice and the Position ID before it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bgboard.match import MatchRecordError, import_mat, read_mat, replay
from bgboard.rules import Position, position_id

WORLD = Path(__file__).parents[1] / "data" / "match" / "world"
ORACLE = Path(__file__).with_name("gnubg_oracle.py")
FILES = sorted(WORLD.glob("*.mat"))
_SIDE = {"X": 0, "O": 1}


def gnubg_read(paths: list[Path]) -> dict[str, dict]:
    """gnubg's match() for each file, from one gnubg process."""
    result = subprocess.run(
        [sys.executable, str(ORACLE), "records", *map(str, paths)],
        capture_output=True, text=True, timeout=600,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    found = [json.loads(line[2:]) for line in result.stdout.splitlines() if line.startswith("@@")]
    return {item["file"]: item["match"] for item in found}


@pytest.fixture(scope="session")  # once per worker: read only (module scope made it again each time a worker came back)
def gnubg_matches() -> dict[str, dict]:
    return gnubg_read(FILES)


def gnubg_games(match: dict) -> list[dict]:
    """gnubg's games as comparable values.  Two quirks of gnubg's ``match()`` are taken
    out: it lists a game's last double once more right before a resignation (same board),
    and it reads a ``Wins`` line written on its own row after a drop as a resignation too
    (the winner and points stay the drop's)."""
    games = []
    for game in match["games"]:
        info = game["info"]
        records = []
        raw = game["game"]
        dropped = False
        for k, r in enumerate(raw):
            following = raw[k + 1]["action"] if k + 1 < len(raw) else None
            if r["action"] == "double" and following == "resign" and any(
                q["action"] == "double" and q.get("board") == r.get("board") for q in raw[:k]
            ):
                continue
            if dropped and r["action"] == "resign":
                continue
            dropped = dropped or r["action"] == "drop"
            player = _SIDE[r["player"]]
            action = r["action"]
            if action == "move":
                records.append((player, "move", tuple(r["dice"]), r["board"]))
            elif action == "set":
                records.append((player, "roll", tuple(r["dice"])))
            elif action == "resign":
                records.append((player, "resign", r["points"]))
            else:
                records.append((player, action))
        games.append({
            "score": (info["score-X"], info["score-O"]),
            "winner": _SIDE.get(info.get("winner")),
            "points": info.get("points-won", 0) if info.get("winner") else 0,
            "crawford": bool(info.get("crawford", False)),
            "resigned": bool(info.get("resigned", False)) and not dropped,
            "records": records,
        })
    return games


def our_games(path: Path) -> list[dict]:
    match = import_mat(path.read_bytes())
    games = []
    for game in match.games:
        records = []
        for k, p in enumerate(game.plays):
            if p.kind in ("move", "pass", "illegal"):
                pid = p.position_id
                if k and game.plays[k - 1].kind == "roll" and game.plays[k - 1].player != p.player:
                    # gnubg still sees the board from the side of the player who rolled and did not play
                    b = p.before.board
                    pid = position_id(Position(b[1 - p.player], b[p.player]))
                records.append((p.player, "move", p.dice, pid))
            elif p.kind == "roll":
                records.append((p.player, "roll", p.dice))
            elif p.kind == "resign":
                records.append((p.player, "resign", p.level))
            else:
                records.append((p.player, p.kind))
        games.append({
            "score": game.score,
            "winner": game.winner,
            "points": game.points,
            "crawford": game.crawford,
            "resigned": game.result == "resign",
            "records": records,
        })
    return games


def test_the_corpus_holds_every_kind_of_file() -> None:
    names = {p.name for p in FILES}
    assert len(FILES) >= 20
    for prefix in ("gnubg_headers_", "gnubg_match_", "gnubg_session_", "style_xg_", "style_gridgammon_", "hand_"):
        assert any(n.startswith(prefix) for n in names), prefix
    texts = [p.read_bytes() for p in FILES]
    assert any(t.startswith(b"\xef\xbb\xbf") for t in texts) and any(b"\r\n" in t for t in texts)
    for needle in (b'[Variation "Backgammon"]', b"[Site ", b"[Event ", b"[Round ", b"[Transcriber ",
                   b"[EventDate ", b"[Jacoby ", b"[Crawford ", b"[CubeLimit ", b" 0 point match",
                   b"Cannot Move", b"???", b"Drops", b"Takes", b",1650 : "):
        assert any(needle in t for t in texts), needle
    results = {g["result"] for p in FILES for g in import_mat(p.read_bytes()).to_dict()["games"]}
    assert {"single", "gammon", "backgammon", "drop", "resign"} <= results


@pytest.mark.slow
@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_we_read_every_file_as_gnubg_does(path: Path, gnubg_matches: dict[str, dict]) -> None:
    theirs = gnubg_matches[str(path)]
    match = import_mat(path.read_bytes())
    info = theirs["match-info"]
    assert match.players == (info["X"]["name"], info["O"]["name"])
    assert match.length == info["match-length"]
    ours, gnubgs = our_games(path), gnubg_games(theirs)
    assert len(ours) == len(gnubgs)
    for k, (a, b) in enumerate(zip(ours, gnubgs), start=1):
        assert a["records"] == b["records"], f"game {k}"
        assert a == b, f"game {k}"
    last = gnubgs[-1]
    final = list(last["score"])
    if last["winner"] is not None:
        final[last["winner"]] += last["points"]
    assert match.score == tuple(final)


CLEAN = [p for p in FILES if not p.name.startswith("hand_problems")]
# Resignations by the player not on roll: read, but no action log (only the player on roll
# may resign in our state machine).
NO_LOG = {"hand_cube_columns.mat", "hand_resign_not_on_roll.mat"}


@pytest.mark.slow
@pytest.mark.parametrize("path", CLEAN, ids=lambda p: p.name)
def test_files_without_problems_replay_as_one_match(path: Path) -> None:
    match = import_mat(path.read_bytes())
    assert match.problems == ()
    if path.name in NO_LOG:
        assert match.actions is None
        assert any(p.kind == "resign" and p.before.turn != p.player for g in match.games for p in g.plays)
        return
    assert match.actions is not None
    state = replay(match.actions)
    assert state.score == match.score and len(state.games) == sum(g.winner is not None for g in match.games)
    assert read_mat(path.read_bytes()) == list(match.actions)


def test_each_problem_is_reported_with_its_line_and_strict_refuses() -> None:
    path = WORLD / "hand_problems.mat"
    match = import_mat(path.read_bytes())
    found = [(p.line, p.game) for p in match.problems]
    assert found == [(9, 1), (10, 1), (11, 1), (11, 1), (15, 2), (16, 2)]
    words = [p.message for p in match.problems]
    assert "illegal play by Bob" in words[0] and "kept as written" in words[0]
    assert "Ann rolled 62 and did not play" in words[1]
    assert "cannot be played on this board" in words[2] and "left out" in words[2]
    assert "the file gives the score 0-2, the games before give 0-1" in words[4]
    assert "cannot read 'hello'" in words[5]
    assert match.actions is None and match.score == (2, 5) and match.winner == 1
    assert match.tag("program") == "made up, an unknown key" and match.tag("annotator") == "bgboard tests"
    with pytest.raises(MatchRecordError, match="^line 9: illegal play by Bob"):
        import_mat(path.read_bytes(), strict=True)


def test_ratings_written_after_the_names_are_split_off() -> None:
    match = import_mat((WORLD / "style_gridgammon_match_5_11.mat").read_bytes())
    assert match.players == ("gnubg", "root") and match.ratings == ("1650", "1702")


def test_xg_set_position_lines_are_reported_not_silently_skipped() -> None:
    text = (WORLD / "hand_notation.mat").read_text().replace(
        "  2) 65: 24/13", "; Set Pos=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:3:10\n  2) 65: 24/13"
    )
    match = import_mat(text)
    assert [(p.line, p.game) for p in match.problems] == [(9, 1)]
    assert "Set Pos" in match.problems[0].message


def test_an_unknown_variation_is_a_problem_read_as_standard_not_a_crash() -> None:
    plain_text = (WORLD / "hand_notation.mat").read_text()
    text = plain_text.replace("; rolled before resigning.", '; [Variation "HyperGammon (4)"]')  # same lines
    plain = import_mat(plain_text)
    match = import_mat(text)
    assert match.variant == "standard" and match.games == plain.games
    assert [(p.line, p.game) for p in match.problems] == [(0, None)] + [(p.line, p.game) for p in plain.problems]
    assert match.problems[0].message == (
        "unknown variation 'HyperGammon (4)': read as standard backgammon (as gnubg does)")
    assert match.actions is None
    with pytest.raises(MatchRecordError, match=r"^the file: unknown variation 'HyperGammon \(4\)'"):
        import_mat(text, strict=True)
