"""Who has a club's SQLite file open (adapter: /proc): named when the file stays busy."""

from __future__ import annotations

import os
from pathlib import Path


def holders_of(path: str | Path) -> list[str]:
    """The other processes of this machine that have the database (or its WAL) open, as
    'process PID (command)' — what /proc lets this user see; empty elsewhere."""
    try:
        target = Path(path).resolve()
    except OSError:
        return []
    wanted = {str(target), f"{target}-wal", f"{target}-shm", f"{target}-journal"}
    found: list[str] = []
    proc = Path("/proc")
    if not proc.is_dir():
        return []
    me = os.getpid()
    for entry in proc.iterdir():
        if not entry.name.isdigit() or int(entry.name) == me:
            continue
        try:
            if any(os.readlink(fd) in wanted for fd in (entry / "fd").iterdir()):
                raw = (entry / "cmdline").read_bytes()[:300]
                words = [w.decode("utf-8", "replace") for w in raw.split(b"\0") if w]
                words = [Path(words[0]).name] + words[1:] if words else ["?"]
                command = " ".join(" ".join(words).split())
                command = command if len(command) <= 60 else command[:57] + "..."
                found.append(f"process {entry.name} ({command})")
        except OSError:
            continue
        if len(found) >= 3:
            break
    return found


__all__ = ["holders_of"]
