"""Why a seed variant refuses a play, in one sentence naming the rule (pure code).

Backgammon's :mod:`bgboard.rules.explain` relaxes each rule in turn and names the first one
broken on the closest way to the position shown; this module does the same over a
variant's single steps.  Whether a step is legal is decided in one place only — the
variant's own ``steps_from`` — and a step it does not offer is named by the variant's
``why_not`` (``plakoto.why_not``, ``fevga.why_not``, ``race.why_not``), each sentence
next to the step rule it names.  Only refused plays come here: the legal path never
computes a reason.

* :func:`refuse_play`: a whole result (the CLI's parsed play, the board's reading) that no
  legal play gives: the first rule broken on the way that breaks fewest, else the dice
  rules (as many dice as possible, the larger die, Fevga's prime rule, a game that ended in
  the middle of the turn).
* :func:`refuse_move`: one written move ``frm/to`` that cannot be made with the dice left.

Anti plays backgammon's moves, so its refusals are backgammon's own (:func:`explain`).
"""

from __future__ import annotations

from typing import Callable, Iterator, Sequence

from bgboard.rules.play import Play
from bgboard.rules.board import Board
from bgboard.rules.explain import (BOTH_DICE, _many, _mismatch, cannot_pass, explain,  # pyright: ignore[reportPrivateUsage]
                                   larger_die, not_a_play)
from bgboard.language import Phrase
from bgboard.rules.position import BAR, OFF
from bgboard.rules.search import StepRules, search

#: The sentence for a move no rule sentence names (counted by benchmarks/variant_refusals.py).
GENERIC_STEP = Phrase("that move is not allowed here")
#: A step after the game ended in the middle of the turn (VARIANTS.md: Plakoto's mother
#: checker; the last checker borne off).
ENDED = Phrase("the game ended in the middle of the turn: no checker moves after that")
_RESERVE = 26  # Race's unentered checkers, behind the bar in the search's order



def _key(board: Board) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """What a result is compared on: both sides' counts and the mover's reserve (pins follow
    from the history, which the reading cannot show)."""
    return board.mine, board.theirs, board.reserve[0]


def hand_move(game: StepRules, board: Board, frm: int, to: int) -> Board:
    """The board after my checker on ``frm`` is put on ``to`` whatever the rules say, as a
    hand would (hits where the game hits)."""
    m = list(board.mine)
    reserve = board.reserve
    if frm == BAR and not m[BAR]:
        reserve = (reserve[0] - 1, reserve[1])
    else:
        m[frm] -= 1
    m[to] += 1
    th = board.theirs
    if to != OFF and game.hits and th[BAR - to] == 1:
        t = list(th)
        t[BAR - to] = 0
        t[BAR] += 1
        th = tuple(t)
    pins = (board.pins[0] & ~(1 << frm), board.pins[1])
    return Board(tuple(m), th, pins, reserve)


def steps_any(game: StepRules, board: Board, die: int) -> Iterator[tuple[int, int, Board, str | None]]:
    """Every step a hand could make with ``die`` — each of my checkers ``die`` pips on, or
    off — as ``(frm, to, board after, None if legal else the rule it breaks)``."""
    legal = {(s.frm, s.to): after for s, after in game.steps_from(board, die)}
    me = board.mine
    sources = [BAR] if me[BAR] or board.reserve[0] else []
    sources += [p for p in range(24, 0, -1) if me[p]]
    for frm in sources:
        to = max(frm - die, OFF)
        after = legal.get((frm, to))
        if after is not None:
            yield frm, to, after, None
        else:
            yield frm, to, hand_move(game, board, frm, to), game.why_not(board, frm, die) or GENERIC_STEP


def _cum_goal(target: Board) -> list[int]:
    side = list(target.mine) + [target.reserve[0]]
    cum = [0] * 28
    for p in range(_RESERVE, -1, -1):
        cum[p] = cum[p + 1] + side[p]
    return cum


def _search(game: StepRules, board: Board, dice: tuple[int, ...], target: Board) -> tuple[int, str | None, int] | None:
    """The closest way to ``target``: (rules broken, first broken rule, dice used)."""
    goal = _key(target)
    goal_cum = _cum_goal(target)
    memo: dict[tuple[Board, tuple[int, ...]], tuple[int, str | None, int] | None] = {}
    ends = game.ends_mid_turn

    def reachable(b: Board) -> bool:
        cum = b.reserve[0]
        if cum < goal_cum[_RESERVE]:
            return False
        for p in range(BAR, 0, -1):
            cum += b.mine[p]
            if cum < goal_cum[p]:
                return False
        return True

    def best(b: Board, rest: tuple[int, ...]) -> tuple[int, str | None, int] | None:
        key = (b, rest)
        if key in memo:
            return memo[key]
        found: tuple[int, str | None, int] | None = (0, None, 0) if _key(b) == goal else None
        over = ends and bool(rest) and game.outcome(b) is not None
        for die in sorted(set(rest), reverse=True):
            left = list(rest)
            left.remove(die)
            rest2 = tuple(left)
            for _frm, _to, after, broken in steps_any(game, b, die):
                if over:
                    broken = ENDED
                if not reachable(after):
                    continue
                below = best(after, rest2)
                if below is None:
                    continue
                candidate = (below[0] + (broken is not None), broken or below[1], below[2] + 1)
                if found is None or (candidate[0], -candidate[2]) < (found[0], -found[2]):
                    found = candidate
        memo[key] = found
        return found

    return best(board, dice)


def _count_problem(board: Board, result: Board) -> str | None:
    for mine, before, after in ((True, board.checkers()[0], result.checkers()[0]),
                                (False, board.checkers()[1], result.checkers()[1])):
        if before != after:
            if mine:
                return Phrase("%(expected)d checkers expected for you, %(seen)d seen",
                              expected=before, seen=after)
            return Phrase("%(expected)d checkers expected for the opponent, %(seen)d seen",
                          expected=before, seen=after)
    if result.theirs != board.theirs and not (board.theirs[BAR] < result.theirs[BAR]):
        return Phrase("the opponent's checkers must not move")
    return None


def refuse_play(game: StepRules, board: Board, dice: tuple[int, int], result: Board, plays: Sequence[Play[Board]]) -> str:
    """One sentence on why ``result`` is not among ``plays`` (the legal plays of ``dice``
    from ``board``, not empty)."""
    d1, d2 = dice
    if game.backgammon_moves:
        return explain(board.plain(), dice, result.plain()) or not_a_play(d1, d2)
    problem = _count_problem(board, result)
    if problem:
        return problem
    rolled = (d1,) * 4 if d1 == d2 else (d1, d2)
    found = _search(game, board, rolled, result)
    if found is None:
        return _mismatch(board.plain(), result.plain(), d1, d2)
    broken, first, used = found
    if broken:
        return first or GENERIC_STEP
    if used == 0:
        return cannot_pass(d1, d2)
    if game.filter_plays is not None and game.prime_rule:
        raw = search(board, (d1, d2), game.steps_from, _ended_in(game) if game.ends_mid_turn else _never)
        if any(_key(p.position) == _key(result) for p in raw):
            return game.prime_rule
    most = max(len(p.steps) for p in plays)
    if used < most:
        if d1 == d2:
            return _many(most, d1, used)
        return BOTH_DICE
    if d1 != d2 and used == 1:
        return larger_die(d1, d2)
    return not_a_play(d1, d2)


def refuse_move(game: StepRules, board: Board, frm: int, to: int, left: list[int]) -> str:
    """Why one checker cannot go ``frm`` to ``to`` by single steps of the dice ``left``
    (the sentence follows the move's text, as in "13/7: ...")."""
    if frm == BAR and not board.mine[BAR] and not board.reserve[0]:
        return Phrase("there is no checker of yours on the bar or waiting to enter")
    if frm != BAR and not board.mine[frm]:
        return Phrase("there is no checker of yours on point %(point)d", point=frm)
    best: tuple[int, str | None] | None = None

    def walk(b: Board, at: int, rest: list[int], broken: int, first: str | None) -> None:
        nonlocal best
        for die in sorted(set(rest), reverse=True):
            for s, t, after, why in steps_any(game, b, die):
                if s != at:
                    continue
                n, f = broken + (why is not None), first or why
                r = rest.copy()
                r.remove(die)
                if t == to:
                    if best is None or n < best[0]:
                        best = (n, f)
                elif t != OFF and t > to and r:
                    walk(after, t, r, n, f)

    walk(board, frm, left, 0, None)
    if best is not None and best[1]:
        return best[1]
    pips = frm - to
    values = sorted(set(left), reverse=True)  # one or two values: the dice left of one roll
    dice = (Phrase("%(high)d or %(low)d", high=values[0], low=values[-1]) if len(values) > 1
            else " or ".join(str(d) for d in values))
    if best is None:
        return Phrase("it moves %(pips)d pips: no die left (%(dice)s) nor a sum of them moves that far",
                      pips=pips, dice=dice)
    return Phrase("cannot be played with the dice left (%(dice)s) in this order", dice=dice)


def _never(board: Board) -> bool:
    return False


def _ended_in(game: StepRules) -> Callable[[Board], bool]:
    return lambda board: game.outcome(board) is not None


__all__ = ["ENDED", "GENERIC_STEP", "hand_move", "refuse_move", "refuse_play", "steps_any"]
