"""The suite itself: size and coverage, metadata, manifest, self-checking shape, loader errors."""
from __future__ import annotations

import json
import re
from collections import Counter

import pytest

from cass_train.suite import MANIFEST, SuiteError, load, load_folder, read_program


def test_sixty_four_programs_four_per_domain(suite):
    assert len(suite.programs) >= 64
    per_domain = Counter(p.domain for p in suite.programs)
    assert len(per_domain) == 16, per_domain
    assert min(per_domain.values()) >= 4, per_domain


def test_features_translators_trip_over_are_covered(suite):
    text = {p.name: p.source() for p in suite.programs}
    every = "\n".join(text.values())
    for needle in ("__shared__", "extern __shared__", "atomicCAS", "__shfl_down_sync", "__shfl_xor_sync", "__ballot_sync",
                   "tiled_partition", "__constant__", "cudaMemcpyToSymbol", "cudaStreamCreate", "cudaEventRecord",
                   "template <", "cuda_fp16.h", "cuda_bf16.h", "curand_kernel.h", "blockIdx.z", "__ldg", "__popc",
                   "cudaStreamWaitEvent", "__fdividef", "rsqrtf"):
        assert needle in every, needle


def test_programs_are_self_checking(suite):
    for p in suite.programs:
        src = p.source()
        assert 40 <= src.count("\n") <= 200, (p.name, src.count("\n"))
        assert 'printf(' in src and "PASS" in src and "FAIL" in src, p.name
        # exits non-zero on FAIL: the last return of main is a 0/1 choice
        assert re.search(r"return [^;]+ \? 0 : 1;\s*}\s*$", src), p.name
        assert not re.search(r"\b(rand|srand|time|clock)\(", src), f"{p.name}: inputs must be deterministic"
        assert p.features, p.name


def test_manifest_is_in_step_with_the_programs(suite):
    on_disk = json.loads(MANIFEST.read_text())
    assert on_disk == suite.manifest(), "run: python -m cass_train.suite --write-manifest"
    assert on_disk["version"] == suite.version


def test_version_changes_with_a_program(tmp_path, suite):
    src = suite.programs[0].path
    d = tmp_path / "s"
    d.mkdir()
    (d / src.name).write_bytes(src.read_bytes())
    v1 = load_folder(d).version
    (d / src.name).write_bytes(src.read_bytes() + b"\n// changed\n")
    assert load_folder(d).version != v1


def test_needs_are_declared_where_an_installation_may_lack_a_header(suite):
    for p in suite.programs:
        src = p.source()
        if "cuda_bf16.h" in src:
            assert "hip_bf16.h" in p.needs, p.name
        if "curand_kernel.h" in src:
            assert "hiprand" in p.needs, p.name


def test_bad_headers_are_one_line_errors_naming_the_file(tmp_path):
    f = tmp_path / "k.cu"
    f.write_text("// cass-bench: k\n#include <cstdio>\nint main() { return 0; }\n")
    with pytest.raises(SuiteError, match=r"k\.cu: no '// domain:' line"):
        read_program(f)
    f.write_text("// cass-bench: other\n// domain: x\nint main() { return 0; }\n")
    with pytest.raises(SuiteError, match=r"k\.cu: the header names 'other'"):
        read_program(f)
    f.write_text("// domain: x\nint main() { return 0; }\n")
    with pytest.raises(SuiteError, match="no '// cass-bench: NAME' line"):
        read_program(f)
    with pytest.raises(SuiteError, match="no such suite"):
        load(str(tmp_path / "missing"))


def test_select_by_name_and_domain(suite):
    s = suite.select("sparse,gemv_shfl")
    assert {p.name for p in s.programs} == {"spmv_csr_scalar", "spmv_csr_warp", "spmv_ell", "spmm_coo_atomic", "gemv_shfl"}
    with pytest.raises(SuiteError, match="no program or domain named nope"):
        suite.select("nope")


def test_emu_launch_lines_parse(suite):
    from cass_train.evaluate.assembly import launch_args, parse_launch

    lines = [line for p in suite.programs for line in p.emu]
    assert len(lines) >= 3
    for line in lines:
        launch = parse_launch(line)
        args = launch_args(launch)
        assert len(args) == len(launch.args)
    with pytest.raises(ValueError, match="not f32"):
        parse_launch("k grid=1 block=32 args=float[3]")
    with pytest.raises(ValueError, match="no block="):
        parse_launch("k grid=1 args=f32[3]")
