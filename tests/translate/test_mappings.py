from __future__ import annotations

import re
from pathlib import Path

import pytest

from cass_cc.translate import mappings
from cass_cc.version import read_hip_version
from cass_cc.translate.lexer import tokenize

HIP_INCLUDE = Path("/usr/include/hip")
INSTALLED_HIP = (5, 2)
# families whose HIP library headers are not installed on these machines
NOT_INSTALLED = {"curand", "cublas", "cufft", "cusparse", "cusolver", "cub", "thrust", "nvtx"}


def test_tables_load_and_are_unique() -> None:
    table = mappings.table()
    assert len(table) > 800
    assert mappings.lookup("cudaMalloc").hip_name == "hipMalloc"
    assert mappings.lookup("cudaMemcpyHostToDevice").kind == "enum"
    assert mappings.lookup_header("cuda_runtime.h").hip_name == "hip/hip_runtime.h"
    assert mappings.lookup("notACudaName") is None


def test_every_file_is_well_formed() -> None:
    for path in sorted(mappings.DATA_DIR.glob("*.tsv")):
        rows = mappings.parse_table(path.read_text(), path.name)
        assert rows, path.name
        for row in rows:
            assert row.cuda_name and " " not in row.cuda_name
            if row.status in ("supported", "deprecated"):
                assert row.hip_name, row


def test_family_counts() -> None:
    counts: dict[str, int] = {}
    for row in mappings.all_rows():
        counts[row.family] = counts.get(row.family, 0) + 1
    assert counts["runtime"] >= 450
    assert counts["headers"] >= 25
    for family in ("device", "fp16", "curand", "cublas", "complex", "driver"):
        assert counts[family] >= 20, family


def test_parse_errors() -> None:
    with pytest.raises(mappings.MappingError):
        mappings.parse_table("a\tb\n", "x.tsv")
    header = "\t".join(mappings.COLUMNS) + "\n"
    with pytest.raises(mappings.MappingError):
        mappings.parse_table(header + "cudaX\thipX\tfunction\truntime\tmaybe\t\n", "x.tsv")
    with pytest.raises(mappings.MappingError):
        mappings.parse_table(header + "cudaX\thipX\tfunction\truntime\tsupported\tfive\n", "x.tsv")
    rows = mappings.parse_table("# c\n" + header + "\ncudaX\thipX\tfunction\truntime\tsupported\t6.2\n", "x.tsv")
    assert rows[0].hip_version == (6, 2)
    assert not rows[0].available_on((5, 2)) and rows[0].available_on((6, 2))


def test_data_hash_is_stable() -> None:
    assert mappings.data_hash() == mappings.data_hash()
    assert re.fullmatch(r"[0-9a-f]{64}", mappings.data_hash())


def _hip_identifiers() -> set[str]:
    names: set[str] = set()
    for path in HIP_INCLUDE.rglob("*.h"):
        if "nvidia" in path.parts[-2] or "nvcc" in path.parts[-2]:
            continue
        names.update(t.text for t in tokenize(path.read_text(errors="replace")) if t.kind == "ident")
    return names


@pytest.mark.skipif(not HIP_INCLUDE.is_dir(), reason="HIP headers not installed")
def test_supported_hip_names_are_declared() -> None:
    """Every HIP name a supported row translates to is in the installed HIP headers' code
    (comments excluded), unless it needs a newer HIP or its library is not installed."""
    declared = _hip_identifiers()
    missing = []
    checked = 0
    for row in mappings.all_rows():
        if row.kind == "header" or row.family in NOT_INSTALLED or not row.available_on(INSTALLED_HIP):
            continue
        if row.hip_name.startswith("__builtin_"):
            continue  # a clang builtin, not a header declaration
        checked += 1
        if row.hip_name not in declared:
            missing.append(f"{row.family}: {row.cuda_name} -> {row.hip_name}")
    assert not missing, "\n".join(missing)
    assert checked > 600


HIP_LIBRARY = Path("/usr/lib/x86_64-linux-gnu/libamdhip64.so")


@pytest.mark.skipif(not HIP_LIBRARY.exists() or not HIP_INCLUDE.is_dir(), reason="HIP not installed")
def test_api_functions_available_on_the_installed_hip_link() -> None:
    """HIP 5.2's headers declare functions its libamdhip64 does not export (hipLaunchHostFunc,
    hipMemCreate, ...): a translation to them compiles and then fails to link. A row may say
    a function is there on the installed HIP only if the library exports it or a header
    defines it."""
    import glob
    import subprocess

    nm = subprocess.run(["nm", "-D", "--defined-only", str(HIP_LIBRARY)], capture_output=True, text=True, check=True)
    exported = {line.split()[-1] for line in nm.stdout.splitlines()}
    headers = "".join(Path(f).read_text(errors="replace") for f in glob.glob(str(HIP_INCLUDE / "**" / "*.h"), recursive=True))
    defined = set(re.findall(r"\b(hip\w+)\s*\([^;{]*\)\s*(?:const\s*)?\{", headers))
    missing = [f"{row.family}: {row.cuda_name} -> {row.hip_name}" for row in mappings.all_rows()
               if row.kind == "function" and row.family in ("runtime", "graph", "texture", "driver")
               and row.available_on(INSTALLED_HIP) and row.hip_name.startswith("hip")
               and row.hip_name not in exported and row.hip_name not in defined]
    assert not missing, "\n".join(missing)


@pytest.mark.skipif(not HIP_INCLUDE.is_dir(), reason="HIP headers not installed")
def test_supported_headers_exist() -> None:
    installed = read_hip_version("/usr") or (0, 0, 0)
    for row in mappings.header_table().values():
        if row.status != "supported" or not row.hip_name.startswith("hip/"):
            continue
        if row.hip_version and row.hip_version > installed[:2]:
            continue  # a newer HIP's header: checked where that HIP is installed
        assert (HIP_INCLUDE.parent / row.hip_name).is_file(), row


def test_no_duplicate_cuda_names_across_files() -> None:
    seen: dict[tuple[str, bool], str] = {}
    duplicates = []
    for path in sorted(mappings.DATA_DIR.glob("*.tsv")):
        for row in mappings.parse_table(path.read_text(), path.name):
            key = (row.cuda_name, row.kind == "header")
            if key in seen:
                duplicates.append(f"{row.cuda_name}: {seen[key]} and {path.name}")
            seen[key] = path.name
    assert not duplicates, "\n".join(duplicates)


def test_families_are_known_and_match_file_names() -> None:
    for path in sorted(mappings.DATA_DIR.glob("*.tsv")):
        assert path.stem in mappings.FAMILIES, path.name
        for row in mappings.parse_table(path.read_text(), path.name):
            assert row.family == path.stem, (path.name, row)
    assert set(mappings.rows_by_family()) == {p.stem for p in mappings.DATA_DIR.glob("*.tsv")}


def test_namespace_rows() -> None:
    namespaces = mappings.namespace_table()
    assert namespaces["cub"].hip_name == "hipcub"
    assert namespaces["thrust"].hip_name == "thrust"
    assert namespaces["cooperative_groups"].hip_name == "cooperative_groups"
    header = "\t".join(mappings.COLUMNS) + "\n"
    rows = mappings.parse_table(header + "cub\thipcub\tnamespace\tcub\tsupported\t\n", "x.tsv")
    assert rows[0].kind == "namespace"


def test_new_families_and_versions() -> None:
    assert mappings.lookup("cufftPlan1d").hip_name == "hipfftPlan1d"
    assert mappings.lookup("cusparseCreate").hip_name == "hipsparseCreate"
    assert mappings.lookup("cusolverDnCreate").hip_name == "hipsolverDnCreate"
    assert mappings.lookup("nvtxRangePushA").hip_name == "roctxRangePushA"
    assert mappings.lookup("nvrtcCreateProgram").hip_name == "hiprtcCreateProgram"
    assert mappings.lookup("cudaGraphLaunch").family == "graph"
    assert mappings.lookup("cudaCreateTextureObject").family == "texture"
    bf16 = mappings.lookup("__nv_bfloat16")
    assert bf16.hip_name == "__hip_bfloat16" and bf16.hip_version == (5, 7)
    assert not bf16.available_on(INSTALLED_HIP) and bf16.available_on((6, 0))
    assert mappings.lookup_header("cuda_bf16.h").hip_version == (5, 7)
