"""The same command under torchrun with two processes (DDP over gloo on CPU): the data is
split between them, one model folder is written, and it loads in cass-cc."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.train.conftest import needs_torch, pair_rows, train_sections, write_jsonl, write_recipe

pytestmark = needs_torch
ROOT = Path(__file__).resolve().parents[2]


def test_torchrun_two_processes(tiny_base: Path, tmp_path: Path) -> None:
    import json

    data = write_jsonl(tmp_path / "d.jsonl", pair_rows())
    recipe = write_recipe(tmp_path / "r.toml", train_sections(tiny_base, tmp_path / "run", max_steps=4, logging_steps=1,
                                                               batch_size=2, count_tokens=True),
                           [{"path": str(data), "weight": 2}])
    env = {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc_per_node", "2",
                           "-m", "cass_train.cli", "sft", str(recipe)], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stderr.count("trained 4 steps on 8 examples") == 1  # the main process reports
    metrics = json.loads((tmp_path / "run" / "metrics.json").read_text())
    assert metrics["data"]["packed_rows"] == 8  # one example a row at max_length 256
    # each process reads half the rows an epoch (2 steps of 2 rows): 4 steps are 2 epochs,
    # and the two processes together read every row twice
    assert metrics["train"]["epoch"] == 2
    assert metrics["train"]["num_input_tokens_seen"] == 2 * metrics["data"]["train_tokens"]
    model = tmp_path / "run" / "model"
    assert (model / "config.json").is_file() and (model / "model.safetensors").is_file()
    assert not list((tmp_path / "run").glob(".model.*"))  # no half-made folders left behind
