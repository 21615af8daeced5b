"""Imported by the multiprocessing forkserver of ``bgboard club serve`` as it starts (its
preload): the forkserver dies with the director's process (bgboard.club.lifeline)."""

from __future__ import annotations

from bgboard.club.lifeline import die_with_parent

die_with_parent()

__all__: list[str] = []
