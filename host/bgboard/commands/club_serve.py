"""``bgboard club serve``: each asked-for service as a task of one asyncio loop, sharing one
hub of live boards — the web pages (``--http``), the director's MQTT side (``--broker``) with
the gallery's feed (``--gallery``), the results sent to the federation
(``--feed-password-file``) and the analysis queue's worker; the parser is
:mod:`bgboard.commands.club`'s.  :func:`run_until_signal` runs ``federation serve`` too."""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path
from typing import Any, Callable

from bgboard.club.director import Director
from bgboard.club.live_boards import LiveHub
from bgboard.errors import InputError
from bgboard.files import read_text

MAX_PASSWORD_FILE = 64 * 1024  # a broker password file is one short line


def serve(path: Path | str, args: argparse.Namespace) -> int:
    """``club serve``: each asked-for service as a task of one asyncio loop, sharing one hub."""
    if not args.http and not args.broker:
        raise InputError("say what to serve: --http HOST:PORT for the web pages, --broker URL for the boards")
    if args.feed_password_file and not args.broker:
        raise InputError("--feed-password-file sends the results through the club's broker: give --broker URL too")
    with Director.open(path) as d:
        name = d.club_name()
    hub = LiveHub()
    from bgboard.club.analysis_queue import run_worker

    gallery = _gallery(args)
    tasks: list[Callable[[], Any]] = [lambda: run_worker(path)]  # every stored result analysed in the background
    if args.broker:
        tasks += _board_services(path, args, name, hub, gallery)
    if not args.http:
        async def boards_only() -> None:
            await asyncio.gather(*(make() for make in tasks))

        run_until_signal(boards_only)
        return 0
    try:
        from bgboard.club.web.server import parse_listen, serve_club
    except ImportError as exc:
        raise InputError(f"the club's web pages need the 'club' extra ({exc.name} is missing): "
                         "pip install 'bgboard[club]'") from None
    host, port = parse_listen(args.http)

    def ready(bound_host: str, bound_port: int) -> None:
        shown = "localhost" if bound_host in ("0.0.0.0", "127.0.0.1") else bound_host
        print(f"club {name!r}: web pages on http://{shown}:{bound_port}/", flush=True)

    async def main() -> None:
        await asyncio.gather(serve_club(path, hub, host, port, ready=ready, gallery=gallery), *(make() for make in tasks))

    run_until_signal(main)
    return 0


def _gallery(args: argparse.Namespace) -> tuple[str, str] | None:
    """``--gallery``: (its WebSocket URL, the club's topic), checked; None without it."""
    if not args.gallery:
        return None
    from bgboard.net.gallery import check_gallery_url
    from bgboard.net.protocol import check_club

    if not args.broker:
        raise InputError("--gallery needs --broker: the director publishes the live boards through the club broker")
    return check_gallery_url(args.gallery), check_club(args.topic)


def _board_services(path: Path | str, args: argparse.Namespace, name: str, hub: LiveHub,
                    gallery: tuple[str, str] | None) -> list[Callable[[], Any]]:
    """``--broker``: the director's MQTT side (with the gallery's feed) and, with
    ``--feed-password-file``, the results sent to the federation; each a task to start."""
    tasks: list[Callable[[], Any]] = []
    from bgboard.club.boards import DirectorSettings, serve_boards
    from bgboard.net.protocol import check_club, parse_broker_url

    if not args.password_file:
        raise InputError("--broker needs --password-file FILE holding the director's broker password")
    password = read_text(args.password_file, "the password file", limit=MAX_PASSWORD_FILE).strip()
    settings = DirectorSettings(parse_broker_url(args.broker), check_club(args.topic), password, args.user,
                                args.ca_file)
    feed = None
    if gallery is not None:
        from bgboard.club.web.gallery_feed import GalleryFeed

        feed = GalleryFeed(hub, settings.club)
        print(f"club {name!r}: the live boards for the gallery at {gallery[0]} "
              f"(topics bgboard/{settings.club}/live/...)", flush=True)
    tasks.append(lambda: serve_boards(path, hub, settings, feed=feed))
    print(f"club {name!r}: boards through {settings.broker} (topics bgboard/{settings.club}/board/...)", flush=True)
    if args.feed_password_file:
        from bgboard.club.federation_feed import FeedSettings, serve_feed

        results_feed = FeedSettings(settings.broker, settings.club, read_text(
            args.feed_password_file, "the feed's password file", limit=MAX_PASSWORD_FILE).strip(), ca_file=args.ca_file)
        tasks.append(lambda: serve_feed(path, results_feed))
        print(f"club {name!r}: every stored result to the federation (bgboard/{results_feed.club}/federation/result)",
              flush=True)
    return tasks


def run_until_signal(main: Any) -> None:
    """Run ``main()`` in a new loop until it ends or SIGTERM/SIGINT arrives (then its tasks are
    cancelled and end cleanly)."""
    import signal

    async def guarded() -> None:
        task = asyncio.ensure_future(main())
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, task.cancel)
        try:
            await task
        except asyncio.CancelledError:
            pass

    asyncio.run(guarded())


__all__ = ["run_until_signal", "serve"]
