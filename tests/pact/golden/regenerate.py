"""Regenerate every golden PACT playthrough: `uv run python tests/pact/golden/regenerate.py`.

Run it only after an intended change to the rules, events or prompts, and review the diff.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pact_golden import CASES, GOLDEN_DIR, path_for, render


def main() -> None:
    """Write tests/pact/golden/data/<case>.json for every case."""
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    for case in CASES:
        path = path_for(case)
        path.write_text(render(case))
        print(f"wrote {path} ({path.stat().st_size // 1024} KiB)")


if __name__ == "__main__":
    main()
