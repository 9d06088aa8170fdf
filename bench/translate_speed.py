"""Rule translation speed on a 2000+ line file, as a ratio to lexing the same text
(the floor any token-aware translator pays), both in this process.

    python bench/translate_speed.py
"""
from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cass_cc.translate import RulesTranslator, Target  # noqa: E402
from cass_cc.translate.lexer import tokenize  # noqa: E402


def best_of(fn, runs: int = 7) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> int:
    golden = ROOT / "tests" / "translate" / "golden"
    unit = "".join(p.read_text() for p in sorted(golden.glob("*.cu")))
    source = unit * (2000 // unit.count("\n") + 1)
    lines = source.count("\n")
    translator = RulesTranslator()
    target = Target((5, 2), 32)
    translator.translate(source, "big.cu", target)  # load the tables once
    lex = best_of(lambda: list(tokenize(source)))
    rules = best_of(lambda: translator.translate(source, "big.cu", target))
    print(f"{lines} lines: lexing {lex * 1000:.1f} ms, rule translation {rules * 1000:.1f} ms "
          f"(ratio {rules / lex:.2f}); target: translation under 100 ms {'OK' if rules < 0.1 else 'OVER'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
