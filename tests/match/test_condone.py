"""Condoned illegal plays: the rule-set option, which plays may be condoned, records."""

from __future__ import annotations

from dataclasses import replace

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
from bgboard.rules import BAR, OFF, Position, legal_plays

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
    targets = [t for t in range(1, frm) if position.theirs[BAR - t] < 2]
    if not any(position.mine[7:]):
        targets.append(OFF)
    if not targets:
        return
    to = data.draw(st.sampled_from(targets))
    mine = list(position.mine)
    theirs = list(position.theirs)
    mine[frm] -= 1
    mine[to] += 1
    if to != OFF and theirs[BAR - to] == 1:  # a blot is hit
        theirs[BAR - to] = 0
        theirs[BAR] += 1
    assert condone_refusal(position, Position(tuple(mine), tuple(theirs)), checkers) is None


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


def test_mat_refuses_a_match_with_a_condoned_play() -> None:
    state = replay(_opened())
    log = _opened() + [Condone.of(_moved(state.position, (8, 2)))]
    with pytest.raises(MatchRecordError, match="cannot hold the condoned illegal play of game 1: save the match as SGF"):
        export_mat(log)
