"""Every club's live boards on the federation's page: a board's retained state crosses the
club's bridge (QoS 0, retained) to the federation's broker, where the pages' read-only user
sees it; an empty retained state clears the board; junk is dropped, never a crash."""

from __future__ import annotations

import asyncio
import time
import urllib.request

from bgboard.club.web.server import serve_http
from bgboard.federation.bridge_conf import PAGES_USER
from bgboard.federation.live_watch import LiveWatch
from bgboard.federation.local_rig import LocalFederation
from bgboard.federation.portal import Portal, create_portal
from bgboard.net.broker import board_user
from bgboard.net.mqtt_client import open_client
from bgboard.net.protocol import BoardState, encode, parse_broker_url, topic

STATE = BoardState(players=("Ann", "<b>Bob</b>"), length=5, score=(2, 1), cube=1, cube_owner=None, crawford=False,
                   turn=0, dice=(3, 1), position_id="4HPwATDgc/ABMA", match_id="cAkAAAAAAAAA", phase="play", game=3,
                   updated_ms=1_700_000_000_000)


def test_a_club_board_reaches_the_federation_s_live_page(tmp_path, postgres_url):
    with LocalFederation(tmp_path, postgres_url, ["north"], boards=2) as fed:
        club = fed.sites[0]
        watch = LiveWatch(parse_broker_url(fed.home.broker.url), fed.home.broker.password(PAGES_USER))

        async def run() -> str:
            watching = asyncio.ensure_future(watch.run())
            ready: asyncio.Future[str] = asyncio.get_running_loop().create_future()
            stop = asyncio.Event()
            server = asyncio.ensure_future(serve_http(
                create_portal(Portal(postgres_url, "League"), watch=watch), "127.0.0.1", 0, stop=stop,
                ready=lambda h, p: ready.set_result(f"http://{h}:{p}")))
            url = await asyncio.wait_for(ready, 30)
            board = open_client(parse_broker_url(club.broker.url), username=board_user(1),
                                password=club.broker.password(board_user(1)), identifier="b1")
            async with board:
                await board.publish(topic("north", 1, "state"), encode(STATE), qos=1, retain=True)
                await board.publish(topic("north", 2, "state"), b"junk", qos=1, retain=True)  # not its topic: ACL
                deadline = time.monotonic() + 20  # the bridge connects within Mosquitto's restart backoff
                while ("north", 1) not in watch.boards:
                    assert time.monotonic() < deadline, "the state did not cross the bridge"
                    await asyncio.sleep(0.1)
                page = await asyncio.to_thread(lambda: urllib.request.urlopen(url + "/live", timeout=10).read().decode())
                await board.publish(topic("north", 1, "state"), b"", qos=1, retain=True)  # the board cleared
                while ("north", 1) in watch.boards:
                    assert time.monotonic() < deadline + 10
                    await asyncio.sleep(0.1)
            stop.set()
            await server
            watching.cancel()
            await asyncio.gather(watching, return_exceptions=True)
            return page

        page = asyncio.run(run())
    assert 'data-club="north"' in page and "2-1" in page
    assert "Ann v &lt;b&gt;Bob&lt;/b&gt;" in page  # a name is text, never markup
    assert ("north", 2) not in watch.boards


def test_junk_is_counted_and_dropped():
    watch = LiveWatch(parse_broker_url("mqtt://127.0.0.1:1"), "x")
    watch.take("bgboard/north/board/1/state", b"{not json")
    watch.take("bgboard/NOT A CLUB/board/1/state", encode(STATE))
    watch.take("bgboard/north/board/0/state", encode(STATE))
    assert watch.boards == {} and watch.bad == 3
    watch.take("bgboard/north/board/7/state", encode(STATE))
    assert list(watch.by_club()) == ["north"] and watch.by_club()["north"][0][0] == 7
