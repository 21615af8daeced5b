"""Practice drills: positions to lay out, roll and play, graded (pure, but for reading the
bundled ``drills.toml``).

The drill set is data (``drills.toml`` beside this module): the 15 opening rolls, bearing
off against contact, entering from the bar and a few cube positions.  Any gnubg Position ID
makes a drill too (:func:`drill_from_position_id`).  Every mistake in a drill file gives one
sentence naming the drill and the field.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources
from typing import Any, Sequence

from bgboard.errors import InputError
from bgboard.language import Phrase
from bgboard.rules import Position, position_from_id
from bgboard.rules.ids import InvalidIdError

__all__ = ["KINDS", "Drill", "DrillError", "DrillResult", "builtin_drills", "drill_from_position_id", "parse_drills", "select_drills"]

KINDS = ("opening", "bear-off", "bar", "cube", "position")
_FIELDS = {"name", "kind", "position", "dice", "away", "cube", "note"}


class DrillError(InputError):
    """A drill file or a drill's Position ID that cannot be used (one sentence)."""


@dataclass(frozen=True, slots=True)
class Drill:
    """One drill: ``position`` with the learner on roll; ``dice`` fixed or None (rolled);
    ``away`` the points each side still needs ((0, 0) = money); ``cube`` the centred cube's
    value; a ``cube`` drill asks "double or not?" before the roll."""

    name: str
    kind: str
    position_id: str
    position: Position
    dice: tuple[int, int] | None = None
    away: tuple[int, int] = (0, 0)
    cube: int = 1
    note: str = ""


@dataclass(frozen=True, slots=True)
class DrillResult:
    """How one drill went: played with ``dice`` (the larger first, ``"31"``) and graded
    (``lesson``: the play lesson's :meth:`~bgboard.hints.lesson.PlayLesson.record`, None until
    the grade comes), or ``skipped``.  :meth:`record` is its JSON object (the practice
    progress, ``bgboard sim --practice --json``), :meth:`from_record` reads one back."""

    drill: str
    kind: str
    dice: str | None = None
    lesson: dict[str, object] | None = None
    skipped: bool = False

    def graded(self, lesson: dict[str, object] | None) -> DrillResult:
        """This result with its play's grade come in."""
        return DrillResult(self.drill, self.kind, self.dice, lesson, self.skipped)

    def record(self) -> dict[str, object]:
        if self.skipped:
            return {"drill": self.drill, "kind": self.kind, "skipped": True}
        return {"drill": self.drill, "kind": self.kind, "dice": self.dice, "lesson": self.lesson}

    @staticmethod
    def from_record(body: object) -> DrillResult | None:
        """The result of a :meth:`record` (None for anything else: a progress kept by hand)."""
        if not isinstance(body, dict):
            return None
        drill, kind, dice, lesson = body.get("drill"), body.get("kind"), body.get("dice"), body.get("lesson")
        if not isinstance(drill, str) or not isinstance(kind, str):
            return None
        if body.get("skipped") is True:
            return DrillResult(drill, kind, skipped=True)
        if not isinstance(dice, str) or not (lesson is None or isinstance(lesson, dict)):
            return None
        return DrillResult(drill, kind, dice, {str(k): v for k, v in lesson.items()} if lesson is not None else None)


def _dice(text: Any, where: str) -> tuple[int, int]:
    if not isinstance(text, str) or len(text) != 2 or not all(c in "123456" for c in text):
        raise DrillError(f"{where}: dice must be two digits from 1 to 6 like \"31\", not {text!r}")
    return int(text[0]), int(text[1])


def _position(pid: Any, where: str) -> Position:
    if not isinstance(pid, str):
        raise DrillError(f"{where}: position must be a gnubg Position ID (text)")
    try:
        return position_from_id(pid.strip())
    except InvalidIdError as exc:
        raise DrillError(f"{where}: {exc}") from None


def drill_from_position_id(pid: str, dice: str | None = None, name: str | None = None) -> Drill:
    """A drill from any gnubg Position ID (the learner on roll), with a fixed roll or none."""
    where = f"drill {name or pid!r}"
    return Drill(name or f"Position {pid.strip()}", "position", pid.strip(), _position(pid, where),
                 None if dice is None else _dice(dice, where))


def parse_drills(text: str, source: str = "the drill file") -> tuple[Drill, ...]:
    """The drills of a TOML text (``[[drill]]`` tables; see ``drills.toml``)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DrillError(f"{source} is not valid TOML ({exc})") from None
    tables = data.get("drill")
    if not isinstance(tables, list) or not tables:
        raise DrillError(f"{source} has no [[drill]] tables")
    drills = []
    for i, table in enumerate(tables, start=1):
        name = table.get("name") if isinstance(table.get("name"), str) else f"number {i}"
        where = f"{source}, drill {name!r}"
        extra = sorted(set(table) - _FIELDS)
        if extra:
            raise DrillError(f"{where}: unknown field {extra[0]!r} (known: {', '.join(sorted(_FIELDS))})")
        for key in ("name", "kind", "position"):
            if key not in table:
                raise DrillError(f"{where}: needs {key}")
        kind = table["kind"]
        if kind not in KINDS:
            raise DrillError(f"{where}: kind must be one of {', '.join(KINDS)}, not {kind!r}")
        away = table.get("away", [0, 0])
        if (not isinstance(away, list) or len(away) != 2 or not all(isinstance(a, int) and 0 <= a <= 25 for a in away)
                or (away[0] == 0) != (away[1] == 0)):
            raise DrillError(f"{where}: away must be two numbers of points still needed (or [0, 0] for money)")
        cube = table.get("cube", 1)
        if not isinstance(cube, int) or cube < 1 or cube & (cube - 1) or cube > 64:
            raise DrillError(f"{where}: cube must be a power of two from 1 to 64, not {cube!r}")
        drills.append(Drill(
            name=Phrase(str(table["name"])), kind=kind, position_id=str(table["position"]).strip(),
            position=_position(table["position"], where),
            dice=_dice(table["dice"], where) if "dice" in table else None,
            away=(away[0], away[1]), cube=cube, note=Phrase(str(table.get("note", ""))) if table.get("note") else "",
        ))
    return tuple(drills)


def builtin_drills() -> tuple[Drill, ...]:
    """The drill set shipped with bgboard (``bgboard/hints/drills.toml``)."""
    text = resources.files("bgboard.hints").joinpath("drills.toml").read_text(encoding="utf-8")
    return parse_drills(text, "drills.toml")


def select_drills(chosen: str | tuple[str, ...] | list[str], where: str = "teach.drills",
                  mine: Sequence[str] | None = None) -> tuple[Drill, ...]:
    """The drills ``[teach] drills`` chooses: ``"all"`` (the built-in set), ``"mine"`` (the
    learner's own worst positions of the matches kept, ``mine``: ``"ID:31"`` entries, worst
    first; None only checks the entries), or a list whose entries are each ``"all"``,
    ``"mine"``, a kind of the built-in set (``"opening"``, ``"bear-off"``,
    ``"bar"``, ``"cube"``), a built-in drill's name (``"Opening 3-1"``, any case) or a gnubg
    Position ID with the learner on roll, with a fixed roll after a colon
    (``"4HPwATDgc/ABMA:31"``).  In the order given; one sentence for an entry that is none
    of these."""
    entries = (chosen,) if isinstance(chosen, str) else tuple(chosen)
    if not entries:
        raise DrillError(f"{where} names no drill: say \"all\" or list drills")
    builtin = builtin_drills()
    by_name = {d.name.casefold(): d for d in builtin}
    out: list[Drill] = []
    for entry in entries:
        text = entry.strip()
        if text.casefold() == "all":
            out += builtin
        elif text.casefold() == "mine":
            if mine is not None and not mine:
                raise DrillError(f"{where}: \"mine\" plays your worst positions of the matches kept, and none is "
                                 "kept yet: play a match in learner mode first")
            for own in mine or ():
                pid, _, dice = own.partition(":")
                out.append(drill_from_position_id(pid, dice or None, name=f"Your position {pid} {dice}".strip()))
        elif text in KINDS and text != "position":
            out += [d for d in builtin if d.kind == text]
        elif text.casefold() in by_name:
            out.append(by_name[text.casefold()])
        else:
            pid, _, dice = text.partition(":")
            try:
                _position(pid, where)
            except DrillError:
                raise DrillError(
                    f"{where}: {text[:60]!r} is not \"all\", a kind ({', '.join(KINDS[:4])}), a built-in drill's "
                    "name or a gnubg Position ID like \"4HPwATDgc/ABMA:31\""
                ) from None
            try:
                out.append(drill_from_position_id(pid, dice or None))
            except DrillError as exc:  # a Position ID with a roll that is no roll
                raise DrillError(f"{where}: {exc}") from None
    return tuple(out)
