"""The one parser for every whole number a person or a board sends (pure).

Python's ``str.isdigit()`` accepts '²' and '①', which ``int()`` then refuses with a
traceback, and ``int()`` itself accepts '١٢' (Arabic-Indic digits), '+5', ' 7 ' and '1_000'.
A number typed on the command line, in a form, in a query string or in a board's topic is
none of those: it is ASCII digits only, checked here once, and anything else is one
sentence (:class:`bgboard.errors.InputError`).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from bgboard.errors import InputError, shown

_WHOLE = re.compile(r"-?[0-9]+")
_DECIMAL = re.compile(r"[0-9]{1,12}(\.[0-9]{1,12})?|\.[0-9]{1,12}")
_SHOWN = 30  # characters of a refused value repeated in a sentence


def is_whole(text: str, *, signed: bool = False) -> bool:
    """True when ``text`` is ASCII digits (with a leading '-' when ``signed``), nothing else."""
    return bool(_WHOLE.fullmatch(text)) and (signed or not text.startswith("-"))


def whole_number(value: object, what: str, low: int = 0, high: int = 2**63 - 1, *, signed: bool = False) -> int:
    """``value`` (ASCII digits, spaces around them allowed) as an int from ``low`` to ``high``,
    else one sentence naming ``what`` ('a match number', '--length').  No sign, no
    underscore, no Unicode digit; a value too long to be in range is refused before it is
    converted, so a million digits cost nothing."""
    if isinstance(value, bool):
        raise InputError(f"{what} is a whole number, not {value!r}")
    if isinstance(value, int):
        number = value
    else:
        text = str(value).strip(" \t")
        if not is_whole(text, signed=signed or low < 0):
            raise InputError(f"{what} is a whole number written with the digits 0-9, not {shown(text, _SHOWN) if text else 'nothing'}")
        if len(text.lstrip("-").lstrip("0")) > len(str(max(abs(low), abs(high)))):
            raise InputError(f"{what} is at most {high}, not {shown(text, _SHOWN)}")
        number = int(text)
    if not low <= number <= high:
        raise InputError(f"{what} is from {low} to {high}, not {number}")
    return number


def decimal_text(value: object, what: str, example: str = "7.50") -> str:
    """``value`` as ASCII decimal text from 0 (digits 0-9, at most one point, at most 12
    digits each side), ready for ``Decimal`` or ``float``; one sentence otherwise (no sign,
    exponent, 'nan', 'inf' or Unicode digit)."""
    text = str(value).strip(" \t")
    if isinstance(value, bool) or not _DECIMAL.fullmatch(text):
        raise InputError(f"{what} is a number written with the digits 0-9, such as {example}, not {shown(text, _SHOWN) if text else 'nothing'}")
    return text


def decimal_number(value: object, what: str, example: str = "7.50") -> float:
    """:func:`decimal_text` as a float."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        number = float(value)
        if number != number or number in (float("inf"), float("-inf")) or number < 0:
            raise InputError(f"{what} is a number from 0, not {value}")
        return number
    return float(decimal_text(value, what, example))


def decimal_argument(what: str, example: str = "7.50") -> Callable[[str], float]:
    """An argparse ``type=`` for :func:`decimal_number`."""
    import argparse

    def parse(text: str) -> float:
        try:
            return decimal_number(text, what, example)
        except InputError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    parse.__name__ = "number"
    return parse


def whole_argument(what: str, low: int = 0, high: int = 2**63 - 1) -> Callable[[str], int]:
    """An argparse ``type=`` for :func:`whole_number` (argparse prints the sentence, exit 2)."""
    import argparse

    def parse(text: str) -> int:
        try:
            return whole_number(text, what, low, high)
        except InputError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    parse.__name__ = "whole number"
    return parse


__all__ = ["is_whole", "whole_number", "whole_argument", "decimal_text", "decimal_number", "decimal_argument"]
