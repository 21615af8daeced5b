"""The rules-engine functions the hints need, imported in one place."""

from __future__ import annotations

from bgboard.rules import apply_step, explain, legal_plays, legal_steps, position_id

__all__ = ["apply_step", "explain", "legal_plays", "legal_steps", "position_id"]
