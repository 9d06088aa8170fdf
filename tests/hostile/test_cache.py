"""Hostile cache folders: damaged, locked and garbage stores never fail stats, clear or a
build; `cache clear` removes everything cass-cc owns; the `cass-data hostile cache` slice."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from cass_cc.cache import OWNED, TranslationCache
from cass_cc import diskstore as disk
from cass_cc.diskstore import DiskStore
from cass_data.hostile import cache as family
from tests.conftest import SHARED_CACHE, needs_clang, run_cass


@pytest.mark.parametrize("how", ["random", "truncate", "schema"])
def test_a_damaged_database_is_moved_aside_and_rebuilt(tmp_path: Path, how: str, capsys: pytest.CaptureFixture[str]) -> None:
    store = DiskStore(tmp_path / "translations")
    store.set("k", {"v": 1})
    store.close()
    family.damage(tmp_path, "translations", how, random.Random(1))
    fresh = DiskStore(tmp_path / "translations")
    assert fresh.get("k") is None  # the old entry is gone with its file
    fresh.set("k2", "v2")
    assert fresh.get("k2") == "v2"
    [warning] = capsys.readouterr().err.splitlines()
    assert warning.startswith(f"cass-cc warning : {tmp_path / 'translations' / 'cache.db'}: damaged cache database (")
    assert any(p.name.startswith("cache.db.damaged-") for p in (tmp_path / "translations").iterdir())


def test_a_locked_database_is_skipped_for_the_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(disk, "LOCK_WAIT", 0.2)
    store = DiskStore(tmp_path / "s")
    store.set("k", "v")
    store.close()
    locker = family.damage(tmp_path, "s", "locked", random.Random(1))
    try:
        locked = DiskStore(tmp_path / "s")
        locked.set("k2", "v2")  # dropped
        assert locked.get("k") is None and locked.count() == 0
    finally:
        locker.kill()  # type: ignore[union-attr]
        locker.wait()  # type: ignore[union-attr]
    assert "cache unavailable (" in capsys.readouterr().err
    assert DiskStore(tmp_path / "s").get("k") == "v"  # untouched: a lock is not damage


def test_garbage_values_are_misses(tmp_path: Path) -> None:
    store = DiskStore(tmp_path / "s")
    store.set("k", {"a": 1})
    store.close()
    family.damage(tmp_path, "s", "garbage_values", random.Random(3))
    assert DiskStore(tmp_path / "s").get("k") is None


def test_a_garbage_index_cannot_reach_outside_the_cache(tmp_path: Path) -> None:
    outside = tmp_path / "x.hip"
    outside.write_text("keep me")
    cache = TranslationCache(tmp_path / "cache")
    index = cache._index_file("a" * 64)
    index.parent.mkdir(parents=True)
    index.write_text(json.dumps({"hip": "../../../x", "key": "a" * 64}))
    assert cache.get("a" * 64) is None
    assert outside.read_text() == "keep me"


@pytest.mark.parametrize("store", family.STORES)
def test_stats_and_clear_on_a_damaged_database(tmp_path: Path, cass_env: dict[str, str], store: str) -> None:
    cache = tmp_path / "cache"
    env = {**cass_env, "CASS_CACHE_DIR": str(cache)}
    (cache / store).mkdir(parents=True)
    (cache / store / "cache.db").write_bytes(random.Random(2).randbytes(5000))
    for name in OWNED:  # something in every place cass-cc owns, and one thing it does not
        if not (cache / name).exists():
            (cache / name).write_text("x")
    (cache / "mine.txt").write_text("not cass-cc's")
    stats = run_cass(["cache", "stats"], tmp_path, env)
    assert stats.returncode == 0 and "Traceback" not in stats.stderr
    clear = run_cass(["cache", "clear"], tmp_path, env)
    assert clear.returncode == 0 and "Traceback" not in clear.stderr, clear.stderr
    assert sorted(p.name for p in cache.iterdir()) == ["mine.txt"]


@pytest.mark.e2e
@needs_clang
def test_ci_slice() -> None:
    """Every damage once on the translation store, -cuda builds."""
    tally = family.run(len(family.DAMAGE), 22, SHARED_CACHE, "cuda")
    assert tally.failures == 0, tally.examples
    assert sum(tally.counts.values()) == len(family.DAMAGE)
