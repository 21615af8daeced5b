"""The room's live hub: latest state per board, offline marks, coalescing subscribers."""

from __future__ import annotations

import asyncio
import random

import pytest
from hypothesis import given, strategies as st

from bgboard.club.live_boards import BadBoardError, LiveHub
from bgboard.errors import InputError


def test_update_offline_and_snapshot():
    hub = LiveHub()
    hub.update(3, {"score": [0, 0]})
    hub.update(1, {"score": [1, 0]})
    hub.offline(3)
    snap = hub.snapshot()
    assert list(snap) == [1, 3]
    assert snap[3].online is False and snap[3].state["score"] == [0, 0]
    assert snap[1].online is True and snap[1].version == 2
    hub.update(3, {"score": [0, 1]})
    assert hub.get(3).online is True and hub.get(3).version == 4


def test_state_is_copied_and_read_only():
    hub = LiveHub()
    given_state = {"score": [0, 0]}
    hub.update(2, given_state)
    given_state["score"] = [9, 9]
    assert hub.get(2).state["score"] == [0, 0]
    with pytest.raises(TypeError):
        hub.get(2).state["score"] = [1, 1]  # type: ignore[index]


@pytest.mark.parametrize("board", [0, -1, 10000, "7", 2.0, True, None])
def test_bad_board_numbers_are_refused_with_a_sentence(board):
    with pytest.raises(BadBoardError, match="whole number from 1 to 9999"):
        LiveHub().update(board, {})


def test_a_state_that_is_not_an_object_is_refused():
    with pytest.raises(InputError, match="JSON object"):
        LiveHub().update(1, ["not", "a", "dict"])  # type: ignore[arg-type]


def test_offline_board_that_never_reported_has_empty_state():
    hub = LiveHub()
    assert hub.offline(5).state == {} and not hub.get(5).online


def test_subscriber_gets_changes_in_order_and_stops_on_close():
    async def main():
        hub = LiveHub()
        seen = []
        async with hub.subscribe() as changes:
            assert hub.subscribers == 1

            async def read():
                async for live in changes:
                    seen.append((live.board, live.online, live.version))

            reader = asyncio.create_task(read())
            await asyncio.sleep(0)
            hub.update(1, {"a": 1})
            await asyncio.sleep(0)
            hub.offline(1)
            await asyncio.sleep(0)
            hub.update(2, {"a": 2})
            await asyncio.sleep(0)
        await asyncio.wait_for(reader, 30)
        assert hub.subscribers == 0
        return seen

    assert asyncio.run(main()) == [(1, True, 1), (1, False, 2), (2, True, 3)]


def test_a_slow_subscriber_gets_only_the_newest_state_per_board():
    async def main():
        hub = LiveHub()
        sub = hub.subscribe()
        for n in range(100):
            hub.update(1 + n % 3, {"n": n})
        assert sub.pending() == 3
        batch = await sub.next_batch()
        sub.close()
        return [(live.board, live.state["n"]) for live in batch]

    assert asyncio.run(main()) == [(2, 97), (3, 98), (1, 99)]  # board 1 + n % 3


@given(st.lists(st.tuples(st.integers(1, 6), st.booleans()), max_size=60))
def test_coalesced_reader_ends_with_the_hub_snapshot(ops):
    """Whatever interleaving of reads, a reader's last view of each board is the hub's."""
    async def main():
        hub = LiveHub()
        sub = hub.subscribe()
        view = {}
        rng = random.Random(len(ops))
        for i, (board, gone) in enumerate(ops):
            hub.offline(board) if gone else hub.update(board, {"i": i})
            if rng.random() < 0.3:
                view.update({live.board: live for live in sub.take()})
        view.update({live.board: live for live in sub.take()})
        sub.close()
        return view, hub.snapshot()

    view, snap = asyncio.run(main())
    assert view == snap


def test_close_ends_every_reader_and_new_ones_still_work():
    async def main():
        hub = LiveHub()
        sub = hub.subscribe()
        reader = asyncio.create_task(sub.next_batch())
        await asyncio.sleep(0)
        hub.close()
        with pytest.raises(StopAsyncIteration):
            await reader
        assert hub.subscribers == 0
        later = hub.subscribe()
        hub.update(1, {})
        return [live.board for live in later.take()]

    assert asyncio.run(main()) == [1]
