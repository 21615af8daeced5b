"""gnubg's 0-ply cubeful money equity (pure): ``Cl2CfMoney`` with Rick Janowski's
live-cube interpolation (``MoneyLive``), our own code for gnubg's eval.c formulas.
Equities are normalised to the cube (double/pass = +1); ``owner`` is ``centred``,
``mine`` (the player on roll) or ``theirs``."""

from __future__ import annotations

from typing import Sequence

__all__ = ["money_cubeful", "money_decision", "money_on_roll_value", "money_utility"]

_EPS = 0.0000001


def money_utility(probs: Sequence[float], owner: str = "centred", jacoby: bool = False) -> float:
    """gnubg's ``Utility`` at money: gammons count unless the Jacoby rule holds with a
    centred cube."""
    win, wg, wbg, lg, lbg = probs[:5]
    price = 0.0 if jacoby and owner == "centred" else 1.0
    return win * 2.0 - 1.0 + (wg - lg) * price + (wbg - lbg) * price


def _live(w: float, l: float, p: float, owner: str, jacoby: bool) -> float:
    if owner == "centred":
        tp = (l - 0.5) / (w + l + 0.5)
        cp = (l + 1.0) / (w + l + 0.5)
        if p < tp:
            return -1.0 if jacoby else -l + (-1.0 + l) * p / tp
        if p < cp:
            return -1.0 + 2.0 * (p - tp) / (cp - tp)
        return 1.0 if jacoby else 1.0 + (w - 1.0) * (p - cp) / (1.0 - cp)
    if owner == "mine":
        cp = (l + 1.0) / (w + l + 0.5)
        if p < cp:
            return -l + (1.0 + l) * p / cp
        return 1.0 + (w - 1.0) * (p - cp) / (1.0 - cp)
    tp = (l - 0.5) / (w + l + 0.5)
    if p < tp:
        return -l + (-1.0 + l) * p / tp
    return -1.0 + (w + 1.0) * (p - tp) / (1.0 - tp)


def money_cubeful(probs: Sequence[float], owner: str, x: float, jacoby: bool = False) -> float:
    """gnubg's ``Cl2CfMoney``: the player on roll's cubeful money equity."""
    win, wg, wbg, lg, lbg = probs[:5]
    dead = money_utility(probs, owner, jacoby)
    if win <= _EPS or win >= 1.0 - _EPS:
        return dead
    w = 1.0 + (wg + wbg) / win
    l = 1.0 + (lg + lbg) / (1.0 - win)
    return dead * (1.0 - x) + _live(w, l, win, owner, jacoby) * x


def _exact(ts: Sequence[float] | None, probs: Sequence[float], owner: str, x: float, jacoby: bool) -> float:
    """gnubg's ``CFMONEY`` in a two-sided bear-off (``ts``: cubeless, owned, centred,
    opponent owns), else ``Cl2CfMoney``."""
    if ts is not None:
        return ts[2] if owner == "centred" else (ts[1] if owner == "mine" else ts[3])
    return money_cubeful(probs, owner, x, jacoby)


def money_decision(probs: Sequence[float], owner: str, x: float, jacoby: bool = False,
                   ts: Sequence[float] | None = None) -> tuple[float, float, float]:
    """(no double, double/take, double/pass) for the player on roll at money."""
    nd = _exact(ts, probs, owner, x, jacoby)
    dt = 2.0 * _exact(ts, probs, "theirs", x, jacoby)
    return nd, dt, 1.0


def money_on_roll_value(probs: Sequence[float], owner: str, x: float, jacoby: bool = False,
                        ts: Sequence[float] | None = None) -> float:
    """gnubg's ``GetECF3`` at money: the player on roll doubles when it beats no double."""
    nd = _exact(ts, probs, owner, x, jacoby)
    if owner == "theirs":
        return nd
    dt = 2.0 * _exact(ts, probs, "theirs", x, jacoby)
    if dt >= nd and 1.0 >= nd:
        return 1.0 if dt >= 1.0 else dt
    return nd
