"""Benchmark: Bradley-Terry ratings of GameBench's 277 published matches.

Times `projections.bradley_terry.rate` on the fixture tests/ratings/data/gamebench_matches.json
with `--samples` bootstrap samples (default 1000, as `cattle ratings --method bt`), best of
`--repeat`, and the point estimate alone. Prints (never asserts).
Run: uv run python -m bench.bt_bench [--samples 1000] [--repeat 3] [--json]
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from pathlib import Path

from projections import bradley_terry

DATA = Path(__file__).resolve().parents[1] / "tests" / "ratings" / "data" / "gamebench_matches.json"


def best_of(repeat: int, fn: object) -> float:
    """Fastest wall time of `repeat` calls of `fn`, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    """Time the ratings and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    matches = json.loads(DATA.read_text())
    point = best_of(args.repeat, lambda: bradley_terry.rate(matches, samples=1))
    full = best_of(args.repeat, lambda: bradley_terry.rate(matches, samples=args.samples))
    figures = {
        "matches": len(matches),
        "samples": args.samples,
        "seconds": round(full, 3),
        "ms_per_sample": round(1000 * full / args.samples, 3),
        "point_ms": round(1000 * point, 3),
        "python": platform.python_version(),
    }
    if args.json:
        print(json.dumps(figures))
        return
    print(
        f"{figures['matches']} matches, {args.samples} bootstrap samples:"
        f" {full:.2f} s ({figures['ms_per_sample']} ms a sample, best of {args.repeat});"
        f" point estimate alone {figures['point_ms']} ms (Python {figures['python']})"
    )


if __name__ == "__main__":
    main()
