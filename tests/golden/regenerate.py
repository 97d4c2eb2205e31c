"""Regenerate every golden playthrough: `uv run python tests/golden/regenerate.py`.

Run it only after an intended rule change, and review the diff it produces.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from playthrough import GOLDEN_DIR, MODES, PRESETS, path_for, render


def main() -> None:
    """Write tests/golden/data/<preset>-<mode>.json for every preset and mode."""
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    for preset in PRESETS:
        for mode in MODES:
            path = path_for(preset, mode)
            path.write_text(render(preset, mode))
            print(f"wrote {path} ({path.stat().st_size // 1024} KiB)")


if __name__ == "__main__":
    main()
