"""The director's outbox (bgboard.club.board_outbox): a live state for the gallery does not wait
behind a batch of acks still waiting for the broker's PUBACKs, and both kinds keep their order
and are kept for the next connection when the session breaks."""

from __future__ import annotations

import asyncio

import pytest

from bgboard.club.board_outbox import Outbox


class Client:
    """A session whose QoS 1 publishes wait for ``acked`` (the broker's PUBACK)."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, bytes, int]] = []
        self.acked = asyncio.Event()
        self.broken = False

    async def publish(self, topic: str, payload: bytes, qos: int, retain: bool) -> None:
        if self.broken:
            raise ConnectionError("the session broke")
        self.sent.append((topic, payload, qos))
        if qos == 1:
            await self.acked.wait()


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


def test_a_live_state_goes_out_while_the_acks_before_it_wait_for_their_pubacks():
    async def main() -> None:
        outbox, client = Outbox(), Client()
        runner = asyncio.ensure_future(outbox.run(client))
        outbox.queue("ack/1", b"stored", False)
        await settle()
        outbox.queue("ack/2", b"stored", False)          # the next batch: behind the first's PUBACK
        outbox.send("live/room", b"room 1", False)
        outbox.send("live/room", b"room 2", False)
        await settle()
        assert client.sent == [("ack/1", b"stored", 1), ("live/room", b"room 1", 0), ("live/room", b"room 2", 0)]
        client.acked.set()
        await settle()
        assert client.sent[-1] == ("ack/2", b"stored", 1)
        runner.cancel()
        await asyncio.gather(runner, return_exceptions=True)

    asyncio.run(main())


def test_what_a_broken_session_did_not_send_waits_for_the_next_one_in_order():
    async def main() -> None:
        outbox, client = Outbox(), Client()
        client.broken = True
        outbox.queue("ack/1", b"a", False)
        outbox.send("live/room", b"r", False)
        with pytest.raises(ConnectionError):
            await outbox.run(client)
        again = Client()
        again.acked.set()
        runner = asyncio.ensure_future(outbox.run(again))
        outbox.wake()
        await settle()
        assert sorted(again.sent) == [("ack/1", b"a", 1), ("live/room", b"r", 0)]
        runner.cancel()
        await asyncio.gather(runner, return_exceptions=True)

    asyncio.run(main())
