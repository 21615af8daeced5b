"""Rule sets: named presets of the match and cube rules, each traced to its source.

docs/rules.md ("Match play and rule sets") names the seed text or federation rule behind
every field.  A :class:`RuleSet` is a frozen value; :func:`rule_set` looks a preset up by
name and applies options (Jacoby, beavers, variant).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from bgboard.errors import InputError
from bgboard.rules.games import TAVLI


class UnknownRuleSetError(InputError):
    """A rule-set name or option that does not exist."""


#: What happens to an illegal play: ``correct`` (USBGF "Legal Moves" 2014, the WBGF
#: default: it must be corrected) or ``condone`` (older practice: the opponent may accept it
#: and it stands as played, unless it is never condonable — see ``bgboard.match.condone``).
ILLEGAL_PLAYS = ("correct", "condone")


@dataclass(frozen=True, slots=True)
class RuleSet:
    """The rules a match is played under.

    ``match_lengths``: the allowed match lengths (``None`` = any length from 1).
    ``money``: money play (no match length, unlimited games).
    ``max_cube``: the highest cube value (``None`` = unlimited).
    ``crawford``: the Crawford rule in match play.
    ``dead_cube``: refuse offers that cannot matter (the doubler needs no more points than
    the cube already gives him, e.g. the leader 1-away post-Crawford).
    ``jacoby``: money only: gammons and backgammons count single while the cube is centred.
    ``beavers``: money only: the taker may redouble at once and keep the cube.
    ``variant``: what the match is played in, a name of the registry
    ``bgboard.rules.games.VARIANTS`` (a game alone, or ``tavli`` for Portes, Plakoto and Fevga in
    rotation).
    ``illegal_plays``: ``correct`` (an illegal play must be put right) or ``condone`` (it
    may be recorded as played with :class:`bgboard.match.Condone`); see :data:`ILLEGAL_PLAYS`.
    """

    name: str = "standard"
    match_lengths: tuple[int, ...] | None = None
    money: bool = False
    max_cube: int | None = None
    crawford: bool = True
    dead_cube: bool = True
    jacoby: bool = False
    beavers: bool = False
    variant: str = "standard"
    illegal_plays: str = "correct"

    def check_length(self, length: int) -> None:
        """Raise :class:`UnknownRuleSetError` if ``length`` is not allowed by this rule set."""
        if self.money:
            if length != 0:
                raise UnknownRuleSetError("money play has no match length: use a length of 0")
            return
        if not isinstance(length, int) or length < 1:  # pyright: ignore[reportUnnecessaryIsInstance] - input from outside is checked at run time
            raise UnknownRuleSetError(f"a match is played to 1 point or more, not {length}")
        if self.match_lengths is not None and length not in self.match_lengths:
            allowed = ", ".join(str(n) for n in self.match_lengths)
            raise UnknownRuleSetError(
                f"{self.name} rules allow matches of {allowed} points, not {length}"
            )

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready dict (rebuilt by :meth:`from_dict`)."""
        return {
            "name": self.name,
            "match_lengths": list(self.match_lengths) if self.match_lengths is not None else None,
            "money": self.money,
            "max_cube": self.max_cube,
            "crawford": self.crawford,
            "dead_cube": self.dead_cube,
            "jacoby": self.jacoby,
            "beavers": self.beavers,
            "variant": self.variant,
            "illegal_plays": self.illegal_plays,
        }

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> "RuleSet":
        lengths = data.get("match_lengths")
        return cls(
            name=str(data["name"]),
            match_lengths=tuple(int(n) for n in lengths) if isinstance(lengths, list) else None,  # type: ignore[arg-type]
            money=bool(data["money"]),
            max_cube=int(data["max_cube"]) if data.get("max_cube") is not None else None,  # type: ignore[arg-type]
            crawford=bool(data["crawford"]),
            dead_cube=bool(data["dead_cube"]),
            jacoby=bool(data["jacoby"]),
            beavers=bool(data["beavers"]),
            variant=str(data["variant"]),
            illegal_plays=str(data.get("illegal_plays", "correct")),  # older journals: correct
        )


PRESETS: dict[str, RuleSet] = {
    # WBGF / USBGF tournament practice: any length, Crawford, cube unlimited, no Jacoby
    # or beavers in matches; only the Crawford game forbids the cube, so a double that
    # cannot matter is legal (and may be dropped).
    "standard": RuleSet(name="standard", dead_cube=False),
    # BrainKing (seeds 000/001/003): odd lengths 3..21, cube up to 64, Crawford,
    # no offer when it cannot matter.
    "brainking": RuleSet(
        name="brainking",
        match_lengths=tuple(range(3, 22, 2)),
        max_cube=64,
    ),
    # Tavli (VARIANTS.md, issue 16): Portes, Plakoto and Fevga in rotation, as Greek players
    # play to 5 or 7 points; no cube (none in Plakoto and Fevga, H; none in a tavli match, L).
    TAVLI.name: RuleSet(
        name=TAVLI.name, match_lengths=(5, 7), crawford=False, dead_cube=False, variant=TAVLI.name
    ),
    # Money play (seeds 002, 004): unlimited games and cube; Jacoby and beavers are options.
    "money": RuleSet(name="money", money=True, crawford=False, dead_cube=False),
}


def rule_set(
    name: str = "standard",
    *,
    jacoby: bool | None = None,
    beavers: bool | None = None,
    variant: str | None = None,
    illegal_plays: str | None = None,
) -> RuleSet:
    """The preset called ``name`` with the given options applied.

    Jacoby and beavers exist only in money play (a match never uses them);
    ``illegal_plays`` is ``correct`` (every preset's default) or ``condone``.
    """
    try:
        preset = PRESETS[name]
    except KeyError:
        known = ", ".join(sorted(PRESETS))
        raise UnknownRuleSetError(f"unknown rule set {name!r}: choose one of {known}") from None
    if (jacoby or beavers) and not preset.money:
        raise UnknownRuleSetError("the Jacoby rule and beavers apply to money play only")
    if illegal_plays is not None and illegal_plays not in ILLEGAL_PLAYS:
        raise UnknownRuleSetError(
            f"illegal plays are either corrected or condoned ('correct' or 'condone'), not {illegal_plays!r}"
        )
    changes: dict[str, object] = {}
    if illegal_plays is not None:
        changes["illegal_plays"] = illegal_plays
    if jacoby is not None:
        changes["jacoby"] = jacoby
    if beavers is not None:
        changes["beavers"] = beavers
    if variant is not None:
        changes["variant"] = variant
    return replace(preset, **changes)  # type: ignore[arg-type]
