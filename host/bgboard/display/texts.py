"""Display texts in several lengths (longest first); the renderer picks what fits.

Pure functions of a :class:`~bgboard.display.state.DisplayState`.
"""

from __future__ import annotations

from bgboard.display.state import DisplayState, Text


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
    """What happens now, from the phase: ``"Alice to roll or double"`` and shorter forms."""
    names = state.names
    who = names[state.turn] if state.turn is not None else ""
    other = names[1 - state.turn] if state.turn is not None else ""
    phase = state.phase
    if phase == "opening":
        return ("Opening roll: each player rolls one die", "Opening roll: one die each",
                "Opening roll")
    if phase == "rolling" and who:
        if state.crawford == "crawford" or (
            state.cube_owner is not None and state.cube_owner != state.turn
        ):
            return (f"{who} to roll", f"{who}: roll")
        return (f"{who} to roll or double", f"{who}: roll or double", f"{who}: roll")
    if phase == "moving" and who:
        dice = f"{state.dice[0]}-{state.dice[1]}" if state.dice else ""
        return (f"{who} to play {dice}".rstrip(), f"{who}: {dice}".rstrip(": "))
    if phase == "cube-offered" and who:
        value = state.cube * 2
        return (f"{who} doubles to {value}: {other}, take or pass?",
                f"{other}: take or pass the {value}?", f"{other}: take or pass?",
                "Take or pass?")
    if phase in ("game-over", "match-over") and state.winner is not None:
        winner = names[state.winner]
        if phase == "match-over":
            return (f"{winner} wins the match", f"{winner} wins", "Match over")
        return (f"{winner} wins the game", f"{winner} wins", "Game over")
    if phase == "setup":
        return ("Set up the checkers", "Set up")
    return ()
