"""The few rules-engine functions the hints need, imported in one place."""

from __future__ import annotations

try:  # the public API of bgboard.rules (contract)
    from bgboard.rules import apply_step, explain, legal_plays, legal_steps, position_id
except ImportError:  # pragma: no cover - while the rules package is being assembled
    from bgboard.rules.legal import legal_plays, legal_steps  # type: ignore[no-redef]
    from bgboard.rules.step import apply_step  # type: ignore[no-redef]

    explain = None  # type: ignore[assignment]
    position_id = None  # type: ignore[assignment]

__all__ = ["apply_step", "explain", "legal_plays", "legal_steps", "position_id"]
