"""The translation cache: hits, misses-as-errors for tests, stats and clear."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import needs_clang, run_cass

pytestmark = [pytest.mark.e2e, needs_clang]

SRC = "#include <cuda_runtime.h>\n__global__ void k(int* p) { p[threadIdx.x] = warpSize; }\n"


def test_warm_cache_serves_and_require_hit_is_honest(tmp_path: Path, cass_env: dict[str, str]) -> None:
    env = {**cass_env, "CASS_CACHE_DIR": str(tmp_path / "cache")}
    (tmp_path / "k.cu").write_text(SRC)
    run_cass(["-c", "k.cu"], tmp_path, env, check=True)
    # Same source, same flags: the translation must come from the cache.
    strict = {**env, "CASS_CACHE_REQUIRE_HIT": "1"}
    run_cass(["-c", "k.cu", "-o", "again.o"], tmp_path, strict, check=True)
    # A changed source is a miss, and with the switch on, an error naming the cause.
    (tmp_path / "k.cu").write_text(SRC + "// changed\n")
    proc = run_cass(["-c", "k.cu", "-o", "changed.o"], tmp_path, strict)
    assert proc.returncode == 1 and "translation cache miss" in proc.stderr
    assert not (tmp_path / "changed.o").exists()

    stats = run_cass(["cache", "stats"], tmp_path, env, check=True).stdout
    assert "entries: 1" in stats and "hits: 1" in stats
    assert "removed 1 entries" in run_cass(["cache", "clear"], tmp_path, env, check=True).stdout
    assert "entries: 0" in run_cass(["cache", "stats"], tmp_path, env, check=True).stdout


def test_key_depends_on_target_hip_version(tmp_path: Path) -> None:
    """Different HIP versions translate differently (warp sync functions), so they key apart."""
    from cass_cc.cache import key
    from cass_cc.translate.base import Target

    a = key(b"src", "k.cu", "rules-1", Target((5, 2), 32).key())
    b = key(b"src", "k.cu", "rules-1", Target((6, 2), 32).key())
    c = key(b"src", "k.cu", "rules-1", Target((5, 2), 64).key())
    assert len({a, b, c}) == 3


def test_no_cache_still_translates_user_headers(tmp_path: Path, cass_env: dict[str, str]) -> None:
    (tmp_path / "w.cuh").write_text(
        "#pragma once\n#include <cuda_runtime.h>\n"
        "__device__ inline int swap_pairs(int v) { return __shfl_xor_sync(0xffffffff, v, 1); }\n"
    )
    (tmp_path / "k.cu").write_text('#include "w.cuh"\n__global__ void k(int* p) { p[0] = swap_pairs(p[0]); }\n')
    env = {**cass_env, "CASS_NO_CACHE": "1", "CASS_CACHE_DIR": str(tmp_path / "unused")}
    run_cass(["-c", "k.cu"], tmp_path, env, check=True)
    assert (tmp_path / "k.o").is_file()
    assert not (tmp_path / "unused" / "translations").exists()  # nothing cached


def test_hit_reads_the_index_alone_and_survives_a_lost_index(tmp_path: Path) -> None:
    """A warm compile must not open SQLite; an entry whose index file went missing is still
    served (from the diskcache) and its index written again."""
    from cass_cc.cache import TranslationCache, key
    from cass_cc.translate.base import Diagnostic, Translation

    t = Translation(text="#include <hip/hip_runtime.h>\n", translator="rules-1",
                    diagnostics=(Diagnostic(1, 2, "warning", "w"),), unsupported=("cudaX",))
    k = key(b"src", "k.cu", "rules-1", "t")
    path = TranslationCache(tmp_path).put(k, t)

    fresh = TranslationCache(tmp_path)
    got, got_path = fresh.get(k)
    assert (got, got_path) == (t, path) and fresh._db is None  # served without the database

    for index in (tmp_path / "index").rglob("*.json"):
        index.unlink()
    again = TranslationCache(tmp_path)
    assert again.get(k) == (t, path) and again._db is not None
    assert TranslationCache(tmp_path).get(k) == (t, path)
    assert len(list((tmp_path / "index").rglob("*.json"))) == 1
    assert TranslationCache(tmp_path).get(key(b"other", "k.cu", "rules-1", "t")) is None
    assert {n: TranslationCache(tmp_path).stats()[n] for n in ("entries", "hits", "misses")} == {
        "entries": 1, "hits": 3, "misses": 1}


def test_a_damaged_entry_is_never_served(tmp_path: Path) -> None:
    """Issue 21: a changed digit in a cached .hip, an emptied .hip, an index entry pointing at
    another entry's file: each was served (a wrong object, exit 0). Every hit is checked now; a
    bad entry is dropped, so the compile translates again."""
    import json

    from cass_cc.cache import TranslationCache, key
    from cass_cc.translate.base import Translation

    def entry(text: str) -> tuple[str, Translation]:
        return key(text.encode(), "k.cu", "rules-1", "t"), Translation(text=text, translator="rules-1")

    (ka, a), (kb, b) = entry("int a = 1;\n"), entry("int b = 2;\n")
    cache = TranslationCache(tmp_path)
    path_a, path_b = cache.put(ka, a), cache.put(kb, b)
    assert TranslationCache(tmp_path).get(ka) == (a, path_a)

    path_a.write_text("int a = 7;\n")  # a changed digit
    assert TranslationCache(tmp_path).get(ka) is None and not path_a.exists()
    cache.put(ka, a)
    path_a.write_text("")  # emptied
    assert TranslationCache(tmp_path).get(ka) is None

    cache.put(ka, a)
    index_a = next((tmp_path / "index").rglob(f"{ka}.json"))
    entry_b = json.loads(next((tmp_path / "index").rglob(f"{kb}.json")).read_text())
    index_a.write_text(json.dumps(entry_b))  # a's index now names b's file
    assert TranslationCache(tmp_path).get(ka) is None
    assert TranslationCache(tmp_path).get(kb) == (b, path_b)  # the good entry stays
