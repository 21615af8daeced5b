"""The rules-engine functions the hints need, imported in one place.

``explain`` (the reason for an illegal play, issue 2) may not be exported yet by the
rules package; until it is, :func:`bgboard.hints.teach.illegal_reason` says only that the
play is not legal.
"""

from __future__ import annotations

from typing import Callable, Optional

from bgboard.rules import Position, apply_step, legal_plays, legal_steps, position_id

explain: Optional[Callable[[Position, tuple[int, int], Position], Optional[str]]]
try:
    from bgboard.rules import explain  # type: ignore[attr-defined, no-redef]
except ImportError:  # pragma: no cover - depends on the rules engine's progress
    explain = None

__all__ = ["apply_step", "explain", "legal_plays", "legal_steps", "position_id"]
