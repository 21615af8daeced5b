"""Children die with their parent (adapter): the helper processes of ``bgboard club serve`` —
the analysis child, the forkserver and its result checkers — end when the director's process
dies, by any signal, ``kill -9`` included, and so hold no database handle afterwards.

Linux's ``prctl(PR_SET_PDEATHSIG)`` asks the kernel to send a signal to a process when its
parent dies; it is set in each child as it starts (a pool's initializer; the forkserver
imports :mod:`bgboard.club.forkserver_lifeline`, which sets it there).  A parent that died
before the call is caught by the parent id having changed.  Elsewhere (no prctl) this does
nothing: the pools' own pipes end the children when they next look.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys

PR_SET_PDEATHSIG = 1  # linux/prctl.h


def die_with_parent(parent: int | None = None) -> None:
    """Have this process killed (SIGKILL) when its parent dies; if ``parent`` (or, without it,
    a parent at all: not init) is already gone, end now."""
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
    except (OSError, AttributeError):  # no prctl: the pools' pipes are the only lifeline
        return
    now = os.getppid()
    if (parent is not None and now != parent) or now == 1:
        os._exit(0)


def helper_start(nice: int = 0) -> None:
    """A pool's initializer: die with the parent, then lower the CPU priority by ``nice``."""
    die_with_parent()
    if nice:
        try:
            os.nice(nice)
        except (AttributeError, OSError):  # no nice on this platform: the helper runs as it is
            pass


__all__ = ["die_with_parent", "helper_start"]
