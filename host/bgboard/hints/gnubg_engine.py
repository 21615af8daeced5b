"""The gnubg-nn backend (GNU Backgammon's neural nets; GPL; x86-64 wheels only).

``gnubg_nn`` is imported only here.  Side convention (REFERENCE.md): a gnubg board is
``(opponent, player on roll)``, so the board after my play, with the opponent to roll,
is ``after.swap().to_gnubg()`` and ``probabilities`` answers for the *opponent*: the
mover's equity is minus the opponent's.  Cube advice uses
``evaluate_cube_decision(position_id, plies, -1, b"O", 1)`` after ``set.score``: match
play only (as gnubg-nn provides it).  Its three numbers are match winning chances; the
hint carries gnubg's ``mwc2eq`` slope (eval.c) so that cube errors are graded in
normalised money equity as gnubg grades them (``equity_scale``, see :func:`mwc_slope`).
"""

from __future__ import annotations

from typing import Any, Sequence

from bgboard.hints.engine import CubeHint, classify_cube, CubeState, EngineUnavailableError, UnsupportedError
from bgboard.hints.terminal import finished_equity
from bgboard.rules.position import Position


def _import() -> Any:
    try:
        import gnubg_nn
    except ImportError as exc:
        raise EngineUnavailableError(f"the gnubg-nn engine is not installed ({exc})") from exc
    return gnubg_nn


def cubeless_equity(probs: Sequence[float]) -> float:
    """Money equity from gnubg's (win, win gammon, win backgammon, lose gammon, lose backgammon)."""
    win, wg, wbg, lg, lbg = probs[:5]
    return 2.0 * win - 1.0 + wg + wbg - lg - lbg


def mwc_slope(mwc_win: float, mwc_lose: float) -> float | None:
    """gnubg's ``mwc2eq`` is linear: normalised equity = ``(2 mwc - (win + lose)) / (win -
    lose)``, so a difference of match winning chances times ``2 / (win - lose)`` is a
    difference of normalised equity (None when win and lose coincide)."""
    spread = mwc_win - mwc_lose
    return 2.0 / spread if spread > 1e-9 else None


class GnubgEngine:
    """gnubg-nn evaluating every resulting position at ``plies`` (0 = the raw net)."""

    name = "gnubg-nn"
    calibrated = True

    def __init__(self, plies: int = 0) -> None:
        self._gnubg = _import()
        self.plies = plies

    def equity_after(self, after: Position, checkers: int = 15) -> float:
        """Cubeless equity for the mover of ``after`` (the mover still ``mine``)."""
        done = finished_equity(after, checkers)
        if done is not None:
            return done
        board = after.swap().to_gnubg()
        probs = self._gnubg.probabilities([list(board[0]), list(board[1])], self.plies)
        return -cubeless_equity(probs)

    def rank(
        self, position: Position, dice: tuple[int, int], results: Sequence[Position], state: CubeState | None = None
    ) -> list[float]:
        """gnubg-nn's cubeless money equity of each resulting position (the mover's view);
        the cube and the score are ignored by this backend."""
        checkers = sum(position.mine)
        return [self.equity_after(after, checkers) for after in results]

    def cube(self, position: Position, state: CubeState) -> CubeHint:
        """gnubg-nn's cube decision in match play (centred cube, or mine)."""
        if state.money:
            raise UnsupportedError("the gnubg-nn engine gives cube advice in match play only: use bgsage for money games")
        g = self._gnubg
        if state.owner == "centred" and state.value != 1:
            raise UnsupportedError("the gnubg-nn engine needs a centred cube at 1 in match play")
        try:
            g.set.score(state.my_away, state.their_away, 1 if state.crawford else 0)
            # Owner letters as gnubg-nn's ``set.cube`` takes them; the owner did not change
            # the answers in our trials, the value does (it moves the match equities).
            g.set.cube(state.value, b"O" if state.owner == "mine" else b"C")
            pid = g.position_id([list(side) for side in position.to_gnubg()])
            double, take, _, nd, dt, dp = g.evaluate_cube_decision(pid, self.plies, -1, b"O", 1)
            lose = self._mwc_losing(state)
        finally:
            # The score is global in gnubg-nn and changes its move choice: back to money.
            g.set.cube(1, b"C")
            g.set.score(0, 0, 0)
        return CubeHint(
            engine=self.name,
            action=classify_cube(bool(double), bool(take), float(nd), float(dp)),
            take=bool(take),
            no_double=float(nd),
            double_take=float(dt),
            double_pass=float(dp),
            unit="match winning chance",
            # double/pass is the match winning chance of winning the cube's value: gnubg's
            # rMwcWin; rMwcLose comes from the same match equity table
            equity_scale=mwc_slope(float(dp), lose),
        )

    def _mwc_losing(self, state: CubeState) -> float:
        """The player on roll's match winning chance after losing the cube's value now
        (gnubg's ``getME`` for the opponent winning ``nCube`` points), from gnubg-nn's own
        match equity table (``equities.value`` answers ``2 mwc - 1``).  The next game is
        then a post-Crawford one only when the opponent was 1-away (the match is then
        lost) or the player on roll was (a dead cube, never asked here)."""
        their_away = state.their_away - state.value
        if their_away <= 0:
            return 0.0
        return (float(self._gnubg.equities.value(state.my_away, their_away)) + 1.0) / 2.0

    def close(self) -> None:
        """Nothing to release."""


class MatchEvaluator:
    """gnubg-nn's 0-ply **cubeful** equities at a match score, as gnubg's analysis grades
    plays and cube decisions (its ``FindnSaveBestMoves`` and ``FindCubeDecision``).

    gnubg values a play by the position it leaves, with the opponent on roll and able to
    turn the cube (eval.c's ``MakeCubePos`` and ``GetECF3``): the opponent's cubeful match
    winning chance is no double, or min(double/take, double/pass) when doubling is right
    for them.  gnubg-nn's ``evaluate_cube_decision`` gives those three chances at 0-ply;
    the mover's chance is one minus the opponent's, turned into normalised money equity
    (EMG) with gnubg's ``mwc2eq`` at the mover's cube (:func:`mwc_slope`).  Every value
    this class returns is the mover's EMG.  Money sessions: gnubg-nn gives no cubeful
    money equity, so plays are graded cubeless and cube decisions are not available
    (``cube`` returns None).

    ``top`` bounds how many plays (the best by gnubg-nn's own 0-ply choice at the score)
    are valued cubefully: the played one is always valued too.
    """

    name = "gnubg-nn"

    def __init__(self, engine: GnubgEngine | None = None, top: int = 8) -> None:
        self.engine = engine or GnubgEngine(0)
        self._g = self.engine._gnubg
        self.top = top
        self._set: tuple[int, int, int, int] | None = None
        self._opp_cache: dict[tuple[str, tuple[int, int, int, int], bool], float] = {}

    # ------------------------------------------------------------ match equities
    def _me(self, my_away: int, their_away: int) -> float:
        """Match winning chance at ``my_away``/``their_away`` (gnubg-nn's table)."""
        if my_away <= 0:
            return 1.0
        if their_away <= 0:
            return 0.0
        return (float(self._g.equities.value(my_away, their_away)) + 1.0) / 2.0

    def win_lose(self, state: CubeState) -> tuple[float, float]:
        """The mover's match winning chances after winning and after losing the cube's
        value now (gnubg's ``rMwcWin``/``rMwcLose``)."""
        return (self._me(state.my_away - state.value, state.their_away),
                self._me(state.my_away, state.their_away - state.value))

    def to_emg(self, mwc: float, state: CubeState) -> float:
        """gnubg's ``mwc2eq``: a match winning chance as normalised money equity."""
        win, lose = self.win_lose(state)
        if win - lose < 1e-9:
            return 0.0
        return (2.0 * mwc - (win + lose)) / (win - lose)

    def _score(self, on_roll_away: int, other_away: int, crawford: bool, value: int) -> None:
        if on_roll_away == 1 and other_away == 1:
            # a cube above 1 at 1-away each (a double the rules forbid, kept as written)
            # leaves gnubg-nn answering nonsense from then on; the cube is dead there anyway
            value = 1
        key = (on_roll_away, other_away, int(crawford), value)
        if self._set != key:
            # the cube first back to 1: gnubg-nn keeps its old score when the cube it
            # holds does not fit the new one
            self._g.set.cube(1, b"C")
            self._g.set.score(on_roll_away, other_away, int(crawford))
            # gnubg-nn takes a centred cube at 1 only, and its answers did not depend on
            # the owner in our trials (docs/analysis.md): an owned cube is set as "O"
            self._g.set.cube(value, b"C" if value == 1 else b"O")
            self._set = key

    def reset(self) -> None:
        """Back to money play (gnubg-nn's score is global)."""
        self._g.set.cube(1, b"C")
        self._g.set.score(0, 0, 0)
        self._set = None

    def _opponent_mwc(self, board: Sequence[Sequence[int]], state: CubeState) -> float:
        """The opponent's cubeful match winning chance with the opponent on roll on
        ``board`` (gnubg's order: the mover's side first, the opponent's second)."""
        # gnubg's GetDPEq for the opponent: not the Crawford game, the cube alive for
        # them (which also rules out a post-Crawford leader) and theirs or centred
        opp_may_double = not state.crawford and state.their_away > state.value and state.owner in ("centred", "theirs")
        pid = self._g.position_id([list(board[0]), list(board[1])])
        key = (pid, (state.their_away, state.my_away, int(state.crawford), state.value), opp_may_double)
        cached = self._opp_cache.get(key)
        if cached is not None:
            return cached
        self._score(state.their_away, state.my_away, state.crawford, state.value)
        _d, _t, _x, nd, dt, dp = self._g.evaluate_cube_decision(pid, 0, -1, b"O", 1)
        nd, dt, dp = float(nd), float(dt), float(dp)
        nd = self._uncapped(nd, dp, board, state.their_away, state.my_away, state.value)
        value = min(dt, dp) if opp_may_double and dt >= nd and dp >= nd else nd
        if len(self._opp_cache) > 200_000:
            self._opp_cache.clear()
        self._opp_cache[key] = value
        return value

    def _uncapped(self, nd: float, dp: float, board: Sequence[Sequence[int]], away: int, other: int, value: int) -> float:
        """gnubg-nn answers no double = double/pass in a position too good to double (it
        caps the player's chance at the cash); gnubg plays on for the gammon there.  The
        cubeless match winning chance of playing on (the outcomes' chances times the match
        equities after them) is then the better estimate of no double."""
        if nd < dp - 1e-6:
            return nd
        win, wg, wbg, lg, lbg = self._g.probabilities([list(board[0]), list(board[1])], 0)[:5]
        lose = 1.0 - win
        me = self._me
        cubeless = (
            (win - wg) * me(away - value, other)
            + (wg - wbg) * me(away - 2 * value, other)
            + wbg * me(away - 3 * value, other)
            + (lose - lg) * me(away, other - value)
            + (lg - lbg) * me(away, other - 2 * value)
            + lbg * me(away, other - 3 * value)
        )
        return max(nd, cubeless)

    def _finished(self, after: Position, state: CubeState) -> float | None:
        """The mover's EMG when ``after`` ends the game (the mover bore off)."""
        if sum(after.mine[1:]) != 0:
            return None
        checkers = sum(after.mine)
        done = finished_equity(after, checkers)
        points = int(round(abs(done))) if done is not None else 1
        if state.money:
            return float(points)
        return self.to_emg(self._me(state.my_away - points * state.value, state.their_away), state)

    def after_value(self, after: Position, state: CubeState) -> float:
        """The mover's cubeful EMG of ``after`` (the mover still ``mine``, the opponent to
        roll next)."""
        done = self._finished(after, state)
        if done is not None:
            return done
        board = after.swap().to_gnubg()
        if state.money:
            probs = self._g.probabilities([list(board[0]), list(board[1])], 0)
            return -cubeless_equity(probs)
        return self.to_emg(1.0 - self._opponent_mwc(board, state), state)

    def plays(
        self, position: Position, dice: tuple[int, int], state: CubeState, played: Position | None = None
    ) -> tuple[int, list[tuple[Position, float]]]:
        """(the number of distinct legal plays, [(resulting position, the mover's EMG)]
        best first) for ``dice``; the candidates are gnubg-nn's best ``top`` at the score
        and ``played``."""
        board = position.to_gnubg()
        if not state.money:
            self._score(state.my_away, state.their_away, state.crawford, state.value)
        found = self._g.best_move([list(board[0]), list(board[1])], dice[0], dice[1], 0, list=1)
        listing = found[1] if isinstance(found, tuple) and len(found) > 1 else ()
        count = len(listing)
        if count == 0:
            return 0, []
        checkers = sum(position.mine)
        results: dict[Position, float] = {}
        chosen = [Position.from_gnubg(self._g.board_from_position_key(item[0]), checkers).swap() for item in listing[: self.top]]
        if played is not None and played not in chosen:
            chosen.append(played)
        for after in chosen:
            results[after] = self.after_value(after, state)
        ranked = sorted(results.items(), key=lambda item: -item[1])
        return count, ranked

    def best_value(self, position: Position, dice: tuple[int, int], state: CubeState) -> float:
        """The mover's EMG after gnubg-nn's best play of ``dice`` at the score (gnubg's
        luck: the best play of a roll), or the value of passing when no play exists."""
        board = position.to_gnubg()
        if not state.money:
            self._score(state.my_away, state.their_away, state.crawford, state.value)
        found = self._g.best_move([list(board[0]), list(board[1])], dice[0], dice[1], 0, list=1)
        listing = found[1] if isinstance(found, tuple) and len(found) > 1 else ()
        if not listing:
            return self.after_value(position, state)
        checkers = sum(position.mine)
        return max(self.after_value(Position.from_gnubg(self._g.board_from_position_key(item[0]), checkers).swap(), state)
                   for item in listing[:2])

    def cube(self, position: Position, state: CubeState) -> tuple[float, float, float] | None:
        """(no double, double/take, double/pass) in the doubler's EMG, the doubler on
        roll before rolling; None in a money session (gnubg-nn gives no money cube)."""
        if state.money:
            return None
        board = position.to_gnubg()
        pid = self._g.position_id([list(board[0]), list(board[1])])
        self._score(state.my_away, state.their_away, state.crawford, state.value)
        _d, _t, _x, nd, dt, dp = self._g.evaluate_cube_decision(pid, 0, -1, b"O", 1)
        if dt == 0.0 and dp == 0.0:
            # gnubg-nn answers zeros where the cube is dead (both 1-away): doubling then
            # changes nothing but the stakes, valued cubeless as gnubg does
            nd = self._uncapped(0.0, 0.0, board, state.my_away, state.their_away, state.value)
            dt = self._uncapped(0.0, 0.0, board, state.my_away, state.their_away, 2 * state.value)
        else:
            nd = self._uncapped(float(nd), float(dp), board, state.my_away, state.their_away, state.value)
        return self.to_emg(nd, state), self.to_emg(float(dt), state), 1.0

    def close(self) -> None:
        """Back to money play and drop the cache."""
        self.reset()
        self._opp_cache.clear()



#: gnubg-nn's position classes (``classify``) by the names gnubg's cube efficiency uses.
_CLASSES = {0: "over", 1: "bearoff", 2: "bearoff", 3: "race", 4: "crashed", 5: "contact"}


def _pips(side: Sequence[int]) -> int:
    return sum((i + 1) * n for i, n in enumerate(side))


class RawEvaluations:
    """gnubg-nn's 0-ply cubeless evaluations with what gnubg's cube arithmetic needs (the
    position class and the pip count of the player on roll), for the analysis
    (:mod:`bgboard.analysis.evaluators` turns them into cubeful match equities).  Nothing
    here touches gnubg-nn's global score or cube."""

    name = "gnubg-nn"

    def __init__(self) -> None:
        self._g = _import()

    def on_roll(self, position: Position) -> tuple[tuple[float, ...], str, int]:
        """(probabilities of the player on roll, class, their pips) for ``position``."""
        board = position.to_gnubg()
        lists = [list(board[0]), list(board[1])]
        probs = tuple(float(p) for p in self._g.probabilities(lists, 0)[:5])
        return probs, _CLASSES.get(int(self._g.classify(lists)), "contact"), _pips(board[1])

    def candidates(self, position: Position, dice: tuple[int, int]) -> list[tuple[Position, tuple[float, ...], str, int]]:
        """Every distinct play of ``dice`` in one call: (the position it leaves, the mover
        still ``mine``; the opponent's probabilities on roll there; the class; the
        opponent's pips).  Empty when no play exists."""
        board = position.to_gnubg()
        found = self._g.best_move([list(board[0]), list(board[1])], dice[0], dice[1], 0, list=1)
        listing = found[1] if isinstance(found, tuple) and len(found) > 1 else ()
        checkers = sum(position.mine)
        out = []
        for key, _move, probs, _score in listing:
            after_board = self._g.board_from_position_key(key)  # (mover, opponent on roll)
            lists = [list(after_board[0]), list(after_board[1])]
            after = Position.from_gnubg(after_board, checkers).swap()
            kind = _CLASSES.get(int(self._g.classify(lists)), "contact")
            values = tuple(float(p) for p in probs[:5])
            if kind == "bearoff" or not all(0.0 <= v <= 1.0 for v in values):
                # the listing's numbers for bear-off database positions are not to be
                # trusted (we met values like -2e19): evaluate those on their own
                values = tuple(float(p) for p in self._g.probabilities(lists, 0)[:5])
            out.append((after, values, kind, _pips(after_board[1])))
        return out

    def close(self) -> None:
        """Nothing to release."""
