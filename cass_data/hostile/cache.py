"""`cass-data hostile cache`: damaged cache folders against `cache stats`, `cache clear` and a build.

Each case makes a cache folder with a real entry (one build of k.cu), damages it one way,
then runs `cache stats`, a build, `cache stats`, `cache clear` and a build again. Damage:
a store's `cache.db` truncated, overwritten with random bytes, replaced by a database of
another schema, locked by another process (BEGIN EXCLUSIVE held), made read-only; every
entry's value replaced by garbage; index files and .hip files garbage or missing; a file
where a folder belongs. The stores are `translations` and `model` (the model store is
opened through an endpoint nothing listens on, with model-when=always).

Every command must exit 0 without a traceback, the builds must write their output, and
after `cache clear` nothing cass-cc owns (cass_cc.cache.OWNED) may be left.
"""
from __future__ import annotations

import os
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

import click

from .common import CASS_CC, Tally, finish, run_bounded, sort_outcome
from .endpoint import KERNEL, default_warm, seed_cache

DAMAGE = ("truncate", "random", "schema", "locked", "readonly", "garbage_values", "garbage_index", "missing_hip",
          "file_for_folder")
STORES = ("translations", "model")
LIMIT = 240.0  # seconds a command may take: a locked store costs LOCK_WAIT per access


def damage(cache: Path, store: str, how: str, rng: random.Random) -> subprocess.Popen[bytes] | None:
    """Damage `cache`; returns a process holding a lock, for "locked" (the caller ends it)."""
    db = cache / store / "cache.db"
    if how == "truncate" and db.exists():
        data = db.read_bytes()
        db.write_bytes(data[: rng.randrange(1, max(2, len(data)))])
    elif how == "random":
        db.parent.mkdir(parents=True, exist_ok=True)
        db.write_bytes(rng.randbytes(rng.randrange(1, 65536)))
    elif how == "schema":
        db.unlink(missing_ok=True)
        db.parent.mkdir(parents=True, exist_ok=True)
        with sqlite3.connect(db) as con:
            con.execute("CREATE TABLE Cache (id INTEGER, other TEXT)")
            con.execute("CREATE TABLE Settings (key TEXT, value TEXT)")
            con.execute("INSERT INTO Settings VALUES ('eviction_policy', 'nonsense')")
    elif how == "locked" and db.exists():
        hold = ("import sqlite3, sys, time; c = sqlite3.connect(sys.argv[1], isolation_level=None); "
                "c.execute('BEGIN EXCLUSIVE'); print('locked', flush=True); time.sleep(600)")
        proc = subprocess.Popen([sys.executable, "-c", hold, str(db)], stdout=subprocess.PIPE)
        proc.stdout.readline()  # type: ignore[union-attr]
        return proc
    elif how == "readonly":
        for path in [cache / store, *(cache / store).glob("*")]:
            path.chmod(0o555 if path.is_dir() else 0o444)
    elif how == "garbage_values" and db.exists():
        with sqlite3.connect(db) as con:
            rows = con.execute("SELECT rowid FROM Cache").fetchall()
            for (rowid,) in rows:  # mode 4: a pickle; 3: a value file that is not there
                mode = rng.choice((3, 4))
                con.execute("UPDATE Cache SET mode = ?, value = ?, filename = ? WHERE rowid = ?",
                            (mode, rng.randbytes(64), "00/00/missing.val" if mode == 3 else None, rowid))
            con.execute("INSERT INTO Cache (key, raw, store_time, expire_time, access_time, access_count, tag, size,"
                        " mode, filename, value) VALUES (?, 1, 0, NULL, 0, 0, NULL, 0, 4, NULL, ?)",
                        ("garbage", rng.randbytes(100)))
    elif how == "garbage_index":
        for index in (cache / "index").rglob("*.json"):
            index.write_bytes(rng.choice((rng.randbytes(50), b'{"hip": "../../../x", "key": 1}', b"[]", b"{}")))
    elif how == "missing_hip":
        shutil.rmtree(cache / "hip", ignore_errors=True)
    elif how == "file_for_folder":
        for name in ("index", "hip"):
            shutil.rmtree(cache / name, ignore_errors=True)
            (cache / name).write_bytes(b"not a folder")
    return None


def run_case(n: int, rng: random.Random, work: Path, warm: Path | None, phase: str) -> tuple[str, str]:
    how = DAMAGE[n % len(DAMAGE)] if n < len(DAMAGE) else rng.choice(DAMAGE)
    store = STORES[(n // len(DAMAGE)) % 2] if n < 2 * len(DAMAGE) else rng.choice(STORES)
    folder = work / f"case{n}"
    folder.mkdir(parents=True)
    (folder / "k.cu").write_text(KERNEL)
    cache = folder / "cache"
    seed_cache(cache, warm)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CASS_", "NVCC_"))}
    env.update(CASS_CACHE_DIR=str(cache), CASS_CONFIG=str(folder / "none.toml"))
    if store == "model":  # refused at once: the model store is opened, the rules serve
        env.update(CASS_MODEL_ENDPOINT="http://127.0.0.1:9/v1", CASS_MODEL="m", CASS_MODEL_WHEN="always",
                   CASS_MODEL_RETRIES="0")
    out = "k.o" if phase == "c" else "k.hip"
    build = [*CASS_CC, f"-{'c' if phase == 'c' else 'cuda'}", "k.cu", "-o", out]
    label = f"{how} {store}"
    first = run_bounded(build, timeout=LIMIT, cwd=folder, env=env)
    if first.rc != 0:
        return sort_outcome(first), f"{label}: the first build failed: {first.stderr[-400:]!r}"
    (folder / out).unlink()
    locker = damage(cache, store, how, rng)
    try:
        steps = [("stats", [*CASS_CC, "cache", "stats"]), ("build", build), ("stats", [*CASS_CC, "cache", "stats"])]
        if locker is None:  # clear removes what the lock holds; that case ends with the lock
            steps += [("clear", [*CASS_CC, "cache", "clear"])]
        for step, argv in steps:
            r = run_bounded(argv, timeout=LIMIT, cwd=folder, env=env)
            outcome = sort_outcome(r)
            if outcome != "ok":
                return outcome, f"{label}: {step}: rc {r.rc} after {r.seconds:.0f}s: {r.stderr[-600:]!r}"
            if step == "build" and not (folder / out).is_file():
                return "disagrees", f"{label}: the build exited 0 without {out}"
            if step == "clear":
                from cass_cc.cache import OWNED

                left = sorted(name for name in OWNED if (cache / name).exists())
                if left:
                    return "disagrees", f"{label}: cache clear left {left}"
    finally:
        if locker is not None:
            locker.kill()
            locker.wait()
        for path in cache.rglob("*"):  # readonly: let the clean-up remove it
            if path.is_dir():
                path.chmod(0o755)
    (folder / out).unlink(missing_ok=True)
    seed_cache(cache, warm)
    last = run_bounded(build, timeout=LIMIT, cwd=folder, env=env)
    if sort_outcome(last) != "ok" or not (folder / out).is_file():
        return sort_outcome(last) if sort_outcome(last) != "ok" else "disagrees", f"{label}: the last build: {last.stderr[-400:]!r}"
    return "ok", ""


def run(count: int, seed: int, warm: Path | None, phase: str, progress: Callable[[str], None] = lambda _: None) -> Tally:
    rng = random.Random(seed)
    tally = Tally("cache")
    work = Path(tempfile.mkdtemp(prefix="cass-hostile-cache-"))
    try:
        for n in range(count):
            outcome, why = run_case(n, rng, work, warm, phase)
            tally.add(outcome, why)
            progress(f"case{n}: {outcome} {why}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return tally


@click.command("cache")
@click.option("--count", default=36, show_default=True, help="cases")
@click.option("--seed", default=0, show_default=True)
@click.option("--report", type=click.Path(dir_okay=False, path_type=Path), help="write the tally as JSON")
@click.option("--phase", type=click.Choice(["c", "cuda"]), default="c", show_default=True,
              help="build with -c (clang too) or -cuda (translation only)")
@click.option("--warm-cache", type=click.Path(file_okay=False, path_type=Path),
              help="a cache folder whose device libraries seed each case's (default: the configured one)")
@click.option("-v", "--verbose", is_flag=True, help="a line per case")
def command(count: int, seed: int, report: Path | None, phase: str, warm_cache: Path | None, verbose: bool) -> None:
    """Damaged cache folders against `cache stats`, `cache clear` and a build."""
    start = time.monotonic()
    tally = run(count, seed, warm_cache or default_warm(), phase, click.echo if verbose else lambda _: None)
    finish(tally, time.monotonic() - start, report)
