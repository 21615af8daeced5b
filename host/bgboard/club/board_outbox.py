"""What the director publishes, in order, on its one MQTT session (adapter).

:class:`Outbox` holds the acks and assignments (QoS 1) and the gallery's live states (QoS 0)
until the session's writer sends them: one topic's messages in order, topics side by side.
A batch that could not be sent is kept, in front, for the next connection (acks and retained
assignments sent twice are harmless).
"""

from __future__ import annotations

import asyncio
from typing import Any


class Outbox:
    """The director's messages waiting to be published (module docstring)."""

    def __init__(self) -> None:
        self._outgoing: list[tuple[str, bytes, bool, int]] = []   # (topic, payload, retain, QoS)
        self._wake = asyncio.Event()

    def queue(self, where: str, payload: bytes, retain: bool) -> None:
        """Publish at QoS 1 (an ack, an assignment, a retained message cleared)."""
        self._outgoing.append((where, payload, retain, 1))
        self._wake.set()

    def send(self, where: str, payload: bytes, retain: bool) -> None:
        """Publish at QoS 0, in order (the gallery feed: a lost live state is overtaken by the next)."""
        self._outgoing.append((where, payload, retain, 0))
        self._wake.set()

    def wake(self) -> None:
        """Look again (a new connection)."""
        self._wake.set()

    async def run(self, client: Any) -> None:
        """Publish what is waiting on ``client`` until the session ends (it raises then)."""
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._outgoing:
                batch, self._outgoing = self._outgoing, []
                by_topic: dict[str, list[tuple[bytes, bool, int]]] = {}
                for where, payload, retain, qos in batch:
                    by_topic.setdefault(where, []).append((payload, retain, qos))
                try:  # one topic's messages in order; topics side by side
                    sent = await asyncio.gather(*(self._publish(client, where, items) for where, items in by_topic.items()),
                                                return_exceptions=True)
                except BaseException:
                    self._outgoing[:0] = batch  # sent again after the reconnection (acks and retained: harmless)
                    raise
                failed = [e for e in sent if isinstance(e, BaseException)]
                if failed:
                    self._outgoing[:0] = batch
                    raise failed[0]

    @staticmethod
    async def _publish(client: Any, where: str, items: list[tuple[bytes, bool, int]]) -> None:
        for payload, retain, qos in items:
            await client.publish(where, payload, qos=qos, retain=retain)


__all__ = ["Outbox"]
