"""Display texts in several lengths (longest first); the renderer picks what fits.

Pure functions of a :class:`~bgboard.display.display_state.DisplayState`.
"""

from __future__ import annotations

from bgboard.display.display_state import DisplayState, Text
from bgboard.language import ENGLISH, Words, say, say_n


def match_label(state: DisplayState, w: Words = ENGLISH) -> Text:
    """The match length: ``"7-point match"``, ``"7 pt"``, or ``"Money game"``/``"money"``."""
    if state.match_length == 0:
        # source: money play = "geldspel"/"Geldspiel" in no seed: the seeds' "partij" (000), "Spiel" (004)
        return (say(w, "Money game"), say(w, "Money"), "$")
    n = state.match_length
    # source: match = "match" seeds/000, "kamp" seeds/001, "Match" seeds/004
    return (say_n(w, "%(n)d-point match", "%(n)d-point match", n),
            say_n(w, "%(n)d-pt match", "%(n)d-pt match", n),
            say_n(w, "%(n)d point", "%(n)d points", n),
            say_n(w, "%(n)d pt", "%(n)d pt", n))


def crawford_label(state: DisplayState, w: Words = ENGLISH) -> Text:
    """``"Crawford game"`` / ``"Post-Crawford"`` (empty in other games)."""
    if state.crawford == "crawford":
        # source: Crawford = "Crawford-regel" seeds/000, "Crawford-regelen" seeds/001
        return (say(w, "Crawford game"), "Crawford", "CRAW")
    if state.crawford == "post-crawford":
        return (say(w, "Post-Crawford"), say(w, "Post-Cr."), "PC")
    return ()


def format_clock(ms: int) -> str:
    """A reserve as ``m:ss`` (``h:mm:ss`` from an hour), rounded *up* to the second
    so that a clock shows ``0:00`` only when the time is really gone."""
    seconds = -(-ms // 1000)
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def prompt(state: DisplayState, w: Words = ENGLISH) -> Text:
    """What happens now, from the phase: ``"Alice to roll or double"`` and shorter forms
    (only ``"Alice to roll"`` when she may not double: see ``DisplayState.may_double``)."""
    names = state.names
    who = names[state.turn] if state.turn is not None else ""
    other = names[1 - state.turn] if state.turn is not None else ""
    phase = state.phase
    if phase == "opening":
        # source: opening roll = "De spelers gooien ieder met één dobbelsteen" seeds/002,
        # "würfelt jeder Spieler mit einem Würfel" seeds/004
        return (say(w, "Opening roll: each player rolls one die"),
                say(w, "Opening roll: one die each"), say(w, "Opening roll"))
    if phase == "rolling" and who:
        if not state.may_double or state.crawford == "crawford" or (
            state.cube_owner is not None and state.cube_owner != state.turn
        ):
            return (say(w, "%(who)s to roll", who=who), say(w, "%(who)s: roll", who=who))
        # source: double = "verdubbelen" seeds/000, "doble" seeds/001, "verdoppeln" seeds/004
        return (say(w, "%(who)s to roll or double", who=who),
                say(w, "%(who)s: roll or double", who=who), say(w, "%(who)s: roll", who=who))
    if phase == "moving" and who:
        dice = f"{max(state.dice)}-{min(state.dice)}" if state.dice else ""  # the higher first, whoever rolled
        if not dice:
            return (say(w, "%(who)s to play", who=who), who)
        return (say(w, "%(who)s to play %(dice)s", who=who, dice=dice), f"{who}: {dice}")
    if phase == "cube-offered" and who:
        value = state.cube * 2
        # source: take/pass = "aannemen"/"weigeren" seeds/000, "ta imot"/"avslå" seeds/001,
        # "annehmen"/"aufgeben" seeds/004
        return (say(w, "%(who)s doubles to %(value)d: %(other)s, take or pass?",
                    who=who, value=value, other=other),
                say(w, "%(other)s: take or pass the %(value)d?", other=other, value=value),
                say(w, "%(other)s: take or pass?", other=other),
                say(w, "Take or pass?"))
    if phase == "game-over" and state.ending is not None:
        return (say(w, "Press roll for the next game"), say(w, "Roll: next game"), say(w, "Roll"))
    if phase == "match-over" and state.ending is not None:
        return (say(w, "Press roll to start a new match"), say(w, "Roll: new match"), say(w, "Roll"))
    if phase in ("game-over", "match-over") and state.winner is not None:
        winner = names[state.winner]
        if phase == "match-over":
            return (say(w, "%(who)s wins the match", who=winner), say(w, "%(who)s wins", who=winner),
                    say(w, "Match over"))
        return (say(w, "%(who)s wins the game", who=winner), say(w, "%(who)s wins", who=winner),
                say(w, "Game over"))
    if phase == "setup":
        return (say(w, "Set up the checkers"), say(w, "Set up"))
    return ()


def _level(w: Words, how: str) -> str:
    """A game's level as a word: single, gammon, backgammon (Plakoto: mother)."""
    # source: gammon/backgammon = "gammon"/"backgammon" seeds/000, seeds/002, seeds/004
    return {"single": say(w, "single"), "gammon": say(w, "gammon"),
            "backgammon": say(w, "backgammon"), "mother": say(w, "mother")}.get(how, how)


def _a_level(w: Words, how: str) -> str:
    """The level with its article: "a single game", "a gammon", "a backgammon"."""
    return {"single": say(w, "a single game"), "gammon": say(w, "a gammon"),
            "backgammon": say(w, "a backgammon")}.get(how, how)


def ending_how(state: DisplayState, w: Words = ENGLISH) -> Text:
    """How the last game was won, without the winner: ``"a gammon"``, ``"Bob passed the
    double"``, ``"Bob resigned a gammon"``, ``"Bob ran out of time"`` (empty without an
    ending)."""
    e = state.ending
    if e is None:
        return ()
    loser = state.names[1 - e.winner]
    if e.how in ("single", "gammon", "backgammon"):
        return (_a_level(w, e.how), _level(w, e.how))
    if e.how == "drop":
        return (say(w, "%(loser)s passed the double", loser=loser),
                say(w, "%(loser)s passed", loser=loser), say(w, "passed"))
    if e.how == "resignation":
        what = _a_level(w, e.level or "single")
        return (say(w, "%(loser)s resigned %(what)s", loser=loser, what=what),
                say(w, "%(loser)s resigned", loser=loser), say(w, "resigned"))
    if e.how == "mother":  # Plakoto: the loser's last checker on its starting point pinned
        return (say(w, "%(loser)s's mother checker pinned", loser=loser),
                say(w, "mother checker pinned"), say(w, "mother"))
    return (say(w, "%(loser)s ran out of time", loser=loser), say(w, "%(loser)s: time", loser=loser),
            say(w, "time"))


def combined(first: Text, second: Text, sep: str = " · ") -> Text:
    """Every ``first`` form joined to every ``second`` form, longest first (so the
    renderer keeps as much of both as fits), then ``first`` alone."""
    both = sorted({f"{a}{sep}{b}" for a in first for b in second}, key=lambda t: (-len(t), t))
    return tuple(both) + first


def ending_title(state: DisplayState, w: Words = ENGLISH) -> Text:
    """Who won the last game and how: ``"Alice wins a gammon"``, ``"Bob resigned a
    gammon: Alice wins"``... (empty without an ending)."""
    e = state.ending
    if e is None:
        return ()
    winner, loser = state.names[e.winner], state.names[1 - e.winner]
    wins = say(w, "%(who)s wins", who=winner)
    if e.how in ("single", "gammon", "backgammon"):
        if e.how == "single":
            return (say(w, "%(who)s wins a single game", who=winner), wins)
        return (say(w, "%(who)s wins %(what)s", who=winner, what=_a_level(w, e.how)),
                f"{winner}: {_level(w, e.how)}", wins)
    if e.how == "drop":
        return (say(w, "%(loser)s passed the double: %(who)s wins", loser=loser, who=winner),
                say(w, "%(loser)s passed: %(who)s wins", loser=loser, who=winner),
                say(w, "%(loser)s passed", loser=loser), say(w, "Passed"))
    if e.how == "resignation":
        what = _a_level(w, e.level or "single")
        return (say(w, "%(loser)s resigned %(what)s: %(who)s wins", loser=loser, what=what, who=winner),
                say(w, "%(loser)s resigned: %(who)s wins", loser=loser, who=winner),
                say(w, "%(loser)s resigned %(what)s", loser=loser, what=what),
                say(w, "%(loser)s resigned", loser=loser), say(w, "Resigned"))
    if e.how == "mother":
        return (say(w, "%(who)s pinned the mother checker: %(who)s wins", who=winner),
                say(w, "%(who)s wins: mother checker", who=winner), wins)
    return (say(w, "%(loser)s ran out of time: %(who)s wins", loser=loser, who=winner),
            say(w, "%(loser)s lost on time", loser=loser), say(w, "%(loser)s: time", loser=loser),
            say(w, "Time"))


def ending_points(state: DisplayState, w: Words = ENGLISH) -> Text:
    """The points the last game was worth, with the cube: ``"+4 points (gammon, cube 2)"``."""
    e = state.ending
    if e is None:
        return ()
    level = e.level if e.how == "resignation" else (e.how if e.how in ("gammon", "backgammon", "mother") else None)
    if e.how == "time":
        return (say(w, "%(who)s wins the match on time", who=state.names[e.winner]),
                say(w, "wins on time"), say(w, "time"))
    # source: cube = "verdubbelingskubus" seeds/000, "doblingskube" seeds/001, "Verdopplungswürfel" seeds/004
    parts = [p for p in (level and _level(w, level),
                         say(w, "cube %(value)d", value=e.cube) if e.cube > 1 else None) if p]
    why = f" ({', '.join(parts)})" if parts else ""
    plus = f"+{e.points}"
    return (say_n(w, "+%(n)d point", "+%(n)d points", e.points) + why,
            say_n(w, "+%(n)d pt", "+%(n)d pts", e.points) + why,
            say_n(w, "+%(n)d point", "+%(n)d points", e.points), plus)


def sent_label(state: DisplayState, w: Words = ENGLISH) -> Text:
    """At a club match's end: whether the result reached the event (empty otherwise)."""
    e = state.ending
    if e is None or e.sent is None:
        return ()
    if e.sent:
        return (say(w, "Result sent to the club event"), say(w, "Result sent"), say(w, "Sent"))
    return (say(w, "Sending the result to the club event…"), say(w, "Sending result…"),
            say(w, "Sending…"))
