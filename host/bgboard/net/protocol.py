"""The club network protocol (docs/club-protocol.md): topics and versioned JSON payloads.

Pure code: no sockets, no clock.  Boards and the director exchange five kinds of message
under ``bgboard/<club>/board/<n>/<kind>``:

=========  ==========  ========  ===========================================================
kind       from        retained  what
=========  ==========  ========  ===========================================================
state      board       yes       the match as it stands (:class:`BoardState`), coalesced
online     board/will  yes       :class:`Online`; the broker publishes ``offline`` as the will
result     board       no        a finished match (:class:`Result`), re-sent until acked
assign     director    yes       the next match for this board (:class:`Assignment`)
ack        director    no        the director's answer to one result UUID (:class:`Ack`)
=========  ==========  ========  ===========================================================

Every payload is one JSON object with ``"v": 1`` and ``"type": <kind>``.  :func:`decode`
checks a payload completely (types, ranges, lengths) and raises :class:`ProtocolError` with
one sentence; receivers log that sentence and ignore the message — a bad network message is
never a crash.  :func:`encode` is the inverse; ``decode(kind, encode(m)) == m``.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, fields
from typing import Any, Mapping

from bgboard.digits import is_whole
from bgboard.errors import InputError

VERSION = 1
PREFIX = "bgboard"
KINDS = ("state", "online", "result", "assign", "ack")
#: Largest payload accepted (a long match's .mat text is well under this).
MAX_PAYLOAD = 512 * 1024
#: Largest payload of each kind (a state, an ack are small; only a result carries a .mat).
MAX_KIND_PAYLOAD = {"state": 8 * 1024, "online": 256, "result": MAX_PAYLOAD, "assign": 8 * 1024, "ack": 2 * 1024}
#: Deepest nesting of JSON arrays/objects accepted (a result's games are 3 deep).
MAX_DEPTH = 8
#: Most JSON values (strings, numbers, arrays, objects...) in one payload: a result's games
#: at most 10,000 of 4 values each, and the rest.
MAX_VALUES = 50_000
#: Longest number literal accepted (every number of the protocol is below 2**53: 16 digits).
MAX_DIGITS = 20
MAX_NAME = 64
MAX_TEXT = 200
MAX_MAT = 400 * 1024
MAX_BOARD = 9999
PHASES = ("opening", "turn", "doubled", "play", "resigned", "game_over", "match_over")
ACK_STATUSES = ("stored", "duplicate", "refused")
_CLUB_RE = re.compile(r"^[a-z0-9][a-z0-9_-]{0,31}$")
_CONTROL = re.compile("[\x00-\x1f]")
_CONTROL_IN_MAT = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f]")  # a .mat keeps its line ends and tabs
_UUID_RE = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")


class ProtocolError(InputError):
    """A topic or payload that is not a valid club message (one sentence saying why)."""


# ----------------------------------------------------------------------------- topics
def check_club(club: str) -> str:
    """``club`` if it can be a topic segment (lower-case letters, digits, ``-``, ``_``)."""
    if not isinstance(club, str) or not _CLUB_RE.match(club):
        raise ProtocolError(
            f"the club name in topics must be 1-32 lower-case letters, digits, '-' or '_', not {club!r}"
        )
    return club


def topic(club: str, board: int, kind: str) -> str:
    """``bgboard/<club>/board/<n>/<kind>``."""
    if kind not in KINDS:
        raise ValueError(f"unknown message kind {kind!r}")
    if not 1 <= board <= MAX_BOARD:
        raise ProtocolError(f"board numbers are 1..{MAX_BOARD}, not {board}")
    return f"{PREFIX}/{check_club(club)}/board/{board}/{kind}"


def board_filter(club: str, kind: str) -> str:
    """The subscription filter for one kind of message from every board."""
    return f"{PREFIX}/{check_club(club)}/board/+/{kind}"


def parse_topic(text: str, club: str) -> tuple[int, str]:
    """``(board, kind)`` of a topic of ``club``; :class:`ProtocolError` otherwise."""
    parts = text.split("/")
    if len(parts) != 5 or parts[0] != PREFIX or parts[1] != club or parts[2] != "board" or parts[4] not in KINDS:
        raise ProtocolError(f"the topic {text[:120]!r} is not a board topic of club {club!r}")
    if not is_whole(parts[3]) or parts[3].startswith("0") or len(parts[3]) > 6 or not 1 <= int(parts[3]) <= MAX_BOARD:
        raise ProtocolError(f"the topic {text[:120]!r} does not name a board number")
    return int(parts[3]), parts[4]


# ----------------------------------------------------------------------------- messages
@dataclass(frozen=True, slots=True)
class BoardState:
    """A board's match as it stands (``state``, retained).  Player 0 is white, the left
    column of the .mat.  ``event``/``match`` are the club's when the board plays an
    assignment ("" and 0 otherwise); ``updated_ms`` is the board's wall clock; ``clocks``
    the two reserves in ms (None: no clocks) and ``clock_running`` whose clock runs."""

    players: tuple[str, str]
    length: int
    score: tuple[int, int]
    cube: int
    cube_owner: int | None
    crawford: bool
    turn: int | None
    dice: tuple[int, int] | None
    position_id: str
    match_id: str
    phase: str
    game: int
    updated_ms: int
    clocks: tuple[int, int] | None = None
    clock_running: int | None = None
    event: str = ""
    match: int = 0
    match_uuid: str = ""


@dataclass(frozen=True, slots=True)
class Online:
    """Whether the board is connected (``online``, retained; ``False`` is the last will)."""

    online: bool


@dataclass(frozen=True, slots=True)
class Game:
    """One game of a result: who won, how many points, how (single, gammon, drop...)."""

    winner: int
    points: int
    result: str


@dataclass(frozen=True, slots=True)
class Result:
    """A finished match (``result``).  ``uuid`` identifies this match at this board (the
    director stores a result once per uuid); ``last_seq`` is the journal's last action
    number; ``mat`` the whole .mat record.  ``forfeit`` is the player who lost on time."""

    uuid: str
    board: int
    event: str
    match: int
    players: tuple[str, str]
    length: int
    score: tuple[int, int]
    winner: int
    games: tuple[Game, ...]
    mat: str
    last_seq: int
    finished_ms: int
    forfeit: int | None = None
    confirmed: bool = False  # both players confirmed it at the board (an event asking for it)
    disputed: bool = False  # a player disputed it at the board: the director decides


@dataclass(frozen=True, slots=True)
class ClockSettings:
    """The clock an assignment asks for (the config file's ``[clock]`` in ms)."""

    per_point_ms: int
    scored_ms: int
    delay_ms: int
    overtime_ms: int = 0


@dataclass(frozen=True, slots=True)
class Assignment:
    """The next match for a board (``assign``, retained, from the director).  An assignment
    with ``match`` 0 clears the board (no match for it now)."""

    event: str
    match: int
    board: int
    players: tuple[str, str]
    length: int
    rules: str = "standard"
    round: int = 0
    clock: ClockSettings | None = None
    confirm: bool = False  # the event wants both players to confirm the result at the board


@dataclass(frozen=True, slots=True)
class Ack:
    """The director's answer to one result: ``stored``, ``duplicate`` (already stored: the
    board may forget it) or ``refused`` (with ``reason``; the board shows it and stops
    sending)."""

    uuid: str
    status: str
    reason: str = ""


Message = BoardState | Online | Result | Assignment | Ack
TYPES: dict[str, type] = {
    "state": BoardState,
    "online": Online,
    "result": Result,
    "assign": Assignment,
    "ack": Ack,
}
KIND_OF: dict[type, str] = {cls: kind for kind, cls in TYPES.items()}
#: Fields added after version 1 shipped, written only when true (result confirmation).
OPTIONAL = ("confirm", "confirmed", "disputed")


def encode(message: Any) -> bytes:
    """The JSON payload of a message (compact, keys sorted)."""
    kind = KIND_OF[type(message)]
    body = {"v": VERSION, "type": kind, **asdict(message)}
    for name in OPTIONAL:  # left out when off: a peer of an older release reads the message
        if body.get(name) is False:
            del body[name]
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def decode(kind: str, payload: bytes | bytearray | str) -> Any:
    """The message of a ``kind`` payload, checked; :class:`ProtocolError` (one sentence)."""
    if kind not in TYPES:
        raise ProtocolError(f"no message kind {str(kind)[:20]!r}")
    data = load_json(kind, payload, MAX_KIND_PAYLOAD[kind])
    if data.get("v") != VERSION:
        raise ProtocolError(f"the {kind} message is of protocol version {str(data.get('v'))[:20]!r}: this side speaks {VERSION}")
    if data.get("type") != kind:
        raise ProtocolError(f"a message of type {str(data.get('type'))[:20]!r} arrived on a {kind} topic")
    return _READERS[kind](_Fields(kind, data))


def load_json(kind: str, payload: bytes | bytearray | str, limit: int) -> dict[str, Any]:
    """The JSON object of a ``kind`` payload of at most ``limit`` bytes, read within the
    protocol's bounds (nesting, values, digits); :class:`ProtocolError` (one sentence)."""
    if not isinstance(payload, (bytes, bytearray, str)):
        raise ProtocolError(f"the {kind} message is not text")
    if len(payload) > limit:
        raise ProtocolError(f"the {kind} message of {len(payload)} bytes is larger than {limit}")
    try:
        text = payload if isinstance(payload, str) else bytes(payload).decode("utf-8")
        _check_shape(kind, text)
        data = json.loads(text, parse_int=_parse_int, parse_float=_parse_float, parse_constant=_parse_constant)
    except ProtocolError:
        raise
    except _Refused as exc:
        raise ProtocolError(f"the {kind} message holds {exc}") from None
    except (ValueError, UnicodeDecodeError, RecursionError, MemoryError, TypeError):
        raise ProtocolError(f"the {kind} message is not JSON") from None
    if not isinstance(data, dict):
        raise ProtocolError(f"the {kind} message must be a JSON object")
    return data


# ----------------------------------------------------------------------------- checking
# A JSON string (escapes included) or one of the characters that open/close a structure.
_TOKENS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]')


def _check_shape(kind: str, text: str) -> None:
    """Refuse nesting deeper than :data:`MAX_DEPTH` and more than :data:`MAX_VALUES`
    structures before the JSON parser sees the text (it recurses once per level)."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return  # cannot be too deep (strings included in the count)
    depth = deepest = count = 0
    for token in _TOKENS.finditer(text):
        c = token.group()
        if c in "[{":
            depth += 1
            count += 1
            if depth > deepest:
                deepest = depth
                if deepest > MAX_DEPTH:
                    raise ProtocolError(f"the {kind} message nests deeper than {MAX_DEPTH} levels")
            if count > MAX_VALUES:
                raise ProtocolError(f"the {kind} message holds more than {MAX_VALUES} lists and objects")
        elif c in "]}":
            depth -= 1


class _Refused(InputError):
    """A value the JSON parser met that no message may hold (what, for the sentence)."""


def _parse_int(digits: str) -> int:
    if len(digits) > MAX_DIGITS:
        raise _Refused(f"a number of {len(digits)} digits")
    return int(digits)


def _parse_float(digits: str) -> float:
    if len(digits) > 2 * MAX_DIGITS:
        raise _Refused(f"a number of {len(digits)} characters")
    return float(digits)


def _parse_constant(name: str) -> float:
    raise _Refused(f"{name}, which is not a number")


class _Fields:
    """Typed access to a payload's fields, each failure one sentence naming the field."""

    def __init__(self, kind: str, data: Mapping[str, Any]) -> None:
        self.kind = kind
        self.data = data
        known = {f.name for f in fields(TYPES[kind])} | {"v", "type"}
        unknown = sorted(set(data) - known)
        if unknown:
            raise self.error(str(unknown[0])[:40], "is not a field of this message")

    def error(self, name: str, what: str) -> ProtocolError:
        return ProtocolError(f"the {self.kind} message's field {name!r} {what}")

    def value(self, name: str, default: Any = ...) -> Any:
        if name not in self.data:
            if default is ...:
                raise self.error(name, "is missing")
            return default
        return self.data[name]

    def int(self, name: str, low: int, high: int, default: Any = ...) -> int:
        v = self.value(name, default)
        if not isinstance(v, int) or isinstance(v, bool) or not low <= v <= high:
            raise self.error(name, f"must be a whole number {low}..{high}")
        return v

    def opt_int(self, name: str, low: int, high: int) -> int | None:
        return None if self.value(name, None) is None else self.int(name, low, high)

    def bool(self, name: str, default: Any = ...) -> bool:
        v = self.value(name, default)
        if not isinstance(v, bool):
            raise self.error(name, "must be true or false")
        return v

    def text(self, name: str, limit: int = MAX_TEXT, default: Any = ..., blank: bool = True) -> str:
        v = self.value(name, default)
        if not isinstance(v, str) or len(v) > limit or (not blank and not v.strip()):
            raise self.error(name, f"must be a text of at most {limit} characters")
        if (_CONTROL_IN_MAT if name == "mat" else _CONTROL).search(v):
            raise self.error(name, "holds control characters")
        return v

    def uuid(self, name: str, default: Any = ...) -> str:
        v = self.value(name, default)
        if not isinstance(v, str) or not (v == "" and default == "" or _UUID_RE.match(v)):
            raise self.error(name, "must be a UUID such as 0b6c5e4a-8c1e-4c31-9a4e-2f6f1d2d3e4f")
        return v

    def pair(self, name: str, low: int, high: int) -> tuple[int, int]:
        v = self.value(name)
        if not isinstance(v, list) or len(v) != 2 or not all(isinstance(x, int) and not isinstance(x, bool) and low <= x <= high for x in v):
            raise self.error(name, f"must be two whole numbers {low}..{high}")
        return (v[0], v[1])

    def names(self, name: str = "players") -> tuple[str, str]:
        v = self.value(name)
        if not isinstance(v, list) or len(v) != 2:
            raise self.error(name, "must be a list of two names")
        out = []
        for x in v:
            if not isinstance(x, str) or not x.strip() or len(x) > MAX_NAME or any(ord(c) < 32 for c in x):
                raise self.error(name, f"must hold two names of 1..{MAX_NAME} printable characters")
            out.append(x)
        return (out[0], out[1])

    def object(self, name: str) -> "_Fields | None":
        v = self.value(name, None)
        if v is None:
            return None
        if not isinstance(v, dict):
            raise self.error(name, "must be a JSON object")
        return _Nested(self, name, v)


class _Nested(_Fields):
    def __init__(self, parent: _Fields, name: str, data: Mapping[str, Any]) -> None:
        self.kind = f"{parent.kind} message's {name}"
        self.data = data

    def error(self, name: str, what: str) -> ProtocolError:
        return ProtocolError(f"the {self.kind} field {name!r} {what}")


_BIG = 2**53


def _state(f: _Fields) -> BoardState:
    clocks = None if f.value("clocks", None) is None else f.pair("clocks", 0, 10**9)
    dice_raw = f.value("dice", None)
    dice = None if dice_raw is None else f.pair("dice", 1, 6)
    phase = f.text("phase", 20)
    if phase not in PHASES:
        raise f.error("phase", f"must be one of {', '.join(PHASES)}")
    return BoardState(
        players=f.names(),
        length=f.int("length", 0, 255),
        score=f.pair("score", 0, 10**6),
        cube=f.int("cube", 1, 2**30),
        cube_owner=f.opt_int("cube_owner", 0, 1),
        crawford=f.bool("crawford"),
        turn=f.opt_int("turn", 0, 1),
        dice=dice,
        position_id=f.text("position_id", 20),
        match_id=f.text("match_id", 20),
        phase=phase,
        game=f.int("game", 0, 10**6),
        updated_ms=f.int("updated_ms", 0, _BIG),
        clocks=clocks,
        clock_running=f.opt_int("clock_running", 0, 1),
        event=f.text("event", MAX_NAME, ""),
        match=f.int("match", 0, _BIG, 0),
        match_uuid=f.uuid("match_uuid", ""),
    )


def _online(f: _Fields) -> Online:
    return Online(f.bool("online"))


def _result(f: _Fields) -> Result:
    raw = f.value("games")
    if not isinstance(raw, list) or len(raw) > 10_000:
        raise f.error("games", "must be a list of games")
    games = []
    for g in raw:
        if not isinstance(g, dict):
            raise f.error("games", "must hold JSON objects")
        n = _Nested(f, "game", g)
        games.append(Game(n.int("winner", 0, 1), n.int("points", 0, 10**6), n.text("result", 20)))
    return Result(
        uuid=f.uuid("uuid"),
        board=f.int("board", 1, MAX_BOARD),
        event=f.text("event", MAX_NAME),
        match=f.int("match", 0, _BIG),
        players=f.names(),
        length=f.int("length", 0, 255),
        score=f.pair("score", 0, 10**6),
        winner=f.int("winner", 0, 1),
        games=tuple(games),
        mat=f.text("mat", MAX_MAT),
        last_seq=f.int("last_seq", 0, _BIG),
        finished_ms=f.int("finished_ms", 0, _BIG),
        forfeit=f.opt_int("forfeit", 0, 1),
        confirmed=f.bool("confirmed", False),
        disputed=f.bool("disputed", False),
    )


def _assign(f: _Fields) -> Assignment:
    clock = None
    c = f.object("clock")
    if c is not None:
        clock = ClockSettings(
            c.int("per_point_ms", 0, 10**8), c.int("scored_ms", 0, 10**8), c.int("delay_ms", 0, 10**7), c.int("overtime_ms", 0, 10**8, 0)
        )
    match = f.int("match", 0, _BIG)
    return Assignment(
        event=f.text("event", MAX_NAME),
        match=match,
        board=f.int("board", 1, MAX_BOARD),
        players=f.names() if match else _names_or_blank(f),
        length=f.int("length", 0, 255),
        rules=f.text("rules", 20, "standard"),
        round=f.int("round", 0, 10**6, 0),
        clock=clock,
        confirm=f.bool("confirm", False),
    )


def _names_or_blank(f: _Fields) -> tuple[str, str]:
    v = f.value("players")
    if v == ["", ""]:
        return ("", "")
    return f.names()


def _ack(f: _Fields) -> Ack:
    status = f.text("status", 20)
    if status not in ACK_STATUSES:
        raise f.error("status", f"must be one of {', '.join(ACK_STATUSES)}")
    return Ack(f.uuid("uuid"), status, f.text("reason", MAX_TEXT, ""))


_READERS = {"state": _state, "online": _online, "result": _result, "assign": _assign, "ack": _ack}


def clear_assignment(board: int) -> Assignment:
    """The assignment that says "no match for this board now"."""
    return Assignment(event="", match=0, board=board, players=("", ""), length=0)


# ----------------------------------------------------------------------------- broker URL
@dataclass(frozen=True, slots=True)
class BrokerUrl:
    """Where the broker is: ``mqtt://host:1883`` or ``mqtts://host:8883`` (TLS)."""

    host: str
    port: int
    tls: bool = False

    def __str__(self) -> str:
        return f"{'mqtts' if self.tls else 'mqtt'}://{self.host}:{self.port}"


def parse_broker_url(text: str) -> BrokerUrl:
    """``mqtt://host[:port]`` / ``mqtts://host[:port]``; :class:`ProtocolError` otherwise."""
    m = re.match(r"^(mqtts?)://([A-Za-z0-9.\-]+|\[[0-9A-Fa-f:]+\])(?::(\d{1,5}))?/?$", text.strip()) if isinstance(text, str) else None
    if m is None:
        raise ProtocolError(f"the broker must be written mqtt://host:1883 or mqtts://host:8883, not {str(text)[:80]!r}")
    tls = m.group(1) == "mqtts"
    port = int(m.group(3)) if m.group(3) else (8883 if tls else 1883)
    if not 1 <= port <= 65535:
        raise ProtocolError(f"the broker's port must be 1..65535, not {port}")
    return BrokerUrl(m.group(2).strip("[]"), port, tls)
