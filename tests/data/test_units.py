"""Units, collection sources, the recipe's errors, the SASS/RDNA3 cutters: no compiler needed."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from cass_data.asm import rdna3_kernels, sass_kernels
from cass_data.collect import CollectError, collect
from cass_data.recipe import RecipeError, load
from cass_data.units import split_kernels
from tests.data import helpers

DUMP = """
\tcode for sm_80
\t.target\tsm_80

\t\tFunction : _Z1bPf
\t.headerflags\t@"EF_CUDA_SM80 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM80)"
        /*0000*/                   MOV R1, c[0x0][0x28] ;                 /* 0x00000a0000017a02 */
                                                                          /* 0x000fe40000000f00 */
        /*0010*/                   EXIT ;                                 /* 0x000000000000794d */
                                                                          /* 0x000fea0003800000 */
\t\t..........


\t\tFunction : _Z1aPf
\t.headerflags\t@"EF_CUDA_SM80 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM80)"
        /*0000*/                   EXIT ;                                 /* 0x000000000000794d */
                                                                          /* 0x000fea0003800000 */
\t\t..........
"""


def test_sass_is_cut_per_kernel_one_instruction_a_line() -> None:
    k = sass_kernels(DUMP)
    assert sorted(k) == ["_Z1aPf", "_Z1bPf"]
    assert k["_Z1bPf"] == ("\tcode for sm_80\n\t.target\tsm_80\n\n\t\tFunction : _Z1bPf\n"
                           "\t.headerflags\t@\"EF_CUDA_SM80 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM80)\"\n"
                           "        /*0000*/                   MOV R1, c[0x0][0x28] ;\n"
                           "        /*0010*/                   EXIT ;\n\t\t..........\n")
    assert "MOV" not in k["_Z1aPf"] and k["_Z1aPf"].startswith("\tcode for sm_80\n")


def test_rdna3_is_cut_per_kernel_with_its_descriptor() -> None:
    asm = ('\t.text\n\t.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"\n\t.globl\tk1\n\t.p2align\t8\nk1:\n\ts_endpgm\n'
           '\t.section\t.rodata,#alloc\n\t.amdhsa_kernel k1\n\t\t.amdhsa_next_free_vgpr 1\n\t.end_amdhsa_kernel\n'
           '\t.text\n\t.globl\thelper\nhelper:\n\ts_setpc_b64 s[30:31]\n'
           '\t.globl\tk2\nk2:\n\ts_endpgm\n\t.amdhsa_kernel k2\n\t.end_amdhsa_kernel\n')
    k = rdna3_kernels(asm)
    assert sorted(k) == ["k1", "k2"]  # a device function is not a kernel
    assert k["k1"].startswith('\t.text\n\t.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"\n\t.globl\tk1\n')
    assert k["k1"].rstrip().endswith(".end_amdhsa_kernel") and "k2" not in k["k1"]


def test_kernels_are_cut_with_their_helpers() -> None:
    text = (helpers.CORPUS / "gamma" / "kernels.cu").read_text()
    units = dict(split_kernels(text))
    assert sorted(units) == ["block_sum", "relu_clamp"]
    assert "clampf" in units["relu_clamp"] and "block_sum" not in units["relu_clamp"]
    assert "relu_clamp" not in units["block_sum"] and "template __global__ void block_sum<256>" in units["block_sum"]


def test_collect_from_a_parquet_dataset_and_a_git_checkout(tmp_path: Path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    saxpy = (helpers.CORPUS / "beta" / "saxpy.cu").read_text().replace('#include "scale.h"', "")
    pq.write_table(pa.table({"content": [saxpy, "int x;"], "path": ["/src/saxpy.cu", "/x.cu"],
                             "repo_name": ["someone/repo", "other/repo"], "license": ["MIT", None]}),
                   tmp_path / "train-0.parquet")
    units = list(collect([f"hf:{tmp_path / 'train-0.parquet'}"], tmp_path / "w"))
    assert [(u["origin"], u["path"], u["kind"], u["licence"]) for u in units] == [("someone/repo", "src/saxpy.cu", "program", "MIT")]
    repo = tmp_path / "repo"
    (repo / "k").mkdir(parents=True)
    (repo / "k" / "a.cu").write_text((helpers.CORPUS / "gamma" / "kernels.cu").read_text())
    (repo / "LICENSE").write_text("Apache License 2.0\n")
    for args in (["init", "-q"], ["add", "."], ["-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "x"]):
        subprocess.run(["git", "-C", str(repo), *args], check=True)
    units = list(collect([f"git+file://{repo}"], tmp_path / "w"))
    assert [(u["origin"], u["path"], u["kernel"]) for u in units] == [("repo", "k/a.cu", "relu_clamp"),
                                                                       ("repo", "k/a.cu", "block_sum")]
    assert (tmp_path / "w" / "checkouts" / "repo" / "k" / "a.cu").is_file()


def test_a_file_that_is_not_utf8_is_collected_whole(tmp_path: Path) -> None:
    """cuda-samples has Latin-1 copyright signs in comments: such a file is read as Latin-1 (every
    byte a character), so the store's digests, dedup and Parquet get valid text, and writing it
    back as Latin-1 gives the original bytes."""
    from cass_data.store import digest

    tree = tmp_path / "tree"
    tree.mkdir()
    raw = b"// (c) 2024 \xa9 Someone\n#include <cuda_runtime.h>\n__global__ void k(int* a) { a[0] = 1; }\n"
    (tree / "k.cu").write_bytes(raw)
    units = list(collect([str(tree)], tmp_path / "w"))
    assert len(units) == 1
    text = next(t for r, t in units[0]["files"].items() if r.endswith("k.cu"))
    assert "\u00a9" in text and text.encode("latin-1") == raw
    assert len(digest(units[0]["files"])) == 64  # the store's key: before, a surrogate stopped the run here


def test_include_folders_bring_the_headers_a_unit_includes(tmp_path: Path) -> None:
    """cuda-samples includes <helper_cuda.h> from its Common folder (CMake's -I): with that folder in
    `include`, the header, and the header it includes beside itself, travel with the unit at its top,
    where the build's -I of the unit's folder finds them; system headers and absent ones do not."""
    tree, common = tmp_path / "Samples" / "a", tmp_path / "Common"
    (common / "sub").mkdir(parents=True)
    tree.mkdir(parents=True)
    (common / "helper.h").write_text('#pragma once\n#include "sub/nested.h"\n#include <cuda_runtime.h>\n')
    (common / "sub" / "nested.h").write_text('#include "leaf.h"\n')
    (common / "sub" / "leaf.h").write_text("#define LEAF 1\n")
    (tree / "local.cuh").write_text("#define LOCAL 1\n")
    (tree / "k.cu").write_text('#include <helper.h>\n#include "local.cuh"\n#include <absent.h>\n'
                               "__global__ void k(int* a) { a[0] = LEAF + LOCAL; }\n")
    [plain] = collect([str(tmp_path / "Samples")], tmp_path / "w")
    assert sorted(plain["files"]) == ["k.cu", "local.cuh"]  # without include: beside only, as before
    [unit] = collect([str(tmp_path / "Samples")], tmp_path / "w", include=[common])
    assert sorted(unit["files"]) == ["helper.h", "k.cu", "local.cuh", "sub/leaf.h", "sub/nested.h"]
    assert unit["content"] != plain["content"]  # the headers are part of what a unit is
    recipe = tmp_path / "r.toml"
    recipe.write_text('sources = ["Samples"]\ninclude = ["Common"]\n')
    assert load(recipe).include == [common]
    recipe.write_text('sources = ["Samples"]\ninclude = "Common"\n')
    with pytest.raises(RecipeError, match=r"r\.toml: include must be a list of folder names"):
        load(recipe)
    recipe.write_text('sources = ["Samples"]\ninclude = ["Commons"]\n')
    typo = load(recipe)  # checked where it is used, as the sources are
    with pytest.raises(CollectError, match=r"Commons: include folder not found"):
        list(collect(typo.sources, tmp_path / "w", include=typo.include))


def test_recipe_errors_name_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "r.toml"
    bad.write_text('sources = ["x"]\n[settings]\nsmz = ["sm_80"]\n')
    with pytest.raises(RecipeError, match=r"r\.toml: \[settings\] has unknown key\(s\) smz"):
        load(bad)
    bad.write_text('sources = ["x"]\nstages = ["collect", "bake"]\n')
    with pytest.raises(RecipeError, match="unknown stage"):
        load(bad)
    bad.write_text("sources = [\n")
    with pytest.raises(RecipeError, match="not TOML"):
        load(bad)
    proc = helpers.cass_data(["run", str(bad)], check=False)
    assert proc.returncode == 1 and proc.stderr.count("\n") == 1 and "r.toml" in proc.stderr
    good = tmp_path / "g.toml"
    good.write_text('work = "w"\nsources = ["corpus", "synth:2:1", "hecbench:src:names.txt"]\n[split]\ntest = 0.2\n')
    r = load(good)
    assert r.work == tmp_path / "w" and r.sources == [str(tmp_path / "corpus"), "synth:2:1",
                                                      f"hecbench:{tmp_path / 'src'}:{tmp_path / 'names.txt'}"]
    assert r.split.test == 0.2 and r.settings.sms == ("sm_80", "sm_90")


def test_missing_stage_input_is_one_line(tmp_path: Path) -> None:
    proc = helpers.cass_data(["translate", "-w", str(tmp_path / "w"), "--no-progress"], check=False)
    assert proc.returncode == 1 and "units.jsonl: missing; run `cass-data collect` first" in proc.stderr
    assert json.loads((tmp_path / "w" / "settings.json").read_text())["sms"] == ["sm_80", "sm_90"]
