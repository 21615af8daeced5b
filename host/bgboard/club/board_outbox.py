"""What the director publishes, in order, on its one MQTT session (adapter).

:class:`Outbox` holds the acks and assignments (QoS 1) and the gallery's live states (QoS 0)
until the session's writer sends them: one topic's messages in order, topics side by side.
A batch that could not be sent is kept, in front, for the next connection (acks and retained
assignments sent twice are harmless).

The two kinds go out on paths of their own: a batch of acks waits for the broker's PUBACKs
before the next batch is taken, and a live state queued meanwhile does not wait for them (a
burst's 200 acks took the room's states a round trip per batch behind them); a live state
needs no acknowledgement (the newest replaces the older), a result's ack keeps its own order
and its exactly-once path untouched.
"""

from __future__ import annotations

import asyncio
from typing import Any


class _Queue:
    """One path's messages waiting, and its wake-up."""

    def __init__(self) -> None:
        self.outgoing: list[tuple[str, bytes, bool, int]] = []   # (topic, payload, retain, QoS)
        self.wake = asyncio.Event()

    def add(self, item: tuple[str, bytes, bool, int]) -> None:
        self.outgoing.append(item)
        self.wake.set()

    async def run(self, client: Any) -> None:
        """Publish what is waiting on ``client`` until the session ends (it raises then)."""
        while True:
            await self.wake.wait()
            self.wake.clear()
            while self.outgoing:
                batch, self.outgoing = self.outgoing, []
                by_topic: dict[str, list[tuple[bytes, bool, int]]] = {}
                for where, payload, retain, qos in batch:
                    by_topic.setdefault(where, []).append((payload, retain, qos))
                try:  # one topic's messages in order; topics side by side
                    sent = await asyncio.gather(*(_publish(client, where, items) for where, items in by_topic.items()),
                                                return_exceptions=True)
                except BaseException:
                    self.outgoing[:0] = batch  # sent again after the reconnection (acks and retained: harmless)
                    raise
                failed = [e for e in sent if isinstance(e, BaseException)]
                if failed:
                    self.outgoing[:0] = batch
                    raise failed[0]


async def _publish(client: Any, where: str, items: list[tuple[bytes, bool, int]]) -> None:
    for payload, retain, qos in items:
        await client.publish(where, payload, qos=qos, retain=retain)


class Outbox:
    """The director's messages waiting to be published (module docstring)."""

    def __init__(self) -> None:
        self._acked = _Queue()   # QoS 1: acks, assignments, retained messages cleared
        self._live = _Queue()    # QoS 0: the gallery's live states

    def queue(self, where: str, payload: bytes, retain: bool) -> None:
        """Publish at QoS 1 (an ack, an assignment, a retained message cleared)."""
        self._acked.add((where, payload, retain, 1))

    def send(self, where: str, payload: bytes, retain: bool) -> None:
        """Publish at QoS 0, in order, beside the QoS 1 messages rather than behind them (the
        gallery feed: a lost live state is overtaken by the next)."""
        self._live.add((where, payload, retain, 0))

    def wake(self) -> None:
        """Look again (a new connection)."""
        self._acked.wake.set()
        self._live.wake.set()

    async def run(self, client: Any) -> None:
        """Publish what is waiting on ``client`` until the session ends (it raises then): both
        paths side by side, the first failure ending both."""
        tasks = [asyncio.ensure_future(self._acked.run(client)), asyncio.ensure_future(self._live.run(client))]
        try:
            done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_EXCEPTION)
            for task in done:
                task.result()   # raises the path's failure
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)


__all__ = ["Outbox"]
