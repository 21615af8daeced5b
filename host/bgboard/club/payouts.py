"""Entry fees and payouts (pure): the pot, the split between places, ties, rounding.

Money is counted in cents (``int``), never in floats.  The pot is the entries times the fee,
less the rake (a percentage of it, rounded to the cent, half up).  A payout is a list of
percentages of the pot by place, one list per flight (the main flight's and, in a double
elimination, the consolation's); together they add up to 100.

Players who tie share the places they cover: two players tied for third in a 50/30/15/5
split share 15 + 5 and get 10 each.  Each amount is rounded down to the director's unit
(``round_cents``: 100 = whole units, 1 = cents); what the rounding leaves over (less than
one unit per payee) and the money of places nobody reached goes to the first payee of the
first flight, so the amounts always add up to the pot exactly.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from fractions import Fraction

from bgboard.digits import decimal_text
from bgboard.errors import InputError

MAX_CENTS = 100_000_000   # a million in the club's currency: a fee or a unit beyond it is a typo


@dataclass(frozen=True, slots=True)
class Paid:
    """One payee: ``place`` in ``flight`` (tied players share a place number), ``player``
    (the database id) and ``cents``."""

    flight: str
    place: int
    player: int
    cents: int


def cents(text: str | float | int, what: str) -> int:
    """'7.50' -> 750 (one sentence unless a non-negative amount with at most two decimals)."""
    try:
        value = Decimal(decimal_text(text, what, "10 or 7.50") if isinstance(text, str) else str(text))
    except InvalidOperation:
        raise InputError(f"{what} is an amount such as 10 or 7.50, not {str(text)[:20]!r}") from None
    if not value.is_finite() or value < 0 or value != value.quantize(Decimal("0.01")):
        raise InputError(f"{what} is an amount from 0 with at most two decimals, not {str(text)[:20]!r}")
    c = int(value * 100)
    if c > MAX_CENTS:
        raise InputError(f"{what} is at most {MAX_CENTS // 100}, not {str(text)[:20]!r}")
    return c


def percentages(text: str, what: str) -> list[float]:
    """'50,30,20' -> [50.0, 30.0, 20.0] (each above 0)."""
    out: list[float] = []
    for part in str(text).split(","):
        try:
            value = float(decimal_text(part, what, "50,30,20"))
        except InputError:
            raise InputError(f"{what} is a list of percentages such as 50,30,20, not {str(text)[:40]!r}") from None
        if not 0 < value <= 100:
            raise InputError(f"{what} holds percentages above 0 and at most 100, not {part.strip()[:10]}")
        out.append(value)
    if len(out) > 64:
        raise InputError(f"{what} pays at most 64 places")
    return out


def check_split(main: Sequence[float], consolation: Sequence[float]) -> None:
    total = sum(main) + sum(consolation)
    if abs(total - 100) > 1e-6:
        raise InputError(f"the payouts must add up to 100% of the pot, "
                         f"{'+'.join(f'{p:g}' for p in [*main, *consolation])} = {total:g}%")


def pot(entries: int, fee_cents: int, rake_percent: float) -> tuple[int, int, int]:
    """(gross, rake, net) in cents."""
    gross = entries * fee_cents
    rake = int((Decimal(gross) * Decimal(str(rake_percent)) / 100).quantize(Decimal(1), ROUND_HALF_UP))
    return gross, rake, gross - rake


def split(net_cents: int, shares: Mapping[str, Sequence[float]],
          placings: Mapping[str, Sequence[Sequence[int]]], round_cents: int = 100) -> list[Paid]:
    """Each paid player and amount.  ``shares[flight]`` is the flight's percentages by place;
    ``placings[flight]`` its players in order, as groups of players tied with each other."""
    if round_cents < 1:
        raise InputError("the rounding unit is at least one cent")
    paid: list[Paid] = []
    for flight, percents in shares.items():
        place = 1
        for group in placings.get(flight, ()):
            if place > len(percents) or not group:
                break
            share = sum(percents[place - 1:place - 1 + len(group)])
            exact = Fraction(net_cents) * Fraction(share) / 100 / len(group)
            each = int(exact // round_cents) * round_cents
            paid += [Paid(flight, place, player, each) for player in group]
            place += len(group)
    if paid:
        left = net_cents - sum(p.cents for p in paid)
        first = paid[0]
        paid[0] = Paid(first.flight, first.place, first.player, first.cents + left)
    return paid


__all__ = ["Paid", "cents", "percentages", "check_split", "pot", "split"]
