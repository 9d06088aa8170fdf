"""`cass-cc port` on generated hostile trees (issue 22): each tree mixes CUDA files with odd
modes and hard links, FIFOs, sockets, folders named *.cu, links that dangle, loop or leave the
tree, names with newlines and non-UTF-8 bytes, files that are not UTF-8. Each is ported with
-o, then --inplace twice, in its own process under a time limit; every run must end (no hang)
without a traceback, and what it writes must keep modes, hard links and (on the second
--inplace) the tree as the first left it.
"""
from __future__ import annotations

import os
import random
import socket
import stat
from pathlib import Path

import pytest

from cass_data.hostile.common import CASS_CC, Tally, run_bounded, sort_outcome

SEEDS = range(4)
TIMEOUT = 90.0  # a port of ~20 small files takes a few seconds; a blocked read never ends

KERNEL = "#include <cuda_runtime.h>\n__global__ void k{n}(float* d) {{ d[threadIdx.x] = {n}; }}\n" \
         "void launch{n}(float* d, cudaStream_t s) {{ k{n}<<<1, 32, 0, s>>>(d); cudaStreamSynchronize(s); }}\n"
MODES = (0o644, 0o755, 0o444, 0o600, 0o640)
NAMES = ("plain", "with space", "new\nline", "tab\tbed", "caf\u00e9", "dash-", "x" * 120)


def _name(rng: random.Random, n: int, suffix: str) -> str:
    return f"{rng.choice(NAMES)}{n}{suffix}"


def hostile_tree(root: Path, rng: random.Random, outside: Path) -> dict[str, list[str]]:
    """A tree under `root`; returns what the checks need: regular files, hard-link groups, specials."""
    made: dict[str, list[str]] = {"regular": [], "linked": [], "special": []}
    folders = [root]
    for n in range(rng.randint(1, 3)):
        d = rng.choice(folders) / _name(rng, n, rng.choice(("", ".cu", ".cuh")))  # a folder named *.cu too
        d.mkdir()
        folders.append(d)
    for n in range(rng.randint(4, 9)):
        folder = rng.choice(folders)
        kind = rng.choice(("cu", "cu", "cpp", "txt", "latin1", "binary", "empty", "mk"))
        suffix = {"cu": ".cu", "cpp": ".cpp", "txt": ".txt", "latin1": ".cu", "binary": ".cuh", "empty": ".cu", "mk": ".mk"}[kind]
        path = folder / _name(rng, n, suffix)
        data = {"cu": KERNEL.format(n=n).encode(), "cpp": b"int main() { cudaFree(0); }\n", "txt": b"data\n",
                "latin1": b"// (c) M\xfcller\n" + KERNEL.format(n=n).encode(), "binary": bytes(rng.randrange(256) for _ in range(64)),
                "empty": b"", "mk": b"NVCC = nvcc\nall:\n\t$(NVCC) -arch=sm_80 -c a.cu\n"}[kind]
        path.write_bytes(data)
        path.chmod(rng.choice(MODES))
        made["regular"].append(str(path.relative_to(root)))
        if rng.random() < 0.4:  # a second name in the tree
            twin = rng.choice(folders) / _name(rng, n + 100, suffix)
            os.link(path, twin)
            made["regular"].append(str(twin.relative_to(root)))
            made["linked"].append(f"{path.relative_to(root)}\0{twin.relative_to(root)}")
    for n in range(rng.randint(1, 4)):
        folder = rng.choice(folders)
        kind = rng.choice(("fifo", "socket", "broken", "loop", "outside", "inside", "folder_link"))
        path = folder / _name(rng, n + 200, rng.choice((".cu", ".h", "")))
        if kind == "fifo":
            os.mkfifo(path)
            made["special"].append(str(path.relative_to(root)))
        elif kind == "socket":
            with socket.socket(socket.AF_UNIX) as s:
                try:
                    s.bind(str(path))
                except OSError:  # a socket's path is at most 107 bytes
                    continue
            made["special"].append(str(path.relative_to(root)))
        elif kind == "broken":
            path.symlink_to("does-not-exist.cu")
        elif kind == "loop":
            path.symlink_to(path.name)
        elif kind == "outside":
            path.symlink_to(outside)
        elif kind == "inside" and made["regular"]:
            path.symlink_to(root / rng.choice(made["regular"]))
        else:
            path.symlink_to(root)
    return made


def _port(args: list[str], env: dict[str, str]) -> tuple[str, bytes, int | None]:
    r = run_bounded([*CASS_CC, "port", *args, "--hip-version", "5.2", "-q"], timeout=TIMEOUT, env=env)
    return sort_outcome(r), r.stderr, r.rc


def _tree_state(root: Path) -> dict[str, tuple[int, bytes | str]]:
    """Each name: its mode, and its bytes (regular files) or link target; FIFOs and sockets by mode only."""
    state: dict[str, tuple[int, bytes | str]] = {}
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            path = Path(folder) / name
            st = os.lstat(path)
            content: bytes | str = os.readlink(path) if stat.S_ISLNK(st.st_mode) else path.read_bytes() if stat.S_ISREG(st.st_mode) else ""
            state[str(path.relative_to(root))] = (st.st_mode, content)
    return state


@pytest.mark.parametrize("seed", SEEDS)
def test_hostile_trees(seed: int, tmp_path: Path) -> None:
    rng = random.Random(seed)
    src, out = tmp_path / "src", tmp_path / "out"
    src.mkdir()
    (tmp_path / "outside.h").write_text("int outside;\n")
    made = hostile_tree(src, rng, tmp_path / "outside.h")
    env = {**os.environ, "CASS_CONFIG": str(tmp_path / "none.toml"), "CASS_NO_CACHE": "1", "CASS_OFFLOAD_ARCH": "gfx1100"}
    tally = Tally("port")
    outcome, err, rc = _port([str(src), "-o", str(out)], env)
    tally.add(outcome, err[-400:])
    assert outcome in ("ok", "refused"), err.decode(errors="replace")
    for rel in made["special"]:
        assert not os.path.lexists(out / rel) and f"{rel}: ".encode() in err.replace(b"\\n", b"\n")
    for rel in made["regular"]:
        assert stat.S_IMODE(os.lstat(out / rel).st_mode) == stat.S_IMODE(os.lstat(src / rel).st_mode), rel
    for pair in made["linked"]:
        a, b = pair.split("\0")
        assert os.lstat(out / a).st_ino == os.lstat(out / b).st_ino, pair
    outcome, err, first_rc = _port([str(src), "--inplace"], env)
    tally.add(outcome, err[-400:])
    assert outcome in ("ok", "refused"), err.decode(errors="replace")
    after_first = _tree_state(src)
    outcome, err, rc = _port([str(src), "--inplace"], env)
    tally.add(outcome, err[-400:])
    assert outcome in ("ok", "refused") and rc == first_rc, err.decode(errors="replace")
    assert _tree_state(src) == after_first  # repeatable: the second run starts from the originals
    for pair in made["linked"]:
        a, b = pair.split("\0")
        assert os.lstat(src / a).st_ino == os.lstat(src / b).st_ino, pair
    assert tally.failures == 0, tally.summary()
