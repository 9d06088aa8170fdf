"""Shared pipeline runs for tests/data: built once per content key under the shared test cache,
under a file lock, so xdist workers and later sessions reuse them."""
from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT, SHARED_CACHE, file_lock, tool_env

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "corpus"
EVAL = HERE / "eval"
CASS_DATA = ROOT / "bin" / "cass-data"
CACHE = SHARED_CACHE / "data"
NAMES = ("adam", "bezier-surface", "saxpy-ompt")  # HeCBench-style dev names for decontamination


def content_key(*extra: str) -> str:
    h = hashlib.sha256()
    for folder in (CORPUS, EVAL, ROOT / "cass_data", ROOT / "cass_cc"):
        for p in sorted(folder.rglob("*")):
            if p.is_file() and p.suffix in (".py", ".cu", ".h", ".tsv", ".c") and "__pycache__" not in p.parts:
                h.update(str(p.relative_to(ROOT)).encode() + b"\0" + p.read_bytes() + b"\0")
    # the HIP-on-NVIDIA adapter's identity names the interpreter and the checkout that run it
    # (hipnv/folder.py: hipcc_script): a cache filled from another worktree or Python must not be reused
    for e in (sys.executable, str(ROOT), *extra):
        h.update(e.encode() + b"\0")
    return h.hexdigest()[:20]


def locked(name: str):  # type: ignore[no-untyped-def]
    return file_lock(CACHE, name)


def env() -> dict[str, str]:
    return tool_env(CACHE / "no-config.toml")


def cass_data(args: list[str], cwd: Path | None = None, check: bool = True) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run([sys.executable, str(CASS_DATA), *args], cwd=cwd, env=env(), capture_output=True, text=True)
    if check and proc.returncode != 0:
        raise AssertionError(f"cass-data {' '.join(args)} failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    return proc


def tokenizer(path: Path) -> Path:
    """A small BPE tokenizer trained on the corpus (offline, deterministic)."""
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    tok = Tokenizer(models.BPE(unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    texts = [p.read_text() for p in sorted(CORPUS.rglob("*.cu"))]
    tok.train_from_iterator(texts, trainers.BpeTrainer(vocab_size=400, special_tokens=["[UNK]"], show_progress=False))
    tok.save(str(path))
    return path


FULL_SMS = ("sm_80", "sm_90")


def full_run() -> Path:
    """Every stage as its own command on the corpus + 3 synthesized programs: sm_80 and sm_90,
    gfx1100, lifter pairs. Returns a folder holding work/ and dataset/."""
    key = content_key("full", *FULL_SMS)
    out = CACHE / f"full-{key}"
    with locked(f"full-{key}"):
        if (out / "done").is_file():
            return out
        shutil.rmtree(out, ignore_errors=True)
        work = out / "work"
        out.mkdir(parents=True)
        tok = tokenizer(out / "tokenizer.json")
        common = ["-w", str(work), "-j", "2", "--no-progress"]
        cass_data(["collect", str(CORPUS), "synth:3:1", *common])
        cass_data(["translate", *common, "--sm", FULL_SMS[0], "--sm", FULL_SMS[1]])
        cass_data(["build", *common])
        cass_data(["extract", *common])
        cass_data(["verify", *common])
        names = out / "names.txt"
        names.write_text("\n".join(NAMES) + "\n")
        cass_data(["dedup", "-w", str(work), "--eval", str(EVAL), "--eval-names", str(names)])
        cass_data(["split", "-w", str(work)])
        cass_data(["export", "-w", str(work), "-o", str(out / "dataset"), "--tokenizer", str(tok)])
        (out / "done").write_text("ok\n")
    return out


def small_recipe(folder: Path, work: Path, ray: str = "") -> Path:
    """The corpus alone, sm_80, no gfx1100 side, lifter pairs: cheap enough to run three times."""
    recipe = folder / "recipe.toml"
    recipe.write_text(f"""work = "{work}"
output = "{folder / 'dataset'}"
sources = ["{CORPUS}"]
workers = 2
ray = "{ray}"
stages = ["collect", "translate", "build", "extract", "verify"]
[settings]
sms = ["sm_80"]
skip_amd = true
lift = true
""")
    return recipe


def small_run() -> Path:
    key = content_key("small")
    out = CACHE / f"small-{key}"
    with locked(f"small-{key}"):
        if not (out / "done").is_file():
            shutil.rmtree(out, ignore_errors=True)
            out.mkdir(parents=True)
            cass_data(["run", str(small_recipe(out, out / "work")), "--no-progress"])
            (out / "done").write_text("ok\n")
    return out
