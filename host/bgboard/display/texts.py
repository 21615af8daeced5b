"""Display texts in several lengths (longest first); the renderer picks what fits.

Pure functions of a :class:`~bgboard.display.display_state.DisplayState`.
"""

from __future__ import annotations

from bgboard.display.display_state import DisplayState, Text


def match_label(state: DisplayState) -> Text:
    """The match length: ``"7-point match"``, ``"7 pt"``, or ``"Money game"``/``"money"``."""
    if state.match_length == 0:
        return ("Money game", "Money", "$")
    n = state.match_length
    return (f"{n}-point match", f"{n}-pt match", f"{n} points", f"{n} pt")


def crawford_label(state: DisplayState) -> Text:
    """``"Crawford game"`` / ``"Post-Crawford"`` (empty in other games)."""
    if state.crawford == "crawford":
        return ("Crawford game", "Crawford", "CRAW")
    if state.crawford == "post-crawford":
        return ("Post-Crawford", "Post-Cr.", "PC")
    return ()


def format_clock(ms: int) -> str:
    """A reserve as ``m:ss`` (``h:mm:ss`` from an hour), rounded *up* to the second
    so that a clock shows ``0:00`` only when the time is really gone."""
    seconds = -(-ms // 1000)
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def prompt(state: DisplayState) -> Text:
    """What happens now, from the phase: ``"Alice to roll or double"`` and shorter forms
    (only ``"Alice to roll"`` when she may not double: see ``DisplayState.may_double``)."""
    names = state.names
    who = names[state.turn] if state.turn is not None else ""
    other = names[1 - state.turn] if state.turn is not None else ""
    phase = state.phase
    if phase == "opening":
        return ("Opening roll: each player rolls one die", "Opening roll: one die each",
                "Opening roll")
    if phase == "rolling" and who:
        if not state.may_double or state.crawford == "crawford" or (
            state.cube_owner is not None and state.cube_owner != state.turn
        ):
            return (f"{who} to roll", f"{who}: roll")
        return (f"{who} to roll or double", f"{who}: roll or double", f"{who}: roll")
    if phase == "moving" and who:
        dice = f"{max(state.dice)}-{min(state.dice)}" if state.dice else ""  # the higher first, whoever rolled
        return (f"{who} to play {dice}".rstrip(), f"{who}: {dice}".rstrip(": "))
    if phase == "cube-offered" and who:
        value = state.cube * 2
        return (f"{who} doubles to {value}: {other}, take or pass?",
                f"{other}: take or pass the {value}?", f"{other}: take or pass?",
                "Take or pass?")
    if phase == "game-over" and state.ending is not None:
        return ("Press roll for the next game", "Roll: next game", "Roll")
    if phase == "match-over" and state.ending is not None:
        return ("Press roll to start a new match", "Roll: new match", "Roll")
    if phase in ("game-over", "match-over") and state.winner is not None:
        winner = names[state.winner]
        if phase == "match-over":
            return (f"{winner} wins the match", f"{winner} wins", "Match over")
        return (f"{winner} wins the game", f"{winner} wins", "Game over")
    if phase == "setup":
        return ("Set up the checkers", "Set up")
    return ()


def ending_how(state: DisplayState) -> Text:
    """How the last game was won, without the winner: ``"a gammon"``, ``"Bob passed the
    double"``, ``"Bob resigned a gammon"``, ``"Bob ran out of time"`` (empty without an
    ending)."""
    e = state.ending
    if e is None:
        return ()
    loser = state.names[1 - e.winner]
    if e.how == "single":
        return ("a single game", "single")
    if e.how in ("gammon", "backgammon"):
        return (f"a {e.how}", e.how)
    if e.how == "drop":
        return (f"{loser} passed the double", f"{loser} passed", "passed")
    if e.how == "resignation":
        level = e.level or "single"
        what = "a single game" if level == "single" else f"a {level}"
        return (f"{loser} resigned {what}", f"{loser} resigned", "resigned")
    if e.how == "mother":  # Plakoto: the loser's last checker on its starting point pinned
        return (f"{loser}'s mother checker pinned", "mother checker pinned", "mother")
    return (f"{loser} ran out of time", f"{loser}: time", "time")


def combined(first: Text, second: Text, sep: str = " · ") -> Text:
    """Every ``first`` form joined to every ``second`` form, longest first (so the
    renderer keeps as much of both as fits), then ``first`` alone."""
    both = sorted({f"{a}{sep}{b}" for a in first for b in second}, key=lambda t: (-len(t), t))
    return tuple(both) + first


def ending_title(state: DisplayState) -> Text:
    """Who won the last game and how: ``"Alice wins a gammon"``, ``"Bob resigned a
    gammon: Alice wins"``... (empty without an ending)."""
    e = state.ending
    if e is None:
        return ()
    winner, loser = state.names[e.winner], state.names[1 - e.winner]
    if e.how in ("single", "gammon", "backgammon"):
        if e.how == "single":
            return (f"{winner} wins a single game", f"{winner} wins")
        return (f"{winner} wins a {e.how}", f"{winner}: {e.how}", f"{winner} wins")
    if e.how == "drop":
        return (f"{loser} passed the double: {winner} wins", f"{loser} passed: {winner} wins",
                f"{loser} passed", "Passed")
    if e.how == "resignation":
        level = e.level or "single"
        what = "a single game" if level == "single" else f"a {level}"
        return (f"{loser} resigned {what}: {winner} wins", f"{loser} resigned: {winner} wins",
                f"{loser} resigned {what}", f"{loser} resigned", "Resigned")
    if e.how == "mother":
        return (f"{winner} pinned the mother checker: {winner} wins", f"{winner} wins: mother checker",
                f"{winner} wins")
    return (f"{loser} ran out of time: {winner} wins", f"{loser} lost on time",
            f"{loser}: time", "Time")


def ending_points(state: DisplayState) -> Text:
    """The points the last game was worth, with the cube: ``"+4 points (gammon, cube 2)"``."""
    e = state.ending
    if e is None:
        return ()
    level = e.level if e.how == "resignation" else (e.how if e.how in ("gammon", "backgammon", "mother") else None)
    if e.how == "time":
        return (f"{state.names[e.winner]} wins the match on time", "wins on time", "time")
    parts = [p for p in (level, f"cube {e.cube}" if e.cube > 1 else None) if p]
    why = f" ({', '.join(parts)})" if parts else ""
    plus = f"+{e.points}"
    unit = "point" if e.points == 1 else "points"
    return (f"{plus} {unit}{why}", f"{plus} pts{why}", f"{plus} {unit}", plus)


def sent_label(state: DisplayState) -> Text:
    """At a club match's end: whether the result reached the event (empty otherwise)."""
    e = state.ending
    if e is None or e.sent is None:
        return ()
    if e.sent:
        return ("Result sent to the club event", "Result sent", "Sent")
    return ("Sending the result to the club event…", "Sending result…", "Sending…")
