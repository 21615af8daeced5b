"""gnubg's 0-ply cubeful match equity, from cubeless probabilities (pure).

Our own code for the formulas of gnubg's eval.c and matchequity.c (GPL, read to learn the
definitions): ``getME`` (match equity after a result), the gammon prices, ``Utility``,
``mwc2eq``/``eq2mwc``, ``GetPoints`` (live-cube cash points, cube level by cube level),
``Cl2CfMatchCentered``/``Owned``/``Unavailable`` (Joern Thyssen's generalisation of
Janowski's interpolation between the dead-cube and the live-cube match winning chance,
weighted by the cube efficiency ``x``), ``EvalEfficiency`` at 0-ply, and ``GetECF3`` (the
player on roll doubles when double/take and double/pass both beat no double).  The table is
gnubg's default, Kazaross XG2 (:mod:`bgboard.analysis.met`).

A :class:`Cube` is gnubg's ``cubeinfo`` with scores counted as "away": player 0 is the one
the probabilities are for when ``move`` is 0.  Probabilities are gnubg's five outputs for
the player on roll: (win, win gammon, win backgammon, lose gammon, lose backgammon), the
gammons including the backgammons.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Sequence, Union

from bgboard.analysis.met import POST, PRE
from bgboard.errors import InputError

__all__ = [
    "Cube",
    "MAX_AWAY",
    "cube_efficiency",
    "cubeful_mwc",
    "decision",
    "eq2mwc",
    "match_equity",
    "mwc2eq",
    "on_roll_value",
    "ts_efficiency",
    "utility",
]

#: The longest match the table covers.
MAX_AWAY = len(PRE)
Probs = Sequence[float]
#: A cube efficiency, or how to find it for a cube position (two-sided bear-offs).
Efficiency = Union[float, Callable[["Cube"], float]]

# gnubg's getMEMultiple result indices (matchequity.h): wins/losses by 1, 2, 3, 4, 6 cubes
_NDW, _DTW, _NDWB, _DTWG, _DTWB = 0, 1, 2, 3, 4
_NDL, _DTL, _NDLB, _DTLG, _DTLB = 5, 6, 7, 8, 9
_MULT = (1, 2, 3, 4, 6)


@dataclass(frozen=True, slots=True)
class Cube:
    """gnubg's cube information: ``away`` = (player 0, player 1) points needed (≥ 1),
    ``value`` the cube, ``owner`` −1 centred / 0 / 1, ``move`` the player on roll,
    ``crawford`` this is the Crawford game."""

    away: tuple[int, int]
    value: int
    owner: int
    move: int
    crawford: bool

    @classmethod
    def checked(cls, away: tuple[int, int], value: int, owner: int, move: int, crawford: bool) -> "Cube":
        """A cube whose score the table covers (one sentence otherwise); the plain
        constructor is the unchecked fast path."""
        if max(away) > MAX_AWAY or min(away) < 1:
            raise InputError(f"the analysis covers matches up to {MAX_AWAY} points (gnubg's Kazaross-XG2 match equity table)")
        return cls(away, value, owner, move, crawford)

    def swapped(self) -> "Cube":
        """The same cube with the other player on roll."""
        return Cube(self.away, self.value, self.owner, 1 - self.move, self.crawford)

    def doubled(self) -> "Cube":
        """The cube after the player on roll doubles and the opponent takes it."""
        return Cube(self.away, 2 * self.value, 1 - self.move, self.move, self.crawford)


def _post_game(cube: Cube) -> bool:
    """gnubg's getME: the next game is post-Crawford (this is the Crawford game, or
    someone is 1-away already)."""
    return cube.crawford or cube.away[0] == 1 or cube.away[1] == 1


@lru_cache(maxsize=65536)
def _me_after(a0: int, a1: int, post: bool, player: int) -> float:
    """``player``'s match winning chance at away (a0, a1) after a game (``post``: the next
    game is post-Crawford when someone is 1-away)."""
    n0, n1 = a0 - 1, a1 - 1
    if n0 < 0:
        return 0.0 if player else 1.0
    if n1 < 0:
        return 1.0 if player else 0.0
    if post:
        if n0 == 0:  # player 0 leads (1-away)
            return POST[n1] if player else 1.0 - POST[n1]
        if n1 == 0:
            return 1.0 - POST[n0] if player else POST[n0]
    return 1.0 - PRE[n0][n1] if player else PRE[n0][n1]


def match_equity(cube: Cube, player: int, points: int, winner: int) -> float:
    """gnubg's ``getME``: ``player``'s chance after ``winner`` wins ``points``."""
    a0 = cube.away[0] - (points if winner == 0 else 0)
    a1 = cube.away[1] - (points if winner == 1 else 0)
    return _me_after(a0, a1, _post_game(cube), player)


def _win_lose(cube: Cube) -> tuple[float, float]:
    return _win_lose_at(cube.away, cube.value, cube.move, cube.crawford)


@lru_cache(maxsize=4096)
def _win_lose_at(away: tuple[int, int], value: int, move: int, crawford: bool) -> tuple[float, float]:
    cube = Cube(away, value, -1, move, crawford)
    return match_equity(cube, move, value, move), match_equity(cube, move, value, 1 - move)


def mwc2eq(mwc: float, cube: Cube) -> float:
    """gnubg's ``mwc2eq``: a match winning chance of the player on roll as normalised money
    equity at the cube's value."""
    win, lose = _win_lose(cube)
    return (2.0 * mwc - (win + lose)) / (win - lose)


def eq2mwc(eq: float, cube: Cube) -> float:
    """gnubg's ``eq2mwc`` (the inverse of :func:`mwc2eq`)."""
    win, lose = _win_lose(cube)
    return 0.5 * (eq * (win - lose) + (win + lose))


@lru_cache(maxsize=65536)
def _gammon_prices(a0: int, a1: int, value: int) -> tuple[float, float, float, float]:
    """gnubg's ``getGammonPrice`` for player 0 at away (a0, a1) and the cube's value (as
    gnubg's tables hold them: computed as if not the Crawford game)."""
    cube = Cube((a0, a1), value, -1, 0, False)
    win = match_equity(cube, 0, value, 0)
    wg = match_equity(cube, 0, 2 * value, 0)
    wbg = match_equity(cube, 0, 3 * value, 0)
    lose = match_equity(cube, 0, value, 1)
    lg = match_equity(cube, 0, 2 * value, 1)
    lbg = match_equity(cube, 0, 3 * value, 1)
    centre = (win + lose) / 2.0
    if abs(win - centre) <= 1e-7:
        return 0.0, 0.0, 0.0, 0.0
    g0 = (wg - centre) / (win - centre) - 1.0
    g1 = (centre - lg) / (win - centre) - 1.0
    b0 = (wbg - centre) / (win - centre) - (g0 + 1.0)
    b1 = (centre - lbg) / (win - centre) - (g1 + 1.0)
    return max(g0, 0.0), max(g1, 0.0), max(b0, 0.0), max(b1, 0.0)


def utility(probs: Probs, cube: Cube) -> float:
    """gnubg's ``Utility`` in match play: the cubeless equity of the player on roll."""
    win, wg, wbg, lg, lbg = probs[:5]
    g = _gammon_prices(cube.away[0], cube.away[1], cube.value)
    me, other = cube.move, 1 - cube.move
    return win * 2.0 - 1.0 + wg * g[me] - lg * g[other] + wbg * g[2 + me] - lbg * g[2 + other]


@lru_cache(maxsize=65536)
def _me_multiple(a0: int, a1: int, value: int, post: bool, prime0: int, prime1: int) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """gnubg's ``getMEMultiple``: each player's chance after each result (wins and losses
    by 1, 2, 3, 4, 6 times ``value``, then the same for ``prime0`` and ``prime1`` when > 0),
    both arrays with the player's own wins first."""
    cubes = [value] + ([prime0] if prime0 > 0 else []) + ([prime1] if prime1 > 0 else [])
    p0: list[float] = []
    p1: list[float] = []
    for c in cubes:
        wins0 = [_me_after(a0 - m * c, a1, post, 0) for m in _MULT]
        wins1 = [_me_after(a0, a1 - m * c, post, 1) for m in _MULT]
        p0 += wins0 + [1.0 - w for w in wins1]
        p1 += wins1 + [1.0 - w for w in wins0]
    return tuple(p0), tuple(p1)


def _prime(i: int, j: int, value: int) -> int:
    """gnubg's ``GetCubePrimeValue`` (i, j: points needed minus one)."""
    return 2 * value if i < 2 * value and j >= 2 * value else value


def _ratios(probs: Probs) -> tuple[float, float, float, float]:
    """(gammon, backgammon) rates of the winner and of the loser (gnubg's rG0, rBG0, rG1, rBG1)."""
    win, wg, wbg, lg, lbg = probs[:5]
    g0, b0 = ((wg - wbg) / win, wbg / win) if win > 0.0 else (0.0, 0.0)
    g1, b1 = ((lg - lbg) / (1.0 - win), lbg / (1.0 - win)) if win < 1.0 else (0.0, 0.0)
    return g0, b0, g1, b1


@lru_cache(maxsize=4096)
def _levels(a0: int, a1: int, value: int, post: bool) -> tuple[tuple[bool, tuple[float, ...], tuple[float, ...]], ...]:
    """The cube levels ``GetPoints`` walks (the dead cube's first, down to ``value``): per
    level whether the doubled cube is dead and both players' match equity results."""
    i, j = a0 - 1, a1 - 1
    dead = value
    while i >= 2 * dead and j >= 2 * dead:
        dead *= 2
    levels: list[tuple[bool, tuple[float, ...], tuple[float, ...]]] = []
    v = dead
    while v >= value:
        res = _me_multiple(a0, a1, v, post, _prime(i, j, v), _prime(j, i, v))
        levels.append((i < 2 * v or j < 2 * v, res[0], res[1]))
        v //= 2
    return tuple(levels)


def _cash_points(ratios: tuple[float, float, float, float], cube: Cube) -> tuple[float, float]:
    """gnubg's ``GetPoints``: each player's live-cube cash point at the cube's value, from
    the winner's and the loser's gammon and backgammon rates (:func:`_ratios`)."""
    g0, b0, g1, b1 = ratios
    if cube.move == 0:
        arg, arbg = (g0, g1), (b0, b1)
    else:
        arg, arbg = (g1, g0), (b1, b0)
    above = (0.0, 0.0)
    for dead, r0, r1 in _levels(cube.away[0], cube.away[1], cube.value, _post_game(cube)):
        points = [0.0, 0.0]
        for k, r in ((0, r0), (1, r1)):
            o = 1 - k
            win_single = 1.0 - arg[k] - arbg[k]
            if dead:
                base = 10 if k == 0 else 20  # the prime cube's results of player k
                dtl = (1.0 - arg[o] - arbg[o]) * r[base + 6] + arg[o] * r[base + 8] + arbg[o] * r[base + 9]
                dtw = win_single * r[base + 1] + arg[k] * r[base + 3] + arbg[k] * r[base + 4]
                points[k] = (dtl - r[0]) / (dtl - dtw)
            else:
                dtw = win_single * r[_DTW] + arg[k] * r[_DTWG] + arbg[k] * r[_DTWB]
                points[k] = 1.0 - above[o] * (r[0] - dtw) / (r[_DTL] - dtw)
        above = (points[0], points[1])
    return above


def _dead_cube(cube: Cube) -> bool:
    """gnubg's ``fDoCubeful`` is false: the cube is dead (both would win the match by
    winning its value), -2/-2, or the Crawford game."""
    return (cube.away[0] <= cube.value and cube.away[1] <= cube.value) or cube.away == (2, 2) or cube.crawford


def cubeful_mwc(probs: Probs, cube: Cube, x: float) -> float:
    """gnubg's ``Cl2CfMatch``: the 0-ply cubeful match winning chance of the player on roll
    (``probs`` are theirs) with cube efficiency ``x``."""
    dead = eq2mwc(utility(probs, cube), cube)
    if _dead_cube(cube):
        return dead
    me = cube.move
    ratios = _ratios(probs)
    g0, b0, g1, b1 = ratios
    win = probs[0]
    cp = _cash_points(ratios, cube)
    res = _me_multiple(cube.away[0], cube.away[1], cube.value, _post_game(cube), 0, 0)[me]
    cash, opp_cash = res[_NDW], res[_NDL]
    lose_all = (1.0 - g1 - b1) * res[_NDL] + g1 * res[_DTL] + b1 * res[_NDLB]
    win_all = (1.0 - g0 - b0) * res[_NDW] + g0 * res[_DTW] + b0 * res[_NDWB]
    if cube.owner == -1:
        opp_tg, tg = 1.0 - cp[1 - me], cp[me]
        if win <= opp_tg:
            live = lose_all + (opp_cash - lose_all) * win / opp_tg if opp_tg > 0.0 else lose_all
        elif win < tg:
            live = opp_cash + (cash - opp_cash) * (win - opp_tg) / (tg - opp_tg)
        else:
            live = cash + (win_all - cash) * (win - tg) / (1.0 - tg) if tg < 1.0 else win_all
    elif cube.owner == me:
        tg = cp[me]
        if win <= tg:
            live = lose_all + (cash - lose_all) * win / tg if tg > 0.0 else lose_all
        else:
            live = cash + (win_all - cash) * (win - tg) / (1.0 - tg) if tg < 1.0 else win_all
    else:
        opp_tg = 1.0 - cp[1 - me]
        if win <= opp_tg:
            live = lose_all + (opp_cash - lose_all) * win / opp_tg if opp_tg > 0.0 else lose_all
        else:
            live = opp_cash + (win_all - opp_cash) * (win - opp_tg) / (1.0 - opp_tg)
    return dead * (1.0 - x) + live * x


def cube_efficiency(kind: str, pips_on_roll: int) -> float:
    """gnubg's ``EvalEfficiency`` at 0-ply for a position class (``over``, ``ts`` the
    two-sided bear-off database, ``bearoff``, ``race``, ``crashed``, ``contact``) and the
    pip count of the player on roll."""
    if kind == "over":
        return 0.0
    if kind in ("bearoff", "ts"):
        return 0.6  # rOSCubeX; rTSCubeX (the upper bound in a two-sided bear-off)
    if kind == "race":
        return min(0.8, max(0.6, pips_on_roll * 0.0025 + 0.60))
    return 0.76  # rContactX / rCrashedX at 0-ply


def may_double(cube: Cube) -> bool:
    """gnubg's ``GetDPEq``: the player on roll may double."""
    me = cube.move
    post_crawford = not cube.crawford and (cube.away[0] == 1 or cube.away[1] == 1)
    return (not cube.crawford and cube.away[me] > cube.value
            and not (post_crawford and cube.away[me] == 1)
            and cube.owner in (-1, me))


def _x(x: Efficiency, cube: Cube) -> float:
    return x(cube) if callable(x) else x


def ts_efficiency(ts: Sequence[float], probs: Probs, cube: Cube, limit: float = 0.6) -> float:
    """gnubg's cube efficiency in a two-sided bear-off (EvaluatePositionCubeful4): the
    exact cubeful money equity ``ts`` (cubeless, owned, centred, opponent owns) placed
    between the cubeless one and Janowski's live cube, within 0 .. ``limit`` (rTSCubeX)."""
    from bgboard.analysis.money import money_cubeful

    owner = "centred" if cube.owner == -1 else ("mine" if cube.owner == cube.move else "theirs")
    exact = ts[2] if owner == "centred" else (ts[1] if owner == "mine" else ts[3])
    cubeless = ts[0]
    live = money_cubeful(probs, owner, 1.0)
    if abs(cubeless - live) <= 0.0001:
        return limit
    return min(limit, max(0.0, (exact - cubeless) / (live - cubeless)))


def decision(probs: Probs, cube: Cube, x: Efficiency) -> tuple[float, float, float]:
    """(no double, double/take, double/pass) match winning chances of the player on roll
    (gnubg's 0-ply ``GeneralCubeDecision``)."""
    nd = cubeful_mwc(probs, cube, _x(x, cube))
    dt = cubeful_mwc(probs, cube.doubled(), _x(x, cube.doubled()))
    dp = match_equity(cube, cube.move, cube.value, cube.move)
    return nd, dt, dp


def on_roll_value(probs: Probs, cube: Cube, x: Efficiency) -> float:
    """The cubeful match winning chance of the player on roll who may double first
    (gnubg's ``GetECF3``): double when double/take and double/pass both beat no double."""
    nd = cubeful_mwc(probs, cube, _x(x, cube))
    if not may_double(cube):
        return nd
    dt = cubeful_mwc(probs, cube.doubled(), _x(x, cube.doubled()))
    dp = match_equity(cube, cube.move, cube.value, cube.move)
    if dt >= nd and dp >= nd:
        return dp if dt >= dp else dt
    return nd
