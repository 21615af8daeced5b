"""Condoned illegal plays: the rule-set option, which plays may be condoned, records."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bgboard.match import (
    GAME_OVER,
    MATCH_OVER,
    PLAY,
    Condone,
    MatchRecordError,
    MatchRuleError,
    Move,
    OpeningRoll,
    Roll,
    StartMatch,
    UnknownRuleSetError,
    apply,
    from_json,
    log_from_json,
    log_to_json,
    replay,
    rule_set,
    states,
    to_json,
)
from bgboard.match.condone import condone_refusal
from bgboard.match.mat import export_mat
from bgboard.match.selfplay import selfplay
from bgboard.match.sgf import export_sgf
from bgboard.rules import BAR, OFF, Position, Step, apply_step, legal_plays

START = StartMatch(length=3, players=("Ann", "Bob"), illegal_plays="condone")


def _opened() -> list:
    """Ann (white, player 0) won the opening roll with 3-1."""
    return [START, OpeningRoll((3, 1))]


def _moved(position: Position, *steps: tuple[int, int]) -> Position:
    """``position`` with the mover's checkers moved (no hits, no checks)."""
    mine = list(position.mine)
    for frm, to in steps:
        mine[frm] -= 1
        mine[to] += 1
    return Position(tuple(mine), position.theirs)


def _forward_targets(position: Position, frm: int) -> list[int]:
    """Where the mover's checker on ``frm`` can physically go forwards, whatever the dice:
    any point not blocked, and off once every checker is home."""
    targets = [t for t in range(1, frm) if position.theirs[BAR - t] < 2]
    return targets + ([OFF] if not any(position.mine[7:]) else [])


def _forward(position: Position, frm: int, to: int) -> Position:
    """``position`` after one checker slid from ``frm`` to ``to`` (a blot there is hit);
    :func:`apply_step` does not look at the die, so any distance will do."""
    return apply_step(position, Step(frm, to, frm - to))


def _play_states() -> list:
    """(position, dice, checkers) of every play decision in a few self-played matches."""
    out = []
    for seed in range(3):
        for _action, after, _before in states(selfplay(3, seed)):
            if after.phase == PLAY:
                out.append((after.position, after.dice, after.checkers))
    return out


PLAYS = _play_states()


# --------------------------------------------------------------------- the option
@pytest.mark.parametrize("name", ["standard", "brainking", "money"])
def test_every_preset_corrects_illegal_plays_by_default(name: str) -> None:
    assert rule_set(name).illegal_plays == "correct"
    assert rule_set(name, illegal_plays="condone").illegal_plays == "condone"


def test_an_unknown_policy_is_one_sentence() -> None:
    with pytest.raises(UnknownRuleSetError, match=r"\('correct' or 'condone'\), not 'sometimes'"):
        apply(None, StartMatch(3, illegal_plays="sometimes"))


def test_without_the_option_an_illegal_play_must_be_corrected() -> None:
    state = replay([StartMatch(3, players=("Ann", "Bob")), OpeningRoll((3, 1))])
    with pytest.raises(MatchRuleError, match="must be corrected") as err:
        apply(state, Condone.of(_moved(state.position, (8, 2))))
    assert err.value.rule == "legal-moves"


def test_a_condoned_play_stands_as_the_board_shows_it() -> None:
    state = replay(_opened())
    result = _moved(state.position, (8, 2))  # one checker moved six with 3-1
    after = apply(state, Condone.of(result))
    assert after.phase == "turn" and after.turn == 1 and after.dice is None
    assert after.board == (result.mine, result.theirs)
    # play goes on from there: Bob rolls and plays legally
    after = apply(after, Roll((6, 5)))
    play = legal_plays(after.position, (6, 5))[0]
    after = apply(after, Move.of(play))
    assert after.turn == 0 and after.board[0] == result.mine


def test_a_legal_play_is_recorded_as_a_move_not_condoned() -> None:
    state = replay(_opened())
    with pytest.raises(MatchRuleError, match="record it as a move") as err:
        apply(state, Condone.of(_moved(state.position, (8, 5), (6, 5))))
    assert err.value.rule == "legal-play"


def test_condone_only_while_the_dice_are_being_played() -> None:
    state = apply(None, START)
    with pytest.raises(MatchRuleError) as err:
        apply(state, Condone.of(state.position))
    assert err.value.rule == "phase-opening"


# ----------------------------------------------------------- never condonable
def _refused(before: Position, after: Position) -> str:
    state = replace(replay(_opened()), board=(before.mine, before.theirs))
    with pytest.raises(MatchRuleError) as err:
        apply(state, Condone.of(after))
    return err.value.rule


def test_a_checker_moved_backwards_is_never_condoned() -> None:
    start = replay(_opened()).position
    assert _refused(start, _moved(start, (6, 9))) == "backwards"
    # the board alone decides: 6/7 8/5 leaves what 8/7 6/5 leaves, which is forwards
    assert condone_refusal(start, _moved(start, (6, 7), (8, 5)), 15) is None


def test_an_opponent_checker_moved_is_never_condoned() -> None:
    start = replay(_opened()).position
    theirs = list(start.theirs)
    theirs[24] -= 1  # Bob's back checker moved to his 22 point
    theirs[22] += 1
    assert _refused(start, Position(_moved(start, (8, 5), (6, 5)).mine, tuple(theirs))) == "opponent-checker"


def test_hitting_a_made_point_or_an_unreached_blot_is_never_condoned() -> None:
    start = replay(_opened()).position
    # Ann plays 6/1 and both of Bob's checkers on her 1 point (his 24) go to the bar
    made = list(start.theirs)
    made[24], made[BAR] = 0, 2
    assert _refused(start, Position(_moved(start, (6, 1)).mine, tuple(made))) == "opponent-checker"
    # Bob has blots on Ann's 1 and 2 points (his 24 and 23)
    blots = list(start.theirs)
    blots[24], blots[23] = 1, 1
    before = Position(start.mine, tuple(blots))
    hit = list(blots)
    hit[23], hit[BAR] = 0, 1
    # no checker of Ann's passed her 2 point: the blot cannot have been hit
    assert _refused(before, Position(_moved(start, (13, 10)).mine, tuple(hit))) == "opponent-checker"
    # 6/2* passes it: an illegal distance, but a condonable hit
    assert condone_refusal(before, Position(_moved(start, (6, 2)).mine, tuple(hit)), 15) is None


def test_checkers_may_not_appear_or_vanish() -> None:
    start = replay(_opened()).position
    mine = list(start.mine)
    mine[8] -= 1  # a checker taken off the board
    assert _refused(start, Position(tuple(mine), start.theirs)) == "checkers"
    mine[3] += 2  # ... and two put down
    assert _refused(start, Position(tuple(mine), start.theirs)) == "checkers"


def test_an_illegal_bear_off_is_never_condoned() -> None:
    mine = [0] * 26
    mine[7], mine[3], mine[2] = 1, 7, 7  # a checker still on the 7 point
    theirs = [0] * 26
    theirs[24] = 15
    before = Position(tuple(mine), tuple(theirs))
    assert _refused(before, _moved(before, (3, OFF), (2, OFF))) == "bear-off"


# --------------------------------------------------------------- properties
@settings(max_examples=150, deadline=None)
@given(st.sampled_from(PLAYS), st.data())
def test_every_legal_play_and_any_forward_checker_move_is_condonable(case, data) -> None:
    position, dice, checkers = case
    for play in legal_plays(position, dice):
        assert condone_refusal(position, play.position, checkers) is None
    sources = [p for p in range(1, BAR + 1) if position.mine[p]]
    frm = data.draw(st.sampled_from(sources))
    targets = _forward_targets(position, frm)
    if not targets:
        return
    to = data.draw(st.sampled_from(targets))
    assert condone_refusal(position, _forward(position, frm, to), checkers) is None


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(PLAYS), st.data())
def test_any_checker_moved_backwards_or_lost_is_refused(case, data) -> None:
    position, _dice, checkers = case
    sources = [p for p in range(1, 24) if position.mine[p]]
    frm = data.draw(st.sampled_from(sources))
    targets = [t for t in range(frm + 1, 25) if position.theirs[BAR - t] == 0]
    if targets:
        to = data.draw(st.sampled_from(targets))
        backwards = _moved(position, (frm, to))
        assert condone_refusal(position, backwards, checkers)[0] == "backwards"
    mine = list(position.mine)
    mine[frm] -= 1
    assert condone_refusal(position, Position(tuple(mine), position.theirs), checkers)[0] == "checkers"


# ------------------------------------------------------------ game over, JSON
def _race(dice: tuple[int, int]):
    """Ann to play ``dice`` with two checkers left (on 6 and 5); Bob has none off."""
    state = replay(_opened())
    mine = [13, 0, 0, 0, 0, 1, 1] + [0] * 19
    theirs = [0] * 26
    theirs[24] = 15
    return replace(state, board=(tuple(mine), tuple(theirs)), dice=dice)


def test_a_condoned_play_can_end_the_game() -> None:
    state = _race((2, 1))  # bearing both off with 2-1 is illegal, but every checker is home
    mine = [15] + [0] * 25
    after = apply(state, Condone(tuple(mine), state.board[1]))
    assert after.phase in (GAME_OVER, MATCH_OVER)
    game = after.games[-1]
    assert (game.winner, game.result, game.points) == (0, "backgammon", 3)
    assert after.score == (3, 0) and after.phase == MATCH_OVER


def test_json_and_replay_keep_condoned_plays() -> None:
    state = replay(_opened())
    log = _opened() + [Condone.of(_moved(state.position, (8, 2))), Roll((4, 4))]
    end = replay(log)
    assert replay(log_from_json(log_to_json(log))) == end
    assert from_json(to_json(end)) == end
    assert end.rules.illegal_plays == "condone"


def test_older_saved_states_read_as_correct() -> None:
    state = replay([StartMatch(3), OpeningRoll((3, 1))])
    text = to_json(state).replace(',"illegal_plays":"correct"', "")
    assert "illegal_plays" not in text
    assert from_json(text) == state


def test_a_malformed_condone_is_a_record_error() -> None:
    with pytest.raises(MatchRecordError):
        log_from_json('[{"type":"condone","mine":[1,2],"theirs":[3]}]')


# -------------------------------------------------------------------- records
GOLDEN_SGF = (
    "(;FF[4]GM[6]CA[UTF-8]AP[bgboard:{v}]MI[length:3][game:0][ws:0][bs:0]PW[Ann]PB[Bob]RU[Crawford]\n"
    ";PL[W]DI[31]\n"
    ";AE[a:y]AW[b][f][f][f][f][f][h][h][m][m][m][m][m][x][x]"
    "AB[s][s][s][s][s][q][q][q][l][l][l][l][l][a][a]PL[B]C[illegal play of 3-1 condoned]\n"
    ";B[65lrqv])\n"
)


def test_sgf_writes_a_condoned_play_as_gnubg_writes_an_edited_position() -> None:
    from bgboard import __version__

    state = replay(_opened())
    log = _opened() + [Condone.of(_moved(state.position, (8, 2))), Roll((6, 5))]
    # Bob's 13/7 8/3, written from White's side as gnubg does
    after = replay(log)
    play = next(p for p in legal_plays(after.position, (6, 5)) if p.notation == "13/7 8/3")
    log.append(Move.of(play))
    assert export_sgf(log) == GOLDEN_SGF.format(v=__version__)


def _sgf_board(text: str) -> tuple[list[int], list[int]]:
    """White's and Black's point counts (own views, index 25 bar) from an AW/AB node."""
    import re

    node = text.split(";AE[a:y]")[1].split("PL[")[0].split("C[")[0]
    white, black = [0] * 26, [0] * 26
    for colour, values in re.findall(r"(AW|AB)((?:\[[a-y]\])+)", node):
        for letter in re.findall(r"\[([a-y])\]", values):
            if letter == "y":
                (white if colour == "AW" else black)[BAR] += 1
            elif colour == "AW":
                white[ord(letter) - ord("a") + 1] += 1
            else:
                black[ord("x") - ord(letter) + 1] += 1
    return white, black


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(st.integers(0, 40), st.data())
def test_the_sgf_setup_node_holds_the_condoned_board(index, data) -> None:
    """For Black and White movers alike: the board written is the board recorded."""
    log = [StartMatch(3, illegal_plays="condone")] + list(selfplay(3, index % 5))[1:]
    state = None
    for i, action in enumerate(log):
        state = apply(state, action)
        if i > 2 + index and state.phase == PLAY:
            break
    assert state is not None and state.phase == PLAY
    position = state.position
    sources = [p for p in range(2, BAR + 1) if position.mine[p]]
    frm = data.draw(st.sampled_from(sources))
    to = data.draw(st.sampled_from([t for t in range(1, frm) if position.theirs[BAR - t] == 0] or [frm]))
    result = _moved(position, (frm, to))
    if to == frm or result in {p.position for p in legal_plays(position, state.dice)}:
        return
    log = log[: i + 1] + [Condone.of(result)]
    after = replay(log)
    text = export_sgf(log).split(")\n")[-2]
    white, black = _sgf_board(text)
    assert white[1:] == list(after.board[0][1:]) and black[1:] == list(after.board[1][1:])
    assert f"PL[{'B' if state.turn == 0 else 'W'}]C[" in text


GOLDEN_MAT = (
    "\n 3 point match\n\n Game 1\n Ann : 0                        Bob : 0\n"
    "  1) 31: Illegal play (3;0;0;0;1;Ann;Bob;0;0;0;1;0;0;-2;1;0;0;0;5;0;2;0;0;0;-5;5;0;0;0;-3;0;-5;0;0;0;0;2;0;3;1;)"
    " 65: 13/7 8/3 \n"
)


def test_mat_writes_a_condoned_play_as_an_illegal_play_line() -> None:
    from bgboard.match.mat import read_mat

    state = replay(_opened())
    log = _opened() + [Condone.of(_moved(state.position, (8, 2))), Roll((6, 5))]
    play = next(p for p in legal_plays(replay(log).position, (6, 5)) if p.notation == "13/7 8/3")
    log.append(Move.of(play))
    assert export_mat(log) == GOLDEN_MAT
    assert read_mat(GOLDEN_MAT) == log


def test_an_unreadable_illegal_play_line_names_the_line() -> None:
    from bgboard.match.mat import read_mat

    bad = GOLDEN_MAT.replace("(3;0;0;0;1;", "(3;0;0;0;0;")  # gnubg would swap the sides
    with pytest.raises(MatchRecordError, match="line 6: cannot read the position of an illegal play"):
        read_mat(bad)


# ------------------------------------------------- whole matches through gnubg
def condoned_match(length: int, seed: int, rate: float = 0.3) -> list:
    """A complete match (no cube) in which about ``rate`` of the plays are condonable
    illegal plays: one checker moved forwards by a random distance (hitting a blot it lands
    on, bearing off only from home) — deterministic by seed."""
    import random

    rng = random.Random(seed)
    log: list = [StartMatch(length, players=("Ann", "Bob"), illegal_plays="condone")]
    state = apply(None, log[0])
    while state.phase != MATCH_OVER:
        if state.phase == "opening":
            action = OpeningRoll((rng.randint(1, 6), rng.randint(1, 6)))
        elif state.phase == "turn":
            action = Roll((rng.randint(1, 6), rng.randint(1, 6)))
        elif state.phase == GAME_OVER:
            from bgboard.match import NextGame

            action = NextGame()
        else:
            action = _some_play(state, rng, rate)
        state = apply(state, action)
        log.append(action)
    return log


def _some_play(state, rng, rate: float):
    from bgboard.match import Pass

    position = state.position
    plays = legal_plays(position, state.dice)
    if rng.random() < rate:
        sources = [p for p in range(1, BAR + 1) if position.mine[p]]
        frm = rng.choice(sources)
        targets = _forward_targets(position, frm)
        if targets:
            to = rng.choice(targets)
            result = _forward(position, frm, to)
            if result not in {p.position for p in plays} and condone_refusal(position, result, state.checkers) is None:
                return Condone.of(result)
    if not plays:
        return Pass()
    return Move.of(plays[rng.randrange(len(plays))])


CONDONED = [(3, 1), (5, 2), (3, 3), (7, 4), (5, 5), (3, 6)]


@pytest.mark.slow
def test_matches_with_condoned_plays_read_back_and_replay() -> None:
    from bgboard.match.mat import read_mat

    condoned = 0
    for length, seed in CONDONED:
        log = condoned_match(length, seed)
        condoned += sum(isinstance(a, Condone) for a in log)
        ties = [a for a in log if isinstance(a, OpeningRoll) and a.dice[0] == a.dice[1]]
        assert read_mat(export_mat(log)) == [a for a in log if a not in ties]  # .mat has no tied rolls
        assert replay(log_from_json(log_to_json(log))) == replay(log)
        assert export_sgf(log).count("C[illegal play of") == sum(isinstance(a, Condone) for a in log)
    assert condoned >= 100  # the matches really exercise condoned plays


ORACLE_BOARD = '''
import json, sys
import gnubg
for c in ("set sound enable off", "set display off", "set confirm new off",
          "set player 0 human", "set player 1 human"):
    gnubg.command(c)
for name in sys.argv[1:]:
    gnubg.command("import mat " + name)
    print("@@" + json.dumps({"file": name, "board": gnubg.board(), "turn": gnubg.posinfo()["turn"]}), flush=True)
'''


def _gnubg(script: Path, *args: str) -> list[dict]:
    import json
    import subprocess
    import sys

    result = subprocess.run([sys.executable, str(script), *args], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    return [json.loads(line[2:]) for line in result.stdout.splitlines() if line.startswith("@@")]


@pytest.mark.slow
def test_gnubg_imports_condoned_plays_with_the_same_games_and_boards(tmp_path: Path) -> None:
    pytest.importorskip("gnubg", reason="the gnubg wheel cannot be imported on this platform")
    # whole matches: gnubg's games, winners and points equal ours
    files, expected = [], {}
    for length, seed in CONDONED:
        log = condoned_match(length, seed)
        path = tmp_path / f"c{length}_{seed}.mat"
        path.write_text(export_mat(log))
        files.append(str(path))
        expected[str(path)] = [(g.winner, g.points) for g in replay(log).games]
    oracle = Path(__file__).with_name("gnubg_oracle.py")
    for record in _gnubg(oracle, "import", *files):
        assert [(g["winner"], g["points"]) for g in record["games"]] == expected[record["file"]], record["file"]
    # matches cut at the opponent's next play after a condoned play: gnubg's board is ours
    script = tmp_path / "board.py"
    script.write_text(ORACLE_BOARD)
    files, states_at = [], {}
    for length, seed in CONDONED:
        log = condoned_match(length, seed)
        cuts = [i for i, a in enumerate(log) if isinstance(a, Condone)]
        for k, i in enumerate(cuts[:8]):
            end = next(j for j in range(i + 1, len(log)) if isinstance(log[j], (Move, Condone)) or j == len(log) - 1)
            if not isinstance(log[end], Move):
                continue
            cut = log[: end + 1]
            state = replay(cut)
            if state.phase not in ("turn",):
                continue
            path = tmp_path / f"cut{length}_{seed}_{k}.mat"
            path.write_text(export_mat(cut))
            files.append(str(path))
            states_at[str(path)] = state
    assert len(files) >= 20
    for record in _gnubg(script, *files):
        state = states_at[record["file"]]
        turn = record["turn"]
        assert turn == state.turn, record["file"]
        opponent, on_roll = record["board"]
        assert list(on_roll) == list(state.board[turn][1:]), record["file"]
        assert list(opponent) == list(state.board[1 - turn][1:]), record["file"]
