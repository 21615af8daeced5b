"""The director's feed of the spectators' gallery (adapter: it paces itself on the event loop).

``bgboard club serve --broker ... --gallery URL``: every change of the room's hub
(``bgboard.club.live_boards``) goes to the club broker's ``live`` topics
(:mod:`bgboard.net.gallery`), checked and compact (:mod:`.live_wire`), through the director's
own MQTT session; a gallery Mosquitto bridges them in and serves the spectators.  The director's
cost does not grow with the spectators: per tick the room's messages and one retained message per
changed board, however many watch.

A lone change goes out at once; a burst is coalesced to one tick's room messages per
:data:`TICK_S` (the newest state of each board changed meanwhile, compressed: about 70 boards a
message, :mod:`.live_wire`; a board the room already has goes as its change from the room's last
state of it), so 200 boards moving at once cost every spectator a few messages a tick, not one
per board.  While the director is not connected nothing is
queued; once it is, every board changed meanwhile goes out (each board's newest state).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any, Callable

from bgboard.club.live_boards import LiveHub
from bgboard.club.web.live_wire import change, compact, encode, in_room, room_messages
from bgboard.net.gallery import board_topic, room_topic

log = logging.getLogger(__name__)

TICK_S = 0.5

Publish = Callable[[str, bytes, bool], None]   # (topic, payload, retain): queued, never waits


class GalleryFeed:
    """Publishes the hub's changes for club ``club`` (see the module); :meth:`run` with the
    director's ``publish`` and a ``connected()`` test."""

    def __init__(self, hub: LiveHub, club: str, tick_s: float = TICK_S) -> None:
        self.hub = hub
        self.club = club
        self.tick_s = tick_s
        self.sent = 0       # the hub's version published up to
        self.ticks = 0      # messages to the room so far
        self.last: dict[int, dict[str, Any]] = {}   # each board's item as the room last had it

    def publish_changes(self, publish: Publish) -> int:
        """Publish every board changed since the last call (newest state each); how many."""
        changed = []
        for live in self.hub.newest_first():
            if live.version <= self.sent:
                break
            changed.append(compact(live))
        if not changed:
            return 0
        changed.reverse()
        self.sent = max(item["version"] for item in changed)
        rooms = [in_room(item) for item in changed]
        entries = [change(self.last.get(item["board"]), item) for item in rooms]
        for message in room_messages(entries, int(time.time() * 1000)):   # the room first: most spectators watch it
            publish(room_topic(self.club), message, False)
            self.ticks += 1
        for item, room in zip(changed, rooms):
            publish(board_topic(self.club, item["board"]), encode(item), True)
            if item.get("gone"):
                self.last.pop(item["board"], None)
            else:
                self.last[item["board"]] = room
        return len(changed)

    async def run(self, publish: Publish, connected: Callable[[], bool]) -> None:
        """Until cancelled: wait for a change, publish, then wait out the tick."""
        loop = asyncio.get_running_loop()
        subscription = self.hub.subscribe()
        try:
            while True:
                if self.hub.version <= self.sent:
                    await subscription.next_batch()
                if not connected():
                    await asyncio.sleep(self.tick_s)   # nothing queued while the broker is away
                    continue
                started = loop.time()
                try:
                    self.publish_changes(publish)
                    subscription.take()
                except Exception as exc:  # a fault of ours must not end the director
                    log.error("the gallery feed could not publish (%s: %s)", type(exc).__name__, str(exc)[:200],
                              exc_info=exc)
                    self.sent = self.hub.version
                await asyncio.sleep(max(0.0, self.tick_s - (loop.time() - started)))
        except StopAsyncIteration:  # the hub closed: the server is stopping
            return
        finally:
            subscription.close()
