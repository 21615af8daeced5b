"""Every club's live boards as the federation's pages see them (adapter).

Each club's bridge carries its boards' retained ``state`` messages out to the federation's
broker (federation/bridge_conf.py); :class:`LiveWatch` — a task of ``bgboard federation serve
--http`` — reads them there as the user ``federation-pages`` (read-only, state topics only) and
keeps the last state of each club's board in memory for the ``/live`` page.  Every payload is
checked by the club protocol's own decoder (bounded, typed; a bad one is counted and dropped,
never a crash); an empty retained message clears the board; at most :data:`MAX_BOARDS`
boards are kept (a flood of made-up board numbers cannot grow it without bound).
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import asdict
from typing import Any

from bgboard.errors import InputError
from bgboard.federation.bridge_conf import PAGES_USER, STATES_FILTER
from bgboard.net.mqtt_client import Backoff, MqttError, open_client
from bgboard.net.protocol import BrokerUrl, check_club, decode, parse_topic

log = logging.getLogger(__name__)

MAX_BOARDS = 20_000


class LiveWatch:
    """The last state of every club's board (see the module docstring)."""

    def __init__(self, broker: BrokerUrl, password: str, *, username: str = PAGES_USER) -> None:
        self.broker = broker
        self.password = password
        self.username = username
        self.boards: dict[tuple[str, int], dict[str, Any]] = {}
        self.bad = 0
        self._stopping = asyncio.Event()

    def take(self, topic: str, payload: bytes) -> None:
        """One message from the broker (never raises for what a club sent)."""
        try:
            parts = topic.split("/")
            club = check_club(parts[1] if len(parts) > 1 else "")
            board, kind = parse_topic(topic, club)
            if kind != "state":
                return
            if not payload:
                self.boards.pop((club, board), None)
                return
            state = asdict(decode("state", payload))
            if (club, board) not in self.boards and len(self.boards) >= MAX_BOARDS:
                self.bad += 1
                return
            state["seen"] = time.time()
            self.boards[(club, board)] = state
        except InputError:
            self.bad += 1

    def by_club(self) -> dict[str, list[tuple[int, dict[str, Any]]]]:
        out: dict[str, list[tuple[int, dict[str, Any]]]] = {}
        for (club, board), state in sorted(self.boards.items()):
            out.setdefault(club, []).append((board, state))
        return out

    def stop(self) -> None:
        self._stopping.set()

    async def run(self) -> None:
        backoff = Backoff()
        while not self._stopping.is_set():
            client = open_client(self.broker, username=self.username, password=self.password,
                                 identifier="bgboard-federation-pages")
            try:
                async with client:
                    backoff.reset()
                    await client.subscribe(STATES_FILTER, qos=0)
                    async for message in client.messages:
                        self.take(str(message.topic), bytes(message.payload or b""))
            except (MqttError, OSError) as exc:
                log.warning("the federation's pages cannot read the live boards from %s (%s)", self.broker,
                            exc or type(exc).__name__)
            try:
                await asyncio.wait_for(self._stopping.wait(), backoff.delay())
            except asyncio.TimeoutError:
                pass


__all__ = ["MAX_BOARDS", "LiveWatch"]
