"""Translation speed of the rule translator, in MB/s, against baselines run here.

    python bench/translate_speed.py [CORPUS_DIR ...] [--hipify-perl PATH]

The corpus is every .cu/.cuh/.h/.hpp/.cpp file under the folders given (e.g. the
HeCBench -cuda programs), or the golden test files. Measured:
- the rules translator in this process (median of 3 passes), beside the same translator
  lexing whole files (`windows=False`: windows.py lexes only the lines that can need work)
  and beside whole-file lexing alone;
- one process translating the whole corpus, start-up included, against hipify-perl
  doing the same in one process with `-no-output` (target: >= 10x faster), when a
  hipify-perl script is given (from ROCm/HIPIFY's bin/; not part of this project);
  timed in CPU seconds, interleaved, median of 3.
"""
from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

import click

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench._cli import CONTEXT, as_written  # noqa: E402
from cass_cc.click_main import run_click  # noqa: E402

SUFFIXES = {".cu", ".cuh", ".h", ".hpp", ".cpp", ".cc"}


def corpus(dirs: list[Path]) -> list[Path]:
    if not dirs:
        return sorted((ROOT / "tests" / "translate" / "golden").glob("*.cu"))
    return sorted(p for d in dirs for p in d.rglob("*") if p.suffix in SUFFIXES and p.is_file())


def translate_all(files: list[Path], windows: bool = True) -> int:
    """Translate every file (the work one `cass-cc port --examine` does); returns bytes read."""
    from cass_cc.driver.sources import decode_source
    from cass_cc.translate import RulesTranslator, Target

    translator, target, total = RulesTranslator(windows=windows), Target((5, 2), 32), 0
    for path in files:
        data = path.read_bytes()
        total += len(data)
        try:
            translator.translate(decode_source(str(path), data), str(path), target)
        except Exception as e:  # noqa: BLE001 - a bench reports, it does not stop
            print(f"{path}: {e}", file=sys.stderr)
    return total


def median_time(fn, runs: int = 3) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


@click.command(help=as_written(__doc__), context_settings=CONTEXT)
@click.argument("dirs", nargs=-1, type=click.Path(path_type=Path))
@click.option("--hipify-perl", type=click.Path(path_type=Path))
@click.option("--worker", is_flag=True, hidden=True)
def command(dirs: tuple[Path, ...], hipify_perl: Path | None, worker: bool) -> int:
    files = corpus(list(dirs))
    if worker:  # one process over the corpus, for the process-level comparison
        translate_all(files)
        return 0
    size = sum(p.stat().st_size for p in files)
    mb = size / 1e6
    print(f"corpus: {len(files)} files, {mb:.2f} MB")

    from cass_cc.translate.lexer import tokenize

    translate_all(files)  # load the tables once
    texts = [p.read_bytes().decode("utf-8", "surrogateescape") for p in files]
    def lex_all() -> None:
        for t in texts:  # one file's tokens at a time, as the translator holds them
            tokenize(t)

    lex = median_time(lex_all)
    rules = median_time(lambda: translate_all(files))
    whole = median_time(lambda: translate_all(files, windows=False))
    print(f"in process: rules {mb / rules:.2f} MB/s; lexing whole files: rules {mb / whole:.2f} MB/s,"
          f" lexing alone {mb / lex:.2f} MB/s")

    # Whole processes, start-up included, timed by the CPU time they use (less sensitive
    # to other load than wall time), interleaved so drift hits both alike.
    ours_cmd = [sys.executable, __file__, "--worker", *map(str, dirs)]
    perl_cmd = ["perl", str(hipify_perl), "-no-output", "-quiet-warnings", *map(str, files)] if hipify_perl else None
    ours_t, perl_t = [], []
    for _ in range(3):
        ours_t.append(child_cpu(ours_cmd))
        if perl_cmd:
            perl_t.append(child_cpu(perl_cmd))
    ours = statistics.median(ours_t)
    print(f"one process, start-up included: cass-cc rules {mb / ours:.2f} MB/s ({ours:.2f} s CPU)")
    if perl_cmd:
        theirs = statistics.median(perl_t)
        ratio = theirs / ours
        print(f"one process, start-up included: hipify-perl {mb / theirs:.2f} MB/s ({theirs:.2f} s CPU)")
        print(f"speed ratio cass-cc/hipify-perl: {ratio:.2f}x (target >= 10x) {'OK' if ratio >= 10 else 'UNDER'}")
    return 0


def child_cpu(cmd: list[str]) -> float:
    """User + system CPU seconds of one run of `cmd`."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main(argv: list[str] | None = None) -> int:
    return run_click(command, argv, "bench/translate_speed.py")


if __name__ == "__main__":
    sys.exit(main())
