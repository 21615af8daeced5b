"""The room's live boards as the spectators' gallery carries them (pure): compact, checked JSON.

A board's state comes from the board (untrusted); the director checks it once
(:func:`bgboard.club.web.boardview.board_view`: names bounded and printable, numbers in range,
the checkers decoded from the Position ID) and the gallery carries only that checked view, so a
browser never sees what a board sent, only what the room's own page would show.  The page's
script (static/club.js) draws it with text nodes and SVG elements, never as HTML.

One board (``board``)::

    {"board": 7, "version": 812, "online": true, "players": ["Anna", "Eva"], "length": 5,
     "score": [1, 2], "cube": 2, "owner": 0, "crawford": false, "turn": 1, "dice": [3, 5],
     "clocks": ["1:01", "0:58"], "running": 1, "phase": "Eva to play", "phase_key": "play", "event": "Friday",
     "match": 12, "title": "Board 7: Anna (white) v Eva (black) 1-2",
     "sides": ["0000000000000000000050...", "..."], "problem": "...", "updated_ms": 1795929692000}

The words are the pages' own (``phase`` is :attr:`BoardView.phase_line`, ``clocks`` its
``clock_text``, ``title`` the picture's, in English), so the script only places them; a page
in another language says the phase (``phase_key``, a :data:`PHASE_WORDS` key), the title and a
side the board named nobody for (``unnamed``: ``[true, false]``) with its own words
(:func:`page_words`), one message serving every spectator.  The room's messages leave the
English ``title`` and ``phase`` out (:data:`PAGE_SAYS`): every page that watches the room says
them with its own words, and they were about 30 % of a room message's compressed bytes; a
board's own retained message keeps them, for a reader without the page's words.  Fields that are unknown are left
out (``length``, ``score``, ``owner``, ``turn``, ``dice``, ``clocks``, ``running``, ``phase``,
``phase_key``, ``unnamed``, ``event``, ``match``, ``sides``, ``problem``, ``updated_ms``);
``sides`` are the two players' 26 counts (0 off, 1-24, 25 bar, each from its
own player's view, as :class:`~bgboard.club.web.boardview.BoardView` holds them) as 26 hex
digits each (a count above 15 is written ``f``: no point holds more than 15).  A board that
left the room: ``{"board": 7, "version": 813, "gone": true}``.

In the room's message a board the spectators already have goes as a **change** when that is
shorter (:func:`change`): ``{"board": 7, "version": 813, "base": 812, ...}`` with only the fields
whose values differ from version ``base`` (the board's previous state in the room) and ``drop``,
the fields it no longer has; a board going offline is then ``{"board": 7, "version": 813,
"base": 812, "online": false}``, not its whole state again.  A spectator holding version
``base`` applies it (:func:`applied`, the script's ``take``); one that does not (it joined
between the two, or a message was lost on its way) takes the board's own retained message
instead, which always holds the whole newest state.  Fewer bytes a tick is fewer room messages
for the gallery to send every spectator (below).

The room's message: ``{"boards": [board, ...], "sent_ms": 1795929692400}`` (the boards
changed in one tick; ``sent_ms`` the director's wall clock when it published them),
compressed once by the director as a raw DEFLATE stream (RFC 1951; the browser's
``DecompressionStream("deflate-raw")``): each spectator of the room gets every changed board, so
its bytes are the gallery's work, and a board's JSON shrinks about sevenfold in a room's
company (its keys and words repeat).  A room message stays within :data:`ROOM_BYTES`
compressed, so Mosquitto 2.0.11's WebSocket listener sends it in one write: it hands
libwebsockets at most 4,096 bytes a turn and the rest waits for its next turn, about 100 ms
later when the broker is otherwise idle (docs/club-network.md, "Spectators").  A board's own
message (its retained topic, a few hundred bytes) stays plain JSON.
"""

from __future__ import annotations

import json
import zlib
from typing import Any, Iterable, Iterator

from bgboard.club.live_boards import BoardLive
from bgboard.club.web.board_picture import title
from bgboard.club.web.boardview import PHASE_WORDS, PLAYER_PHASE, UNNAMED, BoardView, view_of
from bgboard.language import Words

#: A board's message is under this many bytes with the longest names and texts (the view
#: bounds them; a usual board is about 350).
BOARD_BYTES = 2048
#: A room message's most compressed bytes: with its topic and MQTT and WebSocket headers, one
#: write of libwebsockets' 4,096 (see the module).  A tick's boards beyond go in further
#: messages; one board's JSON (under :data:`BOARD_BYTES`) always fits.
ROOM_BYTES = 3800


def _hex(side: tuple[int, ...]) -> str:
    return "".join("0123456789abcdef"[min(count, 15)] for count in side)


def compact_view(view: BoardView, version: int, updated_ms: object = None) -> dict[str, Any]:
    """The checked ``view`` as the gallery's dict (see the module)."""
    out: dict[str, Any] = {"board": view.board, "version": version, "online": view.online,
                           "players": list(view.players), "cube": view.cube, "crawford": view.crawford,
                           "title": title(view)}
    optional: dict[str, Any] = {
        "length": view.length, "score": view.score, "owner": view.cube_owner, "turn": view.turn, "dice": view.dice,
        "clocks": None if view.clocks is None else [view.clock_text(0), view.clock_text(1)],
        "running": view.clock_running, "phase": view.phase_line or None, "phase_key": view.phase,
        "unnamed": list(view.unnamed) if any(view.unnamed) else None, "event": view.event,
        "match": view.match, "problem": view.problem,
        "sides": None if view.sides is None else [_hex(view.sides[0]), _hex(view.sides[1])],
    }
    out.update({key: list(value) if isinstance(value, tuple) else value
                for key, value in optional.items() if value is not None})
    if isinstance(updated_ms, int) and not isinstance(updated_ms, bool) and 0 < updated_ms < 2**53:
        out["updated_ms"] = updated_ms
    return out


def compact(live: BoardLive) -> dict[str, Any]:
    """A hub entry as the gallery's dict (``gone`` for a board that left the room)."""
    if not live.state and not live.online:
        return {"board": live.board, "version": live.version, "gone": True}
    return compact_view(view_of(live), live.version, live.state.get("updated_ms"))


#: What a room message leaves out of a board: the page says it in its own words (static/
#: gallery.js ``titleOf``, ``phaseOf``: from the board's number, players, score, ``phase_key``
#: and ``turn``).  200 boards mid-match: 9,311 compressed bytes with them, 6,729 without.
PAGE_SAYS = ("title", "phase")


def in_room(item: dict[str, Any]) -> dict[str, Any]:
    """A board's item as the room's messages carry it (without :data:`PAGE_SAYS`)."""
    return {key: value for key, value in item.items() if key not in PAGE_SAYS}


#: A change's own keys (never a field of a board's state).
CHANGE_KEYS = ("base", "drop")


def change(last: dict[str, Any] | None, item: dict[str, Any]) -> dict[str, Any]:
    """``item`` as the room sends it after ``last`` (the same board's previous item, as sent):
    only what differs, based on ``last``'s version, when that is shorter than ``item``;
    ``item`` itself otherwise (no ``last``, a board gone or back, a change as long as the state)."""
    if last is None or item.get("gone") or last.get("gone") or last["version"] >= item["version"]:
        return item
    out: dict[str, Any] = {"board": item["board"], "version": item["version"], "base": last["version"]}
    out.update((key, value) for key, value in item.items() if key not in out and not (key in last and _same(last[key], value)))
    dropped = [key for key in last if key not in item]
    if dropped:
        out["drop"] = dropped
    return out if len(encode(out)) < len(encode(item)) else item


def _same(a: Any, b: Any) -> bool:
    """The same JSON value (``1`` is not ``true``, as Python's ``==`` has it)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(map(_same, a, b))
    return bool(a == b)


def applied(last: dict[str, Any] | None, entry: dict[str, Any]) -> dict[str, Any] | None:
    """The board's whole state after the room's ``entry``: the entry when it is whole, ``last``
    with its changes when it is based on ``last``'s version, None when it is based on another
    (the spectator takes the board's retained message instead)."""
    if "base" not in entry:
        return entry
    if last is None or last.get("version") != entry["base"]:
        return None
    out = {key: value for key, value in last.items() if key not in entry.get("drop", ())}
    out.update((key, value) for key, value in entry.items() if key not in CHANGE_KEYS)
    return out


def encode(item: dict[str, Any]) -> bytes:
    """One board's message (its ``live/board/<n>`` topic)."""
    return json.dumps(item, ensure_ascii=False, separators=(",", ":")).encode()


def deflate(data: bytes) -> bytes:
    """``data`` as a raw DEFLATE stream (no zlib header: ``DecompressionStream("deflate-raw")``)."""
    packer = zlib.compressobj(6, zlib.DEFLATED, -15)
    return packer.compress(data) + packer.flush()


def inflate(data: bytes, limit: int = 16 * 1024 * 1024) -> bytes:
    """A room message's JSON again (at most ``limit`` bytes: ValueError beyond, or for bytes
    that are not a raw DEFLATE stream)."""
    unpacker = zlib.decompressobj(-15)
    try:
        out = unpacker.decompress(data, limit)
    except zlib.error as exc:
        raise ValueError(f"not a room message: {exc}") from None
    if unpacker.unconsumed_tail or not unpacker.eof:
        raise ValueError("not a room message: longer than allowed or cut short")
    return out


def room_messages(items: Iterable[dict[str, Any]], sent_ms: int | None = None) -> Iterator[bytes]:
    """The room's messages for these boards, compressed, each within :data:`ROOM_BYTES`, in
    as few messages as that allows: the boards in order, cut into equal runs, and into more
    runs while one run's message is too large (one board alone always fits).  Fewer messages
    are less of the gallery's work: it sends each message to each spectator."""
    stamp = b"" if sent_ms is None else b',"sent_ms":%d' % int(sent_ms)
    raws = [encode(item) for item in items]
    if not raws:
        return

    def packed(batch: list[bytes]) -> bytes:
        return deflate(b'{"boards":[' + b",".join(batch) + b"]" + stamp + b"}")

    parts = -(-len(packed(raws)) // ROOM_BYTES)
    while True:
        run = -(-len(raws) // parts)
        messages = [packed(raws[i:i + run]) for i in range(0, len(raws), run)]
        largest = max(map(len, messages))
        if largest <= ROOM_BYTES or run == 1:
            yield from messages
            return
        parts = max(parts + 1, -(-parts * largest // ROOM_BYTES))


def page_words(words: Words) -> dict[str, Any]:
    """The words the gallery's script (static/gallery.js) draws a board with, in ``words``'
    language: a page puts them in its ``gallery-words`` JSON, so one board message (English
    ``phase`` and ``title`` for a reader without the script's words, ``phase_key`` and
    ``unnamed`` for one with them) serves every spectator in their own language."""
    say = words.gettext
    return {"board": say("Board %(number)s"), "length": say("%(length)s-point match"), "money": say("money"),
            "offline": say("offline"), "match": say("match %(number)s"),
            "title": say("Board %(number)s: %(white)s (white) v %(black)s (black)"),
            "colours": [say("white"), say("black")], "unnamed": [say(UNNAMED[0]), say(UNNAMED[1])],
            "phases": {key: say(text) for key, text in PHASE_WORDS.items()},
            "player_phases": {key: say(text) for key, text in PLAYER_PHASE.items()}}
